"""How fast the engine resolves a whole game: every ``advance`` call of one robot game, replayed.

    python benchmarks/bench_engine.py [--players N] [--seed S] [--repeat R] [--profile]

One robot game is played engine-only (``simulate(..., text=False)``) while every call to
:func:`adjudicator.engine.machine.advance` is recorded: its answers and whether a deadline was
called. The timing then replays exactly those calls, each on the state the previous one returned,
with no robots, no invariant checks, no text and no disk: the engine alone. The replay must end on
the very state the game ended on (checked byte for byte through ``to_toml``), so a faster engine
that plays differently is caught here.

Goal: a whole 6-player game in at most 200 ms on one core (best of R runs).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.engine.core.context import Step
from adjudicator.engine.machine import advance
from adjudicator.game.board import Board
from adjudicator.game.state import GameState
from adjudicator.robots import simulate as sim

GOAL_MS = 200.0

Call = tuple[list[dict[str, Any]], bool]  # the answers given and the deadline flag


def record(players: int, seed: int) -> tuple[GameState, list[Call], GameState, str]:
    """Play one engine-only robot game; return its first state, every advance call, its last state, its result."""
    calls: list[Call] = []
    first: list[GameState] = []

    def recording(state: GameState, answers: Any = (), *, deadline: bool = False, board: Board | None = None) -> Step:
        answers = [dict(a) for a in answers]
        if not first:
            first.append(GameState.from_toml(state.to_toml()))
        calls.append((answers, deadline))
        return advance(state, answers, deadline=deadline, board=board)

    last: list[GameState] = []
    sim.advance = recording  # the simulation's own calls go through the recorder
    try:
        result = sim.simulate(players, seed, text=False, on_step=last.append)
    finally:
        sim.advance = advance
    return first[0], calls, last[-1], result.final_line()


def replay(start: GameState, calls: list[Call], board: Board) -> GameState:
    """Make every recorded call again, in order, each on the state the previous one returned."""
    state = start
    for answers, deadline in calls:
        state = advance(state, answers, deadline=deadline, board=board).state
    return state


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=10, help="timed replays; the best counts")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one replay instead of timing")
    args = ap.parse_args(argv)
    board = Board.classic()
    start, calls, end, line = record(args.players, args.seed)
    expected = end.to_toml()
    if replay(start, calls, board).to_toml() != expected:
        raise SystemExit("the replay did not end on the game's final state: the engine is not deterministic")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(replay, start, calls, board)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return 0
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        replay(start, calls, board)
        best = min(best, time.perf_counter() - t0)
    ms = best * 1000
    print(f"engine: a {args.players}-player robot game (seed {args.seed}; {line})")
    print(f"  {len(calls)} advance calls replayed in {ms:.0f} ms (best of {args.repeat}), "
          f"{ms / len(calls):.2f} ms per call")
    print(f"  ratio to the goal of {GOAL_MS:.0f} ms: {ms / GOAL_MS:.2f}x ({'met' if ms <= GOAL_MS else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
