# bandwidth.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot bandwidth.gp
# (writes bandwidth.png and bandwidth.svg).  The data is inline below.
$s0 << EOD
64 12.17943178
128 16.47512805
256 52.11610338
512 166.5463787
1000 445.9805998
2000 661.567087
4000 254.1356608
EOD
$s1 << EOD
64 14.78658657
128 33.30821766
256 43.93505541
512 63.55872771
1000 27.34182753
2000 26.125904
4000 25.5390536
EOD
$s2 << EOD
256 12.78065428
512 55.10700021
1000 177.5844081
2000 713.8714139
4000 1890.638386
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'bandwidth.png'

set title 'GB/s streaming W' noenhanced font ',14'
set xlabel 'size (n of the n x n matrix W)' noenhanced
set ylabel 'w_gbps' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e1:1e4]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [51.2:5000]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'bandwidth.svg'
replot
set output
