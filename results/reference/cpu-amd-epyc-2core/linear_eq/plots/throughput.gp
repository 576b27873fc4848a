# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 3.77283325
2048 5.62420082
4096 7.35656957
8192 11.1012111
16384 14.8045406
32768 17.626681
65536 16.6398375
131072 16.8224347
262144 13.0941059
524288 18.0022319
1048576 15.5783093
2097152 7.86030142
4194304 4.35705753
8388608 4.55240037
16777216 4.22685608
EOD
$s1 << EOD
1024 3.69393794
2048 5.88505747
4096 8.41283697
8192 11.2151964
16384 15.9010069
32768 8.66763656
65536 8.0244888
131072 7.13627702
262144 6.89462541
524288 9.73779961
1048576 7.81554125
2097152 5.29837384
4194304 4.63307727
8388608 3.90172895
16777216 3.66662649
EOD
$s2 << EOD
1024 3.93385156
2048 7.66256467
4096 14.453548
8192 24.774974
16384 32.3954523
32768 42.4576264
65536 52.2459392
131072 49.8348938
262144 31.1427383
524288 30.8314025
1048576 29.8039082
2097152 24.4400522
4194304 12.4813389
8388608 8.50831575
16777216 7.77853191
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
set yrange [1e0:1e2]
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
