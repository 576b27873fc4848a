# time.gp - a line chart of a runner run, from the template plots/line.gp.
# Edit it, then re-draw in this folder with:  gnuplot time.gp
# (writes time.png and time.svg).  The data is inline below.
$s0 << EOD
50 0.025138884 0.024969231 0.025573743
100 0.060205836 0.052305824 0.061979742
200 0.109316214 0.103618957 0.116677133
400 0.211612677 0.20743023 0.229940083
EOD
$s1 << EOD
50 0.036092321 0.029374201 0.036727008
100 0.054826143 0.050202347 0.073606614
200 0.11507299 0.100764339 0.122557728
400 0.216651464 0.203360921 0.277978301
EOD
$s2 << EOD
50 0.034139058 0.031627482 0.040731781
100 0.062363314 0.052844597 0.074870078
200 0.100049092 0.098905176 0.121429004
400 0.261178255 0.220850556 0.290626757
EOD
$s3 << EOD
50 0.04108602 0.040627936 0.041988085
100 0.08912525 0.083530695 0.095210175
200 0.172334915 0.165595865 0.173434981
400 0.37305606 0.333874687 0.374862252
EOD
$s4 << EOD
50 0.042771273 0.041265337 0.056932794
100 0.089772815 0.086310171 0.115209203
200 0.204092321 0.196111628 0.230793475
400 0.387777866 0.328714063 0.47393578
EOD
$s5 << EOD
50 0.039157493 0.038917495 0.043776282
100 0.082457044 0.080757249 0.098708182
200 0.189720526 0.159968851 0.195669899
400 0.331998412 0.325113202 0.3324869
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
set yrange [1e-2:1e0]
set ytics ('10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1e0)
set mytics 10
set logscale x 10
set xrange [40:500]
set format x '%g'


plot $s0 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#4E79A7' pt 7 dt 1 title 'CPU ResNet-20, amp bf16' noenhanced, \
     $s1 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#F28E2B' pt 5 dt 1 title 'CPU ResNet-20, bf16' noenhanced, \
     $s2 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#59A14F' pt 9 dt 1 title 'CPU ResNet-20, f32' noenhanced, \
     $s3 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#E15759' pt 11 dt 1 title 'CPU ResNet-32, amp bf16' noenhanced, \
     $s4 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#B07AA1' pt 13 dt 1 title 'CPU ResNet-32, bf16' noenhanced, \
     $s5 using 1:2:3:4 with yerrorlines lw 2 lc rgb '#9C755F' pt 15 dt 1 title 'CPU ResNet-32, f32' noenhanced

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output 'time.svg'
replot
set output
