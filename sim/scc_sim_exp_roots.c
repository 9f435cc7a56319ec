/* scc_sim_exp_roots.c: where the root sits -- NoC_Msg bcast from every core of the mesh. */
#include <math.h>
#include <stdlib.h>

#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_out.h"

static const double sizes[] = { 64, 8192, 1048576 };
#define NSZ ((int) (sizeof(sizes) / sizeof(sizes[0])))

int scc_sim_exp_roots(const scc_sim_params_t *p, const char *dir)
{
    int X = (int) lrint(p->X), Y = (int) lrint(p->Y), K = (int) lrint(p->K), n = X * Y * K;
    FILE *f = scc_sim_open(dir, "roots.md"), *dat = scc_sim_open(dir, "roots.dat");
    double *t = malloc(sizeof(double) * n);
    int failed = 0;
    char b[4][32];

    if (!f || !dat || !t) {
        free(t);
        return -1;
    }
    fprintf(f, "# NoC_Msg bcast: the root on every core of the %dx%d mesh\n\n", X, Y);
    fprintf(f, "Each cell is a tile, drawn as the mesh is (row y = %d on top); it holds the time with\n"
               "the root on core 0 / core 1 of that tile, and the tree depth in tile hops\n"
               "(max|x - xR| + max|y - yR|, seeds/003 §3.2). Component transport.\n", Y - 1);
    fprintf(dat, "# size x y core time_ns depth\n");
    for (int s = 0; s < NSZ; ++s) {
        double best = INFINITY, worst = 0;
        int rb = 0, rw = 0;
        for (int r = 0; r < n; ++r) {
            t[r] = scc_sim_exp_time(p, SCC_COLL_BCAST, SCC_ALG_NOCMSG, r, sizes[s], &failed);
            if (t[r] < best) {
                best = t[r];
                rb = r;
            }
            if (t[r] > worst) {
                worst = t[r];
                rw = r;
            }
        }
        fprintf(f, "\n## %s\n\n|", scc_sim_fmt_bytes(sizes[s], b[0], 32));
        for (int x = 0; x < X; ++x) {
            fprintf(f, " x=%d |", x);
        }
        fprintf(f, "\n|");
        for (int x = 0; x < X; ++x) {
            fprintf(f, "---|");
        }
        fprintf(f, "\n");
        for (int y = Y - 1; y >= 0; --y) {
            fprintf(f, "|");
            for (int x = 0; x < X; ++x) {
                int tile = y * X + x;
                int dx = x > X - 1 - x ? x : X - 1 - x, dy = y > Y - 1 - y ? y : Y - 1 - y;
                fprintf(f, " %s", scc_sim_fmt_time(t[tile * K], b[1], 32));
                for (int z = 1; z < K; ++z) {
                    fprintf(f, " / %s", scc_sim_fmt_time(t[tile * K + z], b[2], 32));
                }
                fprintf(f, " (%d) |", dx + dy);
                for (int z = 0; z < K; ++z) {
                    fprintf(dat, "%g %d %d %d %g %d\n", sizes[s], x, y, z, t[tile * K + z], dx + dy);
                }
            }
            fprintf(f, "\n");
        }
        fprintf(dat, "\n\n");
        fprintf(f, "\nbest root %d (tile %d,%d): %s; worst root %d (tile %d,%d): %s; worst/best %.2f\n",
                rb, (rb / K) % X, rb / K / X, scc_sim_fmt_time(best, b[0], 32), rw, (rw / K) % X,
                rw / K / X, scc_sim_fmt_time(worst, b[1], 32), worst / best);
    }
    fclose(f);
    fclose(dat);
    free(t);
    return failed ? -1 : 0;
}
