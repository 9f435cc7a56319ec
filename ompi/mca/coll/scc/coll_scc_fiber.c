/* coll_scc_fiber.c: stacks of their own and the switch between them (x86-64: a register
 * save in assembly; elsewhere ucontext, which also saves the signal mask: a system call). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll_scc_fiber.h"

#if defined(__SANITIZE_ADDRESS__)
#define SCC_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCC_FIBER_ASAN 1
#endif
#endif
#if defined(SCC_FIBER_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define SCC_FIBER_VALGRIND 1
#endif
#endif

#if defined(__x86_64__) && !defined(SCC_FIBER_UCONTEXT)
#define SCC_FIBER_ASM 1
#else
#include <ucontext.h>
#endif

#define SCC_FIBER_ALIGN 16

/* ------------------------------------------------------------ the switch */

#if defined(SCC_FIBER_ASM)
/* Saves the callee-saved registers on this stack, stores its pointer in *save and continues
 * on the stack at `to` (saved the same way).  The floating-point control words are not
 * switched (loading them costs more than the rest): fibers stop only in the component's
 * waits, never inside code that changes them (coll_scc_fiber.h). */
__attribute__((visibility("hidden"))) void scc_fiber_switch(void **save, void *to);
/* A new fiber's first return lands here: r12 holds the fiber, r13 the function to call. */
__attribute__((visibility("hidden"))) void scc_fiber_boot(void);

__asm__(".text\n"
        ".p2align 4\n"
        ".globl scc_fiber_switch\n"
        ".hidden scc_fiber_switch\n"
        ".type scc_fiber_switch, @function\n"
        "scc_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size scc_fiber_switch, .-scc_fiber_switch\n"
        ".p2align 4\n"
        ".globl scc_fiber_boot\n"
        ".hidden scc_fiber_boot\n"
        ".type scc_fiber_boot, @function\n"
        "scc_fiber_boot:\n"
        "    movq %r12, %rdi\n"
        "    pushq $0\n"
        "    jmpq *%r13\n"
        ".size scc_fiber_boot, .-scc_fiber_boot\n");
#endif

/* The switch to (into true) or from the fiber, with the sanitizer told which stack runs. */
/* Inlined into its callers, so that a switch and its way back go through as many calls on
 * each side: the processor predicts returns from the calls it saw, and one call more on
 * one side makes every return after the switch a misprediction (tens of cycles each). */
static inline __attribute__((always_inline)) void scc_fiber_jump(scc_fiber_t *f, bool into,
                                                                 bool ending)
{
#if defined(SCC_FIBER_ASAN)
    if (into) {
        __sanitizer_start_switch_fiber(&f->asan_fake, f->map + getpagesize(),
                                       f->map_size - getpagesize());
    } else {
        /* a fiber that ends leaves no fake stack to come back to */
        __sanitizer_start_switch_fiber(ending ? NULL : &f->asan_fake, f->asan_back,
                                       f->asan_back_size);
    }
#else
    (void) ending;
#endif
#if defined(SCC_FIBER_ASM)
    if (into) {
        scc_fiber_switch(&f->back, f->sp);
    } else {
        scc_fiber_switch(&f->sp, f->back);
    }
#else
    {
        ucontext_t *u = (ucontext_t *) f->uctx;
        if (into) {
            (void) swapcontext(&u[1], &u[0]);
        } else {
            (void) swapcontext(&u[0], &u[1]);
        }
    }
#endif
#if defined(SCC_FIBER_ASAN)
    if (into) {
        __sanitizer_finish_switch_fiber(f->asan_fake, NULL, NULL);
    } else {
        __sanitizer_finish_switch_fiber(f->asan_fake, &f->asan_back, &f->asan_back_size);
    }
#endif
}

/* Where every fiber starts: runs its function, then goes back for good. */
static void scc_fiber_main(scc_fiber_t *f)
{
#if defined(SCC_FIBER_ASAN)
    __sanitizer_finish_switch_fiber(NULL, &f->asan_back, &f->asan_back_size);
#endif
    f->fn(f->arg);
    f->done = true;
    scc_fiber_jump(f, false, true);
    abort();    /* never resumed once done */
}

#if !defined(SCC_FIBER_ASM)
static void scc_fiber_main_ctx(unsigned hi, unsigned lo)
{
    scc_fiber_main((scc_fiber_t *) (((uintptr_t) hi << 16 << 16) | lo));
}
#endif

/* ------------------------------------------------------------ the interface */

int scc_fiber_init(scc_fiber_t *f, size_t stack_bytes)
{
    size_t page = (size_t) getpagesize();

    memset(f, 0, sizeof(*f));
    f->map_size = page + (stack_bytes + page - 1) / page * page;
    f->map = mmap(NULL, f->map_size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (MAP_FAILED == f->map) {
        f->map = NULL;
        return -1;
    }
    /* an overflow faults on the guard page instead of writing over what lies below */
    (void) mprotect(f->map, page, PROT_NONE);
#if !defined(SCC_FIBER_ASM)
    f->uctx = calloc(2, sizeof(ucontext_t));
    if (NULL == f->uctx) {
        (void) munmap(f->map, f->map_size);
        f->map = NULL;
        errno = ENOMEM;
        return -1;
    }
#endif
#if defined(SCC_FIBER_VALGRIND)
    f->vg_id = VALGRIND_STACK_REGISTER(f->map + page, f->map + f->map_size);
#endif
    f->done = true;
    return 0;
}

void scc_fiber_fini(scc_fiber_t *f)
{
    if (NULL == f->map) {
        return;
    }
#if defined(SCC_FIBER_VALGRIND)
    VALGRIND_STACK_DEREGISTER(f->vg_id);
#endif
    (void) munmap(f->map, f->map_size);
    free(f->uctx);
    f->map = NULL;
    f->uctx = NULL;
}

void scc_fiber_start(scc_fiber_t *f, void (*fn)(void *), void *arg)
{
    f->fn = fn;
    f->arg = arg;
    f->done = false;
#if defined(SCC_FIBER_ASM)
    {
        /* the frame scc_fiber_switch restores: r15 r14 r13 r12 rbx rbp, the return address;
           the stack is 16-byte aligned after that return; boot pushes a null return address
           and jumps (a call would leave one return more predicted than taken: see
           scc_fiber_jump) */
        uintptr_t top = ((uintptr_t) (f->map + f->map_size) & ~(uintptr_t) (SCC_FIBER_ALIGN - 1))
                        - SCC_FIBER_ALIGN;
        uint64_t *sp = (uint64_t *) (top - 56);

        sp[0] = 0;
        sp[1] = 0;
        sp[2] = (uint64_t) (uintptr_t) scc_fiber_main;
        sp[3] = (uint64_t) (uintptr_t) f;
        sp[4] = 0;
        sp[5] = 0;
        sp[6] = (uint64_t) (uintptr_t) scc_fiber_boot;
        f->sp = sp;
    }
#else
    {
        ucontext_t *u = (ucontext_t *) f->uctx;
        uintptr_t p = (uintptr_t) f;
        size_t page = (size_t) getpagesize();

        (void) getcontext(&u[0]);
        u[0].uc_stack.ss_sp = f->map + page;
        u[0].uc_stack.ss_size = f->map_size - page;
        u[0].uc_link = NULL;
        makecontext(&u[0], (void (*)(void)) scc_fiber_main_ctx, 2,
                    (unsigned) (p >> 16 >> 16), (unsigned) (p & 0xffffffffu));
    }
#endif
}

void scc_fiber_resume(scc_fiber_t *f)
{
    if (!f->done) {
        scc_fiber_jump(f, true, false);
    }
}

void scc_fiber_yield(scc_fiber_t *f)
{
    scc_fiber_jump(f, false, false);
}
