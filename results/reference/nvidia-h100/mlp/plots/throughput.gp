# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 7.02258626
20 8.81704029
40 9.43041494
80 11.0901165
160 12.2562771
320 12.4534333
640 8.44809477
1280 8.00725917
2560 8.06380511
5120 8.1699882
10240 7.72096423
EOD
$s1 << EOD
10 0.467958449
20 0.717950216
40 1.2492092
80 2.41753094
160 4.79953507
320 9.05931666
640 13.5969252
1280 25.3405776
2560 25.5498038
5120 25.2402535
10240 24.8624723
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'mlp: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
set logscale y 10
set yrange [1e-1:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
