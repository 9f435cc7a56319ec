/* scc_sim_params.c: the model's parameter table, its SCC defaults and its file format. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "scc_sim_params.h"

typedef struct {
    const char *name;
    size_t off;
    const char *what;
} param_desc_t;

#define P(f, what) { #f, offsetof(scc_sim_params_t, f), what }
static const param_desc_t descs[] = {
    P(X, "tiles along x"),
    P(Y, "tiles along y"),
    P(K, "cores per tile"),
    P(mpb_bytes, "message-passing buffer per core, bytes"),
    P(line_bytes, "MPB line: every MPB access moves whole lines, bytes"),
    P(core_mhz, "core clock, MHz"),
    P(mesh_mhz, "mesh (router) clock, MHz"),
    P(router_cycles, "mesh cycles per router crossed"),
    P(hop_line_ns, "extra ns per line and hop of a remote line read, beyond the routers'"),
    P(link_bytes, "link width: bytes per mesh cycle"),
    P(header_flits, "header flits per line-sized packet"),
    P(link_hold, "0: links carry a transfer per line packet, interleaved; 1: held for the whole transfer"),
    P(port_cycles_line, "mesh cycles a tile's MPB port is busy per line"),
    P(port_hold, "0: an MPB port serves a transfer per line, interleaved; 1: for the whole transfer"),
    P(window, "transport slots per sender: tag t waits for the last message of slot t % window"),
    P(slot_bytes, "largest message moved in one piece, bytes (0: mpb_bytes/window)"),
    P(sync, "0: a send returns after its put; 1: after its readers consumed it (RCCE_send)"),
    P(o_put, "sender overhead per message piece, ns"),
    P(o_get, "reader overhead per message piece, ns"),
    P(put_ns_b, "private memory -> own MPB, ns per byte (cache hit)"),
    P(get_ns_b, "MPB on the same tile -> private memory, ns per byte (cache hit)"),
    P(mem_ns_b, "extra ns per byte of private memory that misses the cache"),
    P(cache_bytes, "effective private cache, bytes"),
    P(cache_model, "0: every access misses 1 - cache/footprint; 1: from the buffer's cache state"),
    P(mem_overlap, "non-blocking copies' misses: 0 in turn, 1 beside the MPB side, 2 gets' writes drain behind"),
    P(reduce_ns_b, "reduction arithmetic, ns per byte of operand"),
    P(flag_ns, "a flag write seen by its poller, excluding router hops, ns"),
    P(cma_min, "within a tile: single copy from this many bytes (no put, no slot limit); 0: never"),
    P(cma_ns_b, "single-copy read, ns per byte (instead of get_ns_b)"),
    P(cma_o_get, "single-copy read: extra reader overhead per message, ns"),
    P(net, "0: the mesh; 1: tiles are nodes and messages between tiles cross a network"),
    P(net_lat_ns, "network: one-way latency per message, ns"),
    P(net_ns_b, "network: a node port's ns per byte (1 / bandwidth)"),
    P(net_gap_ns, "network: a node port's ns per message beyond its bytes"),
    P(net_o_send, "network: sender core ns per message (one per reader on another node)"),
    P(net_o_recv, "network: reader core ns per message"),
    P(net_eager, "network: larger messages move only once the reader waits for them (rendezvous), bytes"),
};
#undef P
#define NDESCS ((int) (sizeof(descs) / sizeof(descs[0])))

void scc_sim_params_default(scc_sim_params_t *p)
{
    memset(p, 0, sizeof(*p));
    /* facts: seeds/000 §1, seeds/003 §1.1-1.4; clocks assumed (seeds/000 L409 states
     * 800 / 1066 MHz for its ping-pong only; the SCC's default is 533 / 800) */
    p->X = 6;
    p->Y = 4;
    p->K = 2;
    p->mpb_bytes = 8192;
    p->line_bytes = 32;
    p->core_mhz = 800;
    p->mesh_mhz = 1066;
    p->router_cycles = 4;
    p->link_bytes = 16;
    /* assumed: packets per 32-byte line, interleaved on links and ports */
    p->header_flits = 1;
    p->link_hold = SCC_SIM_HOLD_LINE;
    p->port_cycles_line = 2;
    p->port_hold = SCC_SIM_HOLD_LINE;
    /* the component's transport: SCC_SCHED_TAG_WINDOW slots of mpb/window */
    p->window = SCC_SCHED_TAG_WINDOW;
    p->slot_bytes = 0;
    p->sync = SCC_SIM_SYNC_EAGER;
    /* costs: fitted to seeds/000 §6.3 (the 18 DOPL cells), see sim/params/scc.conf */
    p->o_put = 1423.43;
    p->o_get = 2846.85;
    p->put_ns_b = 2.10446;
    p->get_ns_b = 4.20892;
    p->mem_ns_b = 17.0712;
    p->cache_bytes = 99046;
    /* private memory from the buffers' cache state; non-blocking copies overlap misses */
    p->cache_model = SCC_SIM_CACHE_STATE;
    p->mem_overlap = 1;
    p->reduce_ns_b = 0.75;
    p->flag_ns = 200;
}

static const param_desc_t *find(const char *name)
{
    for (int i = 0; i < NDESCS; ++i) {
        if (0 == strcmp(descs[i].name, name)) {
            return &descs[i];
        }
    }
    return NULL;
}

double *scc_sim_params_field(scc_sim_params_t *p, const char *name)
{
    const param_desc_t *d = find(name);
    return d ? (double *) ((char *) p + d->off) : NULL;
}

int scc_sim_params_set(scc_sim_params_t *p, const char *name, const char *value)
{
    double *f = scc_sim_params_field(p, name);
    char *end;
    double v;

    if (NULL == f) {
        fprintf(stderr, "scc_sim: unknown parameter '%s'\n", name);
        return -1;
    }
    errno = 0;
    v = strtod(value, &end);
    while (isspace((unsigned char) *end)) {
        end++;
    }
    if (0 != errno || end == value || '\0' != *end) {
        fprintf(stderr, "scc_sim: bad value '%s' for %s\n", value, name);
        return -1;
    }
    *f = v;
    return 0;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char) *s)) {
        s++;
    }
    e = s + strlen(s);
    while (e > s && isspace((unsigned char) e[-1])) {
        *--e = '\0';
    }
    return s;
}

int scc_sim_params_assign(scc_sim_params_t *p, const char *assignment)
{
    char buf[256];
    char *eq;

    if (strlen(assignment) >= sizeof(buf)) {
        fprintf(stderr, "scc_sim: assignment too long\n");
        return -1;
    }
    strcpy(buf, assignment);
    eq = strchr(buf, '=');
    if (NULL == eq) {
        fprintf(stderr, "scc_sim: expected name=value, got '%s'\n", assignment);
        return -1;
    }
    *eq = '\0';
    return scc_sim_params_set(p, trim(buf), trim(eq + 1));
}

int scc_sim_params_load(scc_sim_params_t *p, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int lineno = 0, rc = 0;

    if (NULL == f) {
        fprintf(stderr, "scc_sim: cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        char *hash = strchr(line, '#');
        char *s;
        lineno++;
        if (hash) {
            *hash = '\0';
        }
        s = trim(line);
        if ('\0' == *s) {
            continue;
        }
        if (0 != scc_sim_params_assign(p, s)) {
            fprintf(stderr, "scc_sim: %s:%d\n", path, lineno);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

void scc_sim_params_print(const scc_sim_params_t *p, FILE *f)
{
    for (int i = 0; i < NDESCS; ++i) {
        const double *v = (const double *) ((const char *) p + descs[i].off);
        fprintf(f, "%-17s = %-12.6g # %s\n", descs[i].name, *v, descs[i].what);
    }
}

double scc_sim_hop_ns(const scc_sim_params_t *p)
{
    return p->router_cycles * 1000.0 / p->mesh_mhz;
}

double scc_sim_slot(const scc_sim_params_t *p)
{
    if (p->slot_bytes > 0) {
        return p->slot_bytes;
    }
    return p->mpb_bytes / (p->window > 0 ? p->window : 1);
}
