# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 3.13964844e-08 3.12734375e-08 3.14516602e-08
2 3.49492188e-08 3.48339844e-08 3.51328125e-08
4 2.76738281e-08 2.76435547e-08 3.51337891e-08
8 3.84375e-08 3.83730469e-08 4.79951172e-08
16 9.11601563e-08 9.103125e-08 9.11738281e-08
32 4.21828125e-07 4.206875e-07 4.968125e-07
64 3.023875e-06 3.0186875e-06 3.039e-06
128 7.7304e-05 7.2939e-05 8.8912e-05
256 0.000133796 0.000124653 0.000140902
512 0.000682754 0.000668645 0.000743098
1024 0.003224739 0.00316987 0.003489066
2048 0.01498618 0.01471587 0.015254793
4096 0.111144408 0.106901275 0.116315013
EOD
$s1 << EOD
1 3.839e-05 3.3557e-05 4.3353e-05
2 3.3508e-05 3.2118e-05 3.9425e-05
4 3.3862e-05 3.3096e-05 3.7242e-05
8 3.4436e-05 3.3689e-05 3.47875e-05
16 3.5383e-05 3.4077e-05 3.7169e-05
32 4.0141e-05 3.9323e-05 4.9583e-05
64 4.3955e-05 4.2729e-05 4.5533e-05
128 5.2402e-05 4.9451e-05 5.4469e-05
256 9.7405e-05 9.6253e-05 0.000108832
512 0.000303384 0.000299742 0.00031117
1024 0.000926451 0.000909128 0.000971657
2048 0.003791235 0.003716603 0.00380592
4096 0.022310656 0.021451946 0.023569557
8192 0.100291231 0.096711449 0.102237382
16384 0.489308681 0.469172529 0.51623668
EOD
$s2 << EOD
1 1.77895e-05 1.65295e-05 1.80105e-05
2 1.4278e-05 1.37425e-05 1.68565e-05
4 1.448525e-05 1.438725e-05 1.45525e-05
8 1.459875e-05 1.444225e-05 1.5218e-05
16 1.447075e-05 1.4242e-05 1.524875e-05
32 1.9842e-05 1.811e-05 2.535e-05
64 1.87635e-05 1.80355e-05 2.20805e-05
128 1.996e-05 1.9631e-05 2.07935e-05
256 2.292e-05 2.2191e-05 2.32635e-05
512 2.899e-05 2.83905e-05 3.0059e-05
1024 7.2104e-05 7.1907e-05 7.2392e-05
2048 0.000354461 0.000353917 0.000355133
4096 0.002705543 0.00270455 0.002735401
8192 0.021526876 0.021516086 0.021531923
16384 0.162826611 0.162776826 0.162841619
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul: median wall time vs size' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
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
set yrange [1e-8:1e0]
set ytics ('10 ns' 1e-8, '100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
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
