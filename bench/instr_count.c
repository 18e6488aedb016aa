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
 * and a CPU fetch-add, for scale.  putmem4k and getmem4k move IC_BULK
 * bytes of the heap (raw_memcpy4k is memcpy of as many private bytes, the
 * same C library routine: the difference is the library's cost per call
 * around its copy).  Plain OpenSHMEM: builds with oshcc too.
 * PE 0 prints its pid so the script can pick its callgrind output.
 *
 * With XGAS_IC_GDB=1 in the environment (bench/icount_gdb.sh, for PVAS
 * mode, where valgrind cannot run a PE), PE 0 runs ic_loop once with N
 * operations as a warm-up (lazy binding, first translations), prints its
 * pid and the addresses of ic_loop and ic_go, and waits (at most 10 min)
 * until a debugger sets ic_go; then it calls ic_loop with N and with 2N
 * operations: the debugger single-steps both calls, and the difference of
 * the two counts over N is one operation (plus the loop's own 2-3
 * instructions), as in callgrind.sh.  Addresses, not symbols: in PVAS mode
 * gdb reads xgasrun's symbols (/proc/pid/exe), not the program's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

static const char *const ic_ops[] = {
    "long_p",   "long_p_quiet",  "long_g",       "long_atomic_fetch_add",
    "putmem8",  "putmem8_quiet", "raw_store",    "raw_fetch_add",
    "putmem4k", "getmem4k",      "raw_memcpy4k",
};
#define IC_BULK       4096 /* bytes of the bulk operations */
#define IC_FIRST_BULK 8    /* they are the last ones; heap targets only */
#define IC_NOPS       ((int)(sizeof(ic_ops) / sizeof(ic_ops[0])))

static long ic_global;        /* symmetric global target */
static long ic_local;         /* private: the raw_* operations' word */
static char ic_buf[IC_BULK];  /* private: source or destination of bulk ones */
static char ic_buf2[IC_BULK]; /* private: raw_memcpy4k's destination */
volatile long ic_sink;        /* keeps fetched values alive */
volatile size_t ic_bulk_len = IC_BULK;
volatile int ic_go; /* XGAS_IC_GDB: set by the debugger */

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
    case 7:
        for (i = 0; i < n; i++) {
            ic_sink = __atomic_fetch_add(&ic_local, 1, __ATOMIC_SEQ_CST);
        }
        break;
    case 8:
        for (i = 0; i < n; i++) {
            shmem_putmem(target, ic_buf, IC_BULK, pe);
        }
        break;
    case 9:
        for (i = 0; i < n; i++) {
            shmem_getmem(ic_buf, target, IC_BULK, pe);
        }
        break;
    default: /* the length through a volatile: a call, as in a library */
        for (i = 0; i < n; i++) {
            memcpy(ic_buf2, ic_buf, ic_bulk_len);
            __asm__ __volatile__("" ::: "memory");
        }
        break;
    }
}

/* XGAS_IC_GDB: the warm-up call, the wait for the debugger and the two
 * calls it counts (@n and 2 @n operations).  Returns 0, or 1 when no
 * debugger came. */
static int ic_stepped(int op, long n, long *target, const char *name)
{
    struct timespec ms = {0, 1000000};
    long waited;

    ic_loop(op, n, target, 1);
    printf("instr_count pe=0 pid=%ld op=%s n=%ld gdb_wait loop=%p go=%p\n",
           (long)getpid(), name, n, (void *)ic_loop, (void *)&ic_go);
    fflush(stdout);
    for (waited = 0; !ic_go && (waited < 600000); waited++) {
        nanosleep(&ms, NULL);
    }
    if (!ic_go) {
        fprintf(stderr, "instr_count: XGAS_IC_GDB: no debugger set ic_go\n");
        return 1;
    }
    ic_loop(op, n, target, 1);
    ic_loop(op, 2 * n, target, 1);
    return 0;
}

/* Byte @i of PE @pe's heap pattern (@pe -1: the private source's). */
static char ic_byte(int pe, size_t i)
{
    return (char)(i * 13 + (size_t)pe * 7 + 1);
}

/* After @n bulk operations of PE 0 on PE 1: did the last one move every
 * byte?  (Not counted: outside ic_loop.) */
static int ic_bulk_ok(int op, const long *heap)
{
    const char *got = (op == IC_FIRST_BULK) ? ic_buf2 : ic_buf;
    int pe          = (op == IC_FIRST_BULK + 1) ? 1 : -1;
    size_t i;

    if (op == IC_FIRST_BULK) {
        shmem_getmem(ic_buf2, heap, IC_BULK, 1);
    }
    for (i = 0; i < IC_BULK; i++) {
        if (got[i] != ic_byte(pe, i)) {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    long n, *heap, *target;
    int op, status = 0;
    size_t i;

    shmem_init();
    heap = shmem_malloc(IC_BULK);
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
    for (op = 0; (op < IC_NOPS) && (strcmp(argv[1], ic_ops[op]) != 0); op++) {
    }
    if ((op == IC_NOPS) || (shmem_n_pes() < 2) ||
        ((op >= IC_FIRST_BULK) && (argc == 4) &&
         (strcmp(argv[3], "global") == 0))) {
        fprintf(stderr,
                "instr_count: unknown operation '%s', fewer "
                "than 2 PEs, or a bulk operation on a global\n",
                argv[1]);
        shmem_global_exit(2);
        return 2;
    }
    target =
        ((argc == 4) && (strcmp(argv[3], "global") == 0)) ? &ic_global : heap;
    for (i = 0; i < IC_BULK; i++) {
        ((char *)heap)[i] = ic_byte(shmem_my_pe(), i);
        ic_buf[i]         = ic_byte(-1, i);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        const char *gdb = getenv("XGAS_IC_GDB");

        if (gdb && (strcmp(gdb, "1") == 0)) {
            status = ic_stepped(op, n, target, argv[1]);
        } else {
            ic_loop(op, n, target, 1);
        }
        shmem_quiet();
        if ((op >= IC_FIRST_BULK) && !ic_bulk_ok(op, heap)) {
            status = 1;
        }
        printf("instr_count pe=0 pid=%ld op=%s n=%ld object=%s%s\n",
               (long)getpid(), argv[1], n, (target == heap) ? "heap" : "global",
               (op < IC_FIRST_BULK) ? ""
               : status             ? " verify=FAILED"
                                    : " verify=ok");
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return status;
}
