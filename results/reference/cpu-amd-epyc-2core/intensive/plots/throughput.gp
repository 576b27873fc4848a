# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 1.36174849
100 1.38030035
1000 1.39099083
10000 1.36088583
EOD
$s1 << EOD
10 1.37769512
100 1.40319367
1000 1.38438579
10000 1.37410788
EOD
$s2 << EOD
10 3.37040782
100 4.3160189
1000 4.40648017
10000 4.36038494
EOD
$s3 << EOD
10 2.16596724
100 2.24484527
1000 2.23285059
10000 2.21338418
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'intensive: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
set yrange [0:*]
set format y '%g'
set logscale x 10
set xrange [8:12500]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'built-in CPU all cores' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'built-in CPU serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
