/*
 * Compiler helpers shared by every layer: branch hints, symbol visibility,
 * alignment and small arithmetic.  Nothing here knows about PEs or memory.
 */
#ifndef XG_COMPILER_H
#define XG_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#define xg_likely(x)   __builtin_expect(!!(x), 1)
#define xg_unlikely(x) __builtin_expect(!!(x), 0)

/* Only symbols marked XG_EXPORT leave libxgas (built with hidden visibility). */
#define XG_EXPORT            __attribute__((visibility("default")))
#define XG_NOINLINE          __attribute__((noinline))
#define XG_ALWAYS_INLINE     inline __attribute__((always_inline))
#define XG_NORETURN          __attribute__((noreturn))
#define XG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define XG_UNUSED            __attribute__((unused))
#define XG_WEAK              __attribute__((weak))

/* Exports @name as one more name of the function @target defined in the
 * same file: the profiling interfaces (pshmem_put of shmem_put, pPtlPut of
 * PtlPut, ARMCI_Put of PARMCI_Put) and deprecated names.  The alias is
 * strong; XG_WEAK after it makes it yield to a program's own definition,
 * and an attribute of @target that the alias must repeat (XG_NORETURN)
 * follows it the same way. */
#define XG_EXPORT_ALIAS(name, target) \
    extern __typeof__(target) name    \
        __attribute__((alias(#target), visibility("default")))

#define XG_CACHELINE     64
#define XG_CACHE_ALIGNED __attribute__((aligned(XG_CACHELINE)))

#define xg_container_of(ptr, type, member) \
    ((type *)((char *)(ptr)-offsetof(type, member)))

#define XG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline uintptr_t xg_align_up(uintptr_t value, uintptr_t align)
{
    return (value + align - 1) & ~(align - 1);
}

static inline uintptr_t xg_align_down(uintptr_t value, uintptr_t align)
{
    return value & ~(align - 1);
}

static inline int xg_is_pow2(uintptr_t value)
{
    return (value != 0) && ((value & (value - 1)) == 0);
}

/* Compiler-only barrier: keeps the compiler from moving memory accesses. */
#define xg_compiler_barrier() __asm__ __volatile__("" ::: "memory")

/* CPU relax hint for spin loops. */
static inline void xg_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    xg_compiler_barrier();
#endif
}

#endif
