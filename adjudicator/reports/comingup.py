"""COMING UP FOR YOU: the decisions a house may answer before they are asked (ruling 124).

The private report's section and the skeleton's lines for what :func:`adjudicator.engine.ahead.upcoming`
finds: each item says when the decision comes and shows a line to fill in. Answered in the same
file, it is used when its decision comes, and the mail round that would have asked it is saved.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.ahead import Upcoming, upcoming
from ..engine.core.context import Request
from ..engine.events import kind_name
from ..game.board import Board
from ..game.commands import Command, Retreat
from ..game.state import GameState
from ..turnfile.names import display_name
from ..turnfile.printer import format_command
from .words import WIDTH, clean, comment_lines


def coming_up(state: GameState, viewer: str, requests: Iterable[Request | Mapping[str, Any]], *,
              board: Board | None = None, found: list[Upcoming] | None = None) -> list[dict[str, Any]]:
    """The view of each decision coming up for ``viewer``: its kind, prompt, when, and lines to fill in
    (``found``: what :func:`upcoming` gives for them, when the caller has it)."""
    if found is None:
        reqs = [r if isinstance(r, Request) else Request.from_dict(dict(r)) for r in requests]
        found = upcoming(state, viewer, reqs, board=board)
    return [{"kind": kind_name(u.request.kind), "prompt": clean(u.request.prompt), "why": clean(u.why),
             "lines": [clean(line) for line in template_lines(u)]}
            for u in found]


def skeleton_lines(items: list[dict[str, Any]]) -> list[str]:
    """The skeleton's block for what is coming up: every line commented, to be taken up or left."""
    if not items:
        return []
    out = ["# Coming up, not asked yet: answering now saves a mail (uncomment what you mean)"]
    for item in items:
        out += comment_lines(f"# {item['kind']}: {item['prompt']}")
        out += [f"# {line}" for line in item["lines"]]
    return out


def template_lines(u: Upcoming) -> list[str]:
    """Lines a player may fill in for one decision: the item's own, or one built from its request."""
    if u.lines:
        return list(u.lines)
    lines = _request_lines(u.request)
    # A vassal's decision is answered by its commander with "for VASSAL:" (M030, ruling 297).
    return [f"for {u.request.vassal}: {line}" for line in lines] if u.request.vassal else lines


def _request_lines(r: Request) -> list[str]:
    ctx = r.context
    if r.kind == "muster":
        where = display_name("area", str(ctx.get("area", "")))
        first = [*ctx.get("units", []), *(f"upgrade footman to {x}" for x in ctx.get("upgrades", []))]
        what = str(first[0]).replace("_", " ") if first else "none"
        return [f"muster in {where}: {what}"]
    if r.kind == "march":
        origin = str(ctx.get("origin", ""))
        dests = list(dict(ctx.get("destinations", {})).get(origin, []))
        units = list(dict(ctx.get("units", {})).get(origin, []))
        if dests and units:
            unit = str(units[0]).replace("_", " ")
            return [f"march from {display_name('area', origin)}: {unit} -> {display_name('area', str(dests[0]))}"]
        return [f"march from {display_name('area', origin)}: stay"]
    if r.kind == "retreat" and isinstance(r.default, Retreat):
        areas = list(r.default.areas)
        while len(areas) > 1 and len(format_command(dataclasses.replace(r.default, areas=tuple(areas)))) > WIDTH - 2:
            areas.pop()  # the skeleton's line stays within the report's width: the first choices first
        return [format_command(dataclasses.replace(r.default, areas=tuple(areas)))]
    shown: list[Command] = list(r.options[:2]) if r.kind in ("raid", "blade", "card_choice", "westeros_choice") else []
    if not shown and r.default is not None:
        shown = list(r.default) if isinstance(r.default, tuple) else [r.default]
    if not shown and r.options:
        shown = [r.options[0]]
    return [format_command(c) for c in shown] or [r.kind.replace("_", " ") + " ..."]
