# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 0.073818958 0.061424358 0.075269204
20 0.05879524 0.056680111 0.066323725
40 0.05497107 0.048866907 0.055868322
80 0.046744324 0.041584334 0.054812148
160 0.042296694 0.041581905 0.046195377
320 0.041627075 0.041353126 0.042414494
640 0.061362948 0.061334003 0.063978693
1280 0.064741254 0.064574695 0.065911652
2560 0.064287268 0.063476133 0.065312902
5120 0.063451744 0.063336385 0.063750346
10240 0.067141873 0.066177496 0.06804487
EOD
$s1 << EOD
10 1.10779066 1.07941182 1.17516518
20 0.722055636 0.60710761 0.749373226
40 0.414982536 0.413919988 0.422767667
80 0.214433657 0.210218642 0.215610989
160 0.108010462 0.10736646 0.109965431
320 0.057222859 0.055468503 0.057588398
640 0.038126267 0.038029868 0.038927297
1280 0.020457308 0.020434904 0.020660476
2560 0.020289784 0.020227532 0.021208029
5120 0.020538621 0.020064485 0.020987261
10240 0.020850702 0.020354573 0.021074229
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'mlp: median time vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
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
set yrange [1e-2:1e1]
set ytics ('10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0, '10 s' 1e1)
set mytics 10
set logscale x 10
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
