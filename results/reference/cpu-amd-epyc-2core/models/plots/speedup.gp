# speedup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
$s0 << EOD
200 0.9755
400 0.9896
EOD
$s1 << EOD
200 0.9599
400 0.9854
EOD
$s2 << EOD
200 0.9557
400 0.9533
EOD
$s3 << EOD
200 1.011
400 0.9979
EOD
$s4 << EOD
200 0.9849
400 0.9194
EOD
$s5 << EOD
200 0.9522
400 1.004
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


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#FF9DA7' pt 7 dt 1 title 'CPU both at once, amp bf16' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#76B7B2' pt 5 dt 1 title 'CPU both at once, bf16' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#7F7F7F' pt 9 dt 1 title 'CPU both at once, f32' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#EDC948' pt 11 dt 1 title 'CPU both, one after the other, amp bf16' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 13 dt 2 title 'CPU both, one after the other, bf16' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 15 dt 2 title 'CPU both, one after the other, f32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
