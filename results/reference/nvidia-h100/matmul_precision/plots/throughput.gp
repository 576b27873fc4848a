# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
256 1385.48762
512 10648.8201
1024 75411.1616
2048 363610.506
4096 713601.594
8192 812901.62
16384 772190.195
EOD
$s1 << EOD
256 1417.83284
512 9773.55067
1024 75868.0697
2048 375791.436
4096 734541.474
8192 793525.727
16384 742089.317
EOD
$s2 << EOD
256 1118.87267
512 7459.85594
1024 28134.0178
2048 47791.3554
4096 51244.2708
8192 51597.215
16384 54181.0677
EOD
$s3 << EOD
256 1117.94073
512 7806.30634
1024 27735.4125
2048 47799.7326
4096 51246.6879
8192 51598.2296
16384 54146.54
EOD
$s4 << EOD
256 1523.22818
512 11667.5558
1024 56356.2648
2048 238006.015
4096 388303.767
8192 422858.674
16384 398177.611
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
