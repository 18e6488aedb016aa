/*
 * A PE that is not dumpable cannot be reached, and the message says so
 * (issue 8 item 9).  2 processes: PE 1 calls prctl(PR_SET_DUMPABLE, 0)
 * before PtlInit.  PE 0's put to PE 1 must fail with an undeliverable SEND
 * event (the shm transport maps a peer's packet ring through
 * /proc/<pid>/fd, which is closed when the peer is not dumpable), and the
 * error it prints must say that PE 1 is not dumpable.  The two meet in a
 * shmem barrier at the end (same-node shmem needs no /proc access).  The
 * driver runs the job as an unprivileged user (root may open any /proc
 * entry).
 */
#include <shmem.h>
#include <sys/prctl.h>

#include "ptl_test.h"

#define UD_PT 5

int main(void)
{
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md_h;
    ptl_process_t id;
    ptl_event_t ev;
    ptl_md_t md;
    char byte = 1;

    shmem_init();
    if (shmem_my_pe() == 1) {
        XG_CHECK(prctl(PR_SET_DUMPABLE, 0) == 0, "prctl failed");
    }
    PTL_OK_OR_DIE(PtlInit());
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                            PTL_PID_ANY, NULL, NULL, &ni));
    PTL_OK_OR_DIE(PtlGetId(ni, &id));
    xg_test_pe = (int)id.rank;
    PTL_OK_OR_DIE(PtlEQAlloc(ni, 16, &eq));
    memset(&md, 0, sizeof(md));
    md.start     = &byte;
    md.length    = 1;
    md.eq_handle = eq;
    md.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(ni, &md, &md_h));
    /* PtlInit is not collective: PE 1 must have published its ring, else
     * the put fails for another reason (a peer that never initialized) */
    shmem_barrier_all();

    if (id.rank == 0) {
        PTL_OK_OR_DIE(PtlPut(md_h, 0, 1, PTL_NO_ACK_REQ, ptl_test_rank(1),
                             UD_PT, 0, 0, NULL, 0));
        ptl_test_next(eq, PTL_EVENT_SEND, &ev);
        XG_CHECK(ev.ni_fail_type != PTL_NI_OK,
                 "the put to a process that is not dumpable succeeded");
        fprintf(stderr, "pe 0: put to PE 1 failed as expected\n");
    }
    shmem_barrier_all();
    shmem_finalize();
    PtlNIFini(ni);
    PtlFini();
    return XG_TEST_PASS;
}
