"""The combat rulings of docs/rulings.md (30-57), one test each."""

from __future__ import annotations

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    AttackerAdvanced,
    BladeUsed,
    CardAbility,
    CasualtiesDue,
    CombatOrderRemoved,
    CombatResolved,
    CombatStrengths,
    HouseCardsRevealed,
    NeutralForceAttacked,
    SupportDeclared,
    SupportRefused,
    TrackMoved,
)
from adjudicator.game.commands import (
    CardChoice,
    RefuseSupport,
    Retreat,
    Support,
    UnitSpec,
    UseBlade,
)

from .test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_ruling_30_a_failed_attack_on_a_neutral_force_leaves_the_units_standing_at_home(battle):
    state = duel("stark", "lannister", attack=("knight", "footman"), defend=(), area="kings_landing", origin="kingswood",
                 token="march+1", areas='kings_landing = { neutral_force = 5 }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    assert b.done and not b.of(NeutralForceAttacked)[0].destroyed
    assert b.units("kingswood", "stark", routed=False) == ["footman", "knight"]
    assert b.state.area("kingswood").order is None and b.state.area("kings_landing").neutral_force == 5


def test_ruling_31_support_stands_unless_a_refusal_was_sent(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",),
                 areas='the_reach = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="lannister")))
    assert [(r.kind, r.house) for r in b.requests()] == [("house_card", "stark"), ("house_card", "lannister")]
    assert not b.of(SupportRefused) and b.of(CombatStrengths)[0].defender_total == 3
    later = duel("stark", "lannister", attack=("knight",), defend=("footman",),
                 areas='the_reach = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(later, everyone(later, "stark"))
    b.run(say("tyrell", Support(side="lannister")), say("lannister", RefuseSupport(supporter="tyrell")))
    assert b.of(CombatStrengths)[0].defender_total == 1


def test_ruling_32_each_support_order_is_its_own_decision(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
the_boneway = { units = ["tyrell footman"], order = "support+1" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="stark"), Support(side="none", origin="the_boneway")))
    declared = [(d.area, d.side) for d in b.of(SupportDeclared)]
    assert declared == [("the_boneway", ""), ("the_reach", "stark")]


def test_ruling_33_salladhors_zero_wins_over_victarions_doubling(battle):
    state = duel("greyjoy", "baratheon", attack=("2 ships",), defend=("ship",), area="shipbreaker_bay",
                 origin="blackwater_bay", areas='port_of_dragonstone = { units = ["baratheon ship"], order = "support+0" }')
    b = battle(state, everyone(state, "greyjoy", area="shipbreaker_bay", origin="blackwater_bay"))
    b.run(say("baratheon", Support(side="baratheon")), play("greyjoy", "victarion_greyjoy"), play("baratheon", "salladhor_saan"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:ship": 2, "card:victarion_greyjoy": 3, "ability:salladhor_saan": -2}


def test_ruling_34_the_combat_goes_on_after_mace_destroys_the_last_defender(battle):
    state = duel("tyrell", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED.replace("tyrell", "martell"))
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert b.done and b.of(CombatResolved)[0].winner == "tyrell"
    assert b.units("kingswood") == ["knight", "knight"]


def test_ruling_35_after_mace_destroys_the_last_attacker_a_win_leaves_the_area_empty(battle):
    state = duel("stark", "tyrell", attack=("footman",), defend=("footman",), token="march+1",
                 areas=BLOCKED.replace("tyrell", "martell").replace(
                     'the_reach = ["martell footman"]', 'the_reach = { units = ["stark knight"], order = "support+1" }'))
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", Support(side="stark")), play("stark", "eddard_stark"), play("tyrell", "mace_tyrell"))
    assert b.done and b.of(CombatResolved)[0].winner == "stark"
    assert b.units("kingswood") == [] and b.units("kings_landing") == []
    assert not b.of(AttackerAdvanced)


def test_ruling_36_mace_destroys_a_standing_footman_before_a_routed_one(battle):
    state = duel("tyrell", "stark", attack=("2 knights",), defend=("2 footmen",), areas=BLOCKED.replace("tyrell", "martell"))
    state.area_mut("kingswood").units[0].routed = True
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert b.of(UnitsDestroyed)[0].cause == "Mace Tyrell"
    assert b.of(CombatResolved)[0].defender_strength == (("units:footman", 0), ("card:catelyn_stark", 0))


def test_ruling_37_the_blackfish_does_not_stop_losses_on_a_retreat(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "siege_engine"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_gregor_clegane"), play("stark", "the_blackfish"))
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [(("siege_engine",), "siege engines cannot retreat (R218)")]
    assert b.units("storms_end", "stark") == ["footman"]


def test_ruling_38_after_tyrions_cancel_the_new_cards_immediate_text_resolves(battle):
    state = duel("martell", "lannister", attack=("2 knights",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "darkstar"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    b.run(play("martell", "doran_martell"), say("martell", CardChoice(card="doran_martell", track="kings_court")))
    assert b.done and b.of(TrackMoved)[0].track == "kings_court"
    assert b.state.houses["martell"].discards == ["doran_martell"] and "darkstar" in b.state.houses["martell"].hand


def test_ruling_39_patchface_takes_the_last_card_and_the_hand_comes_back(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                 hands={"stark": ["eddard_stark", "catelyn_stark"]},
                 discards={"stark": ["robb_stark", "roose_bolton", "greatjon_umber", "ser_rodrick_cassel", "the_blackfish"]})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="patchface", house_card="eddard_stark")))
    assert b.state.houses["stark"].discards == ["eddard_stark"] and len(b.state.houses["stark"].hand) == 6


def test_ruling_40_aerons_replacement_is_the_card_played_for_the_last_card_rule(battle):
    others = ["euron_crows_eye", "victarion_greyjoy", "balon_greyjoy", "theon_greyjoy", "dagmar_cleftjaw"]
    state = duel("greyjoy", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED,
                 hands={"greyjoy": ["aeron_damphair", "asha_greyjoy"]}, discards={"greyjoy": others})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("stark", "catelyn_stark"),
          say("greyjoy", CardChoice(card="aeron_damphair", house_card="asha_greyjoy")))
    assert b.done
    greyjoy = b.state.houses["greyjoy"]
    assert greyjoy.discards == ["asha_greyjoy"] and sorted(greyjoy.hand) == sorted(others + ["aeron_damphair"])


def test_ruling_41_the_tie_is_broken_on_the_fiefdoms_track_after_doran_moved_it(battle):
    fiefdoms = ["greyjoy", "stark", "martell", "lannister", "baratheon", "tyrell"]
    state = duel("martell", "stark", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms, areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell"), play("stark", "catelyn_stark"),
          say("martell", CardChoice(card="doran_martell", track="fiefdoms")))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner) == (2, 2, "martell")


def test_ruling_42_robbs_owner_picks_the_area_and_the_loser_its_losses(battle):
    state = duel("stark", "lannister", attack=("3 knights",), defend=("2 footmen", "knight"),
                 areas='the_reach = ["tyrell footman"]\nstorms_end = ["lannister footman"]\n'
                       'the_boneway = ["lannister footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "cersei_lannister"),
          say("stark", CardChoice(card="robb_stark", area="the_boneway")))
    assert b.asked() == [("retreat", "lannister")]
    assert b.requests()[0].context["destroy_first"] == {"the_boneway": 1}
    b.run(say("lannister", Retreat(areas=("the_boneway",), destroy=(UnitSpec("knight"),))))
    assert b.done and b.units("the_boneway", "lannister") == ["footman", "footman", "footman"]


def test_ruling_43_with_tides_of_battle_the_blade_is_offered_once_and_never_adds_one(battle):
    fiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
    options = '[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n[decks]\ntides = ["blank", "blank"]\n'
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms, options=options)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("stark", UseBlade(use=False)))
    assert b.of(CombatResolved)[0].attacker_total == 2 and not b.state.blade_used


def test_ruling_45_arianne_keeps_loras_march_order_off_the_area(battle):
    state = duel("tyrell", "martell", attack=("2 knights",), defend=("footman",), token="march+1",
                 areas='the_boneway = ["stark footman"]\nthe_reach = ["stark footman"]')
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "ser_loras_tyrell"), play("martell", "arianne_martell"))
    assert b.done and b.results()[0].winner == "tyrell"
    assert b.state.area("kingswood").order is None and b.state.area("kings_landing").order is None
    assert b.units("kings_landing", "tyrell", routed=False) == ["knight", "knight"]


def test_ruling_46_support_removed_by_the_queen_of_thorns_is_lost(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("footman",),
                 areas='the_reach = { units = ["stark knight"], order = "support+1" }')
    b = battle(state, everyone(state, "tyrell"))
    b.run(say("stark", Support(side="stark")), play("tyrell", "queen_of_thorns"), play("stark", "catelyn_stark"))
    assert b.of(CombatStrengths)[0].defender_total == 4
    assert b.of(CombatResolved)[0].defender_total == 1


def test_ruling_47_renly_needs_a_knight_left_in_the_supply(battle):
    spare = "\n".join(f'{a} = ["baratheon knight"]' for a in ("riverrun", "seagard", "the_twins", "harrenhal"))
    state = duel("baratheon", "stark", attack=("footman", "knight"), defend=("footman",), areas=BLOCKED + "\n" + spare)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("stark", "catelyn_stark"))
    assert b.done and any("no knight left" in e.effect for e in b.of(CardAbility))
    assert b.units("kingswood", "baratheon") == ["footman", "knight"]


def test_ruling_48_a_defeated_attackers_siege_engines_are_destroyed(battle):
    state = duel("stark", "lannister", attack=("knight", "siege_engine"), defend=("3 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert [e.units for e in b.of(UnitsDestroyed)] == [("siege_engine",)]
    assert b.units("kings_landing", "stark", routed=True) == ["knight"]


def test_ruling_49_an_area_that_would_cost_the_whole_army_is_no_retreat(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("2 footmen",), areas=BLOCKED + """
storms_end = ["stark footman", "2 stark knights"]""")
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [
        (("footman", "footman"), "no legal area to retreat to (R214)")]


def test_ruling_50_an_order_left_without_units_is_removed(battle):
    options = '[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n[decks]\ntides = ["skull", "blank"]\n'
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), defense="defense+1", options=options)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister" and b.units("kingswood") == []
    assert b.state.area("kingswood").order is None
    # the Tides skull killed the footman after the victor was known; the order went at clean-up
    assert [(e.area, e.cause) for e in b.of(CombatOrderRemoved) if e.area == "kingswood"] == [
        ("kingswood", "no units are left to carry it")]


def test_ruling_50_a_march_order_whose_attackers_fell_stands_at_a_step_boundary_until_clean_up():
    """Mace Tyrell kills Stark's only attacking footman; Stark, holding the Blade, is then asked
    whether to use it. At that step boundary the March order stands in King's Landing without its
    units (R220 removes it at clean-up): the position is whole, is written down and read back as
    it was, and the order goes once the combat is over."""
    from adjudicator.engine.invariants import check_invariants
    from adjudicator.engine.machine import advance
    from adjudicator.game.commands import March, Move, PlayCard
    from adjudicator.game.position import load_position
    from adjudicator.game.position_dump import dump_position

    from .test_combat_harness import BOARD, position

    state = position("""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[tracks]
iron_throne = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
fiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
kings_landing = { units = ["stark footman"], order = "march+1" }
kingswood = { units = ["tyrell footman"], order = "defense+1" }
""")
    march = March(origin="kings_landing", moves=(Move(destination="kingswood", units=(UnitSpec("footman"),)),))
    step = advance(state, [*say("stark", march, PlayCard(card="eddard_stark")),
                           *say("tyrell", PlayCard(card="mace_tyrell"))], board=BOARD)
    assert [(r.kind, r.house) for r in step.requests] == [("blade", "stark")]
    origin = step.state.area("kings_landing")
    assert origin.units == [] and origin.order is not None and origin.order.token == "march+1"
    assert step.state.combat_under_way() == {"kings_landing", "kingswood"}
    assert check_invariants(step.state, BOARD) == []
    text = dump_position(step.state)
    assert load_position(text, filename="mid-combat.toml") == step.state
    step = advance(step.state, say("stark", UseBlade(use=False)), board=BOARD)
    assert step.state.area("kings_landing").order is None
    assert [(e.area, e.cause) for e in step.events if isinstance(e, CombatOrderRemoved)] == [
        ("kings_landing", "its combat is over (R220)")]


def test_ruling_51_a_special_support_gives_its_one_when_its_units_count_nothing(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",),
                 areas='the_reach = { units = ["tyrell siege_engine"], order = "support+1" }')
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="lannister")))
    assert b.of(SupportDeclared)[0].strength == 1 and b.of(CombatStrengths)[0].defender_total == 2


def test_ruling_52_asha_counts_any_support_even_of_strength_zero(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED.replace(
        'the_reach = ["tyrell footman"]', 'the_reach = { units = ["tyrell siege_engine"], order = "support+0" }'))
    b = battle(state, everyone(state, "greyjoy"))
    b.run(say("tyrell", Support(side="greyjoy")), play("greyjoy", "asha_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done and b.units("storms_end", "stark") == ["footman"], "supported: Asha has no swords"


def test_ruling_53_kevan_doubles_only_lannister_footmen(battle):
    state = duel("lannister", "stark", attack=("footman",), defend=("3 footmen",),
                 areas='the_reach = { units = ["tyrell footman"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("tyrell", Support(side="lannister")), play("lannister", "ser_kevan_lannister"), play("stark", "catelyn_stark"))
    final = b.of(CombatResolved)[0]
    assert ("ability:ser_kevan_lannister", 1) in final.attacker_strength and final.attacker_total == 1 + 1 + 1 + 1


def test_ruling_54_a_house_without_cards_fights_without_one(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), hands={"lannister": []},
                 discards={"lannister": ["tywin_lannister", "ser_gregor_clegane", "ser_jaime_lannister", "the_hound",
                                         "ser_kevan_lannister", "tyrion_lannister", "cersei_lannister"]}, areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"))
    assert b.done and b.of(HouseCardsRevealed)[0].defender_card == ""
    assert len(b.state.houses["lannister"].hand) == 7, "the empty hand is refilled at the end of the combat"
    later = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), hands={"lannister": []},
                 discards={"lannister": ["tywin_lannister", "ser_gregor_clegane", "ser_jaime_lannister", "the_hound",
                                         "ser_kevan_lannister", "tyrion_lannister", "cersei_lannister"]}, areas=BLOCKED)
    b = battle(later, everyone(later, "stark"))
    b.run(play("stark", "eddard_stark"))
    assert [(d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [(2, 0, 2)]  # no card, no icons


def test_ruling_57_a_blade_answer_that_cannot_be_used_does_not_hold_up_the_combat(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(say("lannister", UseBlade(use=True)), play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and any("R199" in r for r in b.unusable("lannister"))
    assert not b.state.blade_used and not b.of(BladeUsed)


def test_ruling_38_aeron_cannot_bring_back_the_card_tyrion_cancelled(battle):
    state = duel("greyjoy", "lannister", attack=("2 knights",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "euron_crows_eye"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    b.run(play("greyjoy", "aeron_damphair"), say("greyjoy", CardChoice(card="aeron_damphair", house_card="euron_crows_eye")))
    assert any("not a choice" in r for r in b.unusable("greyjoy"))
    assert "euron_crows_eye" not in b.requests()[0].context["choices"]
