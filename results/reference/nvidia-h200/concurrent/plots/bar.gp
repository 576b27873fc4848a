# bar.gp - a bar chart of a runner run, from the template plots/bar.gp.
# Edit it, then re-draw in this folder with:  gnuplot bar.gp
# (writes bar.png and bar.svg).  The data is inline below.
$s0 << EOD
-0.2 0.017301491 0.013704109 0.017423954
0.8 0.195270165 0.193971418 0.19664999
1.8 0.18543379 0.182452632 0.194143059
EOD
$s1 << EOD
0.2 0.010031212 0.009928257 0.010299719
1.2 0.165519154 0.154667414 0.176936341
2.2 0.175825107 0.171726375 0.21564229
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'bar.png'

set title 'concurrent: median wall time by pair' noenhanced font ',14'
set xlabel 'pair' noenhanced
set ylabel 'median wall time (ms)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set xtics scale 0
set grid ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
# clustered bars, one colour per series; whiskers span min..max of the samples
set style fill solid 0.85 border lc rgb '#444444'
set bars small
set yrange [0:*]
set format y '%g'
set xrange [-0.6:2.6]
set xtics ('2 CPU members' 0, '2 streams on cuda:0' 1, 'CPU + GPU' 2) noenhanced
set boxwidth 0.38 absolute


plot $s0 using 1:($2*1000) with boxes lc rgb '#4E79A7' dt 1 title 'sequential' noenhanced, \
     $s0 using 1:($3*1000):(0):(($4-$3)*1000) with vectors nohead lw 1.5 lc rgb '#333333' notitle, \
     $s1 using 1:($2*1000) with boxes lc rgb '#F28E2B' dt 1 title 'threads' noenhanced, \
     $s1 using 1:($3*1000):(0):(($4-$3)*1000) with vectors nohead lw 1.5 lc rgb '#333333' notitle

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'bar.svg'
replot
set output
