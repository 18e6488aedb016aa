"""What the benchmark reports share: reading result lines, numbers,
medians, sizes, markdown tables and matplotlib.

Every benchmark prints one line per figure of space-separated key=value
pairs, after a first word naming the program (``xgas-bench``,
``xgas-coll-bench``, ``armci-bench``) or starting with the first pair
(``bench=nic_match``, ``bench=spin``); see bench/README.md.  The report
scripts (bench/report.py, bw_report.py, coll_report.py,
internode_report.py, bench/nic/report.py, bench/spin/report.py,
bench/armci/report.py) import this module by path and keep their own
command lines, tables and files.  Python 3 standard library; matplotlib
only where a report draws plots and it is installed.
"""

import statistics


def pairs(line, first_word=True):
    """The key=value pairs of one result line as a dict of strings;
    @first_word: the line starts with the program's name, not a pair.
    Words without '=' are left out."""
    words = line.split()
    if first_word:
        words = words[1:]
    return dict(w.split("=", 1) for w in words if "=" in w)


def read_lines(paths, prefix, first_word=True, strip=False):
    """Yields (path, dict of pairs) for every line of the files @paths
    that starts with @prefix (after stripping white space if @strip)."""
    if isinstance(paths, str):
        paths = [paths]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if strip:
                    line = line.strip()
                if line.startswith(prefix):
                    yield path, pairs(line, first_word)


def number(value):
    """@value as a float if it is one, otherwise unchanged."""
    try:
        return float(value)
    except ValueError:
        return value


def numbers(rec, keys=None):
    """@rec with the values of @keys (all keys if None) made floats where
    they parse; returns @rec."""
    for key in list(rec) if keys is None else keys:
        if key in rec:
            rec[key] = number(rec[key])
    return rec


def median(values):
    """The median of @values (the mean of the middle two for an even
    count)."""
    return statistics.median(values)


def size_str(n, exact=True):
    """Bytes as "1 MiB", "4 KiB", "8 B".  @exact: a unit only where it
    divides @n; otherwise the largest unit not above @n, rounded down."""
    n = int(n)
    for shift, suffix in ((20, " MiB"), (10, " KiB")):
        if n >= (1 << shift) and (not exact or n % (1 << shift) == 0):
            return "%d%s" % (n >> shift, suffix)
    return "%d B" % n


def table_lines(header, rows):
    """A markdown table as a list of lines (no trailing newline)."""
    out = ["| " + " | ".join(str(c) for c in header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def table(header, rows):
    """A markdown table as one string ending with a newline."""
    return "\n".join(table_lines(header, rows)) + "\n"


def pyplot():
    """matplotlib.pyplot with the file-only Agg back end, or None when
    matplotlib is not installed (the reports then have tables only)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt
