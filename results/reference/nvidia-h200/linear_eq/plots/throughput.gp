# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
1024 1.88430132
2048 2.85647038
4096 3.35351158
8192 4.74606221
16384 5.67239365
32768 5.47216366
65536 8.42473326
131072 17.7953975
262144 27.8787621
524288 35.6113432
1048576 29.4759094
2097152 19.5745801
4194304 20.1042238
8388608 19.251208
16777216 12.290411
EOD
$s1 << EOD
1024 1.10867506
2048 1.84276234
4096 2.58830964
8192 4.9723824
16384 4.91421716
32768 4.1697525
65536 4.77806941
131072 3.59377056
262144 2.66750786
524288 2.40941176
1048576 2.45687829
2097152 2.51909242
4194304 2.7002128
8388608 2.12053621
16777216 1.41324032
EOD
$s2 << EOD
1024 0.152647859
2048 0.312504768
4096 0.648486048
8192 1.07860434
16384 2.07912186
32768 3.62037344
65536 7.45245981
131072 15.9571463
262144 31.8628946
524288 60.3253941
1048576 108.621329
2097152 163.316876
4194304 185.785967
8388608 224.835379
16777216 250.930541
EOD
$s3 << EOD
1024 0.511312923
2048 1.03985783
4096 1.99509871
8192 3.83139433
16384 7.779908
32768 15.7047688
65536 27.9255373
131072 40.7910994
262144 52.0126984
524288 60.9779018
1048576 66.0187622
2097152 35.5865673
4194304 32.948056
8388608 32.2762909
16777216 32.5036224
EOD
$s4 << EOD
1024 0.0591027805
2048 0.121276722
4096 0.238021908
8192 0.44817682
16384 0.723515125
32768 0.995382746
65536 1.46163368
131072 1.91983595
262144 2.09447944
524288 2.353986
1048576 2.50919733
2097152 2.48154448
4194304 2.48428422
8388608 2.71391891
16777216 1.8405926
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'linear_eq: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (equations)' noenhanced
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
set yrange [1e-2:1e3]
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
