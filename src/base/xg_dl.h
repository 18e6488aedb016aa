/*
 * A shared library loaded on first use (libfabric for jobs over several
 * nodes, libpmix under PMIx launchers): opened once, thread-safe, with the
 * few functions a layer calls resolved into its own typed pointers, and a
 * failure explained once -- which library, what the loader said, how to
 * fix it -- for every caller that asks.
 */
#ifndef XG_DL_H
#define XG_DL_H

#include <pthread.h>
#include <stddef.h>

#include "xgas_status.h"

typedef struct xg_dl {
    /* --- set by the layer --- */
    const char *name;           /* "libfabric" */
    const char *needed_by;      /* "a job over several nodes" */
    const char *fix_load;       /* how to fix a library that does not load */
    const char *fix_sym;        /* ... one that lacks a function */
    const char *const *symbols; /* the functions' names */
    void **const *slots;        /* where each goes: (void **)&typed_pointer */
    size_t count;
    xg_status_t failure;  /* the status of any failure */
    void (*opened)(void); /* NULL, or called right after dlopen */
    /* --- owned by xg_dl_load --- */
    pthread_mutex_t lock;
    xg_status_t status;
    char why[512];
} xg_dl_t;

/* A static xg_dl_t also sets .lock = PTHREAD_MUTEX_INITIALIZER and
 * .status = XG_ERR_NOT_INITIALIZED. */

/* Opens @path (the layer's setting, or its default name) and resolves
 * the functions the first time; every later call returns the first one's
 * result.  On failure the reason is copied into @why (if not NULL). */
xg_status_t xg_dl_load(xg_dl_t *dl, const char *path, char *why,
                       size_t why_len);

#endif
