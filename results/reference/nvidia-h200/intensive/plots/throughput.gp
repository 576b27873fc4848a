# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 0.730220161
100 0.716301592
1000 0.718474936
10000 0.717727319
EOD
$s1 << EOD
10 0.713572142
100 0.711938859
1000 0.65651907
10000 0.718099025
EOD
$s2 << EOD
10 0.0816586505
100 0.0776139003
1000 0.0764581788
10000 0.0825639464
EOD
$s3 << EOD
10 3.14589068
100 5.17584949
1000 10.0995309
10000 10.4812354
EOD
$s4 << EOD
10 1.08577633
100 1.10347263
1000 1.09996299
10000 1.05786959
EOD
$s5 << EOD
10 0.126680897
100 0.144477875
1000 0.152579789
10000 0.161278357
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'intensive: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
set logscale y 10
set yrange [1e-2:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [8:12500]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'Lua GPU' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'built-in CPU all cores' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in CPU serial' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#9C755F' pt 15 dt 1 title 'built-in GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
