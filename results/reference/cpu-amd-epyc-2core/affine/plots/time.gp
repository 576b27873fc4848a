# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
64 4.7825e-07 4.53e-07 5.835e-07
128 1.883e-06 1.622e-06 2.684e-06
256 4.226e-06 3.526e-06 0.003333369
512 8.743e-06 8.002e-06 0.001464379
1000 6.5347e-05 4.4506e-05 0.001677506
2000 0.000392161 0.000269179 0.00228833
4000 0.002055355 0.001933945 0.004005294
EOD
$s1 << EOD
64 8.72e-07 7.31e-07 4.907e-06
128 1.543e-06 1.493e-06 1.893e-06
256 4.927e-06 4.176e-06 1.1287e-05
512 2.004e-05 1.9428e-05 2.1592e-05
1000 6.8912e-05 5.9849e-05 0.00014234
2000 0.00062066 0.000529364 0.00071567
4000 0.002924834 0.00274693 0.003123648
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'y = W x + b (Lua)' noenhanced font ',14'
set xlabel 'size' noenhanced
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
