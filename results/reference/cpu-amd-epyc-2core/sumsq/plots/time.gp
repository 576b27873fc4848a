# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 4.995e-06 4.9875e-06 5.025e-06
100 4.5699e-05 4.5628e-05 4.5778e-05
1000 0.000458063 0.000457082 0.000471133
10000 0.004608303 0.004546882 0.004633191
100000 0.046222991 0.045641424 0.048510463
EOD
$s1 << EOD
10 9.399e-06 9.3765e-06 9.47175e-06
100 9.1366e-05 9.0856e-05 9.3189e-05
1000 0.000912081 0.000910398 0.000940623
10000 0.009135145 0.00901765 0.009314342
100000 0.091408445 0.091162078 0.091716374
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'sumsq: median wall time vs size' noenhanced font ',14'
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
set yrange [1e-6:1e-1]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set logscale x 10
set xrange [8:125000]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU parallel' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
