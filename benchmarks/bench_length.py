"""Whether a run costs the same late in a long game as early: per-step cost over 40+ rounds.

    python benchmarks/bench_length.py [--players N] [--seed S] [--rounds R] [--warm] [--profile]

Plays one robot game through the text path (``simulate``: turn files, seals, inbox,
``batch.adjudicate``, reports) for ``--rounds`` rounds and times each ``batch.adjudicate`` by CPU
time (``time.process_time``). The base game ends after round 10 and no setting plays on, so **this
benchmark raises its own box's round limit** to ``--rounds`` + 1 for its process (the engine's rules
are otherwise unchanged; a castle victory still ends the game: the default seed has none).

Before each run the process forgets what earlier runs of it read (the ledger, the snapshots, the
inbox digests), as a new ``maester adjudicate`` command would know nothing: that is the cost a
moderator's run, ``replay`` or a host with many games pays. ``--warm`` keeps them (``simulate``'s
own case: one process for the whole game).

It prints the mean CPU milliseconds per step of the first and the last five rounds and their ratio
(late over early: 1.0 is flat; the goal is flat, within the noise of a shared machine, about 1.2x),
and the log lines each run read, which is bounded by what was appended since the last run when no
run reads the whole log. ``--profile`` adds the functions whose time grew most from early to late.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import statistics
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.folder import batch, intake, ledger
from adjudicator.game import boxes
from adjudicator.robots import simulate as sim

GOAL_RATIO = 1.2  # late over early, CPU time per step (flat within a shared machine's noise)
EDGE = 5  # rounds at each end compared


def raise_round_limit(rounds: int) -> None:
    """Every box of this process ends after ``rounds`` (the modules that imported ``box_named`` too)."""
    real = boxes.box_named

    @cache
    def longer(name: str) -> boxes.Box:
        return dataclasses.replace(real(name), rounds=rounds)

    for module in list(sys.modules.values()):
        if getattr(module, "box_named", None) is real:
            module.box_named = longer  # type: ignore[attr-defined]


def forget_everything() -> None:
    """What a new command knows of the folder: nothing an earlier run of this process read.

    (A tree from before ``forget_reads`` and its kin, measured with ``run_all.py --baseline``, has
    the same caches under the names they replace.)"""
    for module, public, kept in ((ledger, "forget_reads", "_LEDGERS"), (batch, "forget_snapshots", "_KNOWN"),
                                  (intake, "forget_digests", "_DIGESTS")):  # fmt: skip
        forget = getattr(module, public, None)
        if forget is not None:
            forget()
        else:
            getattr(module, kept).clear()


def lines_read() -> int:
    """Log lines this process read (-1 in a tree that does not count them)."""
    count = getattr(ledger, "lines_read", None)
    return count() if count is not None else -1


def play(players: int, seed: int, rounds: int, warm: bool, profile: bool) -> tuple[list[tuple[int, float, int]], str, Any]:
    """The game: for each run its (round, CPU seconds, log lines read), the result line, the profiles."""
    runs: list[tuple[int, float, int]] = []
    profiles: dict[str, cProfile.Profile] = {"early": cProfile.Profile(), "late": cProfile.Profile()}
    real = batch.adjudicate

    def timed(root: Path, **kwargs: Any) -> batch.RunResult:
        if not warm:
            forget_everything()
        rnd = runs[-1][0] if runs else 1
        prof = profiles["early" if rnd <= EDGE else "late"] if profile and (rnd <= EDGE or rnd > rounds - EDGE) else None
        before = lines_read()
        t0 = time.process_time()
        if prof is not None:
            prof.enable()
        out = real(root, **kwargs)
        if prof is not None:
            prof.disable()
        spent = time.process_time() - t0
        state = out.latest
        runs.append((state.round if state is not None else rnd, spent, lines_read() - before))
        return out

    batch.adjudicate = timed  # type: ignore[assignment]
    try:
        result = sim.simulate(players, seed, rounds=rounds)
    finally:
        batch.adjudicate = real  # type: ignore[assignment]
    if result.problems:
        raise SystemExit(f"the game broke an invariant: {result.problems}")
    return runs, result.final_line(), profiles if profile else None


def grown(profiles: dict[str, cProfile.Profile], early_steps: int, late_steps: int, top: int = 12) -> list[str]:
    """The functions whose own time per step grew most from the early rounds to the late."""
    per: dict[str, dict[Any, float]] = {}
    for side, prof in profiles.items():
        steps = early_steps if side == "early" else late_steps
        st = pstats.Stats(prof)
        per[side] = {f: v[3] / max(1, steps) for f, v in st.stats.items()}  # type: ignore[attr-defined]
    rows = []
    for f in set(per["early"]) | set(per["late"]):
        e, la = per["early"].get(f, 0.0), per["late"].get(f, 0.0)
        rows.append((la - e, f, e, la))
    rows.sort(reverse=True, key=lambda r: r[0])
    return [f"  {d * 1000:+7.2f} ms  {e * 1000:6.2f} -> {la * 1000:6.2f} ms  {f[2]} ({Path(f[0]).name}:{f[1]})"
            for d, f, e, la in rows[:top]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--warm", action="store_true", help="keep what earlier runs of the process read (simulate's case)")
    ap.add_argument("--profile", action="store_true", help="name the functions whose time grew")
    args = ap.parse_args(argv)
    if args.rounds < 2 * EDGE:
        raise SystemExit(f"--rounds must be at least {2 * EDGE}")
    raise_round_limit(args.rounds + 1)
    runs, line, profiles = play(args.players, args.seed, args.rounds, args.warm, args.profile)
    early = [t for r, t, _ in runs if r <= EDGE]
    late = [t for r, t, _ in runs if r > args.rounds - EDGE]
    e_ms, l_ms = 1000 * statistics.mean(early), 1000 * statistics.mean(late)
    ratio = l_ms / e_ms
    lines_early = max(n for r, _, n in runs if r <= EDGE)
    lines_late = max(n for r, _, n in runs if r > args.rounds - EDGE)
    print(f"length: a {args.players}-player robot game (seed {args.seed}, round limit raised to {args.rounds + 1}; "
          f"{line}), {len(runs)} runs, {'one warm process' if args.warm else 'each run as a new command'}")
    print(f"  rounds 1-{EDGE}: {len(early)} runs, {e_ms:.1f} ms CPU a run (median {1000 * statistics.median(early):.1f})")
    print(f"  rounds {args.rounds - EDGE + 1}-{args.rounds}: {len(late)} runs, {l_ms:.1f} ms CPU a run "
          f"(median {1000 * statistics.median(late):.1f})")
    verdict = "met" if ratio <= GOAL_RATIO else "not met"
    print(f"  late over early: {ratio:.2f}x (goal: flat, at most {GOAL_RATIO}x: {verdict})")
    if lines_read() >= 0:
        print(f"  log lines read by one run, at most: {lines_early} early, {lines_late} late")
    if profiles is not None:
        print("  grown most, own time per run:")
        print("\n".join(grown(profiles, len(early), len(late))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
