# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1 0.0008178297577
2 0.001043011185
4 0.0008172532071
8 0.001116201069
16 0.002576382904
32 0.0105086601
64 0.06879479013
128 1.47521087
256 1.373605051
512 2.250461461
1024 3.48074426
2048 3.952849138
4096 4.98167369
EOD
$s1 << EOD
1 0.001764888524
2 0.00244776711
4 0.001910483292
8 0.002632930902
16 0.006299615175
32 0.02125935516
64 0.1611573001
128 3.872945892
256 5.837521815
512 23.55136254
1024 44.72344114
2048 42.27878384
4096 41.0802593
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'matmul: speedup over CPU (CPU time / time)' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-4:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [0.7692307692:5324.8]
set xtics 1, 2
set format x '%g'

# where each curve crosses 1
set arrow from first 117.2273884, graph 0 to first 117.2273884, first 1 nohead dt 3 lw 1.5 lc rgb '#F28E2B' back
set label '' at 117.2273884, 1 point pt 6 ps 2 lw 2 lc rgb '#F28E2B' front
set label 'GPU faster from n = 128' at graph 0.98, graph 0.050 right tc rgb '#F28E2B' noenhanced front
set arrow from first 95.28170109, graph 0 to first 95.28170109, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 95.28170109, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'GPU no IO faster from n = 128' at graph 0.98, graph 0.105 right tc rgb '#59A14F' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU no IO' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'CPU = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
