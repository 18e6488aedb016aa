/*
 * The typed-operation table: every operation an API applies to memory
 * element by element -- arithmetic, bitwise, logical, accumulate with a
 * scale, the swaps and fetch -- for every element type an API names.  It is
 * the one definition of what each (operation, type) computes; OpenSHMEM
 * reductions, the collective engine, the native API's atomics and the NIC's
 * Portals atomics all go through it (ARMCI accumulate and sPIN handlers
 * later).  OpenSHMEM's single-element atomics stay inline CPU atomics on
 * their fast path; on integers they compute the same thing.
 *
 * Three forms:
 *   xg_op_kernel()  a loop dst[i] = dst[i] OP src[i] specialised per
 *                   (operation, type), for reductions: aligned arrays,
 *                   operations without an operand;
 *   xg_op_apply()   any operation on n elements of any alignment, with an
 *                   operand (compare value, mask or scale) and the prior
 *                   values fetched out; plain loads and stores;
 *   xg_op_atomic()  one naturally aligned element of 1, 2, 4 or 8 bytes,
 *                   applied with CPU atomic instructions (a compare-and-
 *                   swap loop for operations the CPU has no instruction
 *                   for, and for floating point and complex), so it is
 *                   atomic against every other CPU atomic on that word.
 *
 * Semantics, with d the destination element, s the source element and x
 * the operand (one element for the whole call):
 *   SUM d + s    PROD d * s    (integers wrap around: computed unsigned)
 *   MIN s < d ? s : d    MAX s > d ? s : d    (so a NaN in d stays and a
 *                        NaN in s leaves d unchanged, as OpenSHMEM's
 *                        reductions have always done)
 *   BAND/BOR/BXOR d & s, d | s, d ^ s   LAND/LOR/LXOR 0 or 1
 *   ACC  d + x * s   (ARMCI accumulate with scale x)
 *   SWAP s   CSWAP(_NE/_LE/_LT/_GE/_GT) (x REL d) ? s : d   (Portals)
 *   MSWAP (d & ~x) | (s & x)   FETCH d (unchanged; only the fetch counts)
 * Integers support every operation; real types all but the bitwise and
 * logical ones and MSWAP; complex types SUM, PROD, ACC, SWAP, CSWAP,
 * CSWAP_NE and FETCH (xg_op_valid).  Base knows no PEs: these functions
 * touch only the memory they are given.
 */
#ifndef XG_OP_H
#define XG_OP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef enum xg_op {
    /* element-wise: xg_op_kernel() has a loop for each */
    XG_OP_SUM,
    XG_OP_PROD,
    XG_OP_MIN,
    XG_OP_MAX,
    XG_OP_BAND,
    XG_OP_BOR,
    XG_OP_BXOR,
    XG_OP_LAND,
    XG_OP_LOR,
    XG_OP_LXOR,
    /* with the operand x, or for the fetch */
    XG_OP_ACC,
    XG_OP_SWAP,
    XG_OP_CSWAP,
    XG_OP_CSWAP_NE,
    XG_OP_CSWAP_LE,
    XG_OP_CSWAP_LT,
    XG_OP_CSWAP_GE,
    XG_OP_CSWAP_GT,
    XG_OP_MSWAP,
    XG_OP_FETCH,
    XG_OP_COUNT
} xg_op_t;

#define XG_OP_KERNEL_COUNT (XG_OP_LXOR + 1)

typedef enum xg_op_type {
    XG_TYPE_I8,
    XG_TYPE_U8,
    XG_TYPE_I16,
    XG_TYPE_U16,
    XG_TYPE_I32,
    XG_TYPE_U32,
    XG_TYPE_I64,
    XG_TYPE_U64,
    XG_TYPE_FLOAT,
    XG_TYPE_DOUBLE,
    XG_TYPE_LDOUBLE,
    XG_TYPE_CFLOAT,
    XG_TYPE_CDOUBLE,
    XG_TYPE_CLDOUBLE,
    XG_TYPE_COUNT
} xg_op_type_t;

/* The integer type of @size bytes (1, 2, 4, 8) and signedness. */
#define XG_TYPE_INT(size, is_signed)            \
    ((xg_op_type_t)(2 * (((size) == 1)   ? 0    \
                         : ((size) == 2) ? 1    \
                         : ((size) == 4) ? 2    \
                                         : 3) + \
                    !(is_signed)))

/* The table's type for the C type @T (every OpenSHMEM reduction type). */
#define XG_TYPE_OF(T)                                                \
    _Generic((T)0, char                                              \
             : XG_TYPE_INT(1, CHAR_MIN < 0), signed char             \
             : XG_TYPE_I8, unsigned char                             \
             : XG_TYPE_U8, short                                     \
             : XG_TYPE_INT(sizeof(short), 1), unsigned short         \
             : XG_TYPE_INT(sizeof(short), 0), int                    \
             : XG_TYPE_INT(sizeof(int), 1), unsigned int             \
             : XG_TYPE_INT(sizeof(int), 0), long                     \
             : XG_TYPE_INT(sizeof(long), 1), unsigned long           \
             : XG_TYPE_INT(sizeof(long), 0), long long               \
             : XG_TYPE_INT(sizeof(long long), 1), unsigned long long \
             : XG_TYPE_INT(sizeof(long long), 0), float              \
             : XG_TYPE_FLOAT, double                                 \
             : XG_TYPE_DOUBLE, long double                           \
             : XG_TYPE_LDOUBLE, float _Complex                       \
             : XG_TYPE_CFLOAT, double _Complex                       \
             : XG_TYPE_CDOUBLE, long double _Complex                 \
             : XG_TYPE_CLDOUBLE)

/* Bytes of one element of @type (0 for a value outside the enum). */
size_t xg_op_type_size(xg_op_type_t type);

/* Whether @op is defined on @type (0 also for values outside the enums). */
int xg_op_valid(xg_op_t op, xg_op_type_t type);

/* dst[i] = dst[i] OP src[i], i < n; both arrays aligned for the type and
 * disjoint. */
typedef void (*xg_op_kernel_t)(void *dst, const void *src, size_t n);

/* The loop of an element-wise @op (< XG_OP_KERNEL_COUNT) on @type, or
 * NULL when the pair is not valid. */
xg_op_kernel_t xg_op_kernel(xg_op_t op, xg_op_type_t type);

/*
 * Applies @op to @n elements of @type at @dst, which need no alignment:
 * the prior values go to @fetch (NULL: not wanted), @src holds n elements
 * (NULL for FETCH), @operand one element (compare value, mask or scale;
 * NULL reads as zero).  No buffer overlaps another.  An invalid pair
 * changes nothing.  Plain loads and stores: atomic against nothing.
 */
void xg_op_apply(xg_op_t op, xg_op_type_t type, void *dst, const void *src,
                 const void *operand, void *fetch, size_t n);

/*
 * Applies @op atomically to the one element of @type at @target with CPU
 * atomic instructions; @src, @operand and @fetch as for xg_op_apply (one
 * element each).  Returns 1 when done, 0 (nothing done) when the element
 * cannot be updated that way: wider than 8 bytes (long double, double and
 * long double complex) or not aligned to its size.  The pair must be
 * valid.  Sequentially consistent.
 */
int xg_op_atomic(xg_op_t op, xg_op_type_t type, void *target, const void *src,
                 const void *operand, void *fetch);

#endif
