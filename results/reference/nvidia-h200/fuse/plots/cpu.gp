# cpu.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot cpu.gp
# (writes cpu.png and cpu.svg).  The data is inline below.
$s0 << EOD
65536 1.3675e-05 1.19625e-05 1.543625e-05
131072 2.31605e-05 2.0924e-05 3.05305e-05
262144 4.0943e-05 3.457e-05 8.9419e-05
524288 8.1834e-05 7.2026e-05 0.000214757
1048576 0.00015572 0.000124662 0.000183915
2097152 0.000314694 0.000266948 0.000521376
4194304 0.000625186 0.000549647 0.000766798
8388608 0.001271457 0.001039505 0.00138735
16777216 0.002542856 0.00198122 0.002813427
EOD
$s1 << EOD
65536 2.5479e-05 2.2663e-05 3.7563e-05
131072 3.6778e-05 3.4578e-05 5.941e-05
262144 5.6748e-05 4.9395e-05 8.6325e-05
524288 9.2812e-05 8.3345e-05 0.000131101
1048576 0.000181079 0.000157608 0.000329668
2097152 0.000413775 0.000349004 0.004443137
4194304 0.000734819 0.00064891 0.001069674
8388608 0.001496004 0.001156654 0.005362346
16777216 0.003036475 0.0023043 0.004588375
EOD
$s2 << EOD
65536 1.224325e-05 1.0442e-05 1.59535e-05
131072 2.1414e-05 1.7574e-05 2.89595e-05
262144 3.9756e-05 3.233e-05 4.9373e-05
524288 7.6662e-05 6.7553e-05 9.7104e-05
1048576 0.000151601 0.000135963 0.000175055
2097152 0.000314877 0.000270948 0.000355333
4194304 0.000663154 0.000570406 0.000735493
8388608 0.001239062 0.000997694 0.001541982
16777216 0.002509058 0.002024392 0.003126629
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'cpu.png'

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
set yrange [1e-5:1e-2]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 2
set xrange [50412.30769:21810380.8]
set xtics 65536, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua fuse' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'Lua unfused' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#FF9DA7' pt 7 dt 1 title 'built-in fused' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'cpu.svg'
replot
set output
