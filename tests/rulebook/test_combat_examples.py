"""The rulebook's combat examples, with the rulebook's own numbers (E16-E20, E25)."""

from __future__ import annotations

from rules.test_combat_harness import Assault, battle, play, position, say  # noqa: F401

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    CombatOrderRemoved,
    CombatResolved,
    CombatStrengths,
    HouseCardsDiscarded,
    NeutralForceAttacked,
    Retreated,
    SupportDeclared,
)
from adjudicator.game.commands import Casualties, Retreat, Support, UnitSpec

SIX = 'houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]\n'

E16 = SIX + """
[tracks]
iron_throne = ["lannister", "baratheon", "tyrell", "stark", "martell", "greyjoy"]
fiefdoms = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
[areas]
the_reach = { units = ["2 tyrell knights"], order = "march+1" }
blackwater = { units = ["lannister footman"], order = "march-1" }
kings_landing = { units = ["tyrell knight"], order = "support+0" }
stoney_sept = { units = ["lannister footman", "lannister knight"], order = "support+0" }
harrenhal = { units = ["baratheon knight"], order = "support+0" }
"""


def _e16(battle):
    return battle(position(E16), Assault("blackwater", "tyrell", "the_reach", ("knight", "knight")))


def test_E16_support_example(battle):
    b = _e16(battle)
    b.run(say("lannister", Support(side="lannister")), say("baratheon", Support(side="lannister")),
          say("tyrell", Support(side="tyrell")))
    declared = b.of(SupportDeclared)
    assert [(d.supporter, d.area, d.side, d.strength) for d in declared] == [
        ("lannister", "stoney_sept", "lannister", 3),  # declared in turn order (R176)
        ("baratheon", "harrenhal", "lannister", 2),
        ("tyrell", "kings_landing", "tyrell", 2),
    ]
    initial = b.of(CombatStrengths)[0]
    assert initial.attacker_total == 7 and initial.defender_total == 6
    assert dict(initial.attacker_strength) == {"units:knight": 4, "support:tyrell:kings_landing": 2, "march": 1}
    # the Lannister -1 March Order in Blackwater adds nothing to the defender (R171)
    assert dict(initial.defender_strength) == {"units:footman": 1, "support:lannister:stoney_sept": 3,
                                               "support:baratheon:harrenhal": 2}
    # the combat goes on with House cards: 7 + 2 against 6 + 2; 1 sword against 2 fortifications
    b.run(play("tyrell", "randyll_tarly"), play("lannister", "the_hound"), say("lannister", Retreat(areas=("stoney_sept",))))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner) == (9, 8, "tyrell")
    assert b.units("blackwater") == ["knight", "knight"]
    assert b.units("stoney_sept", "lannister", routed=True) == ["footman"]
    assert b.state.area("blackwater").order is None and b.state.area("the_reach").order is None
    for area in ("kings_landing", "stoney_sept", "harrenhal"):  # support orders stay after use (R178)
        assert b.state.area(area).order is not None


def test_E16_with_baratheon_supporting_tyrell_gives_9_against_4(battle):
    b = _e16(battle)
    b.run(say("lannister", Support(side="lannister")), say("baratheon", Support(side="tyrell")),
          say("tyrell", Support(side="tyrell")))
    initial = b.of(CombatStrengths)[0]
    assert (initial.attacker_total, initial.defender_total) == (9, 4)


E18 = SIX + """
[tracks]
fiefdoms = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
[areas]
kings_landing = { units = ["tyrell footman", "tyrell knight"], order = "march+0" }
kingswood = { units = ["2 lannister footmen"], power_token = "lannister" }
"""


def test_E18_combat_resolution_example(battle):
    b = battle(position(E18), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    b.run(play("lannister", "ser_jaime_lannister"), play("tyrell", "alester_florent"))
    assert b.done
    initial = b.of(CombatStrengths)[0]
    assert (initial.attacker_total, initial.defender_total) == (3, 2)
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total) == (4, 4)
    assert final.winner == "lannister" and final.tie_broken  # Lannister is higher on the Fiefdoms track
    assert not b.of(UnitsDestroyed)  # 1 sword - 1 fortification = no casualties
    assert b.units("kings_landing", "tyrell", routed=True) == ["footman", "knight"]  # retreated home, routed
    assert b.state.area("kings_landing").order is None  # the March Order is removed
    assert b.units("kingswood") == ["footman", "footman"] and b.state.area("kingswood").power_token == "lannister"
    assert b.state.houses["lannister"].discards == ["ser_jaime_lannister"]
    assert b.state.houses["tyrell"].discards == ["alester_florent"]
    assert b.of(HouseCardsDiscarded)[0].cards == ("alester_florent", "ser_jaime_lannister")


E20 = SIX + """
[tracks]
fiefdoms = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
[areas]
kings_landing = { units = ["2 baratheon knights"], order = "march+1" }
kingswood = ["tyrell footman", "tyrell knight"]
storms_end = ["tyrell footman"]
the_boneway = { units = ["2 baratheon knights"], order = "march+0" }
"""


def test_E20_retreating_and_routing_example(battle):
    b = battle(position(E20), Assault("kingswood", "baratheon", "kings_landing", ("knight", "knight")),
               Assault("storms_end", "baratheon", "the_boneway", ("knight", "knight")))
    b.run(play("baratheon", "melisandre"), play("tyrell", "randyll_tarly"),
          say("tyrell", Casualties(units=(UnitSpec("footman"),))),
          say("tyrell", Retreat(areas=("storms_end",))))
    # 1. the surviving Knight retreats to Storm's End and is routed
    assert b.of(Retreated)[0].to_area == "storms_end"
    assert b.units("storms_end", "tyrell", routed=True) == ["knight"]
    # 2. Baratheon attacks Storm's End from The Boneway: Tyrell's initial strength is 1
    b.run(play("baratheon", "brienne_of_tarth"), play("tyrell", "alester_florent"))
    assert b.done
    second = b.of(CombatStrengths)[1]
    assert second.area == "storms_end" and second.defender_total == 1
    assert dict(second.defender_strength) == {"units:footman": 1, "units:knight": 0}
    # Tyrell loses: the routed Knight cannot retreat and is destroyed
    destroyed = [(e.area, e.units, e.cause) for e in b.of(UnitsDestroyed) if e.area == "storms_end"]
    assert ("storms_end", ("knight",), "routed units cannot retreat (R219)") in destroyed
    assert b.units("storms_end") == ["knight", "knight"]


def test_E17_a_card_that_destroys_a_footman_lowers_the_initial_strength(battle):
    b = battle(position(E18), Assault("kingswood", "tyrell", "kings_landing", ("footman", "knight")))
    b.run(play("lannister", "the_hound"), play("tyrell", "mace_tyrell"))
    assert b.of(CombatStrengths)[0].defender_total == 2
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength)["units:footman"] == 1  # 2 - 1: recalculated (R200)
    assert final.defender_total == 1 + 2


def test_E19_a_knight_is_one_casualty(battle):
    state = position(SIX + """
[tracks]
fiefdoms = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
[areas]
kings_landing = { units = ["2 tyrell knights"], order = "march+0" }
kingswood = ["lannister footman", "lannister knight"]
""")
    b = battle(state, Assault("kingswood", "tyrell", "kings_landing", ("knight", "knight")))
    b.run(play("tyrell", "randyll_tarly"), play("lannister", "ser_kevan_lannister"),
          say("lannister", Casualties(units=(UnitSpec("knight"),)), Retreat(areas=("the_reach",))))
    assert b.done
    lost = b.of(UnitsDestroyed)
    assert [e.units for e in lost] == [("knight",)]
    assert b.units("the_reach", "lannister") == ["footman"]


E25 = """
houses = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]
[tracks]
fiefdoms = ["tyrell", "greyjoy", "stark", "baratheon", "lannister"]
[areas]
yronwood = { units = ["tyrell knight", "tyrell footman"], order = "march+1" }
sea_of_dorne = { units = ["tyrell ship"], order = "support+0" }
sunspear = { neutral_force = 5 }
"""


def test_E25_attacking_a_neutral_force(battle):
    b = battle(position(E25), Assault("sunspear", "tyrell", "yronwood", ("knight", "footman")))
    b.run(say("tyrell", Support(side="tyrell")))
    assert b.done, "no House cards and no Blade against a neutral force, though Tyrell holds it (R232)"
    fought = b.of(NeutralForceAttacked)[0]
    assert (fought.attacker_total, fought.strength, fought.destroyed) == (5, 5, True)  # 2 + 1 + 1 (March) + 1 ship
    assert b.state.area("sunspear").neutral_force is None
    assert b.units("sunspear") == ["footman", "knight"] and b.units("yronwood") == []
    assert b.state.area("yronwood").order is None
    assert not b.state.blade_used and b.state.houses["tyrell"].discards == []


def test_E25_without_the_ship_support_the_attack_fails(battle):
    b = battle(position(E25), Assault("sunspear", "tyrell", "yronwood", ("knight", "footman")))
    b.run(say("tyrell", Support(side="none")))
    fought = b.of(NeutralForceAttacked)[0]
    assert (fought.attacker_total, fought.destroyed) == (4, False)
    assert b.results()[0].winner == "neutral"
    assert b.state.area("sunspear").neutral_force == 5
    assert b.units("yronwood", routed=False) == ["footman", "knight"]  # they stay home, standing (ruling 30)
    assert [e.cause for e in b.of(CombatOrderRemoved)] == ["its combat is over (R220)"]
