#!/usr/bin/env python3
"""Report of xgas-coll-bench results: markdown tables.

    coll_report.py [-o OUTDIR] RESULT_FILE...

Reads the lines starting with "xgas-coll-bench " (key=value pairs, see
bench/README.md) of every file given -- any libraries (lib=xgas,
lib=oshmem), APIs (api=team, api=aset) and PE counts -- and writes
OUTDIR/coll_report.md: the barrier target of issue 3 (shmem_barrier_all at
8 PEs faster than OSHMEM's), then one table per PE count with each figure's
latency per library/API, its raw baseline from the same run and the ratio,
and xgas's advantage over OSHMEM at the same hardware state (OSHMEM's ratio
to its own baseline divided by xgas's, as bench/report.py does), and a
table of the small broadcast/reduction against the PE count.  Python 3
standard library only.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
# bench/lib, found through the path above
from report_lib import read_lines, size_str, table_lines  # noqa: E402


def parse(paths):
    """Records keyed by (lib, api, npes, op, size); later lines win."""
    recs = {}
    for _, rec in read_lines(paths, "xgas-coll-bench "):
        for key in ("value", "best", "baseline_value", "ratio"):
            rec[key] = float(rec[key])
        rec["npes"] = int(rec["npes"])
        rec["size"] = int(rec["size"])
        recs[(rec["lib"], rec["api"], rec["npes"], rec["op"],
              rec["size"])] = rec
    return recs


def us(v):
    return "%.2f" % (v / 1000.0)


def columns(recs):
    """(lib, api) pairs present, xgas first."""
    cols = sorted({(r["lib"], r["api"]) for r in recs.values()},
                  key=lambda c: (c[0] != "xgas", c[0], c[1] != "team"))
    return cols


def figures(recs, npes):
    order = ["barrier_all", "sync_all", "team_sync", "broadcast", "reduce",
             "collect", "fcollect", "alltoall"]
    figs = {(r["op"], r["size"]) for r in recs.values() if r["npes"] == npes}
    return sorted(figs, key=lambda f: (order.index(f[0])
                                       if f[0] in order else 99, f[1]))


def advantage(xg, osh):
    """OSHMEM's ratio over xgas's: > 1 means xgas adds less."""
    if xg is None or osh is None or xg["ratio"] <= 0:
        return ""
    return "%.2fx" % (osh["ratio"] / xg["ratio"])


def write(recs, outdir):
    cols = columns(recs)
    md = ["# xgas-coll-bench report\n",
          "Latencies in microseconds per call, to completion on every PE "
          "(see bench/README.md); each figure's raw baseline comes from "
          "the same run, the ratio is figure / baseline.  *advantage*: "
          "OSHMEM's ratio divided by xgas's (same API: the active-set "
          "forms), i.e. how much less xgas adds to what the hardware must "
          "do, independent of the machine state when each ran.\n"]

    md.append("## Target\n")
    xg = recs.get(("xgas", "team", 8, "barrier_all", 0))
    osh = recs.get(("oshmem", "aset", 8, "barrier_all", 0))
    if xg and osh:
        ok = xg["value"] < osh["value"]
        md.append("| target | xgas | OSHMEM | status |\n|---|---|---|---|\n"
                  "| shmem_barrier_all at 8 PEs faster than OSHMEM | "
                  "%s us (baseline %s, ratio %.2f) | %s us (baseline %s, "
                  "ratio %.2f) | %s |\n" % (
                      us(xg["value"]), us(xg["baseline_value"]), xg["ratio"],
                      us(osh["value"]), us(osh["baseline_value"]),
                      osh["ratio"], "met" if ok else "NOT met"))
    else:
        md.append("barrier_all at 8 PEs: need both xgas (api=team) and "
                  "OSHMEM results.\n")

    for npes in sorted({r["npes"] for r in recs.values()}):
        md.append("\n## %d PEs\n" % npes)
        head = ["op", "size"]
        for lib, api in cols:
            head += ["%s %s" % (lib, api), "ratio"]
        head += ["baseline", "advantage (aset)"]
        rows = []
        for op, size in figures(recs, npes):
            row = [op, size_str(size) if size else "-"]
            base = None
            for lib, api in cols:
                r = recs.get((lib, api, npes, op, size))
                row += [us(r["value"]) if r else "",
                        "%.2f" % r["ratio"] if r else ""]
                if r and base is None:
                    base = r
            row.append("%s (%s)" % (us(base["baseline_value"]),
                                    base["baseline"]) if base else "")
            row.append(advantage(recs.get(("xgas", "aset", npes, op, size)),
                                 recs.get(("oshmem", "aset", npes, op,
                                           size))))
            rows.append(row)
        md += table_lines(head, rows)

    md.append("\n## Small broadcast and reduction against the PE count\n")
    rows = []
    for npes in sorted({r["npes"] for r in recs.values()}):
        cells = [npes]
        for op, size in (("broadcast", 8), ("reduce", 8),
                         ("barrier_all", 0)):
            r = recs.get(("xgas", "team", npes, op, size))
            cells.append(us(r["value"]) if r else "")
        rows.append(cells)
    md += table_lines(["PEs", "broadcast 8 B", "reduce 8 B", "barrier_all"],
                      rows)

    path = os.path.join(outdir, "coll_report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("files", nargs="+", help="xgas-coll-bench result files")
    args = ap.parse_args()
    recs = parse(args.files)
    if not recs:
        sys.exit("coll_report.py: no xgas-coll-bench lines in %s"
                 % " ".join(args.files))
    print(write(recs, args.outdir))


if __name__ == "__main__":
    main()
