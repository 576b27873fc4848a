# warmup.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot warmup.gp
# (writes warmup.png and warmup.svg).  The data is inline below.
$s0 << EOD
1 0.0005729
2 8.581e-05
3 8.42e-05
4 8.187e-05
5 8.452e-05
6 8.757e-05
7 8.353e-05
8 6.642e-05
9 8.388e-05
10 8.522e-05
11 8.451e-05
12 8.339e-05
13 8.592e-05
14 9.893e-05
15 8.964e-05
16 8.54e-05
17 8.259e-05
18 8.35e-05
19 8.414e-05
20 8.073e-05
21 8.296e-05
22 8.477e-05
23 8.091e-05
24 8.353e-05
25 8.079e-05
26 8.412e-05
27 8.23e-05
28 8.271e-05
29 8.263e-05
30 8.029e-05
EOD
$s1 << EOD
1 0.07554
2 0.000161
3 0.0001034
4 9.711e-05
5 9.265e-05
6 9.446e-05
7 9.519e-05
8 9.313e-05
9 9.386e-05
10 9.335e-05
11 9.419e-05
12 9.317e-05
13 0.0001077
14 9.576e-05
15 9.421e-05
16 9.426e-05
17 9.427e-05
18 9.442e-05
19 0.0001098
20 9.434e-05
21 9.414e-05
22 9.444e-05
23 0.0001148
24 0.0001053
25 9.535e-05
26 9.912e-05
27 9.335e-05
28 0.0001048
29 9.625e-05
30 9.438e-05
EOD
$s2 << EOD
1 0.06003
2 0.04913
3 2.367e-05
4 1.951e-05
5 1.994e-05
6 2.117e-05
7 2.179e-05
8 2.084e-05
9 1.918e-05
10 1.913e-05
11 1.882e-05
12 1.926e-05
13 1.845e-05
14 3.18e-05
15 2.171e-05
16 1.835e-05
17 1.811e-05
18 1.713e-05
19 1.844e-05
20 1.772e-05
21 1.746e-05
22 1.8e-05
23 1.813e-05
24 1.704e-05
25 1.748e-05
26 1.79e-05
27 1.908e-05
28 2.293e-05
29 2.341e-05
30 2.024e-05
EOD
$s3 << EOD
1 0.0003671
2 3.63e-05
3 5.265e-05
4 4.02e-05
5 4.086e-05
6 3.897e-05
7 3.899e-05
8 3.861e-05
9 3.991e-05
10 4.092e-05
11 4.01e-05
12 3.97e-05
13 4.293e-05
14 3.987e-05
15 3.911e-05
16 3.853e-05
17 3.801e-05
18 3.875e-05
19 3.901e-05
20 3.881e-05
21 3.886e-05
22 4.49e-05
23 4.179e-05
24 4.309e-05
25 3.992e-05
26 3.984e-05
27 4.104e-05
28 4.807e-05
29 3.884e-05
30 4.292e-05
EOD
$s4 << EOD
1 0.0904
2 0.02961
3 0.02012
4 0.0002248
5 0.0001939
6 0.0001799
7 0.0002154
8 0.0001745
9 0.0001614
10 0.0002091
11 0.0001755
12 0.0001621
13 0.0001604
14 0.0001744
15 0.0001849
16 0.0001738
17 0.0001626
18 0.0002735
19 0.0002178
20 0.0002014
21 0.0002135
22 0.0002038
23 0.0002162
24 0.0002141
25 0.0001843
26 0.0001823
27 0.0001709
28 0.0001925
29 0.0002141
30 0.0002388
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
set yrange [1e-5:1e-1]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set offsets graph 0.03, graph 0.03, 0, 0
set format x '%g'

set label 'matmul n=256 GPU: context creation 94.66 ms, first cuBLAS call 2.02 ms' at graph 0.02, graph 0.950 left tc rgb '#F28E2B' noenhanced front
set label 'nested_sin 2^10 GPU: context creation 92.22 ms' at graph 0.02, graph 0.895 left tc rgb '#E15759' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#4E79A7' pt 7 dt 1 title 'matmul n=256 CPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#F28E2B' pt 5 dt 1 title 'matmul n=256 GPU' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'nested_sin 2^10 CPU' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'nested_sin 2^10 GPU' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'nested_sin 2^20 CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'warmup.svg'
replot
set output
