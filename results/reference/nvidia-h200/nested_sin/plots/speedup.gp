# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1024 0.1706337062
2048 0.2527107661
4096 0.3931365505
8192 0.732823256
16384 1.411416348
32768 2.724974121
65536 5.140970477
131072 10.02538574
262144 21.29023462
524288 42.0157197
1048576 78.09546128
2097152 128.590374
4194304 214.9491558
8388608 379.9833873
16777216 408.9263826
33554432 446.8803418
EOD
$s1 << EOD
1024 0.1717488372
2048 0.324131417
4096 0.6197113386
8192 1.157943593
16384 2.218587582
32768 4.369392325
65536 8.469533982
131072 18.38447721
262144 51.59669184
524288 104.7738454
1048576 188.9199806
2097152 316.5436735
4194304 462.2717637
8388608 423.9125447
16777216 499.8509506
EOD
$s2 << EOD
1024 0.01404068253
2048 0.0200150584
4096 0.03170070326
8192 0.05517499785
16384 0.1052577666
32768 0.1958537674
65536 0.3273562794
131072 0.758511731
262144 1.777374978
524288 3.141718766
1048576 5.769569065
2097152 11.74052836
4194304 19.03460557
8388608 40.139106
16777216 39.0945168
33554432 42.3916163
EOD
$s3 << EOD
1024 0.01844440804
2048 0.03352003126
4096 0.05959325571
8192 0.1068756699
16384 0.2195172302
32768 0.3877696461
65536 0.7314554788
131072 1.780956242
262144 5.140666648
524288 10.29391723
1048576 14.78291915
2097152 21.17291677
4194304 29.39265416
8388608 22.88058427
16777216 24.22152715
EOD
$s4 << EOD
1024 0.09065513568
2048 0.1258118612
4096 0.2217550377
8192 0.3554097733
16384 0.5958609807
32768 0.935530216
65536 1.379588664
131072 1.831566929
262144 2.386620984
524288 2.658723275
1048576 2.969060499
2097152 3.365572808
4194304 3.908691525
8388608 5.270400416
16777216 4.511049092
33554432 4.755305158
EOD
$s5 << EOD
1024 0.07486173508
2048 0.135071417
4096 0.2436785725
8192 0.4265168049
16384 0.7387722694
32768 0.997110234
65536 1.45275897
131072 2.0040797
262144 3.840091633
524288 4.570248737
1048576 5.342324478
2097152 5.966155973
4194304 6.312076856
8388608 4.743628195
16777216 3.413292031
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'nested_sin: speedup over device=cpu (device=cpu time / time)' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
set ylabel 'speedup (x), wall time' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-3:1e3]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:43620761.6]
set xtics 1024, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 11380.36707, graph 0 to first 11380.36707, first 1 nohead dt 3 lw 1.5 lc rgb '#59A14F' back
set label '' at 11380.36707, 1 point pt 6 ps 2 lw 2 lc rgb '#59A14F' front
set label 'GPU no IO, fused=false faster from size = 2^14' at graph 0.98, graph 0.050 right tc rgb '#59A14F' noenhanced front
set arrow from first 6962.656645, graph 0 to first 6962.656645, first 1 nohead dt 3 lw 1.5 lc rgb '#E15759' back
set label '' at 6962.656645, 1 point pt 6 ps 2 lw 2 lc rgb '#E15759' front
set label 'GPU no IO, fused=true faster from size = 8192' at graph 0.98, graph 0.105 right tc rgb '#E15759' noenhanced front
set arrow from first 164142.2331, graph 0 to first 164142.2331, first 1 nohead dt 3 lw 1.5 lc rgb '#B07AA1' back
set label '' at 164142.2331, 1 point pt 6 ps 2 lw 2 lc rgb '#B07AA1' front
set label 'GPU overlap, fused=false faster from size = 2^18' at graph 0.98, graph 0.160 right tc rgb '#B07AA1' noenhanced front
set arrow from first 83611.92866, graph 0 to first 83611.92866, first 1 nohead dt 3 lw 1.5 lc rgb '#9C755F' back
set label '' at 83611.92866, 1 point pt 6 ps 2 lw 2 lc rgb '#9C755F' front
set label 'GPU overlap, fused=true faster from size = 2^17' at graph 0.98, graph 0.215 right tc rgb '#9C755F' noenhanced front
set arrow from first 38522.62496, graph 0 to first 38522.62496, first 1 nohead dt 3 lw 1.5 lc rgb '#FF9DA7' back
set label '' at 38522.62496, 1 point pt 6 ps 2 lw 2 lc rgb '#FF9DA7' front
set label 'GPU, fused=false faster from size = 2^16' at graph 0.98, graph 0.270 right tc rgb '#FF9DA7' noenhanced front
set arrow from first 30477.38237, graph 0 to first 30477.38237, first 1 nohead dt 3 lw 1.5 lc rgb '#76B7B2' back
set label '' at 30477.38237, 1 point pt 6 ps 2 lw 2 lc rgb '#76B7B2' front
set label 'GPU, fused=true faster from size = 2^16' at graph 0.98, graph 0.325 right tc rgb '#76B7B2' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#59A14F' pt 9 dt 1 title 'GPU no IO, fused=false' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#E15759' pt 11 dt 1 title 'GPU no IO, fused=true' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'GPU overlap, fused=false' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#9C755F' pt 15 dt 1 title 'GPU overlap, fused=true' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#FF9DA7' pt 7 dt 1 title 'GPU, fused=false' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#76B7B2' pt 5 dt 1 title 'GPU, fused=true' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'device=cpu = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
