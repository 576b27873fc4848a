# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 5.90332031e-08 5.89746094e-08 5.91113281e-08
2 5.9328125e-08 5.93261719e-08 5.94453125e-08
4 6.3765625e-08 6.36894531e-08 6.38652344e-08
8 8.50507812e-08 8.496875e-08 8.54023438e-08
16 1.60710938e-07 1.60703125e-07 1.60710938e-07
32 7.045e-07 7.0325e-07 7.054375e-07
64 4.5605e-06 4.558125e-06 4.564375e-06
128 3.2048e-05 3.0195e-05 3.2759e-05
256 0.000176814 0.000175542 0.000178817
512 0.001237496 0.001226099 0.001281011
1024 0.00933244 0.009295835 0.009458597
2048 0.071072774 0.07004395 0.072681674
4096 0.551161251 0.54989419 0.565480427
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
set xrange [0.7692307692:5324.8]
set xtics 1, 2
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
