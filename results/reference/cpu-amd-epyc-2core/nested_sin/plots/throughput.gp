# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 2.05913218
2048 2.95833521
4096 3.83913769
8192 4.37431585
16384 4.75225699
32768 4.99912277
65536 5.08553359
131072 5.0845472
262144 5.19480211
524288 5.29288453
1048576 5.21894462
2097152 5.06402191
4194304 4.91508816
8388608 4.81262459
16777216 4.83167919
33554432 4.88202689
EOD
$s1 << EOD
1024 3.79687726
2048 4.41706544
4096 4.81333774
8192 4.98751903
16384 5.09057014
32768 5.14855841
65536 5.18624619
131072 5.13037096
262144 5.11086632
524288 5.13292002
1048576 5.14198777
2097152 4.98707722
4194304 4.99710519
8388608 4.93312957
16777216 4.98602011
33554432 5.02780277
EOD
$s2 << EOD
1024 1.83605088
2048 2.98121276
4096 4.75743167
8192 6.63168813
16384 8.13631708
32768 9.26205703
65536 10.0288458
131072 10.4201133
262144 9.47779636
524288 9.88118
1048576 10.365187
2097152 10.1975889
4194304 9.68183489
8388608 7.5868728
16777216 6.15302938
33554432 9.17616686
EOD
$s3 << EOD
1024 2.54232291
2048 3.64869304
4096 5.78326862
8192 7.24675181
16384 8.50674974
32768 9.26533065
65536 9.73789004
131072 9.98872123
262144 10.0965384
524288 9.90783593
1048576 10.0778345
2097152 10.1077674
4194304 9.93670724
8388608 9.8182796
16777216 9.75351204
33554432 9.89019924
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
