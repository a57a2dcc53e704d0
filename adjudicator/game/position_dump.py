"""A game state written as a position file (``docs/positions.md``), every field written out, for
:func:`~adjudicator.game.position.load_position` to read back to an equal state.

>>> from adjudicator.game.setup import new_game
>>> text = dump_position(new_game(["stark", "lannister", "baratheon"], seed="doc"))
>>> text.splitlines()[1:3]
['position_format = 1', 'game_id = "game"']
>>> unit_texts([Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "knight", routed=True)])
['2 stark footmen', 'stark knight routed']
"""

from __future__ import annotations

import re
from typing import Any

import tomli_w

from .board import TRACKS, Board
from .position import POSITION_FORMAT
from .position_mod import MOD_TABLE, dump_expansion
from .state import PLURALS, AreaState, GameState, Unit

__all__ = ["dump_position", "unit_texts"]


def dump_position(state: GameState, *, board: Board | None = None) -> str:
    """The position file of a state, every field written out (``start = "empty"``).

    It holds the deck order and the secret seed: it is for the moderator's eyes.
    """
    out = [
        "# Maester position file (docs/positions.md). Holds the deck order and the seed: keep it private.",
        _kv("position_format", POSITION_FORMAT),
        _kv("game_id", state.game_id),
        _kv("round", state.round),
        _kv("phase", state.phase),
        *([_kv("step", state.step)] if state.step else []),
        *([_kv("cycle_done", state.cycle_done)] if state.cycle_done else []),
        _kv("houses", state.players()),
    ]
    if state.box.expansion:
        out.append(_kv("expansion", state.variant))
    out += [
        _kv("start", "empty"),
        _kv("wildling_threat", state.wildling_threat),
        _kv("kings_court_overlay", state.kings_court_overlay),
        _kv("impassable", state.impassable),
        _kv("restrictions", state.restrictions),
    ]
    if state.winner:
        out.append(_kv("winner", state.winner))
    out += ["", "[tracks]"] + [_kv(t, state.tracks[t]) for t in TRACKS if t in state.tracks]
    out += ["", "[dominance]", _kv("blade_used", state.blade_used), _kv("raven_used", state.raven_used)]
    for h, hs in state.houses.items():
        out += ["", f"[house.{h}]", _kv("power", hs.power), _kv("supply", hs.supply),
                _kv("hand", hs.hand), _kv("discards", hs.discards)]
        out += [_kv("loans", hs.loans)] if state.box.has("iron_bank") else []
        out += [_kv("removed", hs.removed)] if hs.removed else []
    out += ["", "[areas]"]
    for area_id, st in sorted(state.areas.items()):
        if not st.is_empty():
            out.append(_area_line(area_id, st))
    out += ["", "[decks]"]
    for n in sorted(set(state.westeros_decks) | set(state.westeros_discards)):
        out.append(_kv(f"westeros_{n}", state.westeros_decks.get(n, [])))
        out.append(_kv(f"westeros_{n}_discards", state.westeros_discards.get(n, [])))
    if state.westeros_revealed:
        out.append(_kv("westeros_revealed", state.westeros_revealed))
    out += [_kv("wildling", state.wildling_deck), _kv("tides", state.tides_deck),
            _kv("tides_discards", state.tides_discards)]
    out += ["", "[options]"] + [_kv(k, v) for k, v in state.options.items()]
    out += ["", "[rng]", _kv("seed", state.rng_seed), _kv("counter", state.rng_counter)]
    if state.box.has("vassals"):  # Mother of Dragons' own table
        out += ["", f"[{MOD_TABLE}]", *(_kv(k, v) for k, v in dump_expansion(state).items())]
    engine: dict[str, Any] = {}
    if state.decisions_asked:
        engine["decisions_asked"] = state.decisions_asked
    if state.pending:
        engine["pending"] = state.pending
    if state.answers:
        engine["answers"] = state.answers
    if state.unasked:
        engine["unasked"] = state.unasked
    if state.segment:
        s = state.segment
        engine["segment"] = {"name": s.name, "start": s.start, "decisions": s.decisions, "used": s.used,
                             "events_seen": s.events_seen}
    text = "\n".join(out) + "\n"
    if engine:
        text += "\n" + tomli_w.dumps({"engine": engine})
    return text


def _area_line(area_id: str, st: AreaState) -> str:
    units = unit_texts(st.units)
    fields: dict[str, Any] = {}
    if units:
        fields["units"] = units
    if st.order:
        fields["order"] = f"{st.order.house} {st.order.token}"
    if st.power_token:
        fields["power_token"] = st.power_token
    if st.garrison:
        fields["garrison"] = st.garrison
    if st.garrison and st.garrison_house:
        fields["garrison_house"] = st.garrison_house
    if st.neutral_force:
        fields["neutral_force"] = st.neutral_force
    if st.loyalty:
        fields["loyalty"] = st.loyalty
    if st.improvements:
        fields["improvements"] = st.improvements
    if list(fields) == ["units"]:
        return _kv(area_id, units)
    inner = ", ".join(_kv(k, v) for k, v in fields.items())
    return f"{area_id} = {{ {inner} }}"


def unit_texts(units: list[Unit]) -> list[str]:
    """Units as position-file strings, runs of equal units grouped: ``["2 stark footmen", "stark knight"]``."""
    out: list[str] = []
    i = 0
    while i < len(units):
        j = i
        while j < len(units) and units[j] == units[i]:
            j += 1
        u, n = units[i], j - i
        name = PLURALS[u.type] if n > 1 else u.type.replace("_", " ")
        out.append(f"{n} {u.house} {name}" if n > 1 else f"{u.house} {name}")
        out[-1] += " routed" if u.routed else ""
        i = j
    return out


def _kv(key: str, value: Any) -> str:
    """``key = value`` on one line; a long list wraps, several items to a line."""
    key = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _value(key)
    line = f"{key} = {_value(value)}"
    if len(line) <= 100 or not isinstance(value, list):
        return line
    rows, row = [], ""
    for item in (_value(v) for v in value):
        if row and len(row) + len(item) > 92:
            rows.append(row)
            row = ""
        row += ("" if not row else " ") + item + ","
    return f"{key} = [\n" + "".join(f"    {r}\n" for r in rows + [row]) + "]"


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(_kv(k, v) for k, v in value.items()) + " }" if value else "{}"
    return tomli_w.dumps({"v": value}).strip()[len("v = "):]
