/*
 * The native API (include/xgas.h) across PEs: global addresses of heap
 * objects and globals, single-element and bulk transfers, atomics under
 * contention, and the error codes (the native API returns them instead of
 * ending the job).
 */
#include <string.h>

#include "xg_test.h"
#include "xgas.h"

#define ITERS 2000

uint64_t global_counter;
static uint32_t static_words[16];

static xg_gaddr_t at(const void *sym, int pe)
{
    xg_gaddr_t gaddr;

    XG_CHECK(xg_gaddr(sym, pe, &gaddr) == XG_OK, "xg_gaddr(%p, %d)", sym, pe);
    return gaddr;
}

int main(void)
{
    int me, npes, next, pe, i;
    uint8_t *bulk, local[5000];
    uint64_t *heap_words, value, old;
    uint32_t value32;
    xg_gaddr_t gaddr;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;
    next       = (me + 1) % npes;
    XG_CHECK(xg_malloc(5000, (void **)&bulk) == XG_OK, "malloc bulk");
    XG_CHECK(xg_malloc(8 * sizeof(uint64_t), (void **)&heap_words) == XG_OK,
             "malloc words");

    /* namespaces */
    gaddr = at(heap_words, next);
    XG_CHECK(gaddr.ns == (uint64_t)next + 1, "namespace of PE %d", next);
    XG_CHECK(xg_gaddr_pe(gaddr) == next, "owner of a global address");
    XG_CHECK(xg_gaddr_pe(xg_gaddr_local(local)) == me, "owner of ns 0");
    XG_CHECK(xg_gaddr_ptr(xg_gaddr_local(local)) == local,
             "namespace 0 is a plain pointer");

    /* single-element puts of every width into the next PE */
    XG_CHECK(xg_put64(at(&heap_words[0], next), 0x1122334455667788ULL + me) ==
                 XG_OK,
             "put64");
    XG_CHECK(xg_put32(at(&static_words[1], next), 0xabcd0000u + (uint32_t)me) ==
                 XG_OK,
             "put32 into a static");
    XG_CHECK(xg_put16(at(&heap_words[1], next), (uint16_t)(0x4242 + me)) ==
                 XG_OK,
             "put16");
    XG_CHECK(xg_put8(xg_gaddr_add(at(&heap_words[1], next), 7),
                     (uint8_t)(0x10 + me)) == XG_OK,
             "put8");
    /* bulk put of an odd length */
    for (i = 0; i < 5000; i++) {
        local[i] = (uint8_t)(i * 7 + me);
    }
    XG_CHECK(xg_put(at(bulk, next), local, 4999) == XG_OK, "bulk put");
    xg_barrier();
    pe = (me + npes - 1) % npes;
    XG_CHECK(heap_words[0] == 0x1122334455667788ULL + (uint64_t)pe,
             "put64 result %llx", (unsigned long long)heap_words[0]);
    XG_CHECK(static_words[1] == 0xabcd0000u + (uint32_t)pe, "put32 result");
    XG_CHECK((uint16_t)heap_words[1] == 0x4242 + pe, "put16 result");
    XG_CHECK(((uint8_t *)&heap_words[1])[7] == 0x10 + pe, "put8 result");
    for (i = 0; i < 4999; i++) {
        XG_CHECK(bulk[i] == (uint8_t)(i * 7 + pe), "bulk byte %d", i);
    }

    /* gets */
    XG_CHECK(xg_get64(at(&heap_words[0], next), &value) == XG_OK, "get64");
    XG_CHECK(value == 0x1122334455667788ULL + (uint64_t)me, "get64 value");
    XG_CHECK(xg_get32(at(&static_words[1], next), &value32) == XG_OK, "get32");
    XG_CHECK(value32 == 0xabcd0000u + (uint32_t)me, "get32 value");
    memset(local, 0, sizeof(local));
    XG_CHECK(xg_get(local, at(bulk, next), 4999) == XG_OK, "bulk get");
    for (i = 0; i < 4999; i++) {
        XG_CHECK(local[i] == (uint8_t)(i * 7 + me), "bulk get byte %d", i);
    }
    xg_barrier();

    /* atomics: everyone adds into PE 0's global counter */
    for (i = 0; i < ITERS; i++) {
        XG_CHECK(xg_atomic_fetch_op64(at(&global_counter, 0), XG_AMO_ADD, 1,
                                      NULL) == XG_OK,
                 "fetch_add");
    }
    xg_barrier();
    XG_CHECK(xg_atomic_load64(at(&global_counter, 0), &value) == XG_OK,
             "atomic load");
    XG_CHECK(value == (uint64_t)npes * ITERS, "counter %llu, expected %llu",
             (unsigned long long)value, (unsigned long long)npes * ITERS);
    xg_barrier();
    /* compare-and-swap: exactly one PE wins */
    if (me == 0) {
        xg_atomic_store64(at(&heap_words[2], 0), 0);
    }
    xg_barrier();
    XG_CHECK(xg_atomic_cswap64(at(&heap_words[2], 0), 0, (uint64_t)me + 1,
                               &old) == XG_OK,
             "cswap");
    XG_CHECK(xg_atomic_fetch_op64(at(&heap_words[3], 0), XG_AMO_ADD,
                                  (old == 0) ? 1 : 0, NULL) == XG_OK,
             "count winners");
    xg_barrier();
    if (me == 0) {
        XG_CHECK(heap_words[3] == 1, "%llu cswap winners",
                 (unsigned long long)heap_words[3]);
    }
    /* bitwise ops and swap on 32-bit words */
    xg_atomic_store32(at(&static_words[0], me), 0xf0f0f0f0u);
    XG_CHECK(xg_atomic_fetch_op32(at(&static_words[0], me), XG_AMO_AND,
                                  0x0ff00ff0u, &value32) == XG_OK,
             "and");
    XG_CHECK(value32 == 0xf0f0f0f0u, "and returned the old value");
    xg_atomic_fetch_op32(at(&static_words[0], me), XG_AMO_OR, 1, NULL);
    xg_atomic_fetch_op32(at(&static_words[0], me), XG_AMO_XOR, 0x10, NULL);
    XG_CHECK(xg_atomic_fetch_op32(at(&static_words[0], me), XG_AMO_SWAP, 7,
                                  &value32) == XG_OK,
             "swap");
    XG_CHECK(value32 == (((0xf0f0f0f0u & 0x0ff00ff0u) | 1u) ^ 0x10u),
             "and/or/xor result %x", value32);
    XG_CHECK(static_words[0] == 7, "swap result");

    /* errors are returned, not fatal */
    gaddr.ns  = (uint64_t)npes + 1;
    gaddr.off = 0;
    XG_CHECK(xg_put64(gaddr, 1) == XG_ERR_PE_RANGE, "namespace out of range");
    XG_CHECK(xg_gaddr(local, 0, &gaddr) == XG_ERR_NOT_SYMMETRIC,
             "stack address accepted");
    XG_CHECK(xg_gaddr(bulk, npes, &gaddr) == XG_ERR_PE_RANGE,
             "PE out of range accepted");
    /* heap_words is the highest object: 65 bytes run past the heap top */
    XG_CHECK(xg_put(at(heap_words, next), local, 65) == XG_ERR_OUT_OF_BOUNDS,
             "range past the end accepted");
    XG_CHECK(xg_atomic_fetch_op64(xg_gaddr_add(at(heap_words, next), 4),
                                  XG_AMO_ADD, 1, NULL) == XG_ERR_MISALIGNED,
             "misaligned atomic accepted");
    XG_CHECK(xg_atomic_fetch_op64(at(heap_words, next), (xg_amo_op_t)99, 1,
                                  NULL) == XG_ERR_INVALID_PARAM,
             "unknown atomic op accepted");

    XG_CHECK(xg_free(bulk) == XG_OK, "free");
    XG_CHECK(xg_free(heap_words) == XG_OK, "free");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return 0;
}
