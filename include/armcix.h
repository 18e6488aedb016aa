/*
 * ARMCI extensions of libarmci (as ARMCI-MPI's armcix.h names them):
 * group split and duplicate, batches of mutexes on a group, and progress.
 * docs/armci.md.
 */
#ifndef XGAS_ARMCIX_H
#define XGAS_ARMCIX_H

#include <stdint.h>

#include <armci.h>

#ifdef __cplusplus
extern "C" {
#endif

int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key,
                       ARMCI_Group *new_group);
int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group);

/* A batch of mutexes: count per process of the group (collective), locked
 * by (mutex, group rank of the hosting process).  Trylock returns 0 when
 * it took the mutex.  Waiters get the mutex in the order they asked. */
typedef struct armcix_mutex_hdl_s *armcix_mutex_hdl_t;

armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group *pgroup);
int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl);
void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);

/* Serves what other processes' operations wait for from this process's
 * thread (read-modify-writes when XGAS_AM_THREAD=0); a loop that computes
 * for long calls it now and then. */
void ARMCIX_Progress(void);

#ifdef __cplusplus
}
#endif

#endif
