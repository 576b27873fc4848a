# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 1.89370823
100 5.18492354
1000 9.85088227
10000 10.4695543
100000 7.79623784
EOD
$s1 << EOD
10 1.07885594
100 1.09268421
1000 1.06442258
10000 1.09870502
100000 1.06378765
EOD
$s2 << EOD
10 0.127502028
100 0.140687936
1000 0.140981217
10000 0.159376076
100000 0.155143236
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'sumsq: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
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
set xrange [8:125000]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU parallel' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
