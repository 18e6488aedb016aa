/*
 * pspin.h -- atomics, locks and HPU identity for sPIN handlers (xgas,
 * source-compatible with PsPIN's header of the same name).
 *
 * PsPIN implements these with RISC-V atomic instructions on NIC memory;
 * here they are the host CPU's atomic operations (sequentially
 * consistent), on NIC memory mapped into the process.  The load-reserved /
 * store-conditional pair is emulated with a compare-and-swap against the
 * value the reservation saw (so an A-B-A change between the two is not
 * noticed, unlike on RISC-V); compare_and_swap is one real CAS.
 *
 * Waits back off to the operating system after a short spin: HPU threads
 * share the host's cores with the application.
 */
#ifndef XGAS_SPIN_PSPIN_H
#define XGAS_SPIN_PSPIN_H

#include <assert.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MEM_ALIGNMENT        4
#define ALIGN_UP(NUM, ALIGN) ((((uint32_t)(NUM)) + ((ALIGN)-1)) & ~((ALIGN)-1))
#define DMA_MAX_XFER_SIZE    32768
#define DMA_NULL             0

typedef uint32_t dma_t;
typedef volatile uint32_t futex_t;

/* The HPU running the calling handler (0 outside a handler). */
uint32_t xg_spin_hpu_core_id(void);
uint32_t xg_spin_hpu_cluster_id(void);

static inline uint32_t rt_core_id(void)
{
    return xg_spin_hpu_core_id();
}

static inline uint32_t rt_cluster_id(void)
{
    return xg_spin_hpu_cluster_id();
}

static inline void asm_mem_fence(void)
{
    __asm__ __volatile__("" ::: "memory");
}

/* Waits about @cycles cycles of a 1 GHz HPU (a CPU pause per 4). */
static inline void rt_time_wait_cycles(const unsigned cycles)
{
    unsigned i;

    for (i = 0; i < cycles / 4; i++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#else
        asm_mem_fence();
#endif
    }
}

static inline int32_t amo_add(volatile int32_t *const addr, const int32_t val)
{
    return __atomic_fetch_add(addr, val, __ATOMIC_SEQ_CST);
}

static inline uint32_t amo_and(volatile uint32_t *const addr,
                               const uint32_t val)
{
    return __atomic_fetch_and(addr, val, __ATOMIC_SEQ_CST);
}

static inline uint32_t amo_or(volatile uint32_t *const addr, const uint32_t val)
{
    return __atomic_fetch_or(addr, val, __ATOMIC_SEQ_CST);
}

static inline uint32_t amo_xor(volatile uint32_t *const addr,
                               const uint32_t val)
{
    return __atomic_fetch_xor(addr, val, __ATOMIC_SEQ_CST);
}

static inline uint32_t amo_swap(volatile uint32_t *const addr,
                                const uint32_t val)
{
    return __atomic_exchange_n(addr, val, __ATOMIC_SEQ_CST);
}

static inline void amo_store(volatile uint32_t *const addr, const uint32_t val)
{
    __atomic_store_n(addr, val, __ATOMIC_SEQ_CST);
}

/* The min/max family: a CAS loop (no single host instruction does it). */
#define XGAS_SPIN_AMO_MINMAX(name, type, better)                             \
    static inline type name(volatile type *const addr, const type val)       \
    {                                                                        \
        type old = __atomic_load_n(addr, __ATOMIC_RELAXED);                  \
        while ((better) && !__atomic_compare_exchange_n(addr, &old, val, 1,  \
                                                        __ATOMIC_SEQ_CST,    \
                                                        __ATOMIC_RELAXED)) { \
        }                                                                    \
        return old;                                                          \
    }
XGAS_SPIN_AMO_MINMAX(amo_maxu, uint32_t, val > old)
XGAS_SPIN_AMO_MINMAX(amo_minu, uint32_t, val < old)
XGAS_SPIN_AMO_MINMAX(amo_max, int32_t, val > old)
XGAS_SPIN_AMO_MINMAX(amo_min, int32_t, val < old)
#undef XGAS_SPIN_AMO_MINMAX

/* The reservation of the calling thread (per translation unit). */
static __thread volatile uint32_t *xgas_spin_lr_addr __attribute__((unused));
static __thread uint32_t xgas_spin_lr_value __attribute__((unused));

static inline uint32_t load_reserved(volatile const uint32_t *const addr)
{
    uint32_t val = __atomic_load_n(addr, __ATOMIC_SEQ_CST);

    xgas_spin_lr_addr  = (volatile uint32_t *)addr;
    xgas_spin_lr_value = val;
    return val;
}

/* 0: stored; 1: the reservation was broken (value changed, or none);
 * 3: no reservation on @addr. */
static inline unsigned store_conditional(volatile uint32_t *const addr,
                                         const uint32_t val)
{
    uint32_t expect = xgas_spin_lr_value;

    if (xgas_spin_lr_addr != addr) {
        return 3;
    }
    xgas_spin_lr_addr = 0;
    return __atomic_compare_exchange_n(addr, &expect, val, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST)
               ? 0
               : 1;
}

/* 0: swapped; -1: the value was not @old. */
static inline int compare_and_swap(volatile uint32_t *const addr,
                                   const uint32_t old, const uint32_t new_)
{
    uint32_t expect = old;

    return __atomic_compare_exchange_n(addr, &expect, new_, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST)
               ? 0
               : -1;
}

static inline void futex_init(futex_t *futex)
{
    amo_store(futex, 0);
}

static inline int futex_try_lock(futex_t *futex)
{
    return amo_or(futex, 1) == 0;
}

/* Spins, then yields the CPU between attempts. */
static inline int futex_lock_s(futex_t *futex)
{
    unsigned tries = 0;

    while (amo_or(futex, 1) != 0) {
        if (++tries < 64) {
            rt_time_wait_cycles(32);
        } else {
            sched_yield();
        }
    }
    return 1;
}

static inline int futex_lock(futex_t *futex)
{
    return futex_lock_s(futex);
}

static inline void futex_unlock(futex_t *futex)
{
    amo_store(futex, 0);
}

#ifdef __cplusplus
}
#endif

#endif
