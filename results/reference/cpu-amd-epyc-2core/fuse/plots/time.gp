# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
65536 4.2443e-05 3.1087e-05 0.007999781
131072 7.6885e-05 5.9659e-05 0.007996807
262144 0.000152858 0.000116504 0.008151959
524288 0.00029494 0.000239237 0.0080049
1048576 0.000571533 0.000480207 0.008508981
2097152 0.001710751 0.001090987 0.011694812
4194304 0.003652888 0.001927044 0.016465668
8388608 0.007700235 0.004115959 0.016360101
16777216 0.017509215 0.00796483 0.053803837
EOD
$s1 << EOD
65536 4.3725e-05 3.346e-05 0.03296716
131072 7.413e-05 6.1772e-05 0.03201455
262144 0.000137405 0.000116293 0.031998956
524288 0.00027468 0.000236943 0.031997794
1048576 0.000667075 0.000461558 0.032012977
2097152 0.001275682 0.000956427 0.032265493
4194304 0.005341156 0.00273511 0.052070157
8388608 0.011144202 0.007457523 0.039563488
16777216 0.030937553 0.016000684 0.052739691
EOD
$s2 << EOD
65536 3.4381e-05 2.694e-05 0.008030107
131072 6.5578e-05 5.381e-05 0.008360339
262144 0.000136614 0.000109093 0.015998982
524288 0.000262271 0.000218746 0.00799847
1048576 0.00059001 0.000431073 0.009028296
2097152 0.001445566 0.000894765 0.012006538
4194304 0.003140494 0.001801877 0.008892072
8388608 0.007050385 0.004591117 0.013599363
16777216 0.015988517 0.00935986 0.031332031
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'fuse: median wall time vs size' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
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
set yrange [1e-5:1e-1]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set logscale x 2
set xrange [50412.30769:21810380.8]
set xtics 65536, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua fuse, CPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'Lua unfused, CPU' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#9C755F' pt 15 dt 1 title 'built-in fused, CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
