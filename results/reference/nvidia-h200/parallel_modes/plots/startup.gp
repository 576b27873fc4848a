# startup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot startup.gp
# (writes startup.png and startup.svg).  The data is inline below.
$s0 << EOD
16 0.00845578
64 0.0107048
256 0.00890288
1024 0.00789398
4096 0.00874723
16384 0.00908465
65536 0.00736897
262144 0.0106
EOD
$s1 << EOD
16 0.0132441
64 0.0118464
256 0.0131719
1024 0.0139049
4096 0.0205616
16384 0.0175835
65536 0.0104765
262144 0.0137032
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


plot $s0 using 1:($2*1000) with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes' noenhanced, \
     $s1 using 1:($2*1000) with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'processes started per call' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'startup.svg'
replot
set output
