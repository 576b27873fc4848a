# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 2.2143e-05 1.9669e-05 2.2694e-05
100 0.000207807 0.000207328 0.000248197
1000 0.002113681 0.002059151 0.002747451
10000 0.025230532 0.024813964 0.025657244
EOD
$s1 << EOD
10 2.6799e-05 2.3716e-05 2.8372e-05
100 0.000275648 0.000257602 0.000281457
1000 0.002108314 0.002040864 0.002154993
10000 0.021676606 0.021222203 0.023665653
EOD
$s2 << EOD
10 8.162e-06 7.992e-06 8.893e-06
100 6.7881e-05 6.776e-05 7.0635e-05
1000 0.000669882 0.000659928 0.000789189
10000 0.006832653 0.006753126 0.006894755
EOD
$s3 << EOD
10 1.3821e-05 1.366e-05 1.6704e-05
100 0.000133878 0.000133147 0.000137985
1000 0.001335088 0.001305784 0.001348998
10000 0.013392322 0.013313565 0.013425111
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'intensive: median time vs size' noenhanced font ',14'
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
