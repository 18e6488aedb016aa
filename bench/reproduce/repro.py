"""What every seed's reproduction shares: running the benchmark programs
of a build, the figure records (the paper's number next to ours), the
verdict per row and the report with its plots.

A seed module (seed_<name>.py) defines NAME, TITLE, PAPER (the citation),
FIGURES (a list of (ident, what) for --list) and experiments(ctx), which
measures and returns a list of Figure.  The
numbers of the paper live in the module as data, each with the figure or
table it was read from.  See bench/reproduce/README.md.
"""

import datetime
import os
import platform
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import report_lib  # noqa: E402  (bench/lib, by path)

# a row is "level" when ours is within this factor of the paper's number
LEVEL_BAND = 1.10


class ReproduceError(Exception):
    """A measurement that could not be made: the message names the command
    and what to do."""


class Context:
    """One run of `reproduce`: where the programs are, where the report
    goes, quick or full, and the progress lines."""

    def __init__(self, source, build, out, quick):
        self.source = os.path.abspath(source)
        self.build = os.path.abspath(build)
        self.out = os.path.abspath(out)
        self.quick = quick
        self.seed = None
        self.started = time.monotonic()
        # every command's output for the seed under way (its raw.txt)
        self.raw_text = ""

    def seed_dir(self):
        path = os.path.join(self.out, self.seed)
        os.makedirs(path, exist_ok=True)
        return path

    def progress(self, what):
        """One line per experiment on stderr, with the time since start."""
        print("[reproduce %s %6.1fs] %s" %
              (self.seed, time.monotonic() - self.started, what),
              file=sys.stderr, flush=True)

    def program(self, relpath):
        """The absolute path of a program of the build (relative to it),
        or ReproduceError naming the target to build."""
        path = os.path.join(self.build, relpath)
        if not os.access(path, os.X_OK):
            raise ReproduceError(
                "%s is not built; run `cmake --build %s` (or configure "
                "with the option that enables it)" % (path, self.build))
        return path

    def script(self, relpath):
        """The absolute path of a file of the source tree."""
        return os.path.join(self.source, relpath)

    def run(self, argv, env=None, timeout=900, cwd=None):
        """Runs @argv (strings) with @env added to the environment and
        returns its standard output; a failure or a time-out raises
        ReproduceError with the command and the end of its stderr."""
        full_env = dict(os.environ)
        full_env.update(env or {})
        argv = [str(a) for a in argv]
        shown = " ".join(("%s=%s " % kv for kv in (env or {}).items())) + \
            " ".join(argv)
        try:
            proc = subprocess.run(argv, env=full_env, cwd=cwd, timeout=timeout,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        except subprocess.TimeoutExpired:
            raise ReproduceError("timed out after %d s: %s" % (timeout, shown))
        except OSError as err:
            raise ReproduceError("cannot run %s: %s" % (shown, err))
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise ReproduceError("exit status %d: %s\n%s" %
                                 (proc.returncode, shown, tail))
        self.raw_text += "$ %s\n%s" % (shown, proc.stdout)
        return proc.stdout

    def xgasrun(self, npes, relprog, args=(), env=None, timeout=900,
                launcher_args=()):
        """Runs a program of the build on @npes PEs with the build's
        xgasrun; returns its standard output."""
        return self.run([self.program("xgasrun"), *launcher_args,
                         "-n", npes, self.program(relprog), *args],
                        env=env, timeout=timeout)


def records(text, prefix, first_word=True):
    """The key=value lines of @text that start with @prefix, as dicts
    whose values are floats where they parse."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(prefix):
            out.append(report_lib.numbers(report_lib.pairs(line, first_word)))
    return out


def median(values):
    return report_lib.median(list(values))


class Row:
    """One quantity of a figure: the paper's value (None where the paper
    gives none for it), ours, the unit and which direction is better
    ('lower' for times, 'higher' for rates; None when the row is a
    setting rather than a result, e.g. HPUs needed)."""

    def __init__(self, label, paper, ours, unit, better="lower", note=""):
        if ours is None:
            raise ReproduceError("row %r has no measured value" % label)
        self.label = label
        self.paper = paper
        self.ours = ours
        self.unit = unit
        self.better = better
        self.note = note

    def ratio(self):
        """ours / paper, or None without a paper number."""
        if self.paper in (None, 0):
            return None
        return self.ours / self.paper

    def verdict(self):
        """'ahead', 'level' or 'behind' with the factor, as words."""
        ratio = self.ratio()
        if ratio is None or self.better is None:
            return ""
        if self.better == "lower":
            ratio = 1.0 / ratio if ratio else float("inf")
        if ratio >= LEVEL_BAND:
            return "ahead %.2fx" % ratio
        if ratio >= 1.0 / LEVEL_BAND:
            return "level"
        return "behind %.2fx" % (1.0 / ratio if ratio else float("inf"))


class Figure:
    """One of the paper's figures (or tables) and our reproduction.

    @ident: "Fig. 8", "Table 2"; @title: what it shows; @paper_setup: the
    paper's machine or simulator; @our_setup: what ran here; @differs:
    one line on what differs; @rows: list of Row; @plot: None or a
    function(ax) drawing ours and the paper's on one matplotlib Axes in
    the paper's axes; @reason: why the figure itself cannot be reproduced
    in software, when the rows are the nearest meaningful experiment."""

    def __init__(self, ident, title, paper_setup, our_setup, differs, rows,
                 plot=None, reason="", extra=""):
        if not rows:
            raise ReproduceError("%s has no rows" % ident)
        self.ident = ident
        self.title = title
        self.paper_setup = paper_setup
        self.our_setup = our_setup
        self.differs = differs
        self.rows = rows
        self.plot = plot
        self.reason = reason
        self.extra = extra

    def slug(self):
        return re.sub(r"[^a-z0-9]+", "_", self.ident.lower()).strip("_")

    def summary(self):
        """How the figure's rows compare, in a few words."""
        words = [r.verdict() for r in self.rows if r.verdict()]
        if not words:
            return "no paper number to compare"
        ahead = sum(w.startswith("ahead") for w in words)
        level = sum(w == "level" for w in words)
        behind = sum(w.startswith("behind") for w in words)
        factors = [r.ratio() for r in self.rows if r.verdict()]
        return "%d ahead, %d level, %d behind (ours/paper %s-%s)" % (
            ahead, level, behind, num(min(factors)), num(max(factors)))


def num(value):
    """A number with three significant digits, or '—'."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return "%.0f" % value
    return "%.3g" % value


def machine_line():
    """The machine in one line: CPU model, cores, kernel, date."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores, Linux %s, %s" % (
        model, os.cpu_count() or 0, platform.release(),
        datetime.date.today().isoformat())


def git_commit(source):
    try:
        return subprocess.run(["git", "-C", source, "rev-parse", "--short",
                               "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def draw(ctx, figure, directory):
    """The figure's PNG in @directory; its file name or None."""
    plt = report_lib.pyplot()
    if plt is None or figure.plot is None:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    figure.plot(ax)
    ax.set_title("%s: %s" % (figure.ident, figure.title), fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    name = "%s.png" % figure.slug()
    fig.savefig(os.path.join(directory, name), dpi=110)
    plt.close(fig)
    return name


def write_report(ctx, seed, figures, raw_text=""):
    """DIR/<seed>/report.md (and the PNGs, and raw.txt with the
    benchmark lines behind it); returns the report's path."""
    directory = ctx.seed_dir()
    lines = ["# Reproducing %s" % seed.TITLE, "",
             "Paper: %s" % seed.PAPER, "",
             "Run: `xgas-bench reproduce %s%s` on %s, xgas %s." %
             (seed.NAME, " --quick" if ctx.quick else "", machine_line(),
              git_commit(ctx.source)),
             "%s" % ("Quick mode: fewer sizes and repetitions; the numbers "
                     "are a smoke test, not the figures." if ctx.quick else
                     "Each figure is the median of repeated runs; see "
                     "bench/reproduce/README.md."), "",
             "## Summary", "",
             "Per figure: how many rows are ahead of, level with (within "
             "%d %%) or behind the paper's number." %
             round((LEVEL_BAND - 1) * 100), ""]
    lines += report_lib.table_lines(
        ["figure", "what", "verdict"],
        [[f.ident, f.title, f.summary()] for f in figures])
    for f in figures:
        lines += ["", "## %s: %s" % (f.ident, f.title), "",
                  "- paper: %s" % f.paper_setup,
                  "- here: %s" % f.our_setup,
                  "- differs: %s" % f.differs]
        if f.reason:
            lines.append("- not reproducible as such: %s" % f.reason)
        lines.append("")
        lines += report_lib.table_lines(
            ["quantity", "unit", "paper", "ours", "ours/paper", "verdict",
             "note"],
            [[r.label, r.unit, num(r.paper), num(r.ours), num(r.ratio()),
              r.verdict(), r.note] for r in f.rows])
        if f.extra:
            lines += ["", f.extra]
        png = draw(ctx, f, directory)
        if png:
            lines += ["", "![%s](%s)" % (f.ident, png)]
    path = os.path.join(directory, "report.md")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    if raw_text:
        with open(os.path.join(directory, "raw.txt"), "w",
                  encoding="utf-8") as out:
            out.write(raw_text)
    return path
