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

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from markupsafe import escape

from ..engine.ahead import Upcoming
from ..engine.events import Event, visible
from ..engine.events import from_dict as event_from_dict
from ..game.board import Board
from ..game.state import GameState
from . import cardtext, mapregion, svgmap, templating, words
from .decisions import KIND_TEMPLATES as KIND_TEMPLATES
from .decisions import command_text as command_text
from .decisions import held_answers as held_answers
from .decisions import plain_command as plain_command
from .decisions import request_dict
from .decisions import skeleton as skeleton
from .eventview import event_view as event_view
from .eventview import sentence as sentence
from .eventview import shown_cards as shown_cards
from .eventview import table_lines as table_lines
from .svgmap import HOUSE_COLOURS, MapLayout, render_map
from .templating import environment
from .verdicts import answer_verdicts
from .views import PHASE_NAMES as PHASE_NAMES
from .views import TOKEN_NAMES as TOKEN_NAMES
from .views import iron_bank_view as iron_bank_view
from .views import public_view, report_view, seed_commitment
from .words import TRACK_NAMES as TRACK_NAMES
from .words import WIDTH as WIDTH
from .words import clean as clean

# The views, events, decisions and words of a report live in their own modules (views, eventview,
# decisions, words); their names are kept here too, where callers have always found them.
FORMATS = ("text", "html", "json")
MAP_FILE = "map.svg"  # the step's map in its report folder, beside the pages that show it


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
    upcoming: Callable[[str], list[Upcoming]] | None = None,
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
    reqs = [request_dict(r) for r in (requests or state.pending)]
    shared: dict[str, Any] | None = None
    event_views: dict[int, dict[str, Any]] = {}  # by id() of the events in `every`, alive throughout
    public_pages: dict[str, str] = {}
    public: dict[str, Any] = {}  # the public report's view, once for both formats
    out: dict[tuple[str | None, str], str] = {}
    env = environment(templates_dir)
    templates: dict[tuple[str | None, str], Any] = {}  # each looked up once a step (a lookup stats its file)
    layout = MapLayout.for_map(board.map)
    extra = {"colours": _COLOURS, "map_src": map_src, "map_width": layout.width}
    public_extra: dict[str, Any] = {}  # the public page's region of the map, worked out when first needed

    def template(who: str | None, fmt: str) -> Any:
        if (who, fmt) not in templates:
            templates[who, fmt] = env.get_template(_TEMPLATES[who, fmt])
        return templates[who, fmt]

    def public_page(fmt: str) -> str:
        if fmt not in public_pages:
            if not public:
                public.update(report_view(state, visible(every, None), viewer=None, requests=reqs,
                                          fingerprints=fingerprints, last_seqs=last_seqs, board=board, shared=shared,
                                          event_views=event_views))  # fmt: skip
            if fmt == "html" and not public_extra:
                shown = mapregion.public_region(state, board, visible(every, None), open_combats(state, board))
                public_extra["region"] = mapregion.region_view(shown, layout)
            public_pages[fmt] = template(None, fmt).render(**public, **extra, **public_extra)
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
                                   event_views=event_views, upcoming=upcoming)  # fmt: skip
            own = {"region": mapregion.region_view(mapregion.house_region(state, board, viewer), layout)} if fmt == "html" else {}
            part = template("house", fmt).render(**view, **extra, **own)
            if split:
                out[(viewer, fmt)] = part
            else:
                out[(viewer, fmt)] = (join_text if fmt == "text" else join_html)(part, public_page(fmt))
    return out


_TEMPLATES = {(None, "text"): "report.txt.j2", (None, "html"): "report.html.j2",
              ("house", "text"): "private.txt.j2", ("house", "html"): "private.html.j2"}  # fmt: skip
PRIVATE_AT = "<!-- maester:private -->"
PRIVATE_BEGIN, PRIVATE_END = "<!-- maester:private-begin -->", "<!-- maester:private-end -->"
# The region of the map shown first (mapregion.py): a house's replaces the public page's.
REGION_BEGIN, REGION_END = "<!-- maester:region -->", "<!-- maester:region-end -->"
MAP_BEGIN, MAP_END = "<!-- maester:map -->", "<!-- maester:map-end -->"  # every picture of the map


def join_text(private: str, public: str) -> str:
    """A house's whole text report: its private part, then the public report of the step."""
    return private.rstrip("\n") + "\n\n" + public


def join_html(private: str, public: str) -> str:
    """A house's whole HTML report: the public page with the house's private sections put in, and the
    house's region of the map in place of the public one (when both pages mark theirs).

    :raises ReportError: when either page lacks its marker (a moderator's template without them).
    """
    begin, end, at = private.find(PRIVATE_BEGIN), private.find(PRIVATE_END), public.find(PRIVATE_AT)
    if begin < 0 or end < begin or at < 0:
        raise ReportError(f"the HTML templates must keep the markers {PRIVATE_AT} (report.html.j2) and "
                          f"{PRIVATE_BEGIN} ... {PRIVATE_END} (private.html.j2)")  # fmt: skip
    sections = private[begin + len(PRIVATE_BEGIN) : end].strip("\n")
    page = public[:at] + sections + public[at + len(PRIVATE_AT) :]
    own, shown = _marked(private, REGION_BEGIN, REGION_END, end), _marked(page, REGION_BEGIN, REGION_END)
    if own is not None and shown is not None:
        page = page[: shown[0]] + private[own[0] : own[1]] + page[shown[1] :]
    return page


def _marked(page: str, begin: str, end: str, after: int = 0) -> tuple[int, int] | None:
    """Where the part between two markers lies, markers included (None without both)."""
    start = page.find(begin, after)
    stop = page.find(end, start) if start >= 0 else -1
    return (start, stop + len(end)) if stop >= 0 else None


def page_style(page: str) -> str:
    """The stylesheet of a page (its first ``<style>`` block, whole), or '' when it has none: a page
    whose body is put into another (a mail's digest of steps) brings it along."""
    start = page.find("<style")
    stop = page.find("</style>", start) if start >= 0 else -1
    return page[start : stop + len("</style>")] if stop >= 0 else ""


def stylesheet(board: Board | None = None, *, templates_dir: str | Path | None = None) -> str:
    """The reports' stylesheet (``report.css.j2``) as a ``<style>`` block, for a page that has no report
    to take it from (a mail of receipts only)."""
    width = MapLayout.for_map((board or Board.classic()).map).width
    return str(environment(templates_dir).get_template("report.css.j2").render(colours=_COLOURS, map_width=width)).strip()


_MAP_SRC = f' src="{MAP_FILE}"'


def with_map_src(page: str, src: str) -> str:
    """An HTML report showing its map from ``src`` (a ``cid:`` in a mail) instead of the folder's
    ``map.svg``, in every picture of it (the region and the whole board)."""
    return page.replace(_MAP_SRC, f' src="{escape(src)}"')


def drop_map(page: str) -> str:
    """An HTML report without its map (a mail sent without one, or an earlier step in a digest)."""
    marked = _marked(page, MAP_BEGIN, MAP_END)
    if marked is not None:
        return page[: marked[0]] + page[marked[1] :]
    at = page.find(_MAP_SRC)
    while at >= 0:  # a moderator's template without the markers: the pictures alone
        start, end = page.rfind("<img", 0, at), page.find(">", at)
        if start < 0 or end < 0:
            break
        page = page[:start] + page[end + 1 :]
        at = page.find(_MAP_SRC, start)
    return page


def render_step_map(state: GameState, events: Iterable[Event | Mapping[str, Any]], *, board: Board | None = None,
                    templates_dir: str | Path | None = None) -> str:  # fmt: skip
    """The step's one map (``map.svg``), shared by every reader: public facts only, the combats still
    open at the end of the step marked (a combat fought to its end within the step is not)."""
    public = visible([_event(e) for e in events], None)
    return render_map(state, highlight=open_combats(state, board), board=board, templates_dir=templates_dir,
                      events=public)  # fmt: skip


_COLOURS = {h: c[0] for h, c in HOUSE_COLOURS.items()}  # each house's main colour, for the HTML report


def clear_caches() -> None:
    """Forget every part remembered from earlier reports of this process: the wrapped paragraphs, the
    cards' texts, the turn-file comments, the map's drawn parts and its regions. The next report is
    worked out from scratch, and must be the same (for tests and benchmarks)."""
    templating.clear_caches()
    cardtext.clear_caches()
    words.clear_caches()
    svgmap.clear_caches()
    mapregion.clear_caches()


# --- inputs -------------------------------------------------------------------------------------


def _event(e: Event | Mapping[str, Any]) -> Event:
    return e if isinstance(e, Event) else event_from_dict(dict(e))


def open_combats(state: GameState, board: Board | None = None) -> list[str]:
    """The embattled areas of the combats not over yet: every request of a combat names its area in
    ``context["combat_area"]`` (support, house cards, card choices, casualties, retreats), and a
    combat is over once none is open."""
    areas = (board or state.board()).areas
    found = {p["context"]["combat_area"] for p in state.pending if isinstance(p.get("context"), dict)
             and isinstance(p["context"].get("combat_area"), str)}  # fmt: skip
    return sorted(a for a in found if a in areas)


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
