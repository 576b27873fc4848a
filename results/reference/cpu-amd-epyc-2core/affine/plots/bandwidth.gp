# bandwidth.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot bandwidth.gp
# (writes bandwidth.png and bandwidth.svg).  The data is inline below.
$s0 << EOD
64 41.36884049
128 53.09514406
256 46.06290634
512 73.89021211
1000 80.57368463
2000 142.9886413
4000 58.50348096
EOD
$s1 << EOD
64 35.61255264
128 77.38568266
256 96.767811
512 97.08138135
1000 88.40169731
2000 79.46362056
4000 34.14835861
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'bandwidth.png'

set title 'GB/s streaming W' noenhanced font ',14'
set xlabel 'size' noenhanced
set ylabel 'w_gbps' noenhanced
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
set logscale x 10
set xrange [51.2:5000]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'bandwidth.svg'
replot
set output
