"""A tiny phase runner for combat tests, and the tests that the combat replays like any phase.

``Battle`` drives ``resolve_combat`` through the real step machine: the action phase is
replaced by a runner that fights the given attacks in order, so every request, default,
refusal and replay behaves exactly as in a game. Positions are written as position files.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable, Optional

import pytest

from adjudicator.board import Board
from adjudicator.commands import Command, PlayCard
from adjudicator.events import Event
from adjudicator.position import load_position
from adjudicator.rules import machine
from adjudicator.rules.combat import Attack, resolve_combat
from adjudicator.rules.machine import Context, Step, advance, pool_entry
from adjudicator.state import GameState

BOARD = Board.classic()
_ids = itertools.count(1)


@dataclass(frozen=True, slots=True, kw_only=True)
class HarnessFought(Event):
    """What ``resolve_combat`` returned, for the test to read."""

    area: str
    attacker_won: bool
    winner: str


@dataclass(frozen=True)
class Assault:
    """An attack to fight: the attacking unit types are taken from ``origin`` when it starts."""

    area: str
    attacker: str
    origin: str
    units: tuple[str, ...]
    march_token: Optional[str] = None  # default: the order in the origin


def position(text: str, **overrides: Any) -> GameState:
    """A position file's state in the action phase."""
    state = load_position('phase = "action"\nstart = "empty"\n' + text, filename="test.toml")
    for k, v in overrides.items():
        setattr(state, k, v)
    return state


def say(house: str, *cmds: Command) -> list[dict[str, Any]]:
    """Answer lines from one house, each newer than the last."""
    out = []
    for cmd in cmds:
        n = next(_ids)
        out.append(pool_entry(id=f"{house}/c{n}", house=house, round=1, command=cmd, text=f"{house} {n}: {cmd!r}"))
    return out


def play(house: str, card: str) -> list[dict[str, Any]]:
    return say(house, PlayCard(card=card))


class Battle:
    """Fights ``assaults`` in order inside the action phase, answer batch after answer batch."""

    def __init__(self, state: GameState, assaults: Iterable[Assault]) -> None:
        self.state = state
        self.assaults = list(assaults)
        self.events: list[Event] = []
        self.step: Optional[Step] = None

    def runner(self, ctx: Context) -> None:
        for a in self.assaults:
            st = ctx.state
            pool = [u for u in st.area(a.origin).units if u.house == a.attacker and not u.routed]
            chosen = []
            for t in a.units:
                unit = next(u for u in pool if u.type == t and all(u is not c for c in chosen))
                chosen.append(unit)
            order = st.area(a.origin).order
            token = a.march_token or (order.token if order else "march+0")
            result = resolve_combat(ctx, Attack(a.area, a.attacker, a.origin, chosen, token))
            ctx.emit(HarnessFought(area=a.area, attacker_won=result.attacker_won, winner=result.winner))
        ctx.state.phase = "game_over"

    def run(self, *batches: list[dict[str, Any]], deadline: bool = False) -> Step:
        entries = [e for b in batches for e in b]
        step = advance(self.state, entries, deadline=deadline, board=BOARD)
        self.state = step.state
        self.events.extend(step.events)
        self.step = step
        return step

    # --- reading the outcome --------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.state.phase == "game_over" and not (self.step and self.step.requests)

    def results(self) -> list[HarnessFought]:
        return [e for e in self.events if isinstance(e, HarnessFought)]

    def of(self, cls: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, cls)]

    def requests(self) -> list[machine.Request]:
        return list(self.step.requests) if self.step else []

    def asked(self) -> list[tuple[str, str]]:
        """``(kind, house)`` of every open request."""
        return [(r.kind, r.house) for r in self.requests()]

    def unusable(self, house: Optional[str] = None) -> list[str]:
        return [e.reason for e in self.events if type(e).__name__ == "AnswerUnusable" and (house is None or e.house == house)]

    def units(self, area: str, house: Optional[str] = None, *, routed: Optional[bool] = None) -> list[str]:
        return sorted(u.type for u in self.state.area(area).units
                      if (house is None or u.house == house) and (routed is None or u.routed == routed))


@pytest.fixture
def battle(monkeypatch: pytest.MonkeyPatch):
    """``battle(state, Assault(...), ...)``: a :class:`Battle` wired into the step machine."""

    def make(state: GameState, *assaults: Assault) -> Battle:
        b = Battle(state, assaults)
        monkeypatch.setattr(machine, "_runners", lambda: {"action": b.runner})
        return b

    return make


# --- the harness and the machine ---------------------------------------------------------------

KINGSWOOD = """
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[tracks]
fiefdoms = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
[areas]
kings_landing = { units = ["tyrell footman", "tyrell knight"], order = "march+0" }
kingswood = ["2 lannister footmen"]
"""


def test_combat_stops_for_both_secret_cards_and_records_nothing_until_both_are_in(battle):
    b = battle(position(KINGSWOOD), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    b.run()
    assert sorted(b.asked()) == [("house_card", "lannister"), ("house_card", "tyrell")]
    assert all(r.secret for r in b.requests())
    b.run(play("tyrell", "alester_florent"))
    assert b.asked() == [("house_card", "lannister")]
    b.run(play("tyrell", "margaery_tyrell"), play("lannister", "ser_jaime_lannister"))  # tyrell changes its mind
    assert b.done
    assert b.state.houses["tyrell"].discards == ["margaery_tyrell"]


def test_combat_replays_to_the_same_state_whatever_the_answer_batches(battle):
    one = battle(position(KINGSWOOD), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    one.run(play("tyrell", "alester_florent"), play("lannister", "ser_jaime_lannister"))
    two = battle(position(KINGSWOOD), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    two.run(play("tyrell", "alester_florent"))
    two.run(play("lannister", "ser_jaime_lannister"))
    assert one.done and two.done
    assert one.state.areas == two.state.areas and one.state.houses == two.state.houses
    assert [type(e).__name__ for e in one.events if e.is_public()] == [type(e).__name__ for e in two.events if e.is_public()]


def test_combat_state_round_trips_through_toml_mid_combat(battle):
    b = battle(position(KINGSWOOD), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    b.run(play("tyrell", "alester_florent"))
    b.state = GameState.from_toml(b.state.to_toml())
    b.run(play("lannister", "ser_jaime_lannister"))
    assert b.done and b.results()[0].winner == "lannister"
