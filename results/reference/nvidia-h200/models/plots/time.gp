# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
50 0.03480771 0.034063148 0.042473778
100 0.104437599 0.103835935 0.104940546
200 0.217259252 0.214713808 0.221853858
EOD
$s1 << EOD
50 0.001742417 0.001705178 0.001748962
100 0.001436859 0.001401847 0.001516541
200 0.001511132 0.00149889 0.001552278
400 0.002825462 0.002818353 0.002838941
EOD
$s2 << EOD
50 0.001239556 0.001217965 0.0012776
100 0.001188563 0.001167408 0.001216416
200 0.001435106 0.001427255 0.001443222
400 0.002629077 0.002625805 0.002630148
EOD
$s3 << EOD
50 0.001689215 0.001646784 0.001748647
100 0.001489343 0.001430834 0.001494976
200 0.00152996 0.001508175 0.001536768
400 0.002742452 0.002727609 0.00276406
EOD
$s4 << EOD
50 0.001255291 0.001235516 0.00129322
100 0.001240413 0.001219705 0.001264527
200 0.001431348 0.001426946 0.001442983
400 0.002627024 0.002617234 0.002642891
EOD
$s5 << EOD
50 0.003312063 0.003303408 0.003352287
100 0.00544087 0.00543612 0.005466626
200 0.009853829 0.009811084 0.009869733
400 0.018020478 0.017973525 0.018117618
EOD
$s6 << EOD
50 0.003609066 0.003600309 0.003632434
100 0.00492825 0.003243604 0.005084651
EOD
$s7 << EOD
50 0.003748394 0.003692966 0.00382799
100 0.003565469 0.00354452 0.003598566
200 0.003817598 0.003804166 0.003826845
400 0.007103482 0.007089097 0.007115877
EOD
$s8 << EOD
50 0.009923217 0.009910015 0.009934169
100 0.01644288 0.016425986 0.016453922
200 0.02967842 0.029653429 0.029688645
400 0.054555933 0.054465864 0.054676555
EOD

set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output 'time.png'

set title 'one model alone: time per forward pass' noenhanced font ',14'
set xlabel 'batch (images)' noenhanced
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
set yrange [1e-3:1e0]
set ytics ('1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 10
set xrange [40:500]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU ResNet-20, f32' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'GPU ResNet-20, amp bf16' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'GPU ResNet-20, amp f16' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'GPU ResNet-20, bf16' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'GPU ResNet-20, f16' noenhanced, \
     $s5 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#9C755F' pt 15 dt 1 title 'GPU ResNet-20, f32' noenhanced, \
     $s6 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#FF9DA7' pt 7 dt 1 title 'GPU ResNet-56, amp bf16' noenhanced, \
     $s7 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#76B7B2' pt 5 dt 1 title 'GPU ResNet-56, bf16' noenhanced, \
     $s8 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#7F7F7F' pt 9 dt 1 title 'GPU ResNet-56, f32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
