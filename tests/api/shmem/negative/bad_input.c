/*
 * Bad input to the OpenSHMEM API, one case per run: `bad_input CASE`.
 *
 * Each case makes one invalid call -- PE out of range, address that is not
 * symmetric, range past the end of symmetric memory, misaligned atomic,
 * call outside shmem_init..shmem_finalize, invalid comparison operator,
 * bad heap pointer, bad size or level, invalid context or a PE outside its
 * team, bad signal operation, misused lock.  The library must end the job with
 * a message that names the routine and the bad value; expect_failure.sh
 * checks the exit status and the message.  If the call returns instead,
 * the program says so and exits 0, which expect_failure.sh reports as a
 * failure.  Every PE of the job runs the same case.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG_GLOBAL (1 << 16)

static long g_long;
static long g_array[4];
static int g_ints[4];
static char big_global[BIG_GLOBAL];

/* Keeps stack and malloc'd buffers alive and their stores visible. */
static void *volatile sink;

/* Fills this thread's NLB with every valid PE, so that the bad PE below
 * meets a warm translation cache, not only the slow path. */
static void warm_nlb(void)
{
    int pe;

    for (pe = 0; pe < shmem_n_pes(); pe++) {
        sink = (void *)shmem_long_g(&g_long, pe);
    }
}

static void pe_npes(void)
{
    shmem_init();
    warm_nlb();
    shmem_long_p(&g_long, 1, shmem_n_pes());
}

static void pe_minus_one(void)
{
    shmem_init();
    warm_nlb();
    shmem_long_p(&g_long, 1, -1);
}

static void putmem_pe_99(void)
{
    shmem_init();
    shmem_putmem(g_array, g_array, sizeof(g_array), 99);
}

static void put_stack(void)
{
    long stack[4] = {0};

    shmem_init();
    sink = stack;
    shmem_long_put(stack, g_array, 4, 0);
}

static void get_stack(void)
{
    long stack[4] = {0}, local[4];

    shmem_init();
    sink = stack;
    shmem_long_get(local, stack, 4, 0);
}

static void atomic_stack(void)
{
    long stack = 0;

    shmem_init();
    sink = &stack;
    shmem_long_atomic_add(&stack, 1, 0);
}

static void put_malloc(void)
{
    long *buf = calloc(4, sizeof(long));

    shmem_init();
    sink = buf;
    shmem_long_put(buf, g_array, 4, 0);
}

static void get_malloc(void)
{
    long *buf = calloc(4, sizeof(long)), local[4];

    shmem_init();
    sink = buf;
    shmem_long_get(local, buf, 4, 0);
}

static void atomic_malloc(void)
{
    long *buf = calloc(1, sizeof(long));

    shmem_init();
    sink = buf;
    shmem_long_atomic_fetch_add(buf, 1, 0);
}

static void putmem_past_global(void)
{
    char *source = calloc(2, BIG_GLOBAL);

    shmem_init();
    shmem_putmem(big_global, source, 2 * BIG_GLOBAL, 0);
}

static void getmem_past_heap(void)
{
    char *obj, local[128];

    shmem_init();
    obj = shmem_malloc(64);
    shmem_getmem(local, obj, sizeof(local), 0);
}

static void atomic_misaligned(void)
{
    int *obj;

    shmem_init();
    obj = shmem_malloc(16);
    shmem_int_atomic_add((int *)((char *)obj + 1), 1, 0);
}

static void put_count_overflow(void)
{
    shmem_init();
    shmem_long_put(g_array, g_array, SIZE_MAX / 4, 0);
}

static void before_init_p(void)
{
    shmem_long_p(&g_long, 1, 0);
}

static void before_init_barrier(void)
{
    shmem_barrier_all();
}

static void before_init_my_pe(void)
{
    sink = (void *)(intptr_t)shmem_my_pe();
}

static void before_init_malloc(void)
{
    sink = shmem_malloc(64);
}

static void before_init_finalize(void)
{
    shmem_finalize();
}

static void after_finalize_p(void)
{
    shmem_init();
    warm_nlb();
    shmem_finalize();
    shmem_long_p(&g_long, 1, 0);
}

static void after_finalize_barrier(void)
{
    shmem_init();
    shmem_finalize();
    shmem_barrier_all();
}

static void after_finalize_wait(void)
{
    shmem_init();
    shmem_finalize();
    shmem_long_wait_until(&g_long, SHMEM_CMP_EQ, 0);
}

static void finalize_twice(void)
{
    shmem_init();
    shmem_finalize();
    shmem_finalize();
}

static void init_thread_level(void)
{
    int provided;

    shmem_init_thread(7, &provided);
}

static void wait_bad_cmp(void)
{
    shmem_init();
    shmem_long_wait_until(&g_long, 42, 0);
}

static void test_any_bad_cmp(void)
{
    shmem_init();
    shmem_int_test_any(g_ints, 4, NULL, -1, 0);
}

static void wait_stack(void)
{
    int stack = 1;

    shmem_init();
    sink = &stack;
    shmem_int_wait_until(&stack, SHMEM_CMP_EQ, 1);
}

static void wait_misaligned(void)
{
    int *obj;

    shmem_init();
    obj = shmem_calloc(4, sizeof(int));
    shmem_int_wait_until((int *)((char *)obj + 2), SHMEM_CMP_EQ, 0);
}

static void wait_all_past_end(void)
{
    long *obj;

    shmem_init();
    obj = shmem_calloc(4, sizeof(long));
    shmem_long_wait_until_all(obj, 100000, NULL, SHMEM_CMP_EQ, 0);
}

static void some_null_indices(void)
{
    shmem_init();
    shmem_int_wait_until_some(g_ints, 4, NULL, NULL, SHMEM_CMP_EQ, 0);
}

static void vector_null_values(void)
{
    shmem_init();
    shmem_int_test_all_vector(g_ints, 4, NULL, SHMEM_CMP_EQ, NULL);
}

static void free_global(void)
{
    shmem_init();
    shmem_free(&g_long);
}

static void free_stack(void)
{
    long stack;

    shmem_init();
    sink = &stack;
    shmem_free(&stack);
}

static void free_interior(void)
{
    char *obj;

    shmem_init();
    obj = shmem_malloc(64);
    shmem_free(obj + 16);
}

static void free_twice(void)
{
    void *obj;

    shmem_init();
    obj = shmem_malloc(64);
    shmem_free(obj);
    shmem_free(obj);
}

static void realloc_global(void)
{
    shmem_init();
    sink = shmem_realloc(g_array, 64);
}

static void calloc_overflow(void)
{
    shmem_init();
    sink = shmem_calloc(SIZE_MAX / 2, 4);
}

static void align_not_pow2(void)
{
    shmem_init();
    sink = shmem_align(48, 100);
}

static void ctx_invalid(void)
{
    shmem_init();
    shmem_ctx_long_p(SHMEM_CTX_INVALID, &g_long, 1, 0);
}

/* a handle that was never a context: nothing to read behind it */
static void ctx_garbage(void)
{
    shmem_init();
    shmem_ctx_long_p((shmem_ctx_t)0x1234, &g_long, 1, 0);
}

static void ctx_garbage_quiet(void)
{
    shmem_init();
    shmem_ctx_quiet((shmem_ctx_t)0x1234);
}

/* a pointer into a real context, not its handle */
static void ctx_garbage_interior(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    if (shmem_ctx_create(0, &ctx) == 0) {
        shmem_ctx_destroy((shmem_ctx_t)((char *)ctx + 8));
    }
}

static void ctx_pe_outside_team(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    if (shmem_ctx_create(0, &ctx) == 0) {
        shmem_ctx_long_p(ctx, &g_long, 1, shmem_n_pes());
    }
}

static void ctx_team_destroyed(void)
{
    shmem_team_t team;
    shmem_ctx_t ctx;

    shmem_init();
    if ((shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL,
                                  0, &team) == 0) &&
        (shmem_team_create_ctx(team, SHMEM_CTX_PRIVATE, &ctx) == 0)) {
        shmem_team_destroy(team);
        shmem_ctx_long_p(ctx, &g_long, 1, 0);
    }
}

static void ctx_destroy_default(void)
{
    shmem_init();
    shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
}

static void session_null_config(void)
{
    shmem_init();
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL,
                            SHMEM_CTX_SESSION_TOTAL_OPS);
}

static uint64_t g_signals[2];

static void signal_bad_op(void)
{
    shmem_init();
    shmem_putmem_signal(g_array, g_array, 8, &g_signals[0], 1, 7, 0);
}

static void signal_misaligned(void)
{
    shmem_init();
    shmem_signal_add((uint64_t *)((char *)g_signals + 4), 1, 0);
}

static void lock_clear_unheld(void)
{
    shmem_init();
    shmem_clear_lock(&g_array[0]);
}

/* Only PE 0 takes the lock twice; the others wait for the job to end. */
static void lock_reentrant(void)
{
    shmem_init();
    if (shmem_my_pe() == 0) {
        shmem_set_lock(&g_array[1]);
        shmem_set_lock(&g_array[1]);
    }
    shmem_barrier_all();
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"pe_npes", pe_npes},
    {"pe_minus_one", pe_minus_one},
    {"putmem_pe_99", putmem_pe_99},
    {"put_stack", put_stack},
    {"get_stack", get_stack},
    {"atomic_stack", atomic_stack},
    {"put_malloc", put_malloc},
    {"get_malloc", get_malloc},
    {"atomic_malloc", atomic_malloc},
    {"putmem_past_global", putmem_past_global},
    {"getmem_past_heap", getmem_past_heap},
    {"atomic_misaligned", atomic_misaligned},
    {"put_count_overflow", put_count_overflow},
    {"before_init_p", before_init_p},
    {"before_init_barrier", before_init_barrier},
    {"before_init_my_pe", before_init_my_pe},
    {"before_init_malloc", before_init_malloc},
    {"before_init_finalize", before_init_finalize},
    {"after_finalize_p", after_finalize_p},
    {"after_finalize_barrier", after_finalize_barrier},
    {"after_finalize_wait", after_finalize_wait},
    {"finalize_twice", finalize_twice},
    {"init_thread_level", init_thread_level},
    {"wait_bad_cmp", wait_bad_cmp},
    {"test_any_bad_cmp", test_any_bad_cmp},
    {"wait_stack", wait_stack},
    {"wait_misaligned", wait_misaligned},
    {"wait_all_past_end", wait_all_past_end},
    {"some_null_indices", some_null_indices},
    {"vector_null_values", vector_null_values},
    {"free_global", free_global},
    {"free_stack", free_stack},
    {"free_interior", free_interior},
    {"free_twice", free_twice},
    {"realloc_global", realloc_global},
    {"calloc_overflow", calloc_overflow},
    {"align_not_pow2", align_not_pow2},
    {"ctx_invalid", ctx_invalid},
    {"ctx_garbage", ctx_garbage},
    {"ctx_garbage_quiet", ctx_garbage_quiet},
    {"ctx_garbage_interior", ctx_garbage_interior},
    {"ctx_pe_outside_team", ctx_pe_outside_team},
    {"ctx_team_destroyed", ctx_team_destroyed},
    {"ctx_destroy_default", ctx_destroy_default},
    {"session_null_config", session_null_config},
    {"signal_bad_op", signal_bad_op},
    {"signal_misaligned", signal_misaligned},
    {"lock_clear_unheld", lock_clear_unheld},
    {"lock_reentrant", lock_reentrant},
};

int main(int argc, char **argv)
{
    size_t i;

    for (i = 0; (argc == 2) && (i < sizeof(cases) / sizeof(cases[0])); i++) {
        if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            fprintf(stderr, "bad_input: case %s was accepted\n", argv[1]);
            return 0;
        }
    }
    fprintf(stderr, "usage: %s CASE (unknown case %s)\n", argv[0],
            (argc == 2) ? argv[1] : "missing");
    return 2;
}
