# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 9.312e-06 8.305e-06 9.848e-06
100 2.9017e-05 2.8424e-05 4.3676e-05
1000 0.000210977 0.000207876 0.000357454
10000 0.002275217 0.00216409 0.002831255
100000 0.02623489 0.022281617 0.026549398
EOD
$s1 << EOD
10 2.6176e-05 2.5887e-05 5.6589e-05
100 0.00027993 0.000267809 0.000302499
1000 0.002950573 0.002814347 0.003026324
10000 0.028603154 0.024504574 0.029027167
100000 0.239361947 0.233883948 0.328628116
EOD
$s2 << EOD
10 0.000217051 0.000191014 0.000298388
100 0.001794608 0.001543642 0.002028036
1000 0.017489622 0.015790771 0.019147654
10000 0.190392175 0.181624341 0.198602005
100000 1.78514624 1.69493251 1.84942654
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
set yrange [1e-6:1e1]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0, '10 s' 1e1)
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
