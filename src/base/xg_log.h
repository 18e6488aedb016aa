/*
 * Leveled logging.  The runtime level comes from XGAS_LOG (error, warn, info,
 * debug); the macros test it before formatting anything, so a disabled debug
 * line costs one load and a branch.  Messages go to stderr as
 * "xgas[<prefix>] <level>: <text>", where the prefix (set by boot once the
 * rank is known) names the PE.  errno is preserved across a log call.
 */
#ifndef XG_LOG_H
#define XG_LOG_H

#include "base/xg_compiler.h"

typedef enum xg_log_level {
    XG_LOG_ERROR = 0,
    XG_LOG_WARN  = 1,
    XG_LOG_INFO  = 2,
    XG_LOG_DEBUG = 3
} xg_log_level_t;

extern int xg_log_level;

/* Exported, with xg_fatal_api, for libarmci (src/api/armci). */
XG_EXPORT void xg_log_emit(xg_log_level_t level, const char *subsystem,
                           const char *fmt, ...) XG_PRINTF(3, 4);

/* Sets the tag printed in every message, e.g. "pe 3". */
void xg_log_set_prefix(const char *prefix);
const char *xg_log_level_name(xg_log_level_t level);

#define xg_log(level, subsys, ...)                       \
    do {                                                 \
        if (xg_unlikely((int)(level) <= xg_log_level)) { \
            xg_log_emit((level), (subsys), __VA_ARGS__); \
        }                                                \
    } while (0)

#define xg_error(subsys, ...) xg_log(XG_LOG_ERROR, subsys, __VA_ARGS__)
#define xg_warn(subsys, ...)  xg_log(XG_LOG_WARN, subsys, __VA_ARGS__)
#define xg_info(subsys, ...)  xg_log(XG_LOG_INFO, subsys, __VA_ARGS__)
#define xg_debug(subsys, ...) xg_log(XG_LOG_DEBUG, subsys, __VA_ARGS__)

/*
 * The fatal error of an API binding that ends the job on a bad call
 * (OpenSHMEM, xbrtime): logs "<routine>: <message>" as an error of
 * subsystem @api, then exits this PE with status 1 at once -- _exit, as
 * boot's abort does, so no exit handler runs a collective with PEs that
 * may be gone; xgasrun then ends the others and reports this one.
 */
XG_EXPORT XG_NORETURN void xg_fatal_api(const char *api, const char *routine,
                                        const char *fmt, ...) XG_PRINTF(3, 4);

/* Internal invariant: a failure is a bug in xgas, never a user error. */
#define xg_assert(cond)                                \
    do {                                               \
        if (xg_unlikely(!(cond))) {                    \
            xg_assert_fail(#cond, __FILE__, __LINE__); \
        }                                              \
    } while (0)

XG_NORETURN void xg_assert_fail(const char *cond, const char *file, int line);

#endif
