# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 3.688105595 96.31101327 0.0008811359446 0.036163808 0.944379954 8.63999967e-06
1 3.900698885 96.09814577 0.001155344257 0.0223640961 0.550964899 6.62400015e-06
2 3.448537107 96.54946401 0.001998878209 0.010047776 0.28130983 5.82400011e-06
3 3.518134043 96.4781543 0.003711659253 0.00564166399 0.154711936 5.95200015e-06
4 3.747289417 96.24538354 0.007327044787 0.00291312001 0.074820576 5.69600007e-06
5 4.038360512 95.94942873 0.01221075788 0.001672128 0.0397289261 5.05599985e-06
6 4.245930172 95.73433396 0.01973587053 0.00114969601 0.0259225605 5.34400018e-06
7 4.829736733 95.14376148 0.02650178551 0.000723135998 0.0142454719 3.96799995e-06
8 4.936398428 94.99187823 0.07172334646 0.000706976001 0.0136044485 1.0272e-05
9 4.927826304 95.04224937 0.02992432685 0.000732479996 0.0141272322 4.44799988e-06
10 4.616349731 95.35410757 0.02954269697 0.000730047998 0.0150796797 4.67200018e-06
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'breakdown.png'

set title 'mlp: where the time goes, phase by phase' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced offset 0,-1.2
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
set xrange [-0.7:10.7]
set xtics ('10' 0, '20' 1, '40' 2, '80' 3, '160' 4, '320' 5, '640' 6, '1280' 7, '2560' 8, '5120' 9, '10240' 10) noenhanced
set boxwidth 0.8 absolute
set yrange [0:100]
set format y '%g%%'

set label 'GPU' at first 5, graph 0 center offset 0, char -2.4 noenhanced font ',12'

plot $b0 using 1:($2+$3+$4) with boxes lc rgb d2h_colour title 'd2h: device to host copy', \
     $b0 using 1:($2+$3) with boxes lc rgb compute_colour title 'compute', \
     $b0 using 1:2 with boxes lc rgb h2d_colour title 'h2d: host to device copy'

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'breakdown.svg'
replot
set output
