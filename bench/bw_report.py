#!/usr/bin/env python3
"""Medians of repeated bandwidth runs of several libraries.

    bw_report.py [-o OUTDIR] RESULT_FILE...

Reads xgas-bench result lines (bench/README.md) of kind=bw from every file,
keeping every repetition (bench/bw_oshmem.sh appends one run per round),
and writes OUTDIR/bw_report.md (or stdout without -o): per operation and
size, the median over the runs of each library's GB/s and the ratio of
the medians of xgas and each other library; the raw memcpy baseline of
all runs (median and range: how much the machine drifted); the median of
each library's ratio to the baseline measured next to it in its own run;
and the median over rounds of xgas's ratio divided by the other library's
(run k of each: bench/bw_oshmem.sh alternates them), which compares the
libraries at the same state of the machine.  Standard library only.
"""

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
# bench/lib, found through the path above
from report_lib import median as median_of, read_lines, table_lines  # noqa

REF = "xgas"


def parse(paths):
    """{(op, size): {lib: [record, ...]}} of the bw lines."""
    runs = collections.defaultdict(lambda: collections.defaultdict(list))
    for _, rec in read_lines(paths, "xgas-bench "):
        if rec.get("kind") != "bw" or "value" not in rec:
            continue
        runs[(rec["op"], int(rec["size"]))][rec["lib"]].append(rec)
    return runs


def median(recs, key):
    return median_of([float(r[key]) for r in recs])


def size_str(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def report(runs):
    libs = sorted({lib for per in runs.values() for lib in per},
                  key=lambda lib: (lib != REF, lib))
    others = [lib for lib in libs if lib != REF]
    head = ["op", "size"] + [f"{lib} GB/s" for lib in libs]
    head += [f"{REF}/{lib}" for lib in others]
    head += ["raw GB/s (min-max)"] + [f"{lib}/raw" for lib in libs]
    head += [f"({REF}/raw)/({lib}/raw)" for lib in others] + ["runs"]
    rows = []
    for (op, size) in sorted(runs):
        per = runs[(op, size)]
        row = [op, size_str(size)]
        row += [f"{median(per[lib], 'value'):.1f}" if per.get(lib) else "-"
                for lib in libs]
        for lib in others:
            row.append(f"{median(per[REF], 'value') / median(per[lib], 'value'):.3f}"
                       if per.get(REF) and per.get(lib) else "-")
        raw = [float(r["baseline_value"]) for lib in libs
               for r in per.get(lib, [])]
        row.append(f"{median_of(raw):.1f} ({min(raw):.1f}-{max(raw):.1f})")
        row += [f"{median(per[lib], 'ratio'):.3f}" if per.get(lib) else "-"
                for lib in libs]
        # run k of one library against run k of the other: the runs
        # alternate, so these pairs saw the same state of the machine
        for lib in others:
            pairs = [float(a["ratio"]) / float(b["ratio"])
                     for a, b in zip(per.get(REF, []), per.get(lib, []))]
            row.append(f"{median_of(pairs):.3f}" if pairs else "-")
        row.append("/".join(str(len(per.get(lib, []))) for lib in libs))
        rows.append(row)
    return "\n".join(table_lines(head, rows)) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--outdir")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    runs = parse(args.files)
    if not runs:
        sys.exit("bw_report.py: no bw result lines in " + " ".join(args.files))
    text = ("Medians over the runs; raw = memcpy between a private buffer "
            "and a shared memfd mapping in the same process.\n\n" +
            report(runs))
    if args.outdir:
        with open(os.path.join(args.outdir, "bw_report.md"), "w",
                  encoding="utf-8") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
