/* scc_sim_measure.c: measures this machine's intra-node and loopback-TCP costs for the cluster
 * preset's "emulated" variant (sim/params/cluster-emulated.conf): a flag seen by another core,
 * memcpy in and out of cache, process_vm_readv, loopback TCP latency and bandwidth.
 * Medians over repetitions; run it on an idle machine (`nice -n 19` only shields others). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPS 15

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), cmp_d);
    return v[n / 2];
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void) sched_setaffinity(0, sizeof(set), &set);
}

/* One-way time of a cache-line flag between two processes on two cores (ping-pong / 2). */
static double flag_ns(void)
{
    volatile uint64_t *f = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                                -1, 0);
    const long iters = 20000;
    double v[REPS];
    pid_t pid;

    if (MAP_FAILED == (void *) f) {
        return -1;
    }
    f[0] = f[8] = 0;
    pid = fork();
    if (0 == pid) {
        pin(1);
        for (long i = 1; i <= iters * REPS; ++i) {
            while (f[0] != (uint64_t) i) {
            }
            f[8] = (uint64_t) i;
        }
        _exit(0);
    }
    pin(0);
    for (int r = 0; r < REPS; ++r) {
        double t0 = now_ns();
        for (long i = r * iters + 1; i <= (r + 1) * iters; ++i) {
            f[0] = (uint64_t) i;
            while (f[8] != (uint64_t) i) {
            }
        }
        v[r] = (now_ns() - t0) / iters / 2;
    }
    waitpid(pid, NULL, 0);
    munmap((void *) f, 4096);
    return median(v, REPS);
}

/* ns per byte of a memcpy of len bytes (the same buffers each time: in cache when small). */
static double copy_ns_b(size_t len)
{
    char *a = malloc(len), *b = malloc(len);
    long iters = (long) (64e6 / (double) len) + 1;
    double v[REPS];

    memset(a, 1, len);
    memset(b, 2, len);
    for (int r = 0; r < REPS; ++r) {
        double t0 = now_ns();
        for (long i = 0; i < iters; ++i) {
            memcpy(b, a, len);
            __asm__ __volatile__("" ::: "memory");
        }
        v[r] = (now_ns() - t0) / iters / (double) len;
    }
    free(a);
    free(b);
    return median(v, REPS);
}

/* ns per byte of combining two vectors of doubles (a sum), len bytes each, in cache. */
static double reduce_ns_b(size_t len)
{
    size_t k = len / sizeof(double);
    double *a = malloc(len), *b = malloc(len), v[REPS];
    long iters = (long) (64e6 / (double) len) + 1;

    for (size_t i = 0; i < k; ++i) {
        a[i] = (double) i;
        b[i] = 1.0;
    }
    for (int r = 0; r < REPS; ++r) {
        double t0 = now_ns();
        for (long it = 0; it < iters; ++it) {
            for (size_t i = 0; i < k; ++i) {
                b[i] += a[i];
            }
            __asm__ __volatile__("" ::: "memory");
        }
        v[r] = (now_ns() - t0) / iters / (double) len;
    }
    free(a);
    free(b);
    return median(v, REPS);
}

/* Time of one process_vm_readv of len bytes from a child's buffer. */
static double cma_ns(size_t len)
{
    char *src = malloc(len), *dst = malloc(len);
    int pfd[2];
    long iters = (long) (64e6 / (double) len) + 20;
    double v[REPS];
    pid_t pid;

    memset(src, 3, len);
    memset(dst, 0, len);
    if (0 != pipe(pfd)) {
        return -1;
    }
    pid = fork();
    if (0 == pid) {
        char c;
        close(pfd[1]);
        (void) read(pfd[0], &c, 1);  /* lives until the parent is done */
        _exit(0);
    }
    for (int r = 0; r < REPS; ++r) {
        struct iovec l = { dst, len }, rm = { src, len };
        double t0 = now_ns();
        for (long i = 0; i < iters; ++i) {
            if ((ssize_t) len != process_vm_readv(pid, &l, 1, &rm, 1, 0)) {
                v[r] = -1;
                break;
            }
        }
        v[r] = (now_ns() - t0) / iters;
    }
    close(pfd[1]);
    waitpid(pid, NULL, 0);
    free(src);
    free(dst);
    return median(v, REPS);
}

static int full_io(int fd, char *buf, size_t len, int out)
{
    while (len > 0) {
        ssize_t k = out ? write(fd, buf, len) : read(fd, buf, len);
        if (k <= 0) {
            return -1;
        }
        buf += k;
        len -= (size_t) k;
    }
    return 0;
}

/* Loopback TCP ping-pong of len bytes: one-way time (round trip / 2). */
static double tcp_ns(size_t len, long iters)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1, fd;
    struct sockaddr_in a;
    socklen_t al = sizeof(a);
    char *buf = calloc(1, len);
    double v[REPS];
    pid_t pid;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (ls < 0 || 0 != bind(ls, (struct sockaddr *) &a, sizeof(a)) || 0 != listen(ls, 1)
        || 0 != getsockname(ls, (struct sockaddr *) &a, &al)) {
        return -1;
    }
    pid = fork();
    if (0 == pid) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        pin(1);
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (0 != connect(c, (struct sockaddr *) &a, sizeof(a))) {
            _exit(1);
        }
        for (long i = 0; i < iters * REPS; ++i) {
            if (full_io(c, buf, len, 0) || full_io(c, buf, len, 1)) {
                _exit(1);
            }
        }
        _exit(0);
    }
    pin(0);
    fd = accept(ls, NULL, NULL);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    for (int r = 0; r < REPS; ++r) {
        double t0 = now_ns();
        for (long i = 0; i < iters; ++i) {
            if (full_io(fd, buf, len, 1) || full_io(fd, buf, len, 0)) {
                v[r] = -1;
                break;
            }
        }
        v[r] = (now_ns() - t0) / iters / 2;
    }
    close(fd);
    close(ls);
    waitpid(pid, NULL, 0);
    free(buf);
    return median(v, REPS);
}

int main(void)
{
    double c8 = cma_ns(8), c256k = cma_ns(262144), c16m = cma_ns(16 << 20);
    double t8 = tcp_ns(8, 2000), t1m = tcp_ns(1 << 20, 40);

    printf("# scc_sim_measure: medians of %d repetitions\n", REPS);
    printf("flag_one_way_ns      %.1f\n", flag_ns());
    printf("memcpy_8k_ns_b       %.4f\n", copy_ns_b(8192));
    printf("memcpy_256k_ns_b     %.4f\n", copy_ns_b(262144));
    printf("memcpy_16m_ns_b      %.4f\n", copy_ns_b(16 << 20));
    printf("reduce_64k_ns_b      %.4f\n", reduce_ns_b(65536));
    printf("cma_8b_ns            %.1f\n", c8);
    printf("cma_256k_ns_b        %.4f\n", (c256k - c8) / 262144);
    printf("cma_16m_ns_b         %.4f\n", (c16m - c8) / (16 << 20));
    printf("tcp_8b_one_way_ns    %.1f\n", t8);
    printf("tcp_1m_ns_b          %.4f\n", (t1m - t8) / (1 << 20));
    return 0;
}
