#!/usr/bin/env python3
"""Report of bench/internode.sh --full (bench/internode_full.sh): xgas
across 2 and 4 nodes next to OSHMEM over UCX tcp and raw libfabric, all
measured in one run.

    internode_full_report.py RESULTS_DIR PROVIDER

Reads RESULTS_DIR/runs.txt and the raw outputs LAYOUT-coll-LIB.txt
(xgas-coll-bench), LAYOUT-many-LIB.txt (GUPS and barrier_all of
xgas-bench), the 2x1 pair figures (xgas.txt, oshmem.txt, raw.txt for
v2x1; n2x1-xgas.txt ... for the namespace hosts) and writes
RESULTS_DIR/internode_full.md: the targets of "across nodes at least as
fast as OSHMEM everywhere" with their ratios (met or missed; nothing is
asserted), the failures, the collectives by layout and size, the rates
and latencies; with matplotlib (Debian: python3-matplotlib) also the
full_*.png plots.  Every figure is the median over the rounds of each
run's median.
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
# bench/lib, found through the path above
from report_lib import median, pairs, pyplot, read_lines, size_str  # noqa

plt = pyplot()

COLL_OPS = ["barrier_all", "sync_all", "team_sync", "broadcast", "reduce",
            "collect", "fcollect", "alltoall", "alltoalls"]
SYNC_OPS = COLL_OPS[:3]
LAYOUT_ORDER = ["v2x1", "v2x2", "v4x1", "v4x2", "n2x1", "n2x2", "n4x1",
                "n4x2"]
MODE = {"v": "virtual nodes", "n": "namespace hosts"}
# 8-byte message rates: (label, xgas-bench op, kind)
RATES = [("put (long_p)", "long_p"), ("putmem 8 B", "putmem"),
         ("get (long_g nbi)", "long_g"),
         ("atomic add (non-fetching)", "long_atomic_add"),
         ("fetch-add (blocking)", "long_atomic_fetch_add")]
# 8-byte latencies: (label, xgas-bench op, kind)
LATS = [("put ping-pong (half round trip)", "long_p", "pingpong"),
        ("put + quiet", "long_p", "issue"),
        ("get", "long_g", "issue"),
        ("fetch-add", "long_atomic_fetch_add", "issue")]


def parse(path, prefix):
    """{(op, kind, size): median value} of the @prefix lines of @path
    (kind is "coll" for xgas-coll-bench); {} if there is no file."""
    found = {}
    if not os.path.exists(path):
        return {}
    for _, rec in read_lines(path, prefix):
        if "value" not in rec:
            continue
        key = (rec["op"], rec.get("kind", "coll"), int(rec["size"]))
        found.setdefault(key, []).append(float(rec["value"]))
    return {k: median(v) for k, v in found.items()}


def layout_key(name):
    return (LAYOUT_ORDER.index(name) if name in LAYOUT_ORDER else 99, name)


def us(ns):
    return "--" if ns is None else "%.1f" % (ns / 1000.0)


def rate(gbs):
    """8-byte GB/s as millions of operations per second."""
    return None if gbs is None else gbs / 8.0 * 1e3


def fmt(v, digits=2):
    return "--" if v is None else "%.*f" % (digits, v)


def status(ratio, target):
    if ratio is None:
        return "--"
    return "ahead (met)" if ratio >= target else "behind (missed)"


class Data:
    """Everything of one results directory."""

    def __init__(self, res):
        self.res = res
        self.runs = []
        self.total = {}
        path = os.path.join(res, "runs.txt")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("run "):
                        msg = line.split(" msg=", 1)
                        rec = pairs(msg[0])
                        rec["msg"] = msg[1].strip() if len(msg) > 1 else ""
                        self.runs.append(rec)
                    elif line.startswith("full "):
                        self.total = pairs(line)
        self.layouts = sorted({r["layout"] for r in self.runs}, key=layout_key)
        self.coll, self.many, self.pair = {}, {}, {}
        for lay in self.layouts:
            for lib in ("xgas", "oshmem"):
                self.coll[lay, lib] = parse(
                    os.path.join(res, "%s-coll-%s.txt" % (lay, lib)),
                    "xgas-coll-bench ")
                self.many[lay, lib] = parse(
                    os.path.join(res, "%s-many-%s.txt" % (lay, lib)),
                    "xgas-bench ")
            if lay.endswith("2x1"):
                pre = "" if lay == "v2x1" else lay + "-"
                for lib in ("xgas", "oshmem", "raw"):
                    self.pair[lay, lib] = parse(
                        os.path.join(res, "%s%s.txt" % (pre, lib)),
                        "xgas-bench ")

    def raw_layout(self, lay):
        """The 2x1 layout of @lay's kind of node, where the raw figures
        are."""
        two = lay[0] + "2x1"
        return two if (two, "raw") in self.pair else None

    def raw_half_rt(self, lay):
        two = self.raw_layout(lay)
        return self.pair[two, "raw"].get(("rma_write", "pingpong", 8)) \
            if two else None

    def raw_starved(self, lay):
        """True where the raw half round trip is slower than xgas's own
        put ping-pong between the same two nodes: the raw program (busy
        polling) was starved, and the raw-based bounds mean little."""
        two = self.raw_layout(lay)
        rt = self.raw_half_rt(lay)
        xv = self.pairv(two, "xgas", "long_p", "pingpong") if two else None
        return bool(rt and xv and rt > xv)

    def coll_val(self, lay, lib, op, size):
        return self.coll.get((lay, lib), {}).get((op, "coll", size))

    def gups(self, lay, lib):
        for (op, kind, _), v in self.many.get((lay, lib), {}).items():
            if op == "gups" and kind == "rate":
                return v
        return None

    def pairv(self, lay, lib, op, kind, size=8):
        return self.pair.get((lay, lib), {}).get((op, kind, size))


STARVED = " [raw starved]"


def nodes_of(lay):
    return int(lay[1:].split("x")[0])


def worst_ratio(figures, reference):
    """Over collective @figures ({(op, _, size): time}), the ratio
    reference(op, size) / time of each: (worst, where, met, total), met
    counting ratios >= 1; figures without a reference are left out."""
    worst, where, met, total = None, "", 0, 0
    for (op, _, size), value in figures.items():
        ref = reference(op, size)
        if ref is None or not value:
            continue
        r = ref / value
        total += 1
        met += r >= 1.0
        if worst is None or r < worst:
            worst, where = r, "%s %s" % (op, size_str(size) if size else "")
    return worst, where, met, total


def targets(d):
    """The summary rows: (target, layout, xgas, reference, ratio, want,
    status); ratio >= want is met (every ratio is oriented that way)."""
    rows = []
    for lay in d.layouts:
        # every collective figure and GUPS against OSHMEM: the worst one
        worst, where, met, total = worst_ratio(
            d.coll.get((lay, "xgas"), {}),
            lambda op, size, lay=lay: d.coll_val(lay, "oshmem", op, size))
        if worst is not None:
            rows.append(("every collective >= OSHMEM (%d/%d met; worst: "
                         "%s)" % (met, total, where.strip()), lay,
                         "", "", worst, 1.0, status(worst, 1.0)))
        xb = d.coll_val(lay, "xgas", "barrier_all", 0)
        ob = d.coll_val(lay, "oshmem", "barrier_all", 0)
        if xb and ob:
            rows.append(("barrier_all >= 2x OSHMEM (us)", lay, us(xb),
                         us(ob), ob / xb, 2.0, status(ob / xb, 2.0)))
        rt = d.raw_half_rt(lay)
        levels = max(1, math.ceil(math.log2(nodes_of(lay))))
        if xb and rt:
            bound = 1.5 * rt * levels
            rows.append(("barrier_all <= 1.5 x raw half RT x %d level(s) "
                         "(us)%s" % (levels, STARVED if d.raw_starved(lay)
                                     else ""), lay, us(xb), us(bound),
                         bound / xb, 1.0, status(bound / xb, 1.0)))
        xg, og = d.gups(lay, "xgas"), d.gups(lay, "oshmem")
        if xg and og:
            rows.append(("GUPS >= 2x OSHMEM (MUP/s)", lay, "%.3f" % (xg * 1e3),
                         "%.3f" % (og * 1e3), xg / og, 2.0, status(xg / og, 2.0)))
    # 2x2 never slower than 4x1, both kinds of nodes
    for kind in "vn":
        a, b = kind + "2x2", kind + "4x1"
        if a not in d.layouts or b not in d.layouts:
            continue
        worst, where, met, total = worst_ratio(
            d.coll.get((a, "xgas"), {}),
            lambda op, size, b=b: d.coll_val(b, "xgas", op, size))
        g22, g41 = d.gups(a, "xgas"), d.gups(b, "xgas")
        if g22 and g41:
            total += 1
            met += g22 >= g41
            if worst is None or g22 / g41 < worst:
                worst, where = g22 / g41, "GUPS"
        if worst is not None:
            rows.append(("xgas %s never slower than %s (%d/%d met; worst: "
                         "%s)" % (a, b, met, total, where.strip()),
                         "%s/%s" % (a, b), "", "", worst, 1.0,
                         status(worst, 1.0)))
    for lay in d.layouts:
        if (lay, "xgas") not in d.pair:
            continue
        rt = d.raw_half_rt(lay)
        for label, op in (("8 B get", "long_g"),
                          ("8 B fetch-add", "long_atomic_fetch_add")):
            xv = d.pairv(lay, "xgas", op, "issue")
            if xv and rt:
                bound = 1.2 * 2 * rt
                rows.append(("%s <= 1.2 x raw round trip (us)%s" % (
                    label, STARVED if d.raw_starved(lay) else ""), lay,
                             us(xv), us(bound), bound / xv, 1.0,
                             status(bound / xv, 1.0)))
        raw_rate = rate(d.pairv(lay, "raw", "rma_write", "bw"))
        for label, op in (("8 B put (long_p)", "long_p"),
                          ("8 B putmem", "putmem"),
                          ("non-fetching atomic add", "long_atomic_add")):
            xr = rate(d.pairv(lay, "xgas", op, "bw"))
            if xr and raw_rate:
                rows.append(("%s rate >= raw write rate (M/s)%s" % (
                    label, STARVED if d.raw_starved(lay) else ""), lay,
                             fmt(xr, 3), fmt(raw_rate, 3), xr / raw_rate,
                             1.0, status(xr / raw_rate, 1.0)))
        # the pair figures against OSHMEM
        for label, op, kind in LATS:
            xv, ov = d.pairv(lay, "xgas", op, kind), d.pairv(lay, "oshmem",
                                                             op, kind)
            if xv and ov:
                rows.append(("%s, 8 B >= OSHMEM (us)" % label, lay, us(xv),
                             us(ov), ov / xv, 1.0, status(ov / xv, 1.0)))
        for label, op in RATES:
            xr = rate(d.pairv(lay, "xgas", op, "bw"))
            orr = rate(d.pairv(lay, "oshmem", op, "bw"))
            if xr and orr:
                rows.append(("%s rate >= OSHMEM (M/s)" % label, lay,
                             fmt(xr, 3), fmt(orr, 3), xr / orr, 1.0,
                             status(xr / orr, 1.0)))
    return rows


def plots(d, prov):
    """The PNGs; returns their markdown lines."""
    out = []
    sized = [op for op in COLL_OPS if op not in SYNC_OPS]
    for lay in d.layouts:
        if not d.coll.get((lay, "xgas")) and not d.coll.get((lay, "oshmem")):
            continue
        fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), sharex=True)
        for ax, op in zip(axes.flat, sized):
            for lib, style in (("xgas", "o-"), ("oshmem", "^--")):
                pts = sorted((k[2], v / 1000.0) for k, v in
                             d.coll.get((lay, lib), {}).items()
                             if k[0] == op)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                            label="xgas" if lib == "xgas"
                            else "OSHMEM UCX tcp")
            ax.set_title(op)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
            ax.set_xlabel("bytes per PE (block)")
            ax.set_ylabel("us per call")
            ax.legend(fontsize=8)
        fig.suptitle("Collectives, %s: %s x %s PEs (%s, %s)" % (
            lay, lay[1:].split("x")[0], lay.split("x")[1],
            MODE.get(lay[0], lay[0]), prov))
        fig.tight_layout()
        name = "full_coll_%s.png" % lay
        fig.savefig(os.path.join(d.res, name), dpi=80)
        plt.close(fig)
        out += ["![collectives %s](%s)" % (lay, name), ""]

    def bars(name, title, ylabel, groups, series, log=False):
        fig, ax = plt.subplots(figsize=(max(7, 1.3 * len(groups)), 4.5))
        width = 0.8 / len(series)
        for i, (label, values) in enumerate(series):
            ax.bar([j + (i - (len(series) - 1) / 2.0) * width
                    for j in range(len(groups))],
                   [v or 0 for v in values], width, label=label)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups, fontsize=8)
        if log:
            ax.set_yscale("log")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(d.res, name), dpi=80)
        plt.close(fig)
        return ["![%s](%s)" % (title, name), ""]

    groups = ["%s %s" % (lay, op) for lay in d.layouts for op in SYNC_OPS]
    out += bars("full_sync.png", "barrier, sync across nodes", "us (log)",
                groups,
                [(name, [None if d.coll_val(lay, lib, op, 0) is None else
                         d.coll_val(lay, lib, op, 0) / 1000.0
                         for lay in d.layouts for op in SYNC_OPS])
                 for lib, name in (("xgas", "xgas"),
                                   ("oshmem", "OSHMEM UCX tcp"))], log=True)
    out += bars("full_gups.png", "GUPS by layout", "MUP/s (millions of "
                "updates per second)", d.layouts,
                [(name, [d.gups(lay, lib) * 1e3 if d.gups(lay, lib) else None
                         for lay in d.layouts])
                 for lib, name in (("xgas", "xgas"),
                                   ("oshmem", "OSHMEM UCX tcp"))])
    pl = [lay for lay in d.layouts if (lay, "xgas") in d.pair]
    if pl:
        groups = ["%s\n%s" % (lay, label.split(" (")[0]) for lay in pl
                  for label, _ in RATES] + ["%s\nraw write" % lay
                                            for lay in pl] + \
                 ["%s\nraw read" % lay for lay in pl]
        series = []
        for lib, name in (("xgas", "xgas"), ("oshmem", "OSHMEM UCX tcp")):
            series.append((name, [rate(d.pairv(lay, lib, op, "bw"))
                                  for lay in pl for _, op in RATES] +
                           [None] * (2 * len(pl))))
        series.append(("raw libfabric", [None] * (len(pl) * len(RATES)) +
                       [rate(d.pairv(lay, "raw", "rma_write", "bw"))
                        for lay in pl] +
                       [rate(d.pairv(lay, "raw", "rma_read", "bw"))
                        for lay in pl]))
        out += bars("full_rates.png", "8-byte message rates between two "
                    "nodes (one PE each)", "M operations/s", groups, series)
        groups = ["%s\n%s" % (lay, label.split(" (")[0]) for lay in pl
                  for label, _, _ in LATS]
        series = [(name, [None if d.pairv(lay, lib, op, kind) is None else
                          d.pairv(lay, lib, op, kind) / 1000.0
                          for lay in pl for _, op, kind in LATS])
                  for lib, name in (("xgas", "xgas"),
                                    ("oshmem", "OSHMEM UCX tcp"))]
        raw_ref = {"pingpong": ("rma_write", "pingpong", 1.0),
                   "issue_long_p": ("rma_write", "issue", 1.0),
                   "issue_long_g": ("rma_read", "issue", 1.0),
                   "issue_long_atomic_fetch_add": ("msg", "pingpong", 2.0)}
        vals = []
        for lay in pl:
            for _, op, kind in LATS:
                ref = raw_ref["pingpong" if kind == "pingpong"
                              else "issue_" + op]
                v = d.pairv(lay, "raw", ref[0], ref[1])
                vals.append(None if v is None else v * ref[2] / 1000.0)
        series.append(("raw libfabric", vals))
        out += bars("full_lat.png", "8-byte latency between two nodes",
                    "us", groups, series)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: internode_full_report.py RESULTS_DIR PROVIDER")
    res, prov = sys.argv[1], sys.argv[2]
    d = Data(res)
    t = d.total
    lines = ["# xgas across nodes: the full comparison", "",
             "bench/internode.sh --full%s, provider `%s`: layouts %s "
             "(NODESxPES per node; v: virtual nodes of this host over "
             "libfabric, n: network-namespace hosts joined by a bridge), "
             "%s round(s), %s s in all.  Every figure is the median over "
             "the rounds of each run's median; in every round each "
             "program ran against xgas, then against OSHMEM (Open MPI "
             "4.1, UCX `tcp,self`, btl `self,tcp`: no shared memory "
             "between its PEs, even on one node; xgas's PEs of one node "
             "share memory), one after the other, so that a slow spell "
             "of this shared machine falls on both." % (
                 " --quick" if t.get("quick") == "--quick" else "", prov,
                 ", ".join(d.layouts), t.get("rounds", "?"),
                 t.get("seconds", "?")), "",
             "Ratios are oriented so that >= target means met: for times "
             "reference / xgas, for rates xgas / reference.  Nothing is "
             "asserted; these are measurements.", ""]
    rows = targets(d)
    lines += ["## Targets", ""]
    lines += ["| target | layout | xgas | reference | ratio | target "
              "ratio | status |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r[0], r[1], r[2], r[3], fmt(r[4]), fmt(r[5], 1), r[6]))
    met = sum(1 for r in rows if r[6].startswith("ahead"))
    lines += ["", "%d of %d targets met." % (met, len(rows)), ""]
    lines += ["Raw half round trip: xgas-ofi-raw's 8-byte "
              "fi_inject_write ping-pong between the two nodes (the raw "
              "round trip is twice it); raw message rate: its stream of "
              "8-byte writes, 64 in flight.  Network levels of a barrier: "
              "ceil(log2(nodes)).  The 2x1 pair figures (latencies, "
              "rates) run between two PEs on two nodes; the collectives, "
              "GUPS and barrier use every PE of the layout.", ""]

    if any(d.raw_starved(lay) for lay in d.layouts):
        lines += ["[raw starved]: the raw libfabric half round trip of "
                  "these nodes came out slower than xgas's own put "
                  "ping-pong between the same nodes in the same run.  The "
                  "raw programs poll without pause; on a loaded 2-core "
                  "machine the kernel's network processing (loopback, or "
                  "veth and bridge between namespaces) then waits for a "
                  "core, while xgas's waits yield it.  A bound derived "
                  "from such a raw figure is looser than the network's "
                  "real one: read those rows as indicative.", ""]
    heads = [("barrier_all", 0), ("broadcast", 8), ("reduce", 8),
             ("fcollect", 8), ("alltoall", 8), ("broadcast", 1 << 20),
             ("reduce", 1 << 20), ("fcollect", 1 << 20),
             ("alltoall", 1 << 20)]
    lines += ["## Headline figures by layout", "",
              "Microseconds per call, xgas / OSHMEM (UCX tcp); GUPS in "
              "MUP/s (millions of updates per second); raw: the "
              "libfabric half round trip of the two nodes of that kind.",
              "", "| layout | raw half RT | " + " | ".join(
                  "%s %s" % (op, size_str(sz)) if sz else op
                  for op, sz in heads) + " | GUPS |",
              "|---|---|" + "---|" * (len(heads) + 1)]
    for lay in d.layouts:
        cells = []
        for op, sz in heads:
            xv, ov = d.coll_val(lay, "xgas", op, sz), d.coll_val(
                lay, "oshmem", op, sz)
            cells.append("%s / %s" % (us(xv), us(ov)))
        xg, og = d.gups(lay, "xgas"), d.gups(lay, "oshmem")
        cells.append("%s / %s" % (fmt(xg * 1e3 if xg else None, 2),
                                  fmt(og * 1e3 if og else None, 2)))
        lines.append("| %s | %s | %s |" % (lay, us(d.raw_half_rt(lay)),
                                          " | ".join(cells)))
    lines.append("")

    bad = [r for r in d.runs if r.get("status") != "0"]
    lines += ["## Failures and hangs", ""]
    if not bad:
        lines += ["None: every program run ended with status 0.", ""]
    else:
        lines += ["| layout | program | library | round | status | "
                  "seconds | message |", "|---|---|---|---|---|---|---|"]
        for r in bad:
            lines.append("| %s | %s | %s | %s | %s%s | %s | %s |" % (
                r["layout"], r["prog"], r["lib"], r["round"], r["status"],
                " (timeout)" if r["status"] == "124" else "", r["secs"],
                r["msg"].replace("|", "/") or "--"))
        lines += ["", "A failed run's figures are those it printed before "
                  "it ended (none for a hang killed by the timeout).", ""]

    for lay in d.layouts:
        xc, oc = d.coll.get((lay, "xgas"), {}), d.coll.get((lay, "oshmem"),
                                                           {})
        if not xc and not oc:
            continue
        lines += ["## Collectives, %s (%s)" % (lay, MODE.get(lay[0], "")),
                  "", "Microseconds per call (every PE's payload or block "
                  "size); OSHMEM / xgas >= 1: xgas ahead.", "",
                  "| collective | size | xgas | OSHMEM | OSHMEM / xgas |",
                  "|---|---|---|---|---|"]
        keys = sorted(set(xc) | set(oc),
                      key=lambda k: (COLL_OPS.index(k[0])
                                     if k[0] in COLL_OPS else 99, k[2]))
        for k in keys:
            xv, ov = xc.get(k), oc.get(k)
            lines.append("| %s | %s | %s | %s | %s |" % (
                k[0], size_str(k[2]) if k[2] else "--", us(xv), us(ov),
                fmt(ov / xv if xv and ov else None)))
        xg, og = d.gups(lay, "xgas"), d.gups(lay, "oshmem")
        xb = d.many.get((lay, "xgas"), {}).get(("barrier_all", "latency", 0))
        ob = d.many.get((lay, "oshmem"), {}).get(("barrier_all", "latency",
                                                  0))
        lines += ["", "GUPS (every PE, random remote atomic xor): xgas %s, "
                  "OSHMEM %s MUP/s; xgas-bench's barrier_all: xgas %s us, "
                  "OSHMEM %s us." % (fmt(xg * 1e3 if xg else None, 3),
                                     fmt(og * 1e3 if og else None, 3), us(xb),
                                     us(ob)), ""]

    pl = [lay for lay in d.layouts if (lay, "xgas") in d.pair]
    for lay in pl:
        lines += ["## Between two nodes, one PE each: %s" % lay, "",
                  "| 8-byte latency | xgas us | OSHMEM us | raw us | "
                  "raw figure |", "|---|---|---|---|---|"]
        raws = {"pingpong": ("rma_write", "pingpong", 1.0,
                             "write ping-pong"),
                "long_p": ("rma_write", "issue", 1.0,
                           "write, delivery completion"),
                "long_g": ("rma_read", "issue", 1.0, "read"),
                "long_atomic_fetch_add": ("msg", "pingpong", 2.0,
                                          "send/recv round trip")}
        for label, op, kind in LATS:
            ref = raws["pingpong" if kind == "pingpong" else op]
            rv = d.pairv(lay, "raw", ref[0], ref[1])
            lines.append("| %s | %s | %s | %s | %s |" % (
                label, us(d.pairv(lay, "xgas", op, kind)),
                us(d.pairv(lay, "oshmem", op, kind)),
                us(rv * ref[2] if rv else None), ref[3]))
        lines += ["", "| 8-byte message rate | xgas M/s | OSHMEM M/s | "
                  "xgas / OSHMEM |", "|---|---|---|---|"]
        for label, op in RATES:
            xr = rate(d.pairv(lay, "xgas", op, "bw"))
            orr = rate(d.pairv(lay, "oshmem", op, "bw"))
            lines.append("| %s | %s | %s | %s |" % (
                label, fmt(xr, 3), fmt(orr, 3),
                fmt(xr / orr if xr and orr else None)))
        lines += ["", "Raw libfabric: write rate %s M/s, read rate %s "
                  "M/s (8 B, 64 in flight)." % (
                      fmt(rate(d.pairv(lay, "raw", "rma_write", "bw")), 3),
                      fmt(rate(d.pairv(lay, "raw", "rma_read", "bw")), 3)),
                  ""]
    if plt is None:
        lines.append("(No plots: matplotlib is not installed; Debian: "
                     "python3-matplotlib.)")
    else:
        lines += ["## Plots", ""] + plots(d, prov)
    with open(os.path.join(res, "internode_full.md"), "w",
              encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("internode_full_report.py: wrote %s" % os.path.join(
        res, "internode_full.md"))


if __name__ == "__main__":
    main()
