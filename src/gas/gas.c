/*
 * Namespace table, per-thread NLBs and the slow paths of translation.
 *
 * The table has npes + 1 rows (row 0, the local namespace, is unused: a
 * local global address is already a pointer).  It lives for the whole
 * process so that no NLB ever points to freed memory.  A thread's NLB is
 * allocated and registered on its first miss (until then xg_nlb_tls names
 * the shared empty one); when the thread exits its counts are folded into
 * the retired totals and it is freed.
 */
#include "gas/xg_gas.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "gas/xg_gas_nic.h"

xg_gas_t xg_gas;
/* Every thread's NLB before its first miss: never written (see
 * xg_gas.h), so it stays empty. */
static xg_nlb_t nlb_empty;
__thread xg_nlb_t *xg_nlb_tls __attribute__((tls_model("initial-exec"))) =
    &nlb_empty;

static pthread_mutex_t nlb_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static xg_nlb_t *nlb_registry;
static uint64_t nlb_retired_hits, nlb_retired_misses;
static pthread_key_t nlb_exit_key;
static pthread_once_t nlb_key_once = PTHREAD_ONCE_INIT;

static void nlb_thread_exit(void *arg)
{
    xg_nlb_t *nlb = arg, **link;

    pthread_mutex_lock(&nlb_registry_lock);
    for (link = &nlb_registry; *link != NULL; link = &(*link)->next) {
        if (*link == nlb) {
            *link = nlb->next;
            break;
        }
    }
    nlb_retired_hits += nlb->hits;
    nlb_retired_misses += nlb->misses;
    pthread_mutex_unlock(&nlb_registry_lock);
    /* a later translation of this thread (another key's destructor)
     * allocates a new one, which the next destructor round frees */
    xg_nlb_tls = &nlb_empty;
    free(nlb);
}

static void nlb_make_key(void)
{
    pthread_key_create(&nlb_exit_key, nlb_thread_exit);
}

/* This thread's own NLB, allocated and registered now; NULL without
 * memory (translation then goes to the table every time). */
static xg_nlb_t *nlb_create(void)
{
    xg_nlb_t *nlb = calloc(1, sizeof(*nlb));

    if (nlb == NULL) {
        return NULL;
    }
    pthread_once(&nlb_key_once, nlb_make_key);
    pthread_setspecific(nlb_exit_key, nlb);
    pthread_mutex_lock(&nlb_registry_lock);
    nlb->next    = nlb_registry;
    nlb_registry = nlb;
    pthread_mutex_unlock(&nlb_registry_lock);
    xg_nlb_tls = nlb;
    return nlb;
}

const xg_ns_entry_t *xg_nlb_lookup_slow(xg_nlb_t *nlb, uint64_t ns)
{
    const xg_ns_entry_t *entry;
    unsigned i, size = xg_gas.nlb_size;

    if (xg_unlikely(nlb == &nlb_empty)) {
        nlb = nlb_create();
        if (nlb == NULL) {
            return &xg_gas.table[ns];
        }
    }
    for (i = 1; i < size; i++) {
        if (nlb->tag[i] == ns) {
            break;
        }
    }
    if (i < size) {
        nlb->hits++;
        entry = nlb->entry[i];
    } else {
        nlb->misses++;
        entry = &xg_gas.table[ns];
        if (entry->route != XG_GAS_ROUTE_DIRECT) {
            /* never cached: a hit in slot 0 means "direct" to the fast
             * path (xg_gas_translate_fast) */
            return entry;
        }
        i = size - 1; /* evict the least recently used */
    }
    /* move to front: slots 0..i-1 age by one */
    memmove(&nlb->tag[1], &nlb->tag[0], i * sizeof(nlb->tag[0]));
    memmove(&nlb->entry[1], &nlb->entry[0], i * sizeof(nlb->entry[0]));
    nlb->tag[0]   = ns;
    nlb->entry[0] = entry;
    return entry;
}

void xg_gas_nlb_stats(uint64_t *hits_p, uint64_t *misses_p)
{
    const xg_nlb_t *nlb;

    pthread_mutex_lock(&nlb_registry_lock);
    *hits_p   = nlb_retired_hits;
    *misses_p = nlb_retired_misses;
    for (nlb = nlb_registry; nlb != NULL; nlb = nlb->next) {
        *hits_p += nlb->hits;
        *misses_p += nlb->misses;
    }
    pthread_mutex_unlock(&nlb_registry_lock);
}

static void gas_publish_heap_top(void)
{
    uint64_t top = xg_heap_top(&xg_mem.heap);
    int ns;

    xg_assert(top >= XG_GAS_HEAP_RESERVED); /* the fast path relies on it */
    /* every PE's heap holds the same objects, so one extent fits all rows */
    for (ns = 1; ns <= xg_mem.npes; ns++) {
        __atomic_store_n(&xg_gas.table[ns].heap_top, top, __ATOMIC_RELAXED);
    }
}

xg_status_t xg_gas_table_open(void)
{
    int pe;
    /* the row keeps it in 1..64, XG_NLB_MAX_ENTRIES (xg_gas_config.h) */
    long nlb_size = xg_config.nlb_size;
    xg_status_t status;
    void *reserved;

    if (xg_gas.table == NULL) {
        xg_gas.table = calloc((size_t)xg_mem.npes + 1, sizeof(*xg_gas.table));
        if (xg_gas.table == NULL) {
            xg_error("gas", "no memory for a namespace table of %d PEs",
                     xg_mem.npes);
            return XG_ERR_NO_MEMORY;
        }
    }
    for (pe = 0; pe < xg_mem.npes; pe++) {
        xg_ns_entry_t *entry = &xg_gas.table[pe + 1];

        /* the PEs of this node in the node region; the others through
         * the NIC once it is open (xg_gas_nic_open), unreachable before */
        entry->owner    = pe;
        entry->heap_top = 0;
        entry->data_off = xg_mem.data_off;
        entry->data_end = xg_mem.data_off + xg_mem.data_size;
        if (xg_boot_same_node(pe)) {
            entry->base  = xg_mem_part(xg_boot_local_of(pe));
            entry->route = XG_GAS_ROUTE_DIRECT;
        } else {
            entry->base  = 0;
            entry->route = XG_GAS_ROUTE_NIC;
        }
    }
    status = xg_heap_alloc(&xg_mem.heap, XG_GAS_HEAP_RESERVED,
                           XG_HEAP_MIN_ALIGN, &reserved);
    if (status != XG_OK) {
        xg_error("gas",
                 "the symmetric heap of %llu bytes cannot hold the "
                 "%d bytes xgas reserves in it; set SHMEM_SYMMETRIC_SIZE "
                 "larger",
                 (unsigned long long)xg_mem.heap_size, XG_GAS_HEAP_RESERVED);
        return status;
    }
    gas_publish_heap_top();
    xg_gas.me        = xg_mem.me;
    xg_gas.nlb_size  = (unsigned)nlb_size;
    xg_gas.heap_lo   = xg_mem.my_part;
    xg_gas.data_lo   = xg_mem.data_lo;
    xg_gas.data_size = xg_mem.data_size;
    xg_gas.data_off  = xg_mem.data_off;
    return XG_OK;
}

/* Empties every thread's NLB. */
static void gas_flush_nlbs(void)
{
    xg_nlb_t *nlb;

    pthread_mutex_lock(&nlb_registry_lock);
    for (nlb = nlb_registry; nlb != NULL; nlb = nlb->next) {
        memset(nlb->tag, 0, sizeof(nlb->tag));
    }
    pthread_mutex_unlock(&nlb_registry_lock);
}

void xg_gas_table_publish(void)
{
    /* a non-zero npes is what makes translation succeed */
    __atomic_store_n(&xg_gas.npes, xg_mem.npes, __ATOMIC_RELEASE);
}

/* The translation fast path relies on the NLB holding only namespaces of
 * a live job (see xg_gas_translate_fast). */
void xg_gas_table_close(void)
{
    __atomic_store_n(&xg_gas.npes, 0, __ATOMIC_RELEASE);
    gas_flush_nlbs();
}

/* The fast path relies on the NLB holding only direct rows. */
void xg_gas_set_route(int pe, xg_gas_route_t route)
{
    xg_gas.table[pe + 1].route = route;
    gas_flush_nlbs();
}

uint64_t xg_gas_offset(const void *addr)
{
    uintptr_t heap_off = (uintptr_t)addr - xg_gas.heap_lo;
    uintptr_t data_off = (uintptr_t)addr - xg_gas.data_lo;

    if (heap_off < xg_mem.heap_size) {
        return heap_off;
    }
    if (data_off < xg_gas.data_size) {
        return xg_gas.data_off + data_off;
    }
    return UINT64_MAX;
}

/* Pointer for [off, off + len) of namespace row @entry, or NULL. */
static void *gas_entry_ptr(const xg_ns_entry_t *entry, uint64_t off, size_t len)
{
    uint64_t top = __atomic_load_n(&entry->heap_top, __ATOMIC_RELAXED);

    if ((off < top) && (len <= top - off)) {
        return (void *)(entry->base + off);
    }
    if ((off >= entry->data_off) && (off < entry->data_end) &&
        (len <= entry->data_end - off)) {
        return (void *)(entry->base + off);
    }
    return NULL;
}

void *xg_gas_translate(const void *addr, size_t len, int pe)
{
    uintptr_t heap_off = (uintptr_t)addr - xg_gas.heap_lo;
    uintptr_t data_off = (uintptr_t)addr - xg_gas.data_lo;
    const xg_ns_entry_t *entry;
    uint64_t top;

    if ((unsigned)pe >= (unsigned)xg_gas.npes) {
        return NULL;
    }
    entry = xg_nlb_lookup((uint64_t)pe + 1);
    if (entry->route != XG_GAS_ROUTE_DIRECT) {
        return NULL;
    }
    top = __atomic_load_n(&entry->heap_top, __ATOMIC_RELAXED);
    if ((heap_off < top) && (len <= top - heap_off)) {
        return (void *)(entry->base + heap_off);
    }
    if ((data_off < xg_gas.data_size) && (len <= xg_gas.data_size - data_off)) {
        return (void *)(entry->base + xg_gas.data_off + data_off);
    }
    return NULL;
}

xg_status_t xg_gas_diagnose(const void *addr, size_t len, int pe)
{
    uint64_t off, top;

    if (xg_gas.npes == 0) {
        return XG_ERR_NOT_INITIALIZED;
    }
    if ((pe < 0) || (pe >= xg_gas.npes)) {
        return XG_ERR_PE_RANGE;
    }
    off = xg_gas_offset(addr);
    top = __atomic_load_n(&xg_gas.table[pe + 1].heap_top, __ATOMIC_RELAXED);
    if ((off == UINT64_MAX) || ((off < xg_gas.data_off) && (off >= top))) {
        return XG_ERR_NOT_SYMMETRIC;
    }
    if (gas_entry_ptr(&xg_gas.table[pe + 1], off, len) == NULL) {
        return XG_ERR_OUT_OF_BOUNDS;
    }
    if ((xg_gas.table[pe + 1].route != XG_GAS_ROUTE_DIRECT) &&
        !xg_gas_nic_reaches(pe)) {
        return XG_ERR_UNREACHABLE;
    }
    return XG_OK;
}

void xg_gas_describe_ranges(char *buf, size_t len)
{
    uint64_t top = (xg_gas.npes == 0) ? 0 : xg_gas.table[1].heap_top;

    snprintf(buf, len,
             "symmetric heap objects in [%#lx, %#lx), globals in "
             "[%#lx, %#lx)",
             (unsigned long)xg_gas.heap_lo,
             (unsigned long)(xg_gas.heap_lo + top),
             (unsigned long)xg_gas.data_lo,
             (unsigned long)(xg_gas.data_lo + xg_gas.data_size));
}

void xg_gas_describe_access(xg_status_t status, const void *addr, size_t len,
                            int pe, const char *alloc, const char *sizes,
                            char *buf, size_t buflen)
{
    char ranges[256];

    switch (status) {
    case XG_ERR_PE_RANGE:
        snprintf(buf, buflen,
                 "PE %d is out of range: this job has %d PEs "
                 "(0..%d)",
                 pe, xg_gas.npes, xg_gas.npes - 1);
        break;
    case XG_ERR_NOT_SYMMETRIC:
        xg_gas_describe_ranges(ranges, sizeof(ranges));
        snprintf(buf, buflen,
                 "address %p is not symmetric (%s): use memory "
                 "from %s or a global/static variable",
                 addr, ranges, alloc);
        break;
    case XG_ERR_OUT_OF_BOUNDS:
        xg_gas_describe_ranges(ranges, sizeof(ranges));
        snprintf(buf, buflen,
                 "%zu bytes at %p run past the end of the "
                 "symmetric memory of PE %d (%s): check %s",
                 len, addr, pe, ranges, sizes);
        break;
    case XG_ERR_MISALIGNED:
        snprintf(buf, buflen,
                 "address %p is not aligned to %zu bytes: "
                 "atomic operations need a naturally aligned operand",
                 addr, len);
        break;
    case XG_ERR_UNREACHABLE:
        if (xg_gas_nic_reaches(pe)) {
            snprintf(buf, buflen,
                     "an operation through the NIC to PE %d "
                     "failed: the PE left the job or its NIC refused the "
                     "operation (see the messages above)",
                     pe);
        } else {
            snprintf(buf, buflen,
                     "PE %d is not reachable by load/store and "
                     "this build has no off-node transport: run every PE of "
                     "the job on one node",
                     pe);
        }
        break;
    default:
        snprintf(buf, buflen,
                 "%zu bytes at %p on PE %d cannot be accessed "
                 "(%s)",
                 len, addr, pe, xg_status_str(status));
    }
}

xg_status_t xg_gas_make(const void *addr, int pe, xg_gaddr_t *gaddr_p)
{
    xg_status_t status = xg_gas_diagnose(addr, 1, pe);

    if (status != XG_OK) {
        return status;
    }
    gaddr_p->ns  = (uint64_t)pe + 1;
    gaddr_p->off = xg_gas_offset(addr);
    return XG_OK;
}

void *xg_gas_resolve(xg_gaddr_t gaddr, size_t len, xg_status_t *status_p)
{
    const xg_ns_entry_t *entry;
    void *ptr;

    if (gaddr.ns == XG_NS_LOCAL) {
        *status_p = XG_OK;
        return (void *)(uintptr_t)gaddr.off;
    }
    if (gaddr.ns > (uint64_t)xg_gas.npes) {
        *status_p =
            (xg_gas.npes == 0) ? XG_ERR_NOT_INITIALIZED : XG_ERR_PE_RANGE;
        return NULL;
    }
    entry = xg_nlb_lookup(gaddr.ns);
    if (entry->route != XG_GAS_ROUTE_DIRECT) {
        *status_p = XG_ERR_UNREACHABLE;
        return NULL;
    }
    ptr       = gas_entry_ptr(entry, gaddr.off, len);
    *status_p = (ptr != NULL) ? XG_OK : XG_ERR_OUT_OF_BOUNDS;
    return ptr;
}

xg_status_t xg_gas_alloc(size_t size, size_t align, void **ptr_p)
{
    xg_status_t status = xg_heap_alloc(&xg_mem.heap, size, align, ptr_p);

    if (status == XG_OK) {
        gas_publish_heap_top();
    }
    return status;
}

xg_status_t xg_gas_alloc_at(uint64_t off, size_t size, void **ptr_p)
{
    xg_status_t status = xg_heap_alloc_at(&xg_mem.heap, off, size, ptr_p);

    if (status == XG_OK) {
        gas_publish_heap_top();
    }
    return status;
}

xg_status_t xg_gas_realloc(void *ptr, size_t size, void **ptr_p)
{
    xg_status_t status = xg_heap_realloc(&xg_mem.heap, ptr, size, ptr_p);

    if (status == XG_OK) {
        gas_publish_heap_top();
    }
    return status;
}

xg_status_t xg_gas_free(void *ptr)
{
    xg_status_t status = xg_heap_free(&xg_mem.heap, ptr);

    if (status == XG_OK) {
        gas_publish_heap_top();
    }
    return status;
}

int xg_gas_heap_offset(const void *ptr, uint64_t *offset_p)
{
    uintptr_t off = (uintptr_t)ptr - xg_gas.heap_lo;

    *offset_p = off;
    return off < xg_mem.heap_size;
}

void xg_gas_heap_diagnose(uint64_t size, xg_gas_heap_diag_t *diag)
{
    diag->heap         = xg_mem.heap_size;
    diag->program      = xg_mem.symmetric_size;
    diag->largest_free = xg_heap_largest_free(&xg_mem.heap);
    diag->program_free = (diag->largest_free > diag->program)
                             ? diag->program
                             : diag->largest_free;
    diag->max_align    = xg_mem.heap.max_align;
    diag->node_memory  = xg_mem.node_memory;
    diag->node_pes     = xg_mem.local_npes;
    diag->too_large    = size > xg_mem.heap_size;
}
