/*
 * An ARMCI allocation as large as Global Arrays' stride test asks for
 * (576 MB per process) with no SHMEM_SYMMETRIC_SIZE set: libarmci sizes
 * the symmetric heap from the node's memory.  Each process asks for
 * argv[1] MiB (default 600), writes its whole part (every page is
 * committed), then puts into the next process's part and gets back from
 * it at its start, its middle and its last bytes.
 */
#include <string.h>

#include "armci_test.h"

enum {
    CHUNK = 4096
};

int main(int argc, char **argv)
{
    long mib   = (argc > 1) ? atol(argv[1]) : 600;
    long bytes = mib << 20, at[3], i, k;
    unsigned char out[CHUNK], in[CHUNK], *mine;
    void **base;
    int right, left;

    at_start(&argc, &argv);
    right = (at_me + 1) % at_np;
    left  = (at_me + at_np - 1) % at_np;
    base  = at_malloc(bytes);
    mine  = base[at_me];
    CHECK(mine != NULL, "ARMCI_Malloc of %ld bytes gave NULL", bytes);
    memset(mine, 0x5a, (size_t)bytes);
    ARMCI_Barrier();

    at[0] = 0;
    at[1] = bytes / 2;
    at[2] = bytes - CHUNK;
    for (k = 0; k < 3; k++) {
        for (i = 0; i < CHUNK; i++) {
            out[i] = at_byte(at_me, at[k] + i);
        }
        CHECK(ARMCI_Put(out, (char *)base[right] + at[k], CHUNK, right) == 0,
              "ARMCI_Put at offset %ld", at[k]);
    }
    ARMCI_AllFence();
    ARMCI_Barrier();
    for (k = 0; k < 3; k++) {
        /* what the left neighbour put into this process's part */
        for (i = 0; i < CHUNK; i++) {
            CHECK(mine[at[k] + i] == at_byte(left, at[k] + i),
                  "byte %ld of my part is %d, process %d put %d", at[k] + i,
                  mine[at[k] + i], left, at_byte(left, at[k] + i));
        }
        /* and back from the right neighbour's part */
        CHECK(ARMCI_Get((char *)base[right] + at[k], in, CHUNK, right) == 0,
              "ARMCI_Get at offset %ld", at[k]);
        for (i = 0; i < CHUNK; i++) {
            CHECK(in[i] == at_byte(at_me, at[k] + i),
                  "byte %ld of process %d's part is %d, expected %d", at[k] + i,
                  right, in[i], at_byte(at_me, at[k] + i));
        }
    }
    /* between the chunks the pattern written before is intact */
    CHECK(mine[CHUNK] == 0x5a && mine[bytes / 2 - 1] == 0x5a &&
              mine[bytes - CHUNK - 1] == 0x5a,
          "bytes outside the puts changed");
    ARMCI_Barrier();
    at_free(base);
    return at_finish("test_armci_big");
}
