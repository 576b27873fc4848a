# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
256 2.42185e-05 2.2142e-05 3.02e-05
512 2.5208e-05 2.349e-05 2.8505e-05
1024 2.8477e-05 2.7803e-05 3.762e-05
2048 4.7248e-05 4.6281e-05 5.512e-05
4096 0.000192599 0.000190272 0.000202984
8192 0.0013525765 0.001325447 0.001366578
16384 0.0113910965 0.010785691 0.01197569
EOD
$s1 << EOD
256 2.3666e-05 2.1871e-05 2.7702e-05
512 2.74655e-05 2.5856e-05 2.9586e-05
1024 2.83055e-05 2.7152e-05 4.3888e-05
2048 4.57165e-05 4.3803e-05 4.7329e-05
4096 0.0001871085 0.000186015 0.000197336
8192 0.001385603 0.001381806 0.00139593
16384 0.011853146 0.011129849 0.011987572
EOD
$s2 << EOD
256 2.99895e-05 2.8168e-05 0.00016232
512 3.5984e-05 3.438e-05 3.8047e-05
1024 7.63305e-05 7.4784e-05 7.8768e-05
2048 0.0003594765 0.000357198 0.000364861
4096 0.0026820355 0.002680284 0.002688503
8192 0.021309515 0.021299315 0.021395748
16384 0.162346247 0.162310536 0.162448092
EOD
$s3 << EOD
256 3.00145e-05 2.8502e-05 3.1709e-05
512 3.4387e-05 3.3122e-05 4.3184e-05
1024 7.74275e-05 7.6402e-05 7.9239e-05
2048 0.0003594135 0.000356826 0.000361336
4096 0.002681909 0.002679671 0.002691864
8192 0.021309096 0.021300274 0.021365573
16384 0.162449771 0.162398567 0.162524056
EOD
$s4 << EOD
256 2.20285e-05 2.0739e-05 3.7773e-05
512 2.3007e-05 2.2362e-05 2.513e-05
1024 3.81055e-05 3.6603e-05 4.2796e-05
2048 7.21825e-05 7.0289e-05 8.0579e-05
4096 0.000353947 0.000349712 0.000359878
8192 0.002600187 0.002594803 0.002624073
16384 0.022090878 0.021140155 0.022524434
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'matmul_precision: median time vs size' noenhanced font ',14'
set xlabel 'size (n of an n x n x n product)' noenhanced
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
set yrange [1e-5:1e0]
set ytics ('10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 2
set xrange [196.9230769:21299.2]
set xtics 256, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'bf16' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'f16' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'f32' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'f32 default' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'tf32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
