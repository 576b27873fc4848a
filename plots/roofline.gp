# {{NAME}}.gp - a roofline chart of a runner run (doc/ceilings.md#the-roofline), from the template plots/roofline.gp.
# Edit it, then re-draw in this folder with:  gnuplot {{NAME}}.gp
# (writes {{NAME}}.png and {{NAME}}.svg).  The data is inline below:
# arithmetic intensity (flop/byte), achieved GFLOP/s, size.
{{DATA}}
set encoding utf8
set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11' linewidth 1.2
set output {{PNG}}

set title {{TITLE}} noenhanced font ',14'
set xlabel {{XLABEL}} noenhanced
set ylabel {{YLABEL}} noenhanced
set border 3 lc rgb '#555555'
set tics nomirror out
set grid xtics ytics mxtics mytics lt 1 lc rgb '#e3e3e3' lw 1, lt 1 lc rgb '#f3f3f3' lw 1
# the legend below the plot: beside it, the roofs' long entries would narrow
# the plot until its centred title no longer fits the chart
set key outside below center vertical Left reverse noenhanced spacing 1.3 samplen 2.5 maxrows 4
# each trial a point labelled by its size (where the label clears the others);
# each device's roof: min(peak, bandwidth x intensity)
{{AXES}}
{{MARKS}}
plot {{PLOT}}

set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'
set output {{SVG}}
replot
set output
