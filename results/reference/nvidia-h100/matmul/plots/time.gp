# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 2.250625e-07 2.216875e-07 2.59375e-07
2 1.995e-07 1.97375e-07 2.19375e-07
4 2.289375e-07 2.24e-07 2.525e-07
8 3.86625e-07 3.745e-07 4.065e-07
16 1.25675e-06 1.22775e-06 1.3175e-06
32 6.294e-06 6.12e-06 6.543e-06
64 4.0283e-05 3.9707e-05 5.1761e-05
128 5.0022e-05 4.8314e-05 5.0979e-05
256 0.000234487 0.000193413 0.001386579
512 0.001321608 0.001307405 0.001714872
1024 0.00991145 0.00961122 0.009964214
2048 0.081484137 0.07846062 0.083891699
4096 0.737801722 0.652008346 0.802323382
EOD
$s1 << EOD
1 4.7784e-05 3.8933e-05 0.000149778
2 3.4227e-05 3.3288e-05 4.257e-05
4 3.548e-05 3.4465e-05 3.677e-05
8 3.5221e-05 3.4071e-05 3.6566e-05
16 3.7455e-05 3.6406e-05 3.8914e-05
32 4.5205e-05 4.4146e-05 4.8884e-05
64 5.068e-05 4.8659e-05 6.8664e-05
128 9.3285e-05 8.8255e-05 0.000104106
256 0.000126165 0.000121865 0.000159933
512 0.000353874 0.000336567 0.00042002
1024 0.001187686 0.001149648 0.001437107
2048 0.006567063 0.006072144 0.006918541
4096 0.026075885 0.025675385 0.030761645
8192 0.114311832 0.103470884 0.121348455
16384 0.513059494 0.507955333 0.538570294
EOD
$s2 << EOD
1 2.2474e-05 2.1458e-05 2.7823e-05
2 1.8827e-05 1.8244e-05 2.2795e-05
4 1.9021e-05 1.7994e-05 2.0658e-05
8 1.825e-05 1.7638e-05 2.1857e-05
16 1.8564e-05 1.7356e-05 2.0489e-05
32 2.4598e-05 2.315e-05 2.6367e-05
64 2.4663e-05 2.3561e-05 3.1132e-05
128 2.5844e-05 2.503e-05 3.6681e-05
256 2.899e-05 2.8671e-05 3.5472e-05
512 3.9113e-05 3.5163e-05 5.6435e-05
1024 7.6929e-05 7.2218e-05 8.3604e-05
2048 0.00036069 0.000356646 0.000363894
4096 0.00266961 0.002665107 0.002682804
8192 0.021442448 0.021336084 0.021455014
16384 0.162442321 0.16242795 0.162454367
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul: median time vs size' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
set ylabel 'median time (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-7:1e0]
set ytics ('100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [0.7692307692:21299.2]
set xtics 1, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'GPU no IO' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
