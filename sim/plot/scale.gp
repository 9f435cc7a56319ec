# scale.gp: every algorithm on meshes up to 32x32 tiles (gnuplot -e "dir='...'").
set terminal pngcairo size 1200,900 font "sans,10"
set logscale xy
set grid
set key top left font ",8"
meshes = "6x4 8x8 16x16 32x32"
do for [c in "bcast reduce allreduce alltoall"] {
    set output dir."/scale_".c.".png"
    file = dir."/scale_".c.".dat"
    set multiplot layout 2,2 title c
    do for [i=0:3] {
        stats file index i u 1 nooutput
        if (STATS_records > 0) {
            set title word(meshes, i+1)." tiles"
            set xlabel "bytes per rank"
            set ylabel "modeled time (ns)"
            plot for [k=2:7] file index i u 1:k w lp pt 7 ps 0.5 title columnheader(k)
        }
    }
    unset multiplot
}
set output dir."/scale_barrier.png"
set title "barrier"
set xlabel "ranks"
set ylabel "modeled time (ns)"
plot for [k=2:5] dir."/scale_barrier.dat" u 1:k w lp pt 7 title columnheader(k)
