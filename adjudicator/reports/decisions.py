"""A house's decisions in its report: its open requests in words, its answers waiting, the turn-file skeleton."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.events import kind_name
from ..game.commands import Command
from ..game.commands import to_dict as to_command_dict
from ..game.state import GameState
from ..turnfile.header import Header, format_header
from .vassals import as_commander, for_line
from .verdicts import answer_source
from .words import WIDTH, clean, comment_lines, context_text


def request_dict(r: Any) -> dict[str, Any]:
    """A request as a dict: a ``Request`` object's ``to_dict()``, or a copy of the dict given."""
    return dict(r.to_dict() if hasattr(r, "to_dict") else r)


# A request's context keys in words, where the key alone would not say it.
CONTEXT_LABELS: dict[str, str] = {"then": "your areas still to muster after this one"}


def my_request(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": r.get("key", ""),
        "kind": kind_name(r["kind"]),
        "prompt": clean(r["prompt"]),
        "secret": bool(r.get("secret")),
        "options": [command_text(as_commander(r, o)) for o in r.get("options", [])],
        "default": _default_text(r),
        "context": [f"{CONTEXT_LABELS.get(k, k.replace('_', ' '))}: {context_text(v)}"
                    for k, v in sorted(r.get("context", {}).items())],
    }


def _default_text(r: dict[str, Any]) -> list[str]:
    if "default" in r:
        return [command_text(as_commander(r, r["default"]))]
    return [command_text(as_commander(r, p)) for p in r.get("default_parts", [])]


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


def held_answers(state: GameState, house: str, *, refused: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The house's answers the game holds, not used yet: each with its text and the file it came from.

    ``this_step`` marks those of the open step, which a file with a higher ``seq`` replaces (ruling
    94); ``refused`` those whose text is among ``refused`` (the answers this step's events refused).
    """
    refused = set(refused)
    used = set(state.segment.used) if state.segment else set()
    out = []
    for a in state.answers:
        if a.get("house") != house or a.get("id") in used or a.get("standing"):  # listed on their own
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


def standing_answers(state: GameState, house: str) -> list[dict[str, Any]]:
    """The house's standing instructions (ruling 353), in the order they were sent: each with its text,
    where it came from and the line that withdraws it."""
    out = []
    for a in state.answers:
        if a.get("house") == house and a.get("standing"):
            text = clean(a.get("text", ""))
            out.append({"text": text, "source": answer_source(str(a.get("id", ""))),
                        "withdraw": "withdraw: " + text.removeprefix("standing: ")})
    return out


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
    for r in (request_dict(r) for r in requests):
        if r["house"] != house:
            continue
        lines += comment_lines(f"# {kind_name(r['kind'])}: {clean(r['prompt'])}")
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

