# speedup.gp - a speedup chart of a runner run, from the template plots/speedup.gp.
# Edit it, then re-draw in this folder with:  gnuplot speedup.gp
# (writes speedup.png and speedup.svg).  The data is inline below.
# speedup = baseline time / curve time: above the dashed line at 1 is faster.
$s0 << EOD
1024 0.1866264959
2048 0.2685374079
4096 0.3968083276
8192 0.699358236
16384 0.7997560125
32768 0.9412437032
65536 1.12851711
131072 1.64104265
262144 2.077008568
524288 3.918055504
1048576 5.861019682
2097152 11.68997804
4194304 20.22587254
8388608 26.110534
16777216 18.34968879
33554432 27.89476546
EOD
$s1 << EOD
1024 0.1096112311
2048 0.2510736104
4096 0.330162413
8192 0.3378549466
16384 0.3847007299
32768 0.5455717719
65536 0.8763620868
131072 1.827682717
262144 3.604441928
524288 5.287495568
1048576 10.49252352
2097152 15.77801164
4194304 29.26675564
8388608 31.24817952
16777216 39.23661286
33554432 60.10293556
EOD
$s2 << EOD
1024 0.01140892557
2048 0.01646887001
4096 0.02363917774
8192 0.04432878398
16384 0.04642258308
32768 0.05622182271
65536 0.06925114038
131072 0.1085766659
262144 0.1486466723
524288 0.2712142109
1048576 0.4201400258
2097152 0.9304700654
4194304 2.082070028
8388608 3.530157458
16777216 2.295760405
33554432 3.067271761
EOD
$s3 << EOD
1024 0.01472766984
2048 0.03154878623
4096 0.04202940286
8192 0.03922035203
16384 0.04715617082
32768 0.0593005995
65536 0.08094325089
131072 0.2194464387
262144 0.3921862592
524288 0.5782055756
1048576 0.8978930911
2097152 1.135921203
4194304 1.956194152
8388608 1.804850922
16777216 1.999272828
33554432 2.891085214
EOD
$s4 << EOD
1024 0.09526861049
2048 0.1441437415
4096 0.178388413
8192 0.3145061329
16384 0.2778433688
32768 0.316278342
65536 0.3055792931
131072 0.2735818371
262144 0.2145528883
524288 0.2524060559
1048576 0.2272775817
2097152 0.2829812507
4194304 0.3298490023
8388608 0.4356770368
16777216 0.244599091
33554432 0.3458553291
EOD
$s5 << EOD
1024 0.05174541844
2048 0.1059360964
4096 0.1411006445
8192 0.1155106668
16384 0.1095480395
32768 0.1438328646
65536 0.1680990191
131072 0.1915827093
262144 0.2528523068
524288 0.2154554846
1048576 0.2696326519
2097152 0.2230455666
4194304 0.3059831678
8388608 0.2036800944
16777216 0.205487935
33554432 0.3000773719
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'speedup.png'

set title 'nested_sin: speedup over device=cpu (device=cpu time / time)' noenhanced font ',14'
set xlabel 'size (elements)' noenhanced
set ylabel 'speedup (x)' noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set pointsize 1.1
set style fill solid 0.85 border lc rgb '#444444'
set logscale y 10
set yrange [1e-3:1e2]
set format y '%g'
set ytics 10
set mytics 10
set logscale x 2
set xrange [787.6923077:43620761.6]
set xtics 1024, 2
set format x '2^{%L}'

# where each curve crosses 1
set arrow from first 41295.70784, graph 0 to first 41295.70784, first 1 nohead dt 3 lw 1.5 lc rgb '#B07AA1' back
set label '' at 41295.70784, 1 point pt 6 ps 2 lw 2 lc rgb '#B07AA1' front
set label 'GPU no IO, fused=false faster from size = 65536' at graph 0.98, graph 0.050 right tc rgb '#B07AA1' noenhanced front
set arrow from first 74221.67957, graph 0 to first 74221.67957, first 1 nohead dt 3 lw 1.5 lc rgb '#9C755F' back
set label '' at 74221.67957, 1 point pt 6 ps 2 lw 2 lc rgb '#9C755F' front
set label 'GPU no IO, fused=true faster from size = 131072' at graph 0.98, graph 0.105 right tc rgb '#9C755F' noenhanced front
set arrow from first 2231333.356, graph 0 to first 2231333.356, first 1 nohead dt 3 lw 1.5 lc rgb '#FF9DA7' back
set label '' at 2231333.356, 1 point pt 6 ps 2 lw 2 lc rgb '#FF9DA7' front
set label 'GPU overlap, fused=false faster from size = 4.1943e+06' at graph 0.98, graph 0.160 right tc rgb '#FF9DA7' noenhanced front
set arrow from first 1440389.089, graph 0 to first 1440389.089, first 1 nohead dt 3 lw 1.5 lc rgb '#76B7B2' back
set label '' at 1440389.089, 1 point pt 6 ps 2 lw 2 lc rgb '#76B7B2' front
set label 'GPU overlap, fused=true faster from size = 2.09715e+06' at graph 0.98, graph 0.215 right tc rgb '#76B7B2' noenhanced front

plot $s0 using 1:2 with linespoints lw 2 pi 1 lc rgb '#B07AA1' pt 13 dt 1 title 'GPU no IO, fused=false' noenhanced, \
     $s1 using 1:2 with linespoints lw 2 pi 1 lc rgb '#9C755F' pt 15 dt 1 title 'GPU no IO, fused=true' noenhanced, \
     $s2 using 1:2 with linespoints lw 2 pi 1 lc rgb '#FF9DA7' pt 7 dt 1 title 'GPU overlap, fused=false' noenhanced, \
     $s3 using 1:2 with linespoints lw 2 pi 1 lc rgb '#76B7B2' pt 5 dt 1 title 'GPU overlap, fused=true' noenhanced, \
     $s4 using 1:2 with linespoints lw 2 pi 1 lc rgb '#7F7F7F' pt 9 dt 1 title 'GPU, fused=false' noenhanced, \
     $s5 using 1:2 with linespoints lw 2 pi 1 lc rgb '#EDC948' pt 11 dt 1 title 'GPU, fused=true' noenhanced, \
     1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'device=cpu = 1 (baseline)' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'speedup.svg'
replot
set output
