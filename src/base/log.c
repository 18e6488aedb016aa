/*
 * Leveled logging to stderr.  One write(2) per message so that lines from
 * different PEs sharing a terminal do not interleave mid-line.
 */
#include "base/xg_log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int xg_log_level = XG_LOG_WARN;

static char log_prefix[32] = "";

static const char *const level_names[] = {"error", "warn", "info", "debug"};

const char *xg_log_level_name(xg_log_level_t level)
{
    if (((int)level < 0) || ((size_t)level >= XG_ARRAY_SIZE(level_names))) {
        return "?";
    }
    return level_names[level];
}

void xg_log_set_prefix(const char *prefix)
{
    snprintf(log_prefix, sizeof(log_prefix), "%s", prefix);
}

void xg_log_emit(xg_log_level_t level, const char *subsystem, const char *fmt,
                 ...)
{
    int saved_errno = errno;
    char line[1024];
    int len;
    va_list ap;

    len = snprintf(line, sizeof(line),
                   "xgas%s%s%s %s: %s: ", (log_prefix[0] != '\0') ? "[" : "",
                   log_prefix, (log_prefix[0] != '\0') ? "]" : "",
                   xg_log_level_name(level), subsystem);
    if ((len > 0) && ((size_t)len < sizeof(line))) {
        va_start(ap, fmt);
        errno = saved_errno; /* so that %m names the caller's error */
        vsnprintf(line + len, sizeof(line) - (size_t)len, fmt, ap);
        va_end(ap);
    }
    len         = (int)strnlen(line, sizeof(line) - 2);
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, (size_t)len) < 0) {
        /* nothing sensible to do when stderr is gone */
    }
    errno = saved_errno;
}

void xg_fatal_api(const char *api, const char *routine, const char *fmt, ...)
{
    char text[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    xg_log_emit(XG_LOG_ERROR, api, "%s: %s", routine, text);
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

void xg_assert_fail(const char *cond, const char *file, int line)
{
    xg_log_emit(XG_LOG_ERROR, "assert", "internal error: '%s' failed at %s:%d",
                cond, file, line);
    abort();
}
