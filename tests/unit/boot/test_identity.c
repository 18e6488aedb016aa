/*
 * Unit test of boot: the backend that joined, the identity the layers
 * above ask for (xg_boot_identity) and the endpoint slots packet
 * transports publish through.  Run under xgasrun at several PE counts and
 * as a singleton (argument "singleton").
 */
#include <string.h>
#include <unistd.h>

#include "boot/xg_boot.h"
#include "xg_test.h"

int main(int argc, char **argv)
{
    int singleton = (argc > 1) && (strcmp(argv[1], "singleton") == 0);
    xg_boot_identity_t me;
    uint64_t job0;
    int32_t ep, pid;
    int pe;

    XG_CHECK(xg_boot_init() == XG_OK, "xg_boot_init");
    XG_CHECK(xg_boot_init() == XG_OK, "a second xg_boot_init");
    xg_boot_identity(&me);
    xg_test_pe = me.rank;
    XG_CHECK(strcmp(xg_boot.backend, singleton ? "singleton" : "xgasrun") == 0,
             "joined through %s", xg_boot.backend);
    XG_CHECK((me.rank >= 0) && (me.rank < me.npes), "rank %d of %d", me.rank,
             me.npes);
    XG_CHECK((me.local_rank == me.rank) && (me.local_npes == me.npes),
             "node-local rank %d of %d: every PE of the job is on this node",
             me.local_rank, me.local_npes);
    XG_CHECK(me.singleton == singleton, "singleton %d", me.singleton);
    if (singleton) {
        XG_CHECK((me.npes == 1) && (me.job_id == (uint64_t)getpid()),
                 "a singleton is its own job (job id %llu, pid %d)",
                 (unsigned long long)me.job_id, (int)getpid());
    } else {
        XG_CHECK(me.job_id == (uint64_t)getppid(),
                 "the job is named after "
                 "its launcher (job id %llu, parent %d)",
                 (unsigned long long)me.job_id, (int)getppid());
    }

    /* every PE has the same job id */
    XG_CHECK(xg_boot_kv_put("test.job", &me.job_id, sizeof(me.job_id)) == XG_OK,
             "kv_put");
    xg_boot_fence();
    XG_CHECK(xg_boot_kv_get(0, "test.job", &job0, sizeof(job0)) == XG_OK,
             "kv_get");
    XG_CHECK(job0 == me.job_id, "PE 0's job id %llu, ours %llu",
             (unsigned long long)job0, (unsigned long long)me.job_id);

    /* endpoints: none until published, then every peer finds ours next
     * to our pid */
    XG_CHECK(xg_boot_endpoint_lookup(me.rank, &pid) == 0,
             "an endpoint "
             "before any was published");
    XG_CHECK(pid == (int32_t)getpid(), "our slot holds pid %d", (int)pid);
    xg_boot_fence();
    xg_boot_endpoint_publish(1000 + me.rank);
    xg_boot_fence();
    for (pe = 0; pe < me.npes; pe++) {
        ep = xg_boot_endpoint_lookup(pe, &pid);
        XG_CHECK(ep == 1000 + pe, "PE %d's endpoint is %d", pe, (int)ep);
        XG_CHECK(pid > 0, "PE %d's slot holds no pid", pe);
    }
    return XG_TEST_PASS;
}
