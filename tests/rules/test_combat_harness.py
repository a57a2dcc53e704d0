"""A tiny phase runner for combat tests, and the tests that the combat replays like any phase.

``Battle`` drives ``resolve_combat`` through the real step machine: the action phase is
replaced by a runner that fights the given attacks in order, so every request, default,
refusal and replay behaves exactly as in a game. Positions are written as position files.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, Request, Step, pool_entry
from adjudicator.engine.events import Event
from adjudicator.engine.machine import advance
from adjudicator.engine.rules.combat import resolve_combat
from adjudicator.engine.rules.combat_state import Attack
from adjudicator.game.board import Board
from adjudicator.game.commands import Command, PlayCard
from adjudicator.game.position import load_position
from adjudicator.game.state import GameState

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
    march_token: str | None = None  # default: the order in the origin


def position(text: str, **overrides: Any) -> GameState:
    """A position file's state in the action phase."""
    state = load_position('phase = "action"\nstart = "empty"\n' + text, filename="test.toml")
    for k, v in overrides.items():
        setattr(state, k, v)
    return state


SIX = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]


def duel(
    attacker: str,
    defender: str,
    *,
    attack: tuple[str, ...] = ("knight",),
    defend: tuple[str, ...] = ("footman",),
    area: str = "kingswood",
    origin: str = "kings_landing",
    token: str = "march+0",
    defense: str | None = None,
    areas: str = "",
    houses: list[str] | None = None,
    iron_throne: list[str] | None = None,
    fiefdoms: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    discards: dict[str, list[str]] | None = None,
    power: dict[str, int] | None = None,
    options: str = "",
) -> GameState:
    """Two houses about to fight: ``attack``/``defend`` are unit specs like ``"2 footmen"``.

    Unless told otherwise a house that does not fight heads every track (so no combatant holds
    the Blade), then the attacker, then the defender (the attacker wins ties).
    """
    houses = houses or SIX
    others = [h for h in houses if h not in (attacker, defender)]
    default = [others[0], attacker, defender, *others[1:]]
    lines = [f"houses = {houses!r}".replace("'", '"'), options, "[tracks]",
             f"iron_throne = {iron_throne or default!r}".replace("'", '"'),
             f"fiefdoms = {fiefdoms or default!r}".replace("'", '"')]
    for h in houses:
        bits = []
        if hands and h in hands:
            bits.append(f"hand = {hands[h]!r}".replace("'", '"'))
        if discards and h in discards:
            bits.append(f"discards = {discards[h]!r}".replace("'", '"'))
        if power and h in power:
            bits.append(f"power = {power[h]}")
        if bits:
            lines += [f"[house.{h}]", *bits]

    def units(house: str, specs: tuple[str, ...]) -> str:
        out = []
        for spec in specs:
            n, _, unit = spec.rpartition(" ")
            out.append(f"{n} {house} {unit}".strip())
        return "[" + ", ".join(f'"{u}"' for u in out) + "]"

    lines += ["[areas]", f'{origin} = {{ units = {units(attacker, attack)}, order = "{token}" }}']
    order = f', order = "{defense}"' if defense else ""
    if defend:
        lines.append(f"{area} = {{ units = {units(defender, defend)}{order} }}")
    lines.append(areas)
    return position("\n".join(lines))


def unit_types(specs: tuple[str, ...]) -> tuple[str, ...]:
    """``("2 footmen", "knight")`` -> ``("footman", "footman", "knight")``."""
    singular = {"footmen": "footman", "knights": "knight", "ships": "ship", "siege_engines": "siege_engine"}
    out: list[str] = []
    for spec in specs:
        n, _, unit = spec.rpartition(" ")
        out += [singular.get(unit, unit)] * int(n or 1)
    return tuple(out)


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

    board: Board | None = BOARD  # None: the state's own map (an expansion's)

    def __init__(self, state: GameState, assaults: Iterable[Assault]) -> None:
        self.state = state
        self.assaults = list(assaults)
        self.events: list[Event] = []
        self.step: Step | None = None

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
        step = advance(self.state, entries, deadline=deadline, board=self.board)
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

    def requests(self) -> list[Request]:
        return list(self.step.requests) if self.step else []

    def asked(self) -> list[tuple[str, str]]:
        """``(kind, house)`` of every open request."""
        return [(r.kind, r.house) for r in self.requests()]

    def unusable(self, house: str | None = None) -> list[str]:
        return [e.reason for e in self.events if type(e).__name__ == "AnswerUnusable" and (house is None or e.house == house)]

    def units(self, area: str, house: str | None = None, *, routed: bool | None = None) -> list[str]:
        return sorted(u.type for u in self.state.area(area).units
                      if (house is None or u.house == house) and (routed is None or u.routed == routed))


def wired(monkeypatch: pytest.MonkeyPatch, kind: type[Battle] = Battle):
    """``make(state, Assault(...), ...)``: a battle of ``kind`` wired into the step machine."""

    def make(state: GameState, *assaults: Assault) -> Battle:
        b = kind(state, assaults)
        monkeypatch.setattr(machine, "_runners", lambda: {"action": b.runner})
        return b

    return make


@pytest.fixture
def battle(monkeypatch: pytest.MonkeyPatch):
    """``battle(state, Assault(...), ...)``: a :class:`Battle` wired into the step machine."""
    return wired(monkeypatch)


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


# --- shared checks for the card tests -------------------------------------------------------------


def everyone(state: GameState, attacker: str, *, area: str = "kingswood", origin: str = "kings_landing") -> Assault:
    """An attack with every standing unit the attacker has in ``origin``."""
    types = tuple(u.type for u in state.area(origin).units if u.house == attacker and not u.routed)
    return Assault(area, attacker, origin, types)


# The opponents of check_icons: (opponent, its blank card, its sword card, that card's swords) for
# the house tested, and for every other house.
BASE_OPPONENTS = {"stark": ("lannister", "cersei_lannister", "ser_gregor_clegane", 3),
                  "*": ("stark", "catelyn_stark", "eddard_stark", 2)}


def check_icons(battle: Any, house: str, card: str, *, strength: int, swords: int, forts: int,
                opponents: dict[str, tuple[str, str, str, int]] = BASE_OPPONENTS, options: str = "") -> None:
    """A card without text: its strength and swords when it attacks, its fortifications when it defends.

    The opponent plays a 0-strength card whose text does nothing here (Catelyn Stark without a
    Defense Order, or Cersei Lannister when she loses); The Boneway and The Reach are held by a
    third house, so the loser's survivors retreat to Storm's End without a question.
    """
    from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved

    opponent, blank, sword_card, its_swords = opponents.get(house) or opponents["*"]
    third = next(h for h in SIX if h not in (house, opponent))
    blockers = f'the_boneway = ["{third} footman"]\nthe_reach = ["{third} footman"]'
    # attacking: the card's strength and swords
    b = battle(duel(house, opponent, attack=("3 knights",), defend=("3 footmen",), areas=blockers, options=options),
               Assault("kingswood", house, "kings_landing", ("knight",) * 3))
    b.run(play(house, card), play(opponent, blank))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == house and (f"card:{card}", strength) in final.attacker_strength
    due = b.of(CasualtiesDue)
    assert [(d.swords, d.count) for d in due] == ([(swords, swords)] if swords else [])
    # defending: its fortifications cancel the attacker's swords
    b = battle(duel(opponent, house, attack=("3 knights",), defend=("3 footmen",), areas=blockers, options=options),
               Assault("kingswood", opponent, "kings_landing", ("knight",) * 3))
    b.run(play(house, card), play(opponent, sword_card))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == opponent and (f"card:{card}", strength) in final.defender_strength
    due = b.of(CasualtiesDue)[0]
    assert (due.swords, due.fortifications, due.count) == (its_swords, forts, max(0, its_swords - forts))
    assert b.units("storms_end", house, routed=True) == ["footman"] * (3 - due.count)


def test_every_combat_event_round_trips_and_describes_itself(battle):
    from adjudicator.engine.events import EVENT_TYPES, from_dict
    from adjudicator.game.commands import (
        CardChoice,
        RefuseSupport,
        Retreat,
        Support,
        UseBlade,
    )

    state = duel("tyrell", "lannister", attack=("footman", "knight"), defend=("2 footmen",), token="march+1",
                 fiefdoms=["tyrell", "lannister", "stark", "baratheon", "greyjoy", "martell"],
                 areas='the_reach = { units = ["stark knight"], order = "support+0" }\n'
                       'storms_end = { units = ["lannister footman"], order = "consolidate" }',
                 options='[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n'
                         '[decks]\ntides = ["one_sword", "skull"]\n')
    state.area_mut("kingswood").power_token = "lannister"
    b = battle(state, everyone(state, "tyrell"))
    b.run(say("stark", Support(side="tyrell")), say("tyrell", RefuseSupport(supporter="stark")),
          play("tyrell", "queen_of_thorns"), play("lannister", "ser_kevan_lannister"),
          say("lannister", Retreat(areas=("the_boneway",))),
          say("tyrell", CardChoice(card="queen_of_thorns", area="storms_end"), UseBlade(use=True)))
    b.run(deadline=True)
    assert b.done
    kinds = {type(e).__name__ for e in b.events}
    assert {"CombatStarted", "SupportDeclared", "SupportRefused", "CombatStrengths", "HouseCardsRevealed", "TidesDrawn",
            "TidesRevealed", "BladeUsed", "CombatResolved", "CasualtiesDue", "Retreated", "AttackerAdvanced",
            "CombatOrderRemoved", "CombatPowerTokenRemoved", "HouseCardsDiscarded"} <= kinds, kinds
    for e in b.events:
        assert EVENT_TYPES[type(e).__name__] is type(e)
        assert from_dict(e.to_dict()) == e
        if isinstance(e, HarnessFought):
            continue
        text = e.describe()
        assert text and text.endswith(".") and text != type(e).__name__
