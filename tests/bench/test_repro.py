#!/usr/bin/env python3
"""Unit test of bench/reproduce/repro.py: the ratio and verdict of a row
in both directions, the level band, rows without a paper number, the
figure's summary, and a report written and judged by check_reproduce.py
(no benchmark is run)."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "reproduce"))
sys.path.insert(0, HERE)
import check_reproduce  # noqa: E402
import repro  # noqa: E402


class Verdicts(unittest.TestCase):
    def test_time_lower_is_better(self):
        self.assertEqual(repro.Row("t", 100.0, 50.0, "ns").verdict(),
                         "ahead 2.00x")
        self.assertEqual(repro.Row("t", 100.0, 400.0, "ns").verdict(),
                         "behind 4.00x")

    def test_rate_higher_is_better(self):
        row = repro.Row("r", 10.0, 30.0, "Gbit/s", better="higher")
        self.assertEqual(row.verdict(), "ahead 3.00x")
        self.assertAlmostEqual(row.ratio(), 3.0)
        row = repro.Row("r", 10.0, 2.0, "Gbit/s", better="higher")
        self.assertEqual(row.verdict(), "behind 5.00x")

    def test_level_band(self):
        self.assertEqual(repro.Row("t", 100.0, 105.0, "ns").verdict(), "level")
        self.assertEqual(repro.Row("t", 100.0, 95.0, "ns").verdict(), "level")
        self.assertTrue(
            repro.Row("t", 100.0, 115.0, "ns").verdict().startswith("behind"))

    def test_no_paper_number(self):
        row = repro.Row("t", None, 5.0, "ns")
        self.assertIsNone(row.ratio())
        self.assertEqual(row.verdict(), "")
        self.assertEqual(repro.Row("n", 4, 8, "HPUs", better=None).verdict(),
                         "")

    def test_unmeasured_row_is_refused(self):
        with self.assertRaises(repro.ReproduceError):
            repro.Row("t", 1.0, None, "ns")

    def test_summary(self):
        fig = repro.Figure("Fig. 1", "x", "p", "h", "d", [
            repro.Row("a", 10.0, 5.0, "ns"), repro.Row("b", 10.0, 10.2, "ns"),
            repro.Row("c", 10.0, 40.0, "ns"), repro.Row("d", None, 1.0, "ns")])
        self.assertEqual(fig.summary(),
                         "1 ahead, 1 level, 1 behind (ours/paper 0.5-4)")


class Report(unittest.TestCase):
    def test_written_report_passes_the_check(self):
        class Seed:
            NAME, TITLE, PAPER = "demo", "Demo", "A. Author, 2020"

        with tempfile.TemporaryDirectory() as out:
            ctx = repro.Context(HERE, HERE, out, quick=True)
            ctx.seed = "demo"
            figs = [repro.Figure("Fig. 3", "latency", "p", "h", "d",
                                 [repro.Row("8 B", 2.0, 3.0, "us")],
                                 plot=lambda ax: ax.plot([1, 2], [3, 4]))]
            path = repro.write_report(ctx, Seed, figs, "raw line\n")
            self.assertTrue(os.path.exists(path))
            self.assertIsNone(check_reproduce.check(os.path.dirname(path)))
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("| 8 B | us | 2 | 3 | 1.5 | behind 1.50x |", text)
            # an empty 'ours' cell is what the check must catch
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace("| 2 | 3 | 1.5 |", "| 2 |  | 1.5 |"))
            self.assertIn("not a number",
                          check_reproduce.check(os.path.dirname(path)))


if __name__ == "__main__":
    unittest.main()
