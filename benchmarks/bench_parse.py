"""How fast turn files are read: lines per second, and the cost over a bare Lark parse.

Builds a large turn file from the lines of ``samples/turnfiles`` (every kind of decision, with
comments and blank lines as players write them), then times

* ``parse_turn_file`` on it: cleaning, the grammar, name resolution, typed commands, diagnostics;
* a bare Lark parse of the same lines with the same grammar (no line builder, no names);
* the one-line-at-a-time path that a file with a bad line takes.

Goal: at least 20,000 lines per second on one core, at most 1.5 times the bare Lark parse.
Run: ``python benchmarks/bench_parse.py [--lines N] [--repeat R]``. Tests never time anything.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.turnfile.diagnostics import read_source
from adjudicator.turnfile.parser import bare_parser, parse_turn_file

HEADER = "game bench · house stark · round 1 · planning · seq 1"


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


def best_of(repeat: int, fn) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=20_000, help="lines in the generated file (default 20,000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts (default 3)")
    args = ap.parse_args(argv)

    text = build(args.lines)
    lines = text.count("\n")
    parse_turn_file(HEADER + "\nplay eddard stark\n")  # build the parser once, outside the timing
    bare = bare_parser()
    logical = "\n".join(line.text for line in read_source(text).lines)
    tf = parse_turn_file(text)
    assert not tf.problems, tf.problems[:3]

    full = best_of(args.repeat, lambda: parse_turn_file(text))
    lark_only = best_of(args.repeat, lambda: bare.parse(logical, start="file"))
    broken = text + "this line is not understood\n"
    per_line = best_of(1, lambda: parse_turn_file(broken))

    print(f"file: {lines:,} lines, {len(text.encode()):,} bytes, {len(tf.commands):,} commands")
    print(f"parse_turn_file      {lines / full:>10,.0f} lines/s  ({full * 1e6 / lines:.1f} µs/line)")
    print(f"bare Lark parse      {lines / lark_only:>10,.0f} lines/s  ({lark_only * 1e6 / lines:.1f} µs/line)")
    print(f"ratio to bare Lark   {full / lark_only:>10.2f}x   (goal <= 1.5x)")
    print(f"one line at a time   {lines / per_line:>10,.0f} lines/s  (a file with a bad line)")
    print(f"goal >= 20,000 lines/s: {'met' if lines / full >= 20_000 else 'not met on this machine'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
