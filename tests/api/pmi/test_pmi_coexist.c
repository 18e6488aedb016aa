/*
 * libpmi and libxgas in one process: PMI bootstraps a Portals program the
 * way the Portals reference tests do (physical ids exchanged through the
 * key/value space, then PtlSetMap on a logical NI), and the two libraries
 * join the one job in either order or at once from two threads.  A ring of
 * puts over the logical NI proves the map; an OpenSHMEM program using PMI
 * too shares the same job.
 *
 *   pmi_coexist pmi-first | ptl-first | threads | shmem
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <portals4.h>
#include <shmem.h>

#include "pmi_test.h"

#define RING_PT 5

#define PTL_OK(call)                                                   \
    do {                                                               \
        int ptl_rc_ = (call);                                          \
        XG_CHECK(ptl_rc_ == PTL_OK, "%s returned %d", #call, ptl_rc_); \
    } while (0)

static int rank, size;
static char kvs[256], key[256], val[1024];

static void *pmi_thread(void *arg)
{
    int spawned;

    (void)arg;
    PMI_OK(PMI_Init(&spawned));
    return NULL;
}

static void *ptl_thread(void *arg)
{
    (void)arg;
    PTL_OK(PtlInit());
    return NULL;
}

static void pmi_join(void)
{
    int spawned;

    PMI_OK(PMI_Init(&spawned));
}

/* Every process's physical id, through PMI (as the reference tests do). */
static ptl_process_t *exchange_ids(ptl_handle_ni_t phys)
{
    ptl_process_t me, *map;
    int i;

    PTL_OK(PtlGetPhysId(phys, &me));
    PMI_OK(PMI_KVS_Get_my_name(kvs, sizeof(kvs)));
    snprintf(key, sizeof(key), "id-%d", rank);
    snprintf(val, sizeof(val), "%u:%u", (unsigned)me.phys.nid,
             (unsigned)me.phys.pid);
    PMI_OK(PMI_KVS_Put(kvs, key, val));
    PMI_OK(PMI_KVS_Commit(kvs));
    PMI_OK(PMI_Barrier());
    map = calloc((size_t)size, sizeof(*map));
    for (i = 0; i < size; i++) {
        unsigned nid, pid;

        snprintf(key, sizeof(key), "id-%d", i);
        PMI_OK(PMI_KVS_Get(kvs, key, val, sizeof(val)));
        XG_CHECK(sscanf(val, "%u:%u", &nid, &pid) == 2, "id '%s'", val);
        map[i].phys.nid = nid;
        map[i].phys.pid = pid;
    }
    return map;
}

/* Each process puts its rank to the next one over a logical NI mapped
 * with the ids PMI carried, and checks what its predecessor sent. */
static void portals_ring(void)
{
    ptl_handle_ni_t phys, logical;
    ptl_handle_ct_t ct;
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_process_t *map, target;
    ptl_ct_event_t cev;
    ptl_pt_index_t pt;
    ptl_md_t mdd;
    ptl_me_t me;
    int64_t out, in = -1;

    PTL_OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                     PTL_PID_ANY, NULL, NULL, &phys));
    map = exchange_ids(phys);
    PTL_OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                     PTL_PID_ANY, NULL, NULL, &logical));
    PTL_OK(PtlSetMap(logical, (ptl_size_t)size, map));
    PTL_OK(PtlCTAlloc(logical, &ct));
    PTL_OK(PtlPTAlloc(logical, 0, PTL_EQ_NONE, RING_PT, &pt));
    memset(&me, 0, sizeof(me));
    me.start         = &in;
    me.length        = sizeof(in);
    me.ct_handle     = ct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK(PtlMEAppend(logical, pt, &me, PTL_PRIORITY_LIST, NULL, &meh));
    /* everybody's entry is in place before anybody sends */
    PMI_OK(PMI_Barrier());
    memset(&mdd, 0, sizeof(mdd));
    out           = 1000 + rank;
    mdd.start     = &out;
    mdd.length    = sizeof(out);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK(PtlMDBind(logical, &mdd, &md));
    memset(&target, 0, sizeof(target));
    target.rank = (ptl_rank_t)((rank + 1) % size);
    PTL_OK(PtlPut(md, 0, sizeof(out), PTL_NO_ACK_REQ, target, RING_PT, 0, 0,
                  NULL, 0));
    PTL_OK(PtlCTWait(ct, 1, &cev));
    XG_CHECK(cev.failure == 0, "put failed");
    XG_CHECK(in == 1000 + (rank + size - 1) % size, "received %lld",
             (long long)in);
    /* nobody tears down while a put to it may still be in flight */
    PMI_OK(PMI_Barrier());
    PTL_OK(PtlMDRelease(md));
    PTL_OK(PtlMEUnlink(meh));
    PTL_OK(PtlPTFree(logical, RING_PT));
    PTL_OK(PtlCTFree(ct));
    PTL_OK(PtlNIFini(logical));
    PTL_OK(PtlNIFini(phys));
    free(map);
}

static void shmem_with_pmi(void)
{
    static long counter;
    int i;

    shmem_init();
    XG_CHECK(shmem_my_pe() == rank, "shmem PE %d, PMI rank %d", shmem_my_pe(),
             rank);
    XG_CHECK(shmem_n_pes() == size, "shmem %d PEs, PMI %d", shmem_n_pes(),
             size);
    shmem_long_atomic_inc(&counter, 0);
    shmem_barrier_all();
    PMI_OK(PMI_Barrier());
    PMI_OK(PMI_KVS_Get_my_name(kvs, sizeof(kvs)));
    snprintf(key, sizeof(key), "pe-%d", rank);
    snprintf(val, sizeof(val), "%d", rank * 7);
    PMI_OK(PMI_KVS_Put(kvs, key, val));
    PMI_OK(PMI_KVS_Commit(kvs));
    PMI_OK(PMI_Barrier());
    for (i = 0; i < size; i++) {
        snprintf(key, sizeof(key), "pe-%d", i);
        PMI_OK(PMI_KVS_Get(kvs, key, val, sizeof(val)));
        XG_CHECK(atoi(val) == i * 7, "pe-%d is '%s'", i, val);
    }
    if (rank == 0) {
        XG_CHECK(counter == size, "counter %ld", counter);
    }
    shmem_finalize();
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "pmi-first";
    pthread_t a, b;

    if (strcmp(mode, "pmi-first") == 0) {
        pmi_join();
        PTL_OK(PtlInit());
    } else if (strcmp(mode, "ptl-first") == 0) {
        PTL_OK(PtlInit());
        pmi_join();
    } else if (strcmp(mode, "threads") == 0) {
        XG_CHECK(pthread_create(&a, NULL, pmi_thread, NULL) == 0, "thread");
        XG_CHECK(pthread_create(&b, NULL, ptl_thread, NULL) == 0, "thread");
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    } else if (strcmp(mode, "shmem") == 0) {
        pmi_join();
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    PMI_OK(PMI_Get_rank(&rank));
    PMI_OK(PMI_Get_size(&size));
    xg_test_pe = rank;
    if (strcmp(mode, "shmem") == 0) {
        shmem_with_pmi();
    } else {
        portals_ring();
        PtlFini();
    }
    PMI_OK(PMI_Finalize());
    if (rank == 0) {
        printf("pmi_coexist %s: %d processes passed\n", mode, size);
    }
    return 0;
}
