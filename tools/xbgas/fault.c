/*
 * Messages for people: the mnemonic of a decoded instruction, the fatal
 * report of a guest fault (PE, guest pc, instruction, address) and the
 * counters printed by --stats.
 *
 * Invariant: a guest fault ends the job at once with exit status 1 (xgasrun
 * then ends the other PEs, docs/launcher.md); it never returns.
 */
#include "machine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define MACH_OP_NAME(name, str) str,
static const char *const op_names[OP_COUNT] = {MACH_OPS(MACH_OP_NAME)};

static const char *const amo_names[32] = {
    [0x00] = "add",  [0x01] = "swap", [0x04] = "xor", [0x05] = "cas",
    [0x08] = "or",   [0x0c] = "and",  [0x10] = "min", [0x14] = "max",
    [0x18] = "minu", [0x1c] = "maxu"};

static const char *const width[8] = {"b", "h", "w", "d", "bu", "hu", "wu", "e"};

const char *mach_mnemonic(const insn_t *d)
{
    static char buf[32];
    const char *sfx = d->f3 == 3 ? "d" : "w";
    const char *amo = amo_names[d->f7 & 31] ? amo_names[d->f7 & 31] : "?";
    switch (d->op) {
    case OP_ELOAD: snprintf(buf, sizeof buf, "el%s", width[d->f3]); break;
    case OP_ESTORE: snprintf(buf, sizeof buf, "es%s", width[d->f3]); break;
    case OP_ERLOAD: snprintf(buf, sizeof buf, "erl%s", width[d->f3]); break;
    case OP_ERSTORE: snprintf(buf, sizeof buf, "ers%s", width[d->f3]); break;
    case OP_EAMO:
    case OP_EAMOCAS: snprintf(buf, sizeof buf, "eamo%s.%s", amo, sfx); break;
    case OP_AMO: snprintf(buf, sizeof buf, "amo%s.%s", amo, sfx); break;
    case OP_LR:
    case OP_SC: snprintf(buf, sizeof buf, "%s.%s", op_names[d->op], sfx); break;
    default: return d->op < OP_COUNT ? op_names[d->op] : "?";
    }
    return buf;
}

void mach_fault(const hart_t *h, const insn_t *d, uint64_t addr,
                const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "xgas-xbgas: PE %d: pc 0x%llx: %s: ", h->pe,
            (unsigned long long)(d ? d->pc : h->pc),
            d ? mach_mnemonic(d) : "instruction fetch");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ", address 0x%llx\n", (unsigned long long)addr);
    exit(1);
}

void mach_die(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "xgas-xbgas: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void mach_print_stats(const hart_t *h, double seconds, double cpu)
{
    const mach_stats_t *s = &h->st;
    uint64_t other = s->total - s->loads - s->stores - s->xmem - s->xaddr;
    fprintf(stderr,
            "xgas-xbgas: PE %d: %llu instructions: %llu xBGAS "
            "memory (%llu remote), %llu xBGAS address, %llu loads, %llu "
            "stores, %llu other; %.3f s (%.3f s CPU), %.1f M "
            "instructions/s, %.1f M per CPU second\n",
            h->pe, (unsigned long long)s->total, (unsigned long long)s->xmem,
            (unsigned long long)s->xremote, (unsigned long long)s->xaddr,
            (unsigned long long)s->loads, (unsigned long long)s->stores,
            (unsigned long long)other, seconds, cpu,
            seconds > 0 ? (double)s->total / seconds / 1e6 : 0.0,
            cpu > 0 ? (double)s->total / cpu / 1e6 : 0.0);
}
