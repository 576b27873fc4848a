# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1 0.00470999707
2 0.005828731703
4 0.006452578918
8 0.01097711593
16 0.03355359765
32 0.1392323858
64 0.7948500395
128 0.5362276893
256 1.858574089
512 3.734685227
1024 8.345177092
2048 12.40800294
4096 28.29440773
EOD
$s1 << EOD
1 0.01001434992
2 0.01059648377
4 0.01203603911
8 0.02118493151
16 0.06769823314
32 0.2558744613
64 1.633337388
128 1.935536295
256 8.088547775
512 33.78948176
1024 128.8389294
2048 225.9118273
4096 276.3706017
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'matmul: speedup over CPU (CPU time / time)' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
set ylabel 'speedup (x)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-3:1e3]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [0.7692307692:5324.8]
set xtics 1, 2
set format x '%g'

# where each curve crosses 1
set arrow from first 181.190356, graph 0 to first 181.190356, first 1 nohead dt 3 lw 1.5 lc rgb '#F28E2B' back
set label '' at 181.190356, 1 point pt 6 ps 2 lw 2 lc rgb '#F28E2B' front
set label 'GPU faster from n = 256' at graph 0.98, graph 0.050 right tc rgb '#F28E2B' noenhanced front
set arrow from first 53.27273832, graph 0 to first 53.27273832, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 53.27273832, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'GPU no IO faster from n = 64' at graph 0.98, graph 0.105 right tc rgb '#59A14F' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU no IO' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'CPU = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
