# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
16 0.1356677144
64 0.138356382
256 0.1496437556
1024 0.1234095171
4096 0.1270500001
16384 0.1494443064
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'parallel_modes: speedup over serial (serial time / time)' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set yrange [0:*]
set format y '%g'
set logscale x 2
set xrange [12.30769231:21299.2]
set xtics 16, 2
set format x '2^{%L}'

# where each curve crosses 1

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'GPU' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'serial = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
