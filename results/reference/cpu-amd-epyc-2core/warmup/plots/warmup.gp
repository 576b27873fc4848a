# warmup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot warmup.gp
# (writes warmup.png and warmup.svg).  The data is inline below.
$s0 << EOD
1 0.0003242
2 0.0001586
3 0.0001573
4 0.0001552
5 0.003123
6 0.0001665
7 0.0001562
8 0.0001548
9 0.0001541
10 0.0001548
11 0.0001558
12 0.003029
13 0.0001633
14 0.000154
15 0.0001539
16 0.0001547
17 0.0001554
18 0.000155
19 0.003067
20 0.0001656
21 0.0001544
22 0.00018
23 0.0001574
24 0.000156
25 0.003184
26 0.000162
27 0.0001562
28 0.0001552
29 0.0001534
30 0.0001587
EOD
$s1 << EOD
1 2.699e-05
2 2.524e-06
3 2.494e-06
4 2.483e-06
5 2.504e-06
6 2.484e-06
7 2.494e-06
8 2.463e-06
9 2.474e-06
10 2.484e-06
11 2.464e-06
12 2.473e-06
13 2.484e-06
14 2.494e-06
15 2.494e-06
16 2.483e-06
17 2.464e-06
18 2.464e-06
19 2.494e-06
20 2.443e-06
21 2.484e-06
22 2.504e-06
23 2.483e-06
24 2.493e-06
25 2.484e-06
26 2.474e-06
27 2.483e-06
28 2.493e-06
29 2.464e-06
30 2.504e-06
EOD
$s2 << EOD
1 0.06688
2 0.02429
3 0.0004484
4 0.0004448
5 0.0004496
6 0.0004491
7 0.0004343
8 0.0004322
9 0.0004349
10 0.0004317
11 0.04244
12 0.00108
13 0.0004325
14 0.05418
15 0.006422
16 0.000451
17 0.0004337
18 0.0004269
19 0.0004345
20 0.01789
21 0.01642
22 0.0004492
23 0.0004365
24 0.0004305
25 0.0004322
26 0.0004713
27 0.03338
28 0.03611
29 0.0005029
30 0.0004256
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
