"""How fast a whole game goes through every layer: robots, seals, inbox, adjudication, reports.

    python benchmarks/bench_simulate.py [--players N] [--seed S] [--rounds R] [--durable]

Plays one robot game with ``simulate(players, seed)`` (the text path: every answer is printed as
turn-file text, sealed, dropped in the inbox and adjudicated by ``batch.adjudicate``, which writes
the snapshot, state, receipts and every report of every step) and says where the time went:

* robots     choosing answers and printing them as turn-file text (``Robot.turn_file``);
* seal       robots signing their turn files (Ed25519, SSHSIG: ``seal.sign``);
* verify     the moderator's intake: reading the inbox, checking each seal and header, archiving;
* parse      ``parse_turn_file``, wherever it is called (the intake, the archive read back);
* engine     ``advance``: the rules from one snapshot to the next;
* render     each step's record of its reports (its receipts written out, its events as JSON): the
             text, HTML, map and JSON pages are rendered from it when they are read (issue 31);
* disk       the atomic writes: state, snapshots, receipts, report folders, log lines;
* bookkeeping the rest of each moderator's run (``batch.adjudicate``): the log, the ledger, the
             snapshot's TOML, the lock, the state read back;
* loop       the simulation itself: inbox files, reading ``state.toml``, invariant checks.

Each part is timed wherever its functions are bound (``benchmarks/parts.py``: a module that imported
a function by name is timed too) and leaves out the other parts called inside it, so the parts add
up to the total.

A simulated game folder is disposable, so ``simulate`` writes it without fsync
(``fileio.relaxed``); ``--durable`` times it with fsync, as a real game folder is written.

Goal: a 6-player game in at most 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from parts import Parts

from adjudicator.folder import batch
from adjudicator.robots import players as robots
from adjudicator.robots import simulate as sim
from adjudicator.util import fileio

GOAL_S = 2.0
PARTS = ("robots", "seal", "verify", "parse", "engine", "render", "disk", "bookkeeping", "loop")


def part_functions() -> dict[str, list[Any]]:
    """The functions whose time is each part's (the loop is the rest)."""
    from adjudicator.engine.machine import advance
    from adjudicator.folder import outputs
    from adjudicator.folder.intake import Intake
    from adjudicator.reports.report import render_reports, render_step_map
    from adjudicator.seals.seal import sign
    from adjudicator.turnfile.parser import parse_turn_file

    return {
        "robots": [robots.Robot.turn_file], "seal": [sign], "verify": [Intake.run], "parse": [parse_turn_file],
        "engine": [advance], "render": [*([outputs.step_record] if hasattr(outputs, "step_record") else []), render_reports, render_step_map],
        "disk": [fileio.atomic_write_bytes, fileio.atomic_write_text, fileio.write_folder, fileio.append_line],
        "bookkeeping": [batch.adjudicate],
    }


def timed_game(players: int, seed: int, rounds: int | None, durable: bool) -> tuple[float, dict[str, float], str]:
    """Play the game once; its total seconds, the seconds of each part, and its result."""
    parts = Parts()
    with contextlib.ExitStack() as stack:
        stack.enter_context(parts.timing(part_functions()))
        if durable:
            stack.enter_context(_durable())
        t0 = time.perf_counter()
        result = sim.simulate(players, seed, rounds=rounds)
        total = time.perf_counter() - t0
    if result.problems:
        raise SystemExit(f"the game broke an invariant: {result.problems}")
    spent = {p: parts.spent[p] for p in PARTS if p != "loop"}
    spent["loop"] = total - sum(spent.values())
    return total, spent, f"{result.final_line()}"


@contextlib.contextmanager
def _durable() -> Iterator[None]:
    """fsync as a real game folder is written: ``simulate``'s ``fileio.relaxed()`` made to do nothing."""
    real = fileio.relaxed
    fileio.relaxed = contextlib.nullcontext  # type: ignore[assignment]
    try:
        yield
    finally:
        fileio.relaxed = real


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=None, help="stop after this many rounds (default: the whole game)")
    ap.add_argument("--durable", action="store_true", help="write with fsync, as a real game folder is written")
    args = ap.parse_args(argv)
    total, parts, line = timed_game(args.players, args.seed, args.rounds, args.durable)
    print(f"text path: a {args.players}-player robot game (seed {args.seed}; {line})"
          f"{', with fsync' if args.durable else ', fsync skipped (disposable folder)'}")
    verdict = "met" if total <= GOAL_S else "not met"
    if args.rounds is not None or args.players != 6:
        verdict = "the goal is for a whole 6-player game"
    print(f"  {total:.2f} s in all; ratio to the goal of {GOAL_S:.0f} s: {total / GOAL_S:.1f}x ({verdict})")
    for part in PARTS:
        print(f"  {part:<12} {parts[part]:7.2f} s  {100 * parts[part] / total:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
