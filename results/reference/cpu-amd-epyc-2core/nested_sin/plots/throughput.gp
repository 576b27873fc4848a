# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 1.69046636
2048 1.52041574
4096 1.74223735
8192 2.24254038
16384 2.37612849
32768 2.51158334
65536 2.55520898
131072 2.57469639
262144 2.58371135
524288 2.60271994
1048576 2.48081647
2097152 2.38088167
4194304 3.00469171
8388608 2.61279776
16777216 2.80707059
33554432 2.88859734
EOD
$s1 << EOD
1024 2.7731889
2048 2.81125601
4096 3.50310028
8192 3.40093409
16384 3.44599853
32768 3.72131054
65536 3.4674215
131072 2.70337943
262144 3.61753818
524288 3.44103975
1048576 3.44994123
2097152 3.43608537
4194304 3.47661722
8388608 3.5186306
16777216 3.43958808
33554432 3.45676113
EOD
$s2 << EOD
1024 1.34075286
2048 2.26548673
4096 3.45144302
8192 4.60224719
16384 5.14855841
32768 5.43957503
65536 6.48887349
131072 6.54141661
262144 6.27446475
524288 6.51113519
1048576 6.29183036
2097152 5.87867732
4194304 5.98616958
8388608 4.92664266
16777216 3.75690514
33554432 4.17134699
EOD
$s3 << EOD
1024 3.39494405
2048 4.33898305
4096 5.94916485
8192 5.75078975
16384 6.36519037
32768 6.83806344
65536 7.21285494
131072 6.72112402
262144 6.89059307
524288 6.70310008
1048576 7.09159739
2097152 6.92326446
4194304 6.9208883
8388608 6.96281497
16777216 6.61410029
33554432 6.67865687
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'nested_sin: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
set yrange [0:*]
set format y '%g'
set logscale x 2
set xrange [787.6923077:43620761.6]
set xtics 1024, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU 1 thread, fused=false' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU 1 thread, fused=true' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'CPU all cores, fused=false' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'CPU all cores, fused=true' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
