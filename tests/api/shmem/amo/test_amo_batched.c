/*
 * Batched atomics across nodes (XGAS_AMO_BATCH, docs/multinode.md): the
 * non-fetching add, and, or and xor to a PE of another node travel in
 * messages of many.  Runs across virtual nodes (2x2, 4x1, 3x3: PEs 0 and
 * 8 share a batch slot, so batches of different PEs replace each other)
 * and once with batching off, and checks
 *   - a random stream of adds and xors on 32- and 64-bit words from every
 *     PE to every PE, more than a batch to one PE: exact after quiet and
 *     a barrier (each PE replays every stream to know its own words);
 *   - a fetching atomic sees the adds before it without a quiet, and a
 *     set follows them;
 *   - an add that a waiting PE depends on is not held back: PE 0 adds to
 *     a flag of the last PE and waits, without a quiet, for its answer;
 *     then it adds (and puts) to a flag of the last PE and spins on its
 *     own memory with plain loads, never calling the library: the
 *     batches must go out by themselves (the flusher thread);
 *   - adds on a created context, and a fence before a put of a flag;
 *   - word puts that fill a batch (the add of the last one sends it),
 *     then a get of those words by the network's RMA, which could
 *     overtake the batch's message: the get sees every put (the
 *     collectives rely on it: their data, then a descriptor by RMA);
 *   - one word put twice after a quiet (the first goes alone as a write,
 *     the second in a batch): the second value stays.
 */
#include <sched.h>
#include <shmem.h>
#include <stdint.h>

#include "xg_test.h"

#define WORDS    512
#define UPDATES  2000 /* per PE, more than a batch to each PE */
#define FILL_MAX 160  /* words put before a get: past a full batch */

struct table {
    uint64_t w64[WORDS];
    uint32_t w32[WORDS];
    long counter; /* fetch sees the adds before it */
    long flag;    /* the waiting PE's dependency */
    long answer;
    long spin_flag[2]; /* add, put: the spinning PE's dependencies */
    long spin_answer[2];
    long ctx_sum;
    long fenced_sum;
    long fence_flag;
    long filled[FILL_MAX];
    long twice;
};

static uint64_t next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 11;
}

/* The @i-th update of @pe's stream: target PE, word, value, kind. */
typedef struct update {
    int pe;
    int word;
    uint64_t value;
    int kind; /* 0: add 64, 1: xor 64, 2: add 32, 3: xor 32 */
} update_t;

static update_t stream(uint64_t *state, int npes)
{
    uint64_t r = next(state);
    update_t u = {.pe    = (int)(r % (uint64_t)npes),
                  .word  = (int)((r >> 8) % (WORDS / 2)) * 2,
                  .value = next(state),
                  .kind  = (int)((r >> 20) & 3)};

    /* adds and xors do not commute: xors on odd words only */
    u.word += u.kind & 1;

    return u;
}

int main(void)
{
    uint64_t expect64[WORDS] = {0};
    uint32_t expect32[WORDS] = {0};
    struct table *t;
    shmem_ctx_t ctx;
    int me, npes, last, pe, i;
    uint64_t state;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    last       = npes - 1;
    t          = shmem_calloc(1, sizeof(*t));
    XG_CHECK(t != NULL, "allocation");
    shmem_barrier_all();

    /* the random stream */
    state = 0x1234u + (uint64_t)me;
    for (i = 0; i < UPDATES; i++) {
        update_t u = stream(&state, npes);

        switch (u.kind) {
        case 0: shmem_uint64_atomic_add(&t->w64[u.word], u.value, u.pe); break;
        case 1: shmem_uint64_atomic_xor(&t->w64[u.word], u.value, u.pe); break;
        case 2:
            shmem_uint32_atomic_add(&t->w32[u.word], (uint32_t)u.value, u.pe);
            break;
        default:
            shmem_uint32_atomic_xor(&t->w32[u.word], (uint32_t)u.value, u.pe);
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        state = 0x1234u + (uint64_t)pe;
        for (i = 0; i < UPDATES; i++) {
            update_t u = stream(&state, npes);

            if (u.pe != me) {
                continue;
            }
            switch (u.kind) {
            case 0: expect64[u.word] += u.value; break;
            case 1: expect64[u.word] ^= u.value; break;
            case 2: expect32[u.word] += (uint32_t)u.value; break;
            default: expect32[u.word] ^= (uint32_t)u.value;
            }
        }
    }
    for (i = 0; i < WORDS; i++) {
        XG_CHECK(t->w64[i] == expect64[i] && t->w32[i] == expect32[i],
                 "word %d: %#llx/%#x, expected %#llx/%#x after quiet", i,
                 (unsigned long long)t->w64[i], t->w32[i],
                 (unsigned long long)expect64[i], expect32[i]);
    }

    /* a fetch and a set after adds to the same PE, no quiet between */
    if (me == 0) {
        for (i = 0; i < 100; i++) {
            shmem_long_atomic_add(&t->counter, 3, last);
        }
        XG_CHECK(shmem_long_atomic_fetch(&t->counter, last) == 300,
                 "fetch after 100 adds of 3: %ld",
                 shmem_long_atomic_fetch(&t->counter, last));
        shmem_long_atomic_add(&t->counter, 1, last);
        shmem_long_atomic_set(&t->counter, 7, last);
        shmem_long_atomic_add(&t->counter, 2, last);
        shmem_quiet();
        XG_CHECK(shmem_long_atomic_fetch(&t->counter, last) == 9,
                 "add, set 7, add 2: %ld, expected 9",
                 shmem_long_atomic_fetch(&t->counter, last));
    }

    /* the waiting PE: no quiet between the add and the wait */
    if ((me == 0) && (last != 0)) {
        shmem_long_atomic_add(&t->flag, 1, last);
        shmem_long_wait_until(&t->answer, SHMEM_CMP_EQ, 1);
    }
    if ((me == last) && (last != 0)) {
        shmem_long_wait_until(&t->flag, SHMEM_CMP_EQ, 1);
        shmem_long_atomic_set(&t->answer, 1, 0);
    }

    /* the spinning PE: plain loads of its own memory after the update */
    for (i = 0; (i < 2) && (last != 0); i++) {
        if (me == 0) {
            if (i == 0) {
                shmem_long_atomic_add(&t->spin_flag[i], 1, last);
            } else {
                shmem_long_p(&t->spin_flag[i], 1, last);
            }
            while (__atomic_load_n(&t->spin_answer[i], __ATOMIC_ACQUIRE) != 1) {
                sched_yield();
            }
        }
        if (me == last) {
            shmem_long_wait_until(&t->spin_flag[i], SHMEM_CMP_EQ, 1);
            shmem_long_p(&t->spin_answer[i], 1, 0);
            shmem_quiet();
        }
    }

    /* a context's adds, and a fence before a flag */
    XG_CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (i = 0; i < 600; i++) {
        shmem_ctx_long_atomic_add(ctx, &t->ctx_sum, i, (me + 1) % npes);
        shmem_long_atomic_add(&t->fenced_sum, 1, (me + 1) % npes);
    }
    shmem_fence();
    shmem_long_p(&t->fence_flag, 1, (me + 1) % npes);
    shmem_long_wait_until(&t->fence_flag, SHMEM_CMP_EQ, 1);
    XG_CHECK(shmem_long_atomic_fetch(&t->fenced_sum, me) == 600,
             "after the fenced flag: %ld adds of 600 seen",
             shmem_long_atomic_fetch(&t->fenced_sum, me));
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    XG_CHECK(t->ctx_sum == 600L * 599 / 2,
             "context sum %ld, expected %ld after shmem_ctx_quiet", t->ctx_sum,
             600L * 599 / 2);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();

    /* puts, then a get of them, every count up to past a full batch */
    if ((me == 0) && (last != 0)) {
        long seen[FILL_MAX];
        int n, k;

        for (n = 1; n <= FILL_MAX; n++) {
            for (k = 0; k < n; k++) {
                shmem_long_p(&t->filled[k], n * 1000L + k, last);
            }
            shmem_getmem(seen, t->filled, (size_t)n * sizeof(long), last);
            for (k = 0; k < n; k++) {
                XG_CHECK(seen[k] == n * 1000L + k,
                         "after %d word puts, a get of them saw word %d = "
                         "%ld, not %ld",
                         n, k, seen[k], n * 1000L + k);
            }
        }
    }
    shmem_barrier_all();

    /* a write, then a batched put of the same word */
    if ((me == 0) && (last != 0)) {
        for (i = 0; i < 200; i++) {
            shmem_long_p(&t->twice, 2L * i, last);
            shmem_long_p(&t->twice, 2L * i + 1, last);
            shmem_quiet();
            XG_CHECK(shmem_long_g(&t->twice, last) == 2L * i + 1,
                     "a word put %ld then %ld: %ld after quiet", 2L * i,
                     2L * i + 1, shmem_long_g(&t->twice, last));
        }
    }
    shmem_barrier_all();
    shmem_free(t);
    shmem_finalize();
    return 0;
}
