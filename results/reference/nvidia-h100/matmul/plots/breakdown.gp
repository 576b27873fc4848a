# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 18.77518137 52.94117667 28.28364196 7.45599996e-06 2.10239999e-05 1.12319998e-05
1 21.50411263 43.59577051 34.90011685 5.85599989e-06 1.18720001e-05 9.50399972e-06
2 23.28767101 42.00913386 34.70319512 6.52799988e-06 1.17760003e-05 9.72799957e-06
3 22.86374098 43.18706716 33.94919186 6.33599982e-06 1.19679999e-05 9.40799993e-06
4 24.27497388 43.39419938 32.33082674 7.23200012e-06 1.29279997e-05 9.63199977e-06
5 23.59454964 46.93356057 29.4718898 8.86400044e-06 1.76320001e-05 1.10719996e-05
6 27.7697838 35.46762744 36.76258876 1.2352e-05 1.57760009e-05 1.63519997e-05
7 52.12007367 20.48780555 27.39212078 4.44479994e-05 1.74720008e-05 2.33600009e-05
8 46.76549993 21.15902904 32.07547103 5.55200018e-05 2.51199994e-05 3.80799994e-05
9 61.63633044 7.234398226 31.12927134 0.000212384 2.49279998e-05 0.000107263997
10 61.60775932 6.670210129 31.72203055 0.000741855979 8.03200006e-05 0.000381983995
11 74.48076578 5.989372936 19.52986128 0.00486675215 0.000391360015 0.00127612805
12 68.70739649 10.5774086 20.71519491 0.0181143036 0.00278867197 0.00546144009
13 63.38910574 18.61244976 17.9984445 0.0724388809 0.0212696648 0.0205680008
14 52.25425006 31.52924532 16.21650462 0.267638916 0.161488358 0.0830586548
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'breakdown.png'

set title 'matmul: where the time goes, phase by phase' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced offset 0,-1.2
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
set xrange [-0.7:14.7]
set xtics ('1' 0, '2' 1, '4' 2, '8' 3, '16' 4, '32' 5, '64' 6, '128' 7, '256' 8, '512' 9, '1024' 10, '2048' 11, '4096' 12, '8192' 13, '16384' 14) noenhanced
set boxwidth 0.8 absolute
set yrange [0:100]
set format y '%g%%'

set label 'GPU' at first 7, graph 0 center offset 0, char -2.4 noenhanced font ',12'

plot $b0 using 1:($2+$3+$4) with boxes lc rgb d2h_colour title 'd2h: device to host copy', \
     $b0 using 1:($2+$3) with boxes lc rgb compute_colour title 'compute', \
     $b0 using 1:2 with boxes lc rgb h2d_colour title 'h2d: host to device copy'

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'breakdown.svg'
replot
set output
