#!/usr/bin/env python3
"""Report of bench/internode.sh: xgas between two nodes next to the raw
network, measured in the same run.

    internode_report.py RESULTS_DIR PROVIDER MODE

Reads RESULTS_DIR/xgas.txt (xgas-bench --internode), raw.txt
(xgas-ofi-raw), fi_pingpong.txt (libfabric-bin's fi_pingpong) and
oshmem.txt (the same xgas-bench built with oshcc, OSHMEM over UCX tcp),
whichever exist, and writes RESULTS_DIR/internode_report.md: the targets
with their status, the latencies side by side, the bandwidth and message
rate by size; with matplotlib (Debian: python3-matplotlib) also
internode_bw.png and internode_lat.png.  Python 3 standard library
otherwise.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
# bench/lib, found through the path above
from report_lib import median, pyplot, read_lines  # noqa: E402

plt = pyplot()

# (label, xgas figure, raw figure, how the raw figure maps to the xgas one)
LATENCIES = [
    ("ping-pong, 8 B (half round trip)", ("long_p", "pingpong"),
     ("rma_write", "pingpong"), 1.0),
    ("put + quiet, 8 B", ("long_p", "issue"), ("rma_write_best", "issue"),
     1.0),
    ("get, 8 B", ("long_g", "issue"), ("rma_read", "issue"), 1.0),
    ("fetch-add, 8 B", ("long_atomic_fetch_add", "issue"),
     ("msg", "pingpong"), 2.0),  # a request and its answer: a round trip
    ("putmem + fence + flag ping-pong, 8 B", ("putmem", "pingpong"),
     ("rma_write", "pingpong"), 1.0),
    ("get ping-pong (p, then g), 8 B", ("long_g", "pingpong"),
     ("rma_write", "pingpong"), 1.0),
]


def parse(path):
    """{(op, kind, size): record} of the xgas-bench lines of @path; a
    figure measured in several rounds gets the median of their values."""
    rounds = {}
    if not os.path.exists(path):
        return {}
    for _, rec in read_lines(path, "xgas-bench "):
        if "value" not in rec:
            continue
        key = (rec["op"], rec["kind"], int(rec["size"]))
        rounds.setdefault(key, []).append(
            (float(rec["value"]), float(rec.get("best", rec["value"]))))
    # best: the fastest repetition of any round (for bandwidth the
    # largest), what the pattern costs when nothing else runs
    return {k: {"value": median([r[0] for r in v]), "rounds": len(v),
                "best": (max if k[1] == "bw" else min)(r[1] for r in v)}
            for k, v in rounds.items()}


def parse_fi_pingpong(path):
    """fi_pingpong's 8-byte latency in ns, the median of its lines (its
    usec/xfer counts each direction as a transfer: half a round trip), or
    None."""
    if not os.path.exists(path):
        return None
    found = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            # bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec
            cols = line.split()
            if len(cols) >= 7 and cols[0] == "8" and re.match(r"[\d.]+$",
                                                               cols[6]):
                found.append(float(cols[6]) * 1000.0)
    return median(found) if found else None


def fmt(v, unit="ns"):
    if v is None:
        return "--"
    if unit == "ns":
        return "%.1f us" % (v / 1000.0)
    return "%.3f GB/s" % v


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: internode_report.py RESULTS_DIR PROVIDER MODE")
    res, provider, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    xg = parse(os.path.join(res, "xgas.txt"))
    raw = parse(os.path.join(res, "raw.txt"))
    # a write known to have arrived: the faster of the two raw ways
    ways = [raw[k]["value"] for k in (("rma_write", "issue", 8),
                                      ("rma_write_read", "issue", 8))
            if k in raw]
    if ways:
        raw[("rma_write_best", "issue", 8)] = {
            "value": min(ways),
            "best": min(raw[k]["best"] for k in (("rma_write", "issue", 8),
                                                 ("rma_write_read", "issue",
                                                  8)) if k in raw)}
    osh = parse(os.path.join(res, "oshmem.txt"))
    fipp = parse_fi_pingpong(os.path.join(res, "fi_pingpong.txt"))
    lines = ["# xgas between two nodes", "",
             "Provider `%s`, %s (bench/internode.sh); the programs ran in "
             "turn, and each figure is the median over the rounds of each "
             "run's median.  Latencies in microseconds; `raw` is "
             "xgas-ofi-raw, the same pattern in plain libfabric calls on "
             "the same provider." % (provider, {
                 "loopback": "two virtual nodes of this host over the "
                             "loopback network",
                 "netns": "two network-namespace hosts joined by a bridge"}
                 .get(mode, mode)), ""]

    def val(table, op, kind, size=8, field="value"):
        rec = table.get((op, kind, size))
        return rec[field] if rec else None

    # targets
    lines += ["## Targets", "", "| target | measured | status |",
              "|---|---|---|"]
    x_pp, r_pp = val(xg, "long_p", "pingpong"), val(raw, "rma_write",
                                                     "pingpong")
    if x_pp and r_pp:
        ratio = x_pp / r_pp
        lines.append("| ping-pong within 1.3x raw libfabric | %.2fx (%s vs "
                     "%s) | %s |" % (ratio, fmt(x_pp), fmt(r_pp),
                                     "met" if ratio <= 1.3 else "missed"))
    mib = 1 << 20
    x_bw, r_bw = val(xg, "putmem", "bw", mib), val(raw, "rma_write", "bw",
                                                    mib)
    if x_bw and r_bw:
        ratio = x_bw / r_bw
        lines.append("| 1 MiB put bandwidth >= 80%% of raw | %.0f%% (%s vs "
                     "%s) | %s |" % (100 * ratio, fmt(x_bw, "bw"),
                                     fmt(r_bw, "bw"),
                                     "met" if ratio >= 0.8 else "missed"))
    if osh:
        worst = None
        for label, xfig, _, _ in LATENCIES[:4]:
            xv, ov = val(xg, *xfig), val(osh, *xfig)
            if xv and ov:
                speedup = ov / xv
                worst = speedup if worst is None else min(worst, speedup)
        if worst is not None:
            lines.append("| >= 3x faster than OSHMEM/UCX tcp (latencies) | "
                         "%.1fx at worst | %s |" % (
                             worst, "met" if worst >= 3 else "missed"))
    lines.append("")

    lines += ["## Latency", "",
              "Medians, then the best repetition of any round (what the "
              "pattern costs when the other processes of the machine leave "
              "the cores alone).", "",
              "| operation | xgas | raw libfabric | xgas / raw | OSHMEM "
              "UCX tcp | OSHMEM / xgas | xgas best | raw best | OSHMEM "
              "best |", "|---|---|---|---|---|---|---|---|---|"]
    for label, xfig, rfig, factor in LATENCIES:
        xv = val(xg, *xfig)
        rv = val(raw, *rfig)
        rv = rv * factor if rv is not None else None
        rb = val(raw, *rfig, field="best")
        rb = rb * factor if rb is not None else None
        ov = val(osh, *xfig)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt(xv), fmt(rv),
            "%.2f" % (xv / rv) if xv and rv else "--", fmt(ov),
            "%.1f" % (ov / xv) if xv and ov else "--",
            fmt(val(xg, *xfig, field="best")), fmt(rb),
            fmt(val(osh, *xfig, field="best"))))
    if fipp is not None:
        lines.append("| fi_pingpong send/recv, 8 B (libfabric-bin) | -- | "
                     "%s | -- | -- | -- | -- | -- | -- |" % fmt(fipp))
    lines += ["", "The raw put + quiet is the faster of a write with "
              "delivery completion and an injected write followed by a "
              "read (which completes after the write is visible); xgas "
              "takes the second where the provider orders reads after "
              "writes.", "",
              "The raw fetch-add is a send and its answer (xgas-ofi-raw "
              "msg ping-pong, a whole round trip): with no CPU-coherent "
              "network atomic on this provider, xgas does a fetch-add as a "
              "request to the target's software NIC and its reply.", ""]

    sizes = sorted({k[2] for k in xg if k[1] == "bw"} |
                   {k[2] for k in raw if k[1] == "bw"})
    lines += ["## Bandwidth", "",
              "| bytes | xgas put | raw write | put / raw | xgas get | "
              "raw read | get / raw | OSHMEM put | OSHMEM get |",
              "|---|---|---|---|---|---|---|---|---|"]
    for s in sizes:
        xp, rp = val(xg, "putmem", "bw", s), val(raw, "rma_write", "bw", s)
        xgv, rg = val(xg, "getmem", "bw", s), val(raw, "rma_read", "bw", s)
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s, fmt(xp, "bw"), fmt(rp, "bw"),
            "%.2f" % (xp / rp) if xp and rp else "--", fmt(xgv, "bw"),
            fmt(rg, "bw"), "%.2f" % (xgv / rg) if xgv and rg else "--",
            fmt(val(osh, "putmem", "bw", s), "bw"),
            fmt(val(osh, "getmem", "bw", s), "bw")))
    xp8, rp8 = val(xg, "putmem", "bw", 8), val(raw, "rma_write", "bw", 8)
    if xp8 and rp8:
        lines += ["", "Message rate (8-byte puts in a stream, one quiet): "
                  "xgas %.2f M/s, raw %.2f M/s%s." % (
                      xp8 / 8 * 1e3, rp8 / 8 * 1e3,
                      ", OSHMEM %.2f M/s" % (val(osh, "putmem", "bw", 8) /
                                              8 * 1e3)
                      if val(osh, "putmem", "bw", 8) else "")]
    lines.append("")

    if plt is None:
        lines.append("(No plots: matplotlib is not installed; Debian: "
                     "python3-matplotlib.)")
    else:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for table, op, kind, label, style in [
                (xg, "putmem", "bw", "xgas put", "o-"),
                (raw, "rma_write", "bw", "raw write", "s--"),
                (xg, "getmem", "bw", "xgas get", "o-"),
                (raw, "rma_read", "bw", "raw read", "s--"),
                (osh, "putmem", "bw", "OSHMEM put", "^:"),
                (osh, "getmem", "bw", "OSHMEM get", "^:")]:
            pts = sorted((k[2], r["value"]) for k, r in table.items()
                         if k[0] == op and k[1] == kind)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("bytes per operation")
        ax.set_ylabel("GB/s")
        ax.set_title("Bandwidth between two nodes (%s, %s)" % (provider,
                                                               mode))
        ax.legend()
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(res, "internode_bw.png"), dpi=100)
        plt.close(fig)
        fig, ax = plt.subplots(figsize=(8, 4.5))
        labels = [l[0].split(",")[0] for l in LATENCIES[:4]]
        width = 0.27
        for i, (table, name, use_raw) in enumerate(
                [(xg, "xgas", False), (raw, "raw libfabric", True),
                 (osh, "OSHMEM UCX tcp", False)]):
            ys = []
            for _, xfig, rfig, factor in LATENCIES[:4]:
                v = val(table, *(rfig if use_raw else xfig))
                ys.append((v * (factor if use_raw else 1.0) / 1000.0)
                          if v else 0)
            ax.bar([j + (i - 1) * width for j in range(len(labels))], ys,
                   width, label=name)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels)
        ax.set_ylabel("microseconds")
        ax.set_title("8-byte latency between two nodes (%s, %s)" % (
            provider, mode))
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(res, "internode_lat.png"), dpi=100)
        plt.close(fig)
        lines += ["![bandwidth](internode_bw.png)", "",
                  "![latency](internode_lat.png)"]
    with open(os.path.join(res, "internode_report.md"), "w",
              encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("internode_report.py: wrote %s" % os.path.join(
        res, "internode_report.md"))


if __name__ == "__main__":
    main()
