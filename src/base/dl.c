/*
 * Libraries loaded on first use (xg_dl.h).
 */
#include "base/xg_dl.h"

#include <dlfcn.h>
#include <stdio.h>

#include "base/xg_log.h"

static xg_status_t dl_open(xg_dl_t *dl, const char *path)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    size_t i;

    if (lib == NULL) {
        snprintf(dl->why, sizeof(dl->why),
                 "%s, which %s needs, cannot be loaded (%s): %s", dl->name,
                 dl->needed_by, dlerror(), dl->fix_load);
        return dl->failure;
    }
    if (dl->opened != NULL) {
        dl->opened();
    }
    for (i = 0; i < dl->count; i++) {
        /* the form POSIX gives for a function's address from dlsym */
        *dl->slots[i] = dlsym(lib, dl->symbols[i]);
        if (*dl->slots[i] == NULL) {
            snprintf(dl->why, sizeof(dl->why),
                     "the %s library %s has no %s: %s", dl->name, path,
                     dl->symbols[i], dl->fix_sym);
            /* the library stays loaded: libxgas may not be unloaded
             * either (nodelete) */
            return dl->failure;
        }
    }
    xg_debug("dl", "%s loaded from %s", dl->name, path);
    return XG_OK;
}

xg_status_t xg_dl_load(xg_dl_t *dl, const char *path, char *why, size_t why_len)
{
    xg_status_t status;

    pthread_mutex_lock(&dl->lock);
    if (dl->status == XG_ERR_NOT_INITIALIZED) {
        dl->status = dl_open(dl, path);
    }
    status = dl->status;
    pthread_mutex_unlock(&dl->lock);
    if ((status != XG_OK) && (why != NULL)) {
        snprintf(why, why_len, "%s", dl->why);
    }
    return status;
}
