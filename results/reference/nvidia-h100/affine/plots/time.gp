# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
64 1.888e-06 1.8135e-06 2.1875e-06
128 4.977e-06 4.191e-06 5.751e-06
256 7.891e-06 6.999e-06 2.5915e-05
512 2.56e-05 2.3515e-05 3.195e-05
1000 4.0723e-05 4.0308e-05 4.6465e-05
2000 0.000153042 0.000144627 0.000161851
4000 0.000607875 0.000583908 0.000950447
EOD
$s1 << EOD
64 2.928e-06 2.857e-06 5.49e-06
128 7.189e-06 7.085e-06 7.359e-06
256 2.7161e-05 2.5633e-05 2.8208e-05
512 9.9647e-05 9.9165e-05 0.000116515
1000 0.00040742 0.000401735 0.000428934
2000 0.001548545 0.00150875 0.001594909
4000 0.004534675 0.004252659 0.007290563
EOD
$s2 << EOD
256 2.5258e-05 2.2536e-05 0.000152508
512 2.3248e-05 1.8684e-05 2.9524e-05
1000 2.3691e-05 1.7891e-05 3.1152e-05
2000 2.4795e-05 1.8721e-05 3.1005e-05
4000 3.736e-05 3.696e-05 4.2601e-05
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'y = W x + b (Lua)' noenhanced font ',14'
set xlabel 'size' noenhanced
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
set yrange [1e-6:1e-2]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 10
set xrange [51.2:5000]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
