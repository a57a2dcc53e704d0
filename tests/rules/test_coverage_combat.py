"""Combat rules not yet named in a test (R091-R093, R176-R201, R227, R238, R273), one test per rule.

Each combat runs through the real step machine: the harness of ``test_combat_harness`` for a
single combat, the real planning and action phases (``helpers.phases``) where a test needs the
round around it. Unless a test sets the tracks, a house that does not fight heads them all.
"""

from __future__ import annotations

import pytest

from adjudicator.engine.core.common import UnitsDestroyed, within_supply
from adjudicator.engine.events.combat import (
    BladeUsed,
    CasualtiesDue,
    CombatResolved,
    CombatStrengths,
    PortCaptured,
    SupportDeclared,
)
from adjudicator.game.board import Board
from adjudicator.game.commands import (
    March,
    Move,
    PlayCard,
    PortShips,
    RefuseSupport,
    Support,
    UnitSpec,
    UseBlade,
)

from .helpers import at_action, entry, game, of, phases, put, run  # noqa: F401
from .test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401
from .test_combat_tides import tides

BOARD = Board.classic()


def _names(b) -> list[str]:
    return [type(e).__name__ for e in b.events]


# --- R091 / R092: ties in combat; the Fiefdoms track -------------------------------------------------


def test_R091_a_combat_tie_is_never_put_to_the_iron_throne_holder(battle):
    throne = ["baratheon", "lannister", "stark", "tyrell", "greyjoy", "martell"]
    fiefdoms = ["tyrell", "stark", "lannister", "baratheon", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), iron_throne=throne, fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.tie_broken, final.winner) == (2, 2, True, "stark")
    assert not [k for k, _ in b.asked() if k == "tie_break"], "the Iron Throne holder (Baratheon) is never asked"


def test_R092_the_attacker_higher_on_fiefdoms_wins_a_tie_and_position_one_holds_the_blade(battle):
    fiefdoms = ["baratheon", "stark", "lannister", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert not [k for k, _ in b.asked() if k == "blade"], "Baratheon holds the Blade and does not fight"
    assert b.of(CombatResolved)[0].winner == "stark"
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",),
                 fiefdoms=["lannister", "stark", "baratheon", "tyrell", "greyjoy", "martell"])
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.asked() == [("blade", "lannister")] and state.dominance()["valyrian_steel_blade"]["holder"] == "lannister"
    b.run(say("lannister", UseBlade(use=False)))
    assert b.of(CombatResolved)[0].winner == "lannister", "the tie goes to Lannister, first on the Fiefdoms track"


# --- R093: the Blade fades when used and is refreshed at the end of the Action Phase -----------------------


@pytest.mark.usefixtures("phases")
def test_R093_the_blade_adds_one_fades_and_is_whole_again_after_the_action_phase():
    s = game()
    s.tracks["fiefdoms"] = ["stark", "greyjoy", "tyrell", "martell", "baratheon", "lannister"]
    put(s, "winterfell", "stark", "knight", order="march+0")
    put(s, "white_harbor", "stark", "footman", order="march-1")
    put(s, "karhold", "lannister", "footman")
    step = run(at_action(s), entry("stark", March(origin="winterfell", moves=(
        Move(units=(UnitSpec("knight"),), destination="karhold"),))),
        entry("stark", PlayCard(card="ser_rodrick_cassel")), entry("lannister", PlayCard(card="the_hound")),
        entry("stark", UseBlade(use=True)))
    assert [(e.house, e.effect) for e in of(step.events, BladeUsed)] == [("stark", "+1")]
    final = of(step.events, CombatResolved)[0]
    assert ("blade", 1) in final.attacker_strength and (final.attacker_total, final.defender_total) == (4, 3)
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]
    assert step.state.blade_used, "faded for the rest of the round"
    step = run(step.state, entry("stark", March(origin="white_harbor")))
    assert step.state.round == 2 and not step.state.blade_used


# --- R176 / R179 / R183: support ---------------------------------------------------------------------


def test_R176_support_is_declared_in_iron_throne_order_not_by_area_or_combatant(battle):
    throne = ["tyrell", "greyjoy", "stark", "lannister", "baratheon", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), iron_throne=throne, areas="""
the_reach = { units = ["stark footman"], order = "support+0" }
the_boneway = { units = ["tyrell footman"], order = "support+0" }
storms_end = { units = ["greyjoy footman"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    seen = []
    for house in ("tyrell", "greyjoy", "stark"):
        b.run()
        seen.append(b.asked())
        b.run(say(house, Support(side="none")))
    assert seen == [[("support", "tyrell")], [("support", "greyjoy")], [("support", "stark")]]
    assert [d.supporter for d in b.of(SupportDeclared)] == ["tyrell", "greyjoy", "stark"]


def test_R179_the_support_order_in_the_attacked_area_gives_nothing_its_neighbour_does(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), defense="support+1", areas="""
the_reach = { units = ["lannister knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run()
    assert b.asked() == [("support", "lannister")]
    assert b.requests()[0].context["support_area"] == "the_reach"
    b.run(say("lannister", Support(side="lannister")))
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 2), ("support:lannister:the_reach", 2))


def test_R183_a_supporting_area_gives_all_its_strength_or_none_of_it(battle):
    areas = 'the_reach = { units = ["tyrell footman", "tyrell footman", "tyrell knight"], order = "support+0" }'
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas=areas)
    b = battle(state, everyone(state, "stark"))
    b.run()
    assert [o.side for o in b.requests()[0].options] == ["attacker", "defender", "none"], "no part of an area"
    b.run(say("tyrell", Support(side="defender")))
    assert [d.strength for d in b.of(SupportDeclared)] == [4]
    assert b.of(CombatStrengths)[0].defender_total == 5
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas=areas)
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="defender")), say("lannister", RefuseSupport(supporter="tyrell")))
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 1),), "refused: none of it"


# --- R201: the four steps of resolution -------------------------------------------------------------------


def test_R201_a_defeated_attacker_goes_through_victor_casualties_retreat_and_clean_up_in_order(battle):
    state = duel("stark", "lannister", attack=("3 knights",), defend=("3 footmen",), defense="defense+2")
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "ser_rodrick_cassel"), play("lannister", "ser_gregor_clegane"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner) == (7, 8, "lannister")
    assert [(d.house, d.count) for d in b.of(CasualtiesDue)] == [("stark", 1)]  # 3 swords - 2 fortifications
    names = _names(b)
    steps = ["CombatResolved", "CasualtiesDue", "UnitsDestroyed", "AttackRepelled", "CombatOrderRemoved",
             "HouseCardsDiscarded"]
    assert [names.index(s) for s in steps] == sorted(names.index(s) for s in steps)
    assert b.units("kings_landing", "stark", routed=True) == ["knight", "knight"]


# --- R227: a garrison alone -----------------------------------------------------------------------------


def test_R227_a_garrison_alone_fights_a_normal_combat_with_support_for_its_house(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), area="lannisport", origin="riverrun", areas="""
lannisport = { garrison = 2 }
stoney_sept = { units = ["lannister knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark", area="lannisport", origin="riverrun"))
    b.run()
    assert b.asked() == [("support", "lannister")]
    b.run(say("lannister", Support(side="lannister")), play("stark", "ser_rodrick_cassel"), play("lannister", "the_hound"))
    assert b.done
    assert b.of(CombatStrengths)[0].defender_strength == (("support:lannister:stoney_sept", 2), ("garrison", 2))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner) == (5, 6, "lannister")
    assert b.state.area("lannisport").garrison == 2 and b.units("riverrun", "stark", routed=True) == ["knight", "knight"]


# --- R238: the supply invariant when a port is captured ------------------------------------------------------


def test_R238_a_captured_port_takes_only_the_ships_the_supply_track_allows(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), area="lannisport", origin="stoney_sept",
                 areas="""
lannisport = { units = ["lannister footman"] }
port_of_lannisport = ["lannister ship", "lannister ship"]
white_harbor = ["stark footman", "stark footman"]
""")
    state.houses["stark"].supply = 0  # two armies of 2: Lannisport's knights and White Harbor's footmen
    b = battle(state, everyone(state, "stark", area="lannisport", origin="stoney_sept"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    assert b.asked() == [("port_ships", "stark")] and b.requests()[0].context["most"] == 1
    b.run(say("stark", PortShips(port="port_of_lannisport", count=2)))
    assert b.unusable("stark") == ["you may place 0 to 1 ships in Port of Lannisport (available ships and supply, R246)"]
    b.run(say("stark", PortShips(port="port_of_lannisport", count=1)))
    assert b.done and b.units("port_of_lannisport", "stark") == ["ship"]
    assert (b.of(PortCaptured)[0].replaced, b.of(PortCaptured)[0].removed) == (1, 2)


def test_R238_a_captured_port_takes_as_many_ships_as_the_supply_track_allows(battle):
    """Supply 2 allows armies of 3, 2 and 2: with White Harbor's 3 footmen and Lannisport's 2
    knights, 2 ships fit in the port beside them, not 3."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), area="lannisport", origin="stoney_sept",
                 areas="""
lannisport = { units = ["lannister footman"] }
port_of_lannisport = ["3 lannister ships"]
white_harbor = ["3 stark footmen"]
""")
    state.houses["stark"].supply = 2
    b = battle(state, everyone(state, "stark", area="lannisport", origin="stoney_sept"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    (asked,) = b.requests()
    assert (asked.kind, asked.house, asked.key.rsplit(".", 2)[1:]) == ("port_ships", "stark", ["port_ships", "stark"])
    assert asked.context == {"port": "port_of_lannisport", "enemy_ships": 3, "most": 2}  # what the report shows
    b.run(deadline=True)
    assert b.done and b.units("port_of_lannisport", "stark") == ["ship", "ship"]
    assert [(e.house, e.units, e.cause) for e in b.of(UnitsDestroyed) if e.area == "port_of_lannisport"] == [
        ("lannister", ("ship", "ship", "ship"), "the port's land area was taken (R246)")]


# --- R273: garrisons ignore skulls ---------------------------------------------------------------------------


def test_R273_a_skull_against_a_garrisoned_home_takes_a_unit_never_the_garrison(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=(), area="winterfell", origin="moat_cailin",
                 areas='winterfell = { units = ["stark footman"], garrison = 2 }', options=tides(["skull", "blank"]))
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"))
    assert b.done and b.results()[0].winner == "stark"
    assert [(d.house, d.count) for d in b.of(CasualtiesDue) if d.skulls] == [("stark", 1)]
    assert [(e.house, e.units) for e in b.of(UnitsDestroyed)] == [("stark", ("footman",))]
    assert b.state.area("winterfell").garrison == 2


# Winterfell held three footmen and Karhold one; Stark's supply is 1 (armies of 3 and 2). The march sent
# one footman to Karhold and one against Castle Black: counted in Castle Black (ruling 6) it fits.
# Back in Winterfell the attacker makes three armies of 2.
BACK_HOME = """
karhold = ["stark footman", "stark footman"]
white_harbor = ["stark footman", "stark footman"]
"""


def test_ruling_58_attackers_held_back_by_arianne_martell_shed_what_their_supply_cannot_hold(battle):
    """Regression: the attackers Arianne Martell kept out stood again in Winterfell over supply."""
    state = duel("stark", "martell", attack=("2 footmen",), defend=("footman",), area="castle_black",
                 origin="winterfell", areas=BACK_HOME)
    state.houses["stark"].supply = 1
    b = battle(state, Assault("castle_black", "stark", "winterfell", ("footman",)))
    b.run(play("stark", "eddard_stark"), play("martell", "arianne_martell"))
    assert b.done and b.results()[0].attacker_won and b.units("castle_black", "stark") == []
    assert [(e.house, e.area, e.units, e.cause) for e in b.of(UnitsDestroyed) if e.house == "stark"] == [
        ("stark", "winterfell", ("footman",), "over supply back in the area they marched from (R238, ruling 58)")]
    assert b.units("winterfell", "stark") == ["footman"] and within_supply(b.state, BOARD, "stark")


def test_ruling_58_a_repelled_attacker_sheds_what_its_supply_cannot_hold(battle):
    state = duel("stark", "martell", attack=("2 footmen",), defend=("3 footmen",), area="castle_black",
                 origin="winterfell", areas=BACK_HOME)
    state.houses["stark"].supply = 1
    b = battle(state, Assault("castle_black", "stark", "winterfell", ("footman",)))
    b.run(play("stark", "catelyn_stark"), play("martell", "areo_hotah"))
    assert b.done and not b.results()[0].attacker_won
    assert [(e.area, e.units, e.cause) for e in b.of(UnitsDestroyed) if e.house == "stark"] == [
        ("winterfell", ("footman",), "over supply after the retreat (R213, Q9)")]
    assert b.units("winterfell", "stark") == ["footman"] and within_supply(b.state, BOARD, "stark")


def test_ruling_58_a_march_short_of_a_neutral_forces_strength_sheds_what_its_supply_cannot_hold(battle):
    """Regression: Kingswood held a knight and two footmen; the march sent the knight against King's
    Landing (5) and a footman to Storm's End, counting on its own support +1 (5 in all). Stark then
    declared no support: the knight fell short and stood again in Kingswood, three armies of 2."""
    state = duel("stark", "lannister", attack=("knight", "footman"), defend=(), area="kings_landing",
                 origin="kingswood", areas="""
kings_landing = { neutral_force = 5 }
storms_end = ["stark footman", "stark footman"]
the_reach = { units = ["stark knight"], order = "support+1" }
blackwater = ["stark footman", "stark footman"]
""")
    state.houses["stark"].supply = 1
    b = battle(state, Assault("kings_landing", "stark", "kingswood", ("knight",)))
    b.run(say("stark", Support(side="none")))
    assert b.done and not b.results()[0].attacker_won
    assert [(e.area, e.units, e.cause) for e in b.of(UnitsDestroyed) if e.house == "stark"] == [
        ("kingswood", ("knight",), "over supply back in the area they marched from (R238, ruling 58)")]
    assert b.units("kingswood", "stark") == ["footman"] and within_supply(b.state, BOARD, "stark")


# --- R274: the Tides of Battle deck ----------------------------------------------------------------------------


def test_R274_the_24_tides_of_battle_cards_are_the_documented_makeup():
    """The rulebook gives only the count (000:40); the makeup is a data gap, so no rule can be
    checked. What is checked: the card data holds the makeup of the project's card reference -
    8 blank, 4 with 1 and a sword, 4 with 1 and a fortification, 4 with 2, 2 with 3, 2 skulls."""
    from collections import Counter

    from adjudicator.game.cards import CARDS

    deck = CARDS.tides_deck()
    assert len(deck) == 24
    makeup = Counter((CARDS.tides[c].value, CARDS.tides[c].swords, CARDS.tides[c].fortifications, CARDS.tides[c].skull)
                     for c in deck)
    assert makeup == {(0, 0, 0, False): 8, (1, 1, 0, False): 4, (1, 0, 1, False): 4, (2, 0, 0, False): 4,
                      (3, 0, 0, False): 2, (0, 0, 0, True): 2}
