#!/bin/bash
# report.sh: turns a results CSV (of compare.sh or suite.sh) into report.md -- a summary of the
# targets, then per process count and collective the latency of each component and the ratio
# scc / best of the others, cells over target marked -- and into log-log PNG plots (gnuplot).
#
# usage: test/bench/report.sh [-o DIR] [-t TARGETS] [-T TITLE] [-M METRIC] [-P] RESULTS.CSV
#   -o DIR      where report.md and plots/ go (default: the CSV's directory)
#   -t FILE     targets (default: test/bench/targets.txt)
#   -T TITLE    title of the report;  -M TEXT  what the latency numbers are
#   -P          no plots
# DIR may hold config.txt, selection.txt and skipped.txt (written by the drivers): they are
# quoted in the report.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="" targets="$here/targets.txt" plots=1
title="coll/scc against Open MPI's components"
metric="Latency in microseconds: per run the median over iterations of the slowest process's time (barrier before each iteration), then the median over runs."
while getopts "o:t:T:M:Ph" opt; do
    case $opt in
    o) out=$OPTARG ;;
    t) targets=$OPTARG ;;
    T) title=$OPTARG ;;
    M) metric=$OPTARG ;;
    P) plots=0 ;;
    h) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: report.sh [-o DIR] [-t TARGETS] [-P] RESULTS.CSV" >&2; exit 2; }
csv=$1
[ -f "$csv" ] || { echo "report: no file $csv" >&2; exit 2; }
[ -f "$targets" ] || { echo "report: no targets file $targets" >&2; exit 2; }
[ -n "$out" ] || out=$(dirname "$csv")
mkdir -p "$out/plots/data" || exit 2
out=$(cd "$out" && pwd)

awk -F, -v targets="$targets" -v out="$out" -v title="$title" -v metric="$metric" \
    -v skipped="$out/skipped.txt" -v config="$out/config.txt" -v selection="$out/selection.txt" '
function human(b) {
    if (b + 0 >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"
    if (b + 0 >= 1024 && b % 1024 == 0) return (b / 1024) "K"
    return b
}
function lat(v) {
    if (v == "") return "-"
    if (v + 0 < 10) return sprintf("%.2f", v)
    if (v + 0 < 1000) return sprintf("%.1f", v)
    return sprintf("%.0f", v)
}
# log-scale x axis over [lo, hi] bytes: a little margin, tics on powers of two labelled 4, 1K, 4M
function xaxis(lo, hi,   p, step, n, t) {
    if (lo + 0 < 1) lo = 1
    n = 0; for (p = 1; p <= hi * 1.01; p *= 2) if (p * 1.01 >= lo) n++
    step = n > 16 ? 4 : n > 8 ? 2 : 1
    t = ""; n = 0
    for (p = 1; p <= hi * 1.01; p *= 2) {
        if (p * 1.01 >= lo && n++ % step == 0) t = t (t == "" ? "" : ", ") "\"" human(p) "\" " p
    }
    return "set logscale x; set xrange [" lo / 1.5 ":" hi * 1.5 "]; set xtics (" t ")"
}
function is_scc(c) { return c == "scc" || substr(c, 1, 4) == "scc:" }
# the target of a cell: the smallest max_ratio of the matching rules, "" if none (the floors
# memcpy and xcopy are no collectives: they have none)
function target(np, coll, bytes,   i, t) {
    t = ""
    if (coll == "memcpy" || coll == "xcopy") return t
    for (i = 1; i <= nrules; i++) {
        if (rnp[i] != "*" && rnp[i] + 0 != np + 0) continue
        if (rcoll[i] != "*" && index("," rcoll[i] ",", "," coll ",") == 0) continue
        if (bytes + 0 < rmin[i] + 0 || bytes + 0 > rmax[i] + 0) continue
        if (t == "" || rratio[i] + 0 < t + 0) t = rratio[i]
    }
    return t
}
function sortnum(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function sortstr(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function copyfile(f, head,   line, n) {
    n = 0
    while ((getline line < f) > 0) { if (n++ == 0 && head != "") print head > md; print line > md }
    close(f)
    return n
}
BEGIN {
    ncoll = split("memcpy xcopy bcast barrier reduce allreduce alltoall alltoallv gather scatter allgather reduce_scatter_block", cname, " ")
    for (i = 1; i <= ncoll; i++) cidx[cname[i]] = i
    while ((getline line < targets) > 0) {
        if (line ~ /^[ \t]*(#|$)/) continue
        split(line, w, /[ \t]+/)
        if (w[1] == "") { for (i = 1; i < 6; i++) w[i] = w[i + 1] }
        nrules++; rnp[nrules] = w[1]; rcoll[nrules] = w[2]; rmin[nrules] = w[3]; rmax[nrules] = w[4]; rratio[nrules] = w[5]
    }
}
$1 == "component" { next }
NF >= 12 {
    comp = $1; np = $2; coll = $3; bytes = $4; root = $9
    g = np SUBSEP coll SUBSEP root
    if (!(g in gseen)) { gseen[g] = 1; ng++; gkey[ng] = sprintf("%06d %02d %s", np, (coll in cidx) ? cidx[coll] : 99, root); gid[gkey[ng]] = g }
    if (!((g, bytes) in sseen)) { sseen[g, bytes] = 1; gns[g]++; gsize[g, gns[g]] = bytes }
    if (!((g, comp) in cseen)) { cseen[g, comp] = 1; gnc[g]++; gcomp[g, gnc[g]] = comp }
    if (!(comp in allseen)) { allseen[comp] = 1; nall++; allc[nall] = comp }
    if (!(np in npseen)) { npseen[np] = 1; nnp++; nps[nnp] = np }
    val[g, bytes, comp] = $5; stat[g, bytes, comp] = $12
}
END {
    # component order: scc, the forced scc algorithms, then the others as they came
    no = 0
    if ("scc" in allseen) ord[++no] = "scc"
    ns = 0
    for (i = 1; i <= nall; i++) if (substr(allc[i], 1, 4) == "scc:") sx[++ns] = allc[i]
    sortstr(sx, ns)
    for (i = 1; i <= ns; i++) ord[++no] = sx[i]
    for (i = 1; i <= nall; i++) if (!is_scc(allc[i])) ord[++no] = allc[i]
    for (i = 1; i <= ng; i++) keys[i] = gkey[i]
    sortstr(keys, ng)
    sortnum(nps, nnp)

    md = out "/report.md"
    print "# " title > md
    print "" > md
    print metric " `scc / best` divides scc (the component'"'"'s own choice of algorithm) by the fastest of the other components (not scc:*) at that size: below 1 scc is faster. A ratio over its target (test/bench/targets.txt) is **bold ✗**; `WRONG` marks a result that failed its check (no result)." > md
    print "" > md
    if (copyfile(config, "```") > 0) print "```" > md
    print "" > md
    if ((getline line < selection) > 0) {
        print "Which component Open MPI selected (checked from its coll_base_verbose output before measuring):" > md
        print "" > md; print "```" > md; print line > md
        while ((getline line < selection) > 0) print line > md
        print "```" > md; print "" > md
    }
    while ((getline line < skipped) > 0) {
        split(line, w, " "); rest = line; sub(/^[^ ]+ [^ ]+ /, "", rest)
        print "- **" w[2] " at np " w[1] " was not measured**: " rest > md
        nskip++
    }
    if (nskip) print "" > md

    # ---- the tables, kept in memory for the summary that comes first
    nt = 0
    for (gi = 1; gi <= ng; gi++) {
        g = gid[keys[gi]]; split(g, gg, SUBSEP); np = gg[1]; coll = gg[2]; root = gg[3]
        n = gns[g]; for (i = 1; i <= n; i++) bs[i] = gsize[g, i]; sortnum(bs, n)
        nc = 0; for (i = 1; i <= no; i++) if ((g, ord[i]) in cseen) cc[++nc] = ord[i]
        hasx = 0; for (i = 1; i <= nc; i++) if (substr(cc[i], 1, 4) == "scc:") hasx = 1
        head = "### " coll ", np " np (root != "-" ? ", root " root : "")
        if (np != lastnp) { tab[++nt] = "## np " np; tab[++nt] = ""; lastnp = np }
        tab[++nt] = head; tab[++nt] = ""
        h = "| bytes |"; a = "|---:|"
        for (i = 1; i <= nc; i++) { h = h " " cc[i] " |"; a = a "---:|" }
        h = h " best other | scc / best |"; a = a "---|---:|"
        if (hasx) { h = h " best scc:alg / best |"; a = a "---:|" }
        h = h " target |"; a = a "---:|"
        tab[++nt] = h; tab[++nt] = a
        cells = 0; over = 0; worst = ""; worstb = ""; rlo = ""; rhi = ""
        for (si = 1; si <= n; si++) {
            b = bs[si]; row = "| " (coll == "barrier" ? "-" : human(b)) " |"
            best = ""; bestc = ""; bx = ""; bxc = ""
            for (i = 1; i <= nc; i++) {
                c = cc[i]; v = ""
                if ((g, b, c) in val) {
                    v = val[g, b, c]
                    if (stat[g, b, c] != "ok") { row = row " WRONG |"; continue }
                    if (!is_scc(c) && (best == "" || v + 0 < best + 0)) { best = v; bestc = c }
                    if (substr(c, 1, 4) == "scc:" && (bx == "" || v + 0 < bx + 0)) { bx = v; bxc = substr(c, 5) }
                }
                row = row " " lat(v) " |"
            }
            row = row " " (best == "" ? "-" : lat(best) " " bestc) " |"
            t = target(np, coll, b)
            r = ""
            if (((g, b, "scc") in val) && stat[g, b, "scc"] != "ok") r = "WRONG"
            else if (((g, b, "scc") in val) && best != "" && best + 0 > 0) r = sprintf("%.2f", val[g, b, "scc"] / best)
            cell = (r == "" ? "-" : r)
            if (r != "" && t != "") {
                cells++
                if (r == "WRONG" || r + 0 > t + 0) { over++; cell = "**" r " ✗**" }
            }
            if (r != "" && r != "WRONG") {
                if (worst == "" || r + 0 > worst + 0) { worst = r; worstb = b }
                if (rlo == "" || r + 0 < rlo + 0) rlo = r
                if (rhi == "" || r + 0 > rhi + 0) rhi = r
                ratio[np, coll, root, b] = r
            }
            row = row " " cell " |"
            if (hasx) row = row " " (bx == "" || best == "" ? "-" : sprintf("%.2f %s", bx / best, bxc)) " |"
            row = row " " (t == "" ? "-" : "≤ " t) " |"
            tab[++nt] = row
        }
        tab[++nt] = ""
        if (coll != "barrier") tab[++nt] = "![" coll " np " np "](plots/" pname(np, coll, root) ".png)"
        tab[++nt] = ""
        # summary line
        ns_ = "| " np " | " coll (root != "-" && root != "0" ? " (root " root ")" : "") " | " (coll == "barrier" ? "-" : human(bs[1]) ".." human(bs[n])) " | "
        ns_ = ns_ (rlo == "" ? "-" : (rlo == rhi ? rlo : rlo " .. " rhi)) " | " (worst == "" ? "-" : worst (coll == "barrier" ? "" : " at " human(worstb))) " | "
        ns_ = ns_ (cells == 0 ? "no target" : (over == 0 ? "all " cells " met ✓" : "**" over " of " cells " over ✗**")) " |"
        summ[gi] = ns_
        tcells += cells; tover += over

        # plot data: latency against size, one column per component
        if (coll != "barrier") {
            f = out "/plots/data/" pname(np, coll, root) ".dat"
            h = "bytes"; for (i = 1; i <= nc; i++) h = h " " cc[i]
            print h > f
            for (si = 1; si <= n; si++) {
                b = bs[si]; line = b
                for (i = 1; i <= nc; i++) line = line " " (((g, bs[si], cc[i]) in val) && stat[g, b, cc[i]] == "ok" ? val[g, b, cc[i]] : "?")
                print line > f
            }
            close(f)
            nplot++; plotf[nplot] = pname(np, coll, root); plott[nplot] = coll ", np " np (root != "-" ? ", root " root : "") ": latency"; plotn[nplot] = nc
            plotx[nplot] = xaxis(bs[1], bs[n])
        }
    }

    print "## Summary" > md
    print "" > md
    if (tcells > 0) print (tover == 0 ? "All " tcells " cells with a target meet it." : "**" tover " of " tcells " cells with a target are over it.**") > md
    print "" > md
    print "| np | collective | sizes | scc / best | worst | targets |" > md
    print "|---:|---|---|---|---|---|" > md
    for (gi = 1; gi <= ng; gi++) print summ[gi] > md
    print "" > md
    for (i = 1; i <= nt; i++) print tab[i] > md
    close(md)

    # barrier against the number of processes; the ratio per size, one line per collective
    f = out "/plots/data/barrier.dat"; hb = 0
    h = "np"; for (i = 1; i <= no; i++) h = h " " ord[i]
    for (k = 1; k <= nnp; k++) {
        np = nps[k]; g = np SUBSEP "barrier" SUBSEP "-"
        if (!(g in gseen)) continue
        if (!hb) { print h > f; hb = 1 }
        line = np; for (i = 1; i <= no; i++) line = line " " (((g, 0, ord[i]) in val) && stat[g, 0, ord[i]] == "ok" ? val[g, 0, ord[i]] : "?")
        print line > f
    }
    close(f)
    gp = out "/plots/plots.gp"
    print "set terminal pngcairo size 900,560 noenhanced font \",10\"" > gp
    print "set datafile missing \"?\"; set key top left; set grid" > gp
    print "set style data linespoints" > gp
    for (i = 1; i <= nplot; i++) {
        print "set output \"" out "/plots/" plotf[i] ".png\"" > gp
        print "unset logscale; set logscale y; " plotx[i] "; set xlabel \"bytes\"; set ylabel \"microseconds\"; set yrange [*:*]" > gp
        print "set title \"" plott[i] "\"" > gp
        print "plot for [c=2:" plotn[i] + 1 "] \"" out "/plots/data/" plotf[i] ".dat\" using 1:c title columnheader(c) lw 2" > gp
    }
    if (hb) {
        print "set output \"" out "/plots/barrier.png\"" > gp
        xt = ""; for (k = 1; k <= nnp; k++) xt = xt (k > 1 ? ", " : "") nps[k]
        print "unset logscale; set logscale y; set xrange [*:*]; set xtics (" xt "); set offsets 0.5, 0.5, 0, 0; set xlabel \"processes\"; set ylabel \"microseconds\"; set title \"barrier: latency\"" > gp
        print "plot for [c=2:" no + 1 "] \"" out "/plots/data/barrier.dat\" using 1:c title columnheader(c) lw 2" > gp
    }
    for (k = 1; k <= nnp; k++) {
        np = nps[k]; f = out "/plots/data/ratio_np" np ".dat"; ncol = 0; split("", rb)
        h = "bytes"
        for (gi = 1; gi <= ng; gi++) {
            g = gid[keys[gi]]; split(g, gg, SUBSEP)
            if (gg[1] != np || gg[2] == "barrier") continue
            rc[++ncol] = g; h = h " " gg[2] (gg[3] != "-" && gg[3] != "0" ? "(root" gg[3] ")" : "")
            for (i = 1; i <= gns[g]; i++) rb[gsize[g, i]] = 1
        }
        if (ncol == 0) continue
        nb = 0; for (b in rb) bl[++nb] = b; sortnum(bl, nb)
        print h > f
        for (i = 1; i <= nb; i++) {
            line = bl[i]
            for (j = 1; j <= ncol; j++) { split(rc[j], gg, SUBSEP); line = line " " (((gg[1], gg[2], gg[3], bl[i]) in ratio) ? ratio[gg[1], gg[2], gg[3], bl[i]] : "?") }
            print line > f
        }
        close(f)
        tl = ""; for (i = 1; i <= nrules; i++) if (rnp[i] == "*" || rnp[i] + 0 == np + 0) tl = tl (tl == "" ? "" : ", ") rratio[i] " lc rgb \"black\" dt 2 title \"target " rratio[i] "\""
        print "set output \"" out "/plots/ratio_np" np ".png\"" > gp
        print "unset logscale; set offsets 0, 0, 0, 0; " xaxis(bl[1], bl[nb]) "; set yrange [0:*]; set xlabel \"bytes\"; set ylabel \"scc / best of the others\"; set title \"np " np ": scc / best of the others (below 1: scc faster)\"" > gp
        print "plot for [c=2:" ncol + 1 "] \"" f "\" using 1:c title columnheader(c) lw 2" (tl == "" ? "" : ", " tl) > gp
    }
    close(gp)
}
function pname(np, coll, root) { return "np" np "_" coll (root != "-" && root != "0" ? "_root" root : "") }
' "$csv" || { echo "report: could not build the report" >&2; exit 1; }

if [ "$plots" = 1 ]; then
    if command -v gnuplot > /dev/null 2>&1; then
        if ! gnuplot "$out/plots/plots.gp" 2> "$out/plots/gnuplot.err"; then
            # gnuplot without cairo: its plain png terminal
            sed -i 's/^set terminal pngcairo \(size [0-9,]*\).*/set terminal png \1/' "$out/plots/plots.gp"
            gnuplot "$out/plots/plots.gp" 2> "$out/plots/gnuplot.err" ||
                echo "report: gnuplot failed, see $out/plots/gnuplot.err" >&2
        fi
    else
        echo "report: gnuplot not found, no plots (Debian: apt-get install gnuplot-nox)" >&2
    fi
fi
echo "report: $out/report.md"
