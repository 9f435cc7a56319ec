/* coll_scc_mpb_lock.c: the lock around a claim of a core's message-passing buffer -- the
 * core's test-and-set register on the SCC, a lock on the device file elsewhere. */
#include "coll_scc_component.h"
#include "coll_scc_mpb.h"
#include "coll_scc_probe.h"
#include "coll_scc_topo.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(SCC_P54C)
/* The test-and-set registers of a tile's two cores in its configuration register bank
 * (reading one returns bit 0 set when the lock was free and is now taken; writing frees it). */
#define SCC_CRB_LOCK0 0x200UL
#define SCC_CRB_LOCK1 0x400UL

int mca_coll_scc_mpb_lock(scc_mpb_lock_t *l, const char *device, int core, size_t core_size)
{
    const long page = sysconf(_SC_PAGESIZE);
    const unsigned long reg = SCC_PROBE_CRB_OWN + ((core & 1) ? SCC_CRB_LOCK1 : SCC_CRB_LOCK0);
    const off_t base = (off_t) (reg & ~(unsigned long) (page - 1));
    int fd = open(mca_coll_scc_topo_crb_device(), O_RDWR | O_SYNC | O_CLOEXEC);

    (void) device;
    (void) core_size;
    memset(l, 0, sizeof(*l));
    if (fd < 0) {
        return errno;
    }
    l->maplen = (size_t) page;
    l->map = mmap(NULL, l->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
    close(fd);
    if (MAP_FAILED == l->map) {
        l->map = NULL;
        return errno;
    }
    l->reg = (volatile uint32_t *) ((char *) l->map + (reg - (unsigned long) base));
    while (0 == (*l->reg & 1)) {
        sched_yield();
    }
    return 0;
}

void mca_coll_scc_mpb_unlock(scc_mpb_lock_t *l)
{
    if (NULL != l->map) {
        *l->reg = 0;
        munmap(l->map, l->maplen);
        l->map = NULL;
    }
}

#else /* the stand-in */

/* An open-file-description lock belongs to this open() alone, so two threads of a process
 * exclude each other as two processes do (a classic POSIX lock would not). */
#if defined(F_OFD_SETLKW)
#define SCC_SETLKW F_OFD_SETLKW
#else
#define SCC_SETLKW F_SETLKW
#endif

int mca_coll_scc_mpb_lock(scc_mpb_lock_t *l, const char *device, int core, size_t core_size)
{
    struct flock fl;

    memset(l, 0, sizeof(*l));
    l->fd = open(device, O_RDWR | O_CLOEXEC);
    if (l->fd < 0) {
        return errno;
    }
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t) core * (off_t) core_size;
    fl.l_len = 1;
    while (0 != fcntl(l->fd, SCC_SETLKW, &fl)) {
        if (EINTR != errno) {
            int err = errno;
            close(l->fd);
            l->fd = -1;
            return err;
        }
    }
    return 0;
}

void mca_coll_scc_mpb_unlock(scc_mpb_lock_t *l)
{
    if (l->fd >= 0) {
        close(l->fd);   /* closing the description releases its lock */
        l->fd = -1;
    }
}
#endif
