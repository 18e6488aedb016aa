/*
 * The PVAS root process (docs/pvas.md): in a process xgasrun forks for
 * the purpose, reserves the node's range, loads the program once per PE
 * into its segment and starts each copy as a process of its own in this
 * one address space.  xgasrun keeps its own address space and supervises
 * the copies, which are its children (CLONE_PARENT), as it supervises
 * ordinary PEs.
 *
 * Segment i (base + i * seg_size), by offset:
 *
 *   0            room_hi: the runtime's room, the partition of PE i
 *                (symmetric heap, internal area; XGAS_PVAS_ROOM_LO/HI tell
 *                the runtime where), left inaccessible here
 *   seg_size/2   the program (text, data, bss: its globals)
 *   interp_off   its interpreter (ld.so), for a dynamic PIE
 *   stack_off    the initial stack (RLIMIT_STACK, 8 MiB at least), 2 MiB
 *                above the interpreter; the rest is unused
 *
 * Invariants:
 *  - The root writes nothing outside the range it reserved but its own
 *    memory; a copy starts only after the root has built its stack.
 *  - The program break is blocked (a PROT_NONE page at it) before any copy
 *    runs: the break is one per address space, and copies growing it
 *    would share and corrupt their heaps and TLS.
 *  - Copies start one at a time: the root waits until the new process has
 *    dropped its descriptors the way exec would (FD_CLOEXEC ones) and
 *    stopped using the root's memory, so the copies never share the
 *    root's stack or libc state.
 */
#ifndef XG_PVAS_ROOT_H
#define XG_PVAS_ROOT_H

#include <stdint.h>
#include <sys/types.h>

/* What the root reports to xgasrun on @report_fd for each started PE. */
typedef struct xg_pvas_started {
    int32_t rank;
    int32_t pid;
} xg_pvas_started_t;

typedef struct xg_pvas_spec {
    int npes; /* PEs of this node: segments */
    /* the job rank of segment i's PE, in rank order (the node-local
     * rank is the segment's index); NULL: rank i */
    const int *ranks;
    uint64_t base;     /* start of segment 0 */
    uint64_t seg_size; /* a power of two */
    const char *path;  /* the program, as found by xgasrun */
    char *const *argv;
    int report_fd; /* xg_pvas_started_t records, then EOF */
    /* PE @rank's environment, valid until the next call */
    char **(*env)(void *arg, int rank);
    /* in PE @rank's own process before the program starts, as between
     * fork and exec: 0, or -1 after saying why (the PE then exits) */
    int (*enter)(void *arg, int rank);
    void *arg;
} xg_pvas_spec_t;

/* Runs the root: returns its exit status, 0 once every PE is started,
 * else 1 after one message naming the cause and the fix (the PEs started
 * so far are running and reported). */
int xg_pvas_root(const xg_pvas_spec_t *spec);

#endif
