# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1024 0.1318860445
2048 0.2051735679
4096 0.2845424476
8192 0.2772445885
16384 0.2447768784
32768 0.2820138322
65536 0.3409859331
131072 0.3436256941
262144 0.5212366135
524288 0.8359552321
1048576 1.340008819
2097152 4.203446801
4194304 6.253884077
8388608 6.954062341
16777216 8.938534387
EOD
$s1 << EOD
1024 0.1086691087
2048 0.1209686513
4096 0.1602264826
8192 0.1343034255
16384 0.07609912913
32768 0.08831046543
65536 0.07321138904
131072 0.04751324653
262144 0.03926021076
524288 0.03440727897
1048576 0.03074195623
2097152 0.04850020343
4194304 0.05441013
8388608 0.04733742808
16777216 0.05578271973
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'linear_eq: speedup over device=cpu (device=cpu time / time)' noenhanced font ',14'
set xlabel 'size' noenhanced
set ylabel 'speedup (x)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-2:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:21810380.8]
set xtics 1024, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 682152.4289, graph 0 to first 682152.4289, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 682152.4289, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'Lua GPU faster from size = 1.04858e+06' at graph 0.98, graph 0.050 right tc rgb '#59A14F' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'Lua GPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in GPU' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'device=cpu = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
