"""Events: typed, frozen records of everything that happened, each knowing who may see it.

Rules code yields events; reports render them (``describe()``) and filter them by
``visible_to`` before any template sees them. The small word helpers below (``area_name``,
``order_name``, ``units_text``, ``plural``, ``aside``...) are what every ``describe()`` uses, so that
no id reaches a player. Event classes are grouped by phase in the modules
beside this one, imported where the rules need them; every class registers itself by name so
that ``report.json`` round-trips (:func:`event_type` imports the module of one not loaded yet).

>>> e = AnswerUnusable(house="stark", answer="raid from Winterfell", reason="no raid order there (R129)")
>>> e.visible_to, e.rule, e.describe()
('stark', 'R129', 'Your answer "raid from Winterfell" could not be used: no raid order there (R129).')
>>> from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
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
    cls = event_type(d["type"])
    return cls(**{k: _unplain(v) for k, v in d.items() if k != "type"})


def visible(events: list[Event], viewer: str | None) -> list[Event]:
    """The events a viewer may see: public ones, plus a house's own (``viewer=None``: public only)."""
    return [e for e in events if e.visible_to == PUBLIC or (viewer is not None and e.visible_to == viewer)]


# --- words for sentences: every id a player could read becomes its printed name ---------------

ORDER_NAMES = {
    "march-1": "March -1", "march+0": "March +0", "march+1": "March +1",
    "defense+1": "Defense +1", "defense+2": "Defense +2",
    "support+0": "Support +0", "support+1": "Support +1",
    "raid": "Raid", "raid*": "special Raid", "consolidate": "Consolidate Power",
    "consolidate*": "special Consolidate Power",
    "vassal_march": "March 0", "vassal_raid_support": "Raid/Support 1",
    "vassal_defense_muster": "Defense 1/Muster", "vassal_defense": "Defense 3",
    "vassal_support": "Raid/Support 1 (kept as support)", "vassal_defense_1": "Defense 1/Muster (kept as defense)",
    "sea_march": "Sea March -1", "sea_support": "Sea Support +0", "iron_bank": "Iron Bank",  # M114
}
ORDER_KIND_NAMES = {"march": "March", "defense": "Defense", "support": "Support", "raid": "Raid",
                    "consolidate": "Consolidate Power"}
UNIT_WORDS = {"footman": ("footman", "footmen"), "knight": ("knight", "knights"), "ship": ("ship", "ships"),
              "siege_engine": ("siege engine", "siege engines"), "dragon": ("dragon", "dragons")}
TRACK_WORDS = {"iron_throne": "Iron Throne track", "fiefdoms": "Fiefdoms track",
               "kings_court": "King's Court track", "wildlings": "Night's Watch"}
# Tides of Battle cards have no printed names: what is on them, as an object ("draws a 3").
TIDES_WORDS = {"blank": "a blank card", "one_sword": "a 1 with a sword", "one_fortification": "a 1 with a fortification",
               "two": "a 2", "three": "a 3", "skull": "a skull"}


def area_name(area: str) -> str:
    """An area's printed name: ``'white_harbor'`` -> ``'White Harbor'``.

    >>> area_name("kings_landing"), area_name("nowhere_known")
    ("King's Landing", 'Nowhere Known')
    """
    from ...game.board import Board
    from ...game.mod_board import mod_board

    for areas in (Board.classic().areas, mod_board(essos=True).areas):  # Mother of Dragons' areas too
        if area in areas:
            return areas[area].name
    return _titled(area)


def house_name(house: str) -> str:
    """A house as a sentence names it; no house at all is the neutral force.

    >>> house_name("stark"), house_name(""), house_name("neutral force")
    ('Stark', 'the neutral force', 'the neutral force')
    """
    return house.title() if house and house != "neutral force" else "the neutral force"


def card_name(card: str) -> str:
    """A House, Westeros or wildling card's printed name: ``'eddard_stark'`` -> ``'Eddard Stark'``.

    >>> card_name("eddard_stark"), card_name("a_throne_of_blades"), card_name("crow_killers")
    ('Eddard Stark', 'A Throne of Blades', 'Crow Killers')
    """
    from ...game.cards import CARDS

    if card in CARDS.house_cards:
        return CARDS.house_cards[card].name
    if card in CARDS.wildling_cards:
        return CARDS.wildling_cards[card].name
    if card in CARDS.loans:
        return CARDS.loans[card].name
    return next((c.name for c in CARDS.westeros if c.id == card), _titled(card))


def tides_name(card: str) -> str:
    """What a Tides of Battle card shows, as an object: ``'three'`` -> ``'a 3'``."""
    return TIDES_WORDS.get(card, _titled(card))


def order_name(token: str, *, noun: bool = True) -> str:
    """An order token in words: ``'march+1'`` -> ``'March +1 order'``, ``'raid*'`` -> ``'special Raid order'``.

    >>> order_name("defense+2"), order_name("consolidate*"), order_name("support+0", noun=False)
    ('Defense +2 order', 'special Consolidate Power order', 'Support +0')
    """
    name = ORDER_NAMES.get(token) or ORDER_KIND_NAMES.get(token) or _titled(token)
    return f"{name} order" if noun else name


def units_text(units: Iterable[str]) -> str:
    """Counted units in plain English: ``('knight', 'footman', 'knight')`` -> ``'1 footman and 2 knights'``.

    >>> units_text(["siege_engine"]), units_text([])
    ('1 siege engine', 'no units')
    """
    counts: dict[str, int] = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    words = [plural(n, *UNIT_WORDS.get(u, (u.replace("_", " "), u.replace("_", " ") + "s")))
             for u, n in sorted(counts.items())]
    return listing(words) if words else "no units"


def plural(n: int, singular: str, many: str | None = None) -> str:
    """``plural(1, 'special order')`` -> ``'1 special order'``; ``plural(2, 'footman', 'footmen')`` -> ``'2 footmen'``.

    >>> plural(1, "ship"), plural(0, "ship"), plural(3, "House card")
    ('1 ship', '0 ships', '3 House cards')
    """
    return f"{n} {singular if n == 1 else (many or singular + 's')}"


def listing(items: Iterable[str], conjunction: str = "and") -> str:
    """``['a', 'b', 'c']`` -> ``'a, b and c'``.

    >>> listing(["Stark"]), listing(["Stark", "Tyrell"]), listing(["a", "b", "c"], "or")
    ('Stark', 'Stark and Tyrell', 'a, b or c')
    """
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def track_name(track: str) -> str:
    """``'kings_court'`` -> ``"King's Court track"``; ``'wildlings'`` -> ``"Night's Watch"``."""
    return TRACK_WORDS.get(track, _titled(track))


def track_move(house: str, how: str, track: str, order: tuple[str, ...], cause: str) -> str:
    """A house moved on an influence track outside bidding, and the track's new order.

    >>> track_move("stark", "drops to the bottom of", "fiefdoms", ("lannister", "stark"), "Doran Martell")
    'Stark drops to the bottom of the Fiefdoms track (Doran Martell); the track is now Lannister, Stark.'
    """
    return (f"{house_name(house)} {how} the {track_name(track)}{aside(cause)}; "
            f"the track is now {', '.join(house_name(h) for h in order)}.")


def aside(text: str) -> str:
    """A cause in brackets after a sentence, never brackets inside brackets.

    A rule number the cause already carries in brackets joins it after a comma instead.

    >>> aside("casualties of the combat (R203)"), aside("Winter is Coming"), aside("")
    (' (casualties of the combat, R203)', ' (Winter is Coming)', '')
    """
    if not text:
        return ""
    return f" ({flat(text)})"


def flat(text: str) -> str:
    """Text with its bracketed parts turned into comma clauses, ready to go inside brackets.

    >>> flat("no effect (declined)")
    'no effect, declined'
    """
    return _BRACKETED.sub(r", \1", text).replace("(", "").replace(")", "")


_BRACKETED = re.compile(r"\s*\(([^()]*)\)")


def _titled(ident: str) -> str:
    """An id that has no printed name, at least without underscores."""
    return ident.replace("_", " ").title()


def private_to_house(event: Any) -> None:
    """Answers are a house's own business: such events default to that house's eyes only."""
    if event.visible_to == PUBLIC:
        object.__setattr__(event, "visible_to", event.house)


# --- events of the step machine itself ------------------------------------------------------

# A rule id, as a refusal carries it: a rule of the rules checklist (R001-R274), a written ruling
# of docs/rulings.md ("ruling 94"), a rule of the Mother of Dragons (M001...) or of A Feast for Crows
# (F001..., docs/rules-a-feast-for-crows.md).
RULE_ID = re.compile(r"R\d{3}|ruling \d+|M\d{3}|F\d{3}")
_LAST_BRACKET = re.compile(r"\(([^()]*)\)\s*\.?\s*$")


def rule_of(reason: str) -> str:
    """The decisive rule of a refusal's reason: the first rule id in the brackets it ends with.

    A reason ends with the rules that decide it, the decisive one first (``docs/engine.md``).

    >>> rule_of("a land raid cannot target a sea area (R132)")
    'R132'
    >>> rule_of("no raidable order there (R130, ruling 8)"), rule_of("too far (ruling 5, R231)")
    ('R130', 'ruling 5')
    >>> rule_of("no rule named here")
    ''
    """
    m = _LAST_BRACKET.search(reason)
    if not m:
        return ""
    for part in m[1].split(","):
        if RULE_ID.fullmatch(part.strip()):
            return part.strip()
    return ""


def with_rule(reason: str, rule: str) -> str:
    """A reason that names ``rule`` as its decisive rule: added in front of its brackets, or in new ones.

    >>> with_rule("the answer came too late", "R093")
    'the answer came too late (R093)'
    >>> with_rule("no order left (R141)", "R141"), with_rule("no order left (ruling 8)", "R130")
    ('no order left (R141)', 'no order left (R130, ruling 8)')
    """
    if rule_of(reason) == rule:
        return reason
    m = _LAST_BRACKET.search(reason)
    if m and any(RULE_ID.fullmatch(p.strip()) for p in m[1].split(",")):
        return f"{reason[: m.start()]}({rule}, {m[1]}){reason[m.end() :]}"
    return f"{reason} ({rule})"


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerUnusable(Event):
    """An answer (or standing instruction) that does not fit the decision it was meant for.

    ``reason`` ends with the rules that decide it, in brackets, the decisive one first; ``rule``
    is that decisive rule (taken from the reason when not given, and named by it when given).
    ``ids`` are the pool ids of the answers refused (one line, or the lines of one composite
    answer). A refused answer the game still holds waits for another decision it fits.
    """

    house: str
    answer: str
    reason: str
    rule: str = ""
    ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        private_to_house(self)
        if self.rule:
            object.__setattr__(self, "reason", with_rule(self.reason, self.rule))
        else:
            object.__setattr__(self, "rule", rule_of(self.reason))

    def describe(self) -> str:
        return f'Your answer "{self.answer}" could not be used: {self.reason}.'


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerUsed(Event):
    """A standing instruction or answer was applied to a decision (``ids``: the pool ids used)."""

    house: str
    decision: str
    answer: str
    ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        private_to_house(self)

    def describe(self) -> str:
        return f'Your answer "{self.answer}" was taken for: {self.decision}.'  # only its house sees it


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlyOption(Event):
    """A decision with one legal option was taken without asking."""

    house: str
    decision: str
    answer: str

    def describe(self) -> str:
        return f'{house_name(self.house)} had one legal answer to "{self.decision}", taken without asking: {self.answer}.'


@dataclass(frozen=True, slots=True, kw_only=True)
class DefaultUsed(Event):
    """At a deadline, the documented default filled an unanswered decision."""

    house: str
    decision: str
    answer: str

    def describe(self) -> str:
        return f"{house_name(self.house)} did not answer by the deadline: {self.decision}. Default taken: {self.answer}."


# Why answers left at the end of a round are dropped: answers are for the round they were sent in.
EXPIRY_RULE = "ruling 160"


@dataclass(frozen=True, slots=True, kw_only=True)
class CivilDisorder(Event):
    """A house that missed too many deadlines in a row plays by the deadline defaults (ruling 113)."""

    house: str
    begins: bool = False

    def describe(self) -> str:
        if self.begins:
            return (f"House {house_name(self.house)} missed too many deadlines in a row and is now in civil disorder: it "
                    "plays by the deadline defaults until a substitute player takes over.")
        return f"House {house_name(self.house)} is in civil disorder: it plays by the deadline defaults."


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswersExpired(Event):
    """Answers no decision used, dropped at the end of their round or of the game (ruling 160), or
    as soon as the part of the round that could use them is over (``reason``, ruling 161).

    ``ids`` are their pool ids, in the order of ``answers``; standing answers used at least once
    in the round are not among them (their verdict was "used"). ``rule`` is the decisive rule of
    ``reason`` when there is one.
    """

    house: str
    answers: tuple[str, ...]
    ids: tuple[str, ...] = ()
    reason: str = ""
    rule: str = EXPIRY_RULE

    def __post_init__(self) -> None:
        private_to_house(self)
        if self.reason:
            object.__setattr__(self, "rule", rule_of(self.reason) or self.rule)

    def describe(self) -> str:
        n = len(self.answers)
        head = "1 of your answers was" if n == 1 else f"{n} of your answers were"
        why = self.reason or f"no decision they fit came up in their round ({self.rule})"
        return f"{head} not needed: " + "; ".join(self.answers) + aside(why) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingWithdrawn(Event):
    """Standing instructions taken out of the game: withdrawn by a ``withdraw`` line of their house, or
    replaced by a later standing line for the same decision (``reason``, rulings 353, 354)."""

    house: str
    answers: tuple[str, ...]
    ids: tuple[str, ...] = ()
    reason: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        private_to_house(self)
        object.__setattr__(self, "rule", rule_of(self.reason) or self.rule)

    def describe(self) -> str:
        n = len(self.answers)
        head = "Your standing instruction" if n == 1 else f"{n} of your standing instructions"
        lines = "; ".join(f'"{a}"' for a in self.answers)
        return f"{head} {lines} " + ("no longer stands" if n == 1 else "no longer stand") + aside(self.reason) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStarted(Event):
    round: int
    phase: str

    def describe(self) -> str:
        return f"Round {self.round}: the {self.phase.title()} Phase begins."


# The modules beside this one that hold the events of a phase or of the Mother of Dragons. Each is
# imported by the rules that emit its events, so a step loads only those it reaches (a base game
# never the expansion's); an event read back by name whose module is not loaded yet loads them all.
PHASE_MODULES = ("action", "bank", "combat", "common", "objectives", "targaryen", "vassals", "westeros")


def event_type(name: str) -> type[Event]:
    """The event class called ``name``, its module imported if need be.

    :raises KeyError: for an unknown event type.
    """
    if name not in EVENT_TYPES:
        all_event_types()
    return EVENT_TYPES[name]


def all_event_types() -> dict[str, type[Event]]:
    """Every event class by name, all of the phase modules imported."""
    for module in PHASE_MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return EVENT_TYPES


# Each kind of decision in a player's words (a request's ``kind`` is the engine's name for it).
KIND_NAMES: dict[str, str] = {
    "orders": "orders", "raven": "Messenger Raven", "raven_wildling": "wildling card seen",
    "raid": "raid", "march": "march", "support": "support", "refuse_support": "refuse support",
    "house_card": "House card", "blade": "Valyrian Steel Blade", "casualties": "casualties", "retreat": "retreat",
    "card_choice": "card choice", "port_ships": "ships in a port", "muster": "muster",
    "consolidate": "consolidate power", "bid": "bid", "tie_break": "tie-break", "reconcile": "supply limit",
    "westeros_choice": "Westeros card choice", "wildling_choice": "wildling card choice",
    "distribute": "Targaryen's bid given away",
    "vassal_choice": "vassal to command", "vassal_raid": "vassal's Raid/Support",
    "objectives_kept": "objectives kept", "objective": "objective scored",
    "objective_returned": "objective given back", "objective_taken": "objective taken",
}  # fmt: skip


def kind_name(kind: str) -> str:
    """A decision's kind as a player reads it: ``raven_wildling`` -> ``wildling card seen``."""
    return KIND_NAMES.get(kind, kind.replace("_", " "))
