# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
16 2.74310005e-05 2.54780007e-05 2.82820001e-05
64 3.11309996e-05 3.08660001e-05 3.15720008e-05
256 0.000253999 0.000121806999 0.000255612
1024 0.000488293001 0.000485750001 0.000523945999
4096 0.00394291 0.003904594 0.003978093
16384 0.023828655 0.01589356 0.031913874
65536 0.10246089 0.095915592 0.112059516
262144 0.413052072 0.374599401 0.436662357
EOD
$s1 << EOD
16 0.003305015 0.002138494 0.003776006
64 0.003272676 0.003175171 0.003693995
256 0.00222232 0.00196081 0.004265517
1024 0.004799854 0.004266663 0.00556816
4096 0.006116133 0.005748414 0.013372235
16384 0.027476421 0.020854544 0.051939788
65536 0.110507185 0.098977543 0.168562034
262144 0.465333149 0.416777233 0.484219187
EOD
$s2 << EOD
16 1.56585e-05 1.5593e-05 1.58385e-05
64 6.026e-05 6.007e-05 6.033e-05
256 0.000241299 0.00024115 0.000244945
1024 0.000969516 0.00096535 0.001015605
4096 0.003905685 0.003853267 0.003931164
16384 0.031731326 0.028670292 0.033312335
65536 0.12614244 0.122363904 0.128605713
262144 0.502637388 0.473435653 0.514349927
EOD
$s3 << EOD
16 0.008008785 0.007978159 0.016097749
64 0.008003347 0.007797881 0.014387358
256 0.008343854 0.007568428 0.01570243
1024 0.01607777 0.015889128 0.018308307
4096 0.015996669 0.014604342 0.023702311
16384 0.03599744 0.029303515 0.046883466
65536 0.131949681 0.127973511 0.139957976
262144 0.400374745 0.384520748 0.425746827
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
