# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
64 3.96046875e-07 3.923125e-07 4.43953125e-07
128 1.2343125e-06 1.2130625e-06 1.5341875e-06
256 5.691e-06 5.6585e-06 5.80125e-06
512 1.4191e-05 1.3986e-05 1.4261e-05
1000 4.9644e-05 4.8462e-05 5.2418e-05
2000 0.000111897 0.000103454 0.000138267
4000 0.001093952 0.001018058 0.001306428
EOD
$s1 << EOD
64 4.600625e-07 3.5959375e-07 4.6446875e-07
128 8.46875e-07 8.3e-07 1.83365625e-06
256 2.709e-06 2.615125e-06 2.811625e-06
512 1.0801e-05 1.0631e-05 1.08615e-05
1000 4.5248e-05 4.2784e-05 4.8673e-05
2000 0.00020135 0.000189733 0.000212818
4000 0.001874175 0.001736409 0.001978952
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'y = W x + b (Lua)' noenhanced font ',14'
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
set yrange [1e-7:1e-2]
set ytics ('100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 10
set xrange [51.2:5000]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
