/*
 * ARMCI groups: a group is an MPI communicator of some of ARMCI's
 * processes, with each member's absolute id (its rank in ARMCI's world).
 * Creation is collective over the parent group, as MPI_Comm_create is; a
 * process that is not in the new group gets one whose comm is
 * MPI_COMM_NULL (rank -1), which it need not free.
 */
#include <stdlib.h>
#include <string.h>

#include "api/armci/armci_int.h"

void xg_armci_group_from_comm(ARMCI_Group *group, MPI_Comm comm)
{
    MPI_Group mine, world;
    int *ranks, r;

    memset(group, 0, sizeof(*group));
    group->comm = comm;
    group->rank = -1;
    if (comm == MPI_COMM_NULL) {
        return;
    }
    MPI_Comm_rank(comm, &group->rank);
    MPI_Comm_size(comm, &group->size);
    group->abs = malloc((size_t)group->size * sizeof(int));
    ranks      = malloc((size_t)group->size * sizeof(int));
    if ((group->abs == NULL) || (ranks == NULL)) {
        xg_armci_fail("ARMCI groups",
                      "no memory for a group of %d "
                      "processes",
                      group->size);
    }
    for (r = 0; r < group->size; r++) {
        ranks[r] = r;
    }
    MPI_Comm_group(comm, &mine);
    MPI_Comm_group(xg_armci.comm, &world);
    MPI_Group_translate_ranks(mine, group->size, ranks, world, group->abs);
    MPI_Group_free(&mine);
    MPI_Group_free(&world);
    free(ranks);
}

void xg_armci_check_group(const char *routine, const ARMCI_Group *group)
{
    xg_armci_check_running(routine);
    if (group == NULL) {
        xg_armci_fail(routine, "the group is NULL");
    }
    if (group->comm == MPI_COMM_NULL) {
        xg_armci_fail(routine,
                      "this process (%d) is not a member of the "
                      "group: only members call it",
                      xg_armci.me);
    }
}

XG_ARMCI_API void ARMCI_Group_create_child(int grp_size, int *pid_list,
                                           ARMCI_Group *group_out,
                                           ARMCI_Group *group_parent)
{
    MPI_Group parent, child;
    MPI_Comm comm;
    char *seen;
    int i;

    xg_armci_check_group(__func__, group_parent);
    if ((group_out == NULL) || (grp_size < 0) ||
        (grp_size > group_parent->size) ||
        ((grp_size > 0) && (pid_list == NULL))) {
        xg_armci_fail(__func__,
                      "grp_size %d with pid_list %p: pass 0..%d "
                      "ranks of the parent group and a group to fill",
                      grp_size, (void *)pid_list, group_parent->size);
    }
    seen = calloc((size_t)group_parent->size, 1);
    if (seen == NULL) {
        xg_armci_fail(__func__, "no memory");
    }
    for (i = 0; i < grp_size; i++) {
        if ((pid_list[i] < 0) || (pid_list[i] >= group_parent->size) ||
            seen[pid_list[i]]) {
            xg_armci_fail(
                __func__,
                "pid_list[%d] = %d is %s: members are "
                "distinct ranks 0..%d of the parent group",
                i, pid_list[i],
                ((pid_list[i] < 0) || (pid_list[i] >= group_parent->size))
                    ? "out of range"
                    : "listed twice",
                group_parent->size - 1);
        }
        seen[pid_list[i]] = 1;
    }
    free(seen);
    MPI_Comm_group(group_parent->comm, &parent);
    MPI_Group_incl(parent, grp_size, pid_list, &child);
    MPI_Comm_create(group_parent->comm, child, &comm);
    MPI_Group_free(&child);
    MPI_Group_free(&parent);
    xg_armci_group_from_comm(group_out, comm);
}

XG_ARMCI_API void ARMCI_Group_create(int grp_size, int *pid_list,
                                     ARMCI_Group *group_out)
{
    ARMCI_Group_create_child(grp_size, pid_list, group_out, &xg_armci.dflt);
}

XG_ARMCI_API void ARMCI_Group_free(ARMCI_Group *group)
{
    xg_armci_check_running(__func__);
    if (group == NULL) {
        xg_armci_fail(__func__, "the group is NULL");
    }
    if ((group->comm != MPI_COMM_NULL) &&
        (group->comm == xg_armci.world.comm)) {
        xg_armci_fail(__func__, "the world group is ARMCI's own: free only "
                                "groups you created");
    }
    if ((group->comm != MPI_COMM_NULL) && (group->comm == xg_armci.dflt.comm)) {
        xg_armci.dflt = xg_armci.world; /* the default goes back */
    }
    if (group->comm != MPI_COMM_NULL) {
        MPI_Comm_free(&group->comm);
    }
    free(group->abs);
    memset(group, 0, sizeof(*group));
    group->comm = MPI_COMM_NULL;
    group->rank = -1;
}

XG_ARMCI_API int ARMCI_Group_rank(ARMCI_Group *group, int *rank)
{
    xg_armci_check_running(__func__);
    if ((group == NULL) || (rank == NULL)) {
        xg_armci_fail(__func__, "the group or rank is NULL");
    }
    *rank = group->rank;
    return 0;
}

XG_ARMCI_API void ARMCI_Group_size(ARMCI_Group *group, int *size)
{
    xg_armci_check_running(__func__);
    if ((group == NULL) || (size == NULL)) {
        xg_armci_fail(__func__, "the group or size is NULL");
    }
    *size = group->size;
}

XG_ARMCI_API void ARMCI_Group_set_default(ARMCI_Group *group)
{
    xg_armci_check_group(__func__, group);
    xg_armci.dflt = *group;
}

XG_ARMCI_API void ARMCI_Group_get_default(ARMCI_Group *group_out)
{
    xg_armci_check_running(__func__);
    *group_out = xg_armci.dflt;
}

XG_ARMCI_API void ARMCI_Group_get_world(ARMCI_Group *group_out)
{
    xg_armci_check_running(__func__);
    *group_out = xg_armci.world;
}

XG_ARMCI_API int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank)
{
    xg_armci_check_group(__func__, group);
    if ((group_rank < 0) || (group_rank >= group->size)) {
        xg_armci_fail(__func__, "rank %d is not in the group of %d", group_rank,
                      group->size);
    }
    return group->abs[group_rank];
}

XG_ARMCI_API MPI_Comm armci_group_comm(ARMCI_Group *group)
{
    xg_armci_check_running(__func__);
    return (group != NULL) ? group->comm : MPI_COMM_NULL;
}

XG_ARMCI_API int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key,
                                    ARMCI_Group *new_group)
{
    MPI_Comm comm;

    xg_armci_check_group(__func__, parent);
    MPI_Comm_split(parent->comm, (color < 0) ? MPI_UNDEFINED : color, key,
                   &comm);
    xg_armci_group_from_comm(new_group, comm);
    return 0;
}

XG_ARMCI_API int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group)
{
    MPI_Comm comm;

    xg_armci_check_group(__func__, parent);
    MPI_Comm_dup(parent->comm, &comm);
    xg_armci_group_from_comm(new_group, comm);
    return 0;
}
