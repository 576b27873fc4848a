# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
10 0.06732928897
100 0.02713404254
1000 0.01431153197
10000 0.01522281385
100000 0.01989975668
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'sumsq: speedup over device=cpu (device=cpu time / time)' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-3:1e1]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 10
set xrange [8:125000]
set format x '%g'

# where each curve crosses 1

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'device=cpu = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
