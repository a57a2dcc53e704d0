"""Short positions for the rules tests: place units and orders, send answers, stand in for combat.

The phase runners are patched so that a test drives exactly the planning and action phases it
is about: the Westeros phase stops at once (it is tested on its own), and until the real combat
is plugged in a stand-in resolves every attack from a ``CardChoice(card="combat")`` answer.
"""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import after_control_change
from adjudicator.engine.core.context import (
    NOT_APPLICABLE,
    Ask,
    Context,
    NeedAnswers,
    Request,
    Step,
    pool_entry,
)
from adjudicator.engine.events import Event
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import action, planning, westeros
from adjudicator.game.board import HOUSES, Board
from adjudicator.game.commands import CardChoice, Command
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit

BOARD = Board.classic()
SIX = list(HOUSES)
_ids = itertools.count(1)


def game(houses: Iterable[str] = SIX, *, seed: str = "test", bare: bool = True) -> GameState:
    """A new game; ``bare`` takes every unit off the board (garrisons and neutral forces stay)."""
    state = new_game(list(houses), seed=seed)
    if bare:
        for st in state.areas.values():
            st.units.clear()
        state.tidy()
    return state


def put(state: GameState, area: str, house: str, *units: str, order: str | None = None, routed: int = 0) -> None:
    """Add units of one house to an area (the first ``routed`` of them routed), and maybe its order."""
    st = state.area_mut(area)
    st.units.extend(Unit(house, u, routed=i < routed) for i, u in enumerate(units))
    if order:
        st.order = Order(house, order)


def units(state: GameState, area: str, house: str | None = None) -> list[str]:
    """Sorted unit types in an area (of one house, if given)."""
    return sorted(u.type for u in state.area(area).units if house is None or u.house == house)


def token(state: GameState, area: str) -> str | None:
    order = state.area(area).order
    return f"{order.house} {order.token}" if order else None


def entry(house: str, cmd: Command, *, round: int = 1) -> dict[str, Any]:
    """One answer line from a house, with a fresh id (later entries are newer)."""
    n = next(_ids)
    return pool_entry(id=f"{house}/t{n}", house=house, round=round, command=cmd, text=f"{house} line {n}: {cmd!r}")


def answers(house: str, *cmds: Command) -> list[dict[str, Any]]:
    return [entry(house, c) for c in cmds]


def of(events: Iterable[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def public(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.visible_to == "public"]


def unusable(step: Step, house: str | None = None) -> list[Any]:
    return [e for e in step.events if type(e).__name__ == "AnswerUnusable" and (house is None or e.house == house)]


# --- phases and the combat stand-in ---------------------------------------------------------


def _westeros_stops(ctx: Context) -> None:
    raise NeedAnswers([Request(key=f"r{ctx.state.round}.westeros.stand-in", kind="westeros_choice",
                               house=ctx.state.turn_order()[0], prompt="the Westeros phase (not under test here)")])


def runners() -> dict[str, Any]:
    return {"planning": planning.run, "action": action.run, "westeros": _westeros_stops}


def _planning_stops(ctx: Context) -> None:
    raise NeedAnswers([])


def westeros_phase_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the Westeros phase for real and stop when the Planning phase would begin."""
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _planning_stops})


def westeros_round(houses: list[str], cards: tuple[str, str, str], *, seed: str, threat: int = 0,
                   wildling: str | None = None) -> GameState:
    """Round 2's Westeros phase with ``cards`` on top of decks I-III (and ``wildling`` on top)."""
    s = new_game(houses, seed=seed)
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    if wildling:
        s.wildling_deck.remove(wildling)
        s.wildling_deck.insert(0, wildling)
    return s


@dataclass(frozen=True, slots=True, kw_only=True)
class StandInCombat(Event):
    """What the combat stand-in was handed, and how it ended."""

    area: str
    attacker: str
    origin: str
    units: tuple[str, ...]
    march_token: str
    origin_units: tuple[str, ...]  # what was still in the origin when the combat began (R148)
    attacker_won: bool

    def describe(self) -> str:
        return f"(stand-in) {self.attacker} {'wins' if self.attacker_won else 'loses'} the combat in {self.area}."


@dataclass
class StandInAttack:
    area: str
    attacker: str
    origin: str
    units: list[Unit]
    march_token: str


@dataclass
class StandInResult:
    attacker_won: bool
    winner: str


def combat_answer(area: str, win: bool = True) -> CardChoice:
    """The answer the stand-in takes: the attacker wins or loses the combat in ``area``."""
    return CardChoice(card="combat", option="win" if win else "lose", area=area)


def stand_in_combat(ctx: Context, attack: Any) -> StandInResult:
    """Resolve an attack from a ``combat_answer``: the winner keeps the area, a losing attacker is routed."""
    st = ctx.state

    def check(c: Command) -> Any:
        return None if isinstance(c, CardChoice) and c.card == "combat" and c.area == attack.area else NOT_APPLICABLE

    req = Request(key=ctx.key("card_choice", attack.attacker), kind="card_choice", house=attack.attacker,
                  prompt=f"(stand-in) combat in {attack.area}", default=combat_answer(attack.area, False))
    cmd = ctx.ask(Ask(req, check))
    won = cmd.option == "win"
    origin, target = st.area_mut(attack.origin), st.area_mut(attack.area)
    ctx.emit(StandInCombat(area=attack.area, attacker=attack.attacker, origin=attack.origin,
                           units=tuple(u.type for u in attack.units), march_token=attack.march_token,
                           origin_units=tuple(sorted(u.type for u in origin.units if u.house == attack.attacker)),
                           attacker_won=won))
    defender = next((u.house for u in target.units), "neutral force")
    if origin.order and origin.order.house == attack.attacker:
        origin.order = None  # R220
    if won:
        target.units = [u for u in target.units if u.house == attack.attacker]
        target.order = None
        target.power_token = None
        target.garrison = 0
        target.neutral_force = None
        for u in attack.units:
            origin.units.remove(u)
            target.units.append(u)
        after_control_change(ctx)
    else:
        for u in attack.units:
            u.routed = True
    return StandInResult(attacker_won=won, winner=attack.attacker if won else defender)


@pytest.fixture
def phases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run only the planning and action phases; stop at the next Westeros phase."""
    monkeypatch.setattr(machine, "_runners", runners)


@pytest.fixture
def combat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in for ``rules.combat.resolve_combat`` (the real module, or a stand-in module without it)."""
    try:
        from adjudicator.engine.rules import combat as real
    except Exception:
        real = None
    if real is None or not hasattr(real, "Attack"):
        real = types.ModuleType("adjudicator.engine.rules.combat")
        real.Attack = StandInAttack  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "adjudicator.engine.rules.combat", real)
        import adjudicator.engine.rules

        monkeypatch.setattr(adjudicator.engine.rules, "combat", real, raising=False)
    monkeypatch.setattr(real, "resolve_combat", stand_in_combat, raising=False)


def at_action(state: GameState) -> GameState:
    """The position moved straight to the action phase (orders already on the board)."""
    state.phase = "action"
    return state


def run(state: GameState, *entries: dict[str, Any], deadline: bool = False) -> Step:
    """``advance`` with these answers."""
    return advance(state, list(entries), deadline=deadline)


def march(origin, *moves, leave_power=False):
    """``march("lannisport", ("stoney_sept", "footman"), ("riverrun", "knight", "footman"))``."""
    from adjudicator.game.commands import March, Move, UnitSpec

    return March(origin=origin, leave_power=leave_power,
                 moves=tuple(Move(destination=d, units=tuple(UnitSpec(u) for u in us)) for d, *us in moves))


def reasons(step, house):
    """Why each of the house's answers was refused in this step."""
    return [e.reason for e in unusable(step, house)]
