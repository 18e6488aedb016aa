/*
 * xgas-init-scale: what start-up costs per PE.  Each PE times shmem_init
 * and reads its page-table size (VmPTE in /proc/self/status) right after
 * it; PE 0 prints one line with the slowest PE's init time, the largest
 * VmPTE and the node total:
 *
 *     npes=N init_ms_max=T init_ms_pe0=T vmpte_kb_max=K vmpte_kb_sum=K
 *
 * Run it with small heaps when the PE count is high, e.g.
 *     SHMEM_SYMMETRIC_SIZE=1M xgasrun -n 1024 xgas-init-scale
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

#include "bench_core.h"

static long in_ms[2], in_kb[2], out_max[2], out_sum;

int main(void)
{
    uint64_t start = bench_now_ns();
    double ms;

    shmem_init();
    ms       = (double)(bench_now_ns() - start) / 1e6;
    in_ms[0] = (long)(ms * 1000.0); /* microseconds */
    in_kb[0] = bench_vmpte_kb();
    in_kb[1] = in_kb[0];
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &out_max[0], &in_ms[0], 1);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &out_max[1], &in_kb[0], 1);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &out_sum, &in_kb[1], 1);
    if (shmem_my_pe() == 0) {
        printf("npes=%d init_ms_max=%.1f init_ms_pe0=%.1f vmpte_kb_max=%ld "
               "vmpte_kb_sum=%ld\n",
               shmem_n_pes(), (double)out_max[0] / 1e3, ms, out_max[1],
               out_sum);
    }
    shmem_finalize();
    return 0;
}
