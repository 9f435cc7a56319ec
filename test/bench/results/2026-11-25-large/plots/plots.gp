set terminal pngcairo size 900,560 noenhanced font ",10"
set datafile missing "?"; set key top left; set grid
set style data linespoints
set output "plots/np2_memcpy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "memcpy, np 2: latency"
plot for [c=2:4] "plots/data/np2_memcpy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_xcopy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "xcopy, np 2: latency"
plot for [c=2:4] "plots/data/np2_xcopy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_bcast.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "bcast, np 2, root 0: latency"
plot for [c=2:4] "plots/data/np2_bcast.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_reduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "reduce, np 2, root 0: latency"
plot for [c=2:4] "plots/data/np2_reduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_allreduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allreduce, np 2: latency"
plot for [c=2:4] "plots/data/np2_allreduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_gather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "gather, np 2, root 0: latency"
plot for [c=2:4] "plots/data/np2_gather.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_scatter.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "scatter, np 2, root 0: latency"
plot for [c=2:4] "plots/data/np2_scatter.dat" using 1:c title columnheader(c) lw 2
set output "plots/np2_allgather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allgather, np 2: latency"
plot for [c=2:4] "plots/data/np2_allgather.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_memcpy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "memcpy, np 4: latency"
plot for [c=2:4] "plots/data/np4_memcpy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_xcopy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "xcopy, np 4: latency"
plot for [c=2:4] "plots/data/np4_xcopy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_bcast.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "bcast, np 4, root 0: latency"
plot for [c=2:4] "plots/data/np4_bcast.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_reduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "reduce, np 4, root 0: latency"
plot for [c=2:4] "plots/data/np4_reduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_allreduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allreduce, np 4: latency"
plot for [c=2:4] "plots/data/np4_allreduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_gather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "gather, np 4, root 0: latency"
plot for [c=2:4] "plots/data/np4_gather.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_scatter.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "scatter, np 4, root 0: latency"
plot for [c=2:4] "plots/data/np4_scatter.dat" using 1:c title columnheader(c) lw 2
set output "plots/np4_allgather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allgather, np 4: latency"
plot for [c=2:4] "plots/data/np4_allgather.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_memcpy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "memcpy, np 8: latency"
plot for [c=2:4] "plots/data/np8_memcpy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_xcopy.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "xcopy, np 8: latency"
plot for [c=2:4] "plots/data/np8_xcopy.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_bcast.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "bcast, np 8, root 0: latency"
plot for [c=2:4] "plots/data/np8_bcast.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_reduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "reduce, np 8, root 0: latency"
plot for [c=2:4] "plots/data/np8_reduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_allreduce.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allreduce, np 8: latency"
plot for [c=2:4] "plots/data/np8_allreduce.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_gather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "gather, np 8, root 0: latency"
plot for [c=2:4] "plots/data/np8_gather.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_scatter.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "scatter, np 8, root 0: latency"
plot for [c=2:4] "plots/data/np8_scatter.dat" using 1:c title columnheader(c) lw 2
set output "plots/np8_allgather.png"
unset logscale; set logscale y; set logscale x; set xrange [43690.7:6291456]; set xtics ("64K" 65536, "128K" 131072, "256K" 262144, "512K" 524288, "1M" 1048576, "2M" 2097152, "4M" 4194304); set xlabel "bytes"; set ylabel "microseconds"; set yrange [*:*]
set title "allgather, np 8: latency"
plot for [c=2:4] "plots/data/np8_allgather.dat" using 1:c title columnheader(c) lw 2
set output "plots/ratio_np2.png"
unset logscale; set offsets 0, 0, 0, 0; set logscale x; set xrange [43690.7:6291456]; set xtics ("8" 8, "8K" 8192, "64K" 65536); set yrange [0:*]; set xlabel "bytes"; set ylabel "scc / best of the others"; set title "np 2: scc / best of the others (below 1: scc faster)"
plot for [c=2:9] "plots/data/ratio_np2.dat" using 1:c title columnheader(c) lw 2, 0.7 lc rgb "black" dt 2 title "target 0.7", 1.0 lc rgb "black" dt 2 title "target 1.0"
set output "plots/ratio_np4.png"
unset logscale; set offsets 0, 0, 0, 0; set logscale x; set xrange [43690.7:6291456]; set xtics ("8" 8, "8K" 8192, "64K" 65536); set yrange [0:*]; set xlabel "bytes"; set ylabel "scc / best of the others"; set title "np 4: scc / best of the others (below 1: scc faster)"
plot for [c=2:9] "plots/data/ratio_np4.dat" using 1:c title columnheader(c) lw 2, 1.1 lc rgb "black" dt 2 title "target 1.1"
set output "plots/ratio_np8.png"
unset logscale; set offsets 0, 0, 0, 0; set logscale x; set xrange [43690.7:6291456]; set xtics ("8" 8, "8K" 8192, "64K" 65536); set yrange [0:*]; set xlabel "bytes"; set ylabel "scc / best of the others"; set title "np 8: scc / best of the others (below 1: scc faster)"
plot for [c=2:9] "plots/data/ratio_np8.dat" using 1:c title columnheader(c) lw 2, 1.1 lc rgb "black" dt 2 title "target 1.1"
