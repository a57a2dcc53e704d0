"""What a report shows, as plain values with the secrets already removed: the view its templates render.

:func:`public_view` is what every reader of a step sees; :func:`report_view` adds a reader's own
events, hand, decisions, coming-up items and turn-file skeleton.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.ahead import Upcoming
from ..engine.events import AnswerUnusable, Event, kind_name
from ..game.board import DOMINANCE_TOKENS, TRACKS, Board
from ..game.cards import CARDS
from ..game.mod_board import MOD
from ..game.state import GameState
from ..game.table_settings import seats_text
from .comingup import coming_up, skeleton_lines
from .decisions import held_answers, my_request, skeleton, standing_answers
from .eventview import event_view
from .svgmap import board_summary
from .vassals import vassals_view
from .verdicts import answer_verdicts, judged
from .words import TRACK_NAMES, WIDTH, clean

TOKEN_NAMES = {"iron_throne": "Iron Throne", "valyrian_steel_blade": "Valyrian Steel Blade",
               "messenger_raven": "Messenger Raven"}  # fmt: skip
PHASE_NAMES = {"westeros": "Westeros Phase", "planning": "Planning Phase", "action": "Action Phase",
               "game_over": "Game over"}  # fmt: skip


def report_view(
    state: GameState,
    events: list[Event],
    *,
    viewer: str | None,
    requests: list[dict[str, Any]],
    fingerprints: Mapping[str, list[str]] | None,
    last_seqs: Mapping[str, int] | None = None,
    board: Board | None = None,
    shared: Mapping[str, Any] | None = None,
    event_views: dict[int, dict[str, Any]] | None = None,
    upcoming: Callable[[str], list[Upcoming]] | None = None,
) -> dict[str, Any]:
    """Everything the text and HTML templates show, as plain values, secrets already removed.

    ``events`` must already be filtered for the viewer (:func:`adjudicator.engine.events.visible`).
    ``shared`` is :func:`public_view` of the same state, requests and fingerprints, when the caller
    has it already from another reader's report of the step; ``event_views`` keeps each event's
    view by ``id()`` for the next reader (the events must outlive it). ``upcoming`` gives what comes
    up for the viewer (:func:`adjudicator.engine.ahead.upcoming` of the same state and requests) when
    the caller works it out anyway (the receipts of the step need it too).
    """
    board = board or state.board()
    mine = [r for r in requests if viewer is not None and r["house"] == viewer]
    if event_views is None:
        event_views = {}
    view: dict[str, Any] = {
        **(shared if shared is not None else public_view(state, requests=requests, fingerprints=fingerprints,
                                                         board=board)),
        "viewer": viewer,
        "viewer_name": viewer.title() if viewer else None,
        "events": [_event_view_once(e, event_views) for e in events if e.is_public()],
        "private_events": _private_events(events, event_views),
        "hand": [], "discards": [], "my_requests": [], "skeleton": None, "held": [], "held_step": "", "coming_up": [],
        "standing": [],
        "vassal_hands": [],
        "verdicts": judged(answer_verdicts(state, events, viewer)) if viewer is not None else [],
    }
    if viewer is not None:
        hs = state.houses[viewer]
        view["hand"] = [_card_view(c) for c in hs.hand]
        view["discards"] = [_card_view(c) for c in hs.discards]
        view["vassal_hands"] = _vassal_hands(mine)
        view["my_requests"] = [my_request(r) for r in mine]
        refused = {e.answer for e in events if isinstance(e, AnswerUnusable) and e.house == viewer}
        view["held"] = held_answers(state, viewer, refused=refused)
        view["held_step"] = f"round {state.round} {state.phase}"
        view["standing"] = standing_answers(state, viewer)  # ruling 353
        # ruling 124; a vassal's decisions come up for its commander, as 'for VASSAL:' lines (M030)
        view["coming_up"] = [] if state.is_vassal(viewer) else coming_up(state, viewer, requests, board=board,
                                                                            found=upcoming(viewer) if upcoming else None)
        if (mine or view["coming_up"] or any(h["this_step"] for h in view["held"])) \
                and state.phase in ("westeros", "planning", "action"):
            view["skeleton"] = skeleton(state, viewer, mine, last_seq=(last_seqs or {}).get(viewer, 0), refused=refused,
                                        ahead=skeleton_lines(view["coming_up"]))
    return view


def _private_events(events: list[Event], views: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's own events, each with the number of the public event it follows (0: before the first)."""
    out, public = [], 0
    for e in events:
        if e.is_public():
            public += 1
        else:
            out.append(_event_view_once(e, views) | {"after": public})
    return out


def _event_view_once(e: Event, views: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """An event's view, worked out for the first reader of the step and kept for the others."""
    view = views.get(id(e))
    if view is None:
        view = views[id(e)] = event_view(e, private=not e.is_public())
    return view


def public_view(
    state: GameState,
    *,
    requests: list[dict[str, Any]],
    fingerprints: Mapping[str, list[str]] | None,
    board: Board | None = None,
) -> dict[str, Any]:
    """The part of :func:`report_view` every reader of a step sees: the same in all its reports."""
    board = board or state.board()
    phase = PHASE_NAMES.get(state.phase, state.phase)
    return {
        "width": WIDTH,
        "game_id": clean(state.game_id),
        "round": state.round,
        "phase": phase,
        "title": clean(f"game {state.game_id} · round {state.round} · {phase}"),
        "settings": settings_text(state),
        "winner": state.winner.title() if state.winner else None,
        "waiting": [
            {"house": r["house"], "house_name": r["house"].title(), "kind": kind_name(r["kind"]), "prompt": clean(r["prompt"]),
             "secret": bool(r.get("secret"))}
            for r in sorted(requests, key=lambda r: (_turn_index(state, r["house"]), r["kind"], r.get("key", "")))
        ],
        "board_lines": board_summary(state, board),
        "houses": [_house_row(state, board, h) for h in state.turn_order()],
        "tracks": _tracks(state),
        "wildling_threat": state.wildling_threat,
        "wildling_max": board.constants["wildling_attack_at"],
        "decks": _decks(state),
        "restrictions": list(state.restrictions),
        "fingerprints": [{"house": h.title(), "fingerprints": list((fingerprints or {}).get(h, []))}
                         for h in state.houses_in_play if (fingerprints or {}).get(h)],
        "seed_commitment": seed_commitment(state),
        "seed": state.rng_seed if state.phase == "game_over" else None,
    } | ({"iron_bank": iron_bank_view(state, board)} if state.loan_slots else {}) | vassals_view(state)


def iron_bank_view(state: GameState, board: Board) -> dict[str, Any]:
    """Mother of Dragons' Iron Bank, all public (ruling 255): the face-up loans with their costs, how
    many lie face down, the loans each house took, who keeps the Braavos token (M104-M113)."""
    costs = MOD.iron_bank["slot_costs_left_to_right"]
    return {
        "slots": [{"slot": i + 1, "cost": costs[i], "loan": CARDS.loans[c].name if c else "",
                   "text": clean(CARDS.loans[c].effect) if c else ""} for i, c in enumerate(state.loan_slots)],
        "deck_left": len(state.loan_deck),
        "loans": [{"house": h.title(), "loans": ", ".join(CARDS.loans[c].name for c in state.houses[h].loans)}
                  for h in state.turn_order() if state.houses[h].loans],
        "braavos": state.braavos_token.title() if state.braavos_token else "",
    }



def seed_commitment(state: GameState) -> str:
    """The SHA-256 of the game's seed: published from the start, so the shuffles can be checked later."""
    return hashlib.sha256(state.rng_seed.encode("utf-8")).hexdigest()


DECK_TITLES = {"adwd": "A Dance with Dragons' house cards"}  # the house decks a game may deal (ruling 370)


def settings_text(state: GameState) -> str:
    """What a report's header says under its title: the box's own line (a scenario's name and round
    limit), the setup, and every table setting that is not the rulebook's (the house decks, Tides of
    Battle, the round limit, the victory target, the seats random houses dealt); empty for a base game or Mother of Dragons game
    played as the rulebook says, whose reports are as they always were."""
    box, options, deck = state.box, state.options, state.house_deck()
    said = [box.header] if box.header else []
    setup = options.get("setup")
    said += [f"Setup: {setup}"] if setup and setup not in (box.title, "the base game") else []
    said += [f"Played with {DECK_TITLES.get(deck, deck)}"] if deck != "base" else []
    said += ["Tides of Battle"] if options.get("tides_of_battle") else []
    said += [f"The game ends after round {options['rounds']}"] if "rounds" in options else []
    said += [f"{options['victory_target']} castles and strongholds win"] if "victory_target" in options else []
    said += [seats] if (seats := seats_text(state)) else []
    return " · ".join(said)


def _turn_index(state: GameState, house: str) -> int:
    order = state.turn_order() if state.tracks else []
    return order.index(house) if house in order else len(order)


def _house_row(state: GameState, board: Board, house: str) -> dict[str, Any]:
    hs = state.houses[house]
    return {
        "house": house,
        "name": house.title(),
        "power": hs.power,
        "power_on_board": state.power_on_board(house),
        "supply": hs.supply,
        "armies": ",".join(str(n) for n in board.supply_limits(hs.supply)),
        "castles": state.victory(house, board),  # the victory track (Targaryen: loyalty, M076)
        "throne": state.position("iron_throne", house),
        "fiefdoms": state.position("fiefdoms", house),
        "court": state.position("kings_court", house),
        "stars": state.stars(house, board),
        "hand": [_card_view(c) for c in hs.hand],
        "discards": [_card_view(c) for c in hs.discards],
        "hand_names": ", ".join(f"{c['name']} {c['strength']}" for c in map(_card_view, hs.hand)),
        "discard_names": ", ".join(f"{c['name']} {c['strength']}" for c in map(_card_view, hs.discards)),
        "removed_names": ", ".join(f"{c['name']} {c['strength']}" for c in map(_card_view, hs.removed)),
    }


def _tracks(state: GameState) -> list[dict[str, Any]]:
    dominance = state.dominance()
    out = []
    for track in TRACKS:
        token = DOMINANCE_TOKENS[track]
        used = dominance[token]["used"]
        out.append({
            "name": TRACK_NAMES[track],
            "order": [h.title() for h in state.tracks[track]],
            "token": TOKEN_NAMES[token],
            "holder": state.holder(track).title(),
            "status": "used" if used else ("unused" if track != "iron_throne" else ""),
        })
    return out


def _decks(state: GameState) -> dict[str, Any]:
    """Deck sizes and revealed cards only: the order of every deck stays hidden (R267).

    "drawn" lists the discards and then the cards drawn and not yet discarded (those being
    resolved in a Westeros Phase): every card of the deck that is not among the cards left.
    """
    westeros = []
    for k, left in sorted(state.westeros_decks.items()):
        discards = state.westeros_discards.get(k, [])
        in_play = Counter(CARDS.westeros_deck(int(k))) if k.isdigit() and state.phase == "westeros" else Counter()
        in_play.subtract(Counter(left) + Counter(discards))
        drawn = [_westeros_name(k, c) for c in discards]
        drawn += [f"{_westeros_name(k, c)} (being resolved)" for c in sorted(in_play.elements())]
        westeros.append({"deck": k, "left": len(left), "discards": drawn})
    return {
        "westeros": westeros,
        "targaryen": _targaryen_lines(state),
        "wildling_left": len(state.wildling_deck),
        "tides_left": len(state.tides_deck) if state.options.get("tides_of_battle") else None,
    }


def _targaryen_lines(state: GameState) -> list[str]:
    """Mother of Dragons' Targaryen, all public: the dragons' strength and the tokens still to come on
    the round track, loyalty tokens on the board and in the supply, and what Targaryen has gained."""
    if "targaryen" not in state.houses_in_play:
        return []
    board = state.board()
    rounds = ", ".join(map(str, state.dragon_tokens)) or "none"
    on_board = sum(s.loyalty for s in state.areas.values())
    left = int(board.constants["loyalty_tokens_total"]) - on_board
    pentos = "holds Pentos" if state.controller("pentos", board) == "targaryen" else "has lost Pentos"
    return [f"Dragons: strength {state.dragon_strength(board)} each; dragon strength tokens still on rounds {rounds}.",
            f"Loyalty tokens: {on_board} on the board, {left} in the supply. Targaryen has gained "
            f"{state.loyalty_gained} and {pentos}: space {state.victory('targaryen', board)} of the victory track "
            "(7 wins)."]


def _westeros_name(deck: str, card: str) -> str:
    try:
        return CARDS.westeros_card(int(deck), card).name
    except (StopIteration, ValueError):
        return card.replace("_", " ").title()


def _vassal_hands(mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards drawn for a vassal's combat, with their texts, for the commander choosing one of them
    (M058, ruling 236: only the commander sees them until the House cards are revealed)."""
    return [{"vassal": str(r["vassal"]).title(), "cards": [_card_view(str(c)) for c in r["context"]["hand"]]}
            for r in mine if r.get("vassal") and r["kind"] == "house_card" and r.get("context", {}).get("hand")]


def _card_view(card_id: str) -> dict[str, Any]:
    """A House card by name and strength; ``ref`` is what the ``card_text`` filter prints in full."""
    c = CARDS.house_cards.get(card_id)
    if c is None:
        return {"id": card_id, "ref": card_id, "name": card_id.replace("_", " ").title(), "strength": "?"}
    return {"id": c.id, "ref": c.id, "name": c.name, "strength": c.strength}

