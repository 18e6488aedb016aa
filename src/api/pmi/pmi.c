/*
 * PMI-1 on the job control area of boot/ (libpmi).
 *
 * Thin, like every API layer: argument checks and error policy here, the
 * job and its key/value exchange in boot/, which libpmi reaches through the
 * few boot routines libxgas exports for it (see xg_boot.h).  One process has
 * one boot whichever library joins first, so libpmi and libxgas (Portals,
 * OpenSHMEM) coexist and share the job's barrier.
 *
 *  - The job has one key/value space, named after xgasrun's pid.  A put is
 *    a boot record under "pmi:<key>" holding the value with its NUL; a
 *    commit publishes this process's records; PMI_Barrier is boot's fence
 *    (a barrier over all processes that publishes first), so after it every
 *    value committed before it is readable everywhere.
 *  - A get looks at the caller's own records first (its own puts are
 *    readable at once), then at every process's in rank order: a key put by
 *    several processes reads as the caller's own, else the lowest rank's.
 *  - A missing key is PMI_FAIL at once (no waiting, no message: probing for
 *    a key is normal).  Every other error returns the PMI code and prints a
 *    message naming the routine, the value and the fix.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot/xg_boot.h"
#include "pmi.h"

#define PMI_API __attribute__((visibility("default")))

/* Lengths include the terminating NUL, as PMI's *_length_max do. */
#define PMI_NAME_MAX   64
#define PMI_KEY_MAX    64
#define PMI_VALUE_MAX  1024
#define PMI_KEY_PREFIX "pmi:"

enum {
    PMI_NEVER     = 0,
    PMI_ACTIVE    = 1,
    PMI_FINALIZED = 2
};

static int pmi_state; /* PMI_NEVER, PMI_ACTIVE or PMI_FINALIZED */
static int pmi_rank;
static int pmi_npes = 1;
static char pmi_kvsname[PMI_NAME_MAX];

__attribute__((format(printf, 1, 2))) static void pmi_error(const char *fmt,
                                                            ...)
{
    char line[1536];
    va_list ap;
    int len;

    len =
        (pmi_state == PMI_ACTIVE)
            ? snprintf(line, sizeof(line), "xgas[pe %d] error: pmi: ", pmi_rank)
            : snprintf(line, sizeof(line), "xgas error: pmi: ");
    va_start(ap, fmt);
    vsnprintf(line + len, sizeof(line) - (size_t)len, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/* PMI_SUCCESS when PMI_Init was called and PMI_Finalize not since. */
static int pmi_check_active(const char *routine)
{
    int state = __atomic_load_n(&pmi_state, __ATOMIC_ACQUIRE);

    if (state == PMI_ACTIVE) {
        return PMI_SUCCESS;
    }
    pmi_error("%s: called %s: call PMI_Init first", routine,
              (state == PMI_NEVER) ? "before PMI_Init" : "after PMI_Finalize");
    return PMI_ERR_INIT;
}

static int pmi_check_out(const char *routine, const char *name, const void *out)
{
    if (out == NULL) {
        pmi_error("%s: %s is NULL: pass the address of the result", routine,
                  name);
        return PMI_ERR_INVALID_ARG;
    }
    return PMI_SUCCESS;
}

/* Checks the routine may run and its output pointer is usable. */
static int pmi_check(const char *routine, const char *name, const void *out)
{
    int rc = pmi_check_active(routine);

    return (rc != PMI_SUCCESS) ? rc : pmi_check_out(routine, name, out);
}

static int pmi_check_kvsname(const char *routine, const char *kvsname)
{
    if (kvsname == NULL) {
        pmi_error("%s: kvsname is NULL: pass the name PMI_KVS_Get_my_name "
                  "returns",
                  routine);
        return PMI_ERR_INVALID_ARG;
    }
    if (strncmp(kvsname, pmi_kvsname, PMI_NAME_MAX) != 0) {
        pmi_error("%s: no key/value space is named '%.*s': the job has one, "
                  "'%s' (from PMI_KVS_Get_my_name)",
                  routine, PMI_NAME_MAX, kvsname, pmi_kvsname);
        return PMI_ERR_INVALID_ARG;
    }
    return PMI_SUCCESS;
}

/* Checks @key and writes the boot key for it into @boot_key. */
static int pmi_check_key(const char *routine, const char *key,
                         char boot_key[sizeof(PMI_KEY_PREFIX) + PMI_KEY_MAX])
{
    size_t len;

    if (key == NULL) {
        pmi_error("%s: key is NULL", routine);
        return PMI_ERR_INVALID_KEY;
    }
    len = strnlen(key, PMI_KEY_MAX);
    if (len == 0) {
        pmi_error("%s: the key is empty", routine);
        return PMI_ERR_INVALID_KEY;
    }
    if (len >= PMI_KEY_MAX) {
        pmi_error("%s: key '%.20s...' is %zu characters or longer; keys may "
                  "have at most %d (PMI_KVS_Get_key_length_max, with the "
                  "NUL)",
                  routine, key, (size_t)PMI_KEY_MAX, PMI_KEY_MAX - 1);
        return PMI_ERR_INVALID_KEY_LENGTH;
    }
    memcpy(boot_key, PMI_KEY_PREFIX, sizeof(PMI_KEY_PREFIX) - 1);
    memcpy(boot_key + sizeof(PMI_KEY_PREFIX) - 1, key, len + 1);
    return PMI_SUCCESS;
}

/* The checks common to PMI_KVS_Put and PMI_KVS_Get: PMI is active, the
 * space is ours, the key is valid (its boot key goes to @boot_key). */
static int pmi_check_kvs_key(
    const char *routine, const char *kvsname, const char *key,
    char boot_key[sizeof(PMI_KEY_PREFIX) + PMI_KEY_MAX])
{
    int rc = pmi_check_active(routine);

    if (rc == PMI_SUCCESS) {
        rc = pmi_check_kvsname(routine, kvsname);
    }
    if (rc == PMI_SUCCESS) {
        rc = pmi_check_key(routine, key, boot_key);
    }
    return rc;
}

/* Stores @value in *@out for a routine that reports one number. */
static int pmi_get_int(const char *routine, const char *name, int *out,
                       int value)
{
    int rc = pmi_check(routine, name, out);

    if (rc == PMI_SUCCESS) {
        *out = value;
    }
    return rc;
}

PMI_API int PMI_Init(int *spawned)
{
    int singleton;

    if (spawned == NULL) {
        pmi_error("PMI_Init: spawned is NULL: pass the address of an int");
        return PMI_ERR_INVALID_ARG;
    }
    if (xg_boot_init() != XG_OK) {
        pmi_error("PMI_Init: cannot join the job (see the message above)");
        return PMI_FAIL;
    }
    xg_boot_job(&pmi_rank, &pmi_npes, &singleton);
    /* one name for every process of the job: xgasrun is their parent */
    snprintf(pmi_kvsname, sizeof(pmi_kvsname), "xgas-%ld",
             singleton ? (long)getpid() : (long)getppid());
    *spawned = PMI_FALSE;
    __atomic_store_n(&pmi_state, PMI_ACTIVE, __ATOMIC_RELEASE);
    return PMI_SUCCESS;
}

PMI_API int PMI_Initialized(PMI_BOOL *initialized)
{
    int rc = pmi_check_out("PMI_Initialized", "initialized", initialized);

    if (rc == PMI_SUCCESS) {
        *initialized =
            (__atomic_load_n(&pmi_state, __ATOMIC_ACQUIRE) == PMI_ACTIVE)
                ? PMI_TRUE
                : PMI_FALSE;
    }
    return rc;
}

PMI_API int PMI_Finalize(void)
{
    int rc = pmi_check_active("PMI_Finalize");

    if (rc == PMI_SUCCESS) {
        /* what this process put stays readable by the others */
        xg_boot_kv_publish();
        __atomic_store_n(&pmi_state, PMI_FINALIZED, __ATOMIC_RELEASE);
    }
    return rc;
}

PMI_API int PMI_Abort(int exit_code, const char error_msg[])
{
    pmi_error("PMI_Abort(%d) called: %s%s", exit_code,
              (error_msg != NULL) ? error_msg : "(no message)",
              (exit_code == 0) ? " (exit code 0 ends the job with status 1)"
                               : "");
    xg_boot_abort((exit_code == 0) ? 1 : exit_code);
}

PMI_API int PMI_Get_size(int *size)
{
    return pmi_get_int("PMI_Get_size", "size", size, pmi_npes);
}

PMI_API int PMI_Get_rank(int *rank)
{
    return pmi_get_int("PMI_Get_rank", "rank", rank, pmi_rank);
}

PMI_API int PMI_Get_universe_size(int *size)
{
    return pmi_get_int("PMI_Get_universe_size", "size", size, pmi_npes);
}

PMI_API int PMI_Get_appnum(int *appnum)
{
    return pmi_get_int("PMI_Get_appnum", "appnum", appnum, 0);
}

/* Every process of an xgasrun job is on this node. */
PMI_API int PMI_Get_clique_size(int *size)
{
    return pmi_get_int("PMI_Get_clique_size", "size", size, pmi_npes);
}

PMI_API int PMI_Get_clique_ranks(int ranks[], int length)
{
    int rc = pmi_check("PMI_Get_clique_ranks", "ranks", ranks);
    int i;

    if (rc != PMI_SUCCESS) {
        return rc;
    }
    if (length < pmi_npes) {
        pmi_error("PMI_Get_clique_ranks: length %d is less than the clique "
                  "size %d (PMI_Get_clique_size)",
                  length, pmi_npes);
        return PMI_ERR_INVALID_LENGTH;
    }
    for (i = 0; i < pmi_npes; i++) {
        ranks[i] = i;
    }
    return PMI_SUCCESS;
}

/* Copies the job's name (the key/value space's) into @out. */
static int pmi_copy_name(const char *routine, char out[], int length)
{
    int rc      = pmi_check(routine, "the name buffer", out);
    size_t need = strlen(pmi_kvsname) + 1;

    if (rc != PMI_SUCCESS) {
        return rc;
    }
    if ((length < 0) || ((size_t)length < need)) {
        pmi_error("%s: length %d is too small for the name '%s' (%zu bytes "
                  "with the NUL; PMI_KVS_Get_name_length_max is %d)",
                  routine, length, pmi_kvsname, need, PMI_NAME_MAX);
        return PMI_ERR_INVALID_LENGTH;
    }
    memcpy(out, pmi_kvsname, need);
    return PMI_SUCCESS;
}

PMI_API int PMI_Get_id(char id_str[], int length)
{
    return pmi_copy_name("PMI_Get_id", id_str, length);
}

PMI_API int PMI_Get_kvs_domain_id(char id_str[], int length)
{
    return pmi_copy_name("PMI_Get_kvs_domain_id", id_str, length);
}

PMI_API int PMI_KVS_Get_my_name(char kvsname[], int length)
{
    return pmi_copy_name("PMI_KVS_Get_my_name", kvsname, length);
}

static int pmi_length_max(const char *routine, int *length, int value)
{
    int rc = pmi_check_out(routine, "length", length);

    if (rc == PMI_SUCCESS) {
        *length = value;
    }
    return rc;
}

PMI_API int PMI_Get_id_length_max(int *length)
{
    return pmi_length_max("PMI_Get_id_length_max", length, PMI_NAME_MAX);
}

PMI_API int PMI_KVS_Get_name_length_max(int *length)
{
    return pmi_length_max("PMI_KVS_Get_name_length_max", length, PMI_NAME_MAX);
}

PMI_API int PMI_KVS_Get_key_length_max(int *length)
{
    return pmi_length_max("PMI_KVS_Get_key_length_max", length, PMI_KEY_MAX);
}

PMI_API int PMI_KVS_Get_value_length_max(int *length)
{
    return pmi_length_max("PMI_KVS_Get_value_length_max", length,
                          PMI_VALUE_MAX);
}

PMI_API int PMI_Barrier(void)
{
    int rc = pmi_check_active("PMI_Barrier");

    if ((rc == PMI_SUCCESS) && (xg_boot_fence_named("PMI_Barrier") != XG_OK)) {
        pmi_error("PMI_Barrier: the job's barrier failed");
        rc = PMI_FAIL;
    }
    return rc;
}

PMI_API int PMI_KVS_Put(const char kvsname[], const char key[],
                        const char value[])
{
    char boot_key[sizeof(PMI_KEY_PREFIX) + PMI_KEY_MAX];
    size_t len;
    int rc = pmi_check_kvs_key("PMI_KVS_Put", kvsname, key, boot_key);

    if (rc != PMI_SUCCESS) {
        return rc;
    }
    if (value == NULL) {
        pmi_error("PMI_KVS_Put: the value of key '%s' is NULL", key);
        return PMI_ERR_INVALID_VAL;
    }
    len = strnlen(value, PMI_VALUE_MAX);
    if (len >= PMI_VALUE_MAX) {
        pmi_error("PMI_KVS_Put: the value of key '%s' is %d characters or "
                  "longer; values may have at most %d "
                  "(PMI_KVS_Get_value_length_max, with the NUL)",
                  key, PMI_VALUE_MAX, PMI_VALUE_MAX - 1);
        return PMI_ERR_INVALID_VAL_LENGTH;
    }
    if (xg_boot_kv_put(boot_key, value, len + 1) != XG_OK) {
        pmi_error("PMI_KVS_Put: no room for key '%s' (%zu bytes): each "
                  "process has 64 KiB of key/value records, shared with "
                  "xgas itself",
                  key, len + 1);
        return PMI_ERR_NOMEM;
    }
    return PMI_SUCCESS;
}

PMI_API int PMI_KVS_Commit(const char kvsname[])
{
    int rc = pmi_check_active("PMI_KVS_Commit");

    if (rc == PMI_SUCCESS) {
        rc = pmi_check_kvsname("PMI_KVS_Commit", kvsname);
    }
    if (rc == PMI_SUCCESS) {
        xg_boot_kv_publish();
    }
    return rc;
}

PMI_API int PMI_KVS_Get(const char kvsname[], const char key[], char value[],
                        int length)
{
    char boot_key[sizeof(PMI_KEY_PREFIX) + PMI_KEY_MAX];
    size_t len         = 0;
    xg_status_t status = XG_ERR_INVALID_PARAM;
    int rc = pmi_check_kvs_key("PMI_KVS_Get", kvsname, key, boot_key);
    int i, rank;

    if (rc != PMI_SUCCESS) {
        return rc;
    }
    if (value == NULL) {
        pmi_error("PMI_KVS_Get: the value buffer for key '%s' is NULL", key);
        return PMI_ERR_INVALID_VAL;
    }
    if (length <= 0) {
        pmi_error("PMI_KVS_Get: length %d for key '%s' leaves no room for "
                  "the value",
                  length, key);
        return PMI_ERR_INVALID_LENGTH;
    }
    /* the caller's own value first, then every process in rank order */
    for (i = -1; i < pmi_npes; i++) {
        rank = (i < 0) ? pmi_rank : i;
        if ((i >= 0) && (rank == pmi_rank)) {
            continue;
        }
        status = xg_boot_kv_read(rank, boot_key, value, (size_t)length, &len);
        if (status != XG_ERR_INVALID_PARAM) {
            break; /* found */
        }
    }
    if (status == XG_ERR_INVALID_PARAM) {
        return PMI_FAIL; /* no process has put the key (or committed it) */
    }
    if (status != XG_OK) {
        pmi_error("PMI_KVS_Get: the value of key '%s' needs %zu bytes with "
                  "the NUL, the buffer has %d: pass "
                  "PMI_KVS_Get_value_length_max bytes",
                  key, len, length);
        return PMI_ERR_INVALID_LENGTH;
    }
    return PMI_SUCCESS;
}

static int pmi_not_offered(const char *routine)
{
    pmi_error("%s: not offered: xgasrun starts a fixed set of processes and "
              "keeps no name service",
              routine);
    return PMI_FAIL;
}

PMI_API int PMI_Publish_name(const char service_name[], const char port[])
{
    (void)service_name;
    (void)port;
    return pmi_not_offered("PMI_Publish_name");
}

PMI_API int PMI_Unpublish_name(const char service_name[])
{
    (void)service_name;
    return pmi_not_offered("PMI_Unpublish_name");
}

PMI_API int PMI_Lookup_name(const char service_name[], char port[])
{
    (void)service_name;
    (void)port;
    return pmi_not_offered("PMI_Lookup_name");
}

PMI_API int PMI_Spawn_multiple(int count, const char *cmds[],
                               const char **argvs[], const int maxprocs[],
                               const int info_keyval_sizesp[],
                               const PMI_keyval_t *info_keyval_vectors[],
                               int preput_keyval_size,
                               const PMI_keyval_t preput_keyval_vector[],
                               int errors[])
{
    (void)count;
    (void)cmds;
    (void)argvs;
    (void)maxprocs;
    (void)info_keyval_sizesp;
    (void)info_keyval_vectors;
    (void)preput_keyval_size;
    (void)preput_keyval_vector;
    (void)errors;
    return pmi_not_offered("PMI_Spawn_multiple");
}
