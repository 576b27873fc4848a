# throughput.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot throughput.gp
# (writes throughput.png and throughput.svg).  The data is inline below.
$s0 << EOD
10 12.0723691
20 17.1102656
40 20.7416998
80 23.5697752
160 24.7412537
320 25.7159682
640 16.4438354
1280 14.1803848
2560 14.0051667
5120 14.0864601
10240 14.3746722
EOD
$s1 << EOD
10 0.528673851
20 0.904013571
40 1.7792718
80 3.23208031
160 6.6669105
320 12.5168848
640 19.1246171
1280 34.5849357
2560 36.1605705
5120 34.7979344
10240 32.7467244
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'throughput.png'

set title 'mlp: throughput (GFLOP/s) vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
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
set yrange [1e-1:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'throughput.svg'
replot
set output
