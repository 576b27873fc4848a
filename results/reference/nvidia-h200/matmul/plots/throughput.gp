# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1 0.0637013997
2 0.457807086
4 4.62530877
8 26.6406504
16 89.8638214
32 155.361855
64 173.382828
128 54.25727
256 250.788006
512 393.165702
1024 665.940297
2048 1146.38081
4096 1236.58001
EOD
$s1 << EOD
1 5.20969002e-05
2 0.000477497911
4 0.00378004843
8 0.0297363225
16 0.231523613
32 1.63264493
64 11.9278353
128 80.0409145
256 344.483671
512 884.804261
1024 2317.96787
2048 4531.4704
4096 6160.23812
8192 10963.1881
16384 17976.5726
EOD
$s2 << EOD
1 0.000112425869
2 0.00112060513
4 0.00883657514
8 0.0701429917
16 0.566107493
32 3.30289285
64 27.9419085
128 210.135471
256 1463.98045
512 9259.588
1024 29783.1417
2048 48467.5865
4096 50799.0276
8192 51076.228
16384 54021.2252
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
