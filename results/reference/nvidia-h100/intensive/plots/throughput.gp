# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 0.373433912
100 0.387252425
1000 0.385732153
10000 0.380028694
EOD
$s1 << EOD
10 0.391282232
100 0.46587685
1000 0.56901044
10000 0.557593886
EOD
$s2 << EOD
10 0.0627675467
100 0.0760183995
1000 0.0800663302
10000 0.0735694844
EOD
$s3 << EOD
10 2.01267988
100 6.61616329
1000 8.08498941
10000 5.86211657
EOD
$s4 << EOD
10 0.729421204
100 0.924769963
1000 0.859718451
10000 0.844487964
EOD
$s5 << EOD
10 0.115643033
100 0.103363927
1000 0.123933083
10000 0.131373081
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
set logscale y 10
set yrange [1e-2:1e1]
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
