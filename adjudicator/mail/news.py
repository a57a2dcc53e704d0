"""When a reader gets a mail: only when there is something to tell (ruling 313).

A house is mailed when, since its last mail sent,

* a decision is asked of it that its last mail did not ask;
* a file of its own was taken or refused (its receipt goes to it alone);
* a rollback undid steps mailed to it;
* the public story moved to its next chapter: a phase began, the game ended, a house fell into civil
  disorder or left; or a default was taken for one of its own decisions.

What happens within a phase (orders revealed, a combat fought, house cards, bids, a Westeros or
wildling card revealed, a raid, a march, another house's answer taken) is not news by itself
(ruling 315): it waits for the reader's next mail, which carries every step since the last one
(ruling 303) and comes at the latest when the next phase begins, or sooner when something is asked
of the reader, who then reads all of it before answering. So every event still reaches every
reader exactly once, and a round costs a player at most a mail for each decision asked of it, each
file of its own and each phase. The moderator is
mailed for the same news and for the receipts no house may be sent; a game list for the news. Neither
is asked anything, so a late action phase of forty steps would reach them in one mail too large for
the bound; they are also mailed once the events waiting for them are a long story (ruling 328).
Deadlines and reminders are mailed apart (``maester outbox --reminders``).

A group that wants a mail after every step that tells its reader anything says so in game.toml::

    [mail]
    every_step = true
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..reports.sections import pick
from .digest import MODERATOR, PUBLIC, Digest, StepPart

# Events that move the story on to its next chapter for every reader: the steps that hold one are worth
# a mail. What happens within a phase rides with the next mail (ruling 315).
STORY = frozenset({"PhaseStarted", "GameWon", "FinalStandings", "CivilDisorder", "PlayerLeaving", "PlayerLeft"})
# Events that are news for the house they name: a decision of its own taken without it.
OWN = frozenset({"DefaultUsed"})
EVERY_STEP = "every_step"
# Characters of events' text waiting for the moderator or a game list that make a mail worth sending
# (ruling 328): about 28 events; with the board, the files and the map at 90%, a mail of 80-88 KB.
LONG_STORY = 6_000


class MailSettingError(ValueError):
    """A ``[mail]`` setting of game.toml that cannot be used."""


def every_step(game: dict[str, Any]) -> bool:
    """Whether ``[mail] every_step = true``: a mail after every step that tells the reader anything.

    >>> every_step({}), every_step({"mail": {"every_step": True}})
    (False, True)

    :raises MailSettingError: for a value that is not true or false.
    """
    table = game.get("mail", {})
    value = table.get(EVERY_STEP, False) if isinstance(table, dict) else False
    if not isinstance(value, bool):
        raise MailSettingError(f"game.toml: [mail] {EVERY_STEP} = {value!r} is not valid: give true (a mail after "
                               "every step) or false (a mail when there is news: the default)")  # fmt: skip
    return value


def story_moved(part: StepPart, reader: str) -> list[str]:
    """Why a step is news for ``reader``: the names of its events that move the story on."""
    out = [kind for kind, house in part.public_events if kind in STORY or (kind in OWN and house == reader)]
    return out + [kind for kind, _ in part.private_events if kind in STORY]


def counts_length(who: str) -> bool:
    """Whether a reader's mail also goes when its story grows long: the moderator's and a list's (ruling 328)."""
    return who in (MODERATOR, PUBLIC)


def story_length(d: Digest) -> int:
    """Characters of the public events' text in the steps waiting for the reader (their sections read)."""
    return sum(len(pick(p.public_text, "events")) for p in d.steps if p.public_events)


def reasons(d: Digest, *, told: Iterable[str] | None, every: bool) -> list[str]:
    """Why ``d`` is worth sending now (none: it waits for the next news). ``told``: the keys of the
    decisions the reader's last mail sent asked (``None``: unknown, a mail of an older Maester)."""
    out = []
    asked = {a.key for a in d.asked}
    if asked - set(told or ()):
        out.append("asked")
    if d.notices or any(p.receipts for p in d.steps):
        out.append("receipt")
    if d.undone:
        out.append("undone")
    if d.told_houses or d.untaken:
        out.append("for the moderator")
    if counts_length(d.who) and story_length(d) >= LONG_STORY:
        out.append("a long story")
    for part in d.steps:
        if story_moved(part, d.who) or (every and (part.public_events or part.private_events or part.judged)):
            out.append(f"step {part.number:04d}")
    return out
