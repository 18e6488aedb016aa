/*
 * The global address space (xBGAS).  A global address is 128 bits:
 * (namespace, offset).  Namespace 0 always means "local": the offset is a
 * plain virtual address of this process.  Namespace n >= 1 names PE n-1's
 * symmetric memory, and the offset locates data inside it (offset = position
 * in the PE's partition: heap first, then the data window of its globals).
 *
 * The namespace table maps each namespace to its owner and to the base at
 * which this process reaches it, plus the extent of live symmetric objects;
 * it is updated whenever symmetric memory is allocated or freed.  A small
 * fully-associative LRU cache, the namespace lookaside buffer (NLB), sits in
 * front of the table; each thread has its own, as each core has its own NLB
 * in xBGAS, so lookups take no lock.
 *
 * Fast path (xg_gas_translate_fast): NLB hit on the most recent entry
 * (which also proves the PE valid), bounds check against the live heap or
 * the globals' data window, pointer -- no call.  Everything else -- NLB
 * misses, errors -- is in xg_gas_translate, out of line.
 */
#ifndef XG_GAS_H
#define XG_GAS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_wait.h"
#include "mem/xg_mem.h"
#include "xgas.h"

#define XG_NLB_MAX_ENTRIES 64

/* The first bytes of every symmetric heap are allocated by xg_gas_init and
 * never freed, so a heap's live extent (heap_top) is never below this: the
 * fast path then checks an access of constant length up to this size with
 * one comparison, as top - len cannot wrap around.  The heap is larger
 * than SHMEM_SYMMETRIC_SIZE by XG_MEM_HEAP_EXTRA, so these bytes are not
 * taken from the program's. */
#define XG_GAS_HEAP_RESERVED 64

/* How this process reaches a PE's memory.  Direct: CPU loads, stores and
 * atomics at base + offset (PEs of this node).  NIC: operations through
 * the software NIC at the PE's partition offset (gas/xg_gas_nic.h; every
 * PE with XGAS_ROUTE=nic, later the PEs of other nodes); unreachable while
 * gas has not opened the NIC.  Only direct rows ever enter an NLB. */
typedef enum xg_gas_route {
    XG_GAS_ROUTE_DIRECT = 0,
    XG_GAS_ROUTE_NIC
} xg_gas_route_t;

typedef struct xg_ns_entry {
    uintptr_t base;    /* where this process reaches offset 0 */
    uint64_t heap_top; /* [0, heap_top) holds every live heap object */
    uint64_t data_off; /* data window: [data_off, data_end) */
    uint64_t data_end;
    int owner; /* PE that owns the memory */
    xg_gas_route_t route;
} xg_ns_entry_t;

typedef struct xg_nlb {
    uint64_t tag[XG_NLB_MAX_ENTRIES]; /* namespace, 0 = empty */
    const xg_ns_entry_t *entry[XG_NLB_MAX_ENTRIES];
    uint64_t hits;
    uint64_t misses;
    struct xg_nlb *next; /* registry of threads */
} xg_nlb_t;

typedef struct xg_gas {
    int me;
    int npes;        /* 0 until initialized */
    int poll_remote; /* waits poll the NIC (a route uses it) */
    unsigned nlb_size;
    uintptr_t heap_lo; /* this PE's heap (= its partition) */
    uintptr_t data_lo; /* this PE's globals, native address */
    uint64_t data_size;
    uint64_t data_off;
    xg_ns_entry_t *table;  /* indexed by namespace, npes + 1 rows */
    _Atomic int nic_route; /* the NIC route (route_nic.c): 0 down,
                                   * 1 opening or closing, 2 carrying */
} xg_gas_t;

extern xg_gas_t xg_gas;
/*
 * This thread's NLB.  Only the pointer is thread-local, with the
 * initial-exec model (one %fs-relative load, no call); the NLB itself
 * (1 KiB) is allocated on the thread's first miss.  Until then the pointer
 * names an empty NLB shared by every thread, whose tags (0) match no
 * namespace, so the fast paths below never write to it.  A 1 KiB
 * initial-exec variable had to come out of glibc's static-TLS surplus
 * when libxgas is dlopen'ed (shmem4py), and did not fit beside other
 * initial-exec users (docs/shmem.md, "Loading xgas at run time").
 */
extern __thread xg_nlb_t *xg_nlb_tls __attribute__((tls_model("initial-exec")));

/* The layer's life (life.c): the namespace table, then the NIC route when
 * the job needs it, then translation is switched on; fini in reverse, the
 * regions first. */
xg_status_t xg_gas_init(void);
void xg_gas_fini(void);

/* The steps of the namespace table (gas.c) that xg_gas_init and
 * xg_gas_fini take around the routes: open fills the rows and reserves
 * gas's bytes of the heap, publish switches translation on (last),
 * close switches it off and empties every thread's NLB. */
xg_status_t xg_gas_table_open(void);
void xg_gas_table_publish(void);
void xg_gas_table_close(void);

/* Where this process reaches the start of PE @pe's partition: a PE on the
 * direct route (of this node). */
static inline uintptr_t xg_gas_part(int pe)
{
    return xg_gas.table[pe + 1].base;
}

const xg_ns_entry_t *xg_nlb_lookup_slow(xg_nlb_t *nlb, uint64_t ns);

/* Namespace table row for @ns (1..npes) through the NLB. */
static inline const xg_ns_entry_t *xg_nlb_lookup(uint64_t ns)
{
    xg_nlb_t *nlb = xg_nlb_tls;

    if (xg_likely(nlb->tag[0] == ns)) {
        nlb->hits++;
        return nlb->entry[0];
    }
    return xg_nlb_lookup_slow(nlb, ns);
}

/*
 * The fast path of translation, with no function call in it: the most
 * recently used NLB entry names @pe's namespace and the range lies in the
 * live heap.  Returns NULL in every other case -- including perfectly valid
 * ones (NLB miss, a global variable) -- which xg_gas_translate handles.
 *
 * No separate PE range check is needed: the NLB only ever holds namespaces
 * 1..npes, and the tag is computed from the zero-extended PE, so a negative
 * or too large PE (and any PE before init or after fini, when every NLB is
 * empty) misses and goes to the slow path, which diagnoses it.
 */
static XG_ALWAYS_INLINE void *xg_gas_translate_fast(const void *addr,
                                                    size_t len, int pe)
{
    uintptr_t off = (uintptr_t)addr - xg_gas.heap_lo;
    uintptr_t data_off;
    xg_nlb_t *nlb = xg_nlb_tls;
    const xg_ns_entry_t *entry;
    uint64_t top;
    int in_heap;

    if (xg_unlikely(nlb->tag[0] != (uint64_t)(unsigned)pe + 1)) {
        return NULL;
    }
    nlb->hits++;
    entry = nlb->entry[0];
    /* relaxed: the extent only changes in collective allocation calls */
    top = __atomic_load_n(&entry->heap_top, __ATOMIC_RELAXED);
    if (__builtin_constant_p(len) && (len <= XG_GAS_HEAP_RESERVED)) {
        /* top >= XG_GAS_HEAP_RESERVED (see there): top - len cannot wrap */
        in_heap = off <= top - len;
    } else {
        in_heap = (off < top) && (len <= top - off);
    }
    if (xg_likely(in_heap)) {
        if (entry->base + off == 0) {
            __builtin_unreachable(); /* lets callers drop their NULL test */
        }
        return (void *)(entry->base + off);
    }
    /* a global variable: the data window sits at the same offset in every
     * partition */
    data_off = (uintptr_t)addr - xg_gas.data_lo;
    if ((data_off < xg_gas.data_size) && (len <= xg_gas.data_size - data_off)) {
        return (void *)(entry->base + xg_gas.data_off + data_off);
    }
    return NULL;
}

/*
 * Pointer through which this PE reaches @len bytes at symmetric address
 * @addr (heap object or global variable) on PE @pe, or NULL if the PE or
 * the range is not valid (xg_gas_diagnose tells why).  Never locks.
 */
void *xg_gas_translate(const void *addr, size_t len, int pe);

/* Whether @len bytes at @addr on @pe can be accessed, and if not why
 * (XG_ERR_UNREACHABLE: the PE has no route).  XG_OK where
 * xg_gas_translate gives NULL: the PE is reached through the NIC. */
xg_status_t xg_gas_diagnose(const void *addr, size_t len, int pe);

/*
 * Copies @len bytes to or from translated memory.  One register-width,
 * naturally aligned element takes the single-element path (one load and one
 * store, as an xBGAS eld/esd); anything else the bulk path (memcpy).
 */
static inline void xg_gas_copy(void *dst, const void *src, size_t len)
{
    if (((len == 1) || (len == 2) || (len == 4) || (len == 8)) &&
        ((((uintptr_t)dst | (uintptr_t)src) & (len - 1)) == 0)) {
        switch (len) {
        case 1: *(volatile uint8_t *)dst = *(const uint8_t *)src; return;
        case 2: *(volatile uint16_t *)dst = *(const uint16_t *)src; return;
        case 4: *(volatile uint32_t *)dst = *(const uint32_t *)src; return;
        default: *(volatile uint64_t *)dst = *(const uint64_t *)src; return;
        }
    }
    memcpy(dst, src, len);
}

/* Offset of @addr inside this PE's symmetric memory (heap or globals) --
 * the same object's offset in every PE's partition -- or UINT64_MAX if it
 * is in neither. */
uint64_t xg_gas_offset(const void *addr);

/* Writes a description of the symmetric ranges of this PE (for messages). */
void xg_gas_describe_ranges(char *buf, size_t len);

/* Writes why @len bytes at @addr on @pe cannot be accessed, given the
 * status an operation returned, and what to change -- for a binding's
 * message after its routine's name.  @alloc names the binding's symmetric
 * allocator, @sizes what to check when a range runs past the end (e.g.
 * "the length and the object's size"). */
void xg_gas_describe_access(xg_status_t status, const void *addr, size_t len,
                            int pe, const char *alloc, const char *sizes,
                            char *buf, size_t buflen);

/* Global address of symmetric @addr on @pe (XG_ERR_* when not symmetric). */
xg_status_t xg_gas_make(const void *addr, int pe, xg_gaddr_t *gaddr_p);

/* Pointer for @len bytes at @gaddr, or NULL (with *status_p set). */
void *xg_gas_resolve(xg_gaddr_t gaddr, size_t len, xg_status_t *status_p);

/* Symmetric heap allocation: updates the namespace table. Collective
 * ordering (the same calls on every PE) is the caller's duty. */
xg_status_t xg_gas_alloc(size_t size, size_t align, void **ptr_p);
xg_status_t xg_gas_realloc(void *ptr, size_t size, void **ptr_p);
/* The block of @size bytes at partition offset @off if it is free
 * (regions: members agree on the offset, xg_gas_region.h). */
xg_status_t xg_gas_alloc_at(uint64_t off, size_t size, void **ptr_p);
/* Drops every region (gas_fini: the heap goes with the job). */
void xg_gas_region_fini(void);
/* Region and active-message counters on stderr (XGAS_STATS). */
void xg_gas_region_print_stats(void);
xg_status_t xg_gas_free(void *ptr);

/* Why the symmetric heap could not give a block: what the bindings'
 * messages say after xg_gas_alloc (or xg_gas_region_alloc) returned
 * XG_ERR_NO_MEMORY or could not align; each words it in its own terms. */
typedef struct xg_gas_heap_diag {
    uint64_t heap;         /* bytes of the whole heap, xgas's own included */
    uint64_t program;      /* the program's bytes of it (SHMEM_SYMMETRIC_SIZE
                            * or the node's share) */
    uint64_t largest_free; /* the heap's largest free block */
    uint64_t program_free; /* the same, at most program (the rest is
                            * xgas's) */
    uint64_t max_align;    /* the largest alignment the heap gives */
    uint64_t node_memory;  /* the node's bytes when the heap was sized from
                            * them (mem/xg_mem.h), else 0 */
    int node_pes;          /* PEs of this node */
    int too_large;         /* @size is more than the whole heap */
} xg_gas_heap_diag_t;

/* The diagnosis of this PE's heap for a request of @size bytes. */
XG_EXPORT void xg_gas_heap_diagnose(uint64_t size, xg_gas_heap_diag_t *diag);

/* 1 with *@offset_p = @ptr's offset in this PE's symmetric heap (the same
 * on every PE for one object), 0 if @ptr is not in the heap. */
XG_EXPORT int xg_gas_heap_offset(const void *ptr, uint64_t *offset_p);

/* Memory ordering of same-node access.  fence: puts and stores to one PE
 * become visible in order (a release fence; x86 keeps ordinary stores in
 * order, but not non-temporal ones -- a program's movnt through shmem_ptr
 * -- which need the store fence).  quiet: every earlier access is complete
 * and visible before any later one (a full fence, which orders those
 * too). */
static inline void xg_gas_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#endif
    atomic_thread_fence(memory_order_release);
}

static inline void xg_gas_quiet(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

/* Runs the NIC's progress once (route_nic.c); returns what it handled. */
unsigned xg_gas_poll_remote(void);

/*
 * A poll of a wait of gas that failed: back off -- and, when some PE is
 * reached through the NIC, make the NIC progress first: what the wait is
 * for may be a packet this PE must handle, or bytes that a network with
 * manual progress moves only when this process reads its queues.  The
 * progress thread does it too, but a waiting thread that does it itself
 * sees the answer without a thread switch.
 */
static inline void xg_gas_wait_backoff(xg_wait_t *wait)
{
    if (xg_unlikely(xg_gas.poll_remote)) {
        xg_wait_net_backoff(wait, xg_gas_poll_remote());
    } else {
        xg_wait_backoff(wait);
    }
}

/* Barrier over all PEs (no memory completion beyond acquire/release on the
 * barrier itself; callers add xg_gas_quiet for shmem_barrier_all). */
void xg_gas_barrier(void);

/* The same, naming @routine (the API routine called) in messages and hang
 * reports.  Exported for libarmci. */
XG_EXPORT void xg_gas_barrier_named(const char *routine);

/* NLB counters summed over every thread (for XGAS_STATS). */
void xg_gas_nlb_stats(uint64_t *hits_p, uint64_t *misses_p);

#endif
