/*
 * What the software-NIC benchmarks add to the shared Portals environment
 * (bench/lib/ptl_env.h, the one the Portals API tests use) and the
 * measuring core (bench/lib/bench_core.h): set-up and tear-down around a
 * barrier, and the settings they print.  Output: one line of key=value
 * pairs per figure.  Nothing here asserts on time.
 */
#ifndef NIC_BENCH_H
#define NIC_BENCH_H

#include <stdlib.h>

#include "bench_core.h"
#include "ptl_env.h"

/* The NI and the barrier, then one barrier: every process is ready. */
static inline void nb_init(ptl_env_t *env)
{
    ptl_env_init(env, 256);
    ptl_env_barrier(env);
}

static inline void nb_fini(ptl_env_t *env)
{
    ptl_env_fini(env);
}

/* The setting of a variable, for the output ("" when unset). */
static inline const char *nb_env_str(const char *name, const char *def)
{
    const char *v = getenv(name);

    return ((v != NULL) && (*v != '\0')) ? v : def;
}

#endif
