/* coll_scc_xport_shm.c: shared-memory segments private to the job, and the generic shm
 * transport on them. */
#include "coll_scc_component.h"
#include "coll_scc_topo.h"
#include "coll_scc_agree.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_pml.h"
#include "coll_scc_xport_slots.h"
#include "opal/runtime/opal_progress.h"
#include "coll_scc_sched.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opal/util/show_help.h"

/* What rank 0 tells the others about the segment it created. */
typedef struct scc_segment_info {
    int32_t ok;
    int32_t fd;                 /* memfd: open it as /proc/<pid>/fd/<fd> */
    int32_t pid;
    int32_t err;
    uint64_t bytes;
    char path[256];             /* file backing: the file, unlinked once all attached */
} scc_segment_info_t;

/* Removes the segment files that processes of this user killed before they could unlink them
 * left in dir (their creator, named in the file's name, is gone): once per process, before
 * its first file.  A live creator's file is never touched. */
static void scc_segment_sweep(const char *dir)
{
    static int swept;
    struct dirent *e;
    DIR *d;

    if (0 != __atomic_exchange_n(&swept, 1, __ATOMIC_RELAXED) || NULL == (d = opendir(dir))) {
        return;
    }
    while (NULL != (e = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;
        unsigned a, b;
        int pid;
        if (3 != sscanf(e->d_name, "coll-scc-%d-%u-%u", &pid, &a, &b) || pid <= 0
            || pid == (int) getpid() || 0 == kill((pid_t) pid, 0) || ESRCH != errno) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (0 == lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid()
            && 0 == unlink(path)) {
            SCC_VERBOSE(1, "coll:scc: removed %s, left by process %d (killed before it "
                        "could remove it)", path, pid);
        }
    }
    closedir(d);
}

/* Creates the segment as a memfd or as a file. */
static int scc_segment_create(scc_segment_info_t *info, size_t bytes, unsigned cid, bool memfd)
{
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    static unsigned counter = 0;
    int fd = -1;

    info->pid = (int32_t) getpid();
    info->path[0] = '\0';
    if (memfd) {
#if defined(MFD_CLOEXEC)
        fd = memfd_create("coll-scc", MFD_CLOEXEC);
        if (fd >= 0) {
            (void) fchmod(fd, 0600);
        }
#else
        errno = ENOSYS;
#endif
        if (fd < 0) {
            info->err = errno;
            return -1;
        }
    } else {
        scc_segment_sweep(cs->shm_dir);
        snprintf(info->path, sizeof(info->path), "%s/coll-scc-%d-%u-%u", cs->shm_dir,
                 (int) getpid(), cid, counter++);
        fd = open(info->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            info->err = errno;
            return -1;
        }
        /* until every member attached the file has a name: if this process is killed
           before it unlinks it, its daemon removes it */
        if (scc_rte_ready() && !scc_register_cleanup(info->path)) {
            SCC_VERBOSE(1, "coll:scc: the runtime cannot remove %s should this process be "
                        "killed before it does", info->path);
        }
    }
    if (0 != ftruncate(fd, (off_t) bytes)) {
        info->err = errno;
        close(fd);
        if ('\0' != info->path[0]) {
            unlink(info->path);
        }
        return -1;
    }
    info->fd = fd;
    info->bytes = bytes;
    return fd;
}

/* What every member learns of its node's segment: from the creator (rank 0), or with several
 * nodes from each node's creator (its lowest rank), all in one exchange. */
static int scc_segment_share(const scc_members_t *mb, const scc_nodes_t *nd,
                             scc_segment_info_t *info)
{
    struct ompi_communicator_t *comm = mb->comm;
    scc_segment_info_t *all;
    int rc;

    if (NULL == nd) {
        return mca_coll_scc_agree_bcast(mb, info, (int) sizeof(*info), 0);
    }
    all = malloc(sizeof(*info) * (size_t) nd->n);
    if (!mca_coll_scc_agree(mb, NULL != all)) {
        free(all);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = mca_coll_scc_agree_allgather(mb, info, all, (int) sizeof(*info));
    if (OMPI_SUCCESS == rc) {
        int me = ompi_comm_rank(comm);
        *info = all[nd->members[nd->first[nd->node_of[me]]]];
    }
    free(all);
    return rc;
}

/* One attempt with one backing; quiet: no message on failure (another attempt follows).
 * nd: several nodes, one segment per node; NULL: one segment for all. */
static int scc_segment_try(const scc_members_t *mb, const scc_nodes_t *nd, size_t bytes,
                           size_t my_off, size_t my_len, size_t my_hot, const char *what, bool memfd, bool quiet, void **base)
{
    struct ompi_communicator_t *comm = mb->comm;
    scc_segment_info_t info;
    int rank = ompi_comm_rank(comm), fd = -1, ok, rc, err, first;
    int creator = NULL == nd ? 0 : nd->members[nd->first[nd->node_of[rank]]];
    void *p = MAP_FAILED;
    char where[300];

    memset(&info, 0, sizeof(info));
    if (creator == rank) {
        fd = scc_segment_create(&info, bytes, SCC_COMM_CID(comm), memfd);
        info.ok = fd >= 0;
        if (!info.ok && !quiet) {
            mca_coll_scc_show_help("shm-create-failed", what, bytes,
                                   '\0' != info.path[0] ? info.path : "memfd",
                                   strerror(info.err), SCC_COMM_CID(comm), SCC_COMM_NAME(comm));
        }
    }
    if (creator == rank && fd >= 0 && '\0' != info.path[0] && mca_coll_scc_fault(mb, "killed")) {
        (void) raise(SIGKILL);   /* the worst moment: the file exists, nobody attached */
    }
    rc = scc_segment_share(mb, nd, &info);
    /* every member decides alike: one node without a segment fails them all */
    if (!mca_coll_scc_agree(mb, OMPI_SUCCESS == rc && info.ok)) {
        if (creator == rank && fd >= 0) {
            close(fd);
            if ('\0' != info.path[0]) {
                unlink(info.path);
            }
        }
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (creator != rank) {
        if ('\0' != info.path[0]) {
            snprintf(where, sizeof(where), "%s", info.path);
        } else {
            snprintf(where, sizeof(where), "/proc/%d/fd/%d", (int) info.pid, (int) info.fd);
        }
        fd = open(where, O_RDWR | O_CLOEXEC);
    } else {
        snprintf(where, sizeof(where), "%s", '\0' != info.path[0] ? info.path : "memfd");
    }
    errno = 0;
    if (fd >= 0) {
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    /* reserve my own pages now: no room shows as an error here, not as SIGBUS later.  A
       memfd has no size limit (a page it cannot have is like anonymous memory's): there
       only the hot part, so that pages no message ever touched cost no memory */
    ok = MAP_FAILED != p;
#if defined(__linux__)
    if (memfd) {
        my_len = my_hot < my_len ? my_hot : my_len;
    }
    if (ok && my_len > 0) {
        int e = posix_fallocate(fd, (off_t) my_off, (off_t) my_len);
        if (0 != e) {
            errno = e;
            ok = 0;
        }
    }
#endif
    if (ok && mca_coll_scc_fault(mb, "segment")) {
        errno = ENOMEM;
        ok = 0;
    }
    err = errno ? errno : EINVAL;
    /* what fails on one process most often fails on all: the lowest that failed says it */
    first = mca_coll_scc_agree_first(mb, ok);
    if (!ok && !quiet && first == rank) {
        mca_coll_scc_show_help_once(0, "shm-attach-failed", what, where, bytes, strerror(err),
                                    SCC_COMM_CID(comm), SCC_COMM_NAME(comm));
    }
    ok = first < 0;
    /* everyone has opened it: the name can go, and the descriptors too */
    if (creator == rank && '\0' != info.path[0]) {
        unlink(info.path);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (!ok) {
        if (MAP_FAILED != p) {
            munmap(p, bytes);
        }
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *base = p;
    return OMPI_SUCCESS;
}

int mca_coll_scc_segment_attach(const scc_members_t *mb, size_t bytes, size_t my_off,
                                size_t my_len, const char *what, void **base)
{
    return mca_coll_scc_segment_attach_nodes(mb, NULL, bytes, my_off, my_len, my_len, what,
                                             base, NULL);
}

int mca_coll_scc_segment_attach_nodes(const scc_members_t *mb, const scc_nodes_t *nd,
                                      size_t bytes, size_t my_off, size_t my_len, size_t my_hot,
                                      const char *what, void **base, bool *memfd)
{
    struct ompi_communicator_t *comm = mb->comm;
    int backing = mca_coll_scc_config.shm_backing;   /* 0 auto, 1 memfd, 2 file */

    if (NULL != memfd) {
        *memfd = 2 != backing;
    }
    if (2 != backing) {
        int rc = scc_segment_try(mb, nd, bytes, my_off, my_len, my_hot, what, true,
                                 0 == backing, base);
        if (OMPI_SUCCESS == rc || 1 == backing) {
            return rc;
        }
        if (NULL != memfd) {
            *memfd = false;
        }
        SCC_VERBOSE(1, "coll:scc: comm %u (%s): memfd segment unavailable, trying a file in %s",
                    SCC_COMM_CID(comm), SCC_COMM_NAME(comm), mca_coll_scc_config.shm_dir);
    }
    return scc_segment_try(mb, nd, bytes, my_off, my_len, my_hot, what, false, false,
                           base);
}

void mca_coll_scc_segment_detach(void *base, size_t bytes)
{
    if (NULL != base) {
        munmap(base, bytes);
    }
}

/* ------------------------------------------------------------ the shm transport */

/* The backing is the segment itself, regions of region_size bytes one after the other:
 * nothing to allocate, so nothing can fail on one member before the segment's agreement. */
static void scc_shm_detach(scc_xport_t *x)
{
    scc_pool_remove(x);
    if (NULL != x->backing) {
        mca_coll_scc_segment_detach(x->backing, x->region_size * (size_t) x->nlocal);
        x->backing = NULL;
    }
}

static int scc_shm_attach(scc_xport_t *x, const scc_members_t *mb)
{
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    long page = sysconf(_SC_PAGESIZE);
    void *base = NULL;
    bool memfd = false;
    size_t hot;
    int rc;

    x->desc = "shm";
    x->nslots = cs->shm_nslots;
    if (x->nslots < SCC_SCHED_TAG_WINDOW) {
        x->nslots = SCC_SCHED_TAG_WINDOW;
    } else if (x->nslots > 64) {
        x->nslots = 64;
    }
    x->slot_size = cs->shm_slot_size > SCC_LINE ? (size_t) cs->shm_slot_size : SCC_LINE;
    x->slot_size = (x->slot_size + SCC_LINE - 1) & ~(size_t) (SCC_LINE - 1);
    /* each region on its own pages, so its owner's first touch places them */
    x->region_size = scc_xport_layout(x, SCC_LINE) + x->nslots * x->slot_size;
    x->region_size = (x->region_size + page - 1) & ~(size_t) (page - 1);

    /* one segment per node: the regions of my node's processes, in rank order */
    /* the control lines are hot at every call; the slots' pages only once a message uses
       them (a communicator of small messages never does) */
    hot = (x->slot_off + page - 1) & ~(size_t) (page - 1);
    rc = mca_coll_scc_segment_attach_nodes(mb,
                                           SCC_TOPO_NODES == mb->topo->kind ? &mb->topo->nodes
                                                                             : NULL,
                                           x->region_size * x->nlocal,
                                           x->region_size * x->lrank, x->region_size, hot,
                                           "shared-memory segment", &base, &memfd);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (int r = 0, l = 0; r < x->size; ++r) {
        if (!scc_xport_by_pml(x, r)) {
            x->region[r] = (char *) base + x->region_size * l++;
        }
    }
    x->backing = base;
    x->ops = &mca_coll_scc_xport_shm_ops;
    /* a memfd's slot pages go back to the kernel where the process's budget wants them (a
       file's stay: taken again they could find its directory full) */
    if (memfd) {
        char *mine = (char *) base + x->region_size * x->lrank;
        scc_pool_add(x, mine + hot, x->region_size - hot);
    }
    return OMPI_SUCCESS;
}

/* Only this transport tries calls (coll_scc_xport_try.h): on one node every message it
 * carries is a slot or a flag, which a try can hold back; never with threads (the thread
 * level is fixed by MPI_Init), nor with coll_scc_nbc_try 0 (read-only: fixed as well). */
bool scc_try_able(const scc_xport_t *x)
{
    return 0 != mca_coll_scc_config.nbc_try && &mca_coll_scc_xport_shm_ops == x->ops
           && NULL == x->remote
           && 0 == (x->caps & SCC_XPORT_CAP_PML) && !opal_using_threads();
}

/* The generic transport: the slot engine in one shared segment per node; peers on other
 * nodes over the pml (their receives posted ahead). */
const scc_xport_ops_t mca_coll_scc_xport_shm_ops = {
    .name = "shm",
    .caps = SCC_XPORT_CAP_SHARED | SCC_XPORT_CAP_SINGLE_COPY | SCC_XPORT_CAP_PML,
    .attach = scc_shm_attach,
    .detach = scc_shm_detach,
    .send = scc_slot_send,
    .recv = scc_slot_recv,
    .recv_reduce = scc_slot_recv_reduce,
    .expose = scc_slot_expose,
    .read = scc_slot_read,
    .end = scc_slot_end,
    .post = scc_pml_post,
    .wait_one = scc_pml_complete,
    .cancel = scc_pml_cancel,
};
