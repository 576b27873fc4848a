# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
256 1.8598e-05 1.7741e-05 1.9179e-05
512 1.87065e-05 1.81925e-05 2.1114e-05
1024 2.094125e-05 2.0314e-05 2.18875e-05
2048 3.994e-05 3.8832e-05 4.1978e-05
4096 0.000184352 0.000181329 0.000190277
8192 0.001319381 0.001314047 0.001357384
16384 0.010647673 0.010291568 0.011566848
EOD
$s1 << EOD
256 1.8101e-05 1.73485e-05 1.82605e-05
512 1.85585e-05 1.783e-05 1.9471e-05
1024 2.05035e-05 2.0275e-05 2.16635e-05
2048 3.95825e-05 3.8201e-05 4.2649e-05
4096 0.0001902635 0.000187285 0.000192328
8192 0.0013825025 0.001377718 0.001386803
16384 0.010945675 0.010900933 0.011338529
EOD
$s2 << EOD
256 2.7812e-05 2.5373e-05 3.2138e-05
512 3.30415e-05 3.136e-05 4.2552e-05
1024 7.4191e-05 7.3462e-05 7.6738e-05
2048 0.000357741 0.000355926 0.000359095
4096 0.002713487 0.002707016 0.002732441
8192 0.021521769 0.021509784 0.021530167
16384 0.162789648 0.162770717 0.162877258
EOD
$s3 << EOD
256 2.817e-05 2.7184e-05 3.1327e-05
512 4.01995e-05 3.3995e-05 8.7057e-05
1024 7.69975e-05 7.5826e-05 8.0492e-05
2048 0.000364472 0.000358139 0.000380867
4096 0.00274012 0.002722527 0.002748101
8192 0.02158859 0.021545168 0.021741565
16384 0.162792293 0.162749416 0.162819032
EOD
$s4 << EOD
256 1.855425e-05 1.79195e-05 1.9945e-05
512 2.057475e-05 1.9826e-05 3.04015e-05
1024 3.1748e-05 3.1275e-05 3.9392e-05
2048 6.5927e-05 6.4898e-05 7.0592e-05
4096 0.000356169 0.000352422 0.000362432
8192 0.00255177 0.002547342 0.002566322
16384 0.0211741935 0.020838509 0.022483202
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul_precision: median wall time vs size' noenhanced font ',14'
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
set yrange [1e-5:1e0]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [196.9230769:21299.2]
set xtics 256, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'bf16' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'f16' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'f32' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'f32 default' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'tf32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
