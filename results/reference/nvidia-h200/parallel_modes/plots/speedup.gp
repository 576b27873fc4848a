# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
16 0.1395971228
64 0.1449165818
256 0.1429380868
1024 0.1461631833
4096 0.1538280722
16384 0.1456204058
65536 0.1457163026
262144 0.1356832356
EOD
$s1 << EOD
16 2.446053731
64 8.287023648
256 14.21302033
1024 13.95303604
4096 7.710022617
16384 10.26427357
65536 10.83215786
262144 9.739460423
EOD
$s2 << EOD
16 0.002579428188
64 0.0129692277
256 0.04476081534
1024 0.1474984913
4096 0.3351498256
16384 1.168225059
65536 2.058631151
262144 2.849419735
EOD
$s3 << EOD
16 4.631472544
64 8.57561999
256 10.5417535
1024 9.711259892
4096 10.92319637
16384 10.19164213
65536 8.353239346
262144 9.281807235
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
set yrange [1e-3:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 21752.84297, graph 0 to first 21752.84297, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 21752.84297, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'processes started per call faster from size = 2^16' at graph 0.98, graph 0.050 right tc rgb '#59A14F' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'GPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'processes started per call' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'threads' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'serial = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
