/*
 * Typed configuration parsed once from the environment (see
 * xg_config_vars.h for the table).  xg_config_load() is idempotent and
 * thread-safe; after it returns XG_OK, read fields of xg_config directly.
 */
#ifndef XG_CONFIG_H
#define XG_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "xgas_status.h"

typedef enum {
    XG_CFG_BOOL,
    XG_CFG_INT,
    XG_CFG_SIZE,
    XG_CFG_ADDR,
    XG_CFG_LOGLEVEL,
    XG_CFG_STRING
} xg_config_type_t;

enum { XG_CFG_USER = 0, XG_CFG_LAUNCHER = 1 };

typedef struct xg_config {
#define XG_CONFIG_VAR(field, env, type, def, min, max, vis, help) \
    XG_CONFIG_FIELD_##type field;
#define XG_CONFIG_FIELD_XG_CFG_BOOL     int
#define XG_CONFIG_FIELD_XG_CFG_INT      long
#define XG_CONFIG_FIELD_XG_CFG_SIZE     uint64_t
#define XG_CONFIG_FIELD_XG_CFG_ADDR     uint64_t
#define XG_CONFIG_FIELD_XG_CFG_LOGLEVEL int
#define XG_CONFIG_FIELD_XG_CFG_STRING   const char *
#include "base/xg_config_vars.h"
#undef XG_CONFIG_VAR
} xg_config_t;

extern xg_config_t xg_config;

/* Parses every variable once.  On a malformed value, or a number outside
 * the variable's range, logs which variable, the value and what is allowed,
 * and returns XG_ERR_INVALID_PARAM (the field keeps its default). */
xg_status_t xg_config_load(void);

/* Parses "<number>[K|M|G|T][B|iB]" (or 0x hex) into bytes; 0 on success. */
int xg_config_parse_size(const char *text, uint64_t *value_p);

/* Prints one line per variable: name, current value, default, help.
 * Launcher-internal variables are included when @with_launcher is set. */
void xg_config_print(FILE *out, int with_launcher);

#endif
