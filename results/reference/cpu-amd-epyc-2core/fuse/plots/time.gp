# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
65536 3.0986e-05 2.8953e-05 3.327e-05
131072 5.9419e-05 5.7275e-05 6.2123e-05
262144 0.000115612 0.000111146 0.000120019
524288 0.000229823 0.000224245 0.00028873
1048576 0.000452665 0.000444563 0.000463491
2097152 0.000897028 0.000882506 0.000955706
4194304 0.001851452 0.001793485 0.002022807
8388608 0.003685317 0.003624526 0.003905845
16777216 0.007377954 0.006518092 0.009270367
EOD
$s1 << EOD
65536 3.6374e-05 3.1016e-05 3.8157e-05
131072 6.5568e-05 5.9168e-05 7.2838e-05
262144 0.000118196 0.000109563 0.000149313
524288 0.000233038 0.000224275 0.000322531
1048576 0.000444242 0.000433306 0.001487188
2097152 0.000896027 0.00086519 0.000983677
4194304 0.001920374 0.001731402 0.002169276
8388608 0.003903141 0.003586319 0.006388939
16777216 0.008147562 0.007391885 0.015658605
EOD
$s2 << EOD
65536 2.7431e-05 2.661e-05 5.6514e-05
131072 5.3529e-05 5.2439e-05 0.000115643
262144 0.000107361 0.000104345 0.000139528
524288 0.000213258 0.000206027 0.000256863
1048576 0.000423302 0.000409801 0.000442851
2097152 0.000856477 0.000845941 0.000902085
4194304 0.001787436 0.001707897 0.003079693
8388608 0.003615913 0.003372009 0.005291062
16777216 0.006969335 0.006744399 0.007645383
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

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


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua fuse, CPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'Lua unfused, CPU' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#9C755F' pt 15 dt 1 title 'built-in fused, CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
