/*
 * The message of batched atomics (amo_batch.c) on the wire: an array of
 * records, each one atomic of the four without a result or a put of at
 * most 8 bytes, applied at the target in order.  A pure description and check of the bytes, so that
 * the fuzzer (tests/fuzz/fuzz_amo_batch.c) tests what the target trusts.
 */
#ifndef XG_GAS_AMO_WIRE_H
#define XG_GAS_AMO_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* @where: the partition offset in the low 56 bits, the operation in the
 * next 4 (xg_gas_amo_t: add, and, or, xor; or XG_GAS_AMO_REC_PUT) and, in
 * bit 60, an atomic's 32-bit word (else 64); the top 3 bits are a put's
 * length less one (else 0).  @value: the operand (a 32-bit one
 * zero-extended), or a put's bytes from its first. */
typedef struct xg_gas_amo_rec {
    uint64_t where;
    uint64_t value;
} xg_gas_amo_rec_t;

#define XG_GAS_AMO_REC_OFFSET_MASK ((UINT64_C(1) << 56) - 1)
#define XG_GAS_AMO_REC_OP_SHIFT    56
#define XG_GAS_AMO_REC_WORD32      (UINT64_C(1) << 60)
#define XG_GAS_AMO_REC_PUT         4u
#define XG_GAS_AMO_REC_LEN_SHIFT   61

/* Records per message at most. */
#define XG_GAS_AMO_REC_MAX 255

/* The record of @op (0..3) on the word of @size (4 or 8) bytes at
 * partition offset @off. */
static inline xg_gas_amo_rec_t xg_gas_amo_rec(uint64_t off, unsigned op,
                                              size_t size, uint64_t value)
{
    xg_gas_amo_rec_t rec = {off | ((uint64_t)op << XG_GAS_AMO_REC_OP_SHIFT) |
                                ((size == 4) ? XG_GAS_AMO_REC_WORD32 : 0),
                            (size == 4) ? (uint32_t)value : value};

    return rec;
}

/* The record of a put of @len (1..8) bytes at @src to offset @off. */
static inline xg_gas_amo_rec_t xg_gas_amo_rec_put(uint64_t off, const void *src,
                                                  size_t len)
{
    xg_gas_amo_rec_t rec = {
        off | ((uint64_t)XG_GAS_AMO_REC_PUT << XG_GAS_AMO_REC_OP_SHIFT) |
            ((uint64_t)(len - 1) << XG_GAS_AMO_REC_LEN_SHIFT),
        0};

    __builtin_memcpy(&rec.value, src, len);
    return rec;
}

static inline uint64_t xg_gas_amo_rec_offset(const xg_gas_amo_rec_t *rec)
{
    return rec->where & XG_GAS_AMO_REC_OFFSET_MASK;
}

static inline unsigned xg_gas_amo_rec_op(const xg_gas_amo_rec_t *rec)
{
    return (unsigned)((rec->where >> XG_GAS_AMO_REC_OP_SHIFT) & 0xfu);
}

/* The bytes the record changes: an atomic's word, a put's length. */
static inline size_t xg_gas_amo_rec_size(const xg_gas_amo_rec_t *rec)
{
    if (xg_gas_amo_rec_op(rec) == XG_GAS_AMO_REC_PUT) {
        return (size_t)(rec->where >> XG_GAS_AMO_REC_LEN_SHIFT) + 1;
    }
    return (rec->where & XG_GAS_AMO_REC_WORD32) ? 4 : 8;
}

/* The number of records in the @len bytes at @data (8-byte aligned), or 0
 * if any of it is malformed: a length that is not a whole number of
 * records (1..XG_GAS_AMO_REC_MAX), an unknown operation, a put with the
 * 32-bit flag or an atomic with a length, a 32-bit operand above 32 bits,
 * an atomic's offset not aligned to its word's size, bytes past the end
 * of a partition of @part_size bytes. */
size_t xg_gas_amo_msg_check(const void *data, size_t len, uint64_t part_size);

#endif
