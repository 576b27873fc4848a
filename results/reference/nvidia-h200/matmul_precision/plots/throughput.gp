# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
256 1804.19572
512 14349.8493
1024 102548.016
2048 430141.943
4096 745524.613
8192 833354.147
16384 826104.729
EOD
$s1 << EOD
256 1853.73361
512 14464.2862
1024 104737.418
2048 434026.885
4096 722361.112
8192 795305.345
16384 803613.575
EOD
$s2 << EOD
256 1206.47318
512 8124.19097
1024 28945.339
2048 48023.2045
4096 50650.3084
8192 51088.3482
16384 54033.4911
EOD
$s3 << EOD
256 1191.14065
512 6677.58196
1024 27890.3036
2048 47136.321
4096 50158.0053
8192 50930.2195
16384 54032.6133
EOD
$s4 << EOD
256 1808.44992
512 13046.8393
1024 67641.5411
2048 260589.276
4096 385881.291
8192 430881.948
16384 415415.729
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'matmul_precision: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
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
set yrange [1e3:1e6]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [196.9230769:21299.2]
set xtics 256, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'bf16' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'f16' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'f32' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'f32 default' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'tf32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
