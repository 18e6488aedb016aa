/*
 * Environment parsing for the table of xg_config.h.  Values are parsed
 * once (first xg_config_load call) into xg_config; a malformed value is
 * reported with the variable name, the text found and what was expected.
 */
#include "base/xg_config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"

xg_config_t xg_config;

typedef struct {
    const char *env;
    xg_config_type_t type;
    const char *def;
    const char *min; /* numeric types: the range, as text */
    const char *max;
    int visibility;
    const char *help;
    size_t offset;
} xg_config_entry_t;

static const xg_config_entry_t config_table[] = {
#define XG_CONFIG_VAR(field, env, type, def, min, max, vis, help) \
    {env, type, def, min, max, vis, help, offsetof(xg_config_t, field)},
#include "xg_config_rows.h"
#undef XG_CONFIG_VAR
};

static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static xg_status_t config_status  = XG_OK;

int xg_config_parse_size(const char *text, uint64_t *value_p)
{
    char *end;
    uint64_t value, scale = 1;

    while (isspace((unsigned char)*text)) {
        text++;
    }
    if ((*text == '\0') || (*text == '-')) {
        return -1;
    }
    errno = 0;
    value = strtoull(text, &end, 0);
    if ((errno != 0) || (end == text)) {
        return -1;
    }
    switch (toupper((unsigned char)*end)) {
    case 'K':
        scale = 1ULL << 10;
        end++;
        break;
    case 'M':
        scale = 1ULL << 20;
        end++;
        break;
    case 'G':
        scale = 1ULL << 30;
        end++;
        break;
    case 'T':
        scale = 1ULL << 40;
        end++;
        break;
    default: break;
    }
    if ((strcasecmp(end, "B") == 0) || (strcasecmp(end, "iB") == 0)) {
        end += strlen(end);
    }
    while (isspace((unsigned char)*end)) {
        end++;
    }
    if ((*end != '\0') || ((value != 0) && (scale > UINT64_MAX / value))) {
        return -1;
    }
    *value_p = value * scale;
    return 0;
}

static int parse_bool(const char *text, int *value_p)
{
    static const char *const yes[] = {"1", "y", "yes", "on", "true"};
    static const char *const no[]  = {"0", "n", "no", "off", "false"};
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(yes); i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *value_p = 1;
            return 0;
        }
        if (strcasecmp(text, no[i]) == 0) {
            *value_p = 0;
            return 0;
        }
    }
    return -1;
}

static int parse_log_level(const char *text, int *value_p)
{
    int level;

    for (level = XG_LOG_ERROR; level <= XG_LOG_DEBUG; level++) {
        if (strcasecmp(text, xg_log_level_name((xg_log_level_t)level)) == 0) {
            *value_p = level;
            return 0;
        }
    }
    return -1;
}

static int parse_int(const char *text, long *value_p)
{
    char *end;
    long value;

    errno = 0;
    value = strtol(text, &end, 0);
    if ((errno != 0) || (end == text) || (*end != '\0')) {
        return -1;
    }
    *value_p = value;
    return 0;
}

static const char *expected_form(xg_config_type_t type)
{
    switch (type) {
    case XG_CFG_BOOL: return "0/1, yes/no, on/off or true/false";
    case XG_CFG_INT: return "an integer";
    case XG_CFG_SIZE: return "a byte count such as 512M, 2G or 0x100000";
    case XG_CFG_ADDR: return "an address such as 0x100000000000";
    case XG_CFG_LOGLEVEL: return "one of error, warn, info, debug";
    case XG_CFG_STRING: return "a string";
    case XG_CFG_POW2: return "a power of two";
    case XG_CFG_ENUM: return "one of the words listed";
    }
    return "?";
}

int xg_config_parse_choice(const char *words, const char *text)
{
    size_t len       = strlen(text);
    const char *word = words;
    int position;

    for (position = 0; len > 0; position++) {
        const char *end = strchr(word, '|');
        size_t wlen     = (end == NULL) ? strlen(word) : (size_t)(end - word);

        if ((wlen == len) && (strncasecmp(word, text, len) == 0)) {
            return position;
        }
        if (end == NULL) {
            break;
        }
        word = end + 1;
    }
    return -1;
}

/* Parses @text for @entry into the field; 0 on success. */
static int config_set(const xg_config_entry_t *entry, const char *text)
{
    void *field = (char *)&xg_config + entry->offset;

    switch (entry->type) {
    case XG_CFG_BOOL: return parse_bool(text, (int *)field);
    case XG_CFG_INT:
    case XG_CFG_POW2: return parse_int(text, (long *)field);
    case XG_CFG_SIZE:
    case XG_CFG_ADDR: return xg_config_parse_size(text, (uint64_t *)field);
    case XG_CFG_LOGLEVEL: return parse_log_level(text, (int *)field);
    case XG_CFG_STRING: *(const char **)field = text; return 0;
    case XG_CFG_ENUM:
        *(int *)field = xg_config_parse_choice(entry->min, text);
        return (*(int *)field < 0) ? -1 : 0;
    }
    return -1;
}

/* 0 if the parsed value of @entry lies within its range (types without
 * one always do). */
static int config_in_range(const xg_config_entry_t *entry)
{
    const void *field = (const char *)&xg_config + entry->offset;
    uint64_t size, size_min, size_max;
    long value, min, max;

    switch (entry->type) {
    case XG_CFG_INT:
    case XG_CFG_POW2:
        value = *(const long *)field;
        xg_assert((parse_int(entry->min, &min) == 0) &&
                  (parse_int(entry->max, &max) == 0));
        if ((entry->type == XG_CFG_POW2) && ((value & (value - 1)) != 0)) {
            return -1;
        }
        return ((value >= min) && (value <= max)) ? 0 : -1;
    case XG_CFG_SIZE:
    case XG_CFG_ADDR:
        size = *(const uint64_t *)field;
        xg_assert((xg_config_parse_size(entry->min, &size_min) == 0) &&
                  (xg_config_parse_size(entry->max, &size_max) == 0));
        return ((size >= size_min) && (size <= size_max)) ? 0 : -1;
    default: return 0;
    }
}

/*
 * The value of variable @env, and in @name the name it was found under.
 * OpenSHMEM 1.6 still accepts the SMA_ spellings of its SHMEM_ variables
 * (SMA_SYMMETRIC_SIZE, SMA_VERSION, SMA_INFO, SMA_DEBUG; deprecated since
 * 1.4); the SHMEM_ name wins when both are set.
 */
static const char *config_getenv(const char *env, char *name, size_t len)
{
    const char *text = getenv(env);

    snprintf(name, len, "%s", env);
    if ((text == NULL) && (strncmp(env, "SHMEM_", 6) == 0)) {
        snprintf(name, len, "SMA_%s", env + 6);
        text = getenv(name);
        if (text == NULL) {
            snprintf(name, len, "%s", env);
        }
    }
    return text;
}

int xg_config_given(const char *env)
{
    char name[64];

    return config_getenv(env, name, sizeof(name)) != NULL;
}

/* Sets @entry from the environment; on a malformed or out-of-range value
 * says which variable, what was found and what is allowed, and keeps the
 * default.  0 on success. */
static int config_load_entry(const xg_config_entry_t *entry)
{
    char name[64];
    const char *text = config_getenv(entry->env, name, sizeof(name));

    if (text == NULL) {
        return 0;
    }
    if ((entry->type == XG_CFG_ENUM) && (config_set(entry, text) != 0)) {
        xg_error("config",
                 "%s='%s' is not valid: expected one of %s "
                 "(default %s)",
                 name, text, entry->min, entry->def);
    } else if (config_set(entry, text) != 0) {
        xg_error("config", "%s='%s' is not valid: expected %s (default %s)",
                 name, text, expected_form(entry->type), entry->def);
    } else if ((entry->type == XG_CFG_POW2) && (config_in_range(entry) != 0)) {
        xg_error("config",
                 "%s=%s: must be a power of two between %s and %s "
                 "(default %s)",
                 name, text, entry->min, entry->max, entry->def);
    } else if (config_in_range(entry) != 0) {
        xg_error("config", "%s=%s: must be between %s and %s (default %s)",
                 name, text, entry->min, entry->max, entry->def);
    } else {
        return 0;
    }
    config_set(entry, entry->def);
    return -1;
}

static void config_load_once(void)
{
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(config_table); i++) {
        xg_assert(config_set(&config_table[i], config_table[i].def) == 0);
        xg_assert(config_in_range(&config_table[i]) == 0);
    }
    for (i = 0; i < XG_ARRAY_SIZE(config_table); i++) {
        if (config_load_entry(&config_table[i]) != 0) {
            config_status = XG_ERR_INVALID_PARAM;
        }
    }
    if (xg_config.shmem_debug) {
        xg_config.log_level = XG_LOG_DEBUG;
    }
    xg_log_level = xg_config.log_level;
}

xg_status_t xg_config_load(void)
{
    pthread_once(&config_once, config_load_once);
    return config_status;
}

/* The word at @position of the '|'-separated @words, as the row spells it. */
static void format_word(const char *words, int position, char *buf, size_t len)
{
    const char *word = words;
    const char *end;

    while ((position-- > 0) && ((end = strchr(word, '|')) != NULL)) {
        word = end + 1;
    }
    end = strchr(word, '|');
    snprintf(buf, len, "%.*s",
             (int)((end == NULL) ? strlen(word) : (size_t)(end - word)), word);
}

static void format_value(const xg_config_entry_t *entry, char *buf, size_t len)
{
    const void *field = (const char *)&xg_config + entry->offset;
    uint64_t size;

    switch (entry->type) {
    case XG_CFG_BOOL: snprintf(buf, len, "%d", *(const int *)field); break;
    case XG_CFG_INT:
    case XG_CFG_POW2: snprintf(buf, len, "%ld", *(const long *)field); break;
    case XG_CFG_SIZE:
        size = *(const uint64_t *)field;
        if ((size != 0) && (size % (1ULL << 30) == 0)) {
            snprintf(buf, len, "%" PRIu64 "G", size >> 30);
        } else if ((size != 0) && (size % (1ULL << 20) == 0)) {
            snprintf(buf, len, "%" PRIu64 "M", size >> 20);
        } else if ((size != 0) && (size % (1ULL << 10) == 0)) {
            snprintf(buf, len, "%" PRIu64 "K", size >> 10);
        } else {
            snprintf(buf, len, "%" PRIu64, size);
        }
        break;
    case XG_CFG_ADDR:
        snprintf(buf, len, "0x%" PRIx64, *(const uint64_t *)field);
        break;
    case XG_CFG_LOGLEVEL:
        snprintf(buf, len, "%s",
                 xg_log_level_name((xg_log_level_t) * (const int *)field));
        break;
    case XG_CFG_STRING:
        snprintf(buf, len, "%s", *(const char *const *)field);
        break;
    case XG_CFG_ENUM:
        format_word(entry->min, *(const int *)field, buf, len);
        break;
    }
}

void xg_config_print(FILE *out, int with_launcher)
{
    size_t i;
    char value[64];

    xg_config_load();
    for (i = 0; i < XG_ARRAY_SIZE(config_table); i++) {
        if ((config_table[i].visibility == XG_CFG_LAUNCHER) && !with_launcher) {
            continue;
        }
        format_value(&config_table[i], value, sizeof(value));
        fprintf(out, "%-22s = %-16s (default %s)\n    %s", config_table[i].env,
                value, config_table[i].def, config_table[i].help);
        if (config_table[i].type == XG_CFG_ENUM) {
            fprintf(out, " [%s]", config_table[i].min);
        } else if (config_table[i].min[0] != '\0') {
            fprintf(out, " [%s..%s]", config_table[i].min, config_table[i].max);
        }
        fputc('\n', out);
    }
}
