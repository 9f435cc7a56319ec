# scale.gp: every algorithm on meshes up to 32x32 tiles (gnuplot -e "dir='...'").
set terminal pngcairo size 1200,900 font "sans,10" noenhanced
set logscale xy
set grid
set key top left font ",8"
set datafile missing "nan"
meshes = "6x4 8x8 16x16 32x32"
colls = "bcast reduce allreduce alltoall"
nalgs = "8 6 3 3"
do for [j=1:4] {
    c = word(colls, j)
    na = int(word(nalgs, j))
    file = dir."/scale_".c.".dat"
    stats file u 1 nooutput
    nb = STATS_blocks - 1  # the trailing blank lines count as a block
    set output dir."/scale_".c.".png"
    what = (c eq "alltoall") ? "bytes: each rank's send buffer" : "bytes per rank"
    set multiplot layout 2,2 title (c." (modeled; ".what.")")
    do for [i=0:nb-1] {
        set title word(meshes, i+1)." tiles, 2 cores per tile"
        set xlabel "bytes"
        set ylabel "time (ns)"
        plot for [k=2:na+1] file index i u 1:k w lp pt 7 ps 0.5 title columnheader(k)
    }
    unset multiplot
}
set output dir."/scale_barrier.png"
set title "barrier (modeled)"
set xlabel "ranks"
set ylabel "time (ns)"
unset logscale y
plot for [k=2:5] dir."/scale_barrier.dat" u 1:k w lp pt 7 title columnheader(k)
