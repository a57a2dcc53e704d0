"""A whole action phase with three combats, through the real march code and the step machine.

Supports from third houses, cards with texts (Renly, the Queen of Thorns, Tyrion against Mace,
Balon), the Blade, a retreat, routing and the round's clean-up: all from answers sent ahead as
standing instructions, plus the one choice that cannot be known in advance (Tyrion's cancel).
"""

from __future__ import annotations

from adjudicator.engine.events.combat import (
    BladeUsed,
    CombatResolved,
    HouseCardChosen,
    Retreated,
    SupportDeclared,
)
from adjudicator.engine.machine import advance
from adjudicator.game.commands import (
    CardChoice,
    CombatFilter,
    March,
    Move,
    PlayCard,
    Retreat,
    Support,
    UnitSpec,
    UseBlade,
)

from .helpers import phases  # noqa: F401
from .test_combat_harness import BOARD, position, say

POSITION = """
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
kingswood = { units = ["baratheon knight", "baratheon footman"], order = "march+1" }
the_boneway = { units = ["baratheon footman"], order = "consolidate" }
the_reach = { units = ["tyrell footman"], order = "defense+1" }
highgarden = { units = ["tyrell footman"], order = "support+0", garrison = 2 }
searoad_marches = { units = ["tyrell footman"], order = "defense+1" }
blackwater = { units = ["lannister knight"], order = "support+0" }
stoney_sept = { units = ["lannister knight", "lannister footman"], order = "march+0" }
sunset_sea = { units = ["greyjoy ship"], order = "support+0" }
winterfell = { units = ["2 stark knights", "stark footman"], order = "march+0", garrison = 2 }
moat_cailin = ["2 greyjoy footmen", "greyjoy knight"]
kings_landing = { neutral_force = 5 }
"""


def _march(origin, dest, *units):
    return March(origin=origin, moves=(Move(destination=dest, units=tuple(UnitSpec(u) for u in units)),))


def _at(area):
    return CombatFilter(area=area)


def test_an_action_phase_with_three_combats_resolves_through_the_machine(phases):
    state = position(POSITION)
    batch = [
        *say("baratheon", _march("kingswood", "the_reach", "knight", "footman"),
             PlayCard(card="renly_baratheon", when=_at("the_reach")), CardChoice(card="renly_baratheon", area="kingswood")),
        *say("lannister", _march("stoney_sept", "searoad_marches", "knight", "footman"),
             Support(side="baratheon", combat_area="the_reach"), Support(side="lannister", combat_area="searoad_marches"),
             PlayCard(card="tyrion_lannister", when=_at("searoad_marches")),
             CardChoice(card="tyrion_lannister", option="cancel")),
        *say("stark", _march("winterfell", "moat_cailin", "knight", "knight", "footman"),
             PlayCard(card="eddard_stark", when=CombatFilter(role="attacker", area="moat_cailin"))),
        *say("tyrell", Support(side="tyrell"), PlayCard(card="queen_of_thorns", when=_at("the_reach")),
             Retreat(areas=("highgarden",)), PlayCard(card="mace_tyrell", when=_at("searoad_marches"))),
        *say("greyjoy", Support(side="tyrell"), PlayCard(card="balon_greyjoy", when=_at("moat_cailin")), UseBlade(use=True)),
    ]
    step = advance(state, batch, board=BOARD)
    # the first combat is over; the second waits for Tyrell's new card after Tyrion's cancel
    assert [(r.kind, r.house) for r in step.requests] == [("house_card", "tyrell")]
    assert not step.requests[0].secret
    events = list(step.events)
    step = advance(step.state, say("tyrell", PlayCard(card="ser_garlan_tyrell")), board=BOARD)
    events += step.events
    assert [(r.kind, r.house) for r in step.requests] == [("westeros_choice", "baratheon")], "the round is over"
    st = step.state

    fights = [e for e in events if isinstance(e, CombatResolved)]
    assert [(f.area, f.winner, f.attacker_total, f.defender_total) for f in fights] == [
        ("the_reach", "baratheon", 2 + 1 + 1 + 2 + 3, 1 + 1 + 1 + 0),
        ("searoad_marches", "tyrell", 2 + 1 + 2 + 1, 1 + 1 + 1 + 1 + 2),  # a tie: Tyrell is higher on the Fiefdoms track
        ("moat_cailin", "greyjoy", 5 + 0, 4 + 2 + 1),  # Balon zeroes Eddard; the Blade adds 1
    ]
    declared = [(d.combat_area, d.supporter, d.side, d.strength) for d in events if isinstance(d, SupportDeclared)]
    assert declared == [
        ("the_reach", "lannister", "baratheon", 2), ("the_reach", "tyrell", "tyrell", 1),
        ("searoad_marches", "lannister", "lannister", 2), ("searoad_marches", "greyjoy", "tyrell", 1),
        ("searoad_marches", "tyrell", "tyrell", 1),  # the routed footman that retreated there counts 0
    ]
    assert [e.card for e in events if isinstance(e, HouseCardChosen)] == ["ser_garlan_tyrell"]
    assert [(e.house, e.to_area) for e in events if isinstance(e, Retreated)] == [("tyrell", "highgarden")]
    assert [e.house for e in events if isinstance(e, BladeUsed)] == ["greyjoy"]

    def units(area):
        return sorted((u.house, u.type, u.routed) for u in st.area(area).units)

    assert units("the_reach") == [("baratheon", "knight", False)] * 2  # Renly's upgrade
    assert units("the_boneway") == [("baratheon", "footman", False)] and st.area("the_boneway").order is None
    assert units("highgarden") == [("tyrell", "footman", False)] * 2  # rallied at clean-up
    assert units("stoney_sept") == [] and units("searoad_marches") == [("tyrell", "footman", False)]
    assert units("winterfell") == [("stark", "footman", False), ("stark", "knight", False), ("stark", "knight", False)]
    assert units("moat_cailin") == [("greyjoy", "footman", False)] * 2 + [("greyjoy", "knight", False)]
    assert st.controller("the_reach", BOARD) == "baratheon"
    assert {h: st.houses[h].discards for h in ("baratheon", "lannister", "stark", "tyrell", "greyjoy")} == {
        "baratheon": ["renly_baratheon"], "lannister": ["tyrion_lannister"], "stark": ["eddard_stark"],
        "tyrell": ["queen_of_thorns", "ser_garlan_tyrell"], "greyjoy": ["balon_greyjoy"]}
    assert "mace_tyrell" in st.houses["tyrell"].hand
    assert not st.blade_used, "the Blade is refreshed at clean-up"
    assert all(not s.order for s in st.areas.values())


def test_ser_loras_march_order_resolves_again_later_in_the_round(phases):
    state = position("""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
kings_landing = { units = ["2 tyrell knights"], order = "march+1" }
kingswood = ["stark footman"]
the_boneway = ["martell footman"]
storms_end = ["martell footman"]
""")
    step = advance(state, [*say("tyrell", _march("kings_landing", "kingswood", "knight", "knight"),
                                PlayCard(card="ser_loras_tyrell")),
                           *say("stark", PlayCard(card="catelyn_stark"))], board=BOARD)
    assert st_order(step.state, "kingswood") == ("tyrell", "march+1")
    assert [(r.kind, r.house) for r in step.requests] == [("march", "tyrell")], "the moved order is Tyrell's to resolve"
    step = advance(step.state, say("tyrell", _march("kingswood", "kings_landing", "knight", "knight")), board=BOARD)
    assert sorted(u.type for u in step.state.area("kings_landing").units) == ["knight", "knight"]
    assert step.state.area("kingswood").units == [] and st_order(step.state, "kingswood") is None


def st_order(state, area):
    order = state.area(area).order
    return (order.house, order.token) if order else None
