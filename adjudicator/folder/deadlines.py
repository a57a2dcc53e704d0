"""Deadlines as dates: when each open request was asked, when it is due, and who is in civil disorder.

A request is *asked* when the reports of the step that asked it go out: the time the log records
for that step's snapshot (ruling 110). It is *due* the schedule's hours later (``[deadlines]`` of
``game.toml``, :mod:`adjudicator.folder.schedule`), plus the extensions the moderator granted its
house for its step (``maester extend``, logged); its default is taken by the first ``maester
adjudicate --deadline`` from ``grace_hours`` after that. Without a schedule every open request is
due when the moderator calls the deadline.

A house that missed ``civil_disorder_after`` deadlines in a row is in civil disorder: every request
of it that has a default takes it at every run, until a key is registered for the house again
(``maester register --replaces``; ruling 113). The count is read from the log's ``snapshot`` lines.

Nothing here reads a clock: the run passes ``now`` (the moderator's ``--now``, or the time of the
run), and what it decides goes into the log and the snapshot as data (:mod:`adjudicator.folder.defaults`).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.core.context import Request
from ..engine.events import kind_name
from . import registry
from .audit import Folder, Outcome, Snapshot, pending_text, pending_view
from .defaults import DefaultRule, step_of
from .gamedir import GameDir, GameDirError
from .ledger import Ledger, log
from .schedule import Schedule, ScheduleError, parse_time, show_span, show_time
from .settle import locked


class DeadlineError(GameDirError):
    """A schedule, a time or an extension that cannot be used (exit status 2), said in one line."""


def load_schedule(gd: GameDir, game: dict[str, Any] | None = None) -> Schedule | None:
    """The game's schedule, checked; ``None`` when ``game.toml`` has no ``[deadlines]`` table
    (``game``: the whole of it as :meth:`GameDir.read_game` gave it a moment ago; read when ``None``).

    :raises DeadlineError: naming the key at fault.
    """
    try:
        return Schedule.from_game(gd.read_game() if game is None else game, where=str(gd.game_file))
    except ScheduleError as e:
        raise DeadlineError(str(e)) from None


def moderator_time(text: str | None, *, what: str = "--now") -> datetime | None:
    """The moderator's ``--now`` as a time (``None`` when not given).

    :raises DeadlineError: for a time that is not ISO 8601.
    """
    if text is None:
        return None
    try:
        return parse_time(text, what=what)
    except ScheduleError as e:
        raise DeadlineError(str(e)) from None


@dataclass(frozen=True)
class Due:
    """When one request was asked, when it is due and from when its default is taken (``None``: unknown)."""

    asked: datetime | None
    due: datetime | None
    defaults_from: datetime | None
    extension: int = 0  # hours granted to its house for its step


class Clock:
    """The deadlines of a game at one moment: its schedule, its log and the time ``now``."""

    def __init__(self, schedule: Schedule | None, ledger: Ledger, now: datetime) -> None:
        self.schedule, self.ledger = schedule, ledger
        self.now = now if now.tzinfo is not None else now.replace(tzinfo=UTC)  # a time without a zone is UTC

    def asked_at(self, number: int) -> datetime | None:
        """When the reports of step ``number`` went out: the time of its ``snapshot`` line (ruling 110)."""
        line = self.ledger.snapshot_line(number) or {}
        try:
            return parse_time(str(line["time"]))
        except (KeyError, ScheduleError):
            return None

    def extension(self, house: str, round: int, step: str) -> int:
        """Hours granted to ``house`` for one step by ``maester extend``."""
        return sum(e["hours"] for e in self.ledger.book.extensions if (e["house"], e["round"], e["step"]) == (house, round, step))

    def due(self, request: Request, since: int) -> Due:
        """When ``request``, open since snapshot ``since``, is due."""
        house, rnd, step = step_of(request)
        extra = self.extension(house, rnd, step)
        asked = self.asked_at(since)
        if self.schedule is None or asked is None:
            return Due(asked, None, None, extra)
        try:
            due = self.schedule.add(asked, self.schedule.hours_for(step) + extra)
            return Due(asked, due, self.schedule.add(due, self.schedule.grace_hours), extra)
        except OverflowError:  # a log line stamped near the year 9999 (edited by hand): no date after it
            return Due(asked, None, None, extra)

    def is_past_due(self, request: Request, since: int) -> bool:
        """Whether a deadline called now takes this request's default (without a schedule: always)."""
        if self.schedule is None:
            return True
        d = self.due(request, since)
        return d.defaults_from is not None and self.now >= d.defaults_from

    def past_due(self, snap: Snapshot, disorder: Iterable[str] = ()) -> list[Request]:
        """The open requests of ``snap`` whose defaults a deadline called now takes (civil disorder aside)."""
        out = set(disorder)
        return [r for r in snap.requests() if r.house not in out and self.is_past_due(r, snap.since.get(r.key, snap.number))]

    def next_due(self, snap: Snapshot) -> tuple[Request, Due] | None:
        """The open request whose default comes first, with its times."""
        dues = [(r, self.due(r, snap.since.get(r.key, snap.number))) for r in snap.requests()]
        known = [(r, d) for r, d in dues if d.defaults_from is not None]
        return min(known, key=lambda x: x[1].defaults_from) if known else None  # type: ignore[arg-type,return-value]


# --- civil disorder ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Disorder:
    """Who is in civil disorder now, and how many deadlines each house has missed in a row."""

    houses: frozenset[str]
    misses: dict[str, int]
    limit: int
    ended: list[str]  # houses in civil disorder at the latest step that have a new key since

    def owes(self, snap: Snapshot) -> bool:
        """Whether a house in civil disorder has a request with a default open at ``snap`` (a run takes it)."""
        return any(r.house in self.houses and r.default is not None for r in snap.requests())


def disorder_now(ledger: Ledger, schedule: Schedule | None) -> Disorder:
    """Read the log's snapshot lines in order (ruling 113).

    A house misses a deadline when it takes the default of a past-due request while not in civil
    disorder; a file of it applied, or a key registered for it, sets its count back to nought.
    The lines are folded once, in the ledger (:meth:`Ledger.missed_since`), not again at each call;
    within a process a run folds on from the step the last run reached.
    """
    limit = schedule.civil_disorder_after if schedule else 0
    fold = ledger.missed_since()
    if fold is None:
        return _disorder_read_whole(ledger, limit)
    first, through = int(fold["first"]), int(fold["through"])
    misses: dict[str, int] = {}
    for h, since in fold["since"].items():  # the misses since its last file applied, in order
        misses[h] = len(since) - bisect.bisect_right(since, ledger.book.key_changes.get(h, -1))
    for h, at in ledger.book.key_changes.items():
        if at >= first:  # the count went back to nought at every step up to the key
            misses.setdefault(h, 0)
    return _disorder(ledger, misses, limit, through)


def _disorder_read_whole(ledger: Ledger, limit: int) -> Disorder:
    misses: dict[str, int] = {}
    numbers = sorted(ledger.snapshots)
    for n in numbers:
        line = ledger.snapshots[n]
        for name in line.get("applied", []):
            a = ledger.find(str(name))
            if a is not None:
                misses[a.house] = 0
        missed = line.get("missed", [])
        for h in missed if isinstance(missed, list) else []:
            misses[str(h)] = misses.get(str(h), 0) + 1
        for h, at in ledger.book.key_changes.items():
            if at >= n:
                misses[h] = 0
    return _disorder(ledger, misses, limit, numbers[-1] if numbers else None)


def _disorder(ledger: Ledger, misses: dict[str, int], limit: int, latest: int | None) -> Disorder:
    line = (ledger.snapshot_line(latest) or {}) if latest is not None else {}
    was = {str(h) for h in line.get("disorder", [])}
    rekeyed = {h for h, at in ledger.book.key_changes.items() if latest is not None and at >= latest}
    houses = (was - rekeyed) | {h for h, k in misses.items() if k >= limit} if limit else set()
    return Disorder(frozenset(houses), misses, limit, sorted(was & rekeyed))


def rule_for(prev: Snapshot, ledger: Ledger, disorder: Disorder) -> DefaultRule:
    """What takes its default in the step after ``prev``: the past-due requests a deadline called at
    ``prev`` names (an older Maester's call names none: every request open then), what the houses
    that took a default are asked next in the same step, and every request of a house in civil disorder."""
    keys: frozenset[str] = frozenset()
    if prev.number in ledger.deadlines:
        call = ledger.book.calls.get(prev.number, {})
        named = call.get("keys")
        keys = frozenset(str(k) for k in named) if isinstance(named, list) else frozenset(p["key"] for p in prev.state.pending)
    return DefaultRule(keys=keys, followups=True, disorder=disorder.houses, misses=dict(disorder.misses), limit=disorder.limit)


# --- what a run does and says -----------------------------------------------------------------------


def not_yet(clock: Clock, snap: Snapshot) -> list[str]:
    """What a ``--deadline`` run that called no deadline says, of ``snap`` (the step the run ends
    at: the files it took may have answered what was open when it began)."""
    if not snap.state.pending:
        return ["--deadline: nothing is pending, so no default was used"]
    first = clock.next_due(snap)
    when = (f"; the first default comes at {show_time(first[1].defaults_from)} ({registry.house_name(first[0].house)}: "  # type: ignore[arg-type]
            f"{kind_name(first[0].kind)})" if first else "")  # fmt: skip
    return [f"--deadline: nothing is past due yet, so no default was used{when}"]


def call(root: Path, ledger: Ledger, clock: Clock, snap: Snapshot) -> list[str]:
    """``adjudicate --deadline``: log a deadline at ``snap`` naming the requests past due now; returns notes.

    The call names the keys, so a run that is interrupted and finished by the next one (ruling 97)
    fills the same requests, whatever the clock says then.
    """
    if not snap.state.pending:
        return not_yet(clock, snap)
    disorder = disorder_now(ledger, clock.schedule)
    due = clock.past_due(snap, disorder.houses)
    if not due:
        return not_yet(clock, snap)
    entry = log(root, {"action": "deadline", "at": snap.number, "now": clock.now.isoformat(timespec="seconds"),
                       "keys": [r.key for r in due]})  # fmt: skip
    ledger.deadlines.add(snap.number)
    ledger.open_deadline = snap.number
    ledger.book.calls[snap.number] = entry
    return []


def after_step(root: Path, ledger: Ledger, new: Snapshot, outcome: Outcome | None, rule: DefaultRule,
               disorder: Disorder) -> list[str]:  # fmt: skip
    """The moderator's notes on the defaults of one step; a house that falls into civil disorder is logged."""
    out: list[str] = []
    for r in outcome.filled if outcome else []:
        why = "civil disorder" if r.house in disorder.houses else "deadline"
        out.append(f"{why}: {registry.house_name(r.house)} took the default of its {kind_name(r.kind)}: {r.prompt}")
    if rule.keys:
        still = [r for r in new.requests() if r.key in rule.keys]
        out += [f"deadline: {registry.house_name(r.house)} still owes {kind_name(r.kind)} ({r.prompt}): it has no default"
                for r in still]  # fmt: skip
    for h in new.disorder:
        if h not in disorder.houses:
            missed = disorder.misses.get(h, 0) + 1
            log(root, {"action": "civil-disorder", "house": h, "at": new.number, "missed": missed})
            ledger.book.disorder_starts.add((h, new.number))
            out.append(f"civil disorder: {registry.house_name(h)} missed {missed} deadlines in a row: it plays by the "
                       "deadline defaults until a key is registered for it (maester register --replaces)")  # fmt: skip
    return out


def disorder_lines(root: Path, ledger: Ledger, snap: Snapshot) -> list[str]:
    """Log the end of civil disorder for the houses that got a key since the latest step; returns notes.

    A run killed between a snapshot that put a house in civil disorder and the log line saying so
    left the line out: it is written here, by the next run.
    """
    out = []
    before = (ledger.snapshot_line(snap.number - 1) or {}).get("disorder", [])
    for h in snap.disorder:
        if h not in before and (h, snap.number) not in ledger.book.disorder_starts:
            log(root, {"action": "civil-disorder", "house": h, "at": snap.number})
            ledger.book.disorder_starts.add((h, snap.number))
    for h in disorder_now(ledger, None).ended:
        if (h, snap.number) in ledger.book.disorder_ends:
            continue
        log(root, {"action": "civil-disorder-end", "house": h, "at": snap.number})
        ledger.book.disorder_ends.add((h, snap.number))
        out.append(f"civil disorder ends: {registry.house_name(h)} has a new key and answers for itself again")
    return out


# --- maester status, with dates --------------------------------------------------------------------


def dated_view(gd: GameDir, snap: Snapshot, *, now: datetime) -> dict[str, Any]:
    """:func:`~adjudicator.folder.audit.pending_view` with each request's due time, time left and civil disorder.

    :raises DeadlineError: for a bad ``[deadlines]`` table.
    """
    schedule = load_schedule(gd)
    ledger = Ledger.read(gd.root)
    clock, disorder = Clock(schedule, ledger, now), disorder_now(ledger, schedule)
    view = pending_view(snap, gd.info().id)
    view["now"] = now.isoformat(timespec="seconds")
    view["schedule"] = schedule.describe() if schedule else ""
    view["civil_disorder"] = sorted(disorder.houses)
    by_key = {r.key: r for r in snap.requests()}
    for reqs in view["houses"].values():
        for entry in reqs:
            d = clock.due(by_key[entry["key"]], entry["since"])
            entry["asked"] = d.asked.isoformat(timespec="seconds") if d.asked else ""
            entry["due"] = d.due.isoformat(timespec="seconds") if d.due else ""
            entry["defaults_from"] = d.defaults_from.isoformat(timespec="seconds") if d.defaults_from else ""
            entry["extension_hours"] = d.extension
            entry["has_default"] = by_key[entry["key"]].default is not None
            entry["left_seconds"] = int((d.due - now).total_seconds()) if d.due else None
    return view


def status_text(view: dict[str, Any]) -> str:
    """``maester status``: the pending text with the schedule, and each request's due time and time left."""
    if "now" not in view:  # no step resolved yet: nothing is asked
        return pending_text(view)
    now = parse_time(view["now"])
    head = [f"  now {show_time(now)}; deadlines: " + (view["schedule"] or "none in game.toml ([deadlines]): a request is "
            "due when you run 'maester adjudicate GAME --deadline'")]  # fmt: skip
    head += [f"  {registry.house_name(h)} is in civil disorder: it plays by the deadline defaults until a key is "
             "registered for it (maester register --replaces)" for h in view["civil_disorder"]]  # fmt: skip
    return pending_text(view, head=head, when=lambda house, r: due_phrase(r, now, house in view["civil_disorder"] and r["has_default"]))


def due_phrase(entry: dict[str, Any], now: datetime, disorder: bool = False) -> str:
    """``due 2026-03-06 18:00 UTC, 1 d 8 h left`` for one request of :func:`dated_view`."""
    if disorder:
        return "civil disorder: the next run takes its default"
    if not entry.get("due"):
        return ""
    due, start = parse_time(entry["due"]), parse_time(entry["defaults_from"])
    extra = f", {entry['extension_hours']} h extension" if entry.get("extension_hours") else ""
    if now < due:
        return f"due {show_time(due)}{extra}, {show_span(due - now)} left"
    if now < start:
        return f"due {show_time(due)}{extra}, {show_span(now - due)} overdue; defaults from {show_time(start)}"
    return f"due {show_time(due)}{extra}, {show_span(now - due)} overdue: the next --deadline takes its default"


# --- maester extend --------------------------------------------------------------------------------


def extend(root: str | Path, *, house: str, hours: int, reason: str, now: datetime | None = None) -> str:
    """Give ``house`` ``hours`` more for the step open now; logged with the reason. Returns what was done.

    :raises DeadlineError: for no schedule, an unknown house, hours out of range, no reason, a game
        not adjudicated yet or over.
    """
    gd = GameDir.open(root)
    schedule = load_schedule(gd)
    if schedule is None:
        raise DeadlineError(f"{gd.game_file} has no [deadlines] table: without a schedule a request is due when you "
                            "call the deadline, so there is nothing to extend")  # fmt: skip
    if not reason.strip():
        raise DeadlineError("give the reason for the extension (--reason); it is kept in the log")
    if not 1 <= hours <= 24 * 366:
        raise DeadlineError(f"--hours {hours} is not valid: give a whole number of hours from 1 to {24 * 366}")
    houses = gd.info().houses
    house = house.lower()
    if house not in houses:
        raise DeadlineError(f"{house!r} is not a house of this game ({', '.join(houses)})")
    with locked(gd, timeout=10):
        folder = Folder(gd)
        numbers = folder.numbers()
        if not numbers:
            raise DeadlineError(f"no step was resolved yet: run 'maester adjudicate {root}' first")
        snap = folder.read_snapshot(numbers[-1])
        st = snap.state
        if st.phase == "game_over":
            raise DeadlineError("the game is over: nothing is due")
        entry = {"action": "extend", "house": house, "round": st.round, "step": st.phase, "hours": hours,
                 "reason": reason.strip()}  # fmt: skip
        if now is not None:
            entry["time"] = now.isoformat(timespec="seconds")
        log(gd.root, entry)
        ledger = Ledger.read(gd.root)
    clock = Clock(schedule, ledger, now or datetime.now(UTC))
    total = clock.extension(house, st.round, st.phase)
    mine = [r for r in snap.requests() if r.house == house]
    said = f"{registry.house_name(house)} has {hours} more hours for round {st.round} {st.phase} ({total} h in all)"
    if not mine:
        return said + "; it owes nothing now: the extension counts for what it is asked in this step"
    dues = sorted({show_time(d.due) for r in mine if (d := clock.due(r, snap.since.get(r.key, snap.number))).due})
    return said + (f": its requests are now due {', '.join(dues)}" if dues else "")
