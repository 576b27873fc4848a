# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 0.575280899
2048 0.954556048
4096 0.815692522
8192 0.79050468
16384 0.445259739
32768 0.709148948
65536 1.4203266
131072 1.41615256
262144 1.4765515
524288 29.7586559
1048576 27.8103675
2097152 23.833304
4194304 21.6694384
8388608 19.8136125
16777216 7.96358547
EOD
$s1 << EOD
1024 0.305125149
2048 0.371249887
4096 0.922366717
8192 0.399327305
16384 0.412098346
32768 0.456102501
65536 0.399500137
131072 0.408128823
262144 0.374875676
524288 2.11449935
1048576 1.88481446
2097152 1.592272
4194304 1.54108839
8388608 1.23746224
16777216 1.16552609
EOD
$s2 << EOD
1024 0.0758715222
2048 0.19584967
4096 0.361278942
8192 0.680709626
16384 1.3886511
32768 2.8152412
65536 5.47113578
131072 10.3242881
262144 21.1876339
524288 41.0337325
1048576 77.0615125
2097152 128.164273
4194304 164.763577
8388608 193.401761
16777216 218.548664
EOD
$s3 << EOD
1024 0.00102394215
2048 0.00102750173
4096 1.26968382
8192 2.4552675
16384 5.67313019
32768 9.98263519
65536 16.0450484
131072 30.0451576
262144 40.6487828
524288 49.0860406
1048576 57.5082129
2097152 30.4902807
4194304 26.3457997
8388608 27.8113356
16777216 24.4501676
EOD
$s4 << EOD
1024 0.0625152625
2048 0.115471358
4096 0.203436972
8192 0.329750835
16384 0.431720267
32768 0.88157116
65536 1.17468028
131072 1.42754298
262144 1.59587978
524288 1.68891709
1048576 1.76791496
2097152 1.47878482
4194304 1.43347839
8388608 1.3165171
16777216 1.36389685
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
set yrange [1e-3:1e3]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:21810380.8]
set xtics 1024, 2
set format x '2^{%L}'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'Lua GPU' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'built-in CPU all cores' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
