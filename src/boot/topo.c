/*
 * The nodes of the job (xg_boot.h): the node of every rank, its rank among
 * that node's PEs, and the ranks of each node, built once at join from the
 * node each rank runs on as the backend names it (xgasrun: its virtual
 * nodes; PMIx: the launcher's node ids; the singleton: one node).
 *
 * Node indices are dense, 0..nnodes-1, numbered in the order of each
 * node's lowest rank (rank 0 is on node 0), and the PEs of a node are
 * numbered in rank order: every PE derives the same numbers from the same
 * layout, whatever ids the backend gave.  O(npes log npes) once.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"

typedef struct topo_pair {
    uint32_t id; /* the backend's node id */
    int32_t rank;
} topo_pair_t;

static int topo_by_id(const void *a, const void *b)
{
    const topo_pair_t *x = a, *y = b;

    if (x->id != y->id) {
        return (x->id < y->id) ? -1 : 1;
    }
    return (x->rank < y->rank) ? -1 : (x->rank > y->rank);
}

static void topo_free(void)
{
    free(xg_boot.pe_node);
    free(xg_boot.pe_local);
    free(xg_boot.node_first);
    free(xg_boot.node_ranks);
    xg_boot.pe_node = xg_boot.pe_local = NULL;
    xg_boot.node_first = xg_boot.node_ranks = NULL;
}

xg_status_t xg_boot_topology_set(const uint32_t *node_id)
{
    int npes = xg_boot.npes, i, n, nnodes = 0;
    topo_pair_t *pairs = malloc((size_t)npes * sizeof(*pairs));
    int32_t *index     = malloc((size_t)npes * sizeof(*index));

    topo_free();
    xg_boot.pe_node    = malloc((size_t)npes * sizeof(int32_t));
    xg_boot.pe_local   = malloc((size_t)npes * sizeof(int32_t));
    xg_boot.node_first = calloc((size_t)npes + 1, sizeof(int32_t));
    xg_boot.node_ranks = malloc((size_t)npes * sizeof(int32_t));
    if ((pairs == NULL) || (index == NULL) || (xg_boot.pe_node == NULL) ||
        (xg_boot.pe_local == NULL) || (xg_boot.node_first == NULL) ||
        (xg_boot.node_ranks == NULL)) {
        xg_error("boot", "no memory for the node map of %d PEs", npes);
        free(pairs);
        free(index);
        topo_free();
        return XG_ERR_NO_MEMORY;
    }
    for (i = 0; i < npes; i++) {
        pairs[i].id   = node_id[i];
        pairs[i].rank = i;
    }
    /* groups of one id, each in rank order: its first is its lowest rank */
    qsort(pairs, (size_t)npes, sizeof(*pairs), topo_by_id);
    for (i = 0; i < npes; i++) {
        if ((i == 0) || (pairs[i].id != pairs[i - 1].id)) {
            nnodes++;
        }
        xg_boot.pe_node[pairs[i].rank] = nnodes - 1; /* group, for now */
    }
    /* number the groups by their lowest rank: scanning ranks in order
     * meets each group first at its lowest rank */
    for (i = 0; i < nnodes; i++) {
        index[i] = -1;
    }
    for (i = 0, n = 0; i < npes; i++) {
        if (index[xg_boot.pe_node[i]] < 0) {
            index[xg_boot.pe_node[i]] = n++;
        }
    }
    for (i = 0; i < npes; i++) {
        xg_boot.pe_node[i] = index[xg_boot.pe_node[i]];
        xg_boot.node_first[xg_boot.pe_node[i] + 1]++;
    }
    for (n = 0; n < nnodes; n++) {
        xg_boot.node_first[n + 1] += xg_boot.node_first[n];
    }
    /* ranks in order: each lands after those of its node before it */
    memset(index, 0, (size_t)nnodes * sizeof(*index));
    for (i = 0; i < npes; i++) {
        n                   = xg_boot.pe_node[i];
        xg_boot.pe_local[i] = index[n]++;
        xg_boot.node_ranks[xg_boot.node_first[n] + xg_boot.pe_local[i]] = i;
    }
    free(pairs);
    free(index);
    xg_boot.nnodes     = nnodes;
    xg_boot.node       = xg_boot.pe_node[xg_boot.rank];
    xg_boot.local_rank = xg_boot.pe_local[xg_boot.rank];
    xg_boot.local_npes = xg_boot_node_size(xg_boot.node);
    xg_boot.host_npes  = xg_boot.local_npes;
    return XG_OK;
}
