# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
16 0.5708322597
64 1.935691137
256 0.9499998031
1024 1.985520984
4096 0.9905590034
16384 1.331645701
65536 1.231127702
262144 1.216886253
EOD
$s1 << EOD
16 0.00473779998
64 0.01841306625
256 0.1085797725
1024 0.2019886438
4096 0.6385873231
16384 1.154856595
65536 1.141486321
262144 1.080166734
EOD
$s2 << EOD
16 0.001955165484
64 0.007529349908
256 0.02891936987
1024 0.06030164631
4096 0.2441561428
16384 0.8814884058
65536 0.9559889728
262144 1.255417317
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'parallel_modes: speedup over serial (serial time / time)' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-3:1e1]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 30.2375282, graph 0 to first 30.2375282, first 1 nohead dt 3 lw 1.5 lc rgb '#4E79A7' back
set label '' at 30.2375282, 1 point pt 6 ps 2 lw 2 lc rgb '#4E79A7' front
set label 'processes faster from size = 64' at graph 0.98, graph 0.050 right tc rgb '#4E79A7' noenhanced front
set arrow from first 147104.9471, graph 0 to first 147104.9471, first 1 nohead dt 3 lw 1.5 lc rgb '#E15759' back
set label '' at 147104.9471, 1 point pt 6 ps 2 lw 2 lc rgb '#E15759' front
set label 'threads faster from size = 2^18' at graph 0.98, graph 0.105 right tc rgb '#E15759' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'processes' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes started per call' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'threads' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'serial = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
