# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
10 0.04379205495
20 0.05283457265
40 0.08578235218
80 0.1371281772
160 0.2694653467
320 0.486735893
640 1.163026552
1280 2.438927867
2560 2.581945022
5120 2.470310797
10240 2.278084943
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'mlp: speedup over CPU (CPU time / time)' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-2:1e1]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [8:12800]
set format x '%g'

# where each curve crosses 1
set arrow from first 567.5274813, graph 0 to first 567.5274813, first 1 nohead dt 3 lw 1.5 lc rgb '#F28E2B' back
set label '' at 567.5274813, 1 point pt 6 ps 2 lw 2 lc rgb '#F28E2B' front
set label 'GPU faster from size = 640' at graph 0.98, graph 0.050 right tc rgb '#F28E2B' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'CPU = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
