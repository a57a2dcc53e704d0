"""Which open requests take their documented default in one step, and taking them: pure, no clock.

The run (:mod:`adjudicator.folder.batch`) decides *when* a request is past due, from the schedule,
the log and the moderator's clock (:mod:`adjudicator.folder.deadlines`); what it hands the step's
derivation (:func:`adjudicator.folder.audit.derive`) is a :class:`DefaultRule`, plain data: the
keys of the past-due requests, the houses in civil disorder, and the count of deadlines each house
has missed in a row. The snapshot records what the rule did (the keys filled, the houses in civil
disorder, the houses that missed this deadline), so ``maester replay`` does it again from the record
alone (:meth:`DefaultRule.recorded`), whatever the clock says then.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from ..engine import machine
from ..engine.core.context import Request, Step
from ..engine.events import PUBLIC, CivilDisorder, DefaultUsed, Event
from ..game.board import Board
from ..game.commands import to_dict
from ..game.state import GameState

_KEY = re.compile(r"^r(\d+)\.([a-z_]+)\.")


def step_of(request: Request) -> tuple[str, int, str]:
    """(house, round, step) of a request: the turn-file step its answer is sealed for.

    >>> step_of(Request(key="r2.planning.5.raven.lannister", kind="raven", house="lannister", prompt="?"))
    ('lannister', 2, 'planning')
    """
    m = _KEY.match(request.key)
    return (request.house, int(m[1]), m[2]) if m else (request.house, 0, "")


@dataclass(frozen=True)
class DefaultRule:
    """Which requests take their default in one step's derivation.

    ``keys``: requests past due (open before the step and still open after its files).
    ``followups``: a house that took a default for a past-due request also takes the default of
    whatever it is asked next in the same step, in the same run (ruling 111).
    ``disorder``: houses in civil disorder: every request of theirs with a default takes it (ruling 113).
    ``misses`` and ``limit``: deadlines missed in a row before this step, and how many put a house
    in civil disorder (0: never). ``fixed``: for a replay, the disorder and missed houses as recorded.
    """

    keys: frozenset[str] = frozenset()
    followups: bool = False
    disorder: frozenset[str] = frozenset()
    misses: Mapping[str, int] = field(default_factory=dict)
    limit: int = 0
    fixed: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    @classmethod
    def recorded(cls, defaults: Collection[str], disorder: Collection[str] = (), missed: Collection[str] = ()) -> DefaultRule:
        """The rule a snapshot records: exactly these keys; its disorder and missed houses as they were."""
        return cls(keys=frozenset(defaults), fixed=(tuple(sorted(disorder)), tuple(sorted(missed))))

    def takes(self, request: Request, disorder: Collection[str], defaulted: Collection[tuple[str, int, str]]) -> bool:
        if request.default is None:
            return False
        return (request.key in self.keys or request.house in disorder
                or (self.followups and step_of(request) in defaulted))  # fmt: skip


@dataclass
class Taken:
    """What the defaults of one step did."""

    step: Step
    events: list[Event]
    filled: list[Request]  # in the order they were taken
    disorder: list[str]  # houses in civil disorder after this step
    missed: list[str]  # houses that missed this deadline (took a default while not in civil disorder)


def take_defaults(step: Step, rule: DefaultRule, *, board: Board | None = None, before: Collection[str] = ()) -> Taken:
    """Fill the requests ``rule`` names, go on, and fill again what the rule names next, until it names none.

    ``before`` are the houses in civil disorder at the step before (a house not among them that is
    in civil disorder now is told to everyone as beginning it).
    """
    disorder = set(rule.disorder)
    defaulted: set[tuple[str, int, str]] = set()
    missed: list[str] = []
    filled: list[Request] = []
    events: list[Event] = []
    while due := [r for r in step.requests if rule.takes(r, disorder, defaulted)]:
        state = copy.copy(step.state)
        assert step.state.segment is not None, "open requests belong to a half-resolved phase"
        state.segment = dataclasses.replace(step.state.segment, decisions=dict(step.state.segment.decisions),
                                            used=list(step.state.segment.used))
        record_defaults(state, due)  # writes only into the decisions and used ids copied just above
        for r in due:
            defaulted.add(step_of(r))
            if r.house not in rule.disorder and r.house not in missed:
                missed.append(r.house)
        filled += due
        if rule.limit:
            disorder |= {h for h in missed if rule.misses.get(h, 0) + 1 >= rule.limit}
        step = machine.advance(state, [], board=board)
        events.extend(step.events)
    houses, missed_houses = (sorted(disorder), sorted(missed))
    if rule.fixed is not None:
        houses, missed_houses = list(rule.fixed[0]), list(rule.fixed[1])
    events += [CivilDisorder(house=h, begins=h not in before) for h in houses]
    return Taken(step, events, filled, houses, missed_houses)


def record_defaults(state: GameState, requests: list[Request]) -> list[str]:
    """Take the documented default for each open request, as if it had been decided (ruling 91).

    The defaults are written into the half-resolved phase as decisions, the way the engine records
    every decision it takes, so the next ``advance`` goes on from them. Only these requests are
    filled: decisions that arise later are asked of the houses as usual. Returns the keys filled.
    """
    from ..turnfile.printer import format_command

    assert state.segment is not None, "open requests belong to a half-resolved phase"
    filled = []
    for r in requests:
        if r.default is None:
            continue
        parts = r.default if isinstance(r.default, tuple) else None
        # a vassal's orders may default to none at all (an empty tuple, MD3)
        text = "; ".join(format_command(c) for c in (parts if parts is not None else (r.default,))) or "none"  # type: ignore[arg-type]
        marks = [DefaultUsed(house=r.house, decision=r.prompt, answer=text, visible_to=r.house if r.secret else PUBLIC)]
        if r.secret:  # everyone learns that the house missed the deadline; only it learns the answer yet
            marks.append(DefaultUsed(house=r.house, decision=r.prompt, answer="its documented default (secret)"))
        value = {"parts": [to_dict(c) for c in parts]} if parts is not None else {"value": to_dict(r.default)}
        state.segment.decisions[r.key] = {**value, "events": [m.to_dict() for m in marks]}
        state.segment.used.extend(u for u in r.uses if u not in state.segment.used)  # the lines that stood (ruling 121)
        filled.append(r.key)
    return filled
