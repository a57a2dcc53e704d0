"""``maester simulate``: robot games through the whole product, and the soak."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import UserError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="play whole games with robot players and check every invariant")
    p.add_argument("--players", type=int, default=6, choices=(3, 4, 5, 6), help="number of houses (3-6)")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (games are reproducible)")
    p.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    p.add_argument("--out", type=Path, default=None, help="keep the game folder here (must not exist)")
    p.add_argument("--tides-of-battle", action="store_true", help="play with the Tides of Battle cards")
    p.add_argument("--engine-only", action="store_true",
                   help="answer the engine directly (no text, seals or reports): much faster")
    p.add_argument("--ahead", action="store_true",
                   help="robots answer every decision coming up for them before it is asked (and say the mail rounds)")
    p.add_argument("--soak", type=int, default=0, metavar="N",
                   help="play N engine-only games over every player count, with and without Tides of Battle")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..robots.simulate import simulate

    if args.soak < 0:
        raise UserError(f"--soak takes a number of games (1 or more), not {args.soak}")
    if args.soak:
        return soak(args.soak, args.seed)
    if args.out is not None and args.out.exists():
        raise UserError(f"{args.out} exists: --out needs a new folder")
    if args.rounds is not None and not 1 <= args.rounds <= 10:
        raise UserError("--rounds must be between 1 and 10")
    result = simulate(args.players, args.seed, rounds=args.rounds, out=args.out, tides_of_battle=args.tides_of_battle,
                      text=not args.engine_only, ahead=args.ahead)
    for p in result.problems:
        print(f"invariant broken: {p}")
    if result.folder is not None:
        print(f"game folder: {result.folder}")
    rounds = {r for r, _, _ in result.mail_rounds}
    if rounds:
        print(f"mail rounds: {len(result.mail_rounds)} in {len(rounds)} rounds "
              f"({len(result.mail_rounds) / len(rounds):.1f} a round)")
    print(result.final_line())
    return 1 if result.problems else 0


def soak(games: int, first_seed: int) -> int:
    """Play many engine-only games; print every error found and a summary line."""
    from ..robots.simulate import simulate

    errors = 0
    for i in range(games):
        players = 3 + i % 4
        tides = (i // 4) % 2 == 1
        seed = first_seed + i
        try:
            r = simulate(players, seed, tides_of_battle=tides, text=False)
            problems = r.problems
        except Exception:  # a crash is exactly what a soak looks for: report it, go on
            problems = ["crash:\n" + traceback.format_exc()]
        if problems:
            errors += 1
            print(f"game {i + 1} ({players} players, seed {seed}, tides {tides}):", *problems, sep="\n  ")
        if sys.stdout.isatty():
            print(f"\r{i + 1}/{games} games, {errors} with errors", end="", flush=True)
    if sys.stdout.isatty():
        print()
    print(f"{games} games played, {errors} with errors")
    return 1 if errors else 0
