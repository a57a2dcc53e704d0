"""Turn reports: what happened, the board, and who must answer what next, as text, HTML or JSON.

``render_report(state, events, viewer=None)`` is the public report: only public events, the
board, the tracks, and the open requests by house, kind and prompt. ``viewer="stark"`` is Stark's
private report: the same, plus Stark's own events, its hand with the card texts, its open
requests with every legal option, and a turn-file skeleton ready to fill in. Secrets are
filtered out before any template sees the data (:func:`report_view`, :func:`public_state`).
:func:`render_reports` gives every report of a step at once, the public part worked out once.

>>> from adjudicator.game.setup import new_game
>>> text = render_report(new_game(["stark", "lannister", "baratheon"], seed="doc"), [])
>>> "Winterfell: Stark; 1 footman, 1 knight; garrison 2" in text
True
"""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from markupsafe import escape

from ..engine.events import (
    AnswerUnusable,
    AnswerUsed,
    DefaultUsed,
    Event,
    OnlyOption,
    kind_name,
    visible,
)
from ..engine.events import from_dict as event_from_dict
from ..game.board import DOMINANCE_TOKENS, HOUSES, TRACKS, Board
from ..game.cards import CARDS
from ..game.commands import Command
from ..game.commands import to_dict as to_command_dict
from ..game.mod_board import MOD, mod_board  # its map with Essos holds every area of every board
from ..game.state import GameState
from ..turnfile.header import Header, format_header
from ..turnfile.names import ORDER_TEXT, display_name
from .cardtext import card_ref
from .comingup import coming_up, skeleton_lines
from .svgmap import HOUSE_COLOURS, MapLayout, board_summary, render_map
from .templating import environment
from .vassals import as_commander, for_line, vassals_view
from .verdicts import answer_verdicts, judged

FORMATS = ("text", "html", "json")
MAP_FILE = "map.svg"  # the step's map in its report folder, beside the pages that show it
WIDTH = 78  # text reports wrap here: within 80 columns in any mail client
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
TOKEN_NAMES = {"iron_throne": "Iron Throne", "valyrian_steel_blade": "Valyrian Steel Blade",
               "messenger_raven": "Messenger Raven"}  # fmt: skip
PHASE_NAMES = {"westeros": "Westeros Phase", "planning": "Planning Phase", "action": "Action Phase",
               "game_over": "Game over"}  # fmt: skip


class ReportError(ValueError):
    """A report was asked for in an unknown format or for a house not in the game."""


def render_report(
    state: GameState,
    events: Iterable[Event | Mapping[str, Any]],
    *,
    viewer: str | None = None,
    fmt: str = "text",
    requests: Iterable[Any] = (),
    fingerprints: Mapping[str, list[str]] | None = None,
    templates_dir: str | Path | None = None,
    last_seqs: Mapping[str, int] | None = None,
    board: Board | None = None,
) -> str:
    """One report of one step, for everyone (``viewer=None``) or for one house.

    ``events`` are the step's events (objects or their ``to_dict()``); ``requests`` the open
    requests (``Request`` objects or dicts; none given: ``state.pending``); ``fingerprints`` the
    keys in force by house; ``last_seqs`` the highest accepted ``seq`` by house for this step.

    :raises ReportError: for an unknown ``fmt`` or a ``viewer`` not in the game.
    """
    return render_reports(state, events, viewers=[viewer], formats=[fmt], requests=requests, fingerprints=fingerprints,
                          templates_dir=templates_dir, last_seqs=last_seqs, board=board)[(viewer, fmt)]  # fmt: skip


def render_reports(
    state: GameState,
    events: Iterable[Event | Mapping[str, Any]],
    *,
    viewers: Iterable[str | None],
    formats: Iterable[str] = ("text", "html"),
    requests: Iterable[Any] = (),
    fingerprints: Mapping[str, list[str]] | None = None,
    templates_dir: str | Path | None = None,
    last_seqs: Mapping[str, int] | None = None,
    board: Board | None = None,
    split: bool = False,
    map_src: str = MAP_FILE,
) -> dict[tuple[str | None, str], str]:
    """Every report of one step, by ``(viewer, format)``: each is what :func:`render_report` gives.

    A house's report is its private part (``private.txt.j2``, ``private.html.j2``) joined to the
    public report (:func:`join_text`, :func:`join_html`); with ``split`` a house gets its private
    part alone, as the game folder keeps it (the public report is written once). The HTML shows
    the map as an image from ``map_src`` (the step's ``map.svg``; see :func:`render_step_map`).
    The part of the view every reader sees (:func:`public_view`) and each event's view are worked
    out once for all the reports, and each viewer's view once for both its formats.

    :raises ReportError: for an unknown format or a viewer not in the game.
    """
    viewers, formats = list(viewers), list(formats)
    for fmt in formats:
        if fmt not in FORMATS:
            raise ReportError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")
    for viewer in viewers:
        if viewer is not None and viewer not in state.houses_in_play:
            raise ReportError(f"house {viewer!r} is not in this game ({', '.join(state.houses_in_play)})")
    board = board or state.board()
    every = [_event(e) for e in events]
    reqs = [_request_dict(r) for r in (requests or state.pending)]
    shared: dict[str, Any] | None = None
    event_views: dict[int, dict[str, Any]] = {}  # by id() of the events in `every`, alive throughout
    public_pages: dict[str, str] = {}
    out: dict[tuple[str | None, str], str] = {}
    env = environment(templates_dir)
    extra = {"colours": _COLOURS, "map_src": map_src, "map_width": MapLayout.for_map(board.map).width}

    def public_page(fmt: str) -> str:
        if fmt not in public_pages:
            view = report_view(state, visible(every, None), viewer=None, requests=reqs, fingerprints=fingerprints,
                               last_seqs=last_seqs, board=board, shared=shared, event_views=event_views)  # fmt: skip
            public_pages[fmt] = env.get_template(_TEMPLATES[None, fmt]).render(**view, **extra)
        return public_pages[fmt]

    for viewer in viewers:
        view: dict[str, Any] | None = None
        for fmt in formats:
            if fmt == "json":
                out[(viewer, fmt)] = json_report(state, visible(every, viewer), viewer=viewer, requests=reqs,
                                                 fingerprints=fingerprints)  # fmt: skip
                continue
            if shared is None:
                shared = public_view(state, requests=reqs, fingerprints=fingerprints, board=board)
            if viewer is None:
                out[(viewer, fmt)] = public_page(fmt)
                continue
            if view is None:
                view = report_view(state, visible(every, viewer), viewer=viewer, requests=reqs,
                                   fingerprints=fingerprints, last_seqs=last_seqs, board=board, shared=shared,
                                   event_views=event_views)  # fmt: skip
            part = env.get_template(_TEMPLATES["house", fmt]).render(**view, **extra)
            if split:
                out[(viewer, fmt)] = part
            else:
                out[(viewer, fmt)] = (join_text if fmt == "text" else join_html)(part, public_page(fmt))
    return out


_TEMPLATES = {(None, "text"): "report.txt.j2", (None, "html"): "report.html.j2",
              ("house", "text"): "private.txt.j2", ("house", "html"): "private.html.j2"}  # fmt: skip
PRIVATE_AT = "<!-- maester:private -->"
PRIVATE_BEGIN, PRIVATE_END = "<!-- maester:private-begin -->", "<!-- maester:private-end -->"


def join_text(private: str, public: str) -> str:
    """A house's whole text report: its private part, then the public report of the step."""
    return private.rstrip("\n") + "\n\n" + public


def join_html(private: str, public: str) -> str:
    """A house's whole HTML report: the public page with the house's private sections put in.

    :raises ReportError: when either page lacks its marker (a moderator's template without them).
    """
    begin, end, at = private.find(PRIVATE_BEGIN), private.find(PRIVATE_END), public.find(PRIVATE_AT)
    if begin < 0 or end < begin or at < 0:
        raise ReportError(f"the HTML templates must keep the markers {PRIVATE_AT} (report.html.j2) and "
                          f"{PRIVATE_BEGIN} ... {PRIVATE_END} (private.html.j2)")  # fmt: skip
    sections = private[begin + len(PRIVATE_BEGIN) : end].strip("\n")
    return public[:at] + sections + public[at + len(PRIVATE_AT) :]


_MAP_IMG = f' id="map" src="{MAP_FILE}"'


def with_map_src(page: str, src: str) -> str:
    """An HTML report showing its map from ``src`` (a ``cid:`` in a mail) instead of the folder's ``map.svg``."""
    return page.replace(_MAP_IMG, f' id="map" src="{escape(src)}"', 1)


def drop_map(page: str) -> str:
    """An HTML report without its map picture (a mail sent without one)."""
    at = page.find(_MAP_IMG)
    if at < 0:
        return page
    start, end = page.rfind("<img", 0, at), page.find(">", at)
    return page[:start] + page[end + 1 :]


def render_step_map(state: GameState, events: Iterable[Event | Mapping[str, Any]], *, board: Board | None = None,
                    templates_dir: str | Path | None = None) -> str:  # fmt: skip
    """The step's one map (``map.svg``), shared by every reader: public facts only, the combats marked."""
    public = visible([_event(e) for e in events], None)
    return render_map(state, highlight=embattled_areas(public), board=board, templates_dir=templates_dir,
                      events=public)  # fmt: skip


_COLOURS = {h: c[0] for h, c in HOUSE_COLOURS.items()}  # each house's main colour, for the HTML report


# --- inputs -------------------------------------------------------------------------------------


def _event(e: Event | Mapping[str, Any]) -> Event:
    return e if isinstance(e, Event) else event_from_dict(dict(e))


def _request_dict(r: Any) -> dict[str, Any]:
    return dict(r.to_dict() if hasattr(r, "to_dict") else r)


def embattled_areas(events: Iterable[Event]) -> list[str]:
    """Areas fought over in these events (combat events name theirs in ``area``)."""
    out = []
    for e in events:
        area = getattr(e, "area", None)
        if type(e).__name__.startswith("Combat") and isinstance(area, str) and area in mod_board(essos=True).areas:
            out.append(area)
    return sorted(set(out))


# --- what a report shows --------------------------------------------------------------------------


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
) -> dict[str, Any]:
    """Everything the text and HTML templates show, as plain values, secrets already removed.

    ``events`` must already be filtered for the viewer (:func:`adjudicator.engine.events.visible`).
    ``shared`` is :func:`public_view` of the same state, requests and fingerprints, when the caller
    has it already from another reader's report of the step; ``event_views`` keeps each event's
    view by ``id()`` for the next reader (the events must outlive it).
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
        "verdicts": judged(answer_verdicts(state, events, viewer)) if viewer is not None else [],
    }
    if viewer is not None:
        hs = state.houses[viewer]
        view["hand"] = [_card_view(c) for c in hs.hand]
        view["discards"] = [_card_view(c) for c in hs.discards]
        view["my_requests"] = [_my_request(r) for r in mine]
        refused = {e.answer for e in events if isinstance(e, AnswerUnusable) and e.house == viewer}
        view["held"] = held_answers(state, viewer, refused=refused)
        view["held_step"] = f"round {state.round} {state.phase}"
        # ruling 124; a vassal's decisions come up for its commander, as 'for VASSAL:' lines (M030)
        view["coming_up"] = [] if state.is_vassal(viewer) else coming_up(state, viewer, requests, board=board)
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


def held_answers(state: GameState, house: str, *, refused: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The house's answers the game holds, not used yet: each with its text and the file it came from.

    ``this_step`` marks those of the open step, which a file with a higher ``seq`` replaces (ruling
    94); ``refused`` those whose text is among ``refused`` (the answers this step's events refused).
    """
    refused = set(refused)
    used = set(state.segment.used) if state.segment else set()
    out = []
    for a in state.answers:
        if a.get("house") != house or a.get("id") in used:
            continue
        parts = str(a.get("id", "")).split("/")  # house/R.step/seqN/Lk, as the batch run names them
        step = parts[1].split(".", 1) if len(parts) == 4 else []
        source = (f"{parts[2].replace('seq', 'seq ')}, line {parts[3].lstrip('L')}, of round {step[0]} {step[1]}"
                  if len(step) == 2 else "")  # fmt: skip
        out.append({"text": clean(a.get("text", "")), "source": source,
                    "this_step": step == [str(state.round), state.phase],
                    # an event may name several lines of one composite answer, joined by "; "
                    "refused": any(f"; {a.get('text')}; " in f"; {r}; " for r in refused)})
    return out


def seed_commitment(state: GameState) -> str:
    """The SHA-256 of the game's seed: published from the start, so the shuffles can be checked later."""
    return hashlib.sha256(state.rng_seed.encode("utf-8")).hexdigest()


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


def _card_view(card_id: str) -> dict[str, Any]:
    """A House card by name and strength; ``ref`` is what the ``card_text`` filter prints in full."""
    c = CARDS.house_cards.get(card_id)
    if c is None:
        return {"id": card_id, "ref": card_id, "name": card_id.replace("_", " ").title(), "strength": "?"}
    return {"id": c.id, "ref": c.id, "name": c.name, "strength": c.strength}


# The cards an event shows face up: (card kind, the fields naming them). Their whole text follows
# the event's sentence.
_SHOWN_CARDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "HouseCardsRevealed": ("house", ("attacker_card", "defender_card")),
    "HouseCardChosen": ("house", ("card",)),
    "WesterosCardRevealed": ("westeros", ("card",)),
    "WildlingCardRevealed": ("wildling", ("card",)),
    "WildlingCardSeen": ("wildling", ("card",)),
    "TidesRevealed": ("tides", ("attacker_card", "defender_card")),
    "TidesDrawn": ("tides", ("card",)),
}


def shown_cards(e: Event) -> list[str]:
    """References (:func:`adjudicator.reports.cardtext.card_ref`) of the cards an event turns face up."""
    kind, names = _SHOWN_CARDS.get(type(e).__name__, ("", ()))
    refs = []
    for name in names:
        card = getattr(e, name, "")
        if isinstance(card, str) and card:
            refs.append(card_ref(kind, card, getattr(e, "deck", None)))
    return list(dict.fromkeys(refs))


# --- events -----------------------------------------------------------------------------------------


def event_view(e: Event, *, private: bool = False) -> dict[str, Any]:
    """An event's sentence and, for every breakdown it carries, a small table.

    A breakdown is a field holding ``(source, amount)`` pairs (a combat's strength, the bids of
    a track) or a dict of amounts. ``<side>_strength`` tables are titled with the house on that
    side and get a total row when the event has ``<side>_total``.
    """
    tables = []
    for f in fields(e):
        value = getattr(e, f.name)
        rows = _pairs(value)
        if rows is None:
            continue
        side = f.name.removesuffix("_strength")
        title = f.name.replace("_", " ").capitalize()
        house = getattr(e, side, None) if side != f.name else None
        if isinstance(house, str):
            title = f"{house.title() if house else 'Neutral force'} ({side})"
        table_rows = [{"label": _source_text(e, str(k)), "amount": v} for k, v in rows]
        total = getattr(e, f"{side}_total", None) if side != f.name else None
        tables.append({"title": title, "rows": table_rows, "total": total})
    return {"type": type(e).__name__, "text": clean(sentence(e)), "private": private, "tables": tables,
            "table_lines": table_lines(tables), "cards": shown_cards(e)}  # fmt: skip


def sentence(e: Event) -> str:
    """The event's sentence; the step machine's own records are worded here for the reader.

    >>> sentence(AnswerUsed(house="stark", decision="resolve one of your raid orders",
    ...                     answer="raid from Winterfell: none"))
    'Your answer "raid from Winterfell: none" was taken for: resolve one of your raid orders.'
    >>> from adjudicator.engine.events.action import OrdersRevealed
    >>> sentence(OrdersRevealed(orders=(("winterfell", "stark", "march+1"), ("pyke", "greyjoy", "raid"),
    ...                                 ("white_harbor", "stark", "defense+2"))))
    'Orders revealed. Stark: March +1 in Winterfell, Defense +2 in White Harbor. Greyjoy: Raid in Pyke.'
    """
    if isinstance(e, AnswerUsed) and e.visible_to == e.house:
        return f'Your answer "{e.answer}" was taken for: {e.decision}.'
    if isinstance(e, OnlyOption):
        return f"{e.house.title()} had one legal answer, taken without asking: {e.answer}."
    if isinstance(e, DefaultUsed):
        return f"{e.house.title()} did not answer by the deadline: {e.decision}. Default taken: {e.answer}."
    return e.describe()


def table_lines(tables: list[dict[str, Any]], *, indent: int = 6, width: int = WIDTH) -> list[str]:
    """Breakdown tables as text: two side by side when they fit, else one after the other."""
    blocks = [_table_block(t) for t in tables]
    if len(blocks) == 2 and all(len(line) <= (width - indent - 4) // 2 for b in blocks for line in b):
        left, right = blocks
        col = max(len(line) for line in left) + 4
        rows = max(len(left), len(right))
        left += [""] * (rows - len(left))
        right += [""] * (rows - len(right))
        return [(" " * indent + a.ljust(col) + b).rstrip() for a, b in zip(left, right)]
    return [(" " * indent + line).rstrip() for b in blocks for line in b]


def _table_block(t: dict[str, Any]) -> list[str]:
    rows = [(r["label"], str(r["amount"])) for r in t["rows"]]
    if t["total"] is not None:
        rows.append(("total", str(t["total"])))
    label_w = min(max(len(a) for a, _ in rows), WIDTH - 16)
    num_w = max(len(b) for _, b in rows)
    lines = [t["title"]]
    for label, amount in rows:
        short = label if len(label) <= label_w else label[: label_w - 1] + "…"
        lines.append(f"  {short.ljust(label_w, '.')}..{amount.rjust(num_w)}")
    return lines


def _pairs(value: Any) -> list[tuple[Any, Any]] | None:
    if isinstance(value, dict) and value and all(_is_amount(v) for v in value.values()):
        return sorted(value.items())
    if isinstance(value, (tuple, list)) and value and all(
        isinstance(p, (tuple, list)) and len(p) == 2 and isinstance(p[0], str) and _is_amount(p[1]) for p in value
    ):
        return [(p[0], p[1]) for p in value]
    return None


def _is_amount(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _source_text(e: Event, source: str) -> str:
    """Words for a breakdown's row: the event module's ``source_text`` if it has one."""
    if source in HOUSES:
        return source.title()
    describe = getattr(sys.modules.get(type(e).__module__), "source_text", None)
    if callable(describe):
        return clean(str(describe(source)))
    return clean(source.replace("_", " ").replace(":", ": "))


def clean(text: str) -> str:
    """Player text made safe for a mail: control characters and line breaks become spaces."""
    return "".join(ch if ch.isprintable() else " " for ch in str(text))


# --- requests ------------------------------------------------------------------------------------------


# A request's context keys in words, where the key alone would not say it.
CONTEXT_LABELS: dict[str, str] = {"then": "your areas still to muster after this one"}


def _my_request(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": r.get("key", ""),
        "kind": kind_name(r["kind"]),
        "prompt": clean(r["prompt"]),
        "secret": bool(r.get("secret")),
        "options": [command_text(as_commander(r, o)) for o in r.get("options", [])],
        "default": _default_text(r),
        "context": [f"{CONTEXT_LABELS.get(k, k.replace('_', ' '))}: {_context_text(v)}"
                    for k, v in sorted(r.get("context", {}).items())],
    }


def _default_text(r: dict[str, Any]) -> list[str]:
    if "default" in r:
        return [command_text(as_commander(r, r["default"]))]
    return [command_text(as_commander(r, p)) for p in r.get("default_parts", [])]


def _context_text(v: Any) -> str:
    """A request's context in the words of the game: printed names, order tokens as written, yes/no.

    >>> _context_text({"the_shivering_sea": "support+1", "winterfell": ["march+0", True]})
    'The Shivering Sea: support +1; Winterfell: march +0, yes'
    >>> _context_text({})
    'none'
    """
    if isinstance(v, dict):
        return "; ".join(f"{_word(str(k))}: {_context_text(x)}" for k, x in sorted(v.items())) or "none"
    if isinstance(v, (list, tuple)):
        return ", ".join(_context_text(x) for x in v) or "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return clean(_word(v) if isinstance(v, str) else str(v))


def _word(ident: str) -> str:
    """An id as a player reads it: ``kings_landing`` -> ``King's Landing``, ``march+1`` -> ``march +1``."""
    if ident in ORDER_TEXT:
        return ORDER_TEXT[ident]
    if ident in HOUSES:
        return ident.title()
    if ident in TRACK_NAMES:
        return TRACK_NAMES[ident]
    for kind in ("area", "house_card", "westeros_card", "wildling_card", "unit"):
        name = display_name(kind, ident)
        if name != ident:
            return name
    return ident.replace("_", " ")


def command_text(cmd: Command) -> str:
    """A command as a turn-file line: the parser's canonical printer, or a plain fallback without it."""
    try:
        from ..turnfile.printer import format_command
    except ImportError:
        return clean(plain_command(cmd))
    return clean(format_command(cmd))


def plain_command(cmd: Command) -> str:
    """``raid: origin winterfell; targets karhold``: every field of a command, in a neutral form.

    >>> from adjudicator.game.commands import Bid
    >>> plain_command(Bid(track="fiefdoms", amount=3))
    'bid: track fiefdoms; amount 3'
    """
    fields_ = {k: v for k, v in to_command_dict(cmd).items() if k != "type"}
    return f"{cmd.kind.replace('_', ' ')}: " + "; ".join(f"{k.replace('_', ' ')} {_plain_value(v)}" for k, v in fields_.items())


def _plain_value(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join(_plain_value(x) for k, x in v.items() if k != "type")
    if isinstance(v, list):
        return ", ".join(_plain_value(x) for x in v) or "none"
    return str(v) if v != "" else "none"


def skeleton(state: GameState, house: str, requests: Iterable[Any], *, last_seq: int = 0,
             refused: Iterable[str] = (), ahead: Iterable[str] = ()) -> str:
    """A turn file ready to fill in: the header, then per open request its prompt and a template line,
    then ``ahead``: the lines for what is coming up (:func:`adjudicator.reports.comingup.skeleton_lines`).

    Template lines are commented out; a player uncomments (or rewrites) the ones he means.

    >>> from adjudicator.game.setup import new_game
    >>> req = {"key": "k", "kind": "bid", "house": "stark", "prompt": "bid for the Iron Throne", "options": []}
    >>> print(skeleton(new_game(["stark", "lannister", "baratheon"], seed="doc"), "stark", [req]))
    game game · house stark · round 1 · planning · seq 1
    # bid: bid for the Iron Throne
    # bid TRACK AMOUNT
    <BLANKLINE>
    """
    head = format_header(Header(state.game_id, house, state.round, state.phase, last_seq + 1))
    # A header is one line: a long game id gets the separators without spaces, to stay within the width.
    lines = [head if len(head) <= WIDTH else head.replace(" · ", "·")]
    kept = [h for h in held_answers(state, house, refused=refused) if h["this_step"]]
    if kept:
        lines += ["# Your answers not used yet, repeated: this file replaces those you sent for",
                  f"# round {state.round} {state.phase} (ruling 94). Delete the lines you no longer mean."]
        for h in kept:
            if h["refused"]:  # commented out: sent back as it is, the skeleton does not send it again
                lines += ["# refused (see your report): mend it and remove the '# ', or leave it out",
                          f"# {h['text']}"]
            else:
                lines.append(h["text"])
    for r in (_request_dict(r) for r in requests):
        if r["house"] != house:
            continue
        lines += textwrap.wrap(f"# {kind_name(r['kind'])}: {clean(r['prompt'])}", WIDTH, subsequent_indent="#   ",
                               break_long_words=False, break_on_hyphens=False)
        template = _default_text(r) or [command_text(as_commander(r, o)) for o in r.get("options", [])[:1]]
        lines += [f"# {t}" for t in (template or [for_line(r, KIND_TEMPLATES.get(r["kind"], r["kind"] + " ..."))])]
    lines += list(ahead)  # the later tracks' bids among them, when a bid is asked
    return "\n".join(lines) + "\n"


KIND_TEMPLATES: dict[str, str] = {
    "orders": "AREA: ORDER", "raven": "raven pass", "raven_wildling": "wildling card: top",
    "raid": "raid from AREA onto AREA else none", "march": "march from AREA: UNITS -> AREA",
    "support": "support HOUSE in AREA", "refuse_support": "refuse support from HOUSE",
    "house_card": "play CARD", "blade": "keep blade", "casualties": "casualties: UNITS",
    "retreat": "retreat to AREA", "card_choice": "CARD: OPTION", "port_ships": "port of AREA: take over N ships",
    "muster": "muster in AREA: UNITS", "consolidate": "consolidate in AREA", "bid": "bid TRACK AMOUNT",
    "tie_break": "tie-break: HOUSE, HOUSE, HOUSE", "reconcile": "supply: destroy UNIT in AREA",
    "westeros_choice": "CARD: OPTION", "wildling_choice": "CARD: OPTION",
    "distribute": "distribute TRACK: N to HOUSE, N to HOUSE",
}  # fmt: skip


# --- JSON ----------------------------------------------------------------------------------------------


def json_report(
    state: GameState,
    events: list[Event],
    *,
    viewer: str | None,
    requests: list[dict[str, Any]],
    fingerprints: Mapping[str, list[str]] | None,
) -> str:
    """The machine-readable twin of a report: events, the state without secrets, open requests; for a
    house, also every answer of its own with its verdict (:func:`adjudicator.reports.verdicts.answer_verdicts`)."""
    doc = {
        "format": "maester-report",
        "version": 1,
        "viewer": viewer,
        "events": [e.to_dict() for e in events],
        "state": public_state(state, viewer=viewer, requests=requests),
        "fingerprints": {h: list(v) for h, v in sorted((fingerprints or {}).items())},
    }
    if viewer is not None:
        doc["answers"] = answer_verdicts(state, events, viewer)
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"  # compact: kept per step


def public_state(state: GameState, *, viewer: str | None, requests: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``state.to_dict()`` as a viewer may see it.

    Gone: the seed (a SHA-256 commitment instead, the seed itself once the game is over), the
    half-resolved segment, the answers pool, the order of every deck (sizes only), and the
    options, context and default of requests to other houses.
    """
    d = state.to_dict()
    for secret in ("segment", "answers", "rng"):
        d.pop(secret, None)
    d["rng"] = {"commitment": seed_commitment(state)}
    if state.phase == "game_over":
        d["rng"]["seed"] = state.rng_seed
    decks = d.pop("decks")
    d["decks"] = {
        "westeros_left": {k: len(v) for k, v in decks["westeros"].items()},
        "westeros_discards": decks["westeros_discards"],
        "wildling_left": len(decks["wildling"]),
        "tides_left": len(decks["tides"]),
        "tides_discards": decks["tides_discards"],
    }
    reqs = requests if requests is not None else [dict(p) for p in state.pending]
    d["pending"] = [r if viewer is not None and r["house"] == viewer else
                    {k: r[k] for k in ("key", "kind", "house", "prompt", "secret") if k in r} for r in reqs]  # fmt: skip
    return d
