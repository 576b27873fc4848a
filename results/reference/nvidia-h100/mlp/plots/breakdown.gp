# breakdown.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot breakdown.gp
# (writes breakdown.png and breakdown.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
$b0 << EOD
0 3.591191645 96.40779152 0.001016829835 0.0397816642 1.06796372 1.12640001e-05
1 3.198047054 96.80108871 0.0008642352289 0.02309072 0.698928689 6.24000002e-06
2 3.043497965 96.9543223 0.002179731309 0.01264464 0.402810357 9.05600004e-06
3 3.159324508 96.83716785 0.003507640677 0.00677324801 0.207608352 7.51999998e-06
4 3.066315251 96.92571568 0.007969072324 0.00331216002 0.104696828 8.60800035e-06
5 3.363129915 96.6232202 0.01364988329 0.001923776 0.0552703692 7.80799985e-06
6 3.529803073 96.450125 0.02007192333 0.00134496 0.0367503675 7.64800003e-06
7 4.021541218 95.94244171 0.03601707459 0.000821792007 0.0196056008 7.36000016e-06
8 4.060498594 95.90856067 0.03094073924 0.000823104003 0.0194416322 6.27199979e-06
9 3.952620885 96.01120237 0.03617674263 0.000811135996 0.0197029122 7.42400018e-06
10 3.978544169 95.98610602 0.03534980985 0.000828352001 0.0199847682 7.36000016e-06
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
