# patil.gp: NoC_Msg against the linear and binomial baselines at 48 cores (gnuplot -e "dir='...'").
set terminal pngcairo size 1200,500 font "sans,10" noenhanced
set output dir."/patil.png"
set multiplot layout 1,2
set logscale xy
set grid
set key top left font ",9"
set xlabel "bytes (alltoall: per pair)"
set ylabel "baseline time / NoC_Msg time"
set title "against linear (RCCE-style)"
plot for [c in "bcast reduce allreduce alltoall"] sprintf("< grep '^%s ' %s/patil.dat", c, dir) u 2:3 w lp t c
set title "against binomial (RCKMPI-style; alltoall: pairwise)"
plot for [c in "bcast reduce allreduce alltoall"] sprintf("< grep '^%s ' %s/patil.dat", c, dir) u 2:4 w lp t c
unset multiplot
