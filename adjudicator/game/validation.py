"""Checking a saved state before it is used: every key of its type, every name one the box knows.

A state file may be damaged or edited by hand, and a state arrives in mail too (``maester check``):
:func:`validate_dict` reads it key by key and names the first key at fault, before
:class:`~adjudicator.game.state.GameState` builds anything from it. :func:`validate_engine` does the
same for the engine's own records (open requests, standing answers, a half-resolved phase). A state
of an expansion is checked against its own box: its houses, its map, its cards and its own keys.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .board import ALL_HOUSES, TRACKS, UNIT_TYPES, Board
from .boxes import DEFAULT_BOX, Box, box_named, box_names
from .cards import CARDS, HOUSE_DECKS, dealt_sets
from .commands import ALL_ORDER_TOKENS
from .hooks import hooked

PHASES = ("westeros", "planning", "action", "game_over")
# Where inside a phase the game stands (docs/positions.md); "" is the phase's start. Each is a
# point where the engine starts a segment, so each can be written down as a position file.
STEPS = {
    "westeros": ("", "threat", "card_1", "card_2", "card_3"),  # cards revealed; threat moved, deck N next
    "planning": ("", "raven"),  # orders revealed, the Messenger Raven next
    "action": ("", "raids", "marches", "consolidate"),  # a cycle of orders (cycle_done: who has resolved one)
    "game_over": ("",),
}
CYCLE_STEPS = ("raids", "marches", "consolidate")
TABLES_SINCE = 3
"""The first state format that holds a box's own parts in a table of its own (ruling 341): a state
written before it (schema version 2) holds them at its top level, and a game begun so goes on so."""
IMPROVEMENT_TOKENS = ("+supply", "+power", "+stronghold", "-castle", "-supply", "-power")
"""Mother of Dragons' improvement (``+``) and degradation (``-``) tokens on an area (M119, M120)."""


def box_table(d: dict[str, Any], box: Box) -> tuple[Any, str]:
    """Where a state dict holds its box's own keys, and their path in a message: the box's state table
    (``mother_of_dragons.``), or, in a state written before boxes had tables, its top level (ruling 341).

    >>> old = {"schema_version": 2, "variant": "mother-of-dragons", "vassals": ["tyrell"]}
    >>> box_table(old, box_named("mother-of-dragons"))
    ({'schema_version': 2, 'variant': 'mother-of-dragons', 'vassals': ['tyrell']}, '')
    >>> box_table({"schema_version": 3, "mother_of_dragons": {"vassals": []}}, box_named("mother-of-dragons"))
    ({'vassals': []}, 'mother_of_dragons.')
    """
    version = d.get("schema_version", TABLES_SINCE)
    if not box.state_table or (is_int(version) and version < TABLES_SINCE):
        return d, ""
    return d.get(box.state_table, {}), f"{box.state_table}."


def box_keys(d: dict[str, Any]) -> dict[str, Any]:
    """The box's own keys of a state dict read as it lies in a file, or {} (no box table, or none
    readable: the state's check says why). For a reader that needs one key and not the whole state.

    >>> box_keys({"schema_version": 3, "variant": "mother-of-dragons", "mother_of_dragons": {"leaving": ["stark"]}})
    {'leaving': ['stark']}
    >>> box_keys({"schema_version": 2, "variant": "mother-of-dragons", "leaving": ["stark"]})["leaving"]
    ['stark']
    """
    name = d.get("variant", DEFAULT_BOX)
    if not isinstance(name, str) or name not in box_names() or not box_named(name).state_table:
        return {}
    table, _ = box_table(d, box_named(name))
    return table if isinstance(table, dict) else {}


def box_keys_changed(d: dict[str, Any], **keys: Any) -> dict[str, Any]:
    """A copy of a state dict with these of its box's own keys set, where its format holds them.

    >>> box_keys_changed({"schema_version": 3, "variant": "mother-of-dragons"}, leaving=["stark"])
    {'schema_version': 3, 'variant': 'mother-of-dragons', 'mother_of_dragons': {'leaving': ['stark']}}
    """
    box = box_named(d.get("variant", DEFAULT_BOX))
    table, path = box_table(d, box)
    if not path:
        return {**d, **keys}
    return {**d, box.state_table: {**table, **keys}}


class StateError(ValueError):
    """A saved state that cannot be read: names the key at fault and what it should hold."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class MissingKey(StateError, KeyError):
    """A saved state without a key it must have."""


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


class Shape:
    """Typed reads of one state dict; the first fault raises :class:`StateError` with its key (a box's
    own checks of its state table read with it too, at the ``state_checked`` hook point)."""

    show = staticmethod(_show)  # a value as a message quotes it, cut short

    def fail(self, key: str, message: str) -> NoReturn:
        raise StateError(f"{key}: {message}")

    def get(self, d: dict[str, Any], key: str, path: str, kind: type, default: Any, *, required: bool = False) -> Any:
        if key not in d:
            if required:
                raise MissingKey(f"{path}{key}: missing")
            return default
        v = d[key]
        if (kind is int and not is_int(v)) or not isinstance(v, kind):
            self.fail(path + key, f"expected {_KIND_NAMES[kind]}, got {_show(v)}")
        return v

    def number(self, d: dict[str, Any], key: str, path: str, low: int, high: int | None = None, *,
               required: bool = False) -> None:  # fmt: skip
        v = self.get(d, key, path, int, low, required=required)
        if v < low or (high is not None and v > high):
            self.fail(path + key, f"expected a whole number from {low}" + (f" to {high}" if high is not None else
                                                                            " up") + f", got {v}")  # fmt: skip

    def names(self, d: dict[str, Any], key: str, path: str, known: Any, what: str) -> list[str]:
        values = self.get(d, key, path, list, [])
        for v in values:
            if not isinstance(v, str) or v not in known:
                self.fail(path + key, f"{_show(v)} is not {what}")
        return list(values)

    def table(self, d: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        return dict(self.get(d, key, path, dict, {}))


_KIND_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "a table"}


def validate_dict(d: Any) -> None:
    """Check a state dict (as :meth:`GameState.to_dict` writes it) before it is read.

    Unknown keys are left alone (a public report adds some); every key the state reads must have
    its type, and every house, area, unit, order and card it names must exist.

    >>> validate_dict({"round": 1, "phase": "lunch", "houses_in_play": [], "tracks": {}, "houses": {}})
    Traceback (most recent call last):
    ...
    adjudicator.game.validation.StateError: phase: 'lunch' is not a phase (westeros, planning, action, game_over)

    :raises StateError: naming the first key at fault.
    """
    sh = Shape()
    if not isinstance(d, dict):
        sh.fail("state", f"expected a table, got {_show(d)}")
    variant = sh.get(d, "variant", "", str, DEFAULT_BOX)
    if variant not in box_names():
        sh.fail("variant", f"{_show(variant)} is not a variant ({', '.join(box_names())})")
    box = box_named(variant)
    known_houses = box.houses
    units = UNIT_TYPES if box.has("dragons") else tuple(u for u in UNIT_TYPES if u != "dragon")  # Targaryen's
    board = Board.classic()  # the constants every variant shares, until the houses name the map
    sh.get(d, "game_id", "", str, "")
    options = sh.table(d, "options", "")
    sh.number(options, "rounds", "options.", 1, board.constants["rounds"])  # a table setting (ruling 440)
    sh.get(options, "setup", "options.", str, "")
    sh.number(d, "round", "", 1, options.get("rounds", box.rounds), required=True)
    phase = sh.get(d, "phase", "", str, "", required=True)
    if phase not in PHASES:
        sh.fail("phase", f"{_show(phase)} is not a phase ({', '.join(PHASES)})")
    if "houses_in_play" not in d:
        raise MissingKey("houses_in_play: missing")
    in_play = sh.names(d, "houses_in_play", "", known_houses, f"a house ({', '.join(known_houses)})")
    if not in_play or len(set(in_play)) != len(in_play):
        sh.fail("houses_in_play", "expected each house in play once")
    board = box.board(in_play)
    sh.number(options, "victory_target", "options.", 1, sum(a.fortification != "none" for a in board.areas.values()))
    tracks = sh.get(d, "tracks", "", dict, {}, required=True)
    for t in TRACKS:
        order = sh.names(tracks, t, "tracks.", in_play, "a house in play")
        if sorted(order) != sorted(in_play):
            sh.fail(f"tracks.{t}", f"expected each house in play once: {', '.join(in_play)}")
    deck = options.get("house_cards", "base")
    if deck not in HOUSE_DECKS:
        sh.fail("options.house_cards", f"{_show(deck)} is not a house deck ({', '.join(HOUSE_DECKS)})")
    houses = sh.get(d, "houses", "", dict, {}, required=True)
    for h in in_play:
        if h not in houses:
            raise MissingKey(f"houses.{h}: missing")
    for h, hs in houses.items():
        path = f"houses.{h}."
        if h not in in_play:
            sh.fail(f"houses.{h}", "not a house in play")
        if not isinstance(hs, dict):
            sh.fail(f"houses.{h}", f"expected a table, got {_show(hs)}")
        sh.number(hs, "power", path, 0, board.constants["power_tokens_max_per_house"])
        sh.number(hs, "supply", path, 0, board.constants["supply_track_max"])
        own = _own_cards(h, dealt_sets(box.card_sets, deck))
        sh.names(hs, "hand", path, own, f"a house card of {h}")
        sh.names(hs, "discards", path, own, f"a house card of {h}")
        sh.names(hs, "loans", path, CARDS.loans if box.has("iron_bank") else (), "a loan of the Iron Bank")
        sh.names(hs, "removed", path, own if box.expansion else (), f"a house card of {h} removed from the game")
    _validate_areas(sh, d, in_play, board, units)
    sh.names(d, "impassable", "", board.areas, "an area")
    threat = sh.get(d, "wildling_threat", "", int, 2)
    if threat not in board.constants["wildling_track"]:
        sh.fail("wildling_threat", f"expected a space of the wildling track (0, 2 ... 12), got {threat}")
    for flag in ("blade_used", "raven_used", "kings_court_overlay"):
        sh.get(d, flag, "", bool, False)
    sh.names(d, "restrictions", "", _ANY_TEXT, "text")
    _validate_decks(sh, sh.table(d, "decks", ""), box.deck_keys)
    if box.state_table:  # the box's own keys, checked by its own modules
        table, path = box_table(d, box)
        if not isinstance(table, dict):
            sh.fail(box.state_table, f"expected a table, got {_show(table)}")
        for check in hooked("state_checked", box):
            check(sh, table, path, in_play, board)
    sh.table(d, "options", "")
    rng = sh.table(d, "rng", "")
    sh.get(rng, "seed", "rng.", str, "")
    sh.number(rng, "counter", "rng.", 0)
    winner = sh.get(d, "winner", "", str, None)
    if winner is not None and winner not in in_play:
        sh.fail("winner", f"{_show(winner)} is not a house in play")
    step = sh.get(d, "step", "", str, "")
    decks = d.get("decks")
    west = decks.get("westeros") if isinstance(decks, dict) else None
    deck_iv = phase == "westeros" and isinstance(west, dict) and "4" in west  # Mother of Dragons' deck IV (M082)
    if step not in STEPS[phase] and not (deck_iv and step == "card_4"):
        sh.fail("step", f"{_show(step)} is not a step of the {phase} phase ({', '.join(map(repr, STEPS[phase]))})")
    sh.names(d, "cycle_done", "", in_play, "a house in play")
    sh.number(d, "decisions_asked", "", 0)
    _validate_engine(sh, d)


class _AnyText:
    def __contains__(self, v: object) -> bool:
        return isinstance(v, str)


_ANY_TEXT = _AnyText()


_AREA_KEYS_INT = ("garrison", "neutral_force", "loyalty")


def _area_ok(a: Any, in_play: list[str], unit_types: tuple[str, ...]) -> bool:
    """The common case at speed (the engine reads a state per phase): no message needed."""
    if not isinstance(a, dict):
        return False
    units = a.get("units", [])
    if not isinstance(units, list) or not all(
        isinstance(u, dict) and u.get("house") in in_play and u.get("type") in unit_types
        and isinstance(u.get("routed", False), bool) for u in units
    ):  # fmt: skip
        return False
    order = a.get("order")
    if order is not None and not (isinstance(order, dict) and order.get("house") in in_play
                                  and order.get("token") in ALL_ORDER_TOKENS):  # fmt: skip
        return False
    if a.get("power_token", in_play[0]) not in in_play or "improvements" in a or "garrison_house" in a:
        return False
    return all(is_int(v := a.get(k, 0)) and v >= 0 for k in _AREA_KEYS_INT)


def _validate_areas(sh: Shape, d: dict[str, Any], in_play: list[str], board: Board, unit_types: tuple[str, ...]) -> None:
    for area_id, a in sh.table(d, "areas", "").items():
        if area_id in board.areas and _area_ok(a, in_play, unit_types):
            continue
        path = f"areas.{area_id}."
        if area_id not in board.areas:
            sh.fail(f"areas.{area_id}", "not an area of the board")
        if not isinstance(a, dict):
            sh.fail(f"areas.{area_id}", f"expected a table, got {_show(a)}")
        for i, u in enumerate(sh.get(a, "units", path, list, [])):
            if not isinstance(u, dict):
                sh.fail(f"{path}units", f"expected a table per unit, got {_show(u)}")
            sh.names({"house": [u.get("house")]}, "house", f"{path}units.{i + 1}.", in_play, "a house in play")
            sh.names({"type": [u.get("type")]}, "type", f"{path}units.{i + 1}.", unit_types,
                     f"a unit type ({', '.join(unit_types)})")  # fmt: skip
            sh.get(u, "routed", f"{path}units.{i + 1}.", bool, False)
        order = sh.get(a, "order", path, dict, None)
        if order is not None:
            sh.names({"house": [order.get("house")]}, "house", f"{path}order.", in_play, "a house in play")
            sh.names({"token": [order.get("token")]}, "token", f"{path}order.", ALL_ORDER_TOKENS, "an order token")
        token = sh.get(a, "power_token", path, str, None)
        if token is not None and token not in in_play:
            sh.fail(f"{path}power_token", f"{_show(token)} is not a house in play")
        owner = sh.get(a, "garrison_house", path, str, None)
        if owner is not None and owner not in in_play:
            sh.fail(f"{path}garrison_house", f"{_show(owner)} is not a house in play")
        for key in _AREA_KEYS_INT:
            sh.number(a, key, path, 0)
        sh.names(a, "improvements", path, IMPROVEMENT_TOKENS, f"an improvement token ({', '.join(IMPROVEMENT_TOKENS)})")


_DECKS: dict[str, set[str]] = {}
_HANDS: dict[tuple[str, frozenset[str]], set[str]] = {}


def _own_cards(house: str, card_sets: frozenset[str]) -> set[str]:
    """The house cards of a house in a box that deals these sets (built once per house and box)."""
    if (house, card_sets) not in _HANDS:
        _HANDS[house, card_sets] = set(CARDS.hand_of(house, card_sets))
    return _HANDS[house, card_sets]


def _box(deck: str) -> set[str]:
    """The card ids a deck may hold (built once)."""
    if not _DECKS:
        _DECKS.update({n: set(CARDS.westeros_deck(int(n))) for n in ("1", "2", "3", "4")})
        _DECKS["wildling"] = set(CARDS.wildling_cards)
        _DECKS["tides"] = set(CARDS.tides_deck())
    return _DECKS[deck]


def _validate_decks(sh: Shape, decks: dict[str, Any], numbers: tuple[str, ...]) -> None:
    for part in ("westeros", "westeros_discards"):
        for n, cards in sh.table(decks, part, "decks.").items():
            if n not in numbers:
                sh.fail(f"decks.{part}.{n}", f"not a Westeros deck ({', '.join(numbers[:-1])} or {numbers[-1]})")
            sh.names({n: cards}, n, f"decks.{part}.", _box(n), f"a card of Westeros deck {n}")
    sh.names(decks, "wildling", "decks.", _box("wildling"), "a wildling card")
    sh.names(decks, "tides", "decks.", _box("tides"), "a Tides of Battle card")
    sh.names(decks, "tides_discards", "decks.", _box("tides"), "a Tides of Battle card")
    revealed = sh.names(decks, "westeros_revealed", "decks.", _ANY_TEXT, "text")
    for i, card in enumerate(revealed, 1):
        if i > len(numbers) or card not in _box(str(i)):
            sh.fail("decks.westeros_revealed", f"{_show(card)} is not a card of Westeros deck {i}")


def _validate_engine(sh: Shape, d: dict[str, Any]) -> None:
    """The engine's own parts, as far as reading them needs: their contents are the engine's business."""
    for key in ("pending", "answers"):
        for i, entry in enumerate(sh.get(d, key, "", list, [])):
            if not isinstance(entry, dict):
                sh.fail(f"{key}.{i + 1}", f"expected a table, got {_show(entry)}")
    seg = sh.get(d, "segment", "", dict, None)
    if seg is not None:
        sh.get(seg, "name", "segment.", str, "", required=True)
        sh.get(seg, "start", "segment.", dict, {}, required=True)
        for key, value in sh.table(seg, "decisions", "segment.").items():
            if not isinstance(value, dict):
                sh.fail(f"segment.decisions.{key}", f"expected a table, got {_show(value)}")
        sh.names(seg, "used", "segment.", _ANY_TEXT, "text")
        sh.number(seg, "events_seen", "segment.", 0)


def validate_engine(d: dict[str, Any]) -> None:
    """Check the engine's own parts of a state read from a file: what :func:`validate_dict` leaves to
    the engine (the open requests, the standing answers, the half-resolved phase), for a file that
    may have been edited by hand.

    >>> validate_engine({"pending": [{"key": "k", "kind": "orders", "house": "stark"}]})
    Traceback (most recent call last):
    ...
    adjudicator.game.validation.StateError: pending.1.prompt: expected text, got None

    :raises StateError: naming the first entry at fault.
    """
    from .command_check import check_command
    from .commands import from_dict as command

    def known(value: Any, key: str) -> None:
        try:
            check_command(command(value))
        except (KeyError, TypeError, ValueError, AssertionError, AttributeError) as e:
            raise StateError(f"{key}: not an answer Maester knows ({type(e).__name__}: {e})") from None

    def text(entry: dict[str, Any], key: str, path: str, kind: type = str) -> None:
        if (kind is int and not is_int(entry.get(key))) or not isinstance(entry.get(key), kind):
            raise StateError(f"{path}.{key}: expected {_KIND_NAMES[kind]}, got {_show(entry.get(key))}")

    def items(entry: dict[str, Any], key: str, path: str) -> list[Any]:
        value = entry.get(key, [])
        if not isinstance(value, list):
            raise StateError(f"{path}.{key}: expected a list, got {_show(value)}")
        return value

    for i, p in enumerate(d.get("pending", []), 1):
        for key in ("key", "kind", "house", "prompt"):
            text(p, key, f"pending.{i}")
        for j, value in enumerate([*([p["default"]] if "default" in p else []),
                                   *items(p, "default_parts", f"pending.{i}"), *items(p, "options", f"pending.{i}")],
                                  1):  # fmt: skip
            known(value, f"pending.{i}: default or option {j}")
    for i, a in enumerate(d.get("answers", []), 1):
        for key, kind in (("id", str), ("house", str), ("round", int)):
            text(a, key, f"answers.{i}", kind)
        known(a.get("command"), f"answers.{i}.command")
    unasked = d.get("unasked", [])
    if not isinstance(unasked, list):
        raise StateError(f"unasked: expected a list, got {_show(unasked)}")
    for i, u in enumerate(unasked, 1):  # decisions taken without asking (ruling 351)
        if not isinstance(u, dict):
            raise StateError(f"unasked.{i}: expected a table, got {_show(u)}")
        for key in ("house", "kind", "subject", "answer"):
            text(u, key, f"unasked.{i}")
    seg = d.get("segment")
    if seg is not None:
        if seg["name"] not in PHASES[:-1]:
            raise StateError(f"segment.name: {_show(seg['name'])} is not a phase the engine resolves ({', '.join(PHASES[:-1])})")
        try:
            validate_dict(seg["start"])
        except StateError as e:
            raise StateError(f"segment.start.{e}") from None
        for key, rec in seg.get("decisions", {}).items():
            path = f"segment.decisions.{key}"
            if "value" in rec:
                known(rec["value"], f"{path}.value")
            else:
                for j, part in enumerate(items(rec, "parts", path), 1):
                    known(part, f"{path}.parts.{j}")
            for j, move in enumerate(items(rec, "moves", path), 1):  # gifts made during a combat (ruling 261)
                if not (isinstance(move, list) and len(move) == 3 and move[0] in ALL_HOUSES and move[1] in ALL_HOUSES
                        and is_int(move[2]) and 0 <= move[2] <= MAX_RECORD_NUMBER):
                    raise StateError(f"{path}.moves.{j}: expected [giver, receiver, power], got {_show(move)}")
            for j, record in enumerate(items(rec, "events", path), 1):  # events are the engine's: their shape only
                if not isinstance(record, dict) or not isinstance(record.get("type"), str):
                    raise StateError(f"{path}.events.{j}: expected a table with a type, got {_show(record)}")
                try:
                    _check_numbers(record)
                except ValueError as err:
                    raise StateError(f"{path}.events.{j}: {err}") from None


MAX_RECORD_NUMBER = 1000  # a number in the engine's records of events: power, strength, a count of units


def _check_numbers(value: Any) -> None:
    """Every whole number in a recorded event within +-1000 (a report sizes a list by an event's count)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack += v.values()
        elif isinstance(v, list):
            stack += v
        elif is_int(v) and abs(v) > MAX_RECORD_NUMBER:
            raise ValueError(f"the number {_show(v)} is past {MAX_RECORD_NUMBER}")


