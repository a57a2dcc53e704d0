"""Mail round trips per game round: robots that answer only what is asked, and robots that answer ahead.

    python benchmarks/bench_roundtrips.py [--players 3 4 5 6] [--seeds N] [--text] [--expansion mother-of-dragons]

A mail round is one round of mail: every house that has something to say sends one turn file, then
the moderator adjudicates once. It is a round trip when at least one house had to answer (an open
request was addressed to it). Whole robot games are played engine-only (``simulate(...,
text=False)``, the same moves as the text path) with no mistakes thrown in (``chaos=0``), in two
modes:

* **asked**: the robots answer only the requests addressed to them (the players of before);
* **ahead**: they also answer every decision coming up for them that the turn-file language can
  express before it is asked (``adjudicator/engine/ahead.py``: mustering after earlier houses, later
  Westeros cards, the raven's look with its card placement as a conditional, raids, marches,
  consolidations, support, retreats, house cards and their choices, the blade), and check their
  mustering, marches and bids as ``maester check`` would before sending them; a second file for a
  step says ``add`` (ruling 120);
* **standing**: as ahead, and with their orders each round they also send standing instructions
  (ruling 353, ``adjudicator/robots/standing_robot.py``) for the decisions of the rounds to come:
  the dominance cards' choices, musters, bids, tie-breaks, vassals, deck IV cards, loyalty moves.

Each mail round counts for the round the game was in when the mail went out. Round 1 has no
Westeros phase. With ``--text`` one 4-player game per mode is also played through the whole product
(turn files, seals, ``add`` headers, reports) and must count the same mail rounds as engine-only.
With ``--expansion mother-of-dragons`` the games are the expansion's (3-8 players, Targaryen with 4
or more; its gifts, vassal choices and the Iron Bank's interest among the decisions).

Goals: at most 3 mail round trips per round for robots that answer ahead, in a round with a combat
and a Westeros phase (issue 15); with standing instructions a mean of at most 1.5 a round in the
base game and 2.0 in Mother of Dragons games of 7 and 8 players, and at least 95% of rounds within
3 (issue 29).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.engine.core.context import Step
from adjudicator.engine.machine import advance
from adjudicator.game.board import Board
from adjudicator.robots import simulate as sim

GOAL = 3
MODES = ("asked", "ahead", "standing")


@dataclass
class Round:
    """One game round of one robot game: its mail rounds and what happened in it."""

    mails: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (step, kinds asked) per mail round
    combats: int = 0
    westeros: bool = False
    cards: list[str] = field(default_factory=list)  # Westeros and wildling cards revealed, in order


def play(players: int, seed: int, *, ahead: bool, text: bool = False, expansion: str | None = None,
         standing: bool = False) -> dict[int, Round]:
    """One whole robot game; its rounds by number."""
    rounds: dict[int, Round] = defaultdict(Round)

    def watching(state: Any, answers: Any = (), *, deadline: Any = False, board: Board | None = None) -> Step:
        step = advance(state, answers, deadline=deadline, board=board)
        now = state.round  # a call may go on into the next round: its PhaseStarted events say when
        for e in step.events:
            kind = type(e).__name__
            if kind == "CombatStarted":
                rounds[now].combats += 1
            elif kind == "PhaseStarted":
                now = getattr(e, "round", now)
                rounds[now].westeros |= getattr(e, "phase", "") == "westeros"
            elif kind == "WesterosCardRevealed":
                rounds[now].cards.append(getattr(e, "card", ""))
            elif kind == "WildlingCardRevealed":
                side = "watch" if getattr(e, "nights_watch_won", False) else "wildlings"
                rounds[now].cards.append(f"wildling card {getattr(e, 'card', '')} ({side})")
        return step

    sim.advance = watching  # the engine-only table calls advance through the module
    try:
        result = sim.simulate(players, seed, text=text, chaos=0.0, ahead=ahead, expansion=expansion, standing=standing)
    finally:
        sim.advance = advance
    if result.problems:
        raise SystemExit(f"{players} players, seed {seed}: {result.problems[0]}")
    for rnd, step, kinds in result.mail_rounds:
        rounds[rnd].mails.append((step, kinds))
    return dict(rounds)


def summary(label: str, rounds: list[Round]) -> list[str]:
    counts = [len(r.mails) for r in rounds]
    if not counts:
        return [f"| {label} | 0 rounds | | | | |"]
    within = sum(1 for c in counts if c <= GOAL)
    return [f"| {label} | {len(counts)} | {statistics.mean(counts):.2f} | {statistics.median(counts):g} | "
            f"{max(counts)} | {within / len(counts):.0%} |"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--seeds", type=int, default=5, help="games per player count (seeds 1..N)")
    ap.add_argument("--text", action="store_true", help="also check one game per mode through the text path")
    ap.add_argument("--expansion", metavar="NAME", help="play an expansion's games: mother-of-dragons")
    args = ap.parse_args()
    box = args.expansion
    games = {mode: {(p, s): play(p, s, ahead=mode != "asked", standing=mode == "standing", expansion=box)
                    for p in args.players for s in range(1, args.seeds + 1)} for mode in MODES}  # fmt: skip
    print(f"{len(args.players) * args.seeds} whole robot games per mode ({', '.join(map(str, args.players))} players, "
          f"seeds 1-{args.seeds}{', ' + box if box else ''}), engine-only, chaos 0\n")
    print("| mode, rounds | rounds | mean mail round trips | median | max | within 3 |")
    print("|---|---|---|---|---|---|")
    for mode, played in games.items():
        every = [r for g in played.values() for r in g.values() if r.mails]
        full = [r for r in every if r.combats and r.westeros]
        print(*summary(f"{mode}: every round", every), sep="\n")
        print(*summary(f"{mode}: rounds with a combat and a Westeros phase", full), sep="\n")
    for players in args.players:
        line = []
        for mode, played in games.items():
            counts = [len(r.mails) for (p, _), g in played.items() if p == players for r in g.values() if r.mails]
            within = sum(1 for c in counts if c <= GOAL) / len(counts)
            line.append(f"{mode} {statistics.mean(counts):.2f} ({within:.1%} within {GOAL}, max {max(counts)})")
        print(f"\n{players} players: mean mail round trips per round: " + ", ".join(line), end="")
    for mode in ("ahead", "standing"):
        print(f"\n\n{mode}: what the mail rounds of a round over the goal were for (step: kinds asked), and how often:")
        over: Counter[str] = Counter()
        for g in games[mode].values():
            for r in g.values():
                if len(r.mails) > GOAL:
                    over[" -> ".join(f"{s}: {'+'.join(k)}" for s, k in r.mails)] += 1
        for what, n in over.most_common(12):
            print(f"  {n:3d}x  {what}")
        if not over:
            print("  none")
        print(f"\n{mode}: each round over the goal (players, seed, round; combats; cards revealed in it):")
        for (players, seed), g in sorted(games[mode].items()):
            for rnd, r in sorted(g.items()):
                if len(r.mails) > GOAL:
                    print(f"  {players} players, seed {seed}, round {rnd}: {len(r.mails)} mail rounds "
                          f"({' -> '.join('+'.join(k) for _, k in r.mails)}); {r.combats} combats; "
                          f"cards: {', '.join(r.cards) or 'none'}")
    asked_kinds: dict[str, Counter[str]] = {m: Counter() for m in games}
    for mode, played in games.items():
        for g in played.values():
            for r in g.values():
                for step, kinds in r.mails:
                    asked_kinds[mode][f"{step}: {'+'.join(kinds)}"] += 1
    for mode, kinds in asked_kinds.items():
        print(f"\n{mode}: mail rounds by what was asked (all games):")
        for what, n in kinds.most_common(10):
            print(f"  {n:4d}  {what}")
    if args.text:
        for mode in MODES:
            kind = {"ahead": mode != "asked", "standing": mode == "standing", "expansion": box}
            engine = {k: len(v.mails) for k, v in games[mode].get((4, 1), {}).items()} or \
                {k: len(v.mails) for k, v in play(4, 1, **kind).items()}  # type: ignore[arg-type]
            folder = {k: len(v.mails) for k, v in play(4, 1, text=True, **kind).items()}  # type: ignore[arg-type]
            same = "the same" if engine == folder else f"DIFFERENT: engine {engine}, text {folder}"
            print(f"\ntext path, 4 players, seed 1, {mode}: {sum(folder.values())} mail rounds, {same} as engine-only")


if __name__ == "__main__":
    main()
