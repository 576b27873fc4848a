# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
16 2.74409995e-05 2.52070004e-05 2.75310013e-05
64 7.54730008e-05 7.28689993e-05 8.37839998e-05
256 0.000261610001 0.000260508001 0.000296022001
1024 0.001053081 0.001004978 0.001124067
4096 0.004053165 0.003996651 0.004568474
16384 0.022897541 0.017929978 0.025019517
65536 0.099359213 0.090851333 0.107288018
262144 0.36311316 0.32570181 0.374306329
EOD
$s1 << EOD
16 0.000879771998 0.000843528 0.016280032
64 0.000854594 0.000833692999 0.001153917
256 0.001119049 0.00105262 0.004904821
1024 0.001970729 0.001918892 0.004060917
4096 0.004956253 0.002758454 0.005058234
16384 0.027243153 0.026491732 0.031743499
65536 0.093741354 0.082379973 0.143291683
262144 0.341174838 0.294894902 0.388780892
EOD
$s2 << EOD
16 1.58035e-05 1.57835e-05 1.58285e-05
64 6.1782e-05 6.1692e-05 6.2013e-05
256 0.000246748 0.000242632 0.004276569
1024 0.001018329 0.000996646 0.009023559
4096 0.004039925 0.004028148 0.008092069
16384 0.024152353 0.020002653 0.028447849
65536 0.096536283 0.073752391 0.102089245
262144 0.359573019 0.349078561 0.438533002
EOD
$s3 << EOD
16 0.012006187 0.006703288 0.02111981
64 0.012010223 0.007964058 0.013459896
256 0.000122312 0.000122082 0.000122573
1024 0.012000498 0.011997504 0.016006524
4096 0.011996213 0.011995741 0.016001195
16384 0.023997552 0.023987707 0.039975093
65536 0.102264837 0.095685874 0.105118903
262144 0.392666617 0.328732276 0.399987317
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'parallel_modes: median wall time vs size' noenhanced font ',14'
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
set yrange [1e-5:1e0]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'processes' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'processes started per call' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'serial' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'threads' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
