# startup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot startup.gp
# (writes startup.png and startup.svg).  The data is inline below.
$s0 << EOD
16 0.00328098
64 0.000767865
256 0.000961294
1024 0.000881726
4096 0.000977919
16384 0.000973422
65536 0.00128394
262144 0.00107381
EOD
$s1 << EOD
16 0.00152925
64 0.000710918
256 0.00081982
1024 0.000910889
4096 0.000846518
16384 0.000876112
65536 0.00100027
262144 0.000960308
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'startup.png'

set title 'parallel_modes: start-up of the processes' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'fork + prepare, to the last process ready (ms)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set yrange [0:*]
set format y '%g'
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'


plot $s0 using 1:($2*1000) with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'processes' noenhanced, \
     $s1 using 1:($2*1000) with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes started per call' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'startup.svg'
replot
set output
