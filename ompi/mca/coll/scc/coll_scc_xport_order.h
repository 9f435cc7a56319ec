/* coll_scc_xport_order.h: memory order on the transports' buffers -- loads and stores of flags
 * and ids, and what the SCC's P54C cores need beside them (MPBT invalidation, the
 * write-combining buffer's flush, no 64-bit atomics).  Private to the slot engine
 * (coll_scc_xport_slots.h). */
#ifndef MCA_COLL_SCC_XPORT_ORDER_H
#define MCA_COLL_SCC_XPORT_ORDER_H

#if defined(SCC_P54C)
/* On the SCC's P54C cores, MPB lines are typed MPBT: drop them from L1 so the
 * next read sees what another core wrote (CL1INVMB, opcode 0f 0a). */
static inline void scc_mpb_invalidate(void)
{
    __asm__ volatile(".byte 0x0f, 0x0a" ::: "memory");
}

/* Writes to MPBT lines gather in the core's write-combining buffer until another MPBT line
 * is written: after the last line of a message or a flag, write a line of my own that
 * nobody reads, so the last one reaches the buffer now (RCCE does the same). */
static inline void scc_mpb_flush(const scc_xport_t *x)
{
    if (x->invalidate) {
        __asm__ volatile("" ::: "memory");
        *x->wcb = 1;
        __asm__ volatile("" ::: "memory");
    }
}

/* The chip has no atomic operations on its buffers and the P54C no atomic 64-bit access:
 * plain 32-bit loads and stores.  A 64-bit word's writer stores the low half first and
 * its readers load the high half first, so a reader never sees more than was written
 * (counters and flags only grow; ids are compared whole, their low half written first). */
static inline uint32_t scc_load32(const volatile uint32_t *p)
{
    uint32_t v = *p;
    __asm__ volatile("" ::: "memory");
    return v;
}

static inline void scc_store32(volatile uint32_t *p, uint32_t v)
{
    __asm__ volatile("" ::: "memory");
    *p = v;
}

static inline uint64_t scc_load64(const volatile uint64_t *p)
{
    uint32_t hi = scc_load32((const volatile uint32_t *) p + 1);
    return (uint64_t) hi << 32 | scc_load32((const volatile uint32_t *) p);
}

static inline void scc_store64(volatile uint64_t *p, uint64_t v)
{
    scc_store32((volatile uint32_t *) p, (uint32_t) v);
    scc_store32((volatile uint32_t *) p + 1, (uint32_t) (v >> 32));
}
#else
static inline void scc_mpb_invalidate(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Stores reach coherent memory in order: nothing to flush. */
static inline void scc_mpb_flush(const scc_xport_t *x)
{
    (void) x;
}

static inline uint32_t scc_load32(const volatile uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void scc_store32(volatile uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline uint64_t scc_load64(const volatile uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void scc_store64(volatile uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
#endif

static inline uint64_t scc_load(const scc_xport_t *x, volatile uint64_t *p)
{
    if (OPAL_UNLIKELY(x->invalidate)) {
        scc_mpb_invalidate();
    }
    return scc_load64(p);
}

static inline void scc_store(volatile uint64_t *p, uint64_t v)
{
    scc_store64(p, v);
}

#endif /* MCA_COLL_SCC_XPORT_ORDER_H */
