/*
 * The ARMCI message layer (libarmci, with armci.h): the process queries,
 * send and receive, broadcasts, reductions and selections Global Arrays
 * uses, over the MPI communicator of ARMCI's world (or of a group).
 * Process numbers are ranks of that world.
 *
 * Scopes: SCOPE_ALL is every process of the world (or group), SCOPE_NODE
 * the processes sharing this process's node, SCOPE_MASTERS one process
 * (the lowest rank) per node.  Reduction operators (op) are "+", "*",
 * "max", "min", "absmax", "absmin", "or", "and"/"&&" (logical), "lor"/"||",
 * "band"/"&", "bor"/"|"; absmax and absmin give the largest and smallest
 * absolute values.  docs/armci.md.
 */
#ifndef XGAS_ARMCI_MESSAGE_H
#define XGAS_ARMCI_MESSAGE_H

#include <armci.h>

#ifdef __cplusplus
extern "C" {
#endif

enum armci_scope_e {
    SCOPE_ALL,
    SCOPE_NODE,
    SCOPE_MASTERS
};

/* Element types of the reductions and selections. */
enum armci_type_e {
    ARMCI_INT,
    ARMCI_LONG,
    ARMCI_LONG_LONG,
    ARMCI_FLOAT,
    ARMCI_DOUBLE
};

int armci_msg_me(void);
int armci_msg_nproc(void);
void armci_msg_abort(int code);
double armci_timer(void);

/* Blocking send and receive of bytes; rcvany returns the sender. */
void armci_msg_snd(int tag, void *buffer, int len, int to);
void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from);
int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen);

void armci_msg_barrier(void);
void armci_msg_group_barrier(ARMCI_Group *group);

/* This process's place in a binary tree over the scope rooted at its
 * lowest rank: *Up is -1 at the root, *Left and *Right -1 where none. */
void armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right);

void armci_msg_bcast(void *buffer, int len, int root);
void armci_msg_bcast_scope(int scope, void *buffer, int len, int root);
void armci_msg_brdcst(void *buffer, int len, int root);
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root,
                                 ARMCI_Group *group);

/* Reduction of n elements of x whose result lands on the scope's lowest
 * rank only (the gop routines leave it on every process). */
void armci_msg_reduce(void *x, int n, char *op, int type);
void armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type);

/* Selection: the n bytes of x of the process whose first element of type
 * is the smallest ("min") or largest ("max") among those that contribute;
 * every process gets them. */
void armci_msg_sel(void *x, int n, char *op, int type, int contribute);
void armci_msg_sel_scope(int scope, void *x, int n, char *op, int type,
                         int contribute);

/* ptr_ar[p] of every process p, exchanged (n is the world's or group's
 * size). */
void armci_exchange_address(void *ptr_ar[], int n);
void armci_exchange_address_grp(void *ptr_arr[], int n, ARMCI_Group *group);

/* The same within this process's node: broadcast from the node's lowest
 * rank, reductions over the node. */
void armci_msg_clus_brdcst(void *buf, int len);
void armci_msg_clus_igop(int *x, int n, char *op);
void armci_msg_clus_fgop(float *x, int n, char *op);
void armci_msg_clus_lgop(long *x, int n, char *op);
void armci_msg_clus_llgop(long long *x, int n, char *op);
void armci_msg_clus_dgop(double *x, int n, char *op);

/* Broadcast from grp_master (a rank of mastergroup) to the members of
 * mastergroup on its node. */
void armci_grp_clus_brdcst(void *buf, int len, int grp_master,
                           int grp_clus_nproc, ARMCI_Group *mastergroup);

/* Global operations: every process gets the reduction of its n
 * elements. */
void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);
void armci_msg_igop(int *x, int n, char *op);
void armci_msg_lgop(long *x, int n, char *op);
void armci_msg_llgop(long long *x, int n, char *op);
void armci_msg_fgop(float *x, int n, char *op);
void armci_msg_dgop(double *x, int n, char *op);

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type,
                               ARMCI_Group *group);
void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *group);

#ifdef __cplusplus
}
#endif

#endif
