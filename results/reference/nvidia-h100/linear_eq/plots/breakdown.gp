# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 33.41935487 27.74193532 38.83870981 8.28799978e-06 6.87999977e-06 9.63199977e-06
1 35.74660497 28.16742107 36.08597396 1.01119997e-05 7.96800014e-06 1.02080004e-05
2 43.05283741 22.50489261 34.44226999 1.40800001e-05 7.36000016e-06 1.12640001e-05
3 54.82625448 13.51351306 31.66023246 2.27199998e-05 5.5999998e-06 1.31200003e-05
4 57.76190593 6.238094843 35.99999923 3.88160013e-05 4.19199979e-06 2.41919998e-05
5 48.4936844 14.82021342 36.68610218 3.1936001e-05 9.75999981e-06 2.41599996e-05
6 51.16423361 9.686432384 39.149334 5.27359992e-05 9.98399965e-06 4.03520018e-05
7 57.46309434 5.613267421 36.92363824 0.000100896001 9.85599961e-06 6.48320019e-05
8 65.33120297 1.758417415 32.91037962 0.000209248006 5.63200004e-06 0.000105407998
9 65.27534459 1.423185154 33.30147025 0.000393344015 8.57600011e-06 0.000200672001
10 65.79127046 0.8844967299 33.32423281 0.000771200001 1.03679998e-05 0.000390623987
11 72.66769323 0.5625608371 26.76974593 0.00205436802 1.5904e-05 0.000756799996
12 75.23268754 0.4358225281 24.33148993 0.00435836792 2.52480004e-05 0.00140956795
13 76.40963714 0.4792613182 23.11110154 0.00972918415 6.1023999e-05 0.00294271994
14 76.49823217 0.3961447285 23.1056231 0.0188101444 9.74079967e-05 0.00568143988
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'breakdown.png'

set title 'linear_eq: where the time goes, phase by phase' noenhanced font ',14'
set xlabel 'size' noenhanced offset 0,-1.2
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
