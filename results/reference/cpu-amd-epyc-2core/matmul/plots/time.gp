# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1 1.7375e-08 1.7359375e-08 1.909375e-08
2 3.0046875e-08 2.39375e-08 3.2703125e-08
4 2.378125e-08 2.3015625e-08 2.6140625e-08
8 5.071875e-08 4.7875e-08 6.040625e-08
16 9.515625e-08 9.48125e-08 1.880625e-07
32 6.16e-07 6.1575e-07 6.3575e-07
64 4.567e-06 4.547e-06 4.657e-06
128 3.1467e-05 3.0796e-05 7.3849e-05
256 0.000195821 0.000191934 0.001112058
512 0.001447295 0.001395959 0.003034466
1024 0.011653416 0.011571725 0.011730539
2048 0.088331442 0.08746585 0.095462758
4096 0.685533706 0.681489525 0.695277583
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
