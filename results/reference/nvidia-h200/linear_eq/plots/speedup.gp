# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1024 0.08101032311
2048 0.1094024186
4096 0.1933752226
8192 0.2169190257
16384 0.2672424733
32768 0.2305270136
65536 0.2668689855
131072 0.3911918675
262144 0.6125983773
524288 0.9892992751
1048576 1.645309991
2097152 4.589284324
4194304 5.638753544
8388608 6.965960868
16777216 7.72007927
EOD
$s1 << EOD
1024 0.03136588604
2048 0.0424568455
4096 0.07097691548
8192 0.09013321662
16384 0.09299790241
32768 0.06338092345
65536 0.05234039587
131072 0.04706507012
262144 0.04026861724
524288 0.03860391921
1048576 0.03800733681
2097152 0.06973261728
4194304 0.07540002428
8388608 0.08408397721
16777216 0.05662730696
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'linear_eq: speedup over device=cpu (device=cpu time / time)' noenhanced font ',14'
set xlabel 'size (equations)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-2:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:21810380.8]
set xtics 1024, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 521396.3547, graph 0 to first 521396.3547, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 521396.3547, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'Lua GPU faster from size = 2^20' at graph 0.98, graph 0.050 right tc rgb '#59A14F' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'Lua GPU' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'built-in GPU' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'device=cpu = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
