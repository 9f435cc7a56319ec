/* scc_meminfo.h: the node's shared memory in use (/proc/meminfo Shmem) and a process's heap,
 * for the tests and the benchmark that count what communicators hold. */
#ifndef SCC_MEMINFO_H
#define SCC_MEMINFO_H

#include <malloc.h>
#include <stdio.h>

/* Bytes of the process's heap in use, the allocator's mapped chunks included; -1 where the C
 * library cannot say (mallinfo2 is glibc 2.33's).  mapped: whether to count those. */
static inline long scc_heap_bytes(int mapped)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 mi = mallinfo2();
    return (long) mi.uordblks + (mapped ? (long) mi.hblkhd : 0);
#else
    (void) mapped;
    return -1;
#endif
}

/* Shmem of /proc/meminfo in kB, -1 where it cannot be read. */
static inline long scc_shmem_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/meminfo", "r");

    if (NULL == f) {
        return -1;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        if (1 == sscanf(line, "Shmem: %ld kB", &kb)) {
            break;
        }
    }
    fclose(f);
    return kb;
}

#endif /* SCC_MEMINFO_H */
