# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 7.151e-06 7.111e-06 7.221e-06
100 6.6569e-05 6.6308e-05 6.6839e-05
1000 0.000662351 0.000660709 0.000706617
10000 0.006784512 0.006680779 0.006867805
100000 0.067671803 0.065147362 0.06885806
EOD
$s1 << EOD
10 1.3941e-05 1.374e-05 1.4211e-05
100 0.000138115 0.00013486 0.000153227
1000 0.001299826 0.001279686 0.001325274
10000 0.013098537 0.013055013 0.013615463
100000 0.133155643 0.131038527 0.13438184
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'sumsq: median time vs size' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'median time (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-6:1e0]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
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
