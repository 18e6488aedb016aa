#!/usr/bin/env python3
"""xgas-bench reproduce: each seed paper's headline figures on this
machine, next to the paper's numbers.

    xgas-bench reproduce --list
    xgas-bench reproduce [SEED|all] [--quick] [--out DIR]   (default: all)

(`xgas-bench reproduce` runs this script with --build and --source set
to its own build and source trees.)  Writes DIR/<seed>/report.md with a
table and a plot per figure; DIR defaults to ./reproduce.  See
bench/reproduce/README.md and docs/reproduce.md.
"""

import argparse
import importlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def plotting_python():
    """Re-executes under the system's python3 when this interpreter lacks
    matplotlib and that one has it (a pyenv python3 first on PATH)."""
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    system = "/usr/bin/python3"
    if os.path.realpath(sys.executable) == os.path.realpath(system) or \
            os.environ.get("XGAS_REPRODUCE_REEXEC"):
        return
    if os.access(system, os.X_OK) and os.spawnv(
            os.P_WAIT, system, [system, "-c", "import matplotlib"]) == 0:
        os.environ["XGAS_REPRODUCE_REEXEC"] = "1"
        os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])


plotting_python()
sys.path.insert(0, HERE)
import repro  # noqa: E402

# the order of `reproduce all` and of --list
SEEDS = ["pspin", "portals", "armci", "pvas", "xbgas"]


def load(name):
    return importlib.import_module("seed_%s" % name)


def main():
    parser = argparse.ArgumentParser(
        prog="xgas-bench reproduce",
        description="Reproduce the seed papers' headline figures here, "
                    "next to the papers' numbers.")
    parser.add_argument("seed", nargs="?", default="all",
                        help="one of %s, or all (the default)" %
                             ", ".join(SEEDS))
    parser.add_argument("--list", action="store_true",
                        help="the seeds and their figures, without running")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few repetitions (a smoke "
                             "run, under two minutes for all seeds)")
    parser.add_argument("--out", default="reproduce",
                        help="report directory (default ./reproduce)")
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..",
                                                        "build"),
                        help="the xgas build tree (set by xgas-bench)")
    parser.add_argument("--source", default=os.path.join(HERE, "..", ".."),
                        help="the xgas source tree (set by xgas-bench)")
    args = parser.parse_args()

    if args.list:
        for name in SEEDS:
            seed = load(name)
            print("%-8s %s" % (name, seed.TITLE))
            for ident, what in seed.FIGURES:
                print("         %-12s %s" % (ident, what))
        return 0
    if args.seed != "all" and args.seed not in SEEDS:
        parser.error("unknown seed %r: choose one of %s, or all" %
                     (args.seed, ", ".join(SEEDS)))
    names = SEEDS if args.seed == "all" else [args.seed]
    ctx = repro.Context(args.source, args.build, args.out, args.quick)
    failed = []
    for name in names:
        ctx.seed = name
        seed = load(name)
        start = time.monotonic()
        ctx.progress("start: %s" % seed.TITLE)
        try:
            figures = seed.experiments(ctx)
            path = repro.write_report(ctx, seed, figures, ctx.raw_text)
        except repro.ReproduceError as err:
            print("xgas-bench reproduce %s: %s" % (name, err),
                  file=sys.stderr)
            failed.append(name)
            continue
        finally:
            ctx.raw_text = ""
        print("report: %s figures=%d seconds=%.1f" %
              (path, len(figures), time.monotonic() - start), flush=True)
    if failed:
        print("xgas-bench reproduce: no report for %s (see above)" %
              ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
