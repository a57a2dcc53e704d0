"""Combat step 1, the call for support (R169-R186, R232)."""

from __future__ import annotations

from adjudicator.engine.events.combat import (
    CombatResolved,
    CombatStarted,
    CombatStrengths,
    SupportDeclared,
    SupportRefused,
)
from adjudicator.game.commands import CombatFilter, RefuseSupport, Support

from .test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401

ORDER = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]  # the Iron Throne order here


def _strengths(b):
    first = b.of(CombatStrengths)[0]
    return first.attacker_total, first.defender_total


def test_R169_the_marcher_attacks_and_the_occupier_defends(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run()
    started = b.of(CombatStarted)[0]
    assert (started.attacker, started.defender, started.area, started.origin) == ("stark", "lannister", "kingswood",
                                                                                 "kings_landing")


def test_R172_R176_every_adjacent_support_order_declares_in_turn_order_one_at_a_time(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), iron_throne=ORDER, areas="""
the_reach = { units = ["tyrell footman"], order = "support+0" }
the_boneway = { units = ["greyjoy footman"], order = "support+0" }
blackwater_bay = { units = ["lannister ship"], order = "support+0" }
storms_end = { units = ["stark footman"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run()
    assert b.asked() == [("support", "stark")]
    b.run(say("stark", Support(side="stark")))
    assert b.asked() == [("support", "lannister")]
    b.run(say("lannister", Support(side="lannister")), say("greyjoy", Support(side="attacker")))
    assert b.asked() == [("support", "tyrell")], "each declaration is open: the next house sees the earlier ones"
    b.run(say("tyrell", Support(side="defender")))
    assert [d.supporter for d in b.of(SupportDeclared)] == ["stark", "lannister", "greyjoy", "tyrell"]
    assert _strengths(b) == (2 + 1 + 1, 1 + 1 + 1)


def test_R173_support_goes_to_the_attacker_the_defender_or_no_one(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="none")))
    [declared] = b.of(SupportDeclared)
    assert (declared.side, declared.strength) == ("", 0) and _strengths(b) == (2, 1)  # no one: it adds nothing


def test_R174_R183_support_is_the_full_strength_of_the_area_plus_one_if_special(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight", "tyrell footman"], order = "support+1" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="stark")))
    assert b.of(SupportDeclared)[0].strength == 4
    assert _strengths(b) == (6, 1)


def test_R175_a_third_house_may_support_either_side(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="lannister")))
    assert _strengths(b) == (2, 3)


def test_R177_a_combatant_may_support_itself(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["lannister knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("lannister", Support(side="defender")))
    assert _strengths(b) == (2, 3)


def test_R178_a_support_order_stays_and_supports_every_adjacent_combat(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("3 footmen",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
the_boneway = { units = ["stark knight"], order = "march+1" }
""")
    b = battle(state, everyone(state, "stark"), Assault("kingswood", "stark", "the_boneway", ("knight",)))
    b.run(say("tyrell", Support(side="lannister")), play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    b.run(play("stark", "robb_stark"), play("lannister", "ser_jaime_lannister"))
    assert b.done
    assert [d.combat_area for d in b.of(SupportDeclared)] == ["kingswood", "kingswood"]
    assert b.state.area("the_reach").order is not None


def test_R171_R179_a_support_order_in_the_attacked_area_adds_nothing(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), defense="support+1")
    b = battle(state, everyone(state, "stark"))
    b.run()
    assert not b.of(SupportDeclared) and ("support", "lannister") not in b.asked()
    assert _strengths(b) == (2, 2)


def test_R180_a_combatant_refuses_support_by_standing_instruction(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
the_boneway = { units = ["greyjoy knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", RefuseSupport(supporter="greyjoy")), say("tyrell", Support(side="stark")),
          say("greyjoy", Support(side="stark")))
    refused = b.of(SupportRefused)
    assert [(r.house, r.supporter) for r in refused] == [("stark", "greyjoy")]
    assert _strengths(b) == (4, 1), "Tyrell's support is kept (the default), Greyjoy's turned down"
    assert ("refuse_support", "stark") not in b.asked(), "refusing never holds up a combat"


def test_R180_a_refusal_for_another_combat_does_not_apply(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", RefuseSupport(supporter="tyrell", when=CombatFilter(area="winterfell"))),
          say("tyrell", Support(side="stark")))
    assert not b.of(SupportRefused) and _strengths(b) == (4, 1)


def test_R181_ships_support_a_land_combat_and_land_units_never_a_sea_combat(battle):
    land = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
blackwater_bay = { units = ["tyrell ship"], order = "support+0" }
""")
    b = battle(land, everyone(land, "stark"))
    b.run(say("tyrell", Support(side="stark")))
    assert _strengths(b) == (3, 1)
    sea = duel("greyjoy", "lannister", attack=("ship",), defend=("ship",), area="the_golden_sound", origin="ironmans_bay",
               areas='riverrun = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(sea, everyone(sea, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run()
    assert ("support", "tyrell") not in b.asked() and not b.of(SupportDeclared)


def test_R182_supporting_siege_engines_count_only_for_an_attack_on_a_castle(battle):
    areas = 'blackwater = { units = ["tyrell siege_engine"], order = "support+0" }'
    castle = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="the_reach", areas=areas)
    b = battle(castle, everyone(castle, "stark", area="the_reach"))
    b.run(say("tyrell", Support(side="attacker")))
    assert _strengths(b) == (6, 1)
    castle = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="the_reach", areas=areas)
    b = battle(castle, everyone(castle, "stark", area="the_reach"))
    b.run(say("tyrell", Support(side="defender")))
    assert _strengths(b) == (2, 1)
    plain = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="stoney_sept", origin="blackwater",
                 areas='harrenhal = { units = ["tyrell siege_engine"], order = "support+0" }')
    b = battle(plain, everyone(plain, "stark", area="stoney_sept", origin="blackwater"))
    b.run(say("tyrell", Support(side="attacker")))
    assert _strengths(b) == (2, 1)


def test_R184_no_house_supports_its_opponent_against_its_own_units(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["lannister knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("lannister", Support(side="stark")))
    assert b.unusable("lannister") == ["no house may support its opponent against its own units (R184)"]
    assert b.asked() == [("support", "lannister")], "the request stays open"
    assert not b.of(SupportDeclared)
    b.run(say("lannister", Support(side="lannister")))
    assert _strengths(b) == (2, 3)


def test_R185_support_comes_only_from_areas_next_to_the_embattled_area(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
blackwater = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))  # Blackwater borders the origin, not the Kingswood
    b.run()
    assert not b.of(SupportDeclared) and ("support", "tyrell") not in b.asked()


def test_R185_port_ships_never_support_a_land_combat(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="storms_end", origin="the_boneway",
                 areas='port_of_storms_end = { units = ["lannister ship"], order = "support+0" }')
    b = battle(state, everyone(state, "stark", area="storms_end", origin="the_boneway"))
    b.run()
    assert not b.of(SupportDeclared) and ("support", "lannister") not in b.asked()


def test_R185_ship_transport_does_not_make_areas_adjacent_for_support(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="storms_end", origin="the_boneway",
                 areas='crackclaw_point = { units = ["tyrell knight"], order = "support+0" }\n'
                       'shipbreaker_bay = ["tyrell ship"]')
    b = battle(state, everyone(state, "stark", area="storms_end", origin="the_boneway"))
    b.run()
    assert ("support", "tyrell") not in b.asked()


def test_R185_port_ships_support_a_combat_in_their_own_sea(battle):
    state = duel("lannister", "stark", attack=("ship",), defend=("ship",), area="shipbreaker_bay", origin="blackwater_bay",
                 areas='port_of_storms_end = { units = ["baratheon ship"], order = "support+0" }\n'
                       'storms_end = ["baratheon footman"]')
    b = battle(state, everyone(state, "lannister", area="shipbreaker_bay", origin="blackwater_bay"))
    b.run(say("baratheon", Support(side="stark")))
    assert _strengths(b) == (1, 2)


def test_R186_routed_supporting_units_give_nothing(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight routed", "tyrell footman"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="stark")))
    assert b.of(SupportDeclared)[0].strength == 1


def test_R232_only_the_attacker_may_be_supported_against_a_neutral_force(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), area="kings_landing", origin="kingswood",
                 areas='kings_landing = { neutral_force = 5 }\nthe_reach = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run(say("tyrell", Support(side="defender")))
    assert b.unusable("tyrell") == ["a neutral force never receives support; only the attacker may be supported (R232)"]
    assert b.asked() == [("support", "tyrell")]
    b.run(say("tyrell", Support(side="stark")))
    assert b.done and b.results()[0].attacker_won and b.units("kings_landing") == ["knight", "knight"]


def test_support_decisions_default_to_no_one_at_the_deadline(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(deadline=True)
    assert b.done and b.of(SupportDeclared)[0].side == ""
    assert b.of(CombatResolved)[0].attacker_total == 2 + 0  # the weakest card is the default: Catelyn Stark


def _support_asked(b, house):
    [req] = [r for r in b.requests() if r.kind == "support"]
    assert req.house == house
    return req


def _offered(area, origin, *sides):
    return tuple(Support(side=s, combat_area=area, origin=origin) for s in sides)


def test_R173_a_supporter_is_asked_with_each_side_it_may_support_and_what_it_would_add(battle):
    import re

    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run()
    req = _support_asked(b, "tyrell")
    assert re.fullmatch(r"r1\.\w+\.\d+\.support\.tyrell", req.key)  # as pending.json names it
    assert req.prompt == ("support from The Reach in the combat in Kingswood (Stark attacks Lannister): "
                          "attacker, defender or none")
    assert req.context == {"combat_area": "kingswood", "support_area": "the_reach", "attacker": "stark",
                           "defender": "lannister", "strength": {"attacker": 2, "defender": 2}}
    assert req.options == _offered("kingswood", "the_reach", "attacker", "defender", "none")
    assert req.default == req.options[-1]  # no one (R173)


def test_R177_R184_a_combatants_own_support_order_is_offered_only_its_own_side_or_no_one(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["lannister knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run()
    assert _support_asked(b, "lannister").options == _offered("kingswood", "the_reach", "defender", "none")


def test_R232_a_support_order_next_to_a_neutral_force_is_offered_only_the_attacker_or_no_one(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), area="kings_landing", origin="kingswood",
                 areas='kings_landing = { neutral_force = 5 }\nthe_reach = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    req = _support_asked(b, "tyrell")
    assert req.options == _offered("kings_landing", "the_reach", "attacker", "none")
    assert "(Stark attacks The Neutral Force)" in req.prompt and req.context["defender"] == "neutral"


def test_R173_a_side_no_house_or_word_names_is_refused_and_a_house_outside_the_combat_waits(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="baratheon")))  # for a combat of Baratheon's, maybe later
    assert b.unusable("tyrell") == [] and b.asked() == [("support", "tyrell")]
    b.run(say("tyrell", Support(side="nobody")))
    assert b.unusable("tyrell") == ["unknown side 'nobody': name a house, attacker, defender or none (R173)"]
    assert b.asked() == [("support", "tyrell")] and not b.of(SupportDeclared)


def test_R180_a_combatants_own_support_coming_first_does_not_stop_its_refusal_of_anothers(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), iron_throne=ORDER, areas="""
storms_end = { units = ["stark footman"], order = "support+0" }
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", RefuseSupport(supporter="tyrell")), say("stark", Support(side="stark")),
          say("tyrell", Support(side="stark")))
    assert [d.supporter for d in b.of(SupportDeclared)] == ["stark", "tyrell"]  # Stark's own first, in turn order
    assert [(r.house, r.supporter) for r in b.of(SupportRefused)] == [("stark", "tyrell")]
    assert _strengths(b) == (2 + 1, 1)
