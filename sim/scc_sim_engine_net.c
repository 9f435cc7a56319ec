/* scc_sim_engine_net.c: the engine's messages between nodes -- one isend per reader on
 * another node, each through the single network port of its sender's node and of its
 * reader's, eager up to net_eager bytes and rendezvous beyond. */
#include "scc_sim_engine_int.h"

double scc_sim_net_send(engine_t *e, int r, long i, int pass, double bytes, double t)
{
    const scc_sim_params_t *p = e->p;
    const scc_sim_job_t *job = e->job;
    rank_t *R = &e->ranks[r];
    const int A = job->progs[r].tile;
    const long base = (long) pass * R->rd_at[R->nsends];

    for (long k = R->rd_at[i]; k < R->rd_at[i + 1]; ++k) {
        const int B = job->progs[R->rd[k]].tile;
        double out_end;
        if (B == A) {
            continue;
        }
        /* the isends go one after another on the core, in the order of their readers */
        t += p->net_o_send;
        R->net_post[base + k] = t;
        if (bytes <= p->net_eager) {
            /* eager: the message leaves as soon as the ports let it */
            R->net_arr[base + k] = scc_sim_net_book(p, &e->net_out[A], &e->net_in[B], t, bytes,
                                                    &out_end);
            if (out_end > R->net_done) {
                R->net_done = out_end;
            }
        }
    }
    return t;
}

double scc_sim_net_recv(engine_t *e, int r, int s, long i, int pass, double bytes, int reduce,
                        double t)
{
    const scc_sim_params_t *p = e->p;
    const scc_sim_job_t *job = e->job;
    rank_t *S = &e->ranks[s];
    long lo = S->rd_at[i], hi = S->rd_at[i + 1], at;
    double arr;

    while (lo < hi) {   /* readers are listed by rank */
        long mid = (lo + hi) / 2;
        if (S->rd[mid] < r) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    at = (long) pass * S->rd_at[S->nsends] + lo;
    if (lo >= S->rd_at[i + 1] || S->rd[lo] != r || S->net_post[at] < 0) {
        fprintf(stderr, "scc_sim: rank %d reads a network message of %d it is not listed for\n",
                r, s);
        e->res->error = 1;
        e->ranks[r].done = 1;
        return -t;
    }
    arr = S->net_arr[at];
    if (arr < 0) {
        /* rendezvous: the sender's request to send meets the posted receive, whose answer
           takes a latency back before the data moves */
        double out_end, met = S->net_post[at] + p->net_lat_ns;
        if (t > met) {
            met = t;
        }
        arr = scc_sim_net_book(p, &e->net_out[job->progs[s].tile], &e->net_in[job->progs[r].tile],
                               met + p->net_lat_ns, bytes, &out_end);
        S->net_arr[at] = arr;
        if (out_end > S->net_done) {
            S->net_done = out_end;
        }
        if (S->done && out_end > e->res->t_end[s]) {
            e->res->t_end[s] = out_end;   /* it waits for its isends at the end of the call */
        }
    }
    if (arr > t) {
        return -arr;
    }
    return t + p->net_o_recv + (reduce ? bytes * p->reduce_ns_b : 0.0);
}
