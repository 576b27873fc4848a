# precision.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot precision.gp
# (writes precision.png and precision.svg).  The data is inline below.
$s0 << EOD
50 29.3147007
100 19.5404262
200 18.7863594
EOD
$s1 << EOD
50 37172.2067
100 90154.2668
200 171446.266
400 183388.019
EOD
$s2 << EOD
50 52252.1651
100 108987.887
200 180528.783
400 197086.612
EOD
$s3 << EOD
50 38342.9491
100 86977.2575
200 169336.414
400 188938.905
EOD
$s4 << EOD
50 51597.1873
100 104432.128
200 181002.76
400 197240.634
EOD
$s5 << EOD
50 19555.6319
100 23808.503
200 26292.1083
400 28753.7255
EOD
$s6 << EOD
50 55600.2396
100 81434.5597
EOD
$s7 << EOD
50 53533.5758
100 112560.19
200 210252.556
400 225990.504
EOD
$s8 << EOD
50 20221.7622
100 24407.5167
200 27045.2314
400 29425.2043
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
set logscale y 10
set yrange [1e1:1e6]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [40:500]
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU ResNet-20, f32' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU ResNet-20, amp bf16' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU ResNet-20, amp f16' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'GPU ResNet-20, bf16' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'GPU ResNet-20, f16' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#9C755F' pt 15 dt 1 title 'GPU ResNet-20, f32' noenhanced, \
     $s6 using 1:2 with linespoints lw 2 pi 1 lc rgb '#FF9DA7' pt 7 dt 1 title 'GPU ResNet-56, amp bf16' noenhanced, \
     $s7 using 1:2 with linespoints lw 2 pi 1 lc rgb '#76B7B2' pt 5 dt 1 title 'GPU ResNet-56, bf16' noenhanced, \
     $s8 using 1:2 with linespoints lw 2 pi 1 lc rgb '#7F7F7F' pt 9 dt 1 title 'GPU ResNet-56, f32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'precision.svg'
replot
set output
