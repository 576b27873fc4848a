# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 1.4687e-05 1.4642e-05 1.4722e-05
100 0.000144896 0.000144486 0.000145847
1000 0.001437824 0.001432927 0.001455992
10000 0.01469631 0.014600086 0.014755508
EOD
$s1 << EOD
10 1.4517e-05 1.44965e-05 1.47875e-05
100 0.000142532 0.000141271 0.000188481
1000 0.001444684 0.001427028 0.001484605
10000 0.014554898 0.01444908 0.014651352
EOD
$s2 << EOD
10 5.934e-06 5.85125e-06 6.099e-06
100 4.6339e-05 4.6039e-05 6.5237e-05
1000 0.000453877 0.000452936 0.000495389
10000 0.004586751 0.004561264 0.004603336
EOD
$s3 << EOD
10 9.23375e-06 9.224e-06 9.26125e-06
100 8.9093e-05 8.8952e-05 8.9504e-05
1000 0.000895716 0.000885791 0.000917538
10000 0.009035937 0.008968367 0.009062066
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'intensive: median wall time vs size' noenhanced font ',14'
set xlabel 'size' noenhanced
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
set xrange [8:12500]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'built-in CPU all cores' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'built-in CPU serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
