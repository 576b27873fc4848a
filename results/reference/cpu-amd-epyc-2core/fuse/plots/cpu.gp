# cpu.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot cpu.gp
# (writes cpu.png and cpu.svg).  The data is inline below.
$s0 << EOD
65536 2.9595e-05 2.8823e-05 3.0135e-05
131072 5.8057e-05 5.7175e-05 7.0926e-05
262144 0.000112448 0.000109774 0.000115973
524288 0.000224055 0.000220308 0.00026824
1048576 0.000445635 0.00043642 0.000530221
2097152 0.000922486 0.000872502 0.001202243
4194304 0.001853595 0.001780156 0.003109718
8388608 0.003700419 0.003605677 0.005333134
16777216 0.007353518 0.006662928 0.009745896
EOD
$s1 << EOD
65536 3.1177e-05 3.0566e-05 6.3866e-05
131072 6.1442e-05 5.8247e-05 8.021e-05
262144 0.000106149 0.000103384 0.000130394
524288 0.000215381 0.000209252 0.000257795
1048576 0.000417313 0.000410352 0.000545314
2097152 0.000863758 0.000838281 0.001027072
4194304 0.002015356 0.001792724 0.002310066
8388608 0.00587345 0.004956733 0.007131036
16777216 0.013655837 0.011860269 0.015416924
EOD
$s2 << EOD
65536 2.654e-05 2.6139e-05 3.1917e-05
131072 5.2318e-05 5.1357e-05 6.2013e-05
262144 0.000105388 0.000103445 0.000126328
524288 0.000213048 0.000207279 0.000250002
1048576 0.000423722 0.000415129 0.000537462
2097152 0.000866883 0.00083805 0.001132769
4194304 0.001815267 0.001690612 0.002415132
8388608 0.003577656 0.003406621 0.00491428
16777216 0.006916125 0.006753793 0.01021793
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'cpu.png'

set title 'fuse: median wall time vs size' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
set ylabel 'median wall time (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-5:1e-1]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set logscale x 2
set xrange [50412.30769:21810380.8]
set xtics 65536, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua fuse' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'Lua unfused' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in fused' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'cpu.svg'
replot
set output
