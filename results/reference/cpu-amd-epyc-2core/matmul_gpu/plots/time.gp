# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 1.7375e-08 1.7359375e-08 1.9234375e-08
2 1.8765625e-08 1.8625e-08 1.909375e-08
4 2.39375e-08 2.3484375e-08 2.409375e-08
8 3.959375e-08 3.9421875e-08 3.959375e-08
16 9.703125e-08 9.7e-08 9.734375e-08
32 6.1575e-07 6.1075e-07 6.1825e-07
64 4.797e-06 4.787e-06 4.817e-06
128 3.2227e-05 3.0866e-05 0.002339927
256 0.000194658 0.000188359 0.000247427
512 0.001485942 0.001460444 0.004029049
1024 0.011424216 0.011162699 0.014437731
2048 0.086533398 0.086185182 0.091986126
4096 0.666508188 0.664985733 0.698645864
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul_gpu: median time vs size' noenhanced font ',14'
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
set yrange [1e-8:1e0]
set ytics ('10 ns' 1e-8, '100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [0.7692307692:5324.8]
set xtics 1, 2
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
