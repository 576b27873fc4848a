# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 23.1560892
20 33.0306206
40 39.9072096
80 45.532833
160 49.1395135
320 51.4115414
640 23.873353
1280 44.3703607
2560 44.8898251
5120 44.9009606
10240 45.0162715
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
set yrange [0:*]
set format y '%g'
set logscale x 10
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
