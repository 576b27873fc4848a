# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
16 0.5759083229
64 0.8185973705
256 0.9431902414
1024 0.9669996895
4096 0.996733417
16384 1.054801168
65536 0.9715886437
262144 0.9902505847
EOD
$s1 << EOD
16 0.01796317686
64 0.07229397819
256 0.2204979407
1024 0.5167270589
4096 0.8151167828
16384 0.8865476401
65536 1.029815326
262144 1.053925961
EOD
$s2 << EOD
16 0.001316279681
64 0.00514411764
256 2.017365426
1024 0.08485722843
4096 0.3367666946
16384 1.0064507
65536 0.9439831503
262144 0.9157208773
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
set yrange [1e-4:1e1]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 217.5133817, graph 0 to first 217.5133817, first 1 nohead dt 3 lw 1.5 lc rgb '#E15759' back
set label '' at 217.5133817, 1 point pt 6 ps 2 lw 2 lc rgb '#E15759' front
set label 'threads faster from size = 256' at graph 0.98, graph 0.950 right tc rgb '#E15759' noenhanced front
set arrow from first 348.006397, graph 0 to first 348.006397, first 1 nohead dt 3 lw 1.5 lc rgb '#E15759' back
set label '' at 348.006397, 1 point pt 6 ps 2 lw 2 lc rgb '#E15759' front
set label 'threads slower from size = 1024' at graph 0.98, graph 0.895 right tc rgb '#E15759' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'processes' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'processes started per call' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'threads' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'serial = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
