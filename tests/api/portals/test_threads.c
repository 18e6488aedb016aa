/*
 * Threads: several threads of each process issue puts and atomics on one
 * NI at once (the target's counter must see every one, the atomic sum must
 * be exact), and waiting threads are released with PTL_INTERRUPTED when
 * the event queue or counter they wait on is freed.  Built for
 * ThreadSanitizer runs too.
 *
 * The frees must come after the waiters are inside their waits (a wait
 * that starts on a freed handle rightly fails with PTL_ARG_INVALID), and
 * no test may depend on timing: the main thread frees only once it sees
 * each waiter thread blocked in nanosleep, which in these threads happens
 * only in the last phase of the library's wait back-off (white box: see
 * base/wait.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptl_test.h"

#define PT       33
#define NTHREADS 4
#define NOPS     200

static ptl_test_env_t env;
static ptl_handle_md_t md;
static int right;
static uint64_t src[NTHREADS * NOPS + 1];
static uint64_t dst[NTHREADS * NOPS + 1];

static void *sender(void *arg)
{
    int t = (int)(intptr_t)arg, i;

    for (i = 0; i < NOPS; i++) {
        int k = t * NOPS + i;

        PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)k * 8, 8, PTL_NO_ACK_REQ,
                             ptl_test_rank(right), PT, 0, (ptl_size_t)k * 8,
                             NULL, 0));
        PTL_OK_OR_DIE(PtlAtomic(
            md, NTHREADS * NOPS * 8, 8, PTL_NO_ACK_REQ, ptl_test_rank(right),
            PT, 0, NTHREADS * NOPS * 8, NULL, 0, PTL_SUM, PTL_UINT64_T));
    }
    return NULL;
}

static ptl_handle_eq_t wait_eq;
static ptl_handle_ct_t wait_ct;
static _Atomic long waiter_tid[2];

static void *eq_waiter(void *arg)
{
    ptl_event_t ev;

    (void)arg;
    atomic_store(&waiter_tid[0], (long)syscall(SYS_gettid));
    PTL_EXPECT(PTL_INTERRUPTED, PtlEQWait(wait_eq, &ev));
    return NULL;
}

static void *ct_waiter(void *arg)
{
    ptl_ct_event_t v;

    (void)arg;
    atomic_store(&waiter_tid[1], (long)syscall(SYS_gettid));
    PTL_EXPECT(PTL_INTERRUPTED, PtlCTWait(wait_ct, 1000, &v));
    return NULL;
}

/* 1 if thread @tid of this process is blocked in (clock_)nanosleep. */
static int thread_sleeping(long tid)
{
    char path[64];
    long nr = -1;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/self/task/%ld/syscall", tid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    if (fscanf(f, "%ld", &nr) != 1) {
        nr = -1;
    }
    fclose(f);
    return (nr == SYS_clock_nanosleep) || (nr == SYS_nanosleep);
}

/* Waits until waiter @k is asleep inside its wait. */
static void await_waiter(int k)
{
    long tid;

    while (((tid = atomic_load(&waiter_tid[k])) == 0) ||
           !thread_sleeping(tid)) {
        sched_yield();
    }
}

int main(void)
{
    pthread_t threads[NTHREADS], w1, w2;
    ptl_handle_ct_t ct;
    ptl_handle_me_t meh;
    ptl_ct_event_t v;
    ptl_md_t mdd;
    ptl_me_t me;
    int i;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start         = dst;
    me.length        = sizeof(dst);
    me.ct_handle     = ct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
    for (i = 0; i < NTHREADS * NOPS; i++) {
        src[i] = 0xc0de000000000000ull | (uint64_t)i;
    }
    src[NTHREADS * NOPS] = 1;
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);
    for (i = 0; i < NTHREADS; i++) {
        XG_CHECK(
            pthread_create(&threads[i], NULL, sender, (void *)(intptr_t)i) == 0,
            "thread");
    }
    for (i = 0; i < NTHREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    PTL_OK_OR_DIE(PtlCTWait(ct, 2 * NTHREADS * NOPS, &v));
    XG_CHECK(v.failure == 0, "failures");
    for (i = 0; i < NTHREADS * NOPS; i++) {
        XG_CHECK(dst[i] == (0xc0de000000000000ull | (uint64_t)i), "word %d", i);
    }
    XG_CHECK(dst[NTHREADS * NOPS] == NTHREADS * NOPS, "atomic sum %llu",
             (unsigned long long)dst[NTHREADS * NOPS]);
    ptl_test_barrier(&env);

    /* waiters released by frees */
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4, &wait_eq));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &wait_ct));
    XG_CHECK(pthread_create(&w1, NULL, eq_waiter, NULL) == 0, "thread");
    XG_CHECK(pthread_create(&w2, NULL, ct_waiter, NULL) == 0, "thread");
    await_waiter(0);
    await_waiter(1);
    PTL_OK_OR_DIE(PtlEQFree(wait_eq));
    PTL_OK_OR_DIE(PtlCTFree(wait_ct));
    pthread_join(w1, NULL);
    pthread_join(w2, NULL);

    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlCTFree(ct));
    ptl_test_fini(&env);
    return 0;
}
