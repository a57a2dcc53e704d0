"""How much a game's reports weigh: bytes per step of the report folders of a whole 6-player game.

    python benchmarks/bench_report_size.py [--seed N ...]

Plays whole 6-player robot games through the real text path and measures every report folder
(``reports/NNNN-*``: the public report as text, HTML and JSON, the step's map.svg, each house's
private part, the receipts). Prints the bytes per step (mean, median, largest), by kind of file,
and the map's size, plain and gzipped, and the PNG the mail carries.
Goal: every step at most 100 KB (100,000 bytes) in the game folder.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.mail.mapimage import render_png
from adjudicator.robots.simulate import simulate

GOAL = 100_000


def kind(path: Path, step: Path) -> str:
    if path.parent != step:
        return "receipts"
    if path.stem == "public" or path.name in ("map.svg", "report.json"):
        return path.name
    return f"private .{path.suffix.lstrip('.')} (6 houses)"


def measure(seed: int) -> tuple[list[tuple[int, str]], Counter[str], list[int], list[int], list[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "g"
        simulate(6, seed, out=game)
        steps, kinds, maps, gz, png = [], Counter(), [], [], []
        for i, step in enumerate(sorted(p for p in (game / "reports").iterdir() if p.is_dir())):
            files = [p for p in step.rglob("*") if p.is_file()]
            steps.append((sum(p.stat().st_size for p in files), step.name))
            for p in files:
                kinds[kind(p, step)] += p.stat().st_size
            svg = (step / "map.svg").read_bytes()
            maps.append(len(svg))
            gz.append(len(gzip.compress(svg, 9)))
            if i % 20 == 0:
                png.append(len(render_png(svg.decode())))
        return steps, kinds, maps, gz, png


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, nargs="+", default=[2, 5])
    args = ap.parse_args()
    print("## bench_report_size\n")
    worst = 0
    for seed in args.seed:
        steps, kinds, maps, gz, png = measure(seed)
        sizes = [s for s, _ in steps]
        biggest = max(steps)
        worst = max(worst, biggest[0])
        n = len(steps)
        print(f"6-player robot game, seed {seed}: {n} steps, {sum(sizes):,} bytes in all")
        print(f"  bytes per step: mean {statistics.mean(sizes):,.0f}, median {statistics.median(sizes):,.0f}, "
              f"largest {biggest[0]:,} ({biggest[1]}); goal <= {GOAL:,}: {'met' if biggest[0] <= GOAL else 'NOT met'}")
        for k, v in kinds.most_common():
            print(f"    {k:<28} {v / n:>9,.0f} bytes per step")
        print(f"  map.svg: mean {statistics.mean(maps):,.0f} bytes, largest {max(maps):,}; gzipped mean "
              f"{statistics.mean(gz):,.0f}, largest {max(gz):,}")
        print(f"  map PNG for mail (1200 x 1690): mean {statistics.mean(png):,.0f} bytes over {len(png)} steps\n")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
