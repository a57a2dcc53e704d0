"""Every answer's verdict: what became of each answer a house sent, for its private report and receipts.

An answer is **used** (a decision took it), **refused** (it does not fit the decision it was
meant for, or no decision left in its round could use it: with the reason and the rule),
**expired** (its round ended and no decision needed it), **withdrawn** (a standing instruction its
house withdrew or replaced, rulings 353, 354) or **waiting** (the game holds it for a decision
still to come). The step machine's events say which (``AnswerUsed``,
``AnswerUnusable``, ``AnswersExpired``, each naming the answers' pool ids); this module reads
them, with the answers the game still holds, into one list per house. Only the house's own
answers are ever listed, and only in its own report: an answer may be a secret (orders, bids,
House cards).

>>> from adjudicator.engine.events import AnswerUnusable
>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> refused = AnswerUnusable(house="stark", answer="use blade", ids=("stark/1.action/seq1/L2",),
...                          reason="the Valyrian Steel Blade has already been used this round (R093)")
>>> [(v["status"], v["rule"], v["source"]) for v in answer_verdicts(state, [refused], "stark")]
[('refused', 'R093', 'seq 1, line 2, of round 1 action')]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.events import AnswersExpired, AnswerUnusable, AnswerUsed, Event, StandingWithdrawn
from ..game.state import GameState

STATUSES = ("used", "refused", "expired", "waiting", "withdrawn")
STATUS_WORDS = {"used": "used", "refused": "refused", "expired": "not needed", "waiting": "waiting",
                "withdrawn": "withdrawn"}


def answer_source(answer_id: str) -> str:
    """Where an answer came from, from its pool id (``house/R.step/seqN/Lk``, as the batch run names them).

    >>> answer_source("stark/3.action/seq2/L7"), answer_source("stark/t1")
    ('seq 2, line 7, of round 3 action', '')
    """
    parts = answer_id.split("/")
    step = parts[1].split(".", 1) if len(parts) == 4 else []
    if len(step) != 2 or not parts[2].startswith("seq") or not parts[3].startswith("L"):
        return ""
    return f"seq {parts[2].removeprefix('seq')}, line {parts[3].removeprefix('L')}, of round {step[0]} {step[1]}"


def answer_verdicts(state: GameState, events: Iterable[Event], house: str) -> list[dict[str, Any]]:
    """Each answer of ``house`` that the step's ``events`` judged or that ``state`` still holds.

    ``state`` is the position after the step. Each entry: ``id``, ``text``, ``source``,
    ``status`` (the step's last verdict on it, or ``waiting``), ``held`` (the game still holds
    it: a standing answer once used, a refused one waiting for another decision it fits),
    ``rule`` and ``reason`` (for a refusal or an expiry) and ``decision`` (what used it).
    An answer judged several times in a step keeps its last verdict, but an answer refused and
    then dropped with its round stays "refused".
    """
    out: dict[str, dict[str, Any]] = {}

    def judge(ids: tuple[str, ...], texts: list[str], **verdict: str) -> None:
        for i, answer_id in enumerate(ids):
            text = texts[i] if len(texts) == len(ids) else "; ".join(texts)
            entry = out.pop(answer_id, None) or {"id": answer_id, "text": text, "source": answer_source(answer_id)}
            out[answer_id] = {**entry, "rule": "", "reason": "", "decision": "", **verdict}

    for e in events:
        if getattr(e, "house", None) != house or e.visible_to != house:
            continue
        if isinstance(e, AnswerUsed):
            judge(e.ids, _split(e.answer, len(e.ids)), status="used", decision=e.decision)
        elif isinstance(e, AnswerUnusable):
            judge(e.ids, _split(e.answer, len(e.ids)), status="refused", rule=e.rule, reason=e.reason)
        elif isinstance(e, AnswersExpired):
            # Refused for a decision, then dropped with its round: the refusal is what it needs to know.
            fresh = tuple(i for i in e.ids if out.get(i, {}).get("status") != "refused")
            judge(fresh, [t for i, t in zip(e.ids, e.answers) if i in fresh], status="expired", rule=e.rule,
                  reason=e.reason or f"no decision it fits came up in its round ({e.rule})")
        elif isinstance(e, StandingWithdrawn):  # withdrawn or replaced (rulings 353, 354)
            judge(e.ids, list(e.answers), status="withdrawn", rule=e.rule, reason=e.reason)
    held = _held(state, house)
    for answer_id, verdict in out.items():
        verdict["held"] = answer_id in held
    for answer_id, text in held.items():
        if answer_id not in out:
            out[answer_id] = {"id": answer_id, "text": text, "source": answer_source(answer_id), "status": "waiting",
                              "held": True, "rule": "", "reason": "", "decision": ""}
    return list(out.values())


def judged(verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The verdicts given in the step (waiting answers left out), each with a line of words."""
    return [v | {"line": verdict_line(v), "said": STATUS_WORDS[v["status"]]} for v in verdicts if v["status"] != "waiting"]


def verdict_line(v: dict[str, Any]) -> str:
    """One verdict in words: ``use blade: refused: the Valyrian Steel Blade ... (R093)``; a reason
    ends with its rule. What used an answer is told by the event that used it (and in ``decision``)."""
    if v["status"] == "used":  # the decision it served is told among the events
        return f"{v['text']}: used" + ("; it stands for later decisions" if v["held"] else "")
    tail = "; it waits for another decision it fits" if v["held"] else ""
    return f"{v['text']}: {STATUS_WORDS[v['status']]}: {v['reason']}{tail}"


def _split(answer: str, n: int) -> list[str]:
    """The texts of ``n`` answers one event names together ("; "-joined), or the whole text."""
    parts = answer.split("; ")
    return parts if len(parts) == n else [answer]


def _held(state: GameState, house: str) -> dict[str, str]:
    used = set(state.segment.used) if state.segment else set()
    return {str(a["id"]): str(a.get("text", "")) for a in state.answers
            if a.get("house") == house and a.get("id") not in used}


def private_json(state: GameState, events: Iterable[Event], viewer: str, requests: Iterable[Mapping[str, Any]]) -> str:
    """A house's private part of a step's report as JSON (the game folder's ``HOUSE.json``): the
    events only it sees, every answer of its own with its verdict, and its open requests in full.
    The public part is ``report.json``; nothing here is any other house's."""
    evs = list(events)
    doc = {
        "format": "maester-private-report",
        "version": 1,
        "game": state.game_id,
        "round": state.round,
        "phase": state.phase,
        "viewer": viewer,
        "events": [e.to_dict() for e in evs if e.visible_to == viewer],
        "answers": answer_verdicts(state, evs, viewer),
        "requests": [dict(r) for r in requests if r.get("house") == viewer],
    }
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
