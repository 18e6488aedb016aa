/*
 * Typed configuration parsed once from the environment.  xg_config_load()
 * is idempotent and thread-safe; after it returns XG_OK, read fields of
 * xg_config directly.
 *
 * Every layer owns the rows of the variables it reads, in a rows file next
 * to its code (base/xg_base_config.h, boot/xg_boot_config.h, ...,
 * api/shmem/xg_shmem_config.h) named by CONFIG on its xgas_layer line in
 * src/CMakeLists.txt.  The build collects them, lowest layer first, into the
 * generated xg_config_rows.h: one table, parsed and range-checked here only.
 * Each row is
 *   XG_CONFIG_VAR(field, "ENV_NAME", type, "default", "min", "max",
 *                 visibility, "help")
 * and becomes a typed field of xg_config_t, a parser entry and a line of
 * `xgas-info -c`.  Every numeric row (XG_CFG_INT, XG_CFG_SIZE, XG_CFG_ADDR)
 * gives its range, written like a value; config.c rejects a value outside
 * it ("XGAS_X=value: must be between min and max") before any layer reads
 * it, so no layer needs its own check against overflow or negative values.
 * XG_CFG_POW2 is an XG_CFG_INT that must also be a power of two.
 * XG_CFG_ENUM is one of the words of "min", separated by '|' (e.g.
 * "block|cyclic", compared without case; "max" is ""), and its field is
 * the word's position in that list (an int: the layer's enum lists its
 * constants in the same order), so a misspelt value is refused at
 * start-up, by xgasrun too, and no layer compares strings.
 * Other types leave both empty ("").  visibility is XG_CFG_USER for user
 * settings, XG_CFG_LAUNCHER for values that xgasrun passes to the PEs it
 * starts.  No other xgas code reads an XGAS_* or SHMEM_* variable.  A SHMEM_
 * variable is also read under its deprecated SMA_ name (OpenSHMEM 1.6 still
 * defines them) when the SHMEM_ name is not set.
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
    XG_CFG_STRING,
    XG_CFG_POW2,
    XG_CFG_ENUM
} xg_config_type_t;

enum {
    XG_CFG_USER     = 0,
    XG_CFG_LAUNCHER = 1
};

typedef struct xg_config {
#define XG_CONFIG_VAR(field, env, type, def, min, max, vis, help) \
    XG_CONFIG_FIELD_##type field;
#define XG_CONFIG_FIELD_XG_CFG_BOOL     int
#define XG_CONFIG_FIELD_XG_CFG_INT      long
#define XG_CONFIG_FIELD_XG_CFG_SIZE     uint64_t
#define XG_CONFIG_FIELD_XG_CFG_ADDR     uint64_t
#define XG_CONFIG_FIELD_XG_CFG_LOGLEVEL int
#define XG_CONFIG_FIELD_XG_CFG_STRING   const char *
#define XG_CONFIG_FIELD_XG_CFG_POW2     long
#define XG_CONFIG_FIELD_XG_CFG_ENUM     int
#include "xg_config_rows.h"
#undef XG_CONFIG_VAR
} xg_config_t;

extern xg_config_t xg_config;

/* Parses every variable once.  On a malformed value, or a number outside
 * the variable's range, logs which variable, the value and what is allowed,
 * and returns XG_ERR_INVALID_PARAM (the field keeps its default). */
xg_status_t xg_config_load(void);

/* 1 if the user set variable @env (a row's ENV_NAME; for a SHMEM_ row its
 * SMA_ spelling counts too), 0 if its value is the default.  Lets a layer
 * choose a default of its own where the row's default does not fit. */
int xg_config_given(const char *env);

/* The position of @text among the '|'-separated words of @words (compared
 * without case), or -1 if it is none of them: the parser of XG_CFG_ENUM
 * rows. */
int xg_config_parse_choice(const char *words, const char *text);

/* Parses "<number>[K|M|G|T][B|iB]" (or 0x hex) into bytes; 0 on success. */
int xg_config_parse_size(const char *text, uint64_t *value_p);

/* Prints one line per variable: name, current value, default, help.
 * Launcher-internal variables are included when @with_launcher is set. */
void xg_config_print(FILE *out, int with_launcher);

#endif
