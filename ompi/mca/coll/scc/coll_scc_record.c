/* coll_scc_record.c: each process's configuration record, published with its location at
 * MPI_Init, and the check at communicator creation that all members would run alike. */
#include "coll_scc_component.h"
#include "coll_scc_record.h"
#include "coll_scc_record_text.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "opal/class/opal_hash_table.h"
#include "opal/mca/base/mca_base_var.h"

#define SCC_RECORD_MAGIC 0x5cc2ec01u
#define SCC_RECORD_FILE_MAX (1 << 20)

/* What a process publishes: this head, its location, then its record's text. */
typedef struct scc_record_head {
    uint32_t magic;
    uint32_t loc_bytes;
    uint32_t text_bytes;        /* with the terminating NUL */
    uint32_t pad;
    uint64_t hash;              /* of every value that decides the protocol */
} scc_record_head_t;

/* Parameters that may differ between processes: they change no protocol. */
static const char *const per_process[] = {
    "coll_scc_verbose", "coll_scc_spin", "coll_scc_scc_coreid", "coll_scc_scc_coreid_file",
    "coll_scc_scc_crb_device", "coll_scc_trace", NULL
};

enum { PEER_UNKNOWN = 0, PEER_AGREES, PEER_MISSING, PEER_DIFFERS };

/* What this process keeps of a peer's publication */
typedef struct {
    int verdict;                /* PEER_* against my own record */
    uint32_t loc_bytes;         /* 0: no location */
    int32_t loc[16];
} peer_t;

static struct {
    pthread_mutex_t lock;       /* communicators may be created by several threads at once */
    int have_table;
    opal_hash_table_t peers;    /* process name -> peer_t */
    uint64_t hash;
    char *text;                 /* what I published: the values set, and the version */
    uint64_t shown[16];         /* causes shown through show_help already */
    int nshown;
} rec = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool is_per_process(const char *name)
{
    for (int i = 0; NULL != per_process[i]; ++i) {
        if (0 == strcmp(per_process[i], name)) {
            return true;
        }
    }
    return false;
}

/* The storage is the registrant's own variable of the var's type (not a whole union, which
 * may be misaligned for it): read it through a pointer of that type. */
static void var_value(const mca_base_var_t *v, char *out, size_t len)
{
    const void *s = v->mbv_storage;

    switch (v->mbv_type) {
    case MCA_BASE_VAR_TYPE_INT: snprintf(out, len, "%d", *(const int *) s); break;
    case MCA_BASE_VAR_TYPE_UNSIGNED_INT: snprintf(out, len, "%u", *(const unsigned *) s); break;
    case MCA_BASE_VAR_TYPE_UNSIGNED_LONG:
        snprintf(out, len, "%lu", *(const unsigned long *) s);
        break;
    case MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG:
        snprintf(out, len, "%llu", *(const unsigned long long *) s);
        break;
    case MCA_BASE_VAR_TYPE_SIZE_T: snprintf(out, len, "%zu", *(const size_t *) s); break;
    case MCA_BASE_VAR_TYPE_BOOL: snprintf(out, len, "%d", (int) *(const bool *) s); break;
    case MCA_BASE_VAR_TYPE_DOUBLE: snprintf(out, len, "%.17g", *(const double *) s); break;
    case MCA_BASE_VAR_TYPE_LONG: snprintf(out, len, "%ld", *(const long *) s); break;
    case MCA_BASE_VAR_TYPE_INT32_T: snprintf(out, len, "%" PRId32, *(const int32_t *) s); break;
    case MCA_BASE_VAR_TYPE_UINT32_T: snprintf(out, len, "%" PRIu32, *(const uint32_t *) s); break;
    case MCA_BASE_VAR_TYPE_INT64_T: snprintf(out, len, "%" PRId64, *(const int64_t *) s); break;
    case MCA_BASE_VAR_TYPE_UINT64_T:
        snprintf(out, len, "%" PRIu64, *(const uint64_t *) s);
        break;
    case MCA_BASE_VAR_TYPE_STRING:
    case MCA_BASE_VAR_TYPE_VERSION_STRING: {
        const char *str = *(char *const *) s;
        snprintf(out, len, "%s", NULL == str ? "" : str);
        break;
    }
    default: snprintf(out, len, "(type %d)", (int) v->mbv_type); break;
    }
}

/* A map file's contents decide the mesh as much as its name does. */
static void add_file_hash(scc_record_text_t *all, scc_record_text_t *set, const char *path)
{
    char value[64] = "unreadable";
    FILE *f = fopen(path, "r");

    if (NULL != f) {
        char *buf = malloc(SCC_RECORD_FILE_MAX);
        if (NULL != buf) {
            size_t got = fread(buf, 1, SCC_RECORD_FILE_MAX, f);
            snprintf(value, sizeof(value), "%016" PRIx64, scc_record_hash(buf, got));
            free(buf);
        }
        fclose(f);
    }
    scc_record_text_add(all, "coll_scc_mesh_map_file:contents", value);
    scc_record_text_add(set, "coll_scc_mesh_map_file:contents", value);
}

/* Everything that decides which protocol this process runs: the component's version, the
 * coll selection list, every coll component's priority and every parameter of scc but the
 * per-process ones.  all: every value (hashed); set: those not at their default. */
static void record_build(scc_record_text_t *all, scc_record_text_t *set, const char *mesh)
{
    const int count = mca_base_var_get_count();
    const char *version = mca_coll_scc_component_version_string;
    char given[16];

    scc_record_text_add(all, "coll_scc:version", version);
    scc_record_text_add(set, "coll_scc:version", version);
    /* a threshold set to its default value still overrides the many-core defaults */
    snprintf(given, sizeof(given), "%#x", (unsigned) mca_coll_scc_config.given);
    scc_record_text_add(all, "coll_scc:given", given);
    if (NULL != mesh && '\0' != mesh[0]) {
        scc_record_text_add(all, "coll_scc_mesh:parsed", mesh);
        scc_record_text_add(set, "coll_scc_mesh:parsed", mesh);
    }
    for (int i = 0; i < count; ++i) {
        const mca_base_var_t *v;
        const char *name;
        size_t len;
        char value[512];
        bool list, prio;

        if (OPAL_SUCCESS != mca_base_var_get(i, &v) || NULL == v || NULL == v->mbv_full_name
            || NULL == v->mbv_storage || v->mbv_synonym_for >= 0) {
            continue;
        }
        name = v->mbv_full_name;
        len = strlen(name);
        list = 0 == strcmp(name, "coll");
        prio = 0 == strncmp(name, "coll_", 5) && len > 9 && 0 == strcmp(name + len - 9,
                                                                          "_priority");
        if (!list && !prio && 0 != strncmp(name, "coll_scc_", 9)) {
            continue;
        }
        if (is_per_process(name)) {
            continue;
        }
        var_value(v, value, sizeof(value));
        scc_record_text_add(all, name, value);
        if (list || MCA_BASE_VAR_SOURCE_DEFAULT != v->mbv_source) {
            scc_record_text_add(set, name, value);
        }
        if (0 == strcmp(name, "coll_scc_mesh_map_file") && '\0' != value[0]) {
            add_file_hash(all, set, value);
        }
    }
    scc_record_text_sort(all);
    scc_record_text_sort(set);
}

int mca_coll_scc_record_publish(const int32_t *loc, size_t loc_bytes, const char *mesh)
{
    scc_record_text_t all, set;
    scc_record_head_t *h;
    size_t text_bytes, bytes;
    int rc = OMPI_ERR_OUT_OF_RESOURCE;

    scc_record_text_init(&all);
    scc_record_text_init(&set);
    record_build(&all, &set, mesh);
    if (all.failed || set.failed || NULL == set.buf) {
        goto out;
    }
    text_bytes = set.len + 1;
    bytes = sizeof(*h) + loc_bytes + text_bytes;
    h = calloc(1, bytes);
    if (NULL == h) {
        goto out;
    }
    h->magic = SCC_RECORD_MAGIC;
    h->loc_bytes = (uint32_t) loc_bytes;
    h->text_bytes = (uint32_t) text_bytes;
    h->hash = scc_record_hash(all.buf, all.len);
    memcpy(h + 1, loc, loc_bytes);
    memcpy((char *) (h + 1) + loc_bytes, set.buf, text_bytes);
    rc = scc_modex_send(mca_coll_scc_config.version, h, bytes);
    free(h);
    if (OMPI_SUCCESS == rc) {
        rec.hash = scc_record_hash(all.buf, all.len);
        free(rec.text);
        rec.text = set.buf;
        set.buf = NULL;
        SCC_VERBOSE(3, "coll:scc: world rank %d: record %016" PRIx64 ":\n%s",
                    (int) OMPI_PROC_MY_NAME->vpid, rec.hash, rec.text);
    }
out:
    scc_record_text_free(&all);
    scc_record_text_free(&set);
    return rc;
}

const char *mca_coll_scc_record_text(void)
{
    return NULL == rec.text ? "" : rec.text;
}

/* What proc published, checked; *data is malloc'ed (free it).  NULL: nothing valid. */
static const scc_record_head_t *peer_record(ompi_proc_t *proc, void **data)
{
    const scc_record_head_t *h;
    size_t size = 0;

    *data = NULL;
    if (NULL == proc || OMPI_SUCCESS != scc_modex_recv(mca_coll_scc_config.version,
                                                       &proc->super.proc_name, data, &size)) {
        free(*data);
        *data = NULL;
        return NULL;
    }
    h = *data;
    if (NULL == h || size < sizeof(*h) || SCC_RECORD_MAGIC != h->magic || 0 == h->text_bytes
        || size != sizeof(*h) + (size_t) h->loc_bytes + h->text_bytes
        || '\0' != ((const char *) (h + 1))[h->loc_bytes + h->text_bytes - 1]) {
        free(*data);
        *data = NULL;
        return NULL;
    }
    return h;
}

static const char *head_text(const scc_record_head_t *h)
{
    return (const char *) (h + 1) + h->loc_bytes;
}

static uint64_t name_key(const ompi_proc_t *proc)
{
    uint64_t k = 0;
    memcpy(&k, &proc->super.proc_name, sizeof(k) < sizeof(proc->super.proc_name)
                                           ? sizeof(k) : sizeof(proc->super.proc_name));
    return k;
}

/* What a peer published, read once per process and kept: every modex read allocates in
 * the runtime (and PMIx 5 does not give all of it back), so communicators made in a loop
 * must not read it again.  Under rec.lock. */
static peer_t *peer_entry(ompi_proc_t *proc)
{
    void *value = NULL, *data;
    const scc_record_head_t *h;
    peer_t *e;
    uint64_t key;

    if (NULL == proc) {
        return NULL;
    }
    key = name_key(proc);
    if (!rec.have_table) {
        OBJ_CONSTRUCT(&rec.peers, opal_hash_table_t);
        rec.have_table = OPAL_SUCCESS == opal_hash_table_init(&rec.peers, 1024) ? 1 : -1;
    }
    if (rec.have_table > 0
        && OPAL_SUCCESS == opal_hash_table_get_value_uint64(&rec.peers, key, &value)) {
        return value;
    }
    e = calloc(1, sizeof(*e));
    if (NULL == e) {
        return NULL;
    }
    h = peer_record(proc, &data);
    e->verdict = NULL == h ? PEER_MISSING : NULL == rec.text || h->hash != rec.hash
                                                ? PEER_DIFFERS : PEER_AGREES;
    if (NULL != h && h->loc_bytes <= sizeof(e->loc)) {
        e->loc_bytes = h->loc_bytes;
        memcpy(e->loc, h + 1, h->loc_bytes);
    }
    free(data);
    if (rec.have_table <= 0
        || OPAL_SUCCESS != opal_hash_table_set_value_uint64(&rec.peers, key, e)) {
        free(e);
        return NULL;
    }
    return e;
}

bool mca_coll_scc_record_peer_loc(struct ompi_proc_t *proc, int32_t *loc, size_t loc_bytes)
{
    peer_t *e;
    bool ok;

    pthread_mutex_lock(&rec.lock);
    e = peer_entry(proc);
    ok = NULL != e && e->loc_bytes == loc_bytes && loc_bytes > 0;
    if (ok) {
        memcpy(loc, e->loc, loc_bytes);
    }
    pthread_mutex_unlock(&rec.lock);
    return ok;
}

/* PEER_* of proc against my record.  Under rec.lock. */
static int peer_verdict(ompi_proc_t *proc)
{
    peer_t *e = peer_entry(proc);
    return NULL == e ? PEER_MISSING : e->verdict;
}

typedef struct { char s[256]; } host_buf_t;

static const char *host_of(ompi_proc_t *proc, host_buf_t *buf)
{
    return scc_proc_hostname(NULL == proc ? NULL : &proc->super, buf->s, sizeof(buf->s));
}

/* Once per process and cause. */
static bool first_time(const char *cause)
{
    uint64_t h = scc_record_hash(cause, strlen(cause));
    for (int i = 0; i < rec.nshown; ++i) {
        if (rec.shown[i] == h) {
            return false;
        }
    }
    if (rec.nshown < (int) (sizeof(rec.shown) / sizeof(rec.shown[0]))) {
        rec.shown[rec.nshown++] = h;
    }
    return true;
}

/* Why the members do not agree: the same text on every member (it depends only on what
 * they published); the first member with a record tells the user. */
static void explain(struct ompi_communicator_t *comm, char *why, size_t len)
{
    const int n = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int ref = -1, missing = -1, differs = -1;
    void *ref_data = NULL, *d_data = NULL;
    const scc_record_head_t *ref_h = NULL, *d_h = NULL;

    for (int i = 0; i < n && (missing < 0 || ref < 0); ++i) {
        void *data;
        const scc_record_head_t *h = peer_record(ompi_comm_peer_lookup(comm, i), &data);
        if (NULL == h) {
            missing = missing < 0 ? i : missing;
            free(data);
        } else if (ref < 0) {
            ref = i;
            ref_h = h;
            ref_data = data;
        } else {
            free(data);
        }
    }
    if (missing >= 0) {
        ompi_proc_t *p = ompi_comm_peer_lookup(comm, missing);
        host_buf_t hp;
        snprintf(why, len, "rank %d published no configuration record (coll/scc not loaded "
                 "there)", missing);
        if (me == ref && first_time(why)) {
            mca_coll_scc_show_help("record-missing", SCC_COMM_CID(comm), SCC_COMM_NAME(comm),
                                   n, missing, NULL == p ? -1 : (int) p->super.proc_name.vpid,
                                   host_of(p, &hp));
        }
        free(ref_data);
        return;
    }
    for (int i = ref + 1; i < n && differs < 0; ++i) {
        void *data;
        const scc_record_head_t *h = peer_record(ompi_comm_peer_lookup(comm, i), &data);
        if (NULL != h && h->hash != ref_h->hash) {
            differs = i;
            d_h = h;
            d_data = data;
        } else {
            free(data);
        }
    }
    if (differs < 0) {
        /* the records changed under us (cannot happen): decline all the same */
        snprintf(why, len, "configuration records unreadable");
    } else {
        char name[256], va[256], vb[256], detail[900];
        int a_has = 0, b_has = 0;
        if (scc_record_text_diff(head_text(ref_h), head_text(d_h), name, sizeof(name), va,
                                 sizeof(va), &a_has, vb, sizeof(vb), &b_has)) {
            snprintf(detail, sizeof(detail), "%s is %s%s%s on rank %d, %s%s%s on rank %d",
                     name, a_has ? "\"" : "", a_has ? va : "its default", a_has ? "\"" : "",
                     ref, b_has ? "\"" : "", b_has ? vb : "its default", b_has ? "\"" : "",
                     differs);
        } else {
            snprintf(detail, sizeof(detail), "the same settings, but other defaults or other "
                     "coll components (records %016" PRIx64 " on rank %d, %016" PRIx64
                     " on rank %d)", ref_h->hash, ref, d_h->hash, differs);
        }
        snprintf(why, len, "configuration differs: %s", detail);
        if (me == ref && first_time(why)) {
            ompi_proc_t *pa = ompi_comm_peer_lookup(comm, ref);
            ompi_proc_t *pb = ompi_comm_peer_lookup(comm, differs);
            host_buf_t ha, hb;
            mca_coll_scc_show_help("record-differs", SCC_COMM_CID(comm), SCC_COMM_NAME(comm),
                                   n, ref, host_of(pa, &ha), differs, host_of(pb, &hb), detail);
        }
    }
    free(ref_data);
    free(d_data);
}

bool mca_coll_scc_record_agree(struct ompi_communicator_t *comm, char *why, size_t len)
{
    const int n = ompi_comm_size(comm);
    bool agree = true;

    pthread_mutex_lock(&rec.lock);
    for (int i = 0; i < n && agree; ++i) {
        agree = PEER_AGREES == peer_verdict(ompi_comm_peer_lookup(comm, i));
    }
    if (!agree) {
        explain(comm, why, len);
    }
    pthread_mutex_unlock(&rec.lock);
    return agree;
}

void mca_coll_scc_record_close(void)
{
    pthread_mutex_lock(&rec.lock);
    if (rec.have_table > 0) {
        uint64_t key;
        void *value, *node = NULL;
        int rc = opal_hash_table_get_first_key_uint64(&rec.peers, &key, &value, &node);
        while (OPAL_SUCCESS == rc) {
            free(value);
            rc = opal_hash_table_get_next_key_uint64(&rec.peers, &key, &value, node, &node);
        }
    }
    if (0 != rec.have_table) {
        OBJ_DESTRUCT(&rec.peers);
        rec.have_table = 0;
    }
    free(rec.text);
    rec.text = NULL;
    rec.nshown = 0;
    pthread_mutex_unlock(&rec.lock);
}
