"""Setup files: a game's start as data, shipped with the package or written by a moderator.

``maester new GAME --setup NAME|FILE`` starts a game from one (``docs/setups.md`` describes every
key). A setup names its box and changes that box's own setup: who plays, the areas out of play,
units, garrisons, neutral forces, Power tokens, tracks, supply, the house decks, the Westeros and
wildling decks, the number of rounds and the victory condition. Every key is optional; a key left
out keeps the box's value, and a table ``[count.N]`` holds what differs for N players. The file is
checked as a whole before anything is laid out, every error naming its line:

>>> setup = load_setup('''
... title = "The North alone"
... players = [4]
... blocked = ["highgarden"]
... rounds = 8
... ''', filename="north.toml")
>>> state = setup.new_game(["stark", "lannister", "greyjoy", "baratheon"], seed="doc")
>>> "highgarden" in state.impassable, state.last_round(), state.options["setup"]
(True, 8, 'The North alone')
>>> load_setup('players = [4]\\nrounds = 12\\n', filename="long.toml")
Traceback (most recent call last):
...
adjudicator.game.setup_file.SetupFileError: long.toml:2: rounds: a game has 1 to 10 rounds, not 12

The shipped setups (``data/setups/``) are named by their file's stem: :func:`setup_names`,
:func:`setup_named`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from ..util.resources import package_files
from ..util.suggest import close_matches
from .board import TRACKS, UNIT_TYPES, AreaId, Board, HouseId, StartingUnit
from .box_setup import Garrison, Layout, lay_out
from .boxes import DEFAULT_BOX, Box, box_named, box_names
from .cards import CARDS, HOUSE_DECKS
from .keyed_toml import DataFileError, KeyedReader
from .setup import SetupError, check_houses, named_houses
from .state import GameState
from .variants import box_changes, box_layout, laid_out_as_data, variant

__all__ = ["VICTORIES", "SetupFile", "SetupFileError", "load_setup", "read_setup", "setup_named", "setup_names",
           "setup_or_file"]

SETUP_FORMAT = 1

VICTORIES: dict[str, str] = {
    "castles": "the base game's: the first house to hold its target of castles and strongholds wins (R036)",
}
"""Every victory condition the engine knows, and what it is; a box that brings another adds it here."""

# The keys of a table that lays the board out: at the top for every count, in [count.N] for one.
LAYOUT_KEYS = ("houses", "blocked", "remove_units", "kings_court_overlay", "wildling_threat",
               "printed_neutral_forces", "tracks", "neutral_forces", "garrison", "house", "decks")
TOP_KEYS = ("setup_format", "title", "box", "players", "rounds", "victory", "victory_target", "house_cards",
            "count", *LAYOUT_KEYS)
HOUSE_KEYS = ("supply", "power", "units", "power_tokens")
UNIT_KEYS = ("area", "unit", "count")
GARRISON_KEYS = ("area", "strength", "house")
MAX_ROUNDS = 10  # the round track (R036)
MAX_NEUTRAL_FORCE = 9  # the strongest printed neutral force is 6
MAX_GARRISON = 6


class SetupFileError(DataFileError, SetupError):
    """A setup file that cannot start a game: names the file, the line and the key at fault."""


@dataclass(frozen=True)
class SetupFile:
    """One setup file, read and checked (:func:`load_setup`); :meth:`new_game` lays a game out from it."""

    name: str  # the file's stem: a shipped setup's name
    title: str  # as a game records it (options.setup) and its reports' header shows it
    box: Box
    players: tuple[int, ...]  # the counts it is played with
    rounds: int | None  # None: the box's
    victory: str
    victory_target: int | None  # None: the board's 7
    house_cards: str | None  # None: the table chooses
    tables: dict[int, dict[str, Any]]  # per count: the layout keys in force (the top's, then [count.N]'s)
    file: str
    lines: dict[tuple[str, ...], int] = field(repr=False, default_factory=dict)

    def fixed_houses(self, count: int) -> list[HouseId] | None:
        """The houses this setup seats for ``count`` players, or None when the table chooses."""
        houses = self.tables[count].get("houses")
        return list(houses) if houses is not None else None

    def new_game(self, houses: list[str] | None, *, seed: str, game_id: str = "game", tides_of_battle: bool = False,
                 house_cards: str | None = None) -> GameState:
        """The game at round 1 this setup lays out for ``houses`` (None: the houses it names).

        :raises SetupError: for houses it cannot seat or a house deck it does not deal.
        """
        count, in_play = self.seats(houses)
        deck = self.house_deck(house_cards)
        if not laid_out_as_data(self.box):  # a box whose setup is code: a file sets only the table (checked on reading)
            state = variant(self.box.name).setup(in_play, seed=seed, game_id=game_id, tides_of_battle=tides_of_battle,
                                                 house_cards=deck)
        else:
            board = self.box.board(in_play)
            layout = _Layer(self, count, board).layout(in_play, deck)
            state = lay_out(self.box, layout, board, seed=seed, game_id=game_id, tides_of_battle=tides_of_battle,
                            house_cards=deck)
            problems = state.check(board)
            if problems:
                raise SetupFileError(self.file, None, "", "the board cannot hold this setup: " + "; ".join(problems))
        state.options["setup"] = self.title
        if self.rounds is not None and self.rounds != self.box.rounds:
            state.options["rounds"] = self.rounds
        if self.victory_target is not None:
            state.options["victory_target"] = self.victory_target
        return state

    def seats(self, houses: list[str] | None) -> tuple[int, list[HouseId]]:
        """The count and the houses in play, canonical order; :raises SetupError: naming what would do."""
        if houses is None:
            fixed = [n for n in self.players if self.fixed_houses(n) is not None]
            if len(fixed) != 1 or len(self.players) != 1:
                seated = "; ".join(f"{n} players: {', '.join(h)}" for n in self.players
                                   if (h := self.fixed_houses(n)) is not None)  # fmt: skip
                raise SetupError(f"{self.title} is played by {_or(self.players)} players: name the houses with "
                                 f"--houses" + (f" ({seated})" if seated else ""))
            houses = self.fixed_houses(fixed[0])
            assert houses is not None
        wanted = named_houses(houses, self.box.houses)
        n = len(wanted)
        if n not in self.players:
            raise SetupError(f"{self.title} is played by {_or(self.players)} players, not {n}")
        fixed_houses = self.fixed_houses(n)
        if fixed_houses is not None:
            if sorted(wanted) != sorted(fixed_houses):
                raise SetupError(f"{self.title} with {n} players seats {', '.join(fixed_houses)}, "
                                 f"not {', '.join(wanted)}")
            return n, [h for h in self.box.houses if h in wanted]
        if self.box.has("vassals"):
            return n, [h for h in self.box.houses if h in wanted]  # its own setup checks them
        return n, check_houses(wanted, self.box.board(wanted))

    def house_deck(self, chosen: str | None) -> str:
        """The house deck dealt: the setup's, or the table's when the setup names none."""
        if chosen is not None and self.house_cards is not None and chosen != self.house_cards:
            raise SetupError(f"{self.title} deals the {self.house_cards} house cards, not {chosen}: "
                             "leave out --house-cards")
        return self.house_cards or chosen or "base"


def setups_folder() -> Any:
    return package_files("adjudicator.game").joinpath("data", "setups")


def setup_names() -> tuple[str, ...]:
    """The setups the package ships, by name."""
    return tuple(sorted(p.name.removesuffix(".toml") for p in setups_folder().iterdir() if p.name.endswith(".toml")))


def setup_named(name: str) -> SetupFile:
    """A shipped setup. :raises SetupError: for a name none has, with the names there are."""
    if name not in setup_names():
        close = close_matches(name, setup_names(), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise SetupError(f"no setup called {name!r}: {hint}the setups are {', '.join(setup_names())}, "
                         "or the path of a setup file")
    text = setups_folder().joinpath(f"{name}.toml").read_text("utf-8")
    return load_setup(text, filename=f"{name}.toml")


def setup_or_file(given: str) -> SetupFile:
    """``--setup``'s argument: a shipped setup's name, or a setup file's path."""
    if given in setup_names():
        return setup_named(given)
    path = Path(given)
    if path.suffix == ".toml" or path.exists():
        return read_setup(path)
    return setup_named(given)  # the error names the shipped ones


def read_setup(path: str | Path) -> SetupFile:
    """A setup file from disk. :raises SetupFileError: for a file that cannot be read or is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SetupFileError(str(path), None, "", f"cannot read the file: {e}") from None
    return load_setup(text, filename=str(path))


def load_setup(text: str, *, filename: str = "<setup>") -> SetupFile:
    """A setup file's text, read and checked. :raises SetupFileError: at the first fault, with its line."""
    return _Reader(text, filename).read()


# --- reading ------------------------------------------------------------------------------------


class _Reader(KeyedReader):
    """One pass over one file; every failure names the key and, where known, its line."""

    error = SetupFileError

    def number(self, d: dict[str, Any], key: str, path: str, low: int, high: int, what: str) -> int | None:
        value = self.get(d, key, path, int, None)
        if value is not None and not low <= value <= high:
            self.fail(f"{path}{key}", f"{what}, not {value}")
        return value  # type: ignore[no-any-return]

    def strings(self, d: dict[str, Any], key: str, path: str) -> list[str] | None:
        return self.str_list(d, key, path, None)

    def read(self) -> SetupFile:
        data = self.parse()
        self.known_keys(data, TOP_KEYS, "")
        self.whole_numbers(data)
        fmt = self.get(data, "setup_format", "", int, SETUP_FORMAT)
        if fmt != SETUP_FORMAT:
            self.fail("setup_format", f"this Maester reads setup format {SETUP_FORMAT}, not {fmt}")
        name = Path(self.file).name.removesuffix(".toml")
        box_name = self.get(data, "box", "", str, DEFAULT_BOX)
        if box_name not in box_names():
            self.fail("box", f"unknown box {box_name!r}; the boxes are {', '.join(box_names())}")
        box = box_named(box_name)
        board = box.board(box.houses)
        title = self.get(data, "title", "", str, name)
        counts = self.counts(data, box)
        rounds = self.number(data, "rounds", "", 1, MAX_ROUNDS, f"a game has 1 to {MAX_ROUNDS} rounds")
        victory = self.get(data, "victory", "", str, "castles")
        if victory not in VICTORIES:
            known = "; ".join(f"{k} ({v})" for k, v in VICTORIES.items())
            self.fail("victory", f"the engine knows no victory condition {victory!r}; it knows {known}")
        castles = sum(1 for a in board.areas.values() if a.fortification != "none")
        target = self.number(data, "victory_target", "", 1, castles,
                             f"the map has {castles} castles and strongholds: a target of 1 to {castles}")
        deck = self.get(data, "house_cards", "", str, None)
        if deck is not None and deck not in HOUSE_DECKS:
            self.fail("house_cards", f"unknown house deck {deck!r}; the house decks are {', '.join(HOUSE_DECKS)}")
        count_tables = self.get(data, "count", "", dict, {})
        self.known_keys(count_tables, tuple(str(n) for n in counts), "count.")
        top = {k: data[k] for k in LAYOUT_KEYS if k in data}
        tables = {}
        for n in counts:
            own = self.get(count_tables, str(n), "count.", dict, {})
            self.known_keys(own, LAYOUT_KEYS, f"count.{n}.")
            tables[n] = top | own
        if not laid_out_as_data(box) and any(tables.values()):
            self.fail(next(iter(k for t in tables.values() for k in t)),
                      f"the setup of {box.title} is its own code: a setup file for it sets only title, players, rounds, "
                      "victory, victory_target and house_cards")
        for n, table in tables.items():
            prefix = {k: (f"count.{n}." if k in count_tables.get(str(n), {}) else "") for k in table}
            _TableCheck(self, box, board, n, table, prefix).check()
        return SetupFile(name=name, title=title, box=box, players=counts, rounds=rounds, victory=victory,
                         victory_target=target, house_cards=deck, tables=tables, file=self.file, lines=self.lines)

    def counts(self, data: dict[str, Any], box: Box) -> tuple[int, ...]:
        possible = (3, 4, 5, 6, 7, 8) if box.has("vassals") else box_changes(box).players
        given = self.get(data, "players", "", list, None)
        if given is None:
            tables = self.get(data, "count", "", dict, {})
            given = [int(k) for k in tables if k.isdigit()] or list(possible)
        for n in given:
            if isinstance(n, bool) or not isinstance(n, int) or n not in possible:
                self.fail("players", f"{box.title} is played by {_or(possible)} players, not {n!r}")
        if len(set(given)) != len(given):
            self.fail("players", "names a count twice")
        return tuple(sorted(given))


class _TableCheck:
    """The layout keys in force for one count, checked against the box's map and pieces."""

    def __init__(self, reader: _Reader, box: Box, board: Board, count: int, table: dict[str, Any],
                 prefix: dict[str, str]) -> None:  # fmt: skip
        self.r, self.box, self.board, self.n, self.t, self.prefix = reader, box, board, count, table, prefix

    def key(self, k: str) -> str:
        return f"{self.prefix.get(k, '')}{k}"

    def area(self, a: Any, key: str) -> AreaId:
        if not isinstance(a, str) or a not in self.board.areas:
            close = close_matches(str(a), list(self.board.areas), n=1)
            self.r.fail(key, f"{a!r} is not an area of the map" + (f"; did you mean {close[0]!r}?" if close else ""))
        return a

    def check(self) -> None:
        t, r = self.t, self.r
        houses = r.strings(t, "houses", self.prefix.get("houses", ""))
        if houses is not None:
            try:
                wanted = named_houses(houses, self.box.houses)
            except SetupError as e:
                r.fail(self.key("houses"), str(e))
            if len(wanted) != self.n:
                r.fail(self.key("houses"), f"a {self.n}-player game seats {self.n} houses, not {len(wanted)}")
        in_play = houses or list(self.box.houses)  # the houses any table of this count may seat
        blocked = [self.area(a, self.key("blocked")) for a in r.strings(t, "blocked", self.prefix.get("blocked", "")) or []]
        for a in r.strings(t, "remove_units", self.prefix.get("remove_units", "")) or []:
            self.area(a, self.key("remove_units"))
        r.get(t, "kings_court_overlay", self.prefix.get("kings_court_overlay", ""), bool, None)
        r.get(t, "printed_neutral_forces", self.prefix.get("printed_neutral_forces", ""), bool, None)
        threat = r.get(t, "wildling_threat", self.prefix.get("wildling_threat", ""), int, None)
        if threat is not None and threat not in self.board.constants["wildling_track"]:
            r.fail(self.key("wildling_threat"), f"the wildling track has the spaces 0, 2, 4 ... 12, not {threat}")
        tracks = r.get(t, "tracks", self.prefix.get("tracks", ""), dict, {})
        r.known_keys(tracks, TRACKS, self.key("tracks") + ".")
        for track in tracks:
            order = r.strings(tracks, track, self.key("tracks") + ".") or []
            if houses is not None and sorted(order) != sorted(houses):
                r.fail(f"{self.key('tracks')}.{track}", f"must list each house in play once: {', '.join(houses)}")
            if houses is None and (len(set(order)) != len(order) or set(order) - set(self.box.houses)):
                r.fail(f"{self.key('tracks')}.{track}", f"lists each house once, of {', '.join(self.box.houses)}")
        forces = r.get(t, "neutral_forces", self.prefix.get("neutral_forces", ""), dict, {})
        for a in forces:
            key = f"{self.key('neutral_forces')}.{a}"
            self.area(a, key)
            if a in blocked:
                r.fail(key, f"{a} is blocked: a neutral force there would never be fought")
            r.number(forces, a, self.key("neutral_forces") + ".", 0, MAX_NEUTRAL_FORCE,
                     f"a neutral force has a strength of 0 (none) to {MAX_NEUTRAL_FORCE}")
        self.garrisons(in_play, blocked)
        self.houses(in_play, blocked)
        self.decks()

    def garrisons(self, in_play: list[str], blocked: list[str]) -> None:
        key = self.key("garrison")
        entries = self.r.get(self.t, "garrison", self.prefix.get("garrison", ""), list, [])
        for g in entries:
            if not isinstance(g, dict):
                self.r.fail(key, f"expected a table with {', '.join(GARRISON_KEYS)}, got {g!r}")
            self.r.known_keys(g, GARRISON_KEYS, key + ".")
            area = self.area(g.get("area"), key)
            if area in blocked:
                self.r.fail(key, f"a garrison in {area}, which is blocked")
            self.r.number(g, "strength", key + ".", 0, MAX_GARRISON, f"a garrison has a strength of 0 (none) to {MAX_GARRISON}")
            if g.get("house") not in in_play:
                self.r.fail(key, f"a garrison's house is one of {', '.join(in_play)}, not {g.get('house')!r}")

    def houses(self, in_play: list[str], blocked: list[str]) -> None:
        table = self.r.get(self.t, "house", self.prefix.get("house", ""), dict, {})
        for h, d in table.items():
            limit = self.board.power_cap(h)
            path = f"{self.key('house')}.{h}."
            if h not in in_play:
                self.r.fail(path[:-1], f"{h!r} is not a house this setup seats ({', '.join(in_play)})")
            if not isinstance(d, dict):
                self.r.fail(path[:-1], f"expected a table, got {d!r}")
            self.r.known_keys(d, HOUSE_KEYS, path)
            top = self.board.constants["supply_track_max"]
            self.r.number(d, "supply", path, 0, top, f"the supply track runs from 0 to {top}")
            power = self.r.number(d, "power", path, 0, limit, f"a house has 0 to {limit} Power tokens available") or 0
            tokens = [self.area(a, f"{path}power_tokens") for a in self.r.strings(d, "power_tokens", path) or []]
            for a in tokens:
                if a in blocked:
                    self.r.fail(f"{path}power_tokens", f"a Power token in {a}, which is blocked")
            if len(set(tokens)) != len(tokens):
                self.r.fail(f"{path}power_tokens", "names an area twice: one Power token an area")
            if power + len(tokens) > limit:
                self.r.fail(f"{path}power", f"{h} has {limit} Power tokens: {power} available and {len(tokens)} "
                            "on the board are more")
            counted: Counter[str] = Counter()
            for u in self.r.get(d, "units", path, list, []):
                if not isinstance(u, dict):
                    self.r.fail(f"{path}units", f"expected a table with {', '.join(UNIT_KEYS)}, got {u!r}")
                self.r.known_keys(u, UNIT_KEYS, f"{path}units.")
                area = self.area(u.get("area"), f"{path}units")
                unit = u.get("unit")
                types = [k for k in UNIT_TYPES if self.board.unit_limit(k, h)]
                if unit not in types:
                    self.r.fail(f"{path}units", f"unknown unit {unit!r}; the units are {', '.join(types)}")
                if area in blocked:
                    self.r.fail(f"{path}units", f"{h}'s {unit} in {area}, which is blocked")
                most = self.board.unit_limit(unit, h)
                n = self.r.number(u, "count", f"{path}units.", 1, most, f"a count of 1 to {most} (the {unit}s {h} has)") or 1
                counted[unit] += n
                if counted[unit] > self.board.unit_limit(unit, h):
                    self.r.fail(f"{path}units", f"{counted[unit]} {unit}s: {h} has {self.board.unit_limit(unit, h)}")

    def decks(self) -> None:
        table = self.r.get(self.t, "decks", self.prefix.get("decks", ""), dict, {})
        names = {f"westeros_{n}": n for n in self.box.westeros_decks}
        self.r.known_keys(table, (*names, "wildling"), self.key("decks") + ".")
        for name in table:
            key = f"{self.key('decks')}.{name}"
            given = self.r.strings(table, name, self.key("decks") + ".") or []
            if not given:
                self.r.fail(key, "a deck needs a card at least")
            box = Counter(sorted(CARDS.wildling_cards) if name == "wildling" else CARDS.westeros_deck(names[name], self.box.westeros_set(names[name])))
            for card, n in Counter(given).items():
                if card not in box:
                    close = close_matches(card, list(box), n=1)
                    hint = f"did you mean {close[0]!r}? " if close else ""
                    self.r.fail(key, f"{card!r} is not a card of that deck; {hint}its cards are {', '.join(sorted(box))}")
                if n > box[card]:
                    self.r.fail(key, f"{card!r} {n} times: the box has {box[card]}")


# --- laying out -----------------------------------------------------------------------------------


class _Layer:
    """The box's layout for a count, with one setup file's table for that count laid over it."""

    def __init__(self, setup: SetupFile, count: int, board: Board) -> None:
        self.s, self.t, self.board = setup, setup.tables[count], board

    def fail(self, key: str, message: str) -> NoReturn:
        parts = tuple(key.split("."))
        line = next((self.s.lines[parts[:i]] for i in range(len(parts), 0, -1) if parts[:i] in self.s.lines), None)
        raise SetupFileError(self.s.file, line, key, message)

    def layout(self, in_play: list[HouseId], deck: str) -> Layout:
        t, board = self.t, self.board
        base = box_layout(self.s.box, board, in_play, deck)
        printed = board.setups.get(len(in_play))
        tracks = dict(base.tracks)
        if printed is None or set(printed.houses) != set(in_play):  # houses the printed count does not seat
            tracks = {k: tuple(h for h in board.setups[max(board.setups)].tracks[k] if h in in_play) for k in TRACKS}
        tracks |= {k: tuple(v) for k, v in t.get("tracks", {}).items()}
        blocked = tuple(sorted(set(base.blocked) | set(t.get("blocked", ()))))
        removed = set(t.get("remove_units", ()))
        neutral = dict(base.neutral_forces) if t.get("printed_neutral_forces", True) else {}
        neutral = {a: n for a, n in (neutral | t.get("neutral_forces", {})).items() if n and a not in blocked}
        garrisons = {g.area: g for g in base.garrisons}
        garrisons |= {g["area"]: Garrison(g["area"], g["strength"], g["house"]) for g in t.get("garrison", ())}
        houses = {}
        for h in in_play:
            start, given = base.houses[h], t.get("house", {}).get(h, {})
            units = tuple(StartingUnit(u["area"], u["unit"], u.get("count", 1)) for u in given["units"]) \
                if "units" in given else tuple(u for u in start.units if u.area not in removed)  # fmt: skip
            for u in units:
                if u.area in blocked:
                    self.fail("blocked", f"{u.area} is blocked but {h}'s {u.unit} starts there: take it out of "
                              f"blocked, or give {h}'s units (house.{h}.units)")
            tokens = tuple(given.get("power_tokens", start.power_tokens))
            for a in tokens:
                if a in blocked:
                    self.fail("blocked", f"{a} is blocked but holds {h}'s Power token")
            houses[h] = replace(start, units=units, power_tokens=tokens, supply=given.get("supply", start.supply),
                                power=given.get("power", start.power))
        for g in garrisons.values():
            if g.strength and g.area in blocked:
                self.fail("blocked", f"{g.area} is blocked but holds {g.house}'s garrison")
        decks = {k.removeprefix("westeros_"): tuple(v) for k, v in t.get("decks", {}).items()}
        return replace(
            base, tracks=tracks, houses=houses, blocked=blocked, neutral_forces=neutral,
            garrisons=tuple(g for g in garrisons.values() if g.strength),
            kings_court_overlay=t.get("kings_court_overlay", base.kings_court_overlay),
            wildling_threat=t.get("wildling_threat", base.wildling_threat), deck_cards=decks,
        )


def _or(counts: tuple[int, ...] | list[int]) -> str:
    n = [str(c) for c in counts]
    return f"{', '.join(n[:-1])} or {n[-1]}" if len(n) > 1 else "".join(n)



