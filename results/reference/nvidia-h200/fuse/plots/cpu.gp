# cpu.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot cpu.gp
# (writes cpu.png and cpu.svg).  The data is inline below.
$s0 << EOD
65536 1.51427734e-05 1.26966563e-05 2.21253203e-05
131072 2.47296094e-05 2.18310156e-05 3.28356875e-05
262144 4.51411563e-05 3.73489375e-05 5.4109375e-05
524288 8.48883125e-05 7.250325e-05 9.3151125e-05
1048576 0.000165830375 0.000143828125 0.000175024625
2097152 0.00032891675 0.00026772975 0.00035859625
4194304 0.0006639265 0.0005422715 0.0007664115
8388608 0.001310112 0.001041314 0.001740082
16777216 0.002618843 0.00209134 0.002769134
EOD
$s1 << EOD
65536 2.83080313e-05 2.46989531e-05 3.44226563e-05
131072 3.88922187e-05 3.19553438e-05 5.080575e-05
262144 5.87206875e-05 5.43760938e-05 9.07350625e-05
524288 9.57346875e-05 8.01503125e-05 0.000151744063
1048576 0.000199331125 0.000139437 0.000500818
2097152 0.00039412975 0.00031239325 0.00046992575
4194304 0.0010194625 0.000711605 0.001773611
8388608 0.001483653 0.001118763 0.001744558
16777216 0.003068189 0.002458683 0.003570175
EOD
$s2 << EOD
65536 1.31300313e-05 1.10998672e-05 1.8404375e-05
131072 2.32714219e-05 1.88383594e-05 2.74591406e-05
262144 4.41146875e-05 3.49920625e-05 7.45413125e-05
524288 8.23209375e-05 6.4206125e-05 0.000106820938
1048576 0.00016087425 0.000131638563 0.000180759125
2097152 0.0003347435 0.000252717 0.000548392
4194304 0.0006771065 0.000521162 0.000837127
8388608 0.001248344 0.001003016 0.001374282
16777216 0.002523773 0.002000709 0.004373527
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'cpu.png'

set title 'fuse: median wall time vs size' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
set ylabel 'median wall time (seconds)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series; error bars span min..max of the samples
set logscale y 10
set yrange [1e-5:1e-2]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2)
set mytics 10
set logscale x 2
set xrange [50412.30769:21810380.8]
set xtics 65536, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua fuse' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'Lua unfused' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#FF9DA7' pt 7 dt 1 title 'built-in fused' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'cpu.svg'
replot
set output
