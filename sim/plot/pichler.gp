# pichler.gp: seeds/000's DOPL chunk and Cube block tables, thesis beside model (gnuplot -e "dir='...'").
set terminal pngcairo size 1200,500 font "sans,10" noenhanced
set output dir."/pichler.png"
set multiplot layout 1,2
set logscale xy
set format x "%.0f"
set grid
set key top left font ",8"
set xlabel "DOPL pipeline chunk (B)"
set ylabel "time (ms)"
set title "DOPL (seeds/000 §6.3): points thesis, lines model (fitted)"
plot dir."/pichler_dopl.dat" u 1:2 w p pt 7 lc 1 t "50 kB thesis", "" u 1:3 w l lc 1 t "model", \
     "" u 1:4 w p pt 7 lc 2 t "190 kB thesis", "" u 1:5 w l lc 2 t "model", \
     "" u 1:6 w p pt 7 lc 3 t "1.9 MB thesis", "" u 1:7 w l lc 3 t "model"
set xlabel "Cube block (B)"
set title "Cube (seeds/000 §5.5): points thesis, lines model (predicted)"
set key top left font ",8"
plot dir."/pichler_cube.dat" u 1:2 w p pt 7 lc 1 t "50 kB thesis", "" u 1:3 w l lc 1 t "model", \
     "" u 1:4 w l dt 2 lc 1 t "model, links held per transfer (variant)", \
     "" u 1:5 w p pt 7 lc 2 t "190 kB thesis", "" u 1:6 w l lc 2 t "model", "" u 1:7 w l dt 2 lc 2 notitle, \
     "" u 1:8 w p pt 7 lc 3 t "1.9 MB thesis", "" u 1:9 w l lc 3 t "model", "" u 1:10 w l dt 2 lc 3 notitle
unset multiplot
