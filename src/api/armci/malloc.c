/*
 * ARMCI memory: collective allocation on the world or a group (gas
 * regions, placed by agreement over the group's communicator), local
 * allocation, and direct access to this process's part.
 *
 * Each process may ask for its own size; every member gets the largest
 * (the block sits at one offset of every partition) and base_ptrs[p] is
 * process p's address of its part -- NULL where p asked for 0 bytes, as
 * in ARMCI-MPI.  Those processes pass NULL to ARMCI_Free; the others'
 * pointers name the allocation for them.
 */
#include <stdlib.h>
#include <string.h>

#include "api/armci/armci_int.h"
#include "gas/coll/xg_coll.h"

/* The live allocations, to find the one a NULL pointer frees. */
typedef struct armci_alloc {
    xg_gas_region_t *region;
    uint64_t id; /* the same on every member (never 0) */
} armci_alloc_t;

static armci_alloc_t *allocs;
static size_t allocs_n, allocs_cap;

/* On the world, allocation and free start with gas's checked heap barrier
 * (as shmem_malloc and shmem_free do): a process in another routine (one
 * alone in ARMCI_Malloc, or against ARMCI_Free or ARMCI_Barrier) ends the
 * job with a message naming both, instead of a hang in mismatched MPI
 * collectives.  Sizes and pointers may differ between processes here, so
 * only the routine is compared. */
static void alloc_check_call(const char *routine, xg_coll_heap_op_t op,
                             const ARMCI_Group *group)
{
    if ((group->comm == xg_armci.world.comm) && xg_armci.identity) {
        xg_coll_heap_named(routine, op, 0, 0);
    }
}

xg_status_t xg_armci_agree_max(uint64_t *values, size_t n, void *arg)
{
    const xg_armci_agree_t *agree = arg;

    return (MPI_Allreduce(MPI_IN_PLACE, values, (int)n, MPI_UINT64_T, MPI_MAX,
                          agree->comm) == MPI_SUCCESS)
               ? XG_OK
               : XG_ERR_UNREACHABLE;
}

static void alloc_record(const char *routine, xg_gas_region_t *region)
{
    if (allocs_n == allocs_cap) {
        size_t cap           = allocs_cap ? 2 * allocs_cap : 16;
        armci_alloc_t *grown = realloc(allocs, cap * sizeof(*grown));

        if (grown == NULL) {
            xg_armci_fail(routine, "no memory to record an allocation");
        }
        allocs     = grown;
        allocs_cap = cap;
    }
    allocs[allocs_n++] =
        (armci_alloc_t){.region = region, .id = xg_gas_region_id(region) + 1};
}

/* The record of the allocation @ptr (this process's base) or, for NULL,
 * the one the other members name. */
static size_t alloc_find(const char *routine, void *ptr, MPI_Comm comm)
{
    uint64_t id = 0;
    size_t i;

    if (ptr != NULL) {
        for (i = 0; i < allocs_n; i++) {
            if (xg_gas_region_base(allocs[i].region) == ptr) {
                id = allocs[i].id;
                break;
            }
        }
        if (id == 0) {
            char where[256];

            xg_gas_region_describe(ptr, xg_armci_pe(xg_armci.me), where,
                                   sizeof(where));
            xg_armci_fail(routine,
                          "%p is not the base of memory from "
                          "ARMCI_Malloc on this process (%s): pass "
                          "base_ptrs[me], or NULL where this process asked "
                          "for 0 bytes",
                          ptr, where);
        }
    }
    /* a process that passed NULL learns the name from the others */
    {
        uint64_t mine = id;

        MPI_Allreduce(MPI_IN_PLACE, &id, 1, MPI_UINT64_T, MPI_MAX, comm);
        if ((mine != 0) && (mine != id)) {
            xg_armci_fail(routine,
                          "the processes free different "
                          "allocations at once: every member must free the "
                          "same allocation in the same call");
        }
    }
    for (i = 0; i < allocs_n; i++) {
        if (allocs[i].id == id) {
            return i;
        }
    }
    if (id == 0) {
        return SIZE_MAX; /* every member passed NULL: nothing allocated */
    }
    xg_armci_fail(routine,
                  "the other processes free an allocation this "
                  "process does not have: every member must free the same "
                  "allocations in the same order");
}

void xg_armci_no_room(const char *routine, uint64_t bytes)
{
    xg_gas_heap_diag_t heap;
    uint64_t used, need_m;

    xg_gas_heap_diagnose(bytes, &heap);
    used   = heap.program - heap.program_free;
    need_m = (used + bytes + (1ULL << 20) - 1) >> 20;
    if (heap.node_memory != 0) {
        xg_armci_fail(
            routine,
            "cannot allocate %llu bytes on every "
            "process: the symmetric heap of each is %llu bytes "
            "(SHMEM_SYMMETRIC_SIZE is not set, so libarmci sized "
            "it from this node's %llu bytes of memory shared by "
            "%d processes) and its largest free block is %llu "
            "bytes -- the node cannot give more: free ARMCI "
            "memory first, run fewer processes per node, or set "
            "SHMEM_SYMMETRIC_SIZE=%lluM to reserve more than the "
            "node's share (memory is used only where touched)",
            (unsigned long long)bytes, (unsigned long long)heap.program,
            (unsigned long long)heap.node_memory, heap.node_pes,
            (unsigned long long)heap.program_free, (unsigned long long)need_m);
    }
    xg_armci_fail(routine,
                  "cannot allocate %llu bytes on every process: "
                  "the symmetric heap of each is %llu bytes "
                  "(SHMEM_SYMMETRIC_SIZE) and its largest free block is "
                  "%llu bytes -- set SHMEM_SYMMETRIC_SIZE=%lluM or more, or "
                  "unset it to let libarmci size the heap from the node's "
                  "memory",
                  (unsigned long long)bytes, (unsigned long long)heap.program,
                  (unsigned long long)heap.program_free,
                  (unsigned long long)need_m);
}

void xg_armci_malloc_group(const char *routine, void **ptrs, armci_size_t bytes,
                           ARMCI_Group *group)
{
    xg_armci_agree_t agree = {.comm = group->comm};
    xg_gas_region_t *region;
    long long *sizes;
    xg_status_t status;
    int r;

    xg_armci_check_group(routine, group);
    if (ptrs == NULL) {
        xg_armci_fail(routine, "base_ptrs is NULL: pass an array of one "
                               "pointer per process");
    }
    if (bytes < 0) {
        xg_armci_fail(routine, "size %ld is negative", bytes);
    }
    alloc_check_call(routine, XG_COLL_HEAP_MALLOC, group);
    sizes = malloc((size_t)group->size * sizeof(*sizes));
    if (sizes == NULL) {
        xg_armci_fail(routine, "no memory for %d sizes", group->size);
    }
    {
        long long mine = bytes;

        MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes, 1, MPI_LONG_LONG,
                      group->comm);
    }
    status =
        xg_gas_region_alloc((size_t)bytes, xg_armci_agree_max, &agree, &region);
    if (status == XG_ERR_NO_MEMORY) {
        uint64_t largest = 0;

        for (r = 0; r < group->size; r++) {
            if ((uint64_t)sizes[r] > largest) {
                largest = (uint64_t)sizes[r];
            }
        }
        xg_armci_no_room(routine, largest);
    }
    if (status != XG_OK) {
        xg_armci_fail(routine,
                      "cannot allocate %ld bytes on every process "
                      "(%s): the messages above say why",
                      bytes, xg_status_str(status));
    }
    for (r = 0; r < group->size; r++) {
        ptrs[r] =
            ((region == NULL) || (sizes[r] == 0))
                ? NULL
                : xg_gas_region_base_of(region, xg_armci_pe(group->abs[r]));
    }
    free(sizes);
    if (region != NULL) {
        alloc_record(routine, region);
    }
}

void xg_armci_free_group(const char *routine, void *ptr, ARMCI_Group *group)
{
    size_t at;
    xg_status_t status;

    xg_armci_check_group(routine, group);
    alloc_check_call(routine, XG_COLL_HEAP_FREE, group);
    at = alloc_find(routine, ptr, group->comm);
    if (at == SIZE_MAX) {
        return;
    }
    /* nobody uses it any more: this process's operations on it are
     * complete, then every member's */
    status = xg_gas_region_complete(allocs[at].region);
    xg_armci_barrier(routine, group);
    if (status == XG_OK) {
        status = xg_gas_region_free(allocs[at].region);
    }
    allocs[at] = allocs[--allocs_n];
    if (status != XG_OK) {
        xg_armci_fail(routine, "freeing the allocation failed (%s)",
                      xg_status_str(status));
    }
}

void xg_armci_allocations_fini(void)
{
    size_t i;

    /* collective: every process reaches ARMCI_Finalize with the same */
    for (i = 0; i < allocs_n; i++) {
        xg_gas_region_free(allocs[i].region);
    }
    free(allocs);
    allocs   = NULL;
    allocs_n = allocs_cap = 0;
}

XG_ARMCI_API int PARMCI_Malloc(void **base_ptrs, armci_size_t size)
{
    xg_armci_check_running("ARMCI_Malloc");
    xg_armci_malloc_group("ARMCI_Malloc", base_ptrs, size, &xg_armci.world);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Malloc);

XG_ARMCI_API int PARMCI_Free(void *ptr)
{
    xg_armci_check_running("ARMCI_Free");
    xg_armci_free_group("ARMCI_Free", ptr, &xg_armci.world);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Free);

XG_ARMCI_API int ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes,
                                    ARMCI_Group *group)
{
    xg_armci_malloc_group(__func__, ptr_arr, bytes, group);
    return 0;
}

XG_ARMCI_API int ARMCI_Free_group(void *ptr, ARMCI_Group *group)
{
    xg_armci_free_group(__func__, ptr, group);
    return 0;
}

XG_ARMCI_API int PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes,
                                      const char *device)
{
    (void)device; /* one kind of memory */
    xg_armci_check_running("ARMCI_Malloc_memdev");
    xg_armci_malloc_group("ARMCI_Malloc_memdev", ptr_arr, bytes,
                          &xg_armci.world);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Malloc_memdev);

XG_ARMCI_API int PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes,
                                            ARMCI_Group *group,
                                            const char *device)
{
    (void)device;
    xg_armci_malloc_group("ARMCI_Malloc_group_memdev", ptr_arr, bytes, group);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Malloc_group_memdev);

XG_ARMCI_API int PARMCI_Free_memdev(void *ptr)
{
    xg_armci_check_running("ARMCI_Free_memdev");
    xg_armci_free_group("ARMCI_Free_memdev", ptr, &xg_armci.world);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Free_memdev);

XG_ARMCI_API void *PARMCI_Malloc_local(armci_size_t size)
{
    void *ptr;

    if (size < 0) {
        xg_armci_fail("ARMCI_Malloc_local", "size %ld is negative", size);
    }
    ptr = malloc((size_t)size ? (size_t)size : 1);
    if (ptr == NULL) {
        xg_armci_fail("ARMCI_Malloc_local", "cannot allocate %ld bytes", size);
    }
    return ptr;
}
XG_ARMCI_WEAK(ARMCI_Malloc_local);

XG_ARMCI_API int PARMCI_Free_local(void *ptr)
{
    free(ptr);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Free_local);

/* Direct access to this process's part: another process's puts and
 * accumulates that completed before (a fence, a barrier) are visible
 * after begin; this process's stores before end are visible to the
 * operations after it. */
XG_ARMCI_API void PARMCI_Access_begin(void *ptr)
{
    (void)ptr;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}
XG_ARMCI_WEAK(ARMCI_Access_begin);

XG_ARMCI_API void PARMCI_Access_end(void *ptr)
{
    (void)ptr;
    __atomic_thread_fence(__ATOMIC_RELEASE);
}
XG_ARMCI_WEAK(ARMCI_Access_end);

static void armci_exchange(const char *routine, void **ptr_ar, int n,
                           ARMCI_Group *group)
{
    xg_armci_check_group(routine, group);
    if ((ptr_ar == NULL) || (n != group->size)) {
        xg_armci_fail(routine,
                      "n is %d: pass an array of the %d processes' "
                      "pointers",
                      n, group->size);
    }
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ptr_ar,
                  (int)sizeof(void *), MPI_BYTE, group->comm);
}

XG_ARMCI_API void armci_exchange_address(void *ptr_ar[], int n)
{
    xg_armci_check_running(__func__);
    armci_exchange(__func__, ptr_ar, n, &xg_armci.world);
}

XG_ARMCI_API void armci_exchange_address_grp(void *ptr_arr[], int n,
                                             ARMCI_Group *group)
{
    armci_exchange(__func__, ptr_arr, n, group);
}
