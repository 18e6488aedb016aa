/*
 * The singleton backend of boot: a program started without a launcher is a
 * job of one PE.  It builds the control area's layout in private memory,
 * so the rest of boot has one code path.
 */
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"

static xg_status_t singleton_join(void)
{
    static const uint32_t one_node = 0;
    size_t size                    = xg_ctl_size(1);
    void *map                      = mmap(NULL, size, PROT_READ | PROT_WRITE,
                                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    /* only reached when this build has no PMIx backend */
    if (xg_config.pmix_namespace[0] != '\0') {
        xg_warn("boot",
                "started by a PMIx launcher (PMIX_NAMESPACE=%s), but "
                "this xgas was built without PMIx (libpmix-dev missing or "
                "XGAS_PMIX=OFF): running as a job of one PE -- rebuild with "
                "libpmix, or start the program with xgasrun",
                xg_config.pmix_namespace);
    }
    if (map == MAP_FAILED) {
        xg_error("boot", "cannot allocate %zu bytes for the job state (%m)",
                 size);
        return XG_ERR_NO_MEMORY;
    }
    xg_ctl_format(map, 1);
    xg_boot.ctl       = map;
    xg_boot.ctl_size  = size;
    xg_boot.ctl_fd    = -1;
    xg_boot.kv_own    = xg_ctl_kv_area(map, 0);
    xg_boot.rank      = 0;
    xg_boot.npes      = 1;
    xg_boot.seg_fd    = -1;
    xg_boot.singleton = 1;
    xg_boot.job_id    = (uint64_t)getpid(); /* its own job */
    xg_boot.job_key   = xg_boot_random64();
    atomic_store_explicit(&xg_boot.ctl->pe[0].pid, (int32_t)getpid(),
                          memory_order_relaxed);
    return xg_boot_topology_set(&one_node);
}

static int singleton_detect(void)
{
    return 1; /* the last resort */
}

const xg_boot_backend_t xg_boot_backend_singleton = {
    .name   = "singleton",
    .detect = singleton_detect,
    .join   = singleton_join,
    .why    = "no launcher variables (XGAS_CTL_FD, PMIX_NAMESPACE): a job "
              "of one PE",
};
