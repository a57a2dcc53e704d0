"""The table settings a group chooses before a game: the round limit, the victory target and random
houses (the house decks and Tides of Battle are chosen as the game is laid out).

``maester new GAME --rounds N --victory-target N --random-houses SEAT,SEAT,...`` records each in the
state's options (and so in ``game.toml``); every report's header names them. A setting left out is
not written at all, so a game without one is the rulebook's, byte for byte (ruling 445).

>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> apply_settings(state, TableSettings(rounds=8, random_houses=("ann", "bo", "cy")))
>>> state.last_round(), state.options["random_houses"]
(8, {'ann': 'stark', 'bo': 'baratheon', 'cy': 'lannister'})
>>> apply_settings(state, TableSettings(rounds=11))
Traceback (most recent call last):
...
adjudicator.game.setup.SetupError: --rounds 11: the round track has 10 spaces: a round limit of 1 to 10

Random houses are drawn from the committed seed, apart from every shuffle of the game
(:func:`seat_houses`), so ``maester replay`` after ``maester reveal`` shows that the moderator did not
choose them (ruling 450).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .board import Board
from .rng import shuffled
from .setup import SetupError
from .state import GameState

ROUND_TRACK = 10  # the round track's spaces (R036): no game may last longer
SEAT_DRAW = -1  # the counter of the seat draw: every shuffle of a game uses 0 and up (ruling 450)
SEAT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._@+'-]{0,39}")  # matched whole (fullmatch)
SETTING_KEYS = ("house_cards", "tides_of_battle", "rounds", "victory_target", "random_houses", "setup")
"""The options a table chooses at the start and may never change (ruling 449)."""


@dataclass(frozen=True)
class TableSettings:
    """What ``maester new`` was asked for beyond the box and its houses; None: not chosen."""

    rounds: int | None = None
    victory_target: int | None = None
    random_houses: tuple[str, ...] | None = None  # the seats, in the order the moderator named them


def seat_names(given: str) -> tuple[str, ...]:
    """``--random-houses``' argument: the seats, trimmed, each named once.

    :raises SetupError: for an empty, odd or repeated name, saying what a name may be.
    """
    seats = tuple(s.strip() for s in given.split(","))
    for s in seats:
        if not SEAT_NAME.fullmatch(s):
            raise SetupError(f"--random-houses: {s!r} cannot name a seat: give 1 to 40 letters, digits, spaces and "
                             "._@+'- (starting with a letter or digit), one seat a player, separated by commas")
    folded = [s.lower() for s in seats]
    for i, s in enumerate(seats):
        if s.lower() in folded[:i]:
            first = seats[folded.index(s.lower())]
            same = f"the seat {s!r} is named twice" if first == s else f"the seats {first!r} and {s!r} are the same"
            raise SetupError(f"--random-houses: {same} (names are told apart without regard to case); each player sits once")
    return seats


def seat_houses(seed: str, seats: tuple[str, ...] | list[str], houses: list[str]) -> dict[str, str]:
    """Which house each seat plays: the houses in their canonical order, shuffled by the seed's own
    draw (counter -1, which no shuffle of the game uses), dealt to the seats in the order named."""
    drawn = shuffled(seed, list(houses), SEAT_DRAW)
    return dict(zip(seats, drawn, strict=True))


def check_rounds(rounds: int, box_rounds: int) -> int | None:
    """The round limit to record: None when it is the box's own (the game is then the box's, byte for byte).

    :raises SetupError: outside the round track.
    """
    if not 1 <= rounds <= ROUND_TRACK:
        raise SetupError(f"--rounds {rounds}: the round track has {ROUND_TRACK} spaces: a round limit of 1 to {ROUND_TRACK}")
    return None if rounds == box_rounds else rounds


def target_range(state: GameState, board: Board) -> tuple[int, int]:
    """The victory targets a game can be played to (ruling 447): above what any house holds at the
    start (else it would have won before its first order) and at most the castles and strongholds in play."""
    in_play = [a for a in board.areas.values() if a.fortification != "none" and a.id not in state.impassable]
    held = max((state.castles(h, board) for h in state.players()), default=0)
    return held + 1, len(in_play)


def check_victory_target(state: GameState, board: Board, target: int) -> int | None:
    """The victory target to record: None when it is the board's own seven.

    :raises SetupError: for a target no house can reach, one every house holds already, or a game
        whose Targaryen wins by its victory track (ruling 448), or a box won by objectives (ruling 452).
    """
    if target == int(board.constants["castles_needed_to_win"]):
        return None
    if "targaryen" in state.players():
        raise SetupError(f"--victory-target {target}: Targaryen wins on space 7 of its victory track by loyalty tokens "
                         "and Pentos, never by castles (M076, M080), so a target of castles cannot be changed with "
                         "Targaryen in play (ruling 448); play without Targaryen or leave out --victory-target")
    if state.box.has("objectives"):
        raise SetupError(f"--victory-target {target}: this box is won by points of objectives, not by castles and "
                         "strongholds (F045), so a target of castles means nothing in it and cannot be set "
                         "(ruling 452); leave out --victory-target")
    low, high = target_range(state, board)
    if not low <= target <= high:
        raise SetupError(f"--victory-target {target}: this game has {high} castles and strongholds in play and a "
                         f"house holds {low - 1} at the start: a target of {low} to {high} (ruling 447)")
    return target


def apply_settings(state: GameState, settings: TableSettings, board: Board | None = None) -> None:
    """Record the settings in a new game's options, each checked first (nothing is written on an error).

    :raises SetupError: for a round limit off the track, a target out of reach, or seats that do not
        match the houses in play.
    """
    board = board or state.box.board(state.houses_in_play)
    options: dict[str, Any] = {}
    if settings.rounds is not None and (rounds := check_rounds(settings.rounds, state.box.rounds)) is not None:
        if rounds < state.round:
            raise SetupError(f"--rounds {rounds}: this position is in round {state.round} already: a round limit of "
                             f"{state.round} to {ROUND_TRACK}")
        options["rounds"] = rounds
    if settings.victory_target is not None:
        target = check_victory_target(state, board, settings.victory_target)
        if target is not None:
            options["victory_target"] = target
    if settings.random_houses is not None:
        players = state.players()
        if len(settings.random_houses) != len(players):
            raise SetupError(f"--random-houses names {len(settings.random_houses)} seats for {len(players)} houses "
                             f"({', '.join(players)}): name one seat a house")
        options["random_houses"] = seat_houses(state.rng_seed, settings.random_houses, players)
    state.options.update(options)


def setting_difference(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, str, str] | None:
    """The first table setting two options tables disagree on, as (key, before, after) in words, or
    None. A setting left out is its default (``tides_of_battle`` false)."""
    for key in SETTING_KEYS:
        was, now = before.get(key), after.get(key)
        if key == "tides_of_battle":
            was, now = bool(was), bool(now)
        if was != now:
            return key, _shown(was), _shown(now)
    return None


def changed_settings(recorded: dict[str, Any], state: GameState) -> str | None:
    """What differs between the settings ``game.toml`` records and those the game was set up with
    (ruling 449), or None."""
    differ = setting_difference(state.options, recorded)
    if differ is None:
        return None
    key, was, now = differ
    return (f"game.toml's [game] options say {key} = {now}, but this game was set up with {was}: a table "
            f"setting is chosen before the game and cannot change during it (ruling 449); put it back as "
            f"{key} = {was}, or start a new game with the setting")


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {v}" for k, v in value.items()) + "}"
    return repr(value) if isinstance(value, str) else str(value)


def seats_text(state: GameState) -> str:
    """The header's words for random houses: ``Random houses: Ann plays Lannister, Bo plays Baratheon``;
    empty without."""
    seats = state.options.get("random_houses")
    if not isinstance(seats, dict) or not seats:
        return ""
    return "Random houses: " + ", ".join(f"{seat} plays {str(house).title()}" for seat, house in seats.items())


def random_seats_check(setup: GameState, seed: str) -> tuple[bool, str] | None:
    """What the audit says of a game's random houses with its revealed seed (ruling 450): None without
    them, else whether they are the seed's draw and the words saying so."""
    seats = setup.options.get("random_houses")
    if seats is None:
        return None
    if not isinstance(seats, dict) or sorted(map(str, seats.values())) != sorted(setup.players()):
        return False, "the setup's random_houses do not deal each house in play to one seat"
    drawn = seat_houses(seed, [str(s) for s in seats], setup.players())
    if drawn != seats:
        return False, (f"the setup's random houses are not the revealed seed's draw: it deals {_shown(drawn)}, "
                       f"the setup says {_shown(seats)} (ruling 450)")
    return True, "the random houses are the revealed seed's draw: the moderator did not choose them (ruling 450)"
