# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
256 8.4942e-05 7.1983e-05 8.5932e-05
256 9.7866e-05 9.52e-05 0.000109258
1024 1.7148e-05 1.60835e-05 1.8528e-05
1024 4.2094e-05 3.6738e-05 5.8076e-05
1048576 0.000205934 0.000199171 0.000214415
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'warmup: median wall time vs size' noenhanced font ',14'
set xlabel 'size (nested_sin: elements; matmul: n of an n x n x n product)' noenhanced
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
set yrange [1e-5:1e-3]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3)
set mytics 10
set logscale x 2
set xrange [196.9230769:1363148.8]
set xtics 256, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 notitle

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
