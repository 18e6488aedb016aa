#!/usr/bin/env python3
"""Checks a report of `xgas-bench reproduce` (the smoke test's judge):
a summary row per figure, and in every figure's table a measured number
in the 'ours' column; every plot the report links to exists.  Prints
'reproduce report ok: N figures, M rows' or the first fault and exits 1.

    check_reproduce.py DIR/SEED
"""

import os
import re
import sys


def tables(text):
    """Yields (heading, rows) for every markdown table under a '## '
    heading; rows are lists of cells, header row first."""
    heading, rows = None, []
    for line in text.splitlines() + [""]:
        if line.startswith("## "):
            heading = line[3:]
        if line.startswith("|"):
            if not line.startswith("|---"):
                rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            yield heading, rows
            rows = []


def check(directory):
    path = os.path.join(directory, "report.md")
    if not os.path.exists(path):
        return "no report at %s" % path
    with open(path, encoding="utf-8") as f:
        text = f.read()
    figures = rows = 0
    summary = None
    for heading, table in tables(text):
        header, body = table[0], table[1:]
        if not body:
            return "%s: empty table" % heading
        if heading == "Summary":
            summary = len(body)
            continue
        if "ours" not in header:
            continue
        ours = header.index("ours")
        for row in body:
            try:
                float(row[ours])
            except ValueError:
                return "%s, row %r: 'ours' is %r, not a number" % (
                    heading, row[0], row[ours])
        figures += 1
        rows += len(body)
    if summary is None:
        return "no summary table"
    if figures == 0 or summary != figures:
        return "%d summary rows for %d figure tables" % (summary, figures)
    for png in re.findall(r"!\[[^]]*\]\(([^)]+)\)", text):
        if not os.path.exists(os.path.join(directory, png)):
            return "the plot %s is linked but missing" % png
    print("reproduce report ok: %d figures, %d rows" % (figures, rows))
    return None


if __name__ == "__main__":
    fault = check(sys.argv[1])
    if fault:
        print("reproduce report %s: %s" % (sys.argv[1], fault))
        sys.exit(1)
