/*
 * A heap sized from the node's memory (as libarmci asks for it, through
 * xg_runtime_heap_from_node) across nodes of different PE counts: the
 * nodes' shares differ, every PE must still get the same heap (the
 * smallest share), and 600 MiB per PE -- more than the default -- are
 * allocated, written whole and reached across the nodes.
 */
#include <shmem.h>
#include <string.h>

#include "runtime/xg_runtime.h"
#include "xg_test.h"

enum {
    CHUNK = 4096
};

int main(void)
{
    size_t bytes = (size_t)600 << 20, i;
    unsigned char *heap, out[CHUNK];
    int me, npes, right, left;

    xg_runtime_heap_from_node();
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    heap       = shmem_malloc(bytes);
    XG_CHECK(heap != NULL, "shmem_malloc of %zu bytes", bytes);
    memset(heap, 0x5a, bytes);
    for (i = 0; i < CHUNK; i++) {
        out[i] = (unsigned char)(me * 31 + i);
    }
    shmem_barrier_all();
    shmem_putmem(heap + bytes - CHUNK, out, CHUNK, right);
    shmem_barrier_all();
    for (i = 0; i < CHUNK; i++) {
        XG_CHECK(heap[bytes - CHUNK + i] == (unsigned char)(left * 31 + i),
                 "byte %zu from PE %d is %d", i, left, heap[bytes - CHUNK + i]);
    }
    XG_CHECK(heap[bytes - CHUNK - 1] == 0x5a, "a byte before the put changed");
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return XG_TEST_PASS;
}
