"""Combat steps 2-5: strength, House cards, the Valyrian Steel Blade, the victor (R187-R202)."""

from __future__ import annotations

from adjudicator.engine.events import OnlyOption
from adjudicator.engine.events.combat import (
    BladeUsed,
    CardAbility,
    CombatResolved,
    CombatStrengths,
    HandReturned,
    HouseCardsRevealed,
    TrackMoved,
)
from adjudicator.game.commands import (
    CardChoice,
    CombatFilter,
    PlayCard,
    Support,
    UseBlade,
)

from .test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'
SIX = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]


def test_R187_unit_strengths(battle):
    state = duel("stark", "lannister", attack=("footman", "knight", "siege_engine"), defend=("footman",),
                 area="the_reach", areas='blackwater_bay = ["lannister ship"]')
    b = battle(state, everyone(state, "stark", area="the_reach"))
    b.run()
    first = b.of(CombatStrengths)[0]
    assert dict(first.attacker_strength) == {"units:footman": 1, "units:knight": 2, "units:siege_engine": 4}
    sea = duel("greyjoy", "lannister", attack=("ship",), defend=("2 ships",), area="the_golden_sound", origin="ironmans_bay")
    b = battle(sea, everyone(sea, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run()
    assert b.of(CombatStrengths)[0].defender_strength == (("units:ship", 2),)


def test_R187_R236_a_siege_engine_counts_nothing_against_an_area_without_a_castle_or_in_defense(battle):
    state = duel("stark", "lannister", attack=("knight", "siege_engine"), defend=("footman", "siege_engine"))
    b = battle(state, everyone(state, "stark"))
    b.run()
    first = b.of(CombatStrengths)[0]
    assert ("units:siege_engine", 0) in first.attacker_strength and ("units:siege_engine", 0) in first.defender_strength


def test_R187_R236_a_siege_engine_never_adds_to_a_defence_even_in_a_castle(battle):
    """Riverrun has a castle: the attacking siege engine counts 4; a defending one, or one supporting
    the defender, counts 0 (R236: "it never adds anything in defence")."""
    state = duel("stark", "lannister", attack=("knight", "siege_engine"), defend=("footman", "siege_engine"),
                 area="riverrun", origin="stoney_sept",
                 areas='seagard = { units = ["lannister siege_engine"], order = "support+0" }')
    b = battle(state, everyone(state, "stark", area="riverrun", origin="stoney_sept"))
    b.run(say("lannister", Support(side="lannister")))
    first = b.of(CombatStrengths)[0]
    assert dict(first.attacker_strength) == {"units:knight": 2, "units:siege_engine": 4}
    assert dict(first.defender_strength) == {"units:footman": 1, "units:siege_engine": 0,
                                             "support:lannister:seagard": 0}
    assert (first.attacker_total, first.defender_total) == (6, 1)


def test_R187_a_siege_engine_supporting_an_attack_on_a_castle_gives_four(battle):
    from adjudicator.engine.events.combat import SupportDeclared

    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="riverrun", origin="stoney_sept",
                 areas='seagard = { units = ["stark siege_engine"], order = "support+0" }')
    b = battle(state, everyone(state, "stark", area="riverrun", origin="stoney_sept"))
    b.run(say("stark", Support(side="stark")))
    assert [(d.supporter, d.side, d.strength) for d in b.of(SupportDeclared)] == [("stark", "stark", 4)]
    assert dict(b.of(CombatStrengths)[0].attacker_strength) == {"units:knight": 2, "support:stark:seagard": 4}


def test_R188_a_home_area_whose_garrison_is_gone_adds_no_garrison(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="lannisport", origin="riverrun")
    b = battle(state, everyone(state, "stark", area="lannisport", origin="riverrun"))
    b.run()
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 1),)


def test_R188_initial_strength_adds_units_march_defense_support_and_garrison(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), area="winterfell",
                 origin="moat_cailin", token="march+1", defense="defense+2",
                 areas='karhold = { units = ["stark knight"], order = "support+1" }')
    state.area_mut("winterfell").garrison = 2
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run(say("stark", Support(side="stark")))
    first = b.of(CombatStrengths)[0]
    assert dict(first.attacker_strength) == {"units:knight": 4, "march": 1}
    assert dict(first.defender_strength) == {"units:footman": 1, "defense": 2, "support:stark:karhold": 3, "garrison": 2}
    assert (first.attacker_total, first.defender_total) == (5, 8)


def test_R189_a_defense_order_counts_against_every_attack_that_round(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), defense="defense+1",
                 areas='the_boneway = { units = ["stark knight"], order = "march-1" }')
    b = battle(state, everyone(state, "stark"), Assault("kingswood", "stark", "the_boneway", ("knight",)))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    b.run(play("stark", "roose_bolton"), play("lannister", "ser_jaime_lannister"))
    assert b.done
    assert [dict(s.defender_strength).get("defense") for s in b.of(CombatStrengths)] == [1, 1]


def test_R190_initial_strengths_are_announced_to_everyone(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run()
    first = b.of(CombatStrengths)[0]
    assert first.is_public() and first.stage == "initial" and (first.attacker_total, first.defender_total) == (2, 1)


def test_R191_cards_are_chosen_in_secret_and_playing_one_is_mandatory(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"))
    assert b.asked() == [("house_card", "lannister")]
    assert not [e for e in b.events if e.is_public() and "eddard" in e.describe().lower()], "nothing shows before both choose"
    assert b.requests()[0].default == PlayCard(card="cersei_lannister")  # no "no card" answer; the default is the weakest
    b.run(deadline=True)
    assert b.of(HouseCardsRevealed)[0].defender_card == "cersei_lannister"


def test_R192_a_card_of_another_house_is_refused(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "tywin_lannister"), play("lannister", "the_hound"))
    assert any("R192" in r for r in b.unusable("stark"))
    assert b.asked() == [("house_card", "stark")] and len(b.state.houses["stark"].hand) == 7
    assert not b.of(HouseCardsRevealed)


def test_R193_a_card_text_takes_effect_as_soon_as_the_cards_are_revealed(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED.replace("tyrell", "martell"))
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    names = [type(e).__name__ for e in b.events if e.is_public()]
    assert names.index("HouseCardsRevealed") < names.index("UnitsDestroyed") < names.index("CombatResolved")


def test_R194_cancel_texts_resolve_first_whatever_the_iron_throne_order(battle):
    order = ["martell", "lannister", "stark", "baratheon", "tyrell", "greyjoy"]
    state = duel("martell", "lannister", attack=("knight",), defend=("2 footmen",), iron_throne=order)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    assert b.asked() == [("house_card", "martell")]
    b.run(play("martell", "darkstar"))
    assert not b.of(TrackMoved), "Doran went back to the hand before his text could resolve"
    assert b.of(CombatResolved)[0].attacker_card == "darkstar"


def test_R194_other_texts_resolve_in_iron_throne_order(battle):
    for order, first in ((["martell", "tyrell", "stark", "baratheon", "lannister", "greyjoy"], "TrackMoved"),
                         (["tyrell", "martell", "stark", "baratheon", "lannister", "greyjoy"], "UnitsDestroyed")):
        state = duel("martell", "tyrell", attack=("footman", "knight"), defend=("2 footmen",), iron_throne=order)
        b = battle(state, everyone(state, "martell"))
        b.run(play("martell", "doran_martell"), play("tyrell", "mace_tyrell"),
              say("martell", CardChoice(card="doran_martell", track="kings_court")))
        names = [type(e).__name__ for e in b.events if type(e).__name__ in ("TrackMoved", "UnitsDestroyed")]
        assert names[0] == first


def test_R195_the_played_cards_are_discarded_and_cannot_be_played_again(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), discards={"stark": ["eddard_stark"]})
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "the_hound"))
    assert any("discard pile" in r and "R195" in r for r in b.unusable("stark"))
    assert b.asked() == [("house_card", "stark")]


def test_R196_after_the_seventh_card_the_other_six_come_back(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), hands={"stark": ["catelyn_stark"]},
                 discards={"stark": ["eddard_stark", "robb_stark", "roose_bolton", "greatjon_umber",
                                     "ser_rodrick_cassel", "the_blackfish"]})
    b = battle(state, everyone(state, "stark"))
    b.run(play("lannister", "the_hound"))
    assert b.done, "one card in hand: it is played without asking"
    assert any(isinstance(e, OnlyOption) for e in b.events)
    stark = b.state.houses["stark"]
    assert stark.discards == ["catelyn_stark"] and len(stark.hand) == 6
    assert b.of(HandReturned)[0].house == "stark"


def test_R197_the_house_card_request_shows_the_hand_to_its_house_only(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run()
    for r in b.requests():
        assert r.secret and r.context["hand"] == b.state.houses[r.house].hand


def test_R198_R200_the_card_strength_adds_to_the_initial_strength(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "greatjon_umber"), play("lannister", "the_hound"))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total) == (2 + 2, 1 + 2)


def test_R199_the_blade_holder_may_add_one_once_per_round(battle):
    fiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms,
                 areas='the_reach = ["tyrell footman"]\nthe_boneway = { units = ["stark knight"], order = "march-1" }')
    b = battle(state, everyone(state, "stark"), Assault("storms_end", "stark", "the_boneway", ("knight",)))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.asked() == [("blade", "stark")]
    b.run(say("stark", UseBlade(use=True), UseBlade(use=True)))
    first = b.of(CombatResolved)[0]
    assert ("blade", 1) in first.attacker_strength and first.attacker_total == 3 and b.state.blade_used
    assert b.units("storms_end", "lannister", routed=True) == ["footman", "footman"]
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"))
    assert b.done, "the Blade is faded: not asked again"
    assert any("already been used" in r and "R093" in r for r in b.unusable("stark"))
    assert len(b.of(BladeUsed)) == 1


def test_R199_a_house_without_the_blade_cannot_use_it(battle):
    fiefdoms = ["baratheon", "lannister", "stark", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", UseBlade(use=True)), play("stark", "eddard_stark"), play("lannister", "the_hound"))
    assert any("R199" in r and "Baratheon" in r for r in b.unusable("stark"))
    assert not b.of(BladeUsed) and not b.state.blade_used


def test_R199_a_house_without_the_blade_is_told_why_and_not_that_an_only_option_was_taken(battle):
    """Its Blade decision is taken at once, never asked: the refusal gives its reason alone."""
    fiefdoms = ["baratheon", "lannister", "stark", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", UseBlade(use=True)), play("stark", "eddard_stark"), play("lannister", "the_hound"))
    assert b.unusable("stark") == ["only the holder of the Valyrian Steel Blade may use it, and Baratheon holds it (R199)"]


def test_R199_the_blade_keeps_by_default_and_its_holder_may_decline(battle):
    fiefdoms = ["lannister", "stark", "baratheon", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"), say("lannister", UseBlade(use=False)))
    assert b.done and not b.state.blade_used and not b.of(BladeUsed)


def test_R199_a_standing_blade_answer_for_another_combat_does_not_apply(battle):
    fiefdoms = ["lannister", "stark", "baratheon", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"),
          say("lannister", UseBlade(use=True, when=CombatFilter(area="winterfell"))))
    assert b.asked() == [("blade", "lannister")]


def test_R202_the_higher_strength_wins_and_a_tie_goes_to_the_higher_house_on_the_fiefdoms_track(battle):
    fiefdoms = ["baratheon", "lannister", "stark", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner, final.tie_broken) == (2, 2, "lannister", True)


def test_R200_final_strength_is_never_below_zero(battle):
    state = duel("stark", "lannister", attack=("siege_engine",), defend=("footman",), token="march-1")
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.of(CombatStrengths)[0].attacker_total == 0


def test_card_ability_events_are_public(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "queen_of_thorns"), play("stark", "eddard_stark"))
    assert b.of(CardAbility) and all(e.is_public() for e in b.of(CardAbility))
