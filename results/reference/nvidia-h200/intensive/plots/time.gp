# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 2.7389e-05 2.7342e-05 2.74305e-05
100 0.000279212 0.000272671 0.000284264
1000 0.002783674 0.002767266 0.002811425
10000 0.027865736 0.027470361 0.02966216
EOD
$s1 << EOD
10 2.8028e-05 2.80185e-05 2.80825e-05
100 0.000280923 0.000279733 0.00033791
1000 0.00304637 0.002948516 0.003074774
10000 0.027851312 0.027295481 0.029455057
EOD
$s2 << EOD
10 0.000244922 0.000224265 0.00026669
100 0.002576858 0.002469899 0.002597671
1000 0.026158091 0.025220541 0.026466418
10000 0.242236483 0.237230171 0.248658673
EOD
$s3 << EOD
10 6.3575e-06 6.034e-06 6.957e-06
100 3.8641e-05 2.87305e-05 3.8929e-05
1000 0.000198029 0.000192599 0.000219155
10000 0.001908172 0.001892107 0.001919511
EOD
$s4 << EOD
10 1.842e-05 1.8411e-05 1.84535e-05
100 0.000181246 0.000175795 0.000187888
1000 0.001818243 0.001802814 0.001828409
10000 0.018905922 0.018102172 0.019515548
EOD
$s5 << EOD
10 0.000157877 0.000152705 0.000160761
100 0.001384295 0.001351237 0.001411245
1000 0.013107896 0.01293205 0.013765763
10000 0.1240092 0.120953407 0.125596004
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'intensive: median wall time vs size' noenhanced font ',14'
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
set yrange [1e-6:1e0]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 10
set xrange [8:12500]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'Lua GPU' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'built-in CPU all cores' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in CPU serial' noenhanced, \
     $s5 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#9C755F' pt 15 dt 1 title 'built-in GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
