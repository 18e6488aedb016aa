/**
 * @file shmem.h
 * @brief OpenSHMEM 1.6 for xgas.
 *
 * The routines, types and constants named by the OpenSHMEM 1.6
 * specification.  Same-node PEs reach each other's symmetric memory directly
 * (PVAS-partitioned shared region), so a put is one copy and an atomic one
 * CPU instruction.  Extensions are in shmemx.h.
 */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library constants ------------------------------------------------ */

#define SHMEM_MAJOR_VERSION  1
#define SHMEM_MINOR_VERSION  6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN   256
#define _SHMEM_MAX_NAME_LEN  SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING  "xgas"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* thread levels */
#define SHMEM_THREAD_SINGLE     0
#define SHMEM_THREAD_FUNNELED   1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE   3

/* comparison operators of the point-to-point synchronization routines */
#define SHMEM_CMP_EQ  0
#define SHMEM_CMP_NE  1
#define SHMEM_CMP_GT  2
#define SHMEM_CMP_GE  3
#define SHMEM_CMP_LT  4
#define SHMEM_CMP_LE  5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* hints of shmem_malloc_with_hints */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE  (1L << 1)

/* ---- teams and contexts: handles -------------------------------------- */

/* A team handle points to a team object of the library; a context handle
 * to a context object.  Neither may be dereferenced by programs. */
typedef struct xg_team *shmem_team_t;
typedef struct xg_shmem_ctx *shmem_ctx_t;

/* Team configuration (shmem_team_split_strided, shmem_team_get_config). */
typedef struct {
    int num_contexts; /* contexts the program will create on the team */
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* The predefined teams and the default context, objects of the library. */
extern struct xg_team xg_team_world;
extern struct xg_team xg_team_shared;
extern struct xg_shmem_ctx xg_shmem_ctx_default;

#define SHMEM_TEAM_WORLD   ((shmem_team_t)&xg_team_world)
#define SHMEM_TEAM_SHARED  ((shmem_team_t)&xg_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_CTX_DEFAULT  ((shmem_ctx_t)&xg_shmem_ctx_default)
#define SHMEM_CTX_INVALID  ((shmem_ctx_t)0)

/* options of shmem_ctx_create and shmem_team_create_ctx */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE    (1L << 1)
#define SHMEM_CTX_NOSTORE    (1L << 2)

/* ---- setup, exit and query -------------------------------------------- */

void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_query_initialized(int *initialized);
void shmem_finalize(void);
#if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L) && \
    !defined(__cplusplus)
_Noreturn
#elif defined(__cplusplus) && (__cplusplus >= 201103L)
[[noreturn]]
#endif
    void
    shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* Deprecated since OpenSHMEM 1.2 and still part of 1.6: start_pes(npes)
 * initializes like shmem_init (npes is ignored; a second call does
 * nothing) and the library then finalizes itself, collectively, when the
 * program exits normally; _my_pe and _num_pes are shmem_my_pe and
 * shmem_n_pes. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* Profiling control (the profiling interface): a no-op in the library,
 * for a profiling tool to intercept.  Every routine is also available as
 * pshmem_<name>, declared in pshmem.h. */
void shmem_pcontrol(const int level, ...);

/* ---- symmetric heap --------------------------------------------------- */

void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void shmem_free(void *ptr);

/* Deprecated since OpenSHMEM 1.2 and still part of 1.6: shmalloc,
 * shfree, shrealloc and shmemalign are shmem_malloc, shmem_free,
 * shmem_realloc and shmem_align. */
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

/* ---- memory ordering and barriers ------------------------------------- */

/* Locks: a symmetric long, 0 on every PE before first use.  set waits for
 * the lock (PEs get it in the order they asked); test takes it only if it
 * is free (returns 0) and otherwise returns 1; clear completes this PE's
 * puts (shmem_quiet) and passes the lock on. */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

void shmem_fence(void);
void shmem_quiet(void);
void shmem_pe_quiet(int target_pe);
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ---- communication contexts and sessions ------------------------------ */

/**
 * @brief Contexts.  shmem_ctx_create makes a context on SHMEM_TEAM_WORLD,
 * shmem_team_create_ctx one on @p team (whose PE numbers the context's
 * routines then take); both return 0 and set @p *ctx, or return nonzero
 * (unknown options, no memory, invalid team).  shmem_ctx_destroy completes
 * the context's operations and frees it (SHMEM_CTX_INVALID: no action).
 * shmem_ctx_get_team returns 0 and the context's team, or nonzero and
 * SHMEM_TEAM_INVALID for an invalid context.  shmem_ctx_fence and
 * shmem_ctx_quiet order and complete the context's operations;
 * shmem_[ctx_]pe_quiet those to one PE.
 */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, int target_pe);

/* Sessions (OpenSHMEM 1.6): performance hints for a series of operations
 * on a context.  They change no result, ordering or completion. */
typedef struct {
    size_t total_ops; /* expected RMA calls in the session */
} shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_BATCH     (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config,
                             long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ==== RMA: put/get, p/g, iput/iget, ibput/ibget, _nbi ================== */

/*
 * Most routines also have a context form, shmem_ctx_NAME, with a
 * shmem_ctx_t first and PE numbers relative to the context's team.
 * XG_SHMEM_DECLARE_WITH_CTX(RET, NAME, (PARAMS)) declares both.
 */
#define XG_SHMEM_CTX_PARAMS(...) (shmem_ctx_t ctx, __VA_ARGS__)
#define XG_SHMEM_DECLARE_WITH_CTX(RET, NAME, PARAMS) \
    RET shmem_##NAME PARAMS;                         \
    RET shmem_ctx_##NAME XG_SHMEM_CTX_PARAMS PARAMS;

/*
 * Type tables of the specification as X-macros.  Each row is
 * X(TYPE, TYPENAME); a family of routines is declared here, and defined in
 * the library, by applying one macro to a table, so each list is written
 * once.  They live in this header because the declarations need them;
 * programs have no use for them.
 */

/* Standard RMA types (put, get, p, g, iput, iget, ibput, ibget, _nbi). */
/* clang-format off */
#define XG_SHMEM_RMA_TYPES(X)                                              \
    X(float, float)                                                        \
    X(double, double)                                                      \
    X(long double, longdouble)                                             \
    X(char, char)                                                          \
    X(signed char, schar)                                                  \
    X(short, short)                                                        \
    X(int, int)                                                            \
    X(long, long)                                                          \
    X(long long, longlong)                                                 \
    X(unsigned char, uchar)                                                \
    X(unsigned short, ushort)                                              \
    X(unsigned int, uint)                                                  \
    X(unsigned long, ulong)                                                \
    X(unsigned long long, ulonglong)                                       \
    X(int8_t, int8)                                                        \
    X(int16_t, int16)                                                      \
    X(int32_t, int32)                                                      \
    X(int64_t, int64)                                                      \
    X(uint8_t, uint8)                                                      \
    X(uint16_t, uint16)                                                    \
    X(uint32_t, uint32)                                                    \
    X(uint64_t, uint64)                                                    \
    X(size_t, size)                                                        \
    X(ptrdiff_t, ptrdiff)
/* clang-format on */

/* Element sizes in bits of the sized routines (shmem_put64, ...). */
#define XG_SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Standard AMO types: compare_swap, fetch_inc, inc, fetch_add, add. */
/* clang-format off */
#define XG_SHMEM_AMO_STANDARD_TYPES(X)                                     \
    X(int, int)                                                            \
    X(long, long)                                                          \
    X(long long, longlong)                                                 \
    X(unsigned int, uint)                                                  \
    X(unsigned long, ulong)                                                \
    X(unsigned long long, ulonglong)                                       \
    X(int32_t, int32)                                                      \
    X(int64_t, int64)                                                      \
    X(uint32_t, uint32)                                                    \
    X(uint64_t, uint64)                                                    \
    X(size_t, size)                                                        \
    X(ptrdiff_t, ptrdiff)
/* clang-format on */

/* Extended AMO types: fetch, set, swap. */
/* clang-format off */
#define XG_SHMEM_AMO_EXTENDED_TYPES(X)                                     \
    X(float, float)                                                        \
    X(double, double)                                                      \
    XG_SHMEM_AMO_STANDARD_TYPES(X)
/* clang-format on */

/* Bitwise AMO types: and, or, xor and their fetching forms. */
/* clang-format off */
#define XG_SHMEM_AMO_BITWISE_TYPES(X)                                      \
    X(unsigned int, uint)                                                  \
    X(unsigned long, ulong)                                                \
    X(unsigned long long, ulonglong)                                       \
    X(int32_t, int32)                                                      \
    X(int64_t, int64)                                                      \
    X(uint32_t, uint32)                                                    \
    X(uint64_t, uint64)
/* clang-format on */

/* Types of the deprecated (OpenSHMEM 1.3) atomics: cswap, fadd, finc, add,
 * inc; and, with float and double, fetch, set and swap. */
/* clang-format off */
#define XG_SHMEM_AMO_DEPRECATED_TYPES(X)                                   \
    X(int, int)                                                            \
    X(long, long)                                                          \
    X(long long, longlong)
/* clang-format on */

/* clang-format off */
#define XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES(X)                          \
    X(float, float)                                                        \
    X(double, double)                                                      \
    XG_SHMEM_AMO_DEPRECATED_TYPES(X)
/* clang-format on */

/* Point-to-point synchronization types: wait_until, test and their
 * _all/_any/_some (and _vector) forms. */
/* clang-format off */
#define XG_SHMEM_SYNC_TYPES(X)                                             \
    X(int, int)                                                            \
    X(long, long)                                                          \
    X(long long, longlong)                                                 \
    X(unsigned int, uint)                                                  \
    X(unsigned long, ulong)                                                \
    X(unsigned long long, ulonglong)                                       \
    X(int32_t, int32)                                                      \
    X(int64_t, int64)                                                      \
    X(uint32_t, uint32)                                                    \
    X(uint64_t, uint64)                                                    \
    X(size_t, size)                                                        \
    X(ptrdiff_t, ptrdiff)
/* clang-format on */

/* Deprecated point-to-point synchronization types (wait_until only). */
/* clang-format off */
#define XG_SHMEM_SYNC_DEPRECATED_TYPES(X)                                  \
    X(short, short)                                                        \
    X(unsigned short, ushort)
/* clang-format on */

/**
 * @brief Remote memory access, for every standard RMA type TYPE/TYPENAME:
 *
 *     void shmem_TYPENAME_put(TYPE *dest, const TYPE *source, size_t nelems,
 *                             int pe);
 *     void shmem_TYPENAME_get(TYPE *dest, const TYPE *source, size_t nelems,
 *                             int pe);
 *     void shmem_TYPENAME_p(TYPE *dest, TYPE value, int pe);
 *     TYPE shmem_TYPENAME_g(const TYPE *source, int pe);
 *     void shmem_TYPENAME_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst,
 *                              ptrdiff_t sst, size_t nelems, int pe);
 *     void shmem_TYPENAME_iget(...same arguments...);
 *     void shmem_TYPENAME_ibput(TYPE *dest, const TYPE *source, ptrdiff_t dst,
 *                               ptrdiff_t sst, size_t bsize, size_t nblocks,
 *                               int pe);
 *     void shmem_TYPENAME_ibget(...same arguments...);
 *     void shmem_TYPENAME_put_nbi(...as put...);
 *     void shmem_TYPENAME_get_nbi(...as get...);
 *
 * and the untyped forms shmem_{put,get,iput,iget,ibput,ibget}SIZE and
 * shmem_{put,get}SIZE_nbi for SIZE in 8, 16, 32, 64, 128 (elements of SIZE
 * bits), and shmem_putmem, shmem_getmem, shmem_putmem_nbi, shmem_getmem_nbi
 * (bytes).
 *
 * @param [out] dest    put: symmetric destination on @p pe; get: local.
 * @param [in]  source  put: local; get: symmetric source on @p pe.
 * @param [in]  nelems  elements to copy; 0 copies nothing.
 * @param [in]  dst     distance in elements between consecutive elements
 *                      (iput/iget) or block starts (ibput/ibget) of @p dest;
 *                      at least 1, 1 = contiguous.
 * @param [in]  sst     the same for @p source.
 * @param [in]  bsize   elements per block (ibput/ibget).
 * @param [in]  nblocks blocks to copy (ibput/ibget); 0 copies nothing.
 * @param [in]  pe      PE that owns the symmetric object.
 * @return g returns the value read; the others return nothing.  Puts
 *         return once @p source may be reused, gets once @p dest holds the
 *         data; _nbi forms are complete at the next shmem_quiet (on this
 *         node they complete before returning).  Invalid arguments end the
 *         job with a message.
 */
#define XG_SHMEM_DECLARE_RMA(TYPE, TYPENAME)                                   \
    XG_SHMEM_DECLARE_WITH_CTX(                                                 \
        void, TYPENAME##_put,                                                  \
        (TYPE * dest, const TYPE *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(                                                 \
        void, TYPENAME##_get,                                                  \
        (TYPE * dest, const TYPE *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_p,                              \
                              (TYPE * dest, TYPE value, int pe))               \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_g,                              \
                              (const TYPE *source, int pe))                    \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_iput,                           \
                              (TYPE * dest, const TYPE *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t nelems, int pe))          \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_iget,                           \
                              (TYPE * dest, const TYPE *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t nelems, int pe))          \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_ibput,                          \
                              (TYPE * dest, const TYPE *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks,    \
                               int pe))                                        \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_ibget,                          \
                              (TYPE * dest, const TYPE *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks,    \
                               int pe))                                        \
    XG_SHMEM_DECLARE_WITH_CTX(                                                 \
        void, TYPENAME##_put_nbi,                                              \
        (TYPE * dest, const TYPE *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(                                                 \
        void, TYPENAME##_get_nbi,                                              \
        (TYPE * dest, const TYPE *source, size_t nelems, int pe))
XG_SHMEM_RMA_TYPES(XG_SHMEM_DECLARE_RMA)
#undef XG_SHMEM_DECLARE_RMA

#define XG_SHMEM_DECLARE_RMA_SIZED(SIZE)                                      \
    XG_SHMEM_DECLARE_WITH_CTX(                                                \
        void, put##SIZE,                                                      \
        (void *dest, const void *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(                                                \
        void, get##SIZE,                                                      \
        (void *dest, const void *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(void, iput##SIZE,                               \
                              (void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t nelems, int pe))         \
    XG_SHMEM_DECLARE_WITH_CTX(void, iget##SIZE,                               \
                              (void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t nelems, int pe))         \
    XG_SHMEM_DECLARE_WITH_CTX(void, ibput##SIZE,                              \
                              (void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks,   \
                               int pe))                                       \
    XG_SHMEM_DECLARE_WITH_CTX(void, ibget##SIZE,                              \
                              (void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t bsize, size_t nblocks,   \
                               int pe))                                       \
    XG_SHMEM_DECLARE_WITH_CTX(                                                \
        void, put##SIZE##_nbi,                                                \
        (void *dest, const void *source, size_t nelems, int pe))              \
    XG_SHMEM_DECLARE_WITH_CTX(                                                \
        void, get##SIZE##_nbi,                                                \
        (void *dest, const void *source, size_t nelems, int pe))
XG_SHMEM_RMA_SIZES(XG_SHMEM_DECLARE_RMA_SIZED)
#undef XG_SHMEM_DECLARE_RMA_SIZED

XG_SHMEM_DECLARE_WITH_CTX(void, putmem,
                          (void *dest, const void *source, size_t nelems,
                           int pe))
XG_SHMEM_DECLARE_WITH_CTX(void, getmem,
                          (void *dest, const void *source, size_t nelems,
                           int pe))
XG_SHMEM_DECLARE_WITH_CTX(void, putmem_nbi,
                          (void *dest, const void *source, size_t nelems,
                           int pe))
XG_SHMEM_DECLARE_WITH_CTX(void, getmem_nbi,
                          (void *dest, const void *source, size_t nelems,
                           int pe))

/**
 * @brief Put-with-signal: copies @p nelems elements to @p dest on @p pe,
 * then updates the signal object @p sig_addr on @p pe -- set to @p signal
 * (SHMEM_SIGNAL_SET) or add @p signal (SHMEM_SIGNAL_ADD), atomically.  A PE
 * that sees the signal update also sees the data.  For every standard RMA
 * type, the sized forms and putmem, blocking and _nbi, with context forms:
 *
 *     void shmem_TYPENAME_put_signal(TYPE *dest, const TYPE *source,
 *              size_t nelems, uint64_t *sig_addr, uint64_t signal,
 *              int sig_op, int pe);
 *     void shmem_putSIZE_signal(...), shmem_putmem_signal(...);
 *     ..._signal_nbi(...same arguments...);
 *
 * shmem_signal_add and shmem_signal_set (OpenSHMEM 1.6) update a signal
 * without data; shmem_signal_fetch reads this PE's signal object.
 */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define XG_SHMEM_SIGNAL_PARAMS(TYPE)                                     \
    (TYPE * dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, \
     uint64_t signal, int sig_op, int pe)
#define XG_SHMEM_DECLARE_PUT_SIGNAL(TYPE, TYPENAME)            \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_put_signal,     \
                              XG_SHMEM_SIGNAL_PARAMS(TYPE))    \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_put_signal_nbi, \
                              XG_SHMEM_SIGNAL_PARAMS(TYPE))
XG_SHMEM_RMA_TYPES(XG_SHMEM_DECLARE_PUT_SIGNAL)
#undef XG_SHMEM_DECLARE_PUT_SIGNAL

#define XG_SHMEM_DECLARE_PUT_SIGNAL_SIZED(SIZE)             \
    XG_SHMEM_DECLARE_WITH_CTX(void, put##SIZE##_signal,     \
                              XG_SHMEM_SIGNAL_PARAMS(void)) \
    XG_SHMEM_DECLARE_WITH_CTX(void, put##SIZE##_signal_nbi, \
                              XG_SHMEM_SIGNAL_PARAMS(void))
XG_SHMEM_RMA_SIZES(XG_SHMEM_DECLARE_PUT_SIGNAL_SIZED)
#undef XG_SHMEM_DECLARE_PUT_SIGNAL_SIZED

XG_SHMEM_DECLARE_WITH_CTX(void, putmem_signal, XG_SHMEM_SIGNAL_PARAMS(void))
XG_SHMEM_DECLARE_WITH_CTX(void, putmem_signal_nbi, XG_SHMEM_SIGNAL_PARAMS(void))
XG_SHMEM_DECLARE_WITH_CTX(void, signal_add,
                          (uint64_t * sig_addr, uint64_t signal, int pe))
XG_SHMEM_DECLARE_WITH_CTX(void, signal_set,
                          (uint64_t * sig_addr, uint64_t signal, int pe))
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);

/* ==== end RMA ========================================================== */

/* ==== atomic memory operations ========================================= */

/**
 * @brief Atomic memory operations on a symmetric, naturally aligned object
 * @p dest (or @p source) of PE @p pe.  Fetching forms return the value the
 * object held just before the operation.
 *
 * Standard AMO types (XG_SHMEM_AMO_STANDARD_TYPES):
 *
 *     TYPE shmem_TYPENAME_atomic_compare_swap(TYPE *dest, TYPE cond,
 *                                             TYPE value, int pe);
 *     TYPE shmem_TYPENAME_atomic_fetch_inc(TYPE *dest, int pe);
 *     void shmem_TYPENAME_atomic_inc(TYPE *dest, int pe);
 *     TYPE shmem_TYPENAME_atomic_fetch_add(TYPE *dest, TYPE value, int pe);
 *     void shmem_TYPENAME_atomic_add(TYPE *dest, TYPE value, int pe);
 *
 * Extended AMO types (the standard ones plus float and double):
 *
 *     TYPE shmem_TYPENAME_atomic_fetch(const TYPE *source, int pe);
 *     void shmem_TYPENAME_atomic_set(TYPE *dest, TYPE value, int pe);
 *     TYPE shmem_TYPENAME_atomic_swap(TYPE *dest, TYPE value, int pe);
 *
 * Bitwise AMO types, for OP in and, or, xor:
 *
 *     TYPE shmem_TYPENAME_atomic_fetch_OP(TYPE *dest, TYPE value, int pe);
 *     void shmem_TYPENAME_atomic_OP(TYPE *dest, TYPE value, int pe);
 *
 * Every fetching routine also has a non-blocking form that stores the
 * fetched value in @p fetch, complete at the next shmem_quiet (on this node
 * it completes before returning), e.g.
 *
 *     void shmem_TYPENAME_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest,
 *                                              TYPE value, int pe);
 *     void shmem_TYPENAME_atomic_fetch_nbi(TYPE *fetch, const TYPE *source,
 *                                          int pe);
 *
 * compare_swap stores @p value only if the object equals @p cond.  The
 * operations are atomic with respect to every other atomic operation on the
 * same object by any PE.  Invalid arguments (PE, address not symmetric or
 * not aligned) end the job with a message.
 */
#define XG_SHMEM_DECLARE_AMO_STANDARD(TYPE, TYPENAME)                       \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_compare_swap,         \
                              (TYPE * dest, TYPE cond, TYPE value, int pe)) \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_fetch_inc,            \
                              (TYPE * dest, int pe))                        \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_inc,                  \
                              (TYPE * dest, int pe))                        \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_fetch_add,            \
                              (TYPE * dest, TYPE value, int pe))            \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_add,                  \
                              (TYPE * dest, TYPE value, int pe))            \
    XG_SHMEM_DECLARE_WITH_CTX(                                              \
        void, TYPENAME##_atomic_compare_swap_nbi,                           \
        (TYPE * fetch, TYPE * dest, TYPE cond, TYPE value, int pe))         \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_fetch_inc_nbi,        \
                              (TYPE * fetch, TYPE * dest, int pe))          \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_fetch_add_nbi,        \
                              (TYPE * fetch, TYPE * dest, TYPE value, int pe))
XG_SHMEM_AMO_STANDARD_TYPES(XG_SHMEM_DECLARE_AMO_STANDARD)
#undef XG_SHMEM_DECLARE_AMO_STANDARD

#define XG_SHMEM_DECLARE_AMO_EXTENDED(TYPE, TYPENAME)                     \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_fetch,              \
                              (const TYPE *source, int pe))               \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_set,                \
                              (TYPE * dest, TYPE value, int pe))          \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_swap,               \
                              (TYPE * dest, TYPE value, int pe))          \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_fetch_nbi,          \
                              (TYPE * fetch, const TYPE *source, int pe)) \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_swap_nbi,           \
                              (TYPE * fetch, TYPE * dest, TYPE value, int pe))
XG_SHMEM_AMO_EXTENDED_TYPES(XG_SHMEM_DECLARE_AMO_EXTENDED)
#undef XG_SHMEM_DECLARE_AMO_EXTENDED

#define XG_SHMEM_DECLARE_AMO_BITWISE_OP(TYPE, TYPENAME, OP)             \
    XG_SHMEM_DECLARE_WITH_CTX(TYPE, TYPENAME##_atomic_fetch_##OP,       \
                              (TYPE * dest, TYPE value, int pe))        \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_##OP,             \
                              (TYPE * dest, TYPE value, int pe))        \
    XG_SHMEM_DECLARE_WITH_CTX(void, TYPENAME##_atomic_fetch_##OP##_nbi, \
                              (TYPE * fetch, TYPE * dest, TYPE value, int pe))
/* clang-format off */
#define XG_SHMEM_DECLARE_AMO_BITWISE(TYPE, TYPENAME)                       \
    XG_SHMEM_DECLARE_AMO_BITWISE_OP(TYPE, TYPENAME, and)                   \
    XG_SHMEM_DECLARE_AMO_BITWISE_OP(TYPE, TYPENAME, or)                    \
    XG_SHMEM_DECLARE_AMO_BITWISE_OP(TYPE, TYPENAME, xor)
/* clang-format on */
XG_SHMEM_AMO_BITWISE_TYPES(XG_SHMEM_DECLARE_AMO_BITWISE)
#undef XG_SHMEM_DECLARE_AMO_BITWISE
#undef XG_SHMEM_DECLARE_AMO_BITWISE_OP

/**
 * @brief Deprecated names (OpenSHMEM 1.3), kept so that older programs
 * build unchanged; each behaves exactly as the routine in brackets:
 * shmem_TYPENAME_cswap [atomic_compare_swap], _fadd [atomic_fetch_add],
 * _finc [atomic_fetch_inc], _add [atomic_add], _inc [atomic_inc] for int,
 * long and long long; shmem_TYPENAME_fetch [atomic_fetch], _set
 * [atomic_set], _swap [atomic_swap] for those and float and double.
 */
#define XG_SHMEM_DECLARE_AMO_DEPRECATED(TYPE, TYPENAME)                       \
    TYPE shmem_##TYPENAME##_cswap(TYPE *dest, TYPE cond, TYPE value, int pe); \
    TYPE shmem_##TYPENAME##_fadd(TYPE *dest, TYPE value, int pe);             \
    TYPE shmem_##TYPENAME##_finc(TYPE *dest, int pe);                         \
    void shmem_##TYPENAME##_add(TYPE *dest, TYPE value, int pe);              \
    void shmem_##TYPENAME##_inc(TYPE *dest, int pe);
XG_SHMEM_AMO_DEPRECATED_TYPES(XG_SHMEM_DECLARE_AMO_DEPRECATED)
#undef XG_SHMEM_DECLARE_AMO_DEPRECATED

#define XG_SHMEM_DECLARE_AMO_DEPRECATED_EXTENDED(TYPE, TYPENAME) \
    TYPE shmem_##TYPENAME##_fetch(const TYPE *source, int pe);   \
    void shmem_##TYPENAME##_set(TYPE *dest, TYPE value, int pe); \
    TYPE shmem_##TYPENAME##_swap(TYPE *dest, TYPE value, int pe);
XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES(XG_SHMEM_DECLARE_AMO_DEPRECATED_EXTENDED)
#undef XG_SHMEM_DECLARE_AMO_DEPRECATED_EXTENDED

/* ==== end atomic memory operations ===================================== */

/* ==== point-to-point synchronization =================================== */

/**
 * @brief Point-to-point synchronization on symmetric objects of the calling
 * PE, for every type of XG_SHMEM_SYNC_TYPES and XG_SHMEM_SYNC_DEPRECATED_TYPES
 * (short, unsigned short):
 *
 *     void   shmem_TYPENAME_wait_until(TYPE *ivar, int cmp, TYPE cmp_value);
 *     void   shmem_TYPENAME_wait_until_all(TYPE *ivars, size_t nelems,
 *                const int *status, int cmp, TYPE cmp_value);
 *     size_t shmem_TYPENAME_wait_until_any(...as _all...);
 *     size_t shmem_TYPENAME_wait_until_some(TYPE *ivars, size_t nelems,
 *                size_t *indices, const int *status, int cmp,
 *                TYPE cmp_value);
 *     int    shmem_TYPENAME_test(TYPE *ivar, int cmp, TYPE cmp_value);
 *     int    shmem_TYPENAME_test_all(...as wait_until_all...);
 *     size_t shmem_TYPENAME_test_any(...as wait_until_any...);
 *     size_t shmem_TYPENAME_test_some(...as wait_until_some...);
 *
 * and the _vector forms of each routine that takes an array, which compare
 * ivars[i] with cmp_values[i] (const TYPE *cmp_values in place of cmp_value).
 * The condition is "ivar cmp cmp_value", cmp one of SHMEM_CMP_EQ, _NE, _GT,
 * _GE, _LT, _LE.
 *
 * @param [in]  ivar, ivars  symmetric object(s) of this PE, naturally
 *                           aligned, updated by other PEs or threads.
 * @param [in]  nelems       elements of @p ivars (and of @p status,
 *                           @p indices, @p cmp_values).
 * @param [in]  status       NULL, or a mask: status[i] != 0 leaves ivars[i]
 *                           out of the set waited on or tested.
 * @param [out] indices      (_some) receives the indices that satisfied the
 *                           condition; room for @p nelems.
 * @param [in]  cmp          comparison operator (SHMEM_CMP_*).
 * @param [in]  cmp_value    value compared with each element.
 * @param [in]  cmp_values   (_vector) value compared with each element i.
 * @return wait_until and wait_until_all: nothing, once the condition held
 *         (for _all: each element was seen to satisfy it).
 *         wait_until_any: the index of an element that satisfies it;
 *         SIZE_MAX at once if the set is empty.  Successive calls return
 *         each satisfying element in turn, so none is starved.
 *         wait_until_some: the number N >= 1 of satisfying elements, whose
 *         indices are indices[0..N-1]; 0 at once if the set is empty.
 *         test: 1 if the condition holds, else 0.  test_all: 1 if every
 *         element of the set satisfies it (also for an empty set), else 0.
 *         test_any: as wait_until_any, or SIZE_MAX if none satisfies it.
 *         test_some: as wait_until_some, or 0 if none satisfies it.
 *         Every routine reads @p ivars with acquire ordering: data put
 *         before a flag is visible once the flag satisfied the condition.
 *         An invalid @p cmp, an object that is not symmetric or not
 *         aligned, or a call outside shmem_init..shmem_finalize ends the job
 *         with a message.
 */
#define XG_SHMEM_DECLARE_SYNC(TYPE, TYPENAME)                                 \
    void shmem_##TYPENAME##_wait_until(TYPE *ivar, int cmp, TYPE cmp_value);  \
    void shmem_##TYPENAME##_wait_until_all(TYPE *ivars, size_t nelems,        \
                                           const int *status, int cmp,        \
                                           TYPE cmp_value);                   \
    size_t shmem_##TYPENAME##_wait_until_any(TYPE *ivars, size_t nelems,      \
                                             const int *status, int cmp,      \
                                             TYPE cmp_value);                 \
    size_t shmem_##TYPENAME##_wait_until_some(                                \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,       \
        int cmp, TYPE cmp_value);                                             \
    void shmem_##TYPENAME##_wait_until_all_vector(TYPE *ivars, size_t nelems, \
                                                  const int *status, int cmp, \
                                                  const TYPE *cmp_values);    \
    size_t shmem_##TYPENAME##_wait_until_any_vector(                          \
        TYPE *ivars, size_t nelems, const int *status, int cmp,               \
        const TYPE *cmp_values);                                              \
    size_t shmem_##TYPENAME##_wait_until_some_vector(                         \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,       \
        int cmp, const TYPE *cmp_values);                                     \
    int shmem_##TYPENAME##_test(TYPE *ivar, int cmp, TYPE cmp_value);         \
    int shmem_##TYPENAME##_test_all(TYPE *ivars, size_t nelems,               \
                                    const int *status, int cmp,               \
                                    TYPE cmp_value);                          \
    size_t shmem_##TYPENAME##_test_any(TYPE *ivars, size_t nelems,            \
                                       const int *status, int cmp,            \
                                       TYPE cmp_value);                       \
    size_t shmem_##TYPENAME##_test_some(TYPE *ivars, size_t nelems,           \
                                        size_t *indices, const int *status,   \
                                        int cmp, TYPE cmp_value);             \
    int shmem_##TYPENAME##_test_all_vector(TYPE *ivars, size_t nelems,        \
                                           const int *status, int cmp,        \
                                           const TYPE *cmp_values);           \
    size_t shmem_##TYPENAME##_test_any_vector(TYPE *ivars, size_t nelems,     \
                                              const int *status, int cmp,     \
                                              const TYPE *cmp_values);        \
    size_t shmem_##TYPENAME##_test_some_vector(                               \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,       \
        int cmp, const TYPE *cmp_values);
XG_SHMEM_SYNC_TYPES(XG_SHMEM_DECLARE_SYNC)
XG_SHMEM_SYNC_DEPRECATED_TYPES(XG_SHMEM_DECLARE_SYNC)
#undef XG_SHMEM_DECLARE_SYNC

/**
 * @brief Waits until the signal object @p sig_addr of this PE satisfies
 * "*sig_addr cmp cmp_value".
 *
 * @param [in] sig_addr   symmetric uint64_t of this PE, naturally aligned.
 * @param [in] cmp        comparison operator (SHMEM_CMP_*).
 * @param [in] cmp_value  value compared with the signal.
 * @return the value of the signal that satisfied the condition.
 */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp,
                                 uint64_t cmp_value);

/* Types of the deprecated shmem_TYPENAME_wait (OpenSHMEM 1.4). */
/* clang-format off */
#define XG_SHMEM_SYNC_WAIT_DEPRECATED_TYPES(X)                             \
    X(short, short)                                                        \
    X(int, int)                                                            \
    X(long, long)                                                          \
    X(long long, longlong)
/* clang-format on */

/**
 * @brief Deprecated names (OpenSHMEM 1.4), kept so that older programs
 * build unchanged: shmem_TYPENAME_wait(ivar, cmp_value) for short, int,
 * long and long long, and shmem_wait(ivar, cmp_value), wait until
 * @p ivar differs from @p cmp_value [shmem_TYPENAME_wait_until with
 * SHMEM_CMP_NE]; shmem_wait_until is shmem_long_wait_until.
 */
#define XG_SHMEM_DECLARE_SYNC_WAIT(TYPE, TYPENAME) \
    void shmem_##TYPENAME##_wait(TYPE *ivar, TYPE cmp_value);
XG_SHMEM_SYNC_WAIT_DEPRECATED_TYPES(XG_SHMEM_DECLARE_SYNC_WAIT)
#undef XG_SHMEM_DECLARE_SYNC_WAIT

void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);

/* ==== end point-to-point synchronization =============================== */

/* ==== C11 type-generic interface ====================================== */

/*
 * shmem_put(dest, source, nelems, pe), shmem_atomic_fetch_add(dest, value,
 * pe), shmem_wait_until(ivar, cmp, value), ... pick the typed routine from
 * the type of the data argument; with a shmem_ctx_t first argument they
 * pick the context form.  _Generic cannot tell compatible types apart, so
 * the selection is over the basic C types (int32_t, say, is int and selects
 * shmem_int_put).  A data argument of a type the routine does not support
 * selects xg_shmem_generic_type_error, whose call then fails to compile.
 * Not available in C++ or before C11, nor inside the library itself.
 */
#if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L) && \
    !defined(__cplusplus) && !defined(XGAS_INTERNAL_BUILD)

void xg_shmem_generic_type_error(void);

#define XG_G_ARG1(a, ...)    a
#define XG_G_ARG2(a, b, ...) b

/* Association lists: TABLE(ASSOC, OP) expands ASSOC(TYPE, TYPENAME, OP)
 * for each type. */
/* clang-format off */
#define XG_G_RMA_TYPES(A, OP)                                              \
    A(float, float, OP) A(double, double, OP)                              \
    A(long double, longdouble, OP) A(char, char, OP)                       \
    A(signed char, schar, OP) A(short, short, OP) A(int, int, OP)          \
    A(long, long, OP) A(long long, longlong, OP)                           \
    A(unsigned char, uchar, OP) A(unsigned short, ushort, OP)              \
    A(unsigned int, uint, OP) A(unsigned long, ulong, OP)                  \
    A(unsigned long long, ulonglong, OP)
/* clang-format on */
/* clang-format off */
#define XG_G_AMO_STD_TYPES(A, OP)                                          \
    A(int, int, OP) A(long, long, OP) A(long long, longlong, OP)           \
    A(unsigned int, uint, OP) A(unsigned long, ulong, OP)                  \
    A(unsigned long long, ulonglong, OP)
/* clang-format on */
#define XG_G_AMO_EXT_TYPES(A, OP) \
    A(float, float, OP) A(double, double, OP) XG_G_AMO_STD_TYPES(A, OP)
/* clang-format off */
#define XG_G_AMO_BIT_TYPES(A, OP)                                          \
    A(unsigned int, uint, OP) A(unsigned long, ulong, OP)                  \
    A(unsigned long long, ulonglong, OP) A(int, int32, OP)                 \
    A(long, int64, OP)
/* clang-format on */
/* clang-format off */
#define XG_G_SYNC_TYPES(A, OP)                                             \
    A(short, short, OP) A(unsigned short, ushort, OP)                      \
    XG_G_AMO_STD_TYPES(A, OP)
/* clang-format on */

#define XG_G_FN(TYPE, TYPENAME, OP)     TYPE * : shmem_##TYPENAME##_##OP,
#define XG_G_CTX_FN(TYPE, TYPENAME, OP) TYPE * : shmem_ctx_##TYPENAME##_##OP,
/* for routines whose data argument is a source (const or not) */
#define XG_G_FN_C(TYPE, TYPENAME, OP) \
    TYPE * : shmem_##TYPENAME##_##OP, const TYPE * : shmem_##TYPENAME##_##OP,
#define XG_G_CTX_FN_C(TYPE, TYPENAME, OP) \
    TYPE * : shmem_ctx_##TYPENAME##_##OP, \
             const TYPE * : shmem_ctx_##TYPENAME##_##OP,

#define XG_G_SELECT(X, TABLE, ASSOC, OP) \
    _Generic((X), TABLE(ASSOC, OP) default : xg_shmem_generic_type_error)

/* The routine for OP: plain, or the context form when the first argument
 * is a context (the data argument is then the second). */
#define XG_G_DISPATCH(TABLE, FN, CTX_FN, OP, ...)                            \
    _Generic((XG_G_ARG1(__VA_ARGS__, 0)), shmem_ctx_t                        \
             : XG_G_SELECT(XG_G_ARG2(__VA_ARGS__, 0, 0), TABLE, CTX_FN, OP), \
               default                                                       \
             : XG_G_SELECT(XG_G_ARG1(__VA_ARGS__, 0), TABLE, FN, OP))

#define XG_G_RMA(OP, ...)                                                \
    XG_G_DISPATCH(XG_G_RMA_TYPES, XG_G_FN, XG_G_CTX_FN, OP, __VA_ARGS__) \
    (__VA_ARGS__)
#define XG_G_RMA_SOURCE(OP, ...)                                             \
    XG_G_DISPATCH(XG_G_RMA_TYPES, XG_G_FN_C, XG_G_CTX_FN_C, OP, __VA_ARGS__) \
    (__VA_ARGS__)

#define shmem_put(...)            XG_G_RMA(put, __VA_ARGS__)
#define shmem_get(...)            XG_G_RMA(get, __VA_ARGS__)
#define shmem_p(...)              XG_G_RMA(p, __VA_ARGS__)
#define shmem_g(...)              XG_G_RMA_SOURCE(g, __VA_ARGS__)
#define shmem_iput(...)           XG_G_RMA(iput, __VA_ARGS__)
#define shmem_iget(...)           XG_G_RMA(iget, __VA_ARGS__)
#define shmem_ibput(...)          XG_G_RMA(ibput, __VA_ARGS__)
#define shmem_ibget(...)          XG_G_RMA(ibget, __VA_ARGS__)
#define shmem_put_nbi(...)        XG_G_RMA(put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...)        XG_G_RMA(get_nbi, __VA_ARGS__)
#define shmem_put_signal(...)     XG_G_RMA(put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) XG_G_RMA(put_signal_nbi, __VA_ARGS__)

#define XG_G_AMO(TABLE, OP, ...) \
    XG_G_DISPATCH(TABLE, XG_G_FN, XG_G_CTX_FN, OP, __VA_ARGS__)(__VA_ARGS__)

#define shmem_atomic_fetch(...)                                               \
    XG_G_DISPATCH(XG_G_AMO_EXT_TYPES, XG_G_FN_C, XG_G_CTX_FN_C, atomic_fetch, \
                  __VA_ARGS__)                                                \
    (__VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) \
    XG_G_AMO(XG_G_AMO_EXT_TYPES, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_set(...) \
    XG_G_AMO(XG_G_AMO_EXT_TYPES, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) \
    XG_G_AMO(XG_G_AMO_EXT_TYPES, atomic_swap, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) \
    XG_G_AMO(XG_G_AMO_EXT_TYPES, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_inc(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_add(...) \
    XG_G_AMO(XG_G_AMO_STD_TYPES, atomic_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_and(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_or(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_fetch_xor_nbi, __VA_ARGS__)
#define shmem_atomic_xor(...) \
    XG_G_AMO(XG_G_AMO_BIT_TYPES, atomic_xor, __VA_ARGS__)

/* Deprecated C11 names (OpenSHMEM 1.4), still part of 1.6: each is the
 * generic shmem_atomic_ routine it was renamed to, over the same types. */
#define shmem_fetch(...) shmem_atomic_fetch(__VA_ARGS__)
#define shmem_set(...)   shmem_atomic_set(__VA_ARGS__)
#define shmem_swap(...)  shmem_atomic_swap(__VA_ARGS__)
#define shmem_cswap(...) shmem_atomic_compare_swap(__VA_ARGS__)
#define shmem_finc(...)  shmem_atomic_fetch_inc(__VA_ARGS__)
#define shmem_inc(...)   shmem_atomic_inc(__VA_ARGS__)
#define shmem_fadd(...)  shmem_atomic_fetch_add(__VA_ARGS__)
#define shmem_add(...)   shmem_atomic_add(__VA_ARGS__)

/* Point-to-point synchronization: no context forms. */
#define XG_G_SYNC(OP, IVARS, ...) \
    XG_G_SELECT(IVARS, XG_G_SYNC_TYPES, XG_G_FN, OP)(IVARS, __VA_ARGS__)

#define shmem_wait_until(ivar, ...) XG_G_SYNC(wait_until, ivar, __VA_ARGS__)
#define shmem_wait_until_all(ivars, ...) \
    XG_G_SYNC(wait_until_all, ivars, __VA_ARGS__)
#define shmem_wait_until_any(ivars, ...) \
    XG_G_SYNC(wait_until_any, ivars, __VA_ARGS__)
#define shmem_wait_until_some(ivars, ...) \
    XG_G_SYNC(wait_until_some, ivars, __VA_ARGS__)
#define shmem_wait_until_all_vector(ivars, ...) \
    XG_G_SYNC(wait_until_all_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_any_vector(ivars, ...) \
    XG_G_SYNC(wait_until_any_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_some_vector(ivars, ...) \
    XG_G_SYNC(wait_until_some_vector, ivars, __VA_ARGS__)
#define shmem_test(ivar, ...)       XG_G_SYNC(test, ivar, __VA_ARGS__)
#define shmem_test_all(ivars, ...)  XG_G_SYNC(test_all, ivars, __VA_ARGS__)
#define shmem_test_any(ivars, ...)  XG_G_SYNC(test_any, ivars, __VA_ARGS__)
#define shmem_test_some(ivars, ...) XG_G_SYNC(test_some, ivars, __VA_ARGS__)
#define shmem_test_all_vector(ivars, ...) \
    XG_G_SYNC(test_all_vector, ivars, __VA_ARGS__)
#define shmem_test_any_vector(ivars, ...) \
    XG_G_SYNC(test_any_vector, ivars, __VA_ARGS__)
#define shmem_test_some_vector(ivars, ...) \
    XG_G_SYNC(test_some_vector, ivars, __VA_ARGS__)

/* Signal updates: the C11 name takes an optional context first. */
#define XG_G_SIGNAL(OP, ...)                          \
    _Generic((XG_G_ARG1(__VA_ARGS__, 0)), shmem_ctx_t \
             : shmem_ctx_##OP, default                \
             : shmem_##OP)(__VA_ARGS__)
#define shmem_signal_add(...) XG_G_SIGNAL(signal_add, __VA_ARGS__)
#define shmem_signal_set(...) XG_G_SIGNAL(signal_set, __VA_ARGS__)

#endif /* C11 */

/* ==== end C11 type-generic interface ================================== */

#ifdef __cplusplus
}
#endif

/* Teams and collectives. */
#include "xgas_shmem_coll.h"

#endif
