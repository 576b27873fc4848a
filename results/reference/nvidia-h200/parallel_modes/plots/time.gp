# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
16 0.000259502125 0.00025700775 0.000264073125
64 0.0009935785 0.000985039 0.0010001425
256 0.003992183 0.003897416 0.004055983
1024 0.015946266 0.015381963 0.016065888
4096 0.057619145 0.056860971 0.063880278
16384 0.229413981 0.225286075 0.23147435
65536 0.929803334 0.89823543 0.99089321
262144 3.62401676 3.48824897 3.86526962
EOD
$s1 << EOD
16 1.4809875e-05 1.43853125e-05 1.55065e-05
64 1.7374875e-05 1.234675e-05 3.111175e-05
256 4.014875e-05 3.840125e-05 5.3689625e-05
1024 0.000167043 0.000149107375 0.000207860125
4096 0.0011496 0.00106774 0.001473189
16384 0.003254722 0.003116794 0.003390173
65536 0.012507896 0.012334156 0.012565556
262144 0.050487224 0.049288819 0.056001862
EOD
$s2 << EOD
16 0.014044101 0.008498488 0.023130148
64 0.011102126 0.009114503 0.017122358
256 0.012748539 0.011585534 0.014197521
1024 0.015801904 0.014133055 0.020689199
4096 0.026446208 0.013136694 0.034777402
16384 0.028596679 0.021023653 0.046857219
65536 0.065814366 0.03466832 0.068883161
262144 0.172567879 0.157988715 0.187218615
EOD
$s3 << EOD
16 3.622575e-05 3.60893125e-05 3.70682188e-05
64 0.000143986 0.00014177725 0.000146021375
256 0.000570635 0.00056602 0.000582148
1024 0.002330757 0.002261574 0.0040009
4096 0.008863442 0.008853041 0.009189604
16384 0.033407357 0.033138359 0.034017136
65536 0.135487504 0.131946928 0.143936104
262144 0.49171832 0.478795847 0.516359059
EOD
$s4 << EOD
16 7.82164844e-06 7.22586328e-06 8.40721094e-06
64 1.67901563e-05 1.61878438e-05 1.71351719e-05
256 5.41309375e-05 5.27794688e-05 5.4777625e-05
1024 0.000240005625 0.00020610675 0.00027329625
4096 0.000811433 0.00081076 0.0008572485
16384 0.003277917 0.003225867 0.004374516
65536 0.016219756 0.013483684 0.019647819
262144 0.052976571 0.052317983 0.055419234
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'parallel_modes: median wall time vs size' noenhanced font ',14'
set xlabel 'size (iterations)' noenhanced
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
set yrange [1e-6:1e1]
set ytics ('1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0, '10 s' 1e1)
set mytics 10
set logscale x 2
set xrange [12.30769231:340787.2]
set xtics 16, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'GPU' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'processes' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'processes started per call' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'serial' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'threads' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
