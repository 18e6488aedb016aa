/*
 * xbgas.h: xBGAS instructions for C guest programs of the xBGAS machine
 * (xgas-xbgas), as inline functions over `.insn` (no xBGAS-aware compiler
 * needed).  A namespace is 0 for this PE's memory or pe + 1 for PE pe
 * (xbgas_ns); an address is a guest address of that PE (all guest memory
 * is symmetric, so &object names the object on every PE).
 * Each access is two instructions: eaddie (set the address register's
 * extended register) and the access.  Encodings: docs/xbgas.md.
 * The machine sets e10..e13 at start (xbgas_mype ...), but every access
 * here writes the e-register of the register holding its address, which
 * may be a0..a3: read them once, first (a constructor), as xbrtime_init
 * does.
 */
#ifndef XBGAS_H
#define XBGAS_H

#include <stdint.h>

/** @return the namespace of PE @p pe. */
static inline uint64_t xbgas_ns(int pe)
{
    return (uint64_t)pe + 1;
}

#define XBGAS_EREG(name, n)                                            \
    static inline uint64_t name(void)                                  \
    {                                                                  \
        uint64_t v;                                                    \
        __asm__ volatile(".insn i 0x7b, 6, %0, x" #n ", 0" : "=r"(v)); \
        return v;                                                      \
    }
XBGAS_EREG(xbgas_mype, 10)         /* e10: this PE */
XBGAS_EREG(xbgas_npes, 11)         /* e11: the number of PEs */
XBGAS_EREG(xbgas_shared_size, 12)  /* e12: the shared region's size */
XBGAS_EREG(xbgas_shared_start, 13) /* e13: ... and start */

#define XBGAS_LOAD(name, T, f3)                                  \
    static inline T name(uint64_t ns, const volatile void *addr) \
    {                                                            \
        uint64_t v;                                              \
        __asm__ volatile(".insn i 0x7b, 5, %1, %2, 0\n\t"        \
                         ".insn i 0x77, " #f3 ", %0, 0(%1)"      \
                         : "=r"(v)                               \
                         : "r"(addr), "r"(ns)                    \
                         : "memory");                            \
        return (T)v;                                             \
    }
XBGAS_LOAD(xbgas_elb, int8_t, 0)
XBGAS_LOAD(xbgas_elh, int16_t, 1)
XBGAS_LOAD(xbgas_elw, int32_t, 2)
XBGAS_LOAD(xbgas_eld, uint64_t, 3)
XBGAS_LOAD(xbgas_elbu, uint8_t, 4)
XBGAS_LOAD(xbgas_elhu, uint16_t, 5)

#define XBGAS_STORE(name, T, f3)                                   \
    static inline void name(uint64_t ns, volatile void *addr, T v) \
    {                                                              \
        __asm__ volatile(".insn i 0x7b, 5, %0, %1, 0\n\t"          \
                         ".insn s 0x7b, " #f3 ", %2, 0(%0)"        \
                         :                                         \
                         : "r"(addr), "r"(ns), "r"((uint64_t)v)    \
                         : "memory");                              \
    }
XBGAS_STORE(xbgas_esb, uint8_t, 0)
XBGAS_STORE(xbgas_esh, uint16_t, 1)
XBGAS_STORE(xbgas_esw, uint32_t, 2)
XBGAS_STORE(xbgas_esd, uint64_t, 3)

/* Raw forms: the namespace register's own e-register is the namespace. */
#define XBGAS_RLOAD(name, T, f3)                                   \
    static inline T name(uint64_t ns, const volatile void *addr)   \
    {                                                              \
        uint64_t v;                                                \
        __asm__ volatile(".insn i 0x7b, 5, %2, %2, 0\n\t"          \
                         ".insn r 0x33, " #f3 ", 0x55, %0, %1, %2" \
                         : "=&r"(v)                                \
                         : "r"(addr), "r"(ns)                      \
                         : "memory");                              \
        return (T)v;                                               \
    }
XBGAS_RLOAD(xbgas_erlb, int8_t, 0)
XBGAS_RLOAD(xbgas_erlh, int16_t, 1)
XBGAS_RLOAD(xbgas_erlw, int32_t, 2)
XBGAS_RLOAD(xbgas_erld, uint64_t, 3)
XBGAS_RLOAD(xbgas_erlbu, uint8_t, 4)
XBGAS_RLOAD(xbgas_erlhu, uint16_t, 5)

#define XBGAS_RSTORE(name, T, f3)                                  \
    static inline void name(uint64_t ns, volatile void *addr, T v) \
    {                                                              \
        __asm__ volatile(".insn i 0x7b, 5, %1, %1, 0\n\t"          \
                         ".insn r 0x33, " #f3 ", 0x22, %1, %2, %0" \
                         :                                         \
                         : "r"(addr), "r"(ns), "r"((uint64_t)v)    \
                         : "memory");                              \
    }
XBGAS_RSTORE(xbgas_ersb, uint8_t, 0)
XBGAS_RSTORE(xbgas_ersh, uint16_t, 1)
XBGAS_RSTORE(xbgas_ersw, uint32_t, 2)
XBGAS_RSTORE(xbgas_ersd, uint64_t, 3)

#define XBGAS_AMO(name, T, f3, f7)                                    \
    static inline T name(uint64_t ns, volatile void *addr, T v)       \
    {                                                                 \
        uint64_t old;                                                 \
        __asm__ volatile(".insn i 0x7b, 5, %1, %2, 0\n\t"             \
                         ".insn r 0x6b, " #f3 ", " #f7 ", %0, %1, %3" \
                         : "=r"(old)                                  \
                         : "r"(addr), "r"(ns), "r"((uint64_t)v)       \
                         : "memory");                                 \
        return (T)old;                                                \
    }
#define XBGAS_AMO2(op, f7)                         \
    XBGAS_AMO(xbgas_eamo##op##_w, uint32_t, 2, f7) \
    XBGAS_AMO(xbgas_eamo##op##_d, uint64_t, 3, f7)
XBGAS_AMO2(add, 0x00)
XBGAS_AMO2(swap, 0x01)
XBGAS_AMO2(xor, 0x04)
XBGAS_AMO2(or, 0x08)
XBGAS_AMO2(and, 0x0c)
XBGAS_AMO2(min, 0x10)
XBGAS_AMO2(max, 0x14)
XBGAS_AMO2(minu, 0x18)
XBGAS_AMO2(maxu, 0x1c)

#define XBGAS_CAS(name, T, f3)                                         \
    static inline T name(uint64_t ns, volatile void *addr, T expected, \
                         T desired)                                    \
    {                                                                  \
        uint64_t old = (uint64_t)expected;                             \
        __asm__ volatile(".insn i 0x7b, 5, %1, %2, 0\n\t"              \
                         ".insn r 0x6b, " #f3 ", 0x05, %0, %1, %3"     \
                         : "+r"(old)                                   \
                         : "r"(addr), "r"(ns), "r"((uint64_t)desired)  \
                         : "memory");                                  \
        return (T)old;                                                 \
    }
XBGAS_CAS(xbgas_eamocas_w, uint32_t, 2)
XBGAS_CAS(xbgas_eamocas_d, uint64_t, 3)

/** @brief Completes this PE's remote stores (an xgas quiet). */
static inline void xbgas_fence(void)
{
    __asm__ volatile("fence" ::: "memory");
}

#endif
