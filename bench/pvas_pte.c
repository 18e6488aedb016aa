/*
 * xgas-pvas-pte: the page-table memory of a node, conventional against
 * PVAS mode (docs/pvas.md).  Each PE allocates a symmetric object (2 MiB,
 * or the MiB of the second argument) and touches its pages; then every PE
 * reads one byte per page of the object on every other PE of the node,
 * through shmem_ptr.  VmPTE (in /proc/self/status) is read right after
 * shmem_init ("runtime only") and after the reads.  In conventional mode each PE has page tables of its
 * own and the node's are the sum; in PVAS mode the PEs share one address
 * space and every PE reports the same VmPTE, the node's.  PE 0 prints
 * one line:
 *
 *     mode=M npes=N init_ms_max=T node_vmpte_kb_init=K
 *     node_vmpte_kb_touched=K per_pe_kb_touched=K object_mib=S
 *
 * Usage: xgasrun [--pvas] -n N xgas-pvas-pte conventional|pvas [MIB]
 * (the word only labels the line and says how to add up VmPTE).  Small
 * heaps keep high PE counts in the address space:
 *     SHMEM_SYMMETRIC_SIZE=4M xgasrun --pvas -n 128 xgas-pvas-pte pvas
 * and a larger object needs a heap to hold it:
 *     SHMEM_SYMMETRIC_SIZE=128M xgasrun -n 32 xgas-pvas-pte conventional 100
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_core.h"

#define OBJECT_MIB 2
#define PAGE       4096u

static long in[3], out_max[3], out_sum[3];

/* The node's page tables for the values in[i]: the sum over PEs, or in
 * PVAS mode the one address space's (every PE's value is it). */
static long node_kb(int pvas, int i)
{
    return pvas ? out_max[i] : out_sum[i];
}

int main(int argc, char **argv)
{
    int pvas                    = (argc > 1) && (strcmp(argv[1], "pvas") == 0);
    long mib                    = (argc > 2) ? atol(argv[2]) : OBJECT_MIB;
    size_t bytes                = (size_t)mib << 20;
    uint64_t start              = bench_now_ns();
    volatile unsigned char sink = 0;
    unsigned char *object, *peer;
    size_t off;
    int me, npes, pe;

    shmem_init();
    in[0]  = (long)(bench_now_ns() - start) / 1000; /* microseconds */
    in[1]  = bench_vmpte_kb();
    me     = shmem_my_pe();
    npes   = shmem_n_pes();
    object = (mib > 0) ? shmem_malloc(bytes) : NULL;
    if (object == NULL) {
        fprintf(stderr,
                "shmem_malloc of %ld MiB failed (a positive size that "
                "SHMEM_SYMMETRIC_SIZE holds)\n",
                mib);
        shmem_global_exit(1);
    }
    memset(object, me, bytes);
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        peer = shmem_ptr(object, pe);
        for (off = 0; (pe != me) && (peer != NULL) && (off < bytes);
             off += PAGE) {
            sink += peer[off];
        }
    }
    shmem_barrier_all();
    in[2] = bench_vmpte_kb();
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, out_max, in, 3);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, out_sum, in, 3);
    if (me == 0) {
        printf("mode=%s npes=%d init_ms_max=%.1f node_vmpte_kb_init=%ld "
               "node_vmpte_kb_touched=%ld per_pe_kb_touched=%.1f "
               "object_mib=%ld\n",
               pvas ? "pvas" : "conventional", npes, (double)out_max[0] / 1e3,
               node_kb(pvas, 1), node_kb(pvas, 2),
               (double)node_kb(pvas, 2) / npes, mib);
    }
    shmem_free(object);
    shmem_finalize();
    return (int)(sink & 0);
}
