# warmup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot warmup.gp
# (writes warmup.png and warmup.svg).  The data is inline below.
$s0 << EOD
1 0.0006313
2 0.0003357
3 0.0003275
4 0.0003189
5 0.0003144
6 0.0003103
7 0.0003095
8 0.0003084
9 0.0003078
10 0.0003072
11 0.0003062
12 0.000342
13 0.0003084
14 0.0003069
15 0.0003048
16 0.00283
17 0.0003675
18 0.0003383
19 0.0003308
20 0.000324
21 0.000322
22 0.0003172
23 0.0003136
24 0.0003606
25 0.0003123
26 0.0003076
27 0.0003095
28 0.0003039
29 0.004096
30 0.0003722
EOD
$s1 << EOD
1 1.625e-05
2 2.765e-06
3 2.804e-06
4 2.824e-06
5 2.834e-06
6 2.694e-06
7 2.504e-06
8 2.604e-06
9 2.644e-06
10 2.704e-06
11 2.624e-06
12 2.584e-06
13 2.564e-06
14 2.594e-06
15 2.624e-06
16 2.564e-06
17 2.563e-06
18 2.613e-06
19 2.554e-06
20 2.644e-06
21 2.624e-06
22 2.584e-06
23 2.594e-06
24 2.604e-06
25 2.514e-06
26 2.684e-06
27 2.614e-06
28 2.534e-06
29 2.593e-06
30 2.563e-06
EOD
$s2 << EOD
1 0.06697
2 0.04799
3 0.05523
4 0.02255
5 0.02935
6 0.0449
7 0.04515
8 0.05477
9 0.04799
10 0.04798
11 0.03998
12 0.02421
13 0.0004801
14 0.0004509
15 0.0004439
16 0.0004393
17 0.0004361
18 0.0004357
19 0.0004393
20 0.0004365
21 0.004586
22 0.0004588
23 0.0004415
24 0.0004382
25 0.0004343
26 0.0004391
27 0.0004453
28 0.0004354
29 0.004493
30 0.0006072
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'warmup.png'

set title 'warmup: the first calls of a fresh worker' noenhanced font ',14'
set xlabel 'call of a fresh worker (1 = its first)' noenhanced
set ylabel 'time of the call, host clock (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-6:1e-1]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set offsets graph 0.03, graph 0.03, 0, 0
set format x '%g'


plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'matmul n=256 CPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'nested_sin 2^10 CPU' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'nested_sin 2^20 CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'warmup.svg'
replot
set output
