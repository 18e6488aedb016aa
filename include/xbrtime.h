/**
 * @file xbrtime.h
 * @brief The xBGAS runtime API (xbrtime) on xgas.
 *
 * Names and parameter lists are those of the published xBGAS runtime
 * (tactcomplabs/xbgas-runtime), so its programs build unchanged on any
 * machine xgas runs on: an SPMD program calls xbrtime_init, works on
 * symmetric memory from xbrtime_malloc (or global variables) with typed
 * put/get, atomics and collectives, and ends with xbrtime_close.  Start it
 * with xgasrun like any xgas program.  docs/xbrtime.md says what each
 * routine does, where xgas defines what the published runtime left open,
 * and how errors are reported.
 *
 * Type names (TYPENAME -> C type): float, double, longdouble, schar, char,
 * short, int, long, longlong, uchar, ushort, uint, ulong, ulonglong, int8,
 * int16, int32, int64, uint8, uint16, uint32, uint64, size (size_t),
 * ptrdiff (ptrdiff_t).
 */
#ifndef XGAS_XBRTIME_H
#define XGAS_XBRTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The type table: every typed routine is generated from it.  Columns:
 * C type, TYPENAME, then 1/0 for whether the type has the collectives
 * (broadcast, sum/product/min/max reductions, scatter, gather, alltoall),
 * the bitwise reductions (and, or, xor), the atomics (add, land, lor, lxor,
 * compare_swap) and the unsigned atomics (min, max).  put/get and their
 * _nb forms exist for every row.
 */
#define XBRTIME_TYPE_TABLE(X)                    \
    X(float, float, 1, 0, 0, 0)                  \
    X(double, double, 1, 0, 0, 0)                \
    X(long double, longdouble, 0, 0, 0, 0)       \
    X(signed char, schar, 1, 1, 0, 0)            \
    X(char, char, 1, 1, 0, 0)                    \
    X(short, short, 1, 1, 0, 0)                  \
    X(int, int, 1, 1, 1, 0)                      \
    X(long, long, 1, 1, 1, 0)                    \
    X(long long, longlong, 1, 1, 1, 0)           \
    X(unsigned char, uchar, 1, 1, 0, 0)          \
    X(unsigned short, ushort, 1, 1, 0, 0)        \
    X(unsigned int, uint, 1, 1, 1, 1)            \
    X(unsigned long, ulong, 1, 1, 1, 1)          \
    X(unsigned long long, ulonglong, 1, 1, 1, 1) \
    X(int8_t, int8, 1, 1, 0, 0)                  \
    X(int16_t, int16, 1, 1, 0, 0)                \
    X(int32_t, int32, 1, 1, 1, 0)                \
    X(int64_t, int64, 1, 1, 1, 0)                \
    X(uint8_t, uint8, 1, 1, 0, 0)                \
    X(uint16_t, uint16, 1, 1, 0, 0)              \
    X(uint32_t, uint32, 1, 1, 1, 1)              \
    X(uint64_t, uint64, 1, 1, 1, 1)              \
    X(size_t, size, 1, 1, 0, 0)                  \
    X(ptrdiff_t, ptrdiff, 1, 1, 0, 0)

/** XBRTIME_IF_<flag>(code): the code when the table's flag is 1. */
#define XBRTIME_IF_0(...)
#define XBRTIME_IF_1(...) __VA_ARGS__

/* ---- set-up, memory, synchronization ---------------------------------- */

/**
 * Joins the job (as shmem_init does; a program may use both APIs).
 * @return 0 on success, nonzero when the library cannot start (a message
 *         says why).
 */
int xbrtime_init(void);

/** Leaves the job (collective, like shmem_finalize); does nothing when
 *  the runtime is not running.  A program that returns from main without
 *  calling it is closed at exit. */
void xbrtime_close(void);

/** @return 1 if @p addr is symmetric (xbrtime_malloc memory or a global
 *  variable) and reachable on PE @p pe, else 0 (also before init). */
int xbrtime_addr_accessible(const void *addr, int pe);

/**
 * Collective: every PE allocates @p sz bytes of symmetric memory, at the
 * same address on every PE, and waits for the others.
 * @return the object, or NULL for @p sz 0 or when the symmetric heap
 *         (SHMEM_SYMMETRIC_SIZE) cannot hold it (with a message).
 */
void *xbrtime_malloc(size_t sz);

/** Collective: frees an object of xbrtime_malloc once every PE is done
 *  with it (NULL: only the synchronization). */
void xbrtime_free(void *ptr);

/** @return this PE's number (0..xbrtime_num_pes()-1), -1 before init. */
int xbrtime_mype(void);

/** @return the number of PEs of the job, -1 before init. */
int xbrtime_num_pes(void);

/** Completes this PE's transfers and waits for every PE. */
void xbrtime_barrier(void);

/* ---- transfers ----------------------------------------------------------
 * xbrtime_TYPENAME_put(dest, src, nelems, stride, pe): element i of local
 * src (at src[i * stride]) goes to dest[i * stride] on PE pe; the stride,
 * in elements and at least 1, applies to both sides, as in the published
 * runtime.  get moves dest[i * stride] <- src[i * stride] on PE pe.  The
 * blocking forms have completed (a put is visible at the target) when
 * they return; the _nb forms complete at the next xbrtime_barrier. */
#define XBRTIME_DECL_RMA(TYPE, NAME, COLL, BITS, AMO, UAMO)                  \
    void xbrtime_##NAME##_put(TYPE *dest, const TYPE *src, size_t nelems,    \
                              int stride, int pe);                           \
    void xbrtime_##NAME##_put_nb(TYPE *dest, const TYPE *src, size_t nelems, \
                                 int stride, int pe);                        \
    void xbrtime_##NAME##_get(TYPE *dest, const TYPE *src, size_t nelems,    \
                              int stride, int pe);                           \
    void xbrtime_##NAME##_get_nb(TYPE *dest, const TYPE *src, size_t nelems, \
                                 int stride, int pe);
XBRTIME_TYPE_TABLE(XBRTIME_DECL_RMA)
#undef XBRTIME_DECL_RMA

/* ---- atomics ------------------------------------------------------------
 * xbrtime_TYPENAME_atomic_OP(dest, op_val, pe) applies OP to dest on PE pe
 * atomically and returns nothing: add; land, lor, lxor are the bitwise
 * and, or, xor (as the published runtime's eamoand/or/xor); min and max
 * (unsigned types) keep the smaller or larger value.
 *
 * xbrtime_TYPENAME_atomic_compare_swap(dest, comp_val, pe) is declared, as
 * published, without a swap operand and without a result; xgas defines
 * it as "claim": if dest on PE pe holds 0, it becomes comp_val, otherwise
 * it is unchanged (read dest to learn the outcome). */
#define XBRTIME_DECL_AMO(TYPE, NAME, COLL, BITS, AMO, UAMO)                    \
    XBRTIME_IF_##AMO(                                                          \
        void xbrtime_##NAME##_atomic_add(TYPE *dest, TYPE op_val, int pe);     \
        void xbrtime_##NAME##_atomic_land(TYPE *dest, TYPE op_val, int pe);    \
        void xbrtime_##NAME##_atomic_lor(TYPE *dest, TYPE op_val, int pe);     \
        void xbrtime_##NAME##_atomic_lxor(TYPE *dest, TYPE op_val, int pe);    \
        void xbrtime_##NAME##_atomic_compare_swap(TYPE *dest, TYPE comp_val,   \
                                                  int pe);)                    \
        XBRTIME_IF_##UAMO(                                                     \
            void xbrtime_##NAME##_atomic_min(TYPE *dest, TYPE op_val, int pe); \
            void xbrtime_##NAME##_atomic_max(TYPE *dest, TYPE op_val,          \
                                             int pe);)
XBRTIME_TYPE_TABLE(XBRTIME_DECL_AMO)
#undef XBRTIME_DECL_AMO

/* ---- collectives --------------------------------------------------------
 * Every PE calls them with the same counts, stride and root; dest and src
 * are symmetric.  Strides are in elements (at least 1) and apply to both
 * arrays.
 *   broadcast: dest[i * stride] on every PE but root = src[i * stride] on
 *     root (root's dest is not written, as in the published runtime);
 *   reduce_F: dest[i * stride] = F over all PEs of src[i * stride], on
 *     root -- and, with xgas, on every other PE too;
 *   scatter: PE p receives pe_msg_sz[p] elements of root's src, from
 *     index pe_disp[p], into dest[0..]; nelems is the sum of pe_msg_sz;
 *   gather: root receives pe_msg_sz[p] elements of PE p's src into
 *     dest[pe_disp[p]..];
 *   alltoall: element k of block p (of nelems elements) of dest on PE q,
 *     dest[(p * nelems + k) * dest_stride], is src[(q * nelems + k) *
 *     src_stride] on PE p. */
#define XBRTIME_DECL_COLL(TYPE, NAME, COLL, BITS, AMO, UAMO)                   \
    XBRTIME_IF_##COLL(                                                         \
        void xbrtime_##NAME##_broadcast(TYPE *dest, const TYPE *src,           \
                                        size_t nelems, int stride, int root);  \
        void xbrtime_##NAME##_reduce_sum(TYPE *dest, const TYPE *src,          \
                                         size_t nelems, int stride, int root); \
        void xbrtime_##NAME##_reduce_product(                                  \
            TYPE *dest, const TYPE *src, size_t nelems, int stride, int root); \
        void xbrtime_##NAME##_reduce_min(TYPE *dest, const TYPE *src,          \
                                         size_t nelems, int stride, int root); \
        void xbrtime_##NAME##_reduce_max(TYPE *dest, const TYPE *src,          \
                                         size_t nelems, int stride, int root); \
        void xbrtime_##NAME##_scatter(TYPE *dest, const TYPE *src,             \
                                      int *pe_msg_sz, int *pe_disp,            \
                                      size_t nelems, int root);                \
        void xbrtime_##NAME##_gather(TYPE *dest, const TYPE *src,              \
                                     int *pe_msg_sz, int *pe_disp,             \
                                     size_t nelems, int root);                 \
        void xbrtime_##NAME##_alltoall(TYPE *dest, const TYPE *src,            \
                                       int src_stride, int dest_stride,        \
                                       size_t nelems);)                        \
        XBRTIME_IF_##BITS(                                                     \
            void xbrtime_##NAME##_reduce_and(TYPE *dest, const TYPE *src,      \
                                             size_t nelems, int stride,        \
                                             int root);                        \
            void xbrtime_##NAME##_reduce_or(TYPE *dest, const TYPE *src,       \
                                            size_t nelems, int stride,         \
                                            int root);                         \
            void xbrtime_##NAME##_reduce_xor(TYPE *dest, const TYPE *src,      \
                                             size_t nelems, int stride,        \
                                             int root);)
XBRTIME_TYPE_TABLE(XBRTIME_DECL_COLL)
#undef XBRTIME_DECL_COLL

#ifdef __cplusplus
}
#endif

#endif
