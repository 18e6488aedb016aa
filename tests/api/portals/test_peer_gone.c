/*
 * Sends to a process that is not there fail -- they never hang and never
 * fill a queue.  argv[1] says which absence:
 *   never  the other processes never call PtlInit (PtlInit is not
 *          collective: rank 0 initializes alone),
 *   fini   they call PtlNIFini and PtlFini,
 *   exit   they exit without PtlFini (the library closes their queue).
 *   exit_unseen  they exit (after a boot fence, no Portals message) before
 *          rank 0 ever sent them anything -- across nodes too, where no
 *          connection to them existed; rank 0 sends once it has seen
 *          their processes end.
 * Rank 0 then sees, for each of them: a put's SEND and ACK, an atomic's
 * SEND and ACK, a get's REPLY and a triggered put's SEND and ACK carry
 * PTL_NI_UNDELIVERABLE, and a flood of puts (many times the queue's
 * slots) completes, every one counted as a failure.  The others wait for
 * rank 0 to end before they end (fini, never) so the job stays whole.
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "ptl_test.h"
#include "boot/xg_boot.h"
#include "base/xg_wait.h"

#define FLOOD 2000 /* more than the 256 slots of a peer's queue */

/* Returns once process @rank has exited (and its launcher reaped it); 0
 * if this process cannot see it (another node's control area). */
static int wait_gone(int rank)
{
    pid_t pid;
    xg_wait_t wait;

    XG_CHECK(xg_boot_init() == XG_OK, "boot");
    if ((xg_boot.ctl_pes < xg_boot.npes) && !xg_boot_same_node(rank)) {
        return 0; /* its node keeps its own control area (PMIx) */
    }
    pid = (pid_t)atomic_load(&xg_boot.ctl->pe[rank].pid);
    xg_wait_init(&wait);
    while ((pid <= 0) || (kill(pid, 0) == 0)) {
        xg_wait_backoff(&wait);
        pid = (pid_t)atomic_load(&xg_boot.ctl->pe[rank].pid);
    }
    return 1;
}

static void wait_rank0_gone(void)
{
    (void)wait_gone(0);
}

static ptl_event_t next_event(ptl_handle_eq_t eq)
{
    ptl_event_t ev;
    int rc = PtlEQWait(eq, &ev);

    XG_CHECK(rc == PTL_OK, "PtlEQWait: %s", ptl_test_rc(rc));
    return ev;
}

static void expect(ptl_handle_eq_t eq, ptl_event_kind_t type, int peer)
{
    ptl_event_t ev = next_event(eq);

    XG_CHECK(ev.type == type && ev.ni_fail_type == PTL_NI_UNDELIVERABLE,
             "peer %d: got %s fail %d, want %s PTL_NI_UNDELIVERABLE", peer,
             ptl_test_ev(ev.type), (int)ev.ni_fail_type, ptl_test_ev(type));
}

/* Puts to @peer (pt 5, never allocated) until one cannot even be sent:
 * the peer finalizes or exits at its own pace.  An undeliverable ACK alone
 * is not enough: between its PtlNIFini and its PtlFini the peer refuses
 * messages but its queue is still open, and the next put would be sent. */
static void await_gone(ptl_handle_md_t md, ptl_handle_eq_t eq, int peer)
{
    ptl_event_t ev;
    int send_failed = 0;

    for (;;) {
        PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(peer), 5, 0,
                             0, NULL, 0));
        do {
            ev = next_event(eq);
            if (ev.type == PTL_EVENT_SEND) {
                send_failed = (ev.ni_fail_type == PTL_NI_UNDELIVERABLE);
            }
        } while (ev.type != PTL_EVENT_ACK);
        if (send_failed) {
            return;
        }
    }
}

static void check_peer(ptl_handle_ni_t ni, int peer, int wait_gone)
{
    static uint64_t buf[4];
    ptl_handle_md_t md, cmd;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t ct, trig;
    ptl_ct_event_t cte;
    ptl_md_t mdd;
    int i;

    PTL_OK_OR_DIE(PtlEQAlloc(ni, 64, &eq));
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &ct));
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &trig));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = sizeof(buf);
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &md));
    if (wait_gone) {
        await_gone(md, eq, peer);
    }
    PTL_OK_OR_DIE(
        PtlPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(peer), 0, 0, 0, NULL, 0));
    expect(eq, PTL_EVENT_SEND, peer);
    expect(eq, PTL_EVENT_ACK, peer);
    PTL_OK_OR_DIE(PtlAtomic(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(peer), 0, 0, 0,
                            NULL, 0, PTL_SUM, PTL_UINT64_T));
    expect(eq, PTL_EVENT_SEND, peer);
    expect(eq, PTL_EVENT_ACK, peer);
    PTL_OK_OR_DIE(PtlGet(md, 8, 8, ptl_test_rank(peer), 0, 0, 0, NULL));
    expect(eq, PTL_EVENT_REPLY, peer);
    PTL_OK_OR_DIE(PtlTriggeredPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(peer), 0,
                                  0, 0, NULL, 0, trig, 1));
    PTL_OK_OR_DIE(PtlCTInc(trig, (ptl_ct_event_t){1, 0}));
    expect(eq, PTL_EVENT_SEND, peer);
    expect(eq, PTL_EVENT_ACK, peer);
    ptl_test_none(eq);

    /* the flood: counted only, no queue fills, nothing stalls */
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ct;
    mdd.options   = PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK;
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &cmd));
    for (i = 0; i < FLOOD; i++) {
        PTL_OK_OR_DIE(PtlPut(cmd, 0, sizeof(buf), PTL_CT_ACK_REQ,
                             ptl_test_rank(peer), 0, 0, 0, NULL, 0));
    }
    PTL_OK_OR_DIE(PtlCTWait(ct, 2 * FLOOD, &cte));
    XG_CHECK(cte.success == 0 && cte.failure == 2 * FLOOD,
             "flood to peer %d: success %llu failure %llu", peer,
             (unsigned long long)cte.success, (unsigned long long)cte.failure);
    PTL_OK_OR_DIE(PtlMDRelease(cmd));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlCTFree(ct));
    PTL_OK_OR_DIE(PtlCTFree(trig));
    PTL_OK_OR_DIE(PtlEQFree(eq));
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "never";
    ptl_test_env_t env;
    ptl_handle_ni_t ni;
    ptl_process_t id;
    ptl_size_t npes;
    int rank, pe;

    if (strcmp(mode, "never") == 0) {
        XG_CHECK(xg_boot_init() == XG_OK, "boot");
        rank       = xg_boot.rank;
        xg_test_pe = rank;
        if (xg_boot.nnodes > 1) {
            /* the network endpoints of a job over several nodes open
             * together: PtlInit waits for every PE */
            printf("SKIPPED: in a job over %d nodes PtlInit is collective\n",
                   xg_boot.nnodes);
            return XG_TEST_SKIP;
        }
        if (rank != 0) {
            wait_rank0_gone(); /* and never touch Portals */
            return 0;
        }
        PTL_OK_OR_DIE(PtlInit()); /* alone: must not wait for the others */
        PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                                PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY,
                                NULL, NULL, &ni));
        PTL_OK_OR_DIE(PtlGetId(ni, &id));
        PTL_OK_OR_DIE(PtlGetMap(ni, 0, NULL, &npes));
        for (pe = 1; pe < (int)npes; pe++) {
            check_peer(ni, pe, 0);
        }
        PTL_OK_OR_DIE(PtlNIFini(ni));
        PtlFini();
        return 0;
    }
    if (strcmp(mode, "exit_unseen") == 0) {
        /* the others exit before rank 0 ever sends them anything (the
         * fence is the boot layer's, not a Portals message) */
        PTL_OK_OR_DIE(PtlInit());
        PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                                PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY,
                                NULL, NULL, &ni));
        xg_test_pe = xg_boot.rank;
        XG_CHECK(xg_boot_fence() == XG_OK, "fence");
        if (xg_boot.rank != 0) {
            exit(0);
        }
        PTL_OK_OR_DIE(PtlGetMap(ni, 0, NULL, &npes));
        for (pe = 1; pe < (int)npes; pe++) {
            if (!wait_gone(pe)) {
                printf("SKIPPED: PE %d's exit is not visible here\n", pe);
                return XG_TEST_SKIP;
            }
            check_peer(ni, pe, 0);
        }
        PTL_OK_OR_DIE(PtlNIFini(ni));
        PtlFini();
        return 0;
    }
    ptl_test_init(&env);
    ptl_test_barrier(&env);
    if (env.rank != 0) {
        if (strcmp(mode, "exit") == 0) {
            exit(0); /* no PtlFini: the exit handler closes the queue */
        }
        PTL_OK_OR_DIE(PtlNIFini(env.ni));
        PtlFini();
        wait_rank0_gone();
        return 0;
    }
    for (pe = 1; pe < env.npes; pe++) {
        check_peer(env.ni, pe, 1);
    }
    PTL_OK_OR_DIE(PtlNIFini(env.ni));
    PtlFini();
    return 0;
}
