/*
 * The buddy allocator: blocks are powers of two, aligned to their size,
 * never overlap, and everything freed merges back into one block.  A
 * random sequence of allocations and frees is checked against the
 * allocator's own bookkeeping after every step.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_buddy.h"
#include "xg_test.h"

#define ARENA (1u << 20)
#define SLOTS 512

int main(void)
{
    xg_buddy_t b;
    uint8_t *blocks[SLOTS];
    size_t sizes[SLOTS], free_bytes, i, j, len;
    uint32_t rng = 7;
    int step;

    XG_CHECK(xg_buddy_init(&b, NULL, ARENA - 5, 64) == XG_OK, "init");
    XG_CHECK(b.size == ARENA, "arena rounded to %zu", b.size);
    XG_CHECK(xg_buddy_check(&b, &free_bytes) == 0 && free_bytes == ARENA,
             "fresh arena");
    XG_CHECK(xg_buddy_alloc(&b, ARENA + 1) == NULL, "too large");
    /* the whole arena, then nothing */
    blocks[0] = xg_buddy_alloc(&b, ARENA);
    XG_CHECK(blocks[0] == b.base && xg_buddy_alloc(&b, 1) == NULL, "full");
    xg_buddy_free(&b, blocks[0]);
    memset(blocks, 0, sizeof(blocks));
    for (step = 0; step < 200000; step++) {
        rng = rng * 1664525u + 1013904223u;
        i   = (rng >> 8) % SLOTS;
        if (blocks[i] != NULL) {
            XG_CHECK(blocks[i][0] == (uint8_t)i &&
                         blocks[i][sizes[i] - 1] == (uint8_t)i,
                     "block %zu was overwritten", i);
            xg_buddy_free(&b, blocks[i]);
            blocks[i] = NULL;
        } else {
            len = 1 + ((rng >> 4) % 8192);
            if ((rng & 0xf) == 0) {
                len *= 16;
            }
            blocks[i] = xg_buddy_alloc(&b, len);
            if (blocks[i] != NULL) {
                size_t got = xg_buddy_block_size(&b, blocks[i]);

                XG_CHECK(got >= len && (got & (got - 1)) == 0 &&
                             ((size_t)(blocks[i] - b.base) % got) == 0,
                         "block of %zu for %zu bytes, misaligned?", got, len);
                sizes[i] = len;
                memset(blocks[i], (int)i, len);
            }
        }
        if (step % 1000 == 0) {
            XG_CHECK(xg_buddy_check(&b, &free_bytes) == 0,
                     "bookkeeping at step %d", step);
            for (j = 0; j < SLOTS; j++) { /* no two blocks overlap */
                if (blocks[j] != NULL) {
                    XG_CHECK(blocks[j][0] == (uint8_t)j, "overlap at %zu", j);
                }
            }
        }
    }
    for (i = 0; i < SLOTS; i++) {
        xg_buddy_free(&b, blocks[i]);
    }
    XG_CHECK(xg_buddy_check(&b, &free_bytes) == 0 && free_bytes == ARENA,
             "everything merged back: %zu free", free_bytes);
    blocks[0] = xg_buddy_alloc(&b, ARENA);
    XG_CHECK(blocks[0] != NULL, "one block again");
    xg_buddy_fini(&b);
    XG_CHECK(xg_buddy_init(&b, NULL, 4096, 48) == XG_ERR_INVALID_PARAM,
             "min block must be a power of two");
    return 0;
}
