# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 0 89.70869723 10.29130277 0 0.000135008007 1.54879997e-05
1 0 98.91203543 1.087964573 0 0.00139935994 1.53919999e-05
2 0 99.93384093 0.06615906854 0 0.014162528 9.37599968e-06
3 0 99.98095107 0.01904892555 0 0.125463486 2.39039995e-05
4 0 99.99771878 0.002281219187 0 1.28910583 2.94080004e-05
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'breakdown.png'

set title 'sumsq: where the time goes, phase by phase' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced offset 0,-1.2
set ylabel 'share of h2d + compute + d2h (%)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set xtics scale 0
set grid ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
# stacked bars: each trial's phases as a share of their sum, in greys (the
# series colours of the other charts mean configurations, not phases)
set style fill solid 0.9 border lc rgb '#444444'
set bmargin 6
h2d_colour = '#a8a8a8'
compute_colour = '#4a4a4a'
d2h_colour = '#dcdcdc'
set xrange [-0.7:4.7]
set xtics ('10' 0, '100' 1, '1000' 2, '10000' 3, '100000' 4) noenhanced
set boxwidth 0.8 absolute
set yrange [0:100]
set format y '%g%%'

set label 'GPU' at first 2, graph 0 center offset 0, char -2.4 noenhanced font ',12'

plot $b0 using 1:($2+$3+$4) with boxes lc rgb d2h_colour title 'd2h: device to host copy', \
     $b0 using 1:($2+$3) with boxes lc rgb compute_colour title 'compute', \
     $b0 using 1:2 with boxes lc rgb h2d_colour title 'h2d: host to device copy'

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'breakdown.svg'
replot
set output
