"""How fast turn files are read: the cost over a bare Lark parse of the same lines, and lines per second.

Builds turn files of 10, 1,000 and 20,000 lines from the lines of ``samples/turnfiles`` (every kind
of decision, with comments and blank lines as players write them), then times, in turn,

* ``parse_turn_file``: cleaning, the grammar, name resolution, typed commands, diagnostics;
* a bare Lark parse of the same logical lines with the same grammar (a parse tree, no line builder,
  no names), the parser loaded the same way (its tables from the cache).

Both sides run under the same garbage-collector setting, collected before each timed block, in
alternating samples whose order flips each time, timed in CPU seconds of this process; the ratio
printed is the median of the samples' ratios. Two settings: the collector off (the work itself), and on as in use (the bare parse then
also pays for the collector walking its growing tree; an earlier version of this benchmark ran
only that way and reported 0.80x for 20,000 lines). Then the one-line-at-a-time path of a file with
a bad line.

Goal (issue 17): at most 1.5x bare Lark on 10-line and 1,000-line files, the collector the same on
both sides; at least 20,000 lines per second on one core.
Run: ``python benchmarks/bench_parse.py [--samples N]``. Tests never time anything.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.turnfile.diagnostics import read_source
from adjudicator.turnfile.grammar import bare_parser
from adjudicator.turnfile.parser import parse_turn_file

HEADER = "game bench · house stark · round 1 · planning · seq 1"
SIZES = {10: 400, 1_000: 4, 20_000: 1}  # lines -> parses per timed block (a block lasts tens of ms)


def sample_lines() -> list[str]:
    """Every line of the sample turn files that holds a command, a comment or nothing."""
    out: list[str] = []
    for path in sorted((ROOT / "samples" / "turnfiles").glob("*.txt")):
        if path.name.startswith("broken"):
            continue
        out += [ln for ln in path.read_text("utf-8").splitlines() if not ln.startswith("game ")]
    return out


def build(n: int, seed: int = 1) -> str:
    """A turn file of ``n`` lines after the header, drawn at random from the samples."""
    pool = sample_lines()
    rng = random.Random(seed)
    return HEADER + "\n" + "\n".join(rng.choice(pool) for _ in range(n)) + "\n"


def block(fn: Callable[[], object], reps: int, collector: bool) -> float:
    """CPU seconds of this process for ``reps`` calls, the collector as asked, collected first.

    CPU time, not the clock: on a shared machine the wait for a core is not the parser's.
    """
    gc.collect()
    if not collector:
        gc.disable()
    try:
        start = time.process_time()
        for _ in range(reps):
            fn()
        return time.process_time() - start
    finally:
        gc.enable()


def compare(text: str, reps: int, samples: int, collector: bool) -> tuple[float, float, float]:
    """(median ratio ours / bare, median seconds of ours per parse, of bare per parse)."""
    bare = bare_parser()
    logical = "\n".join(line.text for line in read_source(text).lines)
    ours_t, bare_t, ratios = [], [], []
    for i in range(samples):
        sides = [lambda: block(lambda: parse_turn_file(text), reps, collector),
                 lambda: block(lambda: bare.parse(logical, start="file"), reps, collector)]  # fmt: skip
        if i % 2:
            b, o = sides[1](), sides[0]()
        else:
            o, b = sides[0](), sides[1]()
        ours_t.append(o / reps)
        bare_t.append(b / reps)
        ratios.append(o / b)
    return statistics.median(ratios), statistics.median(ours_t), statistics.median(bare_t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=21, help="alternating samples per size and setting (default 15)")
    args = ap.parse_args(argv)

    parse_turn_file(HEADER + "\nplay eddard stark\n")  # load the parser once, outside the timing
    bare_parser()
    verdicts = []
    print(f"{'file':>13} {'collector':>9}  {'ours / bare':>11}  {'parse_turn_file':>15}  {'bare Lark':>10}  {'lines/s':>8}")
    for lines, reps in SIZES.items():
        text = build(lines)
        tf = parse_turn_file(text)
        assert not tf.problems, tf.problems[:3]
        for collector in (False, True):
            samples = args.samples if lines < 20_000 else max(3, args.samples // 3)
            ratio, ours, bare = compare(text, reps, samples, collector)
            per = f"{ours * 1e3:.3f} ms" if ours < 0.1 else f"{ours:.2f} s"
            per_bare = f"{bare * 1e3:.3f} ms" if bare < 0.1 else f"{bare:.2f} s"
            print(f"{lines:>7,} lines {'on' if collector else 'off':>9}  {ratio:>10.2f}x  {per:>15}  {per_bare:>10}  "
                  f"{lines / ours:>8,.0f}")  # fmt: skip
            if lines <= 1_000:
                verdicts.append(ratio <= 1.5)
            if lines == 20_000 and not collector:
                throughput = lines / ours
    broken = build(20_000) + "this line is not understood\n"
    start = time.process_time()
    parse_turn_file(broken)
    one_at_a_time = 20_000 / (time.process_time() - start)
    print(f"one line at a time (a 20,000-line file with a bad line): {one_at_a_time:,.0f} lines/s")
    print(f"goal <= 1.5x bare Lark on 10 and 1,000 lines, both collector settings: {'met' if all(verdicts) else 'NOT met'}")
    print(f"goal >= 20,000 lines/s (20,000 lines, collector off): {throughput:,.0f}, "
          f"{'met' if throughput >= 20_000 else 'not met on this machine now'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
