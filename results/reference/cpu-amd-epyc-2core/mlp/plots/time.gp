# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 0.0223872 0.022216817 0.023306472
20 0.015694528 0.015670442 0.015698104
40 0.012990134 0.01287976 0.01303367
80 0.011385191 0.011375046 0.011395376
160 0.010549555 0.010469325 0.010678467
320 0.010083339 0.010054776 0.010193153
640 0.021714587 0.021631133 0.021768127
1280 0.011683475 0.011617828 0.011685149
2560 0.011548274 0.011496236 0.011551989
5120 0.01154541 0.011447023 0.011634262
10240 0.011515836 0.011513392 0.011520973
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'mlp: median wall time vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
set ylabel 'median wall time (ms)' noenhanced
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
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:($2*1000):($3*1000):($4*1000) with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
