# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 29.79591963 20.40816281 49.79591755 9.34400037e-06 6.39999984e-06 1.56159997e-05
1 35.29411685 16.64580651 48.06007664 9.0239998e-06 4.25599981e-06 1.22880004e-05
2 16.98795132 30.12048315 52.89156553 4.5119999e-06 8.00000038e-06 1.40479999e-05
3 16.72473939 30.19744515 53.07781546 4.60800016e-06 8.32000002e-06 1.46239996e-05
4 17.58118746 31.57894703 50.83986551 5.02400007e-06 9.0239998e-06 1.45279998e-05
5 16.80911626 36.94206966 46.24881408 5.66399982e-06 1.24479998e-05 1.55840004e-05
6 28.3376397 32.73040528 38.93195502 1.05280001e-05 1.21600004e-05 1.44640002e-05
7 39.5977802 21.6366154 38.76560439 1.82719994e-05 9.98399965e-06 1.78880002e-05
8 43.70344076 13.69279937 42.60375987 3.94239984e-05 1.2352e-05 3.84319983e-05
9 57.42829546 6.982489884 35.58921466 0.000171072006 2.08000001e-05 0.000106016003
10 61.39518568 6.940783262 31.66403106 0.00055904001 6.31999969e-05 0.000288320005
11 60.54403074 10.02754596 29.4284233 0.00225068808 0.000372768015 0.00109398401
12 67.41825512 12.3409416 20.24080329 0.0150334082 0.00275187206 0.00451344013
13 60.89597653 21.39910874 17.70491473 0.0616083527 0.0216494408 0.0179120312
14 50.93202302 34.22392988 14.84404709 0.242379013 0.162867325 0.0706409302
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
