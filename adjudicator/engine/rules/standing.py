"""Standing instructions: answers that hold from round to round until withdrawn (rulings 353-357).

A line ``standing: LINE`` is kept in the answer pool marked ``standing`` (``pool_entry``): every
decision it fits uses it and leaves it there, round after round; a decision it no longer fits
(the area was lost, the card is in the discard pile) skips it with a word to its house and is
asked as usual (``Context._from_pool``). This module does what happens when such lines arrive:

* ``withdraw: LINE`` takes the standing instruction of that line out of the pool, ``withdraw all``
  every one of the house's (ruling 353);
* a new standing line for the same decision as an older one (:func:`~adjudicator.game.commands.standing_slot`)
  replaces it (ruling 354);
* a standing line that no decision of the game could ever use is refused at once (ruling 356,
  :mod:`.standing_fit`).

Each change is told to its house alone, as every verdict on an answer is.
"""

from __future__ import annotations

from typing import Any

from ...game.board import Board
from ...game.commands import Withdraw, from_dict, standing_slot
from ...game.state import GameState
from ..core.context import PoolEntry
from ..events import AnswerUnusable, AnswerUsed, Event, StandingWithdrawn
from .standing_fit import never_fits

WITHDRAW_RULE = "ruling 353"
REPLACE_RULE = "ruling 354"
KEY_RULE = "ruling 358"


def standing_changes(state: GameState, board: Board, answers: list[dict[str, Any]],
                     arriving: set[str]) -> tuple[list[dict[str, Any]], list[Event]]:
    """The pool once the arriving ``withdraw`` lines and standing lines have had their effect, in the
    order they were written: each withdrawal takes out the house's standing instructions it names, and
    each new standing line the older one of the same decision (rulings 353, 354); a new one no
    decision could ever use is refused and replaces nothing (ruling 356)."""
    kept: list[dict[str, Any]] = []
    events: list[Event] = []
    for a in answers:
        if a["id"] not in arriving:
            kept.append(a)
            continue
        entry = PoolEntry.from_dict(a)
        if isinstance(entry.command, Withdraw):
            kept, told = _withdraw(kept, entry)
            events.extend(told)
            continue
        if entry.standing and (why := never_fits(state, board, entry)):
            events.append(AnswerUnusable(house=entry.house, answer=entry.text, reason=why, ids=(entry.id,),
                                         visible_to=entry.house))
            continue
        if entry.standing:
            slot = standing_slot(entry.command)
            older = [k for k in kept if _same_house(k, entry) and k.get("standing")
                     and standing_slot(from_dict(k["command"])) == slot]
            if older:
                events.append(StandingWithdrawn(
                    house=entry.house, answers=tuple(str(k.get("text", "")) for k in older),
                    ids=tuple(k["id"] for k in older), visible_to=entry.house,
                    reason=f'replaced by "{entry.text}", a later standing line for the same decision ({REPLACE_RULE})'))
                gone = {k["id"] for k in older}
                kept = [k for k in kept if k["id"] not in gone]
        kept.append(a)
    return kept, events


def standing_of_other_keys(answers: list[dict[str, Any]], house: str,
                           fingerprint: str) -> tuple[list[dict[str, Any]], list[Event]]:
    """The pool without ``house``'s standing instructions sealed by another key than ``fingerprint``:
    a standing instruction never outlives its key (ruling 358). A line without a key (an unsealed text
    the moderator accepted) stays."""
    gone = [a for a in answers if a["house"] == house and a.get("standing") and a.get("key") not in (None, "", fingerprint)]
    if not gone:
        return answers, []
    ids = {a["id"] for a in gone}
    return [a for a in answers if a["id"] not in ids], [StandingWithdrawn(
        house=house, answers=tuple(str(a.get("text", "")) for a in gone), ids=tuple(a["id"] for a in gone),
        visible_to=house, reason=f"sealed with a key that no longer seals your files: a standing instruction ends "
                                 f"with its key; send again those you still mean ({KEY_RULE})")]


def _same_house(a: dict[str, Any], entry: PoolEntry) -> bool:
    return bool(a["house"] == entry.house and str(a.get("vassal", "")) == entry.vassal)


def _withdraw(pool: list[dict[str, Any]], entry: PoolEntry) -> tuple[list[dict[str, Any]], list[Event]]:
    assert isinstance(entry.command, Withdraw)
    named = entry.command.command
    mine = [a for a in pool if a.get("standing") and a["house"] == entry.house
            and (named is None or (str(a.get("vassal", "")) == entry.vassal and from_dict(a["command"]) == named))]
    if not mine:
        what = "no standing instruction of yours" if named is None else "none of your standing instructions"
        return pool, [AnswerUnusable(house=entry.house, answer=entry.text, ids=(entry.id,), visible_to=entry.house,
                                     reason=f"{what} reads so: your private report lists each one with the line "
                                            f"that withdraws it ({WITHDRAW_RULE})")]  # fmt: skip
    gone = {a["id"] for a in mine}
    return [a for a in pool if a["id"] not in gone], [
        AnswerUsed(house=entry.house, decision="withdraw standing instructions", answer=entry.text, ids=(entry.id,),
                   visible_to=entry.house),
        StandingWithdrawn(house=entry.house, answers=tuple(str(a.get("text", "")) for a in mine),
                          ids=tuple(a["id"] for a in mine), reason=f'withdrawn by "{entry.text}" ({WITHDRAW_RULE})',
                          visible_to=entry.house),
    ]
