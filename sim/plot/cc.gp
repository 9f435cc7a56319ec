# cc.gp: tuned's time over the component's on the cache-coherent presets (gnuplot -e "dir='...'").
set terminal pngcairo size 1500,840 font "sans,10" noenhanced
set output dir."/cc.png"
set multiplot layout 2,2
set logscale x 2
set xtics ("8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, "256K" 262144, "1M" 1048576, "4M" 4194304)
set xlabel "bytes"
set ylabel "tuned / scc (above 1: scc faster)"
set grid
set key top right
presets = "sandybridge xeonphi"
colls = "bcast allreduce"
do for [c=1:2] {
    do for [p=1:2] {
        f = dir."/cc_".word(presets, p)."_".word(colls, c).".dat"
        set title word(colls, c).", ".word(presets, p).", one package"
        plot for [n in "16 64 256"] f index 0 u ($2 == n ? $3 : 1/0):($5/$4) w lp t n." cores", \
             1 w l lc rgb "gray" notitle
    }
}
unset multiplot
