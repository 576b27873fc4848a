# {{NAME}}.gp - a time breakdown of a runner run, from the template plots/breakdown.gp.
# Edit it, then re-draw in this folder with:  gnuplot {{NAME}}.gp
# (writes {{NAME}}.png and {{NAME}}.svg).  The data is inline below:
# position, then the median seconds of h2d (host->device copy), compute and
# d2h (device->host copy) of each trial.
{{DATA}}
set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output {{PNG}}

set title {{TITLE}} noenhanced font ',14'
set xlabel {{XLABEL}} noenhanced offset 0,-1.2
set ylabel {{YLABEL}} noenhanced
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
{{AXES}}
{{MARKS}}
plot {{PLOT}}

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output {{SVG}}
replot
set output
