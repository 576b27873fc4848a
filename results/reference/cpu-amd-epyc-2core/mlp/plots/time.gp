# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 0.02176009 0.021635365 0.026648933
20 0.01656995 0.01656985 0.016933128
40 0.014019231 0.013981244 0.016305589
80 0.012770391 0.012755148 0.012901324
160 0.01205461 0.012017495 0.012068841
320 0.01161608 0.011582611 0.011735817
640 0.012210481 0.012046097 0.012437528
1280 0.01182555 0.01179849 0.011884458
2560 0.011984086 0.011849537 0.012853384
5120 0.012039808 0.011977766 0.01253366
10240 0.011960501 0.011938818 0.012022323
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'mlp: median time vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
set ylabel 'median time (ms)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set yrange [0:*]
set format y '%g'
set logscale x 10
set xrange [8:12800]
set format x '%g'


plot $s0 using 1:($2*1000):($3*1000):($4*1000) with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
