"""How a phase asks for decisions: :class:`Context`, :class:`Ask`, :class:`Request` and the answer pool.

The step machine (:func:`adjudicator.engine.machine.advance`) runs the phases; each phase is
plain procedural code (``run(ctx)``) that asks for decisions through a :class:`Context`. A
decision is answered from the pool of the players' answers (which may have arrived long before,
as standing instructions), by the only legal option, or by the documented default at a deadline.
When an answer is missing the phase stops with :class:`NeedAnswers`.

The half-resolved phase is saved as data: the position where the phase (the *segment*) started
and every decision taken since, keyed by the order in which they were asked. The next ``advance``
replays the segment from its start with those decisions - the code is deterministic, so the
replay reaches the same point - and goes on. No I/O, no clock, no global randomness.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ...game.board import Board
from ...game.commands import Command, ForVassal, Standing, Withdraw, cancels_moves, from_dict, to_dict
from ...game.state import GameState, Segment
from ..events import (
    PUBLIC,
    AnswerUnusable,
    AnswerUsed,
    DefaultUsed,
    Event,
    OnlyOption,
)
from ..events import (
    from_dict as event_from_dict,
)

# The decisions of an order's cycle, each asked once per order: one taken without asking is remembered
# for the round (``GameState.unasked``, ruling 351).
UNASKED_KINDS = frozenset({"raid", "march", "consolidate"})
# What a standing instruction a decision cannot use is told: it stays for the decisions to come (ruling 355).
SKIPPED = "skipped this time, it stands for later decisions: "
# Answers of these kinds stay in force after use ("support stark in every combat").
STANDING_KINDS = frozenset({"support", "tie_break", "refuse_support"})


def is_standing(cmd: Command) -> bool:
    """Whether an answer stays in force after use: a standing kind, or Targaryen's cancels of a
    card's loyalty-token moves, which answer each move in turn (ruling 295)."""
    return cmd.kind in STANDING_KINDS or cancels_moves(cmd)

class _NotApplicable(enum.Enum):
    TOKEN = "not applicable"


NOT_APPLICABLE: Final = _NotApplicable.TOKEN  # a check's verdict: this answer is not meant for this decision
# A check's verdict: None when legal; a string saying why not (ending with the rule number);
# or NOT_APPLICABLE.
Verdict = str | None | _NotApplicable
# What a decision takes: one command, or for a composite decision (orders) the tuple of its parts.
Answer = Command | tuple[Command, ...]


@dataclass(frozen=True)
class Request:
    """One decision the engine needs from one house.

    ``key`` is stable across replays (round, phase, the decision's place in the phase, kind).
    ``options`` enumerates the legal answers where they are few; composite decisions (orders,
    marches, mustering) describe their parts in ``context`` instead.
    """

    key: str
    kind: str
    house: str
    prompt: str
    context: dict[str, Any] = field(default_factory=dict)
    options: tuple[Command, ...] = ()
    default: Answer | None = None
    secret: bool = False
    vassal: str = ""  # a vassal's decision, answered by its commander (``house``) with "for VASSAL:" (M030)
    uses: tuple[str, ...] = ()  # pool ids the default takes up: a house's orders that stand (ruling 121)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "key": self.key, "kind": self.kind, "house": self.house, "prompt": self.prompt,
            "context": self.context, "options": [to_dict(o) for o in self.options], "secret": self.secret,
        }
        if self.vassal:
            d["vassal"] = self.vassal
        if isinstance(self.default, tuple):
            d["default_parts"] = [to_dict(c) for c in self.default]
        elif self.default is not None:
            d["default"] = to_dict(self.default)
        if self.uses:
            d["uses"] = list(self.uses)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Request:
        return cls(
            key=d["key"], kind=d["kind"], house=d["house"], prompt=d["prompt"],
            context=dict(d.get("context", {})),
            options=tuple(from_dict(o) for o in d.get("options", [])),
            default=from_dict(d["default"]) if "default" in d else _parts(d.get("default_parts")),
            secret=d.get("secret", False), uses=tuple(str(u) for u in d.get("uses", ())),
            vassal=str(d.get("vassal", "")),
        )


@dataclass
class PoolEntry:
    """One answer a house has sent: its command, where it came from, its canonical text.

    ``verdict`` is the last verdict the answer had while the game still holds it: ``"used"`` (a
    standing answer: it stands to the end of its round) or ``"refused"`` (it waits for another
    decision it fits); ``""`` for none yet (ruling 160).
    """

    id: str
    house: str
    round: int
    command: Command
    text: str
    verdict: str = ""
    vassal: str = ""  # "for tyrell: ...": an answer for the vassal the house commands (M030)
    standing: bool = False  # "standing: ...": it holds from round to round until withdrawn (ruling 353)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> PoolEntry:
        return PoolEntry(d["id"], d["house"], d["round"], from_dict(d["command"]), d.get("text", ""),
                         str(d.get("verdict", "")), str(d.get("vassal", "")), bool(d.get("standing", False)))

    @property
    def stays(self) -> bool:
        """Whether a decision that uses this answer leaves it in the pool: a standing instruction, or
        an answer of a kind that stands for the rest of its round (support, tie-breaks...)."""
        return self.standing or is_standing(self.command)


def pool_entry(*, id: str, house: str, round: int, command: Command, text: str = "",
               verdict: str = "") -> dict[str, Any]:
    """A pool entry as stored in ``GameState.answers``; a ``ForVassal`` answer is kept as its inner
    command and the vassal it is for, a ``Standing`` one as its inner command marked ``standing``
    (ruling 353), a ``Withdraw`` of a vassal's line with the vassal it is for."""
    vassal, standing = "", False
    if isinstance(command, Standing):
        standing, command = True, command.command
    if isinstance(command, Withdraw) and isinstance(command.command, ForVassal):
        vassal, command = command.command.vassal, Withdraw(command=command.command.command)
    if isinstance(command, ForVassal):
        vassal, command = command.vassal, command.command
    d = {"id": id, "house": house, "round": round, "command": to_dict(command), "text": text or repr(command)}
    d |= {"vassal": vassal} if vassal else {}
    d |= {"standing": True} if standing else {}
    return {**d, "verdict": verdict} if verdict else d


class GameOver(Exception):
    """Control flow: the game was won (seven castles, or the end of round 10); the state names the winner."""


class NeedAnswers(Exception):
    """Control flow: the phase cannot go on without these answers."""

    def __init__(self, requests: list[Request]) -> None:
        super().__init__(", ".join(r.key for r in requests))
        self.requests = requests


@dataclass
class Composed:
    """A composite answer read from a house's answers: its parts, or ``None`` while incomplete.

    ``events`` says which answers were used or refused and why; ``used`` are the answers read
    (all of them are consumed once the decision is taken, refused ones included).
    """

    parts: tuple[Command, ...] | None
    events: list[Event]
    used: list[PoolEntry]


@dataclass
class Ask:
    """A decision to take: the request, and how to read answers for it.

    ``check(command)`` returns ``None`` when the command is a legal answer, a reason string when
    it is meant for this decision but illegal, or :data:`NOT_APPLICABLE`.
    ``only`` is the single legal option, when there is exactly one; the house's answers that
    do not fit are refused saying so. With ``fallback`` it is instead what a decision a house
    makes only by standing instruction comes to when no answer is waiting (keep the support,
    keep the Blade): taken at once, never asked (``combat_state.decide_now``).

    A composite decision (a house's orders: one line per area) sets ``compose`` instead of
    relying on ``check``: it gets every unused answer of the request's kind from that house,
    oldest first, and builds the whole answer from them. The decision then takes a tuple of
    commands, and its ``only`` and request ``default`` are tuples too.
    """

    request: Request
    check: Callable[[Command], Any]
    only: Answer | None = None
    compose: Callable[[list[PoolEntry]], Composed] | None = None
    fallback: bool = False


@dataclass
class Step:
    state: GameState
    events: list[Event]
    requests: list[Request]


# Which unanswered decisions take their default: all (True), none (False), the requests with these
# keys, or those a predicate names (the moderator's past-due requests; the caller holds the clock).
Deadline = bool | frozenset[str] | Callable[[Request], bool]


class Context:
    """What a phase sees while it runs: the position it changes and the way to ask."""

    def __init__(self, state: GameState, board: Board, segment: Segment, pool: list[PoolEntry],
                 deadline: Deadline):
        self.state = state
        self.board = board
        self.segment = segment
        self.pool = pool
        self.deadline = deadline
        self.events: list[Event] = []
        self.transient: list[Event] = []  # unusable answers for decisions still open
        self.asked = state.decisions_asked  # decisions asked in this phase before this segment
        self.recorded = frozenset(segment.decisions)  # decisions taken before this run of the segment
        self.replayed: set[str] = set()  # those taken again by this run
        self._settled = 0

    # --- events ----------------------------------------------------------------------------

    def emit(self, *events: Event) -> None:
        self.events.extend(events)

    # --- decisions -------------------------------------------------------------------------

    def _past_deadline(self, request: Request) -> bool:
        """``deadline=True``: every decision; a set of keys: only those requests; a predicate: those it names."""
        if isinstance(self.deadline, bool):
            return self.deadline
        if isinstance(self.deadline, frozenset):
            return request.key in self.deadline
        return bool(self.deadline(request))

    def key(self, kind: str, house: str) -> str:
        """The next decision key; deterministic because the phase code is."""
        self.asked += 1
        return f"r{self.state.round}.{self.segment.name}.{self.asked}.{kind}.{house}"

    def entries(self, house: str, kind: str, vassal: str = "") -> list[PoolEntry]:
        """Unused answers of one house of one kind, oldest first: its own, or with ``vassal`` those
        it sent for that vassal."""
        used = set(self.segment.used)
        return [e for e in self.pool
                if e.house == house and e.command.kind == kind and e.vassal == vassal and e.id not in used]

    def _for_commander(self, ask: Ask) -> Ask:
        """A vassal's decision goes to the player commanding it (M030, M031); a vassal nobody
        commands takes the decision's default unasked (ruling 244)."""
        req = ask.request
        if req.vassal or not self.state.vassals or req.house not in self.state.vassals:
            return ask
        commander = self.state.commanders.get(req.house, "")
        prompt = f"for {req.house.title()}: {req.prompt}"
        return replace(ask, request=replace(req, house=commander or req.house, vassal=req.house, prompt=prompt))

    def ask(self, ask: Ask) -> Any:
        """Take one decision: from the log, the pool, the only option or the default.

        Returns a :class:`Command`, or a tuple of them for a composite decision.
        """
        return self.ask_all([ask])[0]

    def ask_all(self, asks: list[Ask]) -> list[Any]:
        """Take several decisions together (secret and simultaneous ones: orders, bids, cards).

        Nothing is recorded until every one of them can be taken, so a house may still replace
        its answer while it waits for the others.
        """
        results: list[Answer | None] = []
        pending: list[tuple[Ask, Answer, list[Event], list[PoolEntry]]] = []
        missing: list[Request] = []
        for a in map(self._for_commander, asks):
            rec = self.segment.decisions.get(a.request.key)
            if rec is not None:
                self.replayed.add(a.request.key)
                replayed = [event_from_dict(e) for e in rec.get("events", [])]
                self.events.extend(replayed)
                results.append(from_dict(rec["value"]) if "value" in rec else _parts(rec["parts"]))
                if any(isinstance(e, OnlyOption) for e in replayed) and "value" in rec:
                    self._remember_unasked(a.request, from_dict(rec["value"]))
                continue
            found, evs, entries = self._compose(a) if a.compose else self._from_pool(a)
            if found is not None:
                pending.append((a, found, evs, entries))
            elif a.only is not None:
                only = OnlyOption(house=a.request.house, decision=a.request.prompt, answer=_text(a.only, a.request),
                                  visible_to=a.request.house)
                if not a.fallback:
                    evs = [_only_legal(e, _text(a.only, a.request)) for e in evs]
                if isinstance(a.only, Command):
                    self._remember_unasked(a.request, a.only)
                pending.append((a, a.only, [*evs, only], entries))
            elif (self._past_deadline(a.request) or a.request.house == a.request.vassal) and a.request.default is not None:
                # A secret decision's default stays as secret as the answer it replaces.
                seen_by = a.request.house if a.request.secret else PUBLIC
                ev = DefaultUsed(house=a.request.house, decision=a.request.prompt, answer=_text(a.request.default, a.request),
                                 visible_to=seen_by)
                stood = [e for e in self.pool if e.id in a.request.uses]  # lines that stand in the default (ruling 121)
                if stood:
                    evs = [*evs, AnswerUsed(house=a.request.house, decision=a.request.prompt, visible_to=a.request.house,
                                            answer="; ".join(e.text for e in stood), ids=tuple(e.id for e in stood))]
                if a.compose:  # the lines read for it, refused above or standing in it, are used up with the default
                    entries = self.entries(a.request.house, a.request.kind, a.request.vassal)
                pending.append((a, a.request.default, [*evs, ev], entries))
            else:
                self.transient.extend(evs)
                missing.append(a.request)
            results.append(None)
        if missing:
            # The answers refused on the way to a decision that waits for the others are told now.
            self.transient.extend(e for _, _, evs, _ in pending for e in evs if isinstance(e, AnswerUnusable))
            raise NeedAnswers(missing)
        it = iter(pending)
        out: list[Answer] = []
        for r in results:
            if r is not None:
                out.append(r)
                continue
            a, cmd, evs, entries = next(it)
            value = {"parts": [to_dict(c) for c in cmd]} if isinstance(cmd, tuple) else {"value": to_dict(cmd)}
            self.segment.decisions[a.request.key] = {**value, "events": [e.to_dict() for e in evs]}
            self.segment.used.extend(e.id for e in entries if not e.stays)
            self.events.extend(evs)
            out.append(cmd)
        return out

    def _remember_unasked(self, req: Request, answer: Command) -> None:
        """An order of a cycle resolved without asking (ruling 14), kept to the end of the round: an
        answer sent for it later is told it was already decided (ruling 351)."""
        subject = getattr(answer, "origin", None) or getattr(answer, "area", None)
        if req.kind in UNASKED_KINDS and isinstance(subject, str):
            self.state.unasked.append({"house": req.vassal or req.house, "kind": req.kind, "subject": subject,
                                       "answer": _text(answer, req)})

    def _compose(self, a: Ask) -> tuple[Answer | None, list[Event], list[PoolEntry]]:
        assert a.compose is not None
        req = a.request
        got = a.compose(self.entries(req.house, req.kind, req.vassal))
        events = got.events
        if req.vassal and req.house != req.vassal:  # the verdicts go to the commander who wrote the lines
            events = [_to_commander(e, req) for e in events]
        # Answers are consumed only when the composite answer is taken.
        return got.parts, events, (got.used if got.parts is not None else [])

    def _from_pool(self, a: Ask) -> tuple[Command | None, list[Event], list[PoolEntry]]:
        evs: list[Event] = []
        req = a.request
        # The newest answer wins among those meant for this decision: a later file replaces.
        for entry in reversed(self.entries(req.house, req.kind, req.vassal)):
            verdict = a.check(entry.command)
            if verdict is NOT_APPLICABLE:
                continue
            if verdict is None:
                evs.append(AnswerUsed(house=req.house, decision=req.prompt, answer=entry.text, ids=(entry.id,),
                                      visible_to=req.house))
                return entry.command, evs, [entry]
            why = f"{SKIPPED}{verdict}" if entry.standing else str(verdict)
            evs.append(AnswerUnusable(house=req.house, answer=entry.text, reason=why, ids=(entry.id,),
                                      visible_to=req.house))
        return None, evs, []

    # --- verdicts on answers that no decision of their house reads ---------------------------

    def ask_refusing(self, ask: Ask, strays: list[PoolEntry], reason: Callable[[PoolEntry], str], *,
                     use_up: bool = True) -> Any:
        """Take a decision; ``strays``, answers of other houses aimed at it, are refused with ``reason``.

        The refusals are shown while the decision waits and recorded with it once taken, so that a
        replay tells the same story. With ``use_up`` the refused answers are used up with the
        decision; a standing answer (a tie-break order) may instead wait for a decision it fits.
        """
        # Another house's standing instruction waits for a decision of its own (the token may come to it).
        strays = [e for e in strays if not e.standing]
        refusals = [AnswerUnusable(house=e.house, answer=e.text, reason=reason(e), ids=(e.id,), visible_to=e.house)
                    for e in strays]
        fresh = ask.request.key not in self.segment.decisions
        try:
            got = self.ask(ask)
        except NeedAnswers:
            self.transient.extend(refusals)
            raise
        if fresh and refusals:
            self.emit(*refusals)
            self.segment.decisions[ask.request.key]["events"].extend(e.to_dict() for e in refusals)
            if use_up:
                self.segment.used.extend(e.id for e in strays)
        return got

    def settle(self, kind: str, houses: list[str], aimed: Callable[[Command], bool], reason: str, *,
               only_this: Callable[[Command], bool] | None = None) -> None:
        """A decision that came up and was taken without asking anyone, with nothing to choose (no
        legal retreat, no casualty due): the answers of ``houses`` of ``kind`` ``aimed`` at it are
        refused with ``reason``. Those ``only_this`` decision could use (by default all of them)
        are used up; the others (a retreat for any combat) wait for a decision they fit.

        Recorded like a decision, under a key of its own that leaves the decisions' keys as they
        are, so that a replay tells the same story and answers arriving later wait for the
        decisions to come.
        """
        self._settled += 1
        key = f"r{self.state.round}.{self.segment.name}.settled{self._settled}.{kind}"
        rec = self.segment.decisions.get(key)
        if rec is not None:
            self.replayed.add(key)
            self.events.extend(event_from_dict(e) for e in rec.get("events", []))
            return
        # Past the events already reported, only a position saved before settling was recorded
        # can lack the record: it is left as it was told then.
        fresh = len(self.events) >= self.segment.events_seen
        strays = [e for h in houses for e in self.entries(h, kind) if aimed(e.command) and not e.standing] if fresh else []
        refusals = [AnswerUnusable(house=e.house, answer=e.text, reason=reason, ids=(e.id,), visible_to=e.house)
                    for e in strays]
        self.segment.decisions[key] = {"settled": True, "events": [e.to_dict() for e in refusals]}
        self.segment.used.extend(e.id for e in strays if only_this is None or only_this(e.command))
        self.emit(*refusals)


def _to_commander(event: Event, req: Request) -> Event:
    """A verdict on a vassal's lines, for the commander who wrote them, naming the decision as it was
    asked of the commander ("for Tyrell: ...", M030)."""
    if isinstance(event, AnswerUsed) and event.house == req.vassal:
        return replace(event, house=req.house, visible_to=req.house, decision=req.prompt)
    if isinstance(event, AnswerUnusable) and event.house == req.vassal:
        return replace(event, house=req.house, visible_to=req.house)
    return event


def _only_legal(event: Event, only: str) -> Event:
    """A refusal for a decision taken without asking: it says which answer was the only legal one."""
    if not isinstance(event, AnswerUnusable):
        return event
    reason = f'the only legal answer, "{only}", was taken without asking; {event.reason}'
    return AnswerUnusable(house=event.house, answer=event.answer, reason=reason, rule=event.rule, ids=event.ids,
                          visible_to=event.visible_to)


def _parts(dicts: list[dict[str, Any]] | None) -> tuple[Command, ...] | None:
    return None if dicts is None else tuple(from_dict(d) for d in dicts)


def _text(cmd: Answer, req: Request | None = None) -> str:
    """An answer inside an event, as the turn-file line a player would write for it: for a vassal's
    decision, as its commander writes it, ``for tyrell: ...`` (M030)."""
    from ...turnfile.printer import (
        format_command,  # the canonical printer; the parser's grammar loads lazily
    )

    if isinstance(cmd, tuple):
        return "; ".join(_text(c, req) for c in cmd)
    if req is not None and req.vassal and req.house != req.vassal and not isinstance(cmd, ForVassal):
        cmd = ForVassal(vassal=req.vassal, command=cmd)
    return format_command(cmd)
