# roots.gp: NoC_Msg bcast time for every root on the mesh (gnuplot -e "dir='...'").
set terminal pngcairo size 1500,420 font "sans,10" noenhanced
set output dir."/roots.png"
set multiplot layout 1,3
set xlabel "tile x (left half: root on core 0, right half: core 1)"
set ylabel "tile y"
set cblabel "us"
set size ratio -1
set xtics 1
set ytics 1
set palette rgbformulae 33,13,10
titles = "64B 8KiB 1MiB"
do for [i=0:2] {
    set title "NoC_Msg bcast time by root, ".word(titles, i+1) noenhanced
    plot dir."/roots.dat" index i u ($2 - 0.25 + 0.5*$4):3:(0.25):(0.5):($5/1000) w boxxy fc palette fs solid notitle
}
unset multiplot
