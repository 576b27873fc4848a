# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 1.05612891e-05 7.64634375e-06 1.22581016e-05
100 3.8573375e-05 3.34152969e-05 5.03969688e-05
1000 0.0002030275 0.000201277625 0.000238428625
10000 0.001910301 0.001890985 0.001913493
100000 0.025653399 0.019320662 0.032000633
EOD
$s1 << EOD
10 1.85381563e-05 1.8476375e-05 1.85584063e-05
100 0.0001830355 0.00018147875 0.00018407975
1000 0.001878953 0.001875854 0.001888258
10000 0.018203248 0.018157713 0.018219071
100000 0.188007446 0.183374477 0.191396742
EOD
$s2 << EOD
10 0.00015686025 0.0001566075 0.000172069
100 0.001421586 0.001360117 0.001443332
1000 0.014186287 0.013830653 0.014490157
10000 0.125489349 0.124695827 0.129757229
100000 1.28913129 1.20526822 1.31792211
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
