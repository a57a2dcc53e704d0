"""The game's deadline schedule: the ``[deadlines]`` table of ``game.toml``, and hours counted on a calendar.

::

    [deadlines]
    hours = 48                  # a house has 48 hours to answer, from when the reports asking it were mailed
    westeros_hours = 24         # optional, per step: westeros_hours, planning_hours, action_hours
    skip_weekends = true        # Saturdays and Sundays (UTC) are not counted
    grace_hours = 2             # the defaults are taken this long after the due time
    remind_hours = 12           # maester outbox --reminders mails a house this long before its due time
    civil_disorder_after = 3    # after 3 deadlines missed in a row a house plays by the defaults (0: never)

Without the table a game has no schedule: a request is due when the moderator runs ``maester
adjudicate --deadline``. Every value is checked when the table is read; a bad one is refused in one
line naming the key. Times are UTC. See ``docs/moderating.md`` and rulings 110-119.

>>> s = Schedule.from_game({"deadlines": {"hours": 48, "skip_weekends": True}})
>>> friday = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
>>> show_time(s.add(friday, 48))
'2026-03-10 18:00 UTC'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ..util.suggest import close_matches

TABLE = "deadlines"
STEPS = ("westeros", "planning", "action")
MAX_HOURS = 24 * 366  # a year: no game waits longer for one answer
MAX_MISSES = 100

_HOUR_KEYS = {"hours": (1, "the hours a house has to answer"), "grace_hours": (0, "hours after the due time"),
              "remind_hours": (0, "hours before the due time")} | \
             {f"{s}_hours": (1, f"the hours a house has to answer in the {s} step") for s in STEPS}  # fmt: skip
KEYS = (*_HOUR_KEYS, "skip_weekends", "civil_disorder_after")


class ScheduleError(ValueError):
    """A ``[deadlines]`` table or a time that cannot be used, said in one line."""


@dataclass(frozen=True)
class Schedule:
    """How long a house has to answer, per step, and what happens around the due time."""

    hours: dict[str, int] = field(default_factory=dict)  # per step (westeros, planning, action)
    skip_weekends: bool = False
    grace_hours: int = 0
    remind_hours: int = 0
    civil_disorder_after: int = 0

    @classmethod
    def from_game(cls, game: dict[str, Any], *, where: str = "game.toml") -> Schedule | None:
        """The schedule of a game's ``game.toml`` (read as a dict); ``None`` when it has no ``[deadlines]``.

        >>> Schedule.from_game({"deadlines": {"hours": 0}})
        Traceback (most recent call last):
        ...
        adjudicator.folder.schedule.ScheduleError: game.toml: [deadlines] hours = 0 is not valid: give a whole number of hours from 1 to 8784 (the hours a house has to answer)

        :raises ScheduleError: naming the first key that is unknown, missing or out of range.
        """
        table = game.get(TABLE)
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ScheduleError(f"{where}: '{TABLE}' must be a table ([{TABLE}] hours = 48, ...)")
        for key in table:
            if key not in KEYS:
                near = close_matches(str(key), KEYS, n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                raise ScheduleError(f"{where}: [{TABLE}] has an unknown key {key!r}{hint}; the keys are {', '.join(KEYS)}")
        if "hours" not in table:
            raise ScheduleError(f"{where}: [{TABLE}] needs hours = N: the hours a house has to answer, counted "
                                "from when the reports asking it were mailed")  # fmt: skip
        got = {key: _hours(table, key, where) for key in _HOUR_KEYS if key in table}
        weekends = table.get("skip_weekends", False)
        if not isinstance(weekends, bool):
            raise ScheduleError(f"{where}: [{TABLE}] skip_weekends = {_shown(weekends)} is not valid: give true or false")
        misses = table.get("civil_disorder_after", 0)
        if isinstance(misses, bool) or not isinstance(misses, int) or not 0 <= misses <= MAX_MISSES:
            raise ScheduleError(f"{where}: [{TABLE}] civil_disorder_after = {_shown(misses)} is not valid: give a "
                                f"whole number from 0 (never) to {MAX_MISSES}, the deadlines missed in a row")  # fmt: skip
        return cls(hours={s: got.get(f"{s}_hours", got["hours"]) for s in STEPS}, skip_weekends=weekends,
                   grace_hours=got.get("grace_hours", 0), remind_hours=got.get("remind_hours", 0),
                   civil_disorder_after=misses)  # fmt: skip

    def hours_for(self, step: str) -> int:
        """The hours a house has to answer in one step (``planning``, ...)."""
        return self.hours.get(step, max(self.hours.values(), default=0))

    def add(self, start: datetime, hours: int) -> datetime:
        """``start`` plus ``hours`` counted as this schedule counts them (without weekends when it skips them).

        >>> s = Schedule(hours={"planning": 48}, skip_weekends=True)
        >>> saturday = datetime(2026, 3, 7, 9, 0, tzinfo=UTC)
        >>> show_time(s.add(saturday, 1))   # counting starts on Monday
        '2026-03-09 01:00 UTC'
        """
        return add_hours(start, hours, skip_weekends=self.skip_weekends)

    def describe(self) -> str:
        """One line for ``maester status``."""
        values = [self.hours_for(s) for s in STEPS]
        parts = [f"{values[0]} h to answer" if len(set(values)) == 1 else
                 "hours to answer: " + ", ".join(f"{s} {h}" for s, h in zip(STEPS, values))]  # fmt: skip
        if self.skip_weekends:
            parts.append("weekends not counted")
        if self.grace_hours:
            parts.append(f"defaults {self.grace_hours} h after the due time")
        if self.remind_hours:
            parts.append(f"reminders {self.remind_hours} h before")
        if self.civil_disorder_after:
            parts.append(f"civil disorder after {self.civil_disorder_after} missed in a row")
        return "; ".join(parts)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _hours(table: dict[str, Any], key: str, where: str) -> int:
    low, what = _HOUR_KEYS[key]
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_HOURS:
        raise ScheduleError(f"{where}: [{TABLE}] {key} = {_shown(value)} is not valid: give a whole number of hours "
                            f"from {low} to {MAX_HOURS} ({what})")  # fmt: skip
    return value


def add_hours(start: datetime, hours: int, *, skip_weekends: bool = False) -> datetime:
    """``start`` plus ``hours``; with ``skip_weekends``, Saturdays and Sundays (UTC) are not counted.

    >>> friday = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
    >>> show_time(add_hours(friday, 6, skip_weekends=True))  # 4 h on Friday, 2 h on Monday
    '2026-03-09 02:00 UTC'
    """
    t = start.astimezone(UTC)
    if not skip_weekends or hours <= 0:
        return t + timedelta(hours=hours)
    left = timedelta(hours=hours)
    while True:
        midnight = t.replace(hour=0, minute=0, second=0, microsecond=0)
        if t.weekday() >= 5:  # Saturday or Sunday: counting goes on on Monday at midnight
            t = midnight + timedelta(days=7 - t.weekday())
            continue
        saturday = midnight + timedelta(days=5 - t.weekday())
        if left <= saturday - t:
            return t + left
        left -= saturday - t
        t = saturday


# --- times as a moderator writes and reads them -------------------------------------------------------


def parse_time(text: str, *, what: str = "--now") -> datetime:
    """An ISO 8601 time (``2026-03-06T18:00Z``, ``2026-03-06 18:00+01:00``); UTC when it names no offset.

    >>> show_time(parse_time("2026-03-06T19:00+01:00"))
    '2026-03-06 18:00 UTC'

    :raises ScheduleError: for anything else, saying what would be valid.
    """
    try:
        t = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ScheduleError(f"{what} {text!r} is not a time: give it in ISO 8601, e.g. 2026-03-06T18:00Z "
                            "(UTC unless it names its offset)") from None  # fmt: skip
    return (t if t.tzinfo is not None else t.replace(tzinfo=UTC)).astimezone(UTC)


def show_time(t: datetime) -> str:
    """A time as status and reminders print it: ``2026-03-06 18:00 UTC``."""
    return t.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def show_span(span: timedelta) -> str:
    """A length of time in days, hours and minutes.

    >>> show_span(timedelta(days=1, hours=8, minutes=5)), show_span(timedelta(minutes=45)), show_span(timedelta(0))
    ('1 d 8 h', '45 min', 'under a minute')
    """
    minutes = int(abs(span).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    return f"{mins} min" if mins else "under a minute"
