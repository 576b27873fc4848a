# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 5.3557e-05 4.9055e-05 7.8596e-05
100 0.000516459 0.000506838 0.000525662
1000 0.005184945 0.005112094 0.005217576
10000 0.052627605 0.052086068 0.052944648
EOD
$s1 << EOD
10 5.1114e-05 4.2448e-05 9.0369e-05
100 0.000429298 0.000421729 0.00057262
1000 0.003514874 0.003346016 0.003708893
10000 0.035868399 0.035458242 0.051733761
EOD
$s2 << EOD
10 0.000318636 0.000276018 0.000367222
100 0.002630942 0.002529683 0.002745304
1000 0.024979289 0.023837714 0.027598337
10000 0.271851844 0.265678275 0.287982515
EOD
$s3 << EOD
10 9.937e-06 9.352e-06 1.003e-05
100 3.0229e-05 2.9912e-05 3.9898e-05
1000 0.000247372 0.000218334 0.000273744
10000 0.003411737 0.002191525 0.005645613
EOD
$s4 << EOD
10 2.7419e-05 2.6905e-05 2.7571e-05
100 0.00021627 0.000216031 0.000227437
1000 0.002326343 0.002238756 0.0023545
10000 0.02368299 0.023432751 0.024185418
EOD
$s5 << EOD
10 0.000172946 0.000167792 0.00019739
100 0.001934911 0.001737973 0.002174507
1000 0.016137741 0.01588684 0.016868804
10000 0.152238189 0.142000394 0.158572477
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
