"""What ``maester show`` prints: a readable summary of a state, and its JSON view.

The JSON view (``docs/state-json.md``) is for programs: stable keys, ids not names. It leaves
out what nobody may see from the state alone: the order of the decks and the seed.

>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> view = json_view(state)
>>> view["tracks"]["iron_throne"], view["houses"]["stark"]["victory"]
(['baratheon', 'lannister', 'stark'], 2)
>>> view["areas"]["winterfell"]["units"][0]
{'house': 'stark', 'type': 'footman', 'routed': False}
>>> print(summary(state).splitlines()[0])
Game game: round 1, planning phase
"""

from __future__ import annotations

import json
from textwrap import wrap
from typing import Any

from ..engine.events import (
    card_name,
    house_name,
    kind_name,
    order_name,
    plural,
    units_text,
)
from ..engine.events.westeros import banned_orders
from ..game.board import DOMINANCE_TOKENS, TRACKS, Board
from ..game.cards import CARDS
from ..game.state import AreaState, GameState
from ..util.columns import WIDTH

JSON_SCHEMA_VERSION = 1
PENDING_KEYS = ("key", "kind", "house", "prompt", "secret")
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
TOKEN_NAMES = {"iron_throne": "Iron Throne", "valyrian_steel_blade": "Valyrian Steel Blade",
               "messenger_raven": "Messenger Raven"}


def json_view(state: GameState, board: Board | None = None) -> dict[str, Any]:
    """The state as plain JSON data; see ``docs/state-json.md`` for every key."""
    board = board or state.board()
    expansion = state.box.has("vassals")  # Mother of Dragons' parts of the state
    areas: dict[str, Any] = {}
    for area in board.areas.values():
        st = state.area(area.id)
        controller = state.controller(area.id, board)
        if st.is_empty() and (controller is None or not area.is_land):
            continue  # listed: areas with something in them, and land areas someone controls
        areas[area.id] = {
            "units": [{"house": u.house, "type": u.type, "routed": u.routed} for u in st.units],
            "controller": controller,
            "order": {"house": st.order.house, "token": st.order.token} if st.order else None,
            "power_token": st.power_token,
            "garrison": st.garrison,
            "neutral_force": st.neutral_force,
        } | ({"loyalty": st.loyalty, "improvements": list(st.improvements)} if expansion else {})
    view = {
        "schema_version": JSON_SCHEMA_VERSION,
        "game_id": state.game_id,
        "round": state.round,
        "phase": state.phase,
        "winner": state.winner,
        "houses_in_play": list(state.houses_in_play),
        "tracks": {t: list(state.tracks[t]) for t in TRACKS},
        "houses": {
            h: {
                "power": hs.power,
                "power_on_board": state.power_on_board(h),
                "supply": hs.supply,
                "victory": state.victory(h, board),
                "hand": list(hs.hand),
                "discards": list(hs.discards),
            } | ({"vassal": state.is_vassal(h), "loans": list(hs.loans)} if expansion else {})
            for h in state.houses_in_play
            for hs in [state.houses[h]]
        },
        "areas": areas,
        "impassable": list(state.impassable),
        "wildling_threat": state.wildling_threat,
        "dominance": state.dominance(),
        "kings_court_overlay": state.kings_court_overlay,
        "restrictions": list(state.restrictions),
        "decks": {
            "westeros": {n: len(d) for n, d in sorted(state.westeros_decks.items())},
            "westeros_discards": {n: list(d) for n, d in sorted(state.westeros_discards.items())},
            "wildling": len(state.wildling_deck),
            "tides": len(state.tides_deck),
            "tides_discards": list(state.tides_discards),
        },
        "options": dict(state.options),
        # who must answer what; a request's context and options may be one house's secret
        "pending": [{k: p[k] for k in PENDING_KEYS if k in p} for p in state.pending],
    }
    return view | (_expansion_view(state, board) if expansion else {})


def _expansion_view(state: GameState, board: Board) -> dict[str, Any]:
    """Mother of Dragons' keys of the view (docs/state-json.md); the loan deck's order stays hidden."""
    leaving = {"leaving": list(state.leaving)} if state.leaving else {}  # maester leave (M124)
    return leaving | {
        "variant": state.variant,
        "vassals": list(state.vassals),
        "commanders": dict(state.commanders),
        "vassal_sets": list(state.vassal_sets),
        "loyalty_gained": state.loyalty_gained,
        "dragons": {"tokens_on_round_track": list(state.dragon_tokens), "strength": state.dragon_strength(board)},
        "iron_bank": {"slots": list(state.loan_slots), "deck": len(state.loan_deck),
                      "braavos_token": state.braavos_token},
    }


def to_json(state: GameState, board: Board | None = None) -> str:
    """:func:`json_view` as indented JSON text; what fits in 100 columns stays on one line."""
    return compact_json(json_view(state, board)) + "\n"


def compact_json(value: Any, level: int = 0, prefix: int = 0) -> str:
    """Indented JSON where any list or object that fits on its line is written inline."""
    flat = json.dumps(value, ensure_ascii=False)
    if 2 * level + prefix + len(flat) <= 100 or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {compact_json(v, level + 1, len(k) + 4)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [f"{pad}{compact_json(v, level + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def summary(state: GameState, board: Board | None = None) -> str:
    """A few readable lines: tracks, houses, the board area by area, open requests."""
    board = board or state.board()
    name = {h: board.houses[h].name.removeprefix("House ") for h in state.houses_in_play}
    name |= {v: f"{name[v]}*" for v in state.vassals}
    phase = "game over" if state.phase == "game_over" else f"{state.phase} phase"
    out = [f"Game {state.game_id}: round {state.round}, {phase}"]
    if state.winner:
        out.append(f"Winner: {name[state.winner]}")
    out.append("")
    dominance = state.dominance()
    for track in TRACKS:
        token = DOMINANCE_TOKENS[track]
        used = " (used)" if dominance[token]["used"] else ""
        places = "  ".join(f"{i}.\0{name[h]}" for i, h in enumerate(state.tracks[track], 1))  # \0: never split there
        out += [line.replace("\0", " ") for line in wrap(f"{places}   [{TOKEN_NAMES[token]}{used}]", WIDTH,
                initial_indent=f"{TRACK_NAMES[track] + ':':<14}", subsequent_indent=" " * 14)]  # fmt: skip
    out.append(f"{'Wildlings:':<14}threat {state.wildling_threat}")
    if state.vassals:
        commanded = [f"{house_name(v)} ({f'commanded by {house_name(c)}' if (c := state.commander(v)) else 'no commander yet'})"
                     for v in state.vassals]  # fmt: skip
        out += wrap(", ".join(commanded), WIDTH, initial_indent=f"{'Vassals (*):':<14}", subsequent_indent=" " * 14)
    if state.leaving:  # maester leave (M124, ruling 276)
        out += wrap(f"{', '.join(house_name(h) for h in state.leaving)}'s player at the end of round {state.round}: a vassal "
                    f"from round {state.round + 1} (M124)", WIDTH, initial_indent=f"{'Leaving:':<14}",
                    subsequent_indent=" " * 14)  # fmt: skip
    if state.box.has("dragons") and "targaryen" in state.houses_in_play:
        out.append(f"{'Dragons:':<14}strength {state.dragon_strength(board)}; tokens on rounds "
                   f"{', '.join(map(str, state.dragon_tokens)) or 'none'}")
        out.append(f"{'Iron Bank:':<14}" + "  ".join(f"{cost}: {CARDS.loans[x].name if x else '-'}" for cost, x in
                                                      zip((1, 4, 7), state.loan_slots)) + f"  ({len(state.loan_deck)} in the deck)")
    if state.restrictions:
        out.append(f"{'Restricted:':<14}{banned_orders(state.restrictions)} this round")
    out += ["", f"{'House':<11}{'Power':>6}{'Board':>6}{'Supply':>7}{'Castles':>8}  Hand / discards"]
    for h in state.houses_in_play:
        hs = state.houses[h]
        cards = f"{len(hs.hand)} / {', '.join(card_name(c) for c in hs.discards) or '-'}"
        row = f"{name[h]:<11}{hs.power:>6}{state.power_on_board(h):>6}{hs.supply:>7}{state.victory(h, board):>8}  "
        out += wrap(cards, WIDTH, initial_indent=row, subsequent_indent=" " * len(row))
    out += ["", "Board:"]
    width = max(len(a.name) for a in board.areas.values()) + 2  # the longest name still leaves a space
    for area_id, st in sorted(state.areas.items(), key=lambda kv: board.area(kv[0]).name):
        if st.is_empty():
            continue
        out += wrap(_area_text(st), WIDTH, initial_indent=f"  {board.area(area_id).name + ':':<{width}}",
                    subsequent_indent=" " * (width + 2))  # fmt: skip
    if state.impassable:
        out += wrap(", ".join(board.area(a).name for a in state.impassable), WIDTH, initial_indent="  Impassable: ",
                    subsequent_indent=" " * 14)  # fmt: skip
    out += ["", f"Waiting for: {plural(len(state.pending), 'answer')}" if state.pending else "Waiting for: nothing"]
    for p in state.pending:
        line = f"{house_name(str(p.get('house', '?')))}: {kind_name(str(p.get('kind', '?')))}: {p.get('prompt', '')}"
        out += wrap(line.rstrip(": "), WIDTH, initial_indent="  ", subsequent_indent="      ")
    return "\n".join(out) + "\n"


def _area_text(st: AreaState) -> str:
    """``'Stark: 1 footman and 1 knight; March +1 order; garrison 2'``: one area, in words."""
    parts = []
    for house in dict.fromkeys(u.house for u in st.units):  # each house once, in the order its units stand
        ready = [u.type for u in st.units if u.house == house and not u.routed]
        routed = [u.type for u in st.units if u.house == house and u.routed]
        text = ", ".join(filter(None, [units_text(ready) if ready else "", f"{units_text(routed)} routed" if routed else ""]))
        parts.append(f"{house_name(house)}: {text}")
    if st.order:
        mine = all(u.house == st.order.house for u in st.units)
        parts.append(order_name(st.order.token) + ("" if mine else f" of {house_name(st.order.house)}"))
    if st.power_token:
        parts.append(f"{house_name(st.power_token)} power token")
    if st.garrison:
        parts.append(f"garrison {st.garrison}")
    if st.neutral_force:
        parts.append(f"neutral force {st.neutral_force}")
    if st.loyalty:
        parts.append(f"loyalty {st.loyalty}")
    if st.improvements:
        parts.append(f"tokens {' '.join(st.improvements)}")
    return "; ".join(parts)
