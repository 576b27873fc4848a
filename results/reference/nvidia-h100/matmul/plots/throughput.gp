# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1 0.00888642044
2 0.0802005013
4 0.559104559
8 2.64856127
16 6.51840064
32 10.4124563
64 13.015118
128 83.8491864
256 143.097195
512 203.112766
1024 216.666951
2048 210.836978
4096 186.281692
EOD
$s1 << EOD
1 4.18550142e-05
2 0.000467467204
4 0.00360766629
8 0.0290735641
16 0.218715792
32 1.44975113
64 10.3450671
128 44.9622555
256 265.956739
512 758.562245
1024 1808.12407
2048 2616.06584
4096 5270.73016
8192 9618.52862
16384 17144.3919
EOD
$s2 << EOD
1 8.89917238e-05
2 0.00084984331
4 0.00672940434
8 0.056109589
16 0.441284206
32 2.66428165
64 21.2580789
128 162.293143
256 1157.4485
512 6863.07509
1024 27915.138
2048 47630.5669
4096 51482.7834
8192 51277.3368
16384 54149.0233
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'matmul: throughput (GFLOP/s) vs size' noenhanced font ',14'
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
set yrange [1e-5:1e5]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [0.7692307692:21299.2]
set xtics 1, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU no IO' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
