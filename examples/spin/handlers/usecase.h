/*
 * What the use-case handlers of this directory share with the programs
 * that drive them: the layouts of handler memory, requests and replies.
 * Handler files include it after <handler.h>; host programs after
 * <stdint.h>.
 */
#ifndef XGAS_SPIN_USECASE_H
#define XGAS_SPIN_USECASE_H

#include <stdint.h>

/* reduce.c and histogram.c: element-wise sums (or bins) are kept per
 * cluster in the context's scratchpads; when the completion handler of
 * the last expected message has run, the sum of the four clusters goes
 * to the host window at UC_RESULT_OFF and the number of messages to the
 * word at 0. */
typedef struct uc_reduce_mem {
    uint32_t elems;    /* elements of the vector (int32) / of bins */
    uint32_t expected; /* messages to reduce (0: never publish) */
    volatile int32_t done;
    uint32_t pad_;
    int32_t result[]; /* staging of the sum, elems entries */
} uc_reduce_mem_t;

#define UC_RESULT_OFF 64u
#define UC_HIST_BINS  1024u

/* filtering.c: an open-addressing table of source ids -> UDP port in
 * handler memory; matching packets, their port rewritten, go to the host
 * window's slots of UC_FILTER_SLOT bytes, in order of a counter. */
typedef struct uc_filter_entry {
    uint32_t key;   /* ip_hdr.source_id + 1 (0: empty) */
    uint32_t value; /* the new UDP destination port */
} uc_filter_entry_t;

typedef struct uc_filter_mem {
    uint32_t slots;           /* entries, a power of two */
    volatile int32_t matched; /* packets written to the host */
    volatile int32_t dropped; /* packets without an entry */
    uint32_t pad_;
    uc_filter_entry_t table[];
} uc_filter_mem_t;

#define UC_FILTER_SLOT 2048u

static inline uint32_t uc_filter_hash(uint32_t key)
{
    key ^= key >> 16;
    key *= 0x7feb352du;
    key ^= key >> 15;
    key *= 0x846ca68bu;
    key ^= key >> 16;
    return key;
}

/* kvstore.c: a set-associative key-value cache in handler memory (the
 * paper's kvstore: 4 ways, the set is key % sets).  A request is one
 * packet whose UDP payload is a uc_kv_msg_t; a GET is answered by a
 * packet sent back to the requester with op UC_KV_REPLY (hit says if the
 * key was there); a SET stores, evicting the set's oldest entry. */
enum {
    UC_KV_GET   = 1,
    UC_KV_SET   = 2,
    UC_KV_REPLY = 3
};
#define UC_KV_WAYS 4

typedef struct uc_kv_msg {
    uint32_t op;
    uint32_t key;
    uint64_t value;
    uint32_t hit;
    uint32_t client; /* the requester's tag, echoed */
} uc_kv_msg_t;

typedef struct uc_kv_entry {
    uint32_t key; /* key + 1 (0: empty) */
    uint32_t age; /* when it was set (per set) */
    uint64_t value;
} uc_kv_entry_t;

typedef struct uc_kv_set {
    volatile uint32_t lock;
    uint32_t clock;
    uc_kv_entry_t way[UC_KV_WAYS];
} uc_kv_set_t;

typedef struct uc_kv_mem {
    uint32_t sets;
    volatile int32_t gets, sets_done, hits;
    uc_kv_set_t set[];
} uc_kv_mem_t;

/* strided.c: the message's bytes are a contiguous stream of blocks that
 * land in the host window with a stride (an MPI vector datatype):
 * stream byte b goes to (b / block) * stride + b % block. */
typedef struct uc_strided_mem {
    uint32_t block;
    uint32_t stride;
    uint64_t flag_off; /* the completion handler writes 1 there */
} uc_strided_mem_t;

#endif
