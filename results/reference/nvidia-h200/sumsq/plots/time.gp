# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 1.0502e-05 1.0207e-05 1.1947e-05
100 2.66585e-05 2.65515e-05 2.68845e-05
1000 0.000201432 0.000200427 0.000215877
10000 0.001979358 0.001977484 0.00199205
100000 0.020126341 0.020088038 0.020335018
EOD
$s1 << EOD
10 2.25805e-05 2.24425e-05 3.3426e-05
100 0.000220013 0.000219505 0.000231221
1000 0.002223149 0.002209787 0.002231174
10000 0.021943986 0.021768725 0.022097316
100000 0.220109502 0.219090472 0.220636971
EOD
$s2 << EOD
10 0.000218696 0.000192619 0.000223617
100 0.001642876 0.001516812 0.001860633
1000 0.01841921 0.01805361 0.020269569
10000 0.184640292 0.173758114 0.187617055
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
set yrange [1e-5:1e0]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 10
set xrange [8:125000]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU parallel' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
