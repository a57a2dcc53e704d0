"""Combat (R169-R237, R268-R273): one function the march code calls for every attack.

``resolve_combat`` reads like the rulebook's six steps::

    1 call for support            rules/support.py
    2 initial combat strength     rules/strength.py (announced)
    3 House cards, their texts    rules/housecards.py
    4 Valyrian Steel Blade, Tides of Battle
    5 final strength and the victor (ties: the Fiefdoms track)
    6 casualties (rules/casualties.py), retreats (rules/retreat.py), clean-up (here)

An attack on a neutral force goes through the same call: support for the attacker only, no
cards, no Blade (R232). The attacking units are still in ``origin`` when it is called.

>>> from adjudicator.game.board import Board
>>> from adjudicator.game.position import load_position
>>> from adjudicator.engine.core.context import Context
>>> from adjudicator.game.state import Segment
>>> state = load_position('''
... houses = ["stark", "lannister", "baratheon"]
... phase = "action"
... start = "empty"
... [areas]
... kingswood = { units = ["2 baratheon knights", "baratheon footman"], order = "march+0" }
... kings_landing = { neutral_force = 5 }
... ''')
>>> ctx = Context(state, Board.classic(), Segment("action", {}), [], False)
>>> resolve_combat(ctx, Attack("kings_landing", "baratheon", "kingswood", list(state.area("kingswood").units), "march+0"))
CombatResult(attacker_won=True, winner='baratheon')
>>> [u.type for u in state.area("kings_landing").units], state.area("kings_landing").neutral_force
(['knight', 'knight', 'footman'], None)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...game.state import Order
from ..cards import tides
from ..cards.registry import ROLES, Role
from ..core.common import (
    ControlChanged,
    after_control_change,
)
from ..core.context import Context
from ..events.combat import (
    CombatOrderRemoved,
    CombatPowerTokenRemoved,
    CombatResolved,
    CombatStarted,
    CombatStrengths,
    GarrisonDefeated,
    HouseCardsDiscarded,
    NeutralForceAttacked,
)
from . import housecards, support, vassal_combat
from .casualties import after_casualties, take_casualties
from .combat_state import NEUTRAL, Attack, Combat, Side
from .combat_view import passive_effects
from .ports import capture_port
from .retreat import retreat_and_advance, stay_home
from .strength import strength


@dataclass
class CombatResult:
    """Who won: ``winner`` is a house, or ``"neutral"`` when a neutral force held."""

    attacker_won: bool
    winner: str


def resolve_combat(ctx: Context, attack: Attack) -> CombatResult:
    """Resolve one combat completely, from the call for support to clean-up (R170).

    :raises GameOver: when the combat gives a house its seventh castle (R036).
    """
    combat = _begin(ctx, attack)
    if combat.neutral:
        return _against_neutral_force(ctx, combat)
    support.call_for_support(ctx, combat)  # step 1
    _announce(ctx, combat)  # step 2
    if ctx.state.options.get("tides_of_battle"):
        tides.prepare_for_combat(ctx.state)
    housecards.choose_cards(ctx, combat)  # step 3
    housecards.resolve_reveal(ctx, combat)
    housecards.blade_and_tides(ctx, combat)  # step 4
    _determine_victor(ctx, combat)  # step 5, resolution 1
    housecards.run_stage(ctx, combat, "after_victor_determined")
    take_casualties(ctx, combat)  # resolution 2
    after_casualties(ctx, combat)
    housecards.run_stage(ctx, combat, "retreat")  # resolution 3
    retreat_and_advance(ctx, combat)
    _clean_up(ctx, combat)  # resolution 4
    housecards.run_stage(ctx, combat, "after_combat")
    return CombatResult(attacker_won=combat.winner == "attacker", winner=str(combat.house(combat.winner or "defender")))


# --- the start ---------------------------------------------------------------------------------


def _begin(ctx: Context, attack: Attack) -> Combat:
    """Who defends: the occupier, else the Garrison's house alone, else a neutral force."""
    st, board = ctx.state, ctx.board
    here = st.area(attack.area)
    home = st.garrison_owner(attack.area, board)  # the home house's, or a box's garrison elsewhere
    occupant = st.occupant(attack.area)
    neutral = 0
    garrison_only = False
    if occupant and occupant != attack.attacker:
        defender = occupant
    elif home and home in st.houses_in_play and home != attack.attacker:
        defender, garrison_only = home, True  # R155, R227
    elif here.neutral_force:
        defender, neutral = None, here.neutral_force
    else:
        raise ValueError(f"no combat: nothing defends {attack.area} against {attack.attacker}")
    types = [u.type for u in attack.units]
    in_origin = [u.type for u in st.area(attack.origin).units if u.house == attack.attacker and not u.routed]
    for t in set(types):
        if types.count(t) > in_origin.count(t):
            raise ValueError(f"the attacking {t}s are not all in {attack.origin}")
    combat = Combat(
        attack=attack, sides={"attacker": Side("attacker", attack.attacker), "defender": Side("defender", defender)},
        attacking=types, neutral=neutral, garrison_only=garrison_only,
        controllers={a.id: st.controller(a.id, board) for a in board.land_areas()},
    )
    ctx.emit(CombatStarted(area=attack.area, attacker=attack.attacker, defender=defender or "", origin=attack.origin,
                           units=tuple(sorted(types)), neutral_force=neutral, garrison_only=garrison_only))
    return combat


def _announce(ctx: Context, combat: Combat) -> None:
    """Both sides' initial strength, every source named (R188, R190)."""
    a = strength(ctx, combat, "attacker", None)
    d = strength(ctx, combat, "defender", None)
    ctx.emit(CombatStrengths(area=combat.area, stage="initial", attacker=combat.attacker, defender=str(combat.defender),
                             attacker_strength=a.parts, defender_strength=d.parts, attacker_total=a.total,
                             defender_total=d.total))


# --- neutral forces (R231-R235, Q1) --------------------------------------------------------------


def _against_neutral_force(ctx: Context, combat: Combat) -> CombatResult:
    """Support for the attacker only, no cards, no Blade; equal or beat the token to destroy it (R232, R233).

    Falling short, the attack fails and the units stay where they were, standing (Q1, ruling 30).
    """
    st = ctx.state
    support.call_for_support(ctx, combat)
    total = strength(ctx, combat, "attacker", None)
    won = total.total >= combat.neutral
    ctx.emit(NeutralForceAttacked(area=combat.area, house=combat.attacker, strength=combat.neutral,
                                  attacker_total=total.total, attacker_strength=total.parts, destroyed=won))
    if won:
        st.area_mut(combat.area).neutral_force = None
        combat.winner = "attacker"
        retreat_and_advance(ctx, combat)
    else:
        stay_home(ctx, combat)
    _remove_march_order(ctx, combat)
    _control_events(ctx, combat)
    after_control_change(ctx)
    return CombatResult(attacker_won=won, winner=combat.attacker if won else NEUTRAL)


# --- the victor (R200-R202) -----------------------------------------------------------------------


def _determine_victor(ctx: Context, combat: Combat) -> None:
    """Higher final strength wins; a tie goes to the house higher on the Fiefdoms track (R202)."""
    a = strength(ctx, combat, "attacker", passive_effects(ctx, combat))
    d = strength(ctx, combat, "defender", passive_effects(ctx, combat))
    tie = a.total == d.total
    winner: Role
    if tie:
        fiefdoms = ctx.state.tracks["fiefdoms"]
        winner = min(ROLES, key=lambda r: fiefdoms.index(str(combat.house(r))))
    else:
        winner = "attacker" if a.total > d.total else "defender"
    combat.winner = winner
    sides = combat.sides
    ctx.emit(CombatResolved(
        area=combat.area, attacker=combat.attacker, defender=str(combat.defender), winner=str(combat.house(winner)),
        attacker_total=a.total, defender_total=d.total, attacker_strength=a.parts, defender_strength=d.parts,
        tie_broken=tie, attacker_card=sides["attacker"].card or "", defender_card=sides["defender"].card or "",
        attacker_tides=sides["attacker"].tides or "", defender_tides=sides["defender"].tides or ""))


# --- clean-up (R220-R230, R246) --------------------------------------------------------------------


def _clean_up(ctx: Context, combat: Combat) -> None:
    """Orders and Power tokens, the Garrison, the cards, a captured port, then control and victory."""
    st, board = ctx.state, ctx.board
    here = st.area_mut(combat.area)
    defender = str(combat.defender)
    if combat.winner == "attacker":
        if st.garrison_owner(combat.area, board) == defender:
            here.garrison, here.garrison_house = 0, None
            ctx.emit(GarrisonDefeated(house=defender, area=combat.area))
        if here.order and here.order.house == defender:
            ctx.emit(CombatOrderRemoved(house=defender, area=combat.area, token=here.order.token,
                                        cause="the defender lost the combat (R221)"))
            here.order = None
        if here.power_token == defender:
            here.power_token = None
            ctx.emit(CombatPowerTokenRemoved(house=defender, area=combat.area))
    if here.order and not any(u.house == here.order.house for u in here.units):
        ctx.emit(CombatOrderRemoved(house=here.order.house, area=combat.area, token=here.order.token,
                                    cause="no units are left to carry it"))
        here.order = None
    _remove_march_order(ctx, combat)
    discarded = housecards.discard_played(ctx, combat)
    if discarded:
        ctx.emit(HouseCardsDiscarded(area=combat.area, cards=tuple(discarded)))
    vassal_combat.clean_up(ctx, combat)  # Mother of Dragons: M061, M062
    if combat.winner == "attacker" and combat.advanced:
        capture_port(ctx, combat.attacker, combat.area)
    _control_events(ctx, combat)
    after_control_change(ctx)


def _remove_march_order(ctx: Context, combat: Combat) -> None:
    """The attacker's March Order leaves the board (R220); Ser Loras may bring it back."""
    origin = ctx.state.area(combat.origin)
    token = combat.attack.march_token
    if origin.order == Order(combat.attacker, token):
        ctx.state.area_mut(combat.origin).order = None
        ctx.emit(CombatOrderRemoved(house=combat.attacker, area=combat.origin, token=token,
                                    cause="its combat is over (R220)"))


def _control_events(ctx: Context, combat: Combat) -> None:
    """Report land areas whose controller the combat changed: where the defeated army retreated.

    The march code reports the embattled area and the origin itself, around the whole march.
    """
    for area, before in combat.controllers.items():
        now = ctx.state.controller(area, ctx.board)
        if now != before and area not in (combat.area, combat.origin):
            ctx.emit(ControlChanged(area=area, old=before or "", new=now or ""))

