# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 23.00613502 24.7443762 52.24948878 7.19999988e-06 7.74399983e-06 1.63519997e-05
1 21.58273475 19.18465232 59.23261293 5.76000009e-06 5.11999987e-06 1.58079993e-05
2 27.6595745 15.34154553 56.99887997 7.90399965e-06 4.38399985e-06 1.62879992e-05
3 35.13800304 12.73885321 52.12314375 1.05919996e-05 3.8399999e-06 1.57120004e-05
4 44.63986556 9.380234821 45.97989961 1.70559995e-05 3.58400005e-06 1.75679997e-05
5 39.22204184 17.39600244 43.38195572 2.32319999e-05 1.03040002e-05 2.56960001e-05
6 44.84732741 11.79389289 43.35877971 3.75999995e-05 9.88799985e-06 3.63520011e-05
7 53.28051535 4.926962 41.79252265 6.88640028e-05 6.36800006e-06 5.40160015e-05
8 59.27349766 2.624950279 38.10155206 0.000143071994 6.33599982e-06 9.19679999e-05
9 61.08673329 1.923358237 36.98990848 0.000267295986 8.41599982e-06 0.000161855996
10 65.19604222 1.282251146 33.52170663 0.000535296023 1.05280001e-05 0.000275231987
11 65.56964858 0.6094541286 33.82089729 0.00110169601 1.02399997e-05 0.000568256021
12 66.4988129 0.6084709553 32.89271615 0.00223123193 2.04160009e-05 0.00110364795
13 67.21839606 0.6058468385 32.17575711 0.0041468482 3.73760015e-05 0.00198499203
14 76.17565083 0.3922471358 23.43210204 0.0139764156 7.19679967e-05 0.00429923201
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'breakdown.png'

set title 'linear_eq: where the time goes, phase by phase' noenhanced font ',14'
set xlabel 'size (equations)' noenhanced offset 0,-1.2
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
set xtics ('1024' 0, '2048' 1, '4096' 2, '8192' 3, '16384' 4, '32768' 5, '65536' 6, '131072' 7, '262144' 8, '524288' 9, '1048576' 10, '2097152' 11, '4194304' 12, '8388608' 13, '16777216' 14) noenhanced
set xtics rotate by 35 right
set boxwidth 0.8 absolute
set yrange [0:100]
set format y '%g%%'

set label 'built-in GPU' at first 7, graph 0 center offset 0, char -2.4 noenhanced font ',12'

plot $b0 using 1:($2+$3+$4) with boxes lc rgb d2h_colour title 'd2h: device to host copy', \
     $b0 using 1:($2+$3) with boxes lc rgb compute_colour title 'compute', \
     $b0 using 1:2 with boxes lc rgb h2d_colour title 'h2d: host to device copy'

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'breakdown.svg'
replot
set output
