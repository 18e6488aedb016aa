/*
 * ARMCI groups and the message layer: child groups from a list (members
 * and non-members), split and dup, ranks and absolute ids, the default
 * group, group allocation with sizes that differ (and are 0 on some
 * members) and one-sided operations inside it, group barriers; then
 * send/receive, broadcasts, every reduction operator on every type,
 * reduce, select, the binary tree and the address exchange, on the world
 * and on a group.
 */
#include <string.h>

#include "armci_test.h"

static void test_groups(void)
{
    ARMCI_Group world, odd, dflt, split, dup;
    int *procs = malloc(sizeof(int) * (size_t)at_np), n = 0, i, r, size;
    void **ptrs;

    ARMCI_Group_get_world(&world);
    for (i = 1; i < at_np; i += 2) {
        procs[n++] = i;
    }
    ARMCI_Group_create_child(n, procs, &odd, &world);
    if (at_me % 2 == 1) {
        ARMCI_Group_rank(&odd, &r);
        ARMCI_Group_size(&odd, &size);
        CHECK((r == at_me / 2) && (size == n), "odd group: rank %d size %d", r,
              size);
        for (i = 0; i < size; i++) {
            CHECK(ARMCI_Absolute_id(&odd, i) == 2 * i + 1, "absolute id");
        }
        CHECK(armci_group_comm(&odd) != MPI_COMM_NULL, "comm");
        /* allocation on the group: member r asks r * 100 bytes */
        ptrs = malloc(sizeof(void *) * (size_t)size);
        CHECK(ARMCI_Malloc_group(ptrs, 100L * r, &odd) == 0, "malloc");
        CHECK((ptrs[0] == NULL) && ((size == 1) || (ptrs[1] != NULL)),
              "zero-size member has NULL");
        if (r > 0) {
            memset(ptrs[r], 0, (size_t)(100 * r));
        }
        armci_msg_group_barrier(&odd);
        /* each member with memory gets a put from the member below */
        if (r + 1 < size) {
            int v = 1000 + r;

            CHECK(ARMCI_Put(&v, ptrs[r + 1], sizeof(v),
                            ARMCI_Absolute_id(&odd, r + 1)) == 0,
                  "put");
        }
        ARMCI_AllFence();
        armci_msg_group_barrier(&odd);
        if (r > 0) {
            CHECK(*(int *)ptrs[r] == 1000 + r - 1, "group put");
        }
        {
            long x = r + 1;

            armci_msg_group_lgop(&x, 1, "+", &odd);
            CHECK(x == (long)size * (size + 1) / 2, "group sum %ld", x);
        }
        CHECK(ARMCI_Free_group(ptrs[r], &odd) == 0, "free");
        free(ptrs);
        ARMCI_Group_free(&odd);
    } else {
        CHECK(odd.comm == MPI_COMM_NULL, "a non-member's group");
    }
    /* split into halves, dup, default */
    ARMCIX_Group_split(&world, at_me < at_np / 2, at_np - at_me, &split);
    ARMCI_Group_size(&split, &size);
    ARMCI_Group_rank(&split, &r);
    CHECK(size == ((at_me < at_np / 2) ? at_np / 2 : at_np - at_np / 2),
          "split size %d", size);
    CHECK(ARMCI_Absolute_id(&split, r) == at_me, "split absolute id");
    ARMCIX_Group_dup(&split, &dup);
    ARMCI_Group_set_default(&dup);
    ARMCI_Group_get_default(&dflt);
    CHECK(dflt.comm == dup.comm, "default");
    procs[0] = 0;
    ARMCI_Group_create(1, procs, &odd); /* from the default group */
    if (r == 0) {
        CHECK(odd.size == 1, "a group of the default's rank 0");
        ARMCI_Group_free(&odd);
    }
    ARMCI_Group_set_default(&world);
    ARMCI_Group_free(&dup);
    ARMCI_Group_free(&split);
    CHECK(ARMCI_Uses_shm_grp(&world) == ARMCI_Uses_shm(), "uses_shm");
    free(procs);
}

static void test_messages(void)
{
    int i, len, from, root = at_np - 1;
    char buf[64];
    long lx[3];
    double dx[2];
    float fx;
    long long llx;
    int ix[4], up, left, right, tree_root;
    void **addrs;

    /* a ring of messages */
    snprintf(buf, sizeof(buf), "hello from %d", at_me);
    if (at_np > 1) {
        if (at_me % 2 == 0) {
            armci_msg_snd(7, buf, (int)strlen(buf) + 1, (at_me + 1) % at_np);
            armci_msg_rcv(7, buf, sizeof(buf), &len,
                          (at_me + at_np - 1) % at_np);
        } else {
            char in[64];

            armci_msg_rcv(7, in, sizeof(in), &len, (at_me + at_np - 1) % at_np);
            armci_msg_snd(7, buf, (int)strlen(buf) + 1, (at_me + 1) % at_np);
            memcpy(buf, in, sizeof(in));
        }
        snprintf(buf + 32, 32, "hello from %d", (at_me + at_np - 1) % at_np);
        CHECK(strcmp(buf, buf + 32) == 0, "ring: got '%s'", buf);
        if (at_me == 0) {
            for (i = 1; i < at_np; i++) {
                from = armci_msg_rcvany(9, ix, sizeof(ix), &len);
                CHECK((len == sizeof(int)) && (ix[0] == from * 10),
                      "rcvany from %d", from);
            }
        } else {
            ix[0] = at_me * 10;
            armci_msg_snd(9, ix, sizeof(int), 0);
        }
    }
    /* broadcasts */
    lx[0] = (at_me == root) ? 4242 : 0;
    armci_msg_bcast(lx, sizeof(long), root);
    CHECK(lx[0] == 4242, "bcast");
    lx[0] = (at_me == 0) ? 17 : 0;
    armci_msg_brdcst(lx, sizeof(long), 0);
    CHECK(lx[0] == 17, "brdcst");
    /* reductions */
    ix[0] = at_me + 1;                          /* + */
    ix[1] = (at_me % 2) ? -(at_me + 5) : at_me; /* absmax */
    armci_msg_igop(ix, 1, "+");
    CHECK(ix[0] == at_np * (at_np + 1) / 2, "igop +");
    armci_msg_igop(ix + 1, 1, "absmax");
    CHECK(ix[1] ==
              ((at_np > 1) ? ((at_np - 1) % 2 ? at_np + 4 : at_np + 3) : 0),
          "absmax %d", ix[1]);
    lx[0] = at_me + 2;
    lx[1] = at_me + 2;
    lx[2] = 1L << at_me;
    armci_msg_lgop(lx, 1, "*");
    armci_msg_lgop(lx + 1, 1, "min");
    armci_msg_lgop(lx + 2, 1, "or");
    {
        long prod = 1;

        for (i = 0; i < at_np; i++) {
            prod *= i + 2;
        }
        CHECK(lx[0] == prod, "lgop *");
    }
    CHECK(lx[1] == 2, "lgop min");
    CHECK(lx[2] == (1L << at_np) - 1, "lgop or");
    llx = at_me;
    armci_msg_llgop(&llx, 1, "max");
    CHECK(llx == at_np - 1, "llgop max");
    fx = -(float)at_me - 1;
    armci_msg_fgop(&fx, 1, "absmin");
    CHECK(fx == 1.0f, "fgop absmin %g", fx);
    dx[0] = 0.5 * at_me;
    dx[1] = at_me;
    armci_msg_dgop(dx, 2, "+");
    CHECK((dx[0] == 0.25 * at_np * (at_np - 1)) &&
              (dx[1] == 0.5 * at_np * (at_np - 1)),
          "dgop +");
    ix[2] = 1;
    ix[3] = at_me;
    armci_msg_gop_scope(SCOPE_ALL, ix + 2, 1, "&&", ARMCI_INT);
    armci_msg_gop_scope(SCOPE_NODE, ix + 3, 1, "+", ARMCI_INT);
    CHECK(ix[2] == 1, "land");
    /* to the lowest rank only */
    ix[0] = 2;
    armci_msg_reduce(ix, 1, "+", ARMCI_INT);
    if (at_me == 0) {
        CHECK(ix[0] == 2 * at_np, "reduce");
    }
    /* select: the largest key among the odd processes carries its data */
    dx[0] = (double)at_me;
    dx[1] = 100.0 + at_me;
    armci_msg_sel(dx, sizeof(dx), "max", ARMCI_DOUBLE, at_me % 2);
    if (at_np > 1) {
        int best = (at_np % 2) ? at_np - 2 : at_np - 1;

        CHECK((dx[0] == best) && (dx[1] == 100.0 + best), "sel max %g", dx[0]);
    }
    ix[0] = at_me + 3;
    armci_msg_sel(ix, sizeof(int), "min", ARMCI_INT, 1);
    CHECK(ix[0] == 3, "sel min");
    /* the tree over every process */
    armci_msg_bintree(SCOPE_ALL, &tree_root, &up, &left, &right);
    CHECK((tree_root == 0) && (up == ((at_me == 0) ? -1 : (at_me - 1) / 2)) &&
              (left == ((2 * at_me + 1 < at_np) ? 2 * at_me + 1 : -1)),
          "bintree");
    /* addresses */
    addrs        = calloc((size_t)at_np, sizeof(void *));
    addrs[at_me] = (void *)(uintptr_t)(0x1000 + at_me);
    armci_exchange_address(addrs, at_np);
    for (i = 0; i < at_np; i++) {
        CHECK(addrs[i] == (void *)(uintptr_t)(0x1000 + i), "exchange");
    }
    free(addrs);
    CHECK(armci_msg_me() == at_me && armci_msg_nproc() == at_np, "me");
    {
        double t0 = armci_timer();

        CHECK(armci_timer() >= t0, "the timer goes back");
    }
    armci_msg_barrier();
}

int main(int argc, char **argv)
{
    at_start(&argc, &argv);
    test_groups();
    test_messages();
    return at_finish("test_armci_groups");
}
