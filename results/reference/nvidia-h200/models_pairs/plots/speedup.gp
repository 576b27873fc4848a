# speedup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
$s0 << EOD
200 0.9952
400 1.052
EOD
$s1 << EOD
200 1.002
400 1.003
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'both models: one after the other vs at once' noenhanced font ',14'
set xlabel 'batch (images)' noenhanced
set ylabel 'speedup (solo times summed / call)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set yrange [0:*]
set format y '%g'
set offsets graph 0.03, graph 0.03, 0, 0
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'GPU both on 2 streams, bf16' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU both, one after the other, bf16' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
