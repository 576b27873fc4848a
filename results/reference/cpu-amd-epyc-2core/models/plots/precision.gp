# precision.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot precision.gp
# (writes precision.png and precision.svg).  The data is inline below.
$s0 << EOD
50 40.5896141
100 33.896302
200 37.336734
400 38.575292
EOD
$s1 << EOD
50 28.2713212
100 37.222301
200 35.4688828
400 37.6781243
EOD
$s2 << EOD
50 29.8888622
100 32.723649
200 40.7950769
400 31.2545958
EOD
$s3 << EOD
50 42.0621516
100 38.7806239
200 40.1118114
400 37.0596612
EOD
$s4 << EOD
50 40.404839
100 38.5008847
200 33.8702876
400 35.6527085
EOD
$s5 << EOD
50 44.1337345
100 41.9167682
200 36.4360449
400 41.642763
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'precision.png'

set title 'f32 vs bf16 vs amp: GFLOP/s of one model' noenhanced font ',14'
set xlabel 'batch (images)' noenhanced
set ylabel 'throughput (GFLOP/s)' noenhanced
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
set logscale x 10
set xrange [40:500]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU ResNet-20, amp bf16' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU ResNet-20, bf16' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'CPU ResNet-20, f32' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'CPU ResNet-32, amp bf16' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'CPU ResNet-32, bf16' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#9C755F' pt 15 dt 1 title 'CPU ResNet-32, f32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'precision.svg'
replot
set output
