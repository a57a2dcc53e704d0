"""``maester new | show``: create a game folder, and show where a game stands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..folder import gamedir
from ..game.cards import HOUSE_DECKS
from ..game.position import PositionError
from ..game.position_dump import dump_position
from ..game.setup import SetupError
from ..game.setup_file import setup_names
from ..game.table_settings import TableSettings, seat_names
from ..reports import show
from . import UserError


def register(subparsers: Any) -> None:
    """Add ``new`` and ``show`` to the ``maester`` parser."""
    p = subparsers.add_parser(
        "new", help="create a game folder",
        description="Create GAME_DIR with game.toml, state.toml, secret/seed and the empty folders "
        "inbox/, archive/, reports/ and states/. Nothing is written when any argument is wrong.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--houses", metavar="H,H,...", help="the houses playing, e.g. stark,lannister,baratheon")
    p.add_argument("--game-id", metavar="ID", help="the game's id (default: the folder's name); lower-case letters, digits, -_.")
    p.add_argument("--seed", metavar="SEED", help="the secret seed of every shuffle (default: a fresh random one)")
    p.add_argument("--tides-of-battle", action="store_true", help="play with the Tides of Battle cards")
    p.add_argument("--expansion", metavar="NAME",
                   help="play an expansion: mother-of-dragons (3-8 players; the houses are the players'), "
                   "or the scenarios a-dance-with-dragons (the six base houses, six rounds) and "
                   "a-feast-for-crows (Stark, Lannister, Baratheon and Arryn, objectives)")
    p.add_argument("--house-cards", metavar="DECK", choices=sorted(HOUSE_DECKS),
                   help="the house decks dealt: base (the default) or adwd (A Dance with Dragons' cards; with "
                   "Mother of Dragons also Arryn's A Feast for Crows cards and Targaryen's set B)")
    p.add_argument("--alternate-house-cards", action="store_true",
                   help="Mother of Dragons' alternate house-card set (M123): the same as --house-cards adwd")
    p.add_argument("--rounds", type=int, metavar="N",
                   help="the round limit, 1 to 10 (default: the box's: 10, or A Dance with Dragons' 6)")
    p.add_argument("--victory-target", type=int, metavar="N",
                   help="the castles and strongholds that win at once (default 7; not with Targaryen, nor in a box "
                   "won by objectives: A Feast for Crows)")
    p.add_argument("--random-houses", metavar="SEAT,SEAT,...",
                   help="deal the houses in play to these seats (players' names) by the committed seed: "
                   "'maester replay' shows the draw after 'maester reveal'")
    p.add_argument("--position", type=Path, metavar="FILE", help="start from this position file (docs/positions.md)")
    p.add_argument("--setup", metavar="NAME|FILE",
                   help="start from a shipped setup (" + ", ".join(setup_names()) + ") or a setup file (docs/setups.md)")
    p.add_argument("--force", action="store_true",
                   help="reuse an existing non-empty folder: replaces [game], the state and the seed; keeps other files")
    p.set_defaults(handler=cmd_new)

    p = subparsers.add_parser("show", help="show where a game stands",
                              description="Print the game's state: a readable summary, JSON, or a position file.")
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the JSON view (docs/state-json.md)")
    fmt.add_argument("--position", action="store_true",
                     help="print the state as a position file (holds the deck order and the seed: keep it private)")
    p.set_defaults(handler=cmd_show)


def cmd_new(args: argparse.Namespace) -> int:
    houses = args.houses.split(",") if args.houses else None
    house_cards = args.house_cards
    if args.alternate_house_cards:
        if not args.expansion:
            raise UserError("--alternate-house-cards belongs to an expansion: give --expansion mother-of-dragons too, "
                            "or --house-cards adwd for A Dance with Dragons' cards in a base game")
        if house_cards not in (None, "adwd"):
            raise UserError(f"--alternate-house-cards deals the adwd house cards, not {house_cards}: give one of the two")
        house_cards = "adwd"
    try:
        settings = TableSettings(rounds=args.rounds, victory_target=args.victory_target,
                                 random_houses=seat_names(args.random_houses) if args.random_houses is not None else None)
        gd = gamedir.create_game(
            args.game_dir, houses=houses, game_id=args.game_id, seed=args.seed,
            tides_of_battle=args.tides_of_battle, position=args.position, force=args.force,
            expansion=args.expansion, house_cards=house_cards, setup=args.setup, settings=settings,
        )
        info = gd.info()
    except (gamedir.GameDirError, SetupError, PositionError) as e:
        raise UserError(str(e)) from None
    except OSError as e:  # a parent that is a file, a folder we may not write
        raise UserError(f"{e.filename or args.game_dir}: {e.strerror}") from None
    print(f"created game {info.id!r} in {gd.root} for {', '.join(info.houses)}"
          + (f" with {info.expansion}" if info.expansion else ""))
    seats = gd.load_state().options.get("random_houses")
    if seats:
        print("random houses: " + ", ".join(f"{seat} plays {house.title()}" for seat, house in seats.items()))
    print(f"seed commitment: {info.seed_commitment} (the seed itself is in {gd.seed_file}; keep it secret)")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    try:
        state = gamedir.GameDir.open(args.game_dir).load_state()
    except gamedir.GameDirError as e:
        raise UserError(str(e)) from None
    if args.json:
        sys.stdout.write(show.to_json(state))
    elif args.position:
        sys.stdout.write(dump_position(state))
    else:
        sys.stdout.write(show.summary(state))
    return 0
