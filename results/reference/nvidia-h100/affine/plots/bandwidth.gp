# bandwidth.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot bandwidth.gp
# (writes bandwidth.png and bandwidth.svg).  The data is inline below.
$s0 << EOD
64 8.677966102
128 13.16777175
256 33.2206311
512 40.96
1000 98.22459053
2000 104.5464644
4000 105.2848036
EOD
$s1 << EOD
64 5.595628415
128 9.116149673
256 9.651485586
512 10.52290586
1000 9.817878356
2000 10.33227966
4000 14.11347009
EOD
$s2 << EOD
256 10.37865231
512 45.10392292
1000 168.8404879
2000 645.2913894
4000 1713.062099
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
set logscale y 10
set yrange [1e0:1e4]
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
