# cluster.gp: the cluster study -- each schedule's time over the fastest's, by size, for nodes of
# 8 cores (gnuplot -e "dir='...'").  Data: cluster_<coll>.dat, one block per nodes x cores.
set terminal pngcairo size 1200,900 font "sans,10" noenhanced
set logscale x 2
set logscale y
set yrange [0.9:30]
set grid
set key top left font ",8"
set datafile missing "nan"
set format x "%.0b%B"
panels = "16 64 256 1024"
colls = "bcast allreduce"
nalgs = "6 4"
do for [j=1:2] {
    c = word(colls, j)
    na = int(word(nalgs, j))
    file = dir."/cluster_".c.".dat"
    set output dir."/cluster_".c.".png"
    set multiplot layout 2,2 title (c.": time / fastest (modeled, cluster preset; bytes per rank)")
    do for [i=1:4] {
        cfg = word(panels, i)." nodes x 8 cores"
        set title cfg
        set xlabel "bytes"
        set ylabel "time / fastest"
        plot for [k=2:na+1] file index cfg u 1:(column(k)/column(na+2)) w lp pt 7 ps 0.5 \
            title columnheader(k)
    }
    unset multiplot
}
set output dir."/cluster_barrier.png"
set title "barrier across nodes (modeled, cluster preset)"
set xlabel "nodes"
set ylabel "time (ns)"
set format x "%g"
set autoscale y
unset logscale y
file = dir."/cluster_barrier.dat"
plot for [c in "1 8 32"] file index c." cores" u 1:2 w lp pt 7 title "dissem, ".c." cores", \
     for [c in "1 8 32"] file index c." cores" u 1:3 w lp pt 5 title "binomial, ".c." cores"
