"""PVAS (partitioned virtual address space): the ping-pong latency and
bandwidth of Fig. 10/11 and the page-table arithmetic of Sec. I-II,
reproduced with xgas's PVAS mode (docs/pvas.md) and conventional mode.

Fig. 10/11: xgas-bench's putmem ping-pong (the data, a fence, a flag; the
paper's coarray ping-pong) with `--bounce`, so that every line carries,
measured interleaved with it, the two-copy baseline raw_bounce_pingpong
(memcpy into a shared buffer, the flag, memcpy out: "memory copy via
shared memory", the transport under the paper's GASNet-AM).  Run once
under --pvas (the paper's PVAS) and once conventionally (one shared
mapping, the paper's GASNet-Shmem), alternating, a few rounds.

Sec. II: xgas-pvas-pte through bench/pvas_pte.sh -- every PE writes an
object of its own and reads every page of every peer's, and the node's
page tables (VmPTE) are read before and after -- over a range of PE
counts, plus the paper's own example of 32 processes with 100 MB each.
"""

import math
import platform

import repro
from repro import Figure, Row

NAME = "pvas"
TITLE = ("PVAS: a partitioned virtual address space for PGAS intra-node "
         "communication")
PAPER = ("Partitioned Virtual Address Space (PVAS): intra-node "
         "communication of the XcalableMP coarray on a modified Linux "
         "2.6.32, against GASNet's shared-memory mapping and active "
         "messages (seed text: "
         "/work/shared/seeds/pvas-partitioned-virtual-address-space.txt, "
         "which carries no title page)")
FIGURES = [
    ("Fig. 10", "ping-pong latency: PVAS, shared mapping, two copies "
                "through a shared buffer"),
    ("Fig. 11", "ping-pong bandwidth, the same three"),
    ("Sec. II", "page-table memory vs number of processes: conventional, "
                "PVAS, every process mapping every peer (O(n^2))"),
]

# ---- the paper's numbers ------------------------------------------------

# Fig. 10 and Fig. 11 are plots only: the text names no latency or
# bandwidth value, so every paper cell of those figures is None.  What
# the text says (Sec. VI-C): PVAS "comparable with" GASNet-Shmem, "almost
# the same"; GASNet-AM "somewhat low due to the AM protocol overhead".
PAPER_PINGPONG = None

# Sec. I: "When the number of cores reaches 100, the number of page table
# entries could reach as high as 10,000.  Assuming each page table entry
# consumes four KB (one memory page), the total size ... could be as high
# as 40 MB."  (n^2 page-table pages: one per process and mapped segment,
# i.e. segments of at most 2 MB, which one 4 KB page maps -- Sec. II.)
SEC1_NPES = 100
SEC1_PTE_PAGES = 10000
SEC1_TOTAL_MB = 40.0
SEC1_OBJECT_MIB = 2  # our object: one page-table page maps it

# Sec. II (Fig. 3(a)): "two MB of memory is required to create the page
# table space needed to map one GB of address space".
SEC2_MB_PER_GB = 2.0

# Sec. II: "a local part of a global array 100 MB in size, and the number
# of processes is 32, then more than 200 MB of memory is necessary just
# for the page table" (a lower bound).
SEC2_NPES = 32
SEC2_OBJECT_MB = 100
SEC2_TOTAL_MB = 200.0

# Abstract, Sec. I-II: the shared-memory mapping needs O(n^2) page-table
# entries -- a growth exponent of 2 in the number of processes.
PAPER_EXPONENT_CONVENTIONAL = 2.0

# ---- our setup ----------------------------------------------------------

# ping-pong sizes of the table rows (present in quick and full runs;
# xgas-bench --quick measures 8, 256, 16 KiB and 1 MiB)
LAT_ROW_SIZES = [8, 256, 16384, 1 << 20]
BW_ROW_SIZES = [16384, 1 << 20]

MACHINE_PAPER = ("Intel Xeon X5670 2.93 GHz, 2 x 6 cores, 12 MB cache, "
                 "48 GB DDR3; PVAS in a modified Linux 2.6.32")


def pingpong_args(quick):
    """xgas-bench's options: the putmem ping-pong with the two-copy
    baseline, every power of two up to 4 MiB (quick: its own four
    sizes)."""
    args = ["--op", "putmem", "--kind", "pingpong", "--bounce"]
    if quick:
        return args + ["--quick"]
    return args + ["--step", "2", "--max-size", "4M", "--reps", "5"]


def run_pingpong(ctx):
    """{mode: {size: [record, ...]}} over alternating rounds of the two
    modes (the machine drifts; alternating spreads it over both)."""
    rounds = 1 if ctx.quick else 3
    found = {"pvas": {}, "conventional": {}}
    for r in range(rounds):
        for mode in ("conventional", "pvas"):
            ctx.progress("Fig. 10/11: putmem ping-pong, %s mode, round %d/%d"
                         % (mode, r + 1, rounds))
            launcher = ["--pvas"] if mode == "pvas" else []
            out = ctx.xgasrun(2, "bench/xgas-bench", pingpong_args(ctx.quick),
                              launcher_args=launcher, timeout=600)
            for rec in repro.records(out, "xgas-bench "):
                if rec.get("op") == "putmem" and \
                        rec.get("kind") == "pingpong" and "value" in rec:
                    found[mode].setdefault(int(rec["size"]), []).append(rec)
    if not found["pvas"] or not found["conventional"]:
        raise repro.ReproduceError(
            "xgas-bench printed no putmem ping-pong line: run `xgasrun -n 2 "
            "xgas-bench %s` by hand" % " ".join(pingpong_args(ctx.quick)))
    return found


def pingpong_table(found):
    """Per size, the medians: one-way latency (ns) of PVAS, conventional
    and the two-copy baseline, and the ratios."""
    table = {}
    sizes = sorted(set(found["pvas"]) & set(found["conventional"]))
    for size in sizes:
        pv, cv = found["pvas"][size], found["conventional"][size]
        # the two-copy baseline is the same raw kernel in both runs
        bounce = [r["baseline_value"] for r in pv + cv]
        pvas = repro.median(r["value"] for r in pv)
        conv = repro.median(r["value"] for r in cv)
        table[size] = {
            "pvas": pvas,
            "conventional": conv,
            "bounce": repro.median(bounce),
            # PVAS against two copies: value / adjacent baseline, measured
            # interleaved (xgas-bench's ratio), median over the rounds
            "pvas_vs_bounce": repro.median(r["ratio"] for r in pv),
            # PVAS against conventional: the two modes' medians (separate
            # runs, alternating; a baseline in between would add its own
            # noise, the two-copy one being far slower than both)
            "pvas_vs_conv": pvas / conv if conv else None,
        }
    return table


def size_name(size):
    if size >= 1 << 20:
        return "%d MiB" % (size >> 20)
    if size >= 1 << 10:
        return "%d KiB" % (size >> 10)
    return "%d B" % size


def gbps(size, ns):
    """Ping-pong bandwidth: bytes per one-way trip time, in GB/s."""
    return size / ns if ns else 0.0


PINGPONG_SETUP = (
    "xgas-bench putmem ping-pong (`shmem_putmem` of the message into the "
    "peer's symmetric buffer, `shmem_fence`, `shmem_long_p` of a flag; the "
    "peer waits with `shmem_long_wait_until` and answers the same way), 2 "
    "PEs on the machine's 2 cores, half a round trip; `--pvas` (one "
    "address space) and conventional (one shared memfd mapping); two-copy "
    "baseline `raw_bounce_pingpong` measured interleaved in the same runs")
PINGPONG_DIFFERS = (
    "XcalableMP coarray over GASNet on 2 x 6-core Xeons vs OpenSHMEM calls "
    "on a shared 2-vCPU VM; the paper's GASNet-AM adds an active-message "
    "protocol on top of the two copies, our baseline is the two copies "
    "and a flag only (whole messages, not pipelined)")


def latency_figure(table):
    rows = []
    for size in [s for s in LAT_ROW_SIZES if s in table]:
        t, name = table[size], size_name(size)
        rows += [
            Row("PVAS, %s" % name, PAPER_PINGPONG, t["pvas"], "ns",
                note="xgas --pvas"),
            Row("shared mapping (conventional; ~gasnet-shmem), %s" % name,
                PAPER_PINGPONG, t["conventional"], "ns",
                note="xgas conventional mode"),
            Row("two copies via a shared buffer (~gasnet-am), %s" % name,
                PAPER_PINGPONG, t["bounce"], "ns",
                note="raw_bounce_pingpong"),
            Row("PVAS / shared mapping, %s" % name, None, t["pvas_vs_conv"],
                "x", better=None,
                note="paper: 'almost the same' (Sec. VI-C), no number"),
            Row("PVAS / two copies, %s" % name, None, t["pvas_vs_bounce"],
                "x", better=None,
                note="paper: GASNet-AM 'somewhat low' (Sec. VI-C)"),
        ]

    def plot(ax):
        plot_modes(ax, table, lambda size, ns: ns / 1e3,
                   "ping-pong latency, one way (us)")
        ax.set_yscale("log")

    return Figure(
        "Fig. 10", "Ping-pong latency", MACHINE_PAPER + "; XcalableMP "
        "coarray ping-pong (copy into the remote coarray, then an ack flag "
        "in the coarray): PVAS, GASNet-Shmem (shared memory mapping, one "
        "copy), GASNet-AM (memory copy via shared memory); values only as "
        "a plot", PINGPONG_SETUP, PINGPONG_DIFFERS, rows, plot=plot,
        extra=claim_paragraph(table))


def plot_modes(ax, table, value, ylabel):
    """The three ping-pong curves of @table (size -> mode -> ns), each
    point value(size, ns), on a log2 size axis."""
    sizes = sorted(table)
    for key, label, style in (
            ("pvas", "ours: PVAS", "o-"),
            ("conventional", "ours: shared mapping (conventional)", "s-"),
            ("bounce", "ours: two copies via shared buffer", "^--")):
        ax.plot(sizes, [value(s, table[s][key]) for s in sizes], style,
                label=label, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel(ylabel)
    ax.text(0.98, 0.02, "paper: plot only, no values in its text",
            transform=ax.transAxes, fontsize=7, ha="right")


def bandwidth_figure(table):
    rows = []
    largest = max(table)
    for size in sorted(set([s for s in BW_ROW_SIZES if s in table] +
                           [largest])):
        t, name = table[size], size_name(size)
        rows += [
            Row("PVAS, %s" % name, PAPER_PINGPONG, gbps(size, t["pvas"]),
                "GB/s", better="higher"),
            Row("shared mapping (conventional), %s" % name, PAPER_PINGPONG,
                gbps(size, t["conventional"]), "GB/s", better="higher"),
            Row("two copies via a shared buffer, %s" % name, PAPER_PINGPONG,
                gbps(size, t["bounce"]), "GB/s", better="higher",
                note="raw_bounce_pingpong"),
        ]

    def plot(ax):
        plot_modes(ax, table, lambda size, ns: gbps(size, ns) * 1e3,
                   "ping-pong bandwidth (MB/s)")

    return Figure(
        "Fig. 11", "Ping-pong bandwidth", MACHINE_PAPER + "; the ping-pong "
        "of Fig. 10 as bandwidth; values only as a plot",
        PINGPONG_SETUP + "; bandwidth = message size / one-way time",
        PINGPONG_DIFFERS, rows, plot=plot)


def claim_paragraph(table):
    """The paper's claims in words, checked against every size measured."""
    sizes = sorted(table)
    level = [s for s in sizes if table[s]["pvas_vs_conv"] is not None and
             abs(table[s]["pvas_vs_conv"] - 1.0) <= repro.LEVEL_BAND - 1.0]
    faster = [s for s in sizes if table[s]["pvas_vs_bounce"] < 1.0]
    worst = max(sizes, key=lambda s: abs(
        math.log(table[s]["pvas_vs_conv"] or 1.0)))
    return ("The paper's claims (Sec. VI-C) against all %d sizes measured: "
            "PVAS within %d %% of the shared mapping at %d of them (furthest "
            "apart at %s: PVAS/shared %.2f); PVAS faster than two copies "
            "through a shared buffer at %d of them." %
            (len(sizes), round((repro.LEVEL_BAND - 1) * 100), len(level),
             size_name(worst), table[worst]["pvas_vs_conv"] or 0.0,
             len(faster)))


# ---- page tables ----------------------------------------------------------

def pte_runs(ctx, counts, object_mib, heap):
    """{(mode, npes): record} of bench/pvas_pte.sh at @counts."""
    ctx.progress("Sec. II: page tables, %s PEs, %d MiB objects, conventional "
                 "and PVAS" % (",".join(map(str, counts)), object_mib))
    out = ctx.run(["sh", ctx.script("bench/pvas_pte.sh"), ctx.build] +
                  [str(n) for n in counts],
                  env={"OBJECT_MIB": str(object_mib),
                       "SHMEM_SYMMETRIC_SIZE": heap,
                       "XGAS_PVAS_SEGMENT_SIZE": "1G"},
                  timeout=900)
    found = {}
    for rec in repro.records(out, "mode=", first_word=False):
        found[(rec["mode"], int(rec["npes"]))] = rec
    for n in counts:
        for mode in ("conventional", "pvas"):
            if (mode, n) not in found:
                raise repro.ReproduceError(
                    "bench/pvas_pte.sh printed no %s line at %d PEs: run "
                    "`OBJECT_MIB=%d bench/pvas_pte.sh %s %d` by hand" %
                    (mode, n, object_mib, ctx.build, n))
    return found


# Megabytes as the paper counts them (10,000 x 4 KB = 40 MB): 1000 KB.
KB_PER_MB = 1000.0


def added_kb(rec):
    """Page tables the objects added (own and every peer's), KB."""
    return rec["node_vmpte_kb_touched"] - rec["node_vmpte_kb_init"]


def added_mb(rec):
    return added_kb(rec) / KB_PER_MB


def total_mb(rec, key="node_vmpte_kb_touched"):
    return rec[key] / KB_PER_MB


def exponent(found, mode, counts):
    """Least-squares slope of log(added page tables) over log(n), n >= 8."""
    pts = [(math.log(n), math.log(max(added_mb(found[(mode, n)]), 1e-3)))
           for n in counts if n >= 8]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else 0.0


def pte_figure(ctx):
    counts = [2, 8, 32, 100] if ctx.quick else [2, 4, 8, 16, 32, 64, 100, 128]
    sweep = pte_runs(ctx, counts, SEC1_OBJECT_MIB, "4M")
    # the Sec. II example itself in full mode; quick mode keeps its shape
    # (32 processes) with a smaller object, and then has no paper number
    big_mib = 8 if ctx.quick else SEC2_OBJECT_MB
    big = pte_runs(ctx, [SEC2_NPES], big_mib,
                   "%dM" % (big_mib + 28))
    bc, bp = big[("conventional", SEC2_NPES)], big[("pvas", SEC2_NPES)]
    sc = sweep[("conventional", SEC1_NPES)]
    sp = sweep[("pvas", SEC1_NPES)]
    is_sec2 = big_mib == SEC2_OBJECT_MB
    # every process maps every process's object, its own too (n^2, as the
    # paper counts); KB of page tables per MB mapped = MB per GB
    mapped_mib = SEC2_NPES * SEC2_NPES * big_mib

    rows = [
        Row("conventional, %d PEs x %d MiB: page tables the objects add"
            % (SEC1_NPES, SEC1_OBJECT_MIB), SEC1_TOTAL_MB, added_mb(sc),
            "MB", note="Sec. I: %d PTE pages x 4 KB (paper's MB)"
            % SEC1_PTE_PAGES),
        Row("conventional, %d PEs: node total after the reads" % SEC1_NPES,
            None, total_mb(sc), "MB",
            note="runtime only: %.1f MB" % total_mb(sc, "node_vmpte_kb_init")),
        Row("PVAS, %d PEs x %d MiB: page tables the objects add"
            % (SEC1_NPES, SEC1_OBJECT_MIB), None, added_mb(sp), "MB",
            note="paper: the increase 'simply does not happen' (Sec. IV)"),
        Row("PVAS, %d PEs: node total after the reads" % SEC1_NPES, None,
            total_mb(sp), "MB",
            note="runtime only: %.1f MB" % total_mb(sp, "node_vmpte_kb_init")),
        Row("PVAS / conventional node total, %d PEs" % SEC1_NPES, None,
            total_mb(sp) / total_mb(sc), "x", better=None),
        Row("conventional, %d PEs x %d MiB: page tables the objects add"
            % (SEC2_NPES, big_mib), SEC2_TOTAL_MB if is_sec2 else None,
            added_mb(bc), "MB",
            note=("Sec. II: 'more than 200 MB' for 32 x 100 MB" if is_sec2
                  else "quick: 8 MiB objects; full mode runs Sec. II's "
                       "100 MB")),
        Row("PVAS, %d PEs x %d MiB: page tables the objects add"
            % (SEC2_NPES, big_mib), None, added_mb(bp), "MB",
            note="their own mappings only: one address space"),
        Row("conventional: page tables per GB mapped (%d x %d MiB)"
            % (SEC2_NPES, big_mib), SEC2_MB_PER_GB,
            added_kb(bc) / mapped_mib, "MB/GB",
            note="Sec. II / Fig. 3(a): 4 KB maps 2 MB"),
        Row("growth exponent in n, conventional (objects' page tables, "
            "n >= 8)", PAPER_EXPONENT_CONVENTIONAL,
            exponent(sweep, "conventional", counts), "", better=None,
            note="paper: O(n^2) (abstract, Sec. I-II)"),
        Row("growth exponent in n, PVAS", None,
            exponent(sweep, "pvas", counts), "", better=None,
            note="the paper gives no order for PVAS"),
    ]

    def plot(ax):
        ns = counts
        curves = (
            ("conventional", total_mb,
             "ours: conventional, every PE reads every peer (O(n^2))", "s-"),
            ("conventional", added_mb,
             "ours: conventional, what the objects add (after - before)",
             "s--"),
            ("conventional", lambda r: total_mb(r, "node_vmpte_kb_init"),
             "ours: conventional, runtime only", "s:"),
            ("pvas", total_mb, "ours: PVAS, every PE reads every peer",
             "o-"),
            ("pvas", lambda r: total_mb(r, "node_vmpte_kb_init"),
             "ours: PVAS, runtime only", "o:"))
        for mode, value, label, style in curves:
            ax.plot(ns, [value(sweep[(mode, n)]) for n in ns], style,
                    label=label, markersize=4)
        model = [n * n * 4 / KB_PER_MB for n in ns]
        ax.plot(ns, model, "k--", linewidth=1,
                label="paper's model: n^2 x 4 KB (Sec. I)")
        ax.plot([SEC1_NPES], [SEC1_TOTAL_MB], "k*", markersize=10,
                label="paper: 100 processes, 40 MB (Sec. I)")
        if is_sec2:
            ax.plot([SEC2_NPES], [SEC2_TOTAL_MB], "rP", markersize=9,
                    label="paper: 32 x 100 MB, >200 MB (Sec. II)")
        ax.plot([SEC2_NPES], [total_mb(bc)], "rs", markersize=6,
                fillstyle="none",
                label="ours: conventional 32 x %d MiB" % big_mib)
        ax.plot([SEC2_NPES], [total_mb(bp)], "ro", markersize=6,
                fillstyle="none", label="ours: PVAS 32 x %d MiB" % big_mib)
        ax.set_xscale("log", base=2)
        ax.set_xticks(ns)
        ax.set_xticklabels([str(n) for n in ns])
        ax.set_yscale("log")
        # head room above the curves for the legend (placed by repro.draw)
        ax.set_ylim(0.01, 1e5)
        ax.set_xlabel("processes (PEs) in the node")
        ax.set_ylabel("page-table memory of the node (MB = 1000 KB)")

    return Figure(
        "Sec. II", "Page-table memory vs number of processes",
        "arithmetic, not a measurement: x86-64 four-level page tables, a "
        "4 KB page-table page maps 2 MB (Sec. II, Fig. 3(a)); every process "
        "maps every process's part of the global array (GASNet's shared "
        "memory mapping): 100 processes need 10,000 page-table pages, 40 MB "
        "(Sec. I); 32 processes with 100 MB each more than 200 MB (Sec. II); "
        "PVAS has one page table, no number given",
        "xgas-pvas-pte via bench/pvas_pte.sh: every PE allocates a symmetric "
        "object (%d MiB; %d MiB at 32 PEs), writes it, then reads one byte "
        "per page of every peer's through `shmem_ptr`; VmPTE summed over "
        "the PEs (conventional) or of the one address space (PVAS), right "
        "after `shmem_init` and after the reads; %s PEs; "
        "`XGAS_PVAS_SEGMENT_SIZE=1G`" %
        (SEC1_OBJECT_MIB, big_mib, ", ".join(map(str, counts))),
        "measured VmPTE on Linux %s instead of the paper's arithmetic; it "
        "also counts each process's own libraries and runtime (the 'runtime "
        "only' curves), so the rows compared with the paper take the "
        "difference before/after the reads; PVAS here is xgas's user-space "
        "one (CLONE_VM processes), not the paper's kernel" %
        platform.release(), rows, plot=plot)


def experiments(ctx):
    found = run_pingpong(ctx)
    table = pingpong_table(found)
    return [latency_figure(table), bandwidth_figure(table), pte_figure(ctx)]
