# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
64 1.34521875e-06 9.8240625e-07 1.3873125e-06
128 3.977875e-06 3.7863125e-06 4.6593125e-06
256 5.03e-06 4.73e-06 5.231e-06
512 6.296e-06 6.073e-06 1.1853e-05
1000 8.969e-06 8.39e-06 1.2963e-05
2000 2.4185e-05 2.395e-05 3.672e-05
4000 0.000251834 0.000244552 0.000265378
EOD
$s1 << EOD
64 1.10803125e-06 8.973125e-07 1.1263125e-06
128 1.9675625e-06 1.71784375e-06 2.01459375e-06
256 5.966625e-06 5.451125e-06 6.003875e-06
512 1.649775e-05 1.55325e-05 1.87945e-05
1000 0.000146296 0.000145395 0.000155443
2000 0.000612419 0.000599711 0.000628748
4000 0.002505966 0.002440036 0.002582487
EOD
$s2 << EOD
256 2.0511e-05 1.8297e-05 3.6128e-05
512 1.9028e-05 1.84575e-05 2.6735e-05
1000 2.25245e-05 2.02305e-05 2.8356e-05
2000 2.2413e-05 2.1409e-05 2.8646e-05
4000 3.3851e-05 3.1079e-05 3.8822e-05
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'y = W x + b (Lua)' noenhanced font ',14'
set xlabel 'size (n of the n x n matrix W)' noenhanced
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
set yrange [1e-7:1e-2]
set ytics ('100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 10
set xrange [51.2:5000]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
