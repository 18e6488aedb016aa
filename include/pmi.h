/*
 * pmi.h -- the PMI-1 process management interface, as offered by xgas.
 *
 * Programs started by xgasrun (or run alone, as a job of one process) find
 * their rank, the job size and a key/value space shared by the job through
 * these calls; link with -lpmi (libpmi, next to libxgas).  Names, types and
 * return codes are those of the PMI-1 interface of MPICH, so programs and
 * test suites written for it build unchanged.  What xgas does with each
 * call is in docs/portals.md, "Running Portals programs that use PMI".
 */
#ifndef XGAS_PMI_H
#define XGAS_PMI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes */
#define PMI_SUCCESS                0
#define PMI_FAIL                   -1
#define PMI_ERR_INIT               1
#define PMI_ERR_NOMEM              2
#define PMI_ERR_INVALID_ARG        3
#define PMI_ERR_INVALID_KEY        4
#define PMI_ERR_INVALID_KEY_LENGTH 5
#define PMI_ERR_INVALID_VAL        6
#define PMI_ERR_INVALID_VAL_LENGTH 7
#define PMI_ERR_INVALID_LENGTH     8
#define PMI_ERR_INVALID_NUM_ARGS   9
#define PMI_ERR_INVALID_ARGS       10
#define PMI_ERR_INVALID_NUM_PARSED 11
#define PMI_ERR_INVALID_KEYVALP    12
#define PMI_ERR_INVALID_SIZE       13

typedef int PMI_BOOL;
#define PMI_TRUE  1
#define PMI_FALSE 0

typedef struct PMI_keyval_t {
    const char *key;
    char *val;
} PMI_keyval_t;

/* Joining and leaving */
int PMI_Init(int *spawned);
int PMI_Initialized(PMI_BOOL *initialized);
int PMI_Finalize(void);
int PMI_Abort(int exit_code, const char error_msg[]);

/* The job */
int PMI_Get_size(int *size);
int PMI_Get_rank(int *rank);
int PMI_Get_universe_size(int *size);
int PMI_Get_appnum(int *appnum);
int PMI_Get_clique_size(int *size);
int PMI_Get_clique_ranks(int ranks[], int length);
int PMI_Get_id(char id_str[], int length);
int PMI_Get_kvs_domain_id(char id_str[], int length);
int PMI_Get_id_length_max(int *length);

/* Synchronization: a barrier over every process of the job, after which
 * every value committed before it by any process can be read. */
int PMI_Barrier(void);

/* The key/value space of the job */
int PMI_KVS_Get_my_name(char kvsname[], int length);
int PMI_KVS_Get_name_length_max(int *length);
int PMI_KVS_Get_key_length_max(int *length);
int PMI_KVS_Get_value_length_max(int *length);
int PMI_KVS_Put(const char kvsname[], const char key[], const char value[]);
int PMI_KVS_Commit(const char kvsname[]);
int PMI_KVS_Get(const char kvsname[], const char key[], char value[],
                int length);

/* Dynamic processes and name publishing: not offered (xgasrun starts a
 * fixed set of processes); these return PMI_FAIL with a message. */
int PMI_Publish_name(const char service_name[], const char port[]);
int PMI_Unpublish_name(const char service_name[]);
int PMI_Lookup_name(const char service_name[], char port[]);
int PMI_Spawn_multiple(int count, const char *cmds[], const char **argvs[],
                       const int maxprocs[], const int info_keyval_sizesp[],
                       const PMI_keyval_t *info_keyval_vectors[],
                       int preput_keyval_size,
                       const PMI_keyval_t preput_keyval_vector[], int errors[]);

#ifdef __cplusplus
}
#endif

#endif
