# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 5.8328125e-08 5.81132813e-08 5.88574219e-08
2 5.89550781e-08 5.89355469e-08 5.89941406e-08
4 6.21621094e-08 6.21054688e-08 6.21816406e-08
8 8.403125e-08 8.38359375e-08 8.45e-08
16 1.57890625e-07 1.56796875e-07 1.58359375e-07
32 7.02e-07 7.0165625e-07 7.148125e-07
64 4.5205e-06 4.51675e-06 4.52425e-06
128 3.1647e-05 2.9564e-05 3.2439e-05
256 0.000179377 0.000168661 0.000183504
512 0.00122694 0.001214071 0.001248532
1024 0.009094034 0.009075847 0.00918547
2048 0.070333692 0.070035948 0.071285912
4096 0.568370388 0.566592696 0.577146407
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul_gpu: median wall time vs size' noenhanced font ',14'
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
set xrange [0.7692307692:5324.8]
set xtics 1, 2
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
