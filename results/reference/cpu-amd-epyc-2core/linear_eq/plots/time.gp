# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
1024 1.09175e-06 3.855e-07 1.50725e-06
2048 1.923e-06 7.31e-07 4.617e-06
4096 6.169e-06 1.141e-06 3.408e-05
8192 2.8272e-05 2.043e-06 4.5918e-05
16384 5.7145e-05 3.475e-06 6.9613e-05
32768 8.6519e-05 6.97e-06 9.0785e-05
65536 0.000165285 1.5283e-05 0.000166227
131072 0.00031699 3.0034e-05 0.000326904
262144 0.000611086 7.3209e-05 0.000664985
524288 7.402e-05 6.5467e-05 8.9943e-05
1048576 0.000418039 0.00028388 0.000443007
2097152 0.001041013 0.000933703 0.001205797
4194304 0.002433055 0.00231517 0.002571449
8388608 0.005718262 0.005345259 0.006265623
16777216 0.011084483 0.01072531 0.01145428
EOD
$s1 << EOD
1024 3.6234e-05 9.51e-07 4.2473e-05
2048 1.1146e-05 1.112e-06 1.5893e-05
4096 1.5142e-05 1.572e-06 2.5147e-05
8192 3.5272e-05 2.664e-06 4.4336e-05
16384 8.2171e-05 8.192e-06 0.000139616
32768 0.000161038 1.7275e-05 0.000167328
65536 0.000325232 3.0896e-05 0.000334676
131072 0.000626268 7.0955e-05 0.000784582
262144 0.001319435 0.000220256 0.001414446
524288 0.000254377 0.0001615 0.000475795
1048576 0.000893364 0.000804872 0.001095042
2097152 0.002249363 0.00203163 0.002421057
4194304 0.003805959 0.003599182 0.004872098
8388608 0.008435568 0.007899975 0.008656716
16777216 0.014263553 0.013740307 0.015029167
EOD
$s2 << EOD
1024 7.735e-07 7.535e-07 7.9375e-07
2048 6.9625e-07 6.91e-07 7.185e-07
4096 8.2125e-07 8.1875e-07 8.3375e-07
8192 1.5725e-06 1.537e-06 1.7025e-06
16384 1.7425e-06 1.7225e-06 1.758e-06
32768 3.215e-06 2.974e-06 3.315e-06
65536 7.561e-06 7.501e-06 7.721e-06
131072 1.4001e-05 1.372e-05 1.5062e-05
262144 2.661e-05 2.6078e-05 2.8402e-05
524288 5.0024e-05 4.8882e-05 5.1917e-05
1048576 0.000119737 0.000114329 0.000151254
2097152 0.000450878 0.000419992 0.000539569
4194304 0.001463248 0.001296752 0.001564168
8388608 0.003259609 0.003108054 0.003400128
16777216 0.007202581 0.006664194 0.007362929
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'linear_eq: median time vs size' noenhanced font ',14'
set xlabel 'size' noenhanced
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
set yrange [1e-7:1e-1]
set ytics ('100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1)
set mytics 10
set logscale x 2
set xrange [787.6923077:21810380.8]
set xtics 1024, 2
set format x '2^{%L}'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'Lua CPU all cores' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'Lua CPU serial' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'built-in CPU all cores' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
