# startup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot startup.gp
# (writes startup.png and startup.svg).  The data is inline below.
$s0 << EOD
16 0.00885747
64 0.00071124
256 0.00230213
1024 0.00343158
4096 0.00138044
16384 0.000859542
65536 0.00401047
262144 0.00108903
EOD
$s1 << EOD
16 0.00334702
64 0.00318606
256 0.00268298
1024 0.00402951
4096 0.00365153
16384 0.00337097
65536 0.00344864
262144 0.00363732
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'startup.png'

set title 'parallel_modes: start-up of the processes' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'fork + prepare, to the last process ready (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-4:1e-2]
set ytics ('100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'processes' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes started per call' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'startup.svg'
replot
set output
