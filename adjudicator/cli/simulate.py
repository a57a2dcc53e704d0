"""``maester simulate``: robot games through the whole product, and the soak."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import UserError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="play whole games with robot players and check every invariant")
    p.add_argument("--players", type=int, default=None, choices=range(3, 9), metavar="{3..8}",
                   help="number of players: 3-6, or 3-8 with Mother of Dragons (7 and 8 play it); "
                   "default 6, or a setup's largest count")
    p.add_argument("--expansion", metavar="NAME",
                   help="play an expansion: mother-of-dragons, or the scenario a-dance-with-dragons (6 players)")
    p.add_argument("--setup", metavar="NAME|FILE",
                   help="start from a shipped setup or a setup file (docs/setups.md); --players picks its count")
    p.add_argument("--without-targaryen", action="store_true",
                   help="with Mother of Dragons, no player takes Targaryen (it plays with 4-7 players otherwise)")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (games are reproducible)")
    p.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    p.add_argument("--out", type=Path, default=None, help="keep the game folder here (must not exist)")
    p.add_argument("--tides-of-battle", action="store_true", help="play with the Tides of Battle cards")
    p.add_argument("--house-cards", choices=("base", "adwd"), default="base",
                   help="the house decks dealt: base, or adwd (A Dance with Dragons' cards)")
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
    expansion = _expansion(args.expansion, args.without_targaryen)
    players = 6 if args.players is None else args.players
    if args.setup is not None:
        players = _setup_players(args.setup, args.players)
    result = simulate(players, args.seed, rounds=args.rounds, out=args.out, tides_of_battle=args.tides_of_battle,
                      text=not args.engine_only, ahead=args.ahead, expansion=expansion,
                      targaryen=not args.without_targaryen, house_cards=args.house_cards, setup=args.setup)
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


def _setup_players(name: str, players: int | None) -> int:
    """The count a setup is simulated with: ``--players`` when given, else its only (or largest) count."""
    from ..game.setup import SetupError
    from ..game.setup_file import setup_or_file

    try:
        chosen = setup_or_file(name)
    except SetupError as e:
        raise UserError(str(e)) from None
    if players is None:
        return chosen.players[-1]
    if players not in chosen.players:
        raise UserError(f"{chosen.title} is played by {', '.join(map(str, chosen.players))} players, not {players}")
    return players


def _expansion(name: str | None, without_targaryen: bool) -> str | None:
    from ..folder.gamedir import GameDirError, check_expansion

    if name is None:
        if without_targaryen:
            raise UserError("--without-targaryen belongs to Mother of Dragons: give --expansion mother-of-dragons too")
        return None
    try:
        return check_expansion(name)
    except GameDirError as e:
        raise UserError(str(e)) from None


# The soak's round of game kinds: the base game for 3-6 players, then Mother of Dragons for 3-8 players
# with Targaryen where it may play and without, then A Dance with Dragons for six, then each shipped
# community setup for each of its counts, and the official setups' own files (data/setups/); each kind
# with and without Tides of Battle in turn.
SOAK_KINDS: tuple[tuple[int, str | None, bool, str | None], ...] = (
    *((n, None, False, None) for n in range(3, 7)),
    *((n, "mother-of-dragons", True, None) for n in range(4, 9)),
    *((n, "mother-of-dragons", False, None) for n in range(3, 8)),
    (6, "a-dance-with-dragons", False, None),
    (4, None, False, "base-game"),
    (5, None, True, "mother-of-dragons"),
    (6, None, False, "a-dance-with-dragons"),
    (4, None, False, "struggle-in-the-north"),
    (5, None, False, "struggle-in-the-north"),
    (4, None, False, "rumble-in-the-south"),
    (5, None, False, "race-to-kings-landing"),
    (5, None, False, "no-kraken-for-dinner"),
)


def soak(games: int, first_seed: int) -> int:
    """Play many engine-only games; print every error found and a summary line."""
    from ..robots.simulate import simulate

    errors = 0
    for i in range(games):
        players, expansion, targaryen, setup = SOAK_KINDS[i % len(SOAK_KINDS)]
        tides = (i // len(SOAK_KINDS)) % 2 == 1
        seed = first_seed + i
        try:
            r = simulate(players, seed, tides_of_battle=tides, text=False, expansion=expansion, targaryen=targaryen,
                         setup=setup)
            problems = r.problems
        except Exception:  # a crash is exactly what a soak looks for: report it, go on
            problems = ["crash:\n" + traceback.format_exc()]
        if problems:
            errors += 1
            kind = f", {expansion}{'' if targaryen or players == 8 else ' without Targaryen'}" if expansion else ""
            kind += f", setup {setup}" if setup else ""
            print(f"game {i + 1} ({players} players{kind}, seed {seed}, tides {tides}):", *problems, sep="\n  ")
        if sys.stdout.isatty():
            print(f"\r{i + 1}/{games} games, {errors} with errors", end="", flush=True)
    if sys.stdout.isatty():
        print()
    print(f"{games} games played, {errors} with errors")
    return 1 if errors else 0
