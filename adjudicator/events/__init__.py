"""Events: typed, frozen records of everything that happened, each knowing who may see it.

Rules code yields events; reports render them (``describe()``) and filter them by
``visible_to`` before any template sees them. Event classes are grouped by phase in the modules
beside this one; every class registers itself by name so that ``report.json`` round-trips.

>>> e = AnswerUnusable(house="stark", answer="raid from Winterfell", reason="no raid order there")
>>> e.visible_to, e.describe()
('stark', 'Your answer "raid from Winterfell" could not be used: no raid order there.')
>>> from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

PUBLIC = "public"

EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every event. ``visible_to`` is ``"public"`` or one house id."""

    visible_to: str = PUBLIC
    kind: ClassVar[str] = "event"

    def __init_subclass__(cls) -> None:
        # Called again for the class that dataclass(slots=True) builds: the last one registered wins.
        EVENT_TYPES[cls.__name__] = cls

    def describe(self) -> str:
        """One sentence for the text report."""
        return type(self).__name__

    def is_public(self) -> bool:
        return self.visible_to == PUBLIC

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            d[f.name] = _plain(getattr(self, f.name))
        return d


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _unplain(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_unplain(x) for x in v)
    if isinstance(v, dict):
        return {k: _unplain(x) for k, x in v.items()}
    return v


def from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_dict` output.

    :raises KeyError: for an unknown event type.
    """
    cls = EVENT_TYPES[d["type"]]
    return cls(**{k: _unplain(v) for k, v in d.items() if k != "type"})


def visible(events: list[Event], viewer: str | None) -> list[Event]:
    """The events a viewer may see: public ones, plus a house's own (``viewer=None``: public only)."""
    return [e for e in events if e.visible_to == PUBLIC or (viewer is not None and e.visible_to == viewer)]


def _private_to_house(event: Any) -> None:
    """Answers are a house's own business: such events default to that house's eyes only."""
    if event.visible_to == PUBLIC:
        object.__setattr__(event, "visible_to", event.house)


# --- events of the step machine itself ------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerUnusable(Event):
    """An answer (or standing instruction) that does not fit the decision it was meant for."""

    house: str
    answer: str
    reason: str
    rule: str = ""

    def __post_init__(self) -> None:
        _private_to_house(self)

    def describe(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f'Your answer "{self.answer}" could not be used: {self.reason}{rule}.'


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerUsed(Event):
    """A standing instruction or answer was applied to a decision."""

    house: str
    decision: str
    answer: str

    def __post_init__(self) -> None:
        _private_to_house(self)

    def describe(self) -> str:
        return f"{self.house.title()}: {self.decision}: {self.answer}."


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlyOption(Event):
    """A decision with one legal option was taken without asking."""

    house: str
    decision: str
    answer: str

    def describe(self) -> str:
        return f"{self.house.title()} had one legal choice for {self.decision}: {self.answer}."


@dataclass(frozen=True, slots=True, kw_only=True)
class DefaultUsed(Event):
    """At a deadline, the documented default filled an unanswered decision."""

    house: str
    decision: str
    answer: str

    def describe(self) -> str:
        return f"{self.house.title()} did not answer {self.decision} by the deadline; default used: {self.answer}."


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswersExpired(Event):
    """Answers submitted for a step that ended without needing them."""

    house: str
    answers: tuple[str, ...]

    def __post_init__(self) -> None:
        _private_to_house(self)

    def describe(self) -> str:
        n = len(self.answers)
        head = "1 of your answers was" if n == 1 else f"{n} of your answers were"
        return f"{head} not needed: " + "; ".join(self.answers) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStarted(Event):
    round: int
    phase: str

    def describe(self) -> str:
        return f"Round {self.round}: the {self.phase.title()} Phase begins."
from . import action  # noqa: E402,F401
from . import westeros  # noqa: E402,F401
from . import combat  # noqa: E402,F401
