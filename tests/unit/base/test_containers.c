/*
 * The generic containers of src/base that the NIC builds on:
 *  - pool: handles carry the owner's tag, a freed handle stops resolving
 *    (generation), the limit holds, slots are reused;
 *  - hash: chains keep insertion order across growth, removal unlinks;
 *  - spin lock: threads incrementing a plain counter under it lose nothing.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_hash.h"
#include "base/xg_pool.h"
#include "base/xg_spinlock.h"
#include "xg_test.h"

typedef struct item {
    xg_pool_obj_t obj;
    uint64_t value;
} item_t;

static void count_live(void *obj, void *arg)
{
    (void)obj;
    (*(unsigned *)arg)++;
}

static void test_pool(void)
{
    enum {
        MAX = 600
    }; /* more than two chunks */
    static item_t *items[MAX];
    xg_pool_t pool, other;
    uint32_t handle, old;
    unsigned i, live = 0;
    item_t *it;

    XG_CHECK(xg_pool_init(&pool, sizeof(item_t), MAX, 5) == XG_OK, "init");
    XG_CHECK(xg_pool_init(&other, sizeof(item_t), MAX, 6) == XG_OK, "init");
    for (i = 0; i < MAX; i++) {
        items[i] = xg_pool_alloc(&pool);
        XG_CHECK(items[i] != NULL, "alloc %u of %u", i, MAX);
        XG_CHECK(((uintptr_t)items[i] % 64) == 0, "object %u aligned", i);
        XG_CHECK(items[i]->value == 0, "object %u zeroed", i);
        handle = xg_pool_obj_handle(items[i]);
        XG_CHECK((handle >> XG_POOL_TAG_SHIFT) == 5, "tag of handle %#x",
                 handle);
        XG_CHECK(xg_pool_lookup(&pool, handle) == items[i], "lookup %u", i);
        items[i]->value = i + 1;
    }
    XG_CHECK(xg_pool_alloc(&pool) == NULL, "limit of %u objects", MAX);
    handle = xg_pool_obj_handle(items[7]);
    XG_CHECK(xg_pool_lookup(&other, handle) == NULL,
             "a handle with another tag does not resolve");
    xg_pool_each(&pool, count_live, &live);
    XG_CHECK(live == MAX, "each saw %u of %u objects", live, MAX);

    old = handle;
    xg_pool_free(&pool, items[7]);
    XG_CHECK(xg_pool_lookup(&pool, old) == NULL, "freed handle %#x", old);
    it = xg_pool_alloc(&pool);
    XG_CHECK(it == items[7], "the freed slot is reused");
    XG_CHECK(it->value == 0, "a reused object is zeroed");
    handle = xg_pool_obj_handle(it);
    XG_CHECK(handle != old, "a new generation: %#x after %#x", handle, old);
    XG_CHECK(xg_pool_lookup(&pool, old) == NULL, "stale handle %#x", old);
    XG_CHECK(xg_pool_lookup(&pool, handle) == it, "new handle");
    XG_CHECK(xg_pool_lookup(&pool, 0) == NULL, "handle 0 is never valid");
    xg_pool_fini(&pool);
    xg_pool_fini(&other);
}

typedef struct entry {
    xg_hlink_t link;
    uint64_t key;
    unsigned order;
} entry_t;

static void test_hash(void)
{
    enum {
        N    = 2000,
        KEYS = 7
    };
    static entry_t e[N];
    unsigned i, k, last, seen;
    xg_hlink_t *l;
    xg_htab_t tab;

    xg_htab_init(&tab);
    XG_CHECK(xg_htab_first(&tab, 1) == NULL, "empty table");
    /* many entries on few keys: chains are long and the table grows many
     * times while they are built */
    for (i = 0; i < N; i++) {
        e[i].key       = i % KEYS;
        e[i].order     = i;
        e[i].link.hash = xg_hash2(e[i].key, 42);
        xg_htab_append(&tab, &e[i].link);
    }
    XG_CHECK(tab.count == N, "count %u", tab.count);
    XG_CHECK(xg_hash2(1, 2) != xg_hash2(2, 1), "hash depends on order");
    /* remove every third entry */
    for (i = 0; i < N; i += 3) {
        xg_htab_remove(&tab, &e[i].link);
    }
    for (k = 0; k < KEYS; k++) {
        last = 0;
        seen = 0;
        for (l = xg_htab_first(&tab, xg_hash2(k, 42)); l != NULL; l = l->next) {
            entry_t *en = xg_container_of(l, entry_t, link);

            if (en->key != k) {
                continue; /* another key sharing the bucket */
            }
            XG_CHECK((en->order % 3) != 0, "removed entry %u still listed",
                     en->order);
            XG_CHECK((seen == 0) || (en->order > last),
                     "key %u: entry %u after %u (insertion order lost)", k,
                     en->order, last);
            last = en->order;
            seen++;
        }
        for (i = 0, last = 0; i < N; i++) {
            last += ((i % KEYS) == k) && ((i % 3) != 0);
        }
        XG_CHECK(seen == last, "key %u: %u entries, expected %u", k, seen,
                 last);
    }
    xg_htab_fini(&tab);
}

enum {
    THREADS = 4,
    ROUNDS  = 20000
};

static xg_spinlock_t lock;
static uint64_t counter;

static void *spin_main(void *arg)
{
    int i;

    (void)arg;
    for (i = 0; i < ROUNDS; i++) {
        xg_spinlock_lock(&lock);
        counter++;
        xg_spinlock_unlock(&lock);
    }
    return NULL;
}

static void test_spinlock(void)
{
    pthread_t t[THREADS];
    int i;

    xg_spinlock_init(&lock);
    XG_CHECK(xg_spinlock_trylock(&lock), "trylock of a free lock");
    XG_CHECK(!xg_spinlock_trylock(&lock), "trylock of a held lock");
    xg_spinlock_unlock(&lock);
    for (i = 0; i < THREADS; i++) {
        XG_CHECK(pthread_create(&t[i], NULL, spin_main, NULL) == 0, "thread %d",
                 i);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
    }
    XG_CHECK(counter == (uint64_t)THREADS * ROUNDS,
             "counter %llu, expected %llu", (unsigned long long)counter,
             (unsigned long long)THREADS * ROUNDS);
}

int main(void)
{
    test_pool();
    test_hash();
    test_spinlock();
    return XG_TEST_PASS;
}
