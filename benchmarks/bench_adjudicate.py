"""Adjudicate the sample game end to end and say where the time goes.

    python benchmarks/bench_adjudicate.py [--repeat N]

Replays ``samples/game`` (four houses, two rounds) into fresh game folders, one batch run per
mailing as a moderator would, and prints for each run its milliseconds (interpreter start-up,
imports and the first, cold replay excluded), and the share spent in

* verify  the intake: reading the input files, checking seals and headers, archiving;
* parse   ``parse_turn_file``, wherever it is called (the intake reads each turn once);
* engine  the rules (``advance``) from the previous snapshot to the next;
* render  the text, HTML and JSON reports of every viewer;
* write   the atomic writes: snapshot, ``state.toml``, receipts, reports, log lines (with fsync);
* other   the rest of the run: the log, the ledger, the snapshot's TOML, the lock.

Each part is timed wherever its functions are bound and leaves out the other parts called inside
it (``benchmarks/parts.py``), so the shares add up to 100%. (The run's own ``Timings`` counted the
parsing inside the intake as verify, and parse as 0%.)

Then one planning step of a six-house game, six sealed files of orders at once. Each figure is the
best of ``--repeat`` replays. The goal is at most 100 ms per step for six sealed files.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from parts import Parts

from adjudicator.engine.machine import advance
from adjudicator.folder import batch
from adjudicator.folder.intake import Intake
from adjudicator.reports.report import render_reports, render_step_map
from adjudicator.robots.demo import new_sample_game, sample_dir, sample_plan
from adjudicator.seals import sshsig
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.util import fileio

PARTS = ["verify", "parse", "engine", "render", "write", "other"]
FUNCTIONS: dict[str, list[Any]] = {
    "verify": [Intake.run], "parse": [parse_turn_file], "engine": [advance], "render": [render_reports, render_step_map],
    "write": [fileio.atomic_write_bytes, fileio.atomic_write_text, fileio.write_folder, fileio.append_line],
    "other": [batch.adjudicate],
}
Timings = dict[str, float]


def run(parts: Parts, *args: Any, **kwargs: Any) -> tuple[Any, float, Timings]:
    """One ``batch.adjudicate`` (timed by ``parts``): its result, seconds, and seconds per part. Every
    replay gives it the sample's same sealed files: the seals this process found to hold are
    forgotten first, so that each run checks its seals in full, as a moderator's command does."""
    getattr(sshsig, "forget_verified", lambda: None)()  # (a tree from before the seals were kept has none)
    before = dict(parts.spent)
    start = time.perf_counter()
    result = batch.adjudicate(*args, **kwargs)
    secs = time.perf_counter() - start
    return result, secs, {p: parts.spent[p] - before.get(p, 0.0) for p in PARTS}


def replay_once(root: Path, parts: Parts) -> list[tuple[str, int, int, float, Timings]]:
    """One replay of the sample: per batch run, (label, files, steps, seconds, seconds per part)."""
    sample = sample_dir()
    _, runs = sample_plan(sample)
    gd = new_sample_game(root, sample)
    out = []
    first, secs, t = run(parts, gd.root)
    out.append(("setup", 0, len(first.steps), secs, t))
    for mailing in runs:
        files = sorted((sample / "sealed" / mailing.files).glob("*.txt"))
        for f in files:
            shutil.copyfile(f, gd.root / "inbox" / f"{mailing.files}-{f.name}")
        result, secs, t = run(parts, gd.root)
        out.append((mailing.files, len(files), len(result.steps), secs, t))
        if mailing.deadline:
            result, secs, t = run(parts, gd.root, deadline=True)
            out.append((mailing.files + " deadline", 0, len(result.steps), secs, t))
    return out


def six_house_step(root: Path, parts: Parts) -> tuple[float, Timings]:
    """One planning step of a six-house game: six sealed files of orders (each house's default ones)."""
    from adjudicator.folder import registry
    from adjudicator.folder.gamedir import create_game
    from adjudicator.game.commands import from_dict
    from adjudicator.seals import seal
    from adjudicator.seals.keys import generate
    from adjudicator.turnfile.printer import format_command

    houses = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
    gd = create_game(root, houses=houses, game_id="six", seed="bench")
    keys = {h: generate(h) for h in houses}
    for h, k in keys.items():
        registry.register_key(gd.root, h, k.public)
    batch.adjudicate(gd.root)
    for request in gd.load_state().pending:
        lines = [format_command(from_dict(c)) for c in request["default_parts"]]
        text = "\n".join([f"game six · house {request['house']} · round 1 · planning · seq 1", *lines]) + "\n"
        (gd.root / "inbox" / f"{request['house']}.txt").write_text(seal.sign(text, keys[request["house"]].private))
    result, secs, t = run(parts, gd.root)
    assert len(result.accepted) == 6, result.lines()
    return secs, t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="replays to take the best of (default 3)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="maester-bench-"))
    parts = Parts()
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(parts.timing(FUNCTIONS))
        replay_once(tmp / "warm", parts)  # grammar, templates and card data loaded once, as in a long-lived process
        best: list[tuple[str, int, int, float, Timings]] | None = None
        for i in range(max(1, args.repeat)):
            rows = replay_once(tmp / f"r{i}", parts)
            best = rows if best is None else [min(a, b, key=lambda r: r[3]) for a, b in zip(best, rows)]
        six_house_step(tmp / "six-warm", parts)
        six = min((six_house_step(tmp / f"six{i}", parts) for i in range(max(1, args.repeat))), key=lambda r: r[0])
    finally:
        stack.close()
        shutil.rmtree(tmp, ignore_errors=True)
    assert best is not None
    print(f"{'batch run':28} {'files':>5} {'steps':>5} {'ms':>8}   " + "  ".join(f"{p:>6}" for p in PARTS))
    total_ms = total_steps = 0.0
    sums = dict.fromkeys(PARTS, 0.0)
    for label, files, steps, secs, t in best:
        shares = [t[p] / secs * 100 if secs else 0.0 for p in PARTS]
        print(f"{label:28} {files:5d} {steps:5d} {secs * 1000:8.1f}   " + "  ".join(f"{s:5.0f}%" for s in shares))
        total_ms += secs * 1000
        total_steps += steps
        for p in PARTS:
            sums[p] += t[p]
    print(f"\n{len(best)} batch runs, {int(total_steps)} steps: {total_ms / len(best):.1f} ms per run, "
          f"{total_ms / max(total_steps, 1):.1f} ms per step (goal: at most 100)")
    print("share of all time: " + ", ".join(f"{p} {sums[p] * 1000 / total_ms * 100:.0f}%" for p in PARTS))
    secs, t = six
    print(f"\nsix houses, six sealed files of orders, one step: {secs * 1000:.1f} ms (goal: at most 100); "
          + ", ".join(f"{p} {t[p] / secs * 100:.0f}%" for p in PARTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
