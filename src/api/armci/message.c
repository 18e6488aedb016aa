/*
 * The ARMCI message layer (include/message.h) over MPI: ARMCI's world and
 * groups are communicators, a scope selects the processes of this node or
 * one process per node among them.  Process numbers in and out are
 * absolute ids (ranks of ARMCI's world).
 */
#include <stdlib.h>
#include <string.h>

#include "api/armci/armci_int.h"

/* ---- scopes ----------------------------------------------------------------- */

/* The communicator of @scope within @group; *temp_p says the caller frees
 * it.  MPI_COMM_NULL for a process outside it (SCOPE_MASTERS). */
static MPI_Comm msg_comm(const char *routine, int scope, ARMCI_Group *group,
                         int *temp_p)
{
    MPI_Comm comm = MPI_COMM_NULL;
    int is_world, r, lowest = 1;

    xg_armci_check_group(routine, group);
    is_world = (group->comm == xg_armci.world.comm);
    *temp_p  = 0;
    switch (scope) {
    case SCOPE_ALL: return group->comm;
    case SCOPE_NODE:
        if (is_world) {
            return xg_armci.node_comm;
        }
        MPI_Comm_split(group->comm, xg_armci.domain_of[xg_armci.me],
                       group->rank, &comm);
        *temp_p = 1;
        return comm;
    case SCOPE_MASTERS:
        if (is_world) {
            return xg_armci.masters_comm;
        }
        /* the lowest member of each node */
        for (r = 0; r < group->rank; r++) {
            if (xg_armci.domain_of[group->abs[r]] ==
                xg_armci.domain_of[xg_armci.me]) {
                lowest = 0;
                break;
            }
        }
        MPI_Comm_split(group->comm, lowest ? 0 : MPI_UNDEFINED, group->rank,
                       &comm);
        *temp_p = (comm != MPI_COMM_NULL);
        return comm;
    default:
        xg_armci_fail(routine,
                      "scope %d is not SCOPE_ALL, SCOPE_NODE or "
                      "SCOPE_MASTERS",
                      scope);
    }
}

static void msg_done(MPI_Comm *comm, int temp)
{
    if (temp) {
        MPI_Comm_free(comm);
    }
}

/* The rank in @comm of absolute process @abs, or the job ends. */
static int msg_rank_of(const char *routine, MPI_Comm comm, int abs)
{
    MPI_Group world, mine;
    int rank;

    xg_armci_check_proc(routine, abs);
    MPI_Comm_group(xg_armci.comm, &world);
    MPI_Comm_group(comm, &mine);
    MPI_Group_translate_ranks(world, 1, &abs, mine, &rank);
    MPI_Group_free(&world);
    MPI_Group_free(&mine);
    if (rank == MPI_UNDEFINED) {
        xg_armci_fail(routine,
                      "process %d is not among the processes of "
                      "the call",
                      abs);
    }
    return rank;
}

static int msg_abs_of(MPI_Comm comm, int rank)
{
    MPI_Group world, mine;
    int abs;

    if (rank < 0) {
        return -1;
    }
    MPI_Comm_group(comm, &mine);
    MPI_Comm_group(xg_armci.comm, &world);
    MPI_Group_translate_ranks(mine, 1, &rank, world, &abs);
    MPI_Group_free(&world);
    MPI_Group_free(&mine);
    return abs;
}

static void msg_check_member(const char *routine, MPI_Comm comm, int scope)
{
    if (comm == MPI_COMM_NULL) {
        xg_armci_fail(routine,
                      "this process is not in scope %d (%s): only "
                      "the lowest process of each node calls it",
                      scope, (scope == SCOPE_MASTERS) ? "SCOPE_MASTERS" : "?");
    }
}

/* ---- queries, point to point --------------------------------------------------- */

XG_ARMCI_API int armci_msg_me(void)
{
    xg_armci_check_running(__func__);
    return xg_armci.me;
}

XG_ARMCI_API int armci_msg_nproc(void)
{
    xg_armci_check_running(__func__);
    return xg_armci.nproc;
}

XG_ARMCI_API void armci_msg_abort(int code)
{
    ARMCI_Error("armci_msg_abort", code);
}

XG_ARMCI_API double armci_timer(void)
{
    return MPI_Wtime();
}

XG_ARMCI_API void armci_msg_snd(int tag, void *buffer, int len, int to)
{
    xg_armci_check_proc(__func__, to);
    if ((len < 0) || ((len > 0) && (buffer == NULL))) {
        xg_armci_fail(__func__, "len %d with buffer %p", len, buffer);
    }
    MPI_Send(buffer, len, MPI_BYTE, to, tag, xg_armci.comm);
}

XG_ARMCI_API void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen,
                                int from)
{
    MPI_Status st;

    xg_armci_check_proc(__func__, from);
    MPI_Recv(buffer, buflen, MPI_BYTE, from, tag, xg_armci.comm, &st);
    if (msglen != NULL) {
        MPI_Get_count(&st, MPI_BYTE, msglen);
    }
}

XG_ARMCI_API int armci_msg_rcvany(int tag, void *buffer, int buflen,
                                  int *msglen)
{
    MPI_Status st;

    xg_armci_check_running(__func__);
    MPI_Recv(buffer, buflen, MPI_BYTE, MPI_ANY_SOURCE, tag, xg_armci.comm, &st);
    if (msglen != NULL) {
        MPI_Get_count(&st, MPI_BYTE, msglen);
    }
    return st.MPI_SOURCE;
}

/* ---- barriers, trees, broadcasts ------------------------------------------------ */

XG_ARMCI_API void parmci_msg_barrier(void)
{
    xg_armci_check_running("armci_msg_barrier");
    xg_armci_barrier("armci_msg_barrier", &xg_armci.world);
}
XG_EXPORT_ALIAS(armci_msg_barrier, parmci_msg_barrier) XG_WEAK;

XG_ARMCI_API void parmci_msg_group_barrier(ARMCI_Group *group)
{
    xg_armci_check_group("armci_msg_group_barrier", group);
    xg_armci_barrier("armci_msg_group_barrier", group);
}
XG_EXPORT_ALIAS(armci_msg_group_barrier, parmci_msg_group_barrier) XG_WEAK;

XG_ARMCI_API void armci_msg_bintree(int scope, int *Root, int *Up, int *Left,
                                    int *Right)
{
    int temp, me, n;
    MPI_Comm comm = msg_comm(__func__, scope, &xg_armci.world, &temp);

    msg_check_member(__func__, comm, scope);
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    *Root  = msg_abs_of(comm, 0);
    *Up    = (me == 0) ? -1 : msg_abs_of(comm, (me - 1) / 2);
    *Left  = (2 * me + 1 < n) ? msg_abs_of(comm, 2 * me + 1) : -1;
    *Right = (2 * me + 2 < n) ? msg_abs_of(comm, 2 * me + 2) : -1;
    msg_done(&comm, temp);
}

XG_ARMCI_API void armci_msg_group_bcast_scope(int scope, void *buf, int len,
                                              int root, ARMCI_Group *group)
{
    int temp;
    MPI_Comm comm = msg_comm(__func__, scope, group, &temp);

    msg_check_member(__func__, comm, scope);
    if (len < 0) {
        xg_armci_fail(__func__, "len %d is negative", len);
    }
    MPI_Bcast(buf, len, MPI_BYTE, msg_rank_of(__func__, comm, root), comm);
    msg_done(&comm, temp);
}

XG_ARMCI_API void armci_msg_bcast_scope(int scope, void *buffer, int len,
                                        int root)
{
    xg_armci_check_running(__func__);
    armci_msg_group_bcast_scope(scope, buffer, len, root, &xg_armci.world);
}

XG_ARMCI_API void armci_msg_bcast(void *buffer, int len, int root)
{
    xg_armci_check_running(__func__);
    armci_msg_group_bcast_scope(SCOPE_ALL, buffer, len, root, &xg_armci.world);
}

XG_ARMCI_API void armci_msg_brdcst(void *buffer, int len, int root)
{
    xg_armci_check_running(__func__);
    armci_msg_group_bcast_scope(SCOPE_ALL, buffer, len, root, &xg_armci.world);
}

XG_ARMCI_API void armci_msg_clus_brdcst(void *buf, int len)
{
    xg_armci_check_running(__func__);
    MPI_Bcast(buf, len, MPI_BYTE, 0, xg_armci.node_comm);
}

XG_ARMCI_API void armci_grp_clus_brdcst(void *buf, int len, int grp_master,
                                        int grp_clus_nproc,
                                        ARMCI_Group *mastergroup)
{
    int temp;
    MPI_Comm comm;

    (void)grp_clus_nproc; /* the node's members are known */
    comm = msg_comm(__func__, SCOPE_NODE, mastergroup, &temp);
    if ((grp_master < 0) || (grp_master >= mastergroup->size)) {
        xg_armci_fail(__func__,
                      "grp_master %d is not a rank of the group "
                      "of %d",
                      grp_master, mastergroup->size);
    }
    MPI_Bcast(buf, len, MPI_BYTE,
              msg_rank_of(__func__, comm, mastergroup->abs[grp_master]), comm);
    msg_done(&comm, temp);
}

/* ---- reductions ---------------------------------------------------------------- */

static MPI_Datatype msg_type(const char *routine, int type, size_t *size_p)
{
    switch (type) {
    case ARMCI_INT: *size_p = sizeof(int); return MPI_INT;
    case ARMCI_LONG: *size_p = sizeof(long); return MPI_LONG;
    case ARMCI_LONG_LONG: *size_p = sizeof(long long); return MPI_LONG_LONG;
    case ARMCI_FLOAT: *size_p = sizeof(float); return MPI_FLOAT;
    case ARMCI_DOUBLE: *size_p = sizeof(double); return MPI_DOUBLE;
    default:
        xg_armci_fail(routine,
                      "type %d is not ARMCI_INT, ARMCI_LONG, "
                      "ARMCI_LONG_LONG, ARMCI_FLOAT or ARMCI_DOUBLE",
                      type);
    }
}

/* The MPI operation of @op; *abs_p when the values are made absolute
 * first (absmax, absmin). */
typedef enum msg_opcode {
    MSG_SUM,
    MSG_PROD,
    MSG_MAX,
    MSG_MIN,
    MSG_LAND,
    MSG_LOR,
    MSG_BAND,
    MSG_BOR
} msg_opcode_t;

static MPI_Op msg_mpi_op(msg_opcode_t code)
{
    switch (code) {
    case MSG_SUM: return MPI_SUM;
    case MSG_PROD: return MPI_PROD;
    case MSG_MAX: return MPI_MAX;
    case MSG_MIN: return MPI_MIN;
    case MSG_LAND: return MPI_LAND;
    case MSG_LOR: return MPI_LOR;
    case MSG_BAND: return MPI_BAND;
    default: return MPI_BOR;
    }
}

/* The MPI operation of @op; *abs_p when the values are made absolute
 * first (absmax, absmin).  Longer names are tried before their
 * prefixes. */
static MPI_Op msg_op(const char *routine, const char *op, int type, int *abs_p)
{
    static const struct {
        const char *name;
        msg_opcode_t code;
        int bits; /* integers only */
        int abs;
    } ops[] = {{"+", MSG_SUM, 0, 0},      {"*", MSG_PROD, 0, 0},
               {"absmax", MSG_MAX, 0, 1}, {"absmin", MSG_MIN, 0, 1},
               {"max", MSG_MAX, 0, 0},    {"min", MSG_MIN, 0, 0},
               {"land", MSG_LAND, 1, 0},  {"&&", MSG_LAND, 1, 0},
               {"lor", MSG_LOR, 1, 0},    {"||", MSG_LOR, 1, 0},
               {"band", MSG_BAND, 1, 0},  {"&", MSG_BAND, 1, 0},
               {"bor", MSG_BOR, 1, 0},    {"|", MSG_BOR, 1, 0},
               {"and", MSG_LAND, 1, 0},   {"or", MSG_BOR, 1, 0}};
    size_t i;

    if (op == NULL) {
        xg_armci_fail(routine, "op is NULL");
    }
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strncmp(op, ops[i].name, strlen(ops[i].name)) == 0) {
            if (ops[i].bits && (type == ARMCI_FLOAT || type == ARMCI_DOUBLE)) {
                xg_armci_fail(
                    routine,
                    "op \"%s\" needs an integer type, "
                    "not %s",
                    op, (type == ARMCI_FLOAT) ? "ARMCI_FLOAT" : "ARMCI_DOUBLE");
            }
            *abs_p = ops[i].abs;
            return msg_mpi_op(ops[i].code);
        }
    }
    xg_armci_fail(routine,
                  "op \"%s\" is not one of +, *, max, min, absmax, "
                  "absmin, or, and, land, lor, band, bor, &&, ||, &, |",
                  op);
}

static void msg_abs(void *x, int n, int type)
{
    int i;

    for (i = 0; i < n; i++) {
        switch (type) {
        case ARMCI_INT: ((int *)x)[i] = abs(((int *)x)[i]); break;
        case ARMCI_LONG: ((long *)x)[i] = labs(((long *)x)[i]); break;
        case ARMCI_LONG_LONG:
            ((long long *)x)[i] = llabs(((long long *)x)[i]);
            break;
        case ARMCI_FLOAT:
            ((float *)x)[i] =
                (((float *)x)[i] < 0) ? -((float *)x)[i] : ((float *)x)[i];
            break;
        default:
            ((double *)x)[i] =
                (((double *)x)[i] < 0) ? -((double *)x)[i] : ((double *)x)[i];
        }
    }
}

/* A reduction over @scope of @group: to every member (@root < 0) or to
 * rank @root of the scope. */
static void msg_reduce(const char *routine, int scope, void *x, int n,
                       const char *op, int type, ARMCI_Group *group, int root)
{
    size_t size;
    MPI_Datatype dt = msg_type(routine, type, &size);
    int temp, absolute, me;
    MPI_Op mop    = msg_op(routine, op, type, &absolute);
    MPI_Comm comm = msg_comm(routine, scope, group, &temp);

    msg_check_member(routine, comm, scope);
    if ((n < 0) || ((n > 0) && (x == NULL))) {
        xg_armci_fail(routine, "n %d with x %p", n, x);
    }
    if (absolute) {
        msg_abs(x, n, type);
    }
    if (root < 0) {
        MPI_Allreduce(MPI_IN_PLACE, x, n, dt, mop, comm);
    } else {
        MPI_Comm_rank(comm, &me);
        MPI_Reduce((me == root) ? MPI_IN_PLACE : x, x, n, dt, mop, root, comm);
    }
    msg_done(&comm, temp);
}

XG_ARMCI_API void armci_msg_group_gop_scope(int scope, void *x, int n, char *op,
                                            int type, ARMCI_Group *group)
{
    msg_reduce(__func__, scope, x, n, op, type, group, -1);
}

XG_ARMCI_API void armci_msg_gop_scope(int scope, void *x, int n, char *op,
                                      int type)
{
    xg_armci_check_running(__func__);
    msg_reduce(__func__, scope, x, n, op, type, &xg_armci.world, -1);
}

XG_ARMCI_API void armci_msg_reduce_scope(int scope, void *x, int n, char *op,
                                         int type)
{
    xg_armci_check_running(__func__);
    msg_reduce(__func__, scope, x, n, op, type, &xg_armci.world, 0);
}

XG_ARMCI_API void armci_msg_reduce(void *x, int n, char *op, int type)
{
    xg_armci_check_running(__func__);
    msg_reduce(__func__, SCOPE_ALL, x, n, op, type, &xg_armci.world, 0);
}

#define MSG_GOPS(SUFFIX, TYPE, CODE)                                           \
    XG_ARMCI_API void armci_msg_##SUFFIX##gop(TYPE *x, int n, char *op)        \
    {                                                                          \
        xg_armci_check_running(__func__);                                      \
        msg_reduce(__func__, SCOPE_ALL, x, n, op, CODE, &xg_armci.world, -1);  \
    }                                                                          \
    XG_ARMCI_API void armci_msg_group_##SUFFIX##gop(TYPE *x, int n, char *op,  \
                                                    ARMCI_Group *group)        \
    {                                                                          \
        msg_reduce(__func__, SCOPE_ALL, x, n, op, CODE, group, -1);            \
    }                                                                          \
    XG_ARMCI_API void armci_msg_clus_##SUFFIX##gop(TYPE *x, int n, char *op)   \
    {                                                                          \
        xg_armci_check_running(__func__);                                      \
        msg_reduce(__func__, SCOPE_NODE, x, n, op, CODE, &xg_armci.world, -1); \
    }

MSG_GOPS(i, int, ARMCI_INT)
MSG_GOPS(l, long, ARMCI_LONG)
MSG_GOPS(ll, long long, ARMCI_LONG_LONG)
MSG_GOPS(f, float, ARMCI_FLOAT)
MSG_GOPS(d, double, ARMCI_DOUBLE)
#undef MSG_GOPS

/* ---- selection ----------------------------------------------------------------- */

typedef struct msg_sel {
    int contribute;
    int pad;
    double key;     /* integers of up to 53 bits compare exactly */
    long long ikey; /* and longer ones here */
} msg_sel_t;

static int msg_better(const msg_sel_t *a, const msg_sel_t *b, int max,
                      int integer)
{
    if (integer) {
        return max ? (a->ikey > b->ikey) : (a->ikey < b->ikey);
    }
    return max ? (a->key > b->key) : (a->key < b->key);
}

XG_ARMCI_API void armci_msg_sel_scope(int scope, void *x, int n, char *op,
                                      int type, int contribute)
{
    size_t size;
    int temp, nproc, r, best = -1, max = 0;
    int integer = (type != ARMCI_FLOAT) && (type != ARMCI_DOUBLE);
    MPI_Comm comm;
    msg_sel_t mine, *all;

    xg_armci_check_running(__func__);
    msg_type(__func__, type, &size);
    if ((op != NULL) && (strncmp(op, "max", 3) == 0)) {
        max = 1;
    } else if ((op == NULL) || (strncmp(op, "min", 3) != 0)) {
        xg_armci_fail(__func__, "op \"%s\" is not min or max",
                      (op != NULL) ? op : "(null)");
    }
    if ((n < (int)size) || (x == NULL)) {
        xg_armci_fail(__func__,
                      "n %d is smaller than one element of the "
                      "type (%zu bytes), or x is NULL",
                      n, size);
    }
    comm = msg_comm(__func__, scope, &xg_armci.world, &temp);
    msg_check_member(__func__, comm, scope);
    memset(&mine, 0, sizeof(mine));
    mine.contribute = (contribute != 0);
    switch (type) {
    case ARMCI_INT: mine.ikey = *(int *)x; break;
    case ARMCI_LONG: mine.ikey = *(long *)x; break;
    case ARMCI_LONG_LONG: mine.ikey = *(long long *)x; break;
    case ARMCI_FLOAT: mine.key = *(float *)x; break;
    default: mine.key = *(double *)x; break;
    }
    MPI_Comm_size(comm, &nproc);
    all = malloc((size_t)nproc * sizeof(*all));
    if (all == NULL) {
        xg_armci_fail(__func__, "no memory for %d processes", nproc);
    }
    MPI_Allgather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine),
                  MPI_BYTE, comm);
    for (r = 0; r < nproc; r++) {
        if (all[r].contribute &&
            ((best < 0) || msg_better(&all[r], &all[best], max, integer))) {
            best = r;
        }
    }
    free(all);
    if (best >= 0) { /* nobody contributes: x stays */
        MPI_Bcast(x, n, MPI_BYTE, best, comm);
    }
    msg_done(&comm, temp);
}

XG_ARMCI_API void armci_msg_sel(void *x, int n, char *op, int type,
                                int contribute)
{
    armci_msg_sel_scope(SCOPE_ALL, x, n, op, type, contribute);
}
