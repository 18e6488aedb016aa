/*
 * One runtime for Portals and OpenSHMEM in one process: PtlInit and
 * shmem_init in both orders, PtlFini and shmem_finalize in both orders,
 * each round starting both again after the last one finalized them.  While
 * one API is up without the other, the other's calls still work (Portals:
 * a put to this process through its own list entry; OpenSHMEM: a put to
 * the next PE and a barrier) or say they are not initialized (Portals:
 * PTL_NO_INIT, even when XGAS_ROUTE=nic keeps the NIC open for OpenSHMEM).
 * The last round returns from main with both initialized: the exit handler
 * finalizes OpenSHMEM and closes the NIC.
 *
 * Linked with the shared library: in a static link the library's own
 * globals sit in the program's data window, which shmem_init remaps while
 * the progress thread of the NIC (started by PtlNIInit) reads them.
 */
#include <portals4.h>
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

static long ring[4];

/* A put to this process through a list entry of its own, and its ack. */
static void portals_loopback(int round)
{
    ptl_handle_ni_t ni;
    ptl_handle_ct_t ct;
    ptl_handle_md_t md;
    ptl_handle_le_t leh;
    ptl_pt_index_t pt;
    ptl_process_t me;
    ptl_ct_event_t done;
    ptl_md_t mdd;
    ptl_le_t le;
    long src[4], dst[4];
    int i;

    for (i = 0; i < 4; i++) {
        src[i] = 1000 * round + i;
        dst[i] = -1;
    }
    XG_CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL,
                       PTL_PID_ANY, NULL, NULL, &ni) == PTL_OK,
             "PtlNIInit");
    XG_CHECK(PtlGetPhysId(ni, &me) == PTL_OK, "PtlGetPhysId");
    XG_CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &pt) == PTL_OK,
             "PtlPTAlloc");
    memset(&le, 0, sizeof(le));
    le.start     = dst;
    le.length    = sizeof(dst);
    le.ct_handle = PTL_CT_NONE;
    le.uid       = PTL_UID_ANY;
    le.options =
        PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE | PTL_LE_EVENT_COMM_DISABLE;
    XG_CHECK(PtlLEAppend(ni, pt, &le, PTL_PRIORITY_LIST, NULL, &leh) == PTL_OK,
             "PtlLEAppend");
    XG_CHECK(PtlCTAlloc(ni, &ct) == PTL_OK, "PtlCTAlloc");
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.options   = PTL_MD_EVENT_CT_ACK;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ct;
    XG_CHECK(PtlMDBind(ni, &mdd, &md) == PTL_OK, "PtlMDBind");
    XG_CHECK(PtlPut(md, 0, sizeof(src), PTL_CT_ACK_REQ, me, pt, 0, 0, NULL,
                    0) == PTL_OK,
             "PtlPut");
    XG_CHECK(PtlCTWait(ct, 1, &done) == PTL_OK, "PtlCTWait");
    XG_CHECK((done.success == 1) && (done.failure == 0),
             "round %d: ack success %llu failure %llu", round,
             (unsigned long long)done.success,
             (unsigned long long)done.failure);
    XG_CHECK(memcmp(src, dst, sizeof(src)) == 0, "round %d: put landed %ld",
             round, dst[0]);
    XG_CHECK(PtlMDRelease(md) == PTL_OK, "PtlMDRelease");
    XG_CHECK(PtlCTFree(ct) == PTL_OK, "PtlCTFree");
    XG_CHECK(PtlLEUnlink(leh) == PTL_OK, "PtlLEUnlink");
    XG_CHECK(PtlPTFree(ni, pt) == PTL_OK, "PtlPTFree");
    XG_CHECK(PtlNIFini(ni) == PTL_OK, "PtlNIFini");
}

/* Each PE puts into the next one's ring slot for this round. */
static void shmem_exchange(int round)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int from = (me + npes - 1) % npes;

    shmem_long_p(&ring[round], 100 * round + me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(ring[round] == 100 * round + from,
             "round %d: ring holds %ld, expected %d", round, ring[round],
             100 * round + from);
}

static void portals_not_initialized(void)
{
    ptl_handle_ct_t ct;

    XG_CHECK(PtlCTAlloc(0, &ct) == PTL_NO_INIT, "Portals still initialized");
}

int main(void)
{
    int round, initialized;

    for (round = 0; round < 4; round++) {
        int portals_in_first  = (round & 1) == 0;
        int portals_out_first = (round & 2) == 0;

        if (portals_in_first) {
            XG_CHECK(PtlInit() == PTL_OK, "PtlInit");
            portals_loopback(round);
            shmem_init();
        } else {
            shmem_init();
            shmem_exchange(round);
            XG_CHECK(PtlInit() == PTL_OK, "PtlInit");
        }
        xg_test_pe = shmem_my_pe();
        portals_loopback(round);
        shmem_exchange(round);
        if (round == 3) {
            break; /* the exit handler finalizes both */
        }
        if (portals_out_first) {
            PtlFini();
            portals_not_initialized();
            shmem_exchange(round);
            shmem_finalize();
        } else {
            shmem_finalize();
            shmem_query_initialized(&initialized);
            XG_CHECK(!initialized, "OpenSHMEM still initialized");
            portals_loopback(round);
            PtlFini();
            portals_not_initialized();
        }
    }
    if (shmem_my_pe() == 0) {
        printf("unit_runtime: passed\n");
    }
    return 0;
}
