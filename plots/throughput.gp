# {{NAME}}.gp - a throughput chart (GFLOP/s or GB/s) of a runner run, from the template plots/throughput.gp.
# Edit it, then re-draw in this folder with:  gnuplot {{NAME}}.gp
# (writes {{NAME}}.png and {{NAME}}.svg).  The data is inline below.
{{DATA}}
set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output {{PNG}}

set title {{TITLE}} noenhanced font ',14'
set xlabel {{XLABEL}} noenhanced
set ylabel {{YLABEL}} noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1
# the legend sits outside the plot area: it never hides a point
set key outside right top vertical Left reverse noenhanced spacing 1.3 samplen 2.5
set bars small
set pointsize 1.1
# one curve per series: the rate computed from each trial's median time
{{AXES}}
{{MARKS}}
plot {{PLOT}}{{REFLINE}}

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output {{SVG}}
replot
set output
