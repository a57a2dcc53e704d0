"""How fast a whole game goes through every layer: robots, seals, inbox, adjudication, reports.

    python benchmarks/bench_simulate.py [--players N] [--seed S] [--rounds R] [--durable]

Plays one robot game with ``simulate(players, seed)`` (the text path: every answer is printed as
turn-file text, sealed, dropped in the inbox and adjudicated by ``batch.adjudicate``, which writes
the snapshot, state, receipts and every report of every step) and says where the time went:

* robots     choosing answers and printing them as turn-file text;
* seal       robots signing their turn files (Ed25519, SSHSIG);
* verify     the moderator's run checking each seal and header (batch intake);
* parse      reading the accepted turn files (grammar, names, commands);
* engine     ``advance`` and the snapshot around it;
* render     the text, HTML (with the SVG map) and JSON reports of every house;
* disk       writing state, snapshots, receipts and reports;
* bookkeeping the rest of each run: the log, the ledger, the latest snapshot read back, the lock;
* loop       the simulation itself: inbox files, reading ``state.toml``, invariant checks.

A simulated game folder is disposable, so ``simulate`` writes it without fsync
(``fileio.relaxed``); ``--durable`` times it with fsync, as a real game folder is written.

Goal: a 6-player game in at most 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.folder import batch
from adjudicator.robots import players as robots
from adjudicator.robots import simulate as sim
from adjudicator.util import fileio

GOAL_S = 2.0
PARTS = ("robots", "seal", "verify", "parse", "engine", "render", "disk", "bookkeeping", "loop")


@contextlib.contextmanager
def patched(owner: Any, name: str, wrapper: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Iterator[None]:
    real = getattr(owner, name)
    setattr(owner, name, wrapper(real))
    try:
        yield
    finally:
        setattr(owner, name, real)


def timed_game(players: int, seed: int, rounds: int | None, durable: bool) -> tuple[float, dict[str, float], str]:
    """Play the game once; its total seconds, the seconds of each part, and its result."""
    spent: dict[str, float] = defaultdict(float)

    def clock(part: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
            def timed(*a: Any, **kw: Any) -> Any:
                t0 = time.perf_counter()
                try:
                    return fn(*a, **kw)
                finally:
                    spent[part] += time.perf_counter() - t0
            return timed
        return wrap

    def adjudicate(fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            result = fn(*a, **kw)
            spent["adjudicate"] += time.perf_counter() - t0
            t = result.timings
            for part in ("verify", "parse", "engine", "render"):
                spent[part] += getattr(t, part)
            spent["disk"] += t.write
            return result
        return timed

    with contextlib.ExitStack() as stack:
        stack.enter_context(patched(robots, "sign", clock("seal")))
        stack.enter_context(patched(robots.Robot, "turn_file", clock("turn_files")))
        stack.enter_context(patched(batch, "adjudicate", adjudicate))
        if durable:
            stack.enter_context(patched(fileio, "relaxed", lambda real: contextlib.nullcontext))
        t0 = time.perf_counter()
        result = sim.simulate(players, seed, rounds=rounds)
        total = time.perf_counter() - t0
    if result.problems:
        raise SystemExit(f"the game broke an invariant: {result.problems}")
    parts = {
        "robots": spent["turn_files"] - spent["seal"],
        "seal": spent["seal"],
        **{p: spent[p] for p in ("verify", "parse", "engine", "render", "disk")},
    }
    parts["bookkeeping"] = spent["adjudicate"] - sum(spent[p] for p in ("verify", "parse", "engine", "render", "disk"))
    parts["loop"] = total - spent["turn_files"] - spent["adjudicate"]
    return total, parts, f"{result.final_line()}"


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
