/*
 * xgas-instr-count: the loop bench/callgrind.sh counts instructions of.
 *
 *     instr_count OP N [heap|global]   (under xgasrun -n 2 or oshrun -np 2)
 *
 * PE 0 runs N operations OP on PE 1 inside ic_loop() while PE 1 waits in
 * shmem_barrier_all; the target is a word of the symmetric heap (default)
 * or a global variable (libraries may reach the two differently).
 * callgrind.sh collects only inside ic_loop (--toggle-collect) and runs two
 * loop lengths, so (Ir(N2) - Ir(N1)) / (N2 - N1) is the cost of one
 * operation plus the loop's own increment and branch (2-3 instructions),
 * with every one-time cost (lazy symbol binding, first translations)
 * cancelled.  The raw_* operations are the same loop around a plain store
 * and a CPU fetch-add, for scale.  Plain OpenSHMEM: builds with oshcc too.
 * PE 0 prints its pid so the script can pick its callgrind output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

static const char *const ic_ops[] = {
    "long_p", "long_p_quiet", "long_g", "long_atomic_fetch_add",
    "putmem8", "putmem8_quiet", "raw_store", "raw_fetch_add",
};
#define IC_NOPS ((int)(sizeof(ic_ops) / sizeof(ic_ops[0])))

static long ic_global;      /* symmetric global target */
static long ic_local;       /* private: the raw_* operations' word */
volatile long ic_sink;      /* keeps fetched values alive */

/* @n operations number @op on @target of PE @pe; the only function
 * callgrind counts. */
__attribute__((noinline)) void ic_loop(int op, long n, long *target, int pe)
{
    long i, src = 1;

    switch (op) {
    case 0:
        for (i = 0; i < n; i++) {
            shmem_long_p(target, i, pe);
        }
        break;
    case 1:
        for (i = 0; i < n; i++) {
            shmem_long_p(target, i, pe);
            shmem_quiet();
        }
        break;
    case 2:
        for (i = 0; i < n; i++) {
            ic_sink = shmem_long_g(target, pe);
        }
        break;
    case 3:
        for (i = 0; i < n; i++) {
            ic_sink = shmem_long_atomic_fetch_add(target, 1, pe);
        }
        break;
    case 4:
        for (i = 0; i < n; i++) {
            shmem_putmem(target, &src, sizeof(src), pe);
        }
        break;
    case 5:
        for (i = 0; i < n; i++) {
            shmem_putmem(target, &src, sizeof(src), pe);
            shmem_quiet();
        }
        break;
    case 6:
        for (i = 0; i < n; i++) {
            *(volatile long *)&ic_local = i;
        }
        break;
    default:
        for (i = 0; i < n; i++) {
            ic_sink = __atomic_fetch_add(&ic_local, 1, __ATOMIC_SEQ_CST);
        }
        break;
    }
}

int main(int argc, char **argv)
{
    long n, *heap, *target;
    int op;

    shmem_init();
    heap = shmem_malloc(sizeof(*heap));
    if ((argc < 3) || (argc > 4) || ((n = atol(argv[2])) <= 0) ||
        ((argc == 4) && (strcmp(argv[3], "heap") != 0) &&
         (strcmp(argv[3], "global") != 0))) {
        if (shmem_my_pe() == 0) {
            fprintf(stderr, "usage: instr_count OP N [heap|global] (2 PEs); "
                    "OP one of:");
            for (op = 0; op < IC_NOPS; op++) {
                fprintf(stderr, " %s", ic_ops[op]);
            }
            fputc('\n', stderr);
        }
        shmem_finalize();
        return 2;
    }
    for (op = 0; (op < IC_NOPS) && (strcmp(argv[1], ic_ops[op]) != 0);
         op++) {
    }
    if ((op == IC_NOPS) || (shmem_n_pes() < 2)) {
        fprintf(stderr, "instr_count: unknown operation '%s' or fewer "
                "than 2 PEs\n", argv[1]);
        shmem_global_exit(2);
        return 2;
    }
    target = ((argc == 4) && (strcmp(argv[3], "global") == 0)) ? &ic_global
                                                                : heap;
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        ic_loop(op, n, target, 1);
        shmem_quiet();
        printf("instr_count pe=0 pid=%ld op=%s n=%ld object=%s\n",
               (long)getpid(), argv[1], n,
               (target == heap) ? "heap" : "global");
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
