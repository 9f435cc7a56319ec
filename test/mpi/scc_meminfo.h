/* scc_meminfo.h: the node's shared memory in use (/proc/meminfo Shmem), for the test and the
 * benchmark that count what communicators hold. */
#ifndef SCC_MEMINFO_H
#define SCC_MEMINFO_H

#include <stdio.h>

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
