# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
16 0.000261197 0.000257314 0.00027419
64 0.001013289 0.000976217 0.0010216
256 0.003883149 0.003823863 0.004048702
1024 0.018395907 0.01824461 0.01884634
4096 0.068924935 0.05975203 0.071959983
16384 0.241568922 0.241139273 0.243924801
EOD
$s1 << EOD
16 3.5436e-05 3.5355e-05 3.69e-05
64 0.000140195 0.000140007 0.000155256
256 0.000581089 0.000557996 0.000594377
1024 0.00227023 0.002262574 0.002301902
4096 0.008756913 0.008735987 0.008876901
16384 0.0361011 0.03577552 0.036269558
65536 0.144444909 0.143016369 0.145490436
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'parallel_modes: median wall time vs size' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'median wall time (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-5:1e0]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [12.30769231:85196.8]
set xtics 16, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'GPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
