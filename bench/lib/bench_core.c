/*
 * The measuring core of the benchmarks (bench_core.h): statistics, the
 * interleaved baseline series, the result line, option parsing and CPU
 * binding.  libc and POSIX only.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "bench_core.h"

#include <ctype.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
    return (n % 2 != 0) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

uint64_t bench_upper_median_u64(uint64_t *v, unsigned n)
{
    qsort(v, n, sizeof(*v), bench_cmp_u64);
    return v[n / 2];
}

void bench_series_run(bench_series_t *s, int reps, int higher_is_better,
                      bench_run_fn run, void *ctx)
{
    int k;

    s->reps = reps;
    s->b[0] = run(ctx, 1);
    for (k = 0; k < reps; k++) {
        s->m[k]     = run(ctx, 0);
        s->b[k + 1] = run(ctx, 1);
        s->r[k] =
            s->m[k] / bench_better(higher_is_better, s->b[k], s->b[k + 1]);
    }
}

void bench_line_start(bench_line_t *l, const char *word)
{
    l->len = (size_t)snprintf(l->buf, sizeof(l->buf), "%s", word);
}

/* Keeps len inside the buffer after an snprintf that may have cut. */
static void line_clamp(bench_line_t *l, int n)
{
    if (n > 0) {
        l->len += (size_t)n;
    }
    if (l->len >= sizeof(l->buf)) {
        l->len = sizeof(l->buf) - 1;
    }
}

void bench_line_add(bench_line_t *l, const char *key, const char *fmt, ...)
{
    va_list ap;

    line_clamp(l, snprintf(l->buf + l->len, sizeof(l->buf) - l->len,
                           "%s%s=", (l->len > 0) ? " " : "", key));
    va_start(ap, fmt);
    line_clamp(l, vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap));
    va_end(ap);
}

void bench_line_raw(bench_line_t *l, const char *text)
{
    line_clamp(l,
               snprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%s", text));
}

void bench_line_print(const bench_line_t *l)
{
    printf("%s\n", l->buf);
    fflush(stdout);
}

size_t bench_parse_size(const char *arg)
{
    char *end;
    unsigned long long v = strtoull(arg, &end, 10);

    switch (toupper((unsigned char)*end)) {
    case 'K':
        v <<= 10;
        end++;
        break;
    case 'M':
        v <<= 20;
        end++;
        break;
    case 'G':
        v <<= 30;
        end++;
        break;
    default: break;
    }
    if ((end == arg) || (*end != '\0')) {
        return 0;
    }
    return (size_t)v;
}

int bench_parse_names(const char *list, const char *const *names, int count,
                      int *on, char *bad, size_t bad_len)
{
    char buf[512], *tok, *save = NULL;
    int i;

    for (i = 0; i < count; i++) {
        on[i] = 0;
    }
    snprintf(buf, sizeof(buf), "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        for (i = 0; (i < count) && (strcmp(tok, names[i]) != 0); i++) {
        }
        if (i == count) {
            snprintf(bad, bad_len, "%s", tok);
            return -1;
        }
        on[i] = 1;
    }
    return 0;
}

int bench_bind_cpu(int index)
{
    cpu_set_t set;
    int cpu, k;

    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        return -1;
    }
    k = index % CPU_COUNT(&set);
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set) && (k-- == 0)) {
            break;
        }
    }
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return (sched_setaffinity(0, sizeof(set), &set) == 0) ? cpu : -1;
}

long bench_vmpte_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmPTE:", 6) == 0) {
            sscanf(line + 6, "%ld", &kb);
            break;
        }
    }
    fclose(f);
    return kb;
}
