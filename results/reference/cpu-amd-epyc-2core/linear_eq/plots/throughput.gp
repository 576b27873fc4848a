# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 1.87588734
2048 2.1300052
4096 1.32792997
8192 0.579513299
16384 0.573418497
32768 0.757475237
65536 0.79300602
131072 0.826978769
262144 0.857961073
524288 14.1661173
1048576 5.01664199
2097152 4.02906016
4194304 3.44776752
8388608 2.9339712
16777216 3.02715354
EOD
$s1 << EOD
1024 0.0565214991
2048 0.367486094
4096 0.541011755
8192 0.464504423
16384 0.398778158
32768 0.406959848
65536 0.403010774
131072 0.418581182
262144 0.39735796
524288 4.12213368
1048576 2.34747762
2097152 1.86466302
4194304 2.20407209
8388608 1.98886619
16777216 2.35245959
EOD
$s2 << EOD
1024 2.64770524
2048 5.88294434
4096 9.97503805
8192 10.4190779
16384 18.805165
32768 20.3844479
65536 17.3352731
131072 18.7232341
262144 19.7026682
524288 20.9614585
1048576 17.5146529
2097152 9.3025253
4194304 5.73286825
8388608 5.1470026
16777216 4.65866777
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'linear_eq: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
set logscale y 10
set yrange [1e-2:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:21810380.8]
set xtics 1024, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'built-in CPU all cores' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
