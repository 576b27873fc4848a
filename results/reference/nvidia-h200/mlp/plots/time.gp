# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
10 0.042941033 0.042799506 0.043457575
20 0.030297601 0.029951477 0.031019879
40 0.02499313 0.024561121 0.025153902
80 0.02199427 0.021892403 0.024190701
160 0.020952859 0.020748294 0.020958724
320 0.020158681 0.018979346 0.020954088
640 0.031525492 0.031209838 0.032231486
1280 0.036557541 0.034826292 0.036972067
2560 0.037014911 0.036184317 0.03852028
5120 0.036801297 0.03638915 0.036891307
10240 0.036063431 0.035169347 0.036255537
EOD
$s1 << EOD
10 0.98056675 0.967027825 0.9910571
20 0.573442719 0.570844267 0.578320261
40 0.291355149 0.289619196 0.294000489
80 0.160392054 0.153122617 0.164132071
160 0.077757156 0.07649406 0.07893486
320 0.041416056 0.0393243 0.042014507
640 0.027106425 0.02691685 0.027326938
1280 0.014989185 0.0145315 0.015200633
2560 0.014336057 0.014226268 0.014448112
5120 0.014897436 0.014626372 0.015067763
10240 0.015830591 0.015131247 0.015844858
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'mlp: median wall time vs size' noenhanced font ',14'
set xlabel 'size (batch size)' noenhanced
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
