"""How well a moderator's batch of many games uses the machine: ``adjudicate_all`` with 1 and 2 jobs.

    python benchmarks/bench_many.py [--games N] [--round K] [--repeat R] [--relaxed]

Builds N game folders (6 houses each, different seeds) and plays each with robot players through
the real text path up to the orders of round K, then leaves every house's sealed orders waiting in
its inbox, as a moderator finds them after a mailing. Each timing runs
:func:`adjudicator.folder.many.adjudicate_all` on a fresh copy of those folders, with ``jobs=1`` and
then ``jobs=2`` (separate processes), after one untimed warm-up run; the runs alternate and the
best of R counts. For comparison it also measures what the machine allows right now: the speed-up
of pure arithmetic in two processes (other work on the machine brings it below 2).
Every run must accept every waiting file and write one new step per game.

Writes are durable (fsync), as in a real game folder; ``--relaxed`` skips fsync.
Goal: ``jobs=2`` at least 1.8 times as fast as ``jobs=1`` on a machine with 2 cores or more.
On a terminal, ``maester adjudicate --all DIR --jobs N`` does the same with a progress bar.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.engine.core.context import Request
from adjudicator.folder import batch, many, registry
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.game.board import Board
from adjudicator.robots.players import Robot, robot_key
from adjudicator.seals.keys import PublicKey
from adjudicator.util import fileio

GOAL = 1.8
HOUSES = list(Board.classic().setups[6].houses)


def prepare(root: Path, seed: int, rnd: int) -> int:
    """One game folder played by robots up to the orders of round ``rnd``, every house's sealed orders in its inbox.

    Returns how many files wait in the inbox.
    """
    board = Board.classic()
    gd = create_game(root, houses=HOUSES, game_id=root.name, seed=f"many-{seed}")
    rng = random.Random(seed)
    robots = {h: Robot(h, robot_key(str(seed), h), random.Random(rng.random())) for h in HOUSES}
    for h, robot in robots.items():
        registry.register_key(gd.root, h, PublicKey.from_key(robot.key, f"robot {h}"))
    batch.adjudicate(gd.root)
    while True:
        state = GameDir(gd.root).load_state()
        if state.phase == "game_over":
            raise SystemExit(f"{root.name} ended before round {rnd}")
        requests = [Request.from_dict(p) for p in state.pending]
        waiting = 0
        for house, robot in robots.items():
            text = robot.turn_file(state, requests, board, root.name)
            if text is not None:
                fileio.atomic_write_text(gd.folder("inbox") / f"{house}-{robot.seq:04d}.txt", text)
                waiting += 1
        if state.round >= rnd and state.phase == "planning" and waiting == len(HOUSES):
            return waiting
        batch.adjudicate(gd.root)


def run(template: Path, work: Path, jobs: int) -> float:
    """Adjudicate a fresh copy of the folders with ``jobs`` processes; its seconds."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(template, work)
    t0 = time.perf_counter()
    results = many.adjudicate_all(work, jobs=jobs)
    took = time.perf_counter() - t0
    for root, (code, lines) in results.items():
        if code != 0 or not any("wrote reports/" in line for line in lines):
            raise SystemExit(f"{root}: the run did not go as expected (exit {code}):\n" + "\n".join(lines))
    return took


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def ceiling(jobs: int) -> float:
    """The speed-up of pure Python arithmetic in ``jobs`` processes over one, now: what the machine allows."""
    work = [1_000_000] * 8
    t0 = time.perf_counter()
    for n in work:
        _burn(n)
    one = time.perf_counter() - t0
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_burn, work))
    return one / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--round", type=int, default=3, help="the round whose orders wait in every inbox")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--relaxed", action="store_true", help="skip fsync while adjudicating")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="maester-bench-many-") as tmp:
        template = Path(tmp) / "games"
        template.mkdir()
        files = 0
        with fileio.relaxed():  # building the folders is not what is timed
            for i in range(args.games):
                files += prepare(template / f"game-{i + 1:02d}", seed=100 + i, rnd=args.round)
        work = Path(tmp) / "work"
        timing = fileio.relaxed() if args.relaxed else contextlib.nullcontext()
        one = two = float("inf")
        best_ceiling = 0.0
        with timing:
            run(template, work, 1)  # warm-up: imports, templates, caches
            for _ in range(args.repeat):  # interleaved, so that a busy moment hits both alike
                one = min(one, run(template, work, 1))
                two = min(two, run(template, work, 2))
                best_ceiling = max(best_ceiling, ceiling(2))
    speedup = one / two
    print(f"batch: {args.games} game folders of 6 houses at round {args.round}, {files} sealed files waiting, "
          f"{'fsync skipped' if args.relaxed else 'durable writes'}; {os.cpu_count()} cores")
    print(f"  jobs=1 {one:6.2f} s   ({one / args.games * 1000:.0f} ms per game)")
    print(f"  jobs=2 {two:6.2f} s   speed-up {speedup:.2f}x; goal >= {GOAL}x ({'met' if speedup >= GOAL else 'not met'})")
    print(f"  for comparison, pure arithmetic in 2 processes on this machine now: {best_ceiling:.2f}x "
          f"(below 2x: other work shares the cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
