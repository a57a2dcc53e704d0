"""The seven vassal house cards (Mother of Dragons, section 9.5 of docs/rules-mother-of-dragons.md),
one test or more each, fought in real combats on the expansion's map. The vassal deck is stacked
(``rig``) so that each test draws the card it is about; the commander plays it with ``for VASSAL:``."""

from __future__ import annotations

from mother_of_dragons.vassal_battles import (
    ON_THE_REACH,
    battle,  # noqa: F401 (a fixture)
    fight,
    for_vassal,
    rig,
    stark_attacks_the_reach,
    vassal_plays,
)
from rules.test_combat_harness import Assault, play, say

from adjudicator.engine.cards.registry import ability
from adjudicator.engine.core.common import PowerChanged, UnitsDestroyed
from adjudicator.engine.events.bank import UnitsPlaced
from adjudicator.engine.events.combat import CardAbility, CasualtiesDue, CombatResolved, HouseCardChosen
from adjudicator.engine.events.vassals import VassalRaised
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import CardChoice, Casualties, Retreat, Support, UnitSpec

STARK_HAND = CARDS.hand_of("stark")


def test_the_seven_vassal_cards_have_their_printed_numbers_and_their_texts():
    numbers = {c: (CARDS.house_cards[c].strength, CARDS.house_cards[c].swords, CARDS.house_cards[c].fortifications)
               for c in CARDS.vassal_deck()}
    assert numbers == {"bronn": (4, 0, 0), "beric_dondarrion": (3, 0, 0), "janos_slynt": (2, 2, 1),
                       "jon_connington": (2, 0, 0), "jaqen_hghar": (1, 0, 0), "syrio_forel": (1, 0, 0),
                       "varys": (0, 0, 0)}
    with_text = [c for c in CARDS.vassal_deck() if CARDS.house_cards[c].has_ability]
    assert all(ability(c) is not None for c in with_text) and ability("janos_slynt") is None


# --- Bronn -----------------------------------------------------------------------------------------


def bronn_defends(battle, monkeypatch, stark_power: int):
    rig(monkeypatch, ("bronn", "janos_slynt", "varys"))
    b = battle(stark_attacks_the_reach(power={"stark": stark_power}), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "bronn"))
    return b


def test_bronn_the_player_opponent_may_pay_2_power_to_make_it_0(battle, monkeypatch):
    b = bronn_defends(battle, monkeypatch, 3)
    assert b.asked() == [("card_choice", "stark")]  # the opponent chooses (ruling 283)
    b.run(say("stark", CardChoice(card="bronn", option="pay")), deadline=True)
    assert ("card:bronn", 0) in b.of(CombatResolved)[0].defender_strength
    assert [e.amount for e in b.of(PowerChanged) if e.house == "stark"] == [-2]
    assert b.state.houses["stark"].power == 1


def test_bronn_unanswered_keeps_its_strength_4(battle, monkeypatch):
    b = bronn_defends(battle, monkeypatch, 3)
    b.run(deadline=True)
    assert ("card:bronn", 4) in b.of(CombatResolved)[0].defender_strength
    assert b.state.houses["stark"].power == 3


def test_bronn_is_not_offered_to_an_opponent_with_fewer_than_2_power(battle, monkeypatch):
    b = bronn_defends(battle, monkeypatch, 1)
    assert ("card_choice", "stark") not in b.asked()
    b.run(deadline=True)
    assert ("card:bronn", 4) in b.of(CombatResolved)[0].defender_strength
    assert any(e.card == "bronn" and "fewer than 2" in e.effect for e in b.of(CardAbility))


def test_bronn_ruling_212_a_vassal_opponent_cannot_pay(battle, monkeypatch):
    rig(monkeypatch, ("janos_slynt", "varys", "syrio_forel"), ("bronn", "jaqen_hghar", "beric_dondarrion"))
    state = fight("martell", "tyrell", area="dornish_marches", origin="the_boneway", token="vassal_march")
    b = battle(state, Assault("dornish_marches", "martell", "the_boneway", ("knight",)))
    b.run(vassal_plays("martell", "janos_slynt"), vassal_plays("tyrell", "bronn"))
    b.run(deadline=True)
    assert not [r for r in b.events if type(r).__name__ == "OnlyOption" and "Bronn" in r.decision]
    assert ("card:bronn", 4) in b.of(CombatResolved)[0].defender_strength
    assert b.told("bronn") == ["Tyrell's Bronn has no effect: a vassal holds no power to pay, ruling 212."]


# --- Beric Dondarrion --------------------------------------------------------------------------------


def test_beric_dondarrion_a_winning_vassal_loses_one_of_its_own_units_after_casualties(battle, monkeypatch):
    rig(monkeypatch, ("beric_dondarrion", "janos_slynt", "varys"))
    state = stark_attacks_the_reach(attack=("footman",), defend=("knight", "footman"))
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("footman",)))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "beric_dondarrion"))
    assert b.of(CombatResolved)[0].winner == "tyrell"
    assert [(r.kind, r.house, r.vassal, r.context["count"]) for r in b.requests()] == [
        ("casualties", "lannister", "tyrell", 1)]
    b.run(for_vassal("tyrell", Casualties(units=(UnitSpec("knight", 1),))), deadline=True)
    lost = [(e.house, e.units, e.cause) for e in b.of(UnitsDestroyed)]
    assert lost == [("tyrell", ("knight",), "Beric Dondarrion")]
    assert b.units("the_reach") == ["footman"]


def test_beric_dondarrion_ruling_282_a_winning_attacker_loses_a_unit_before_it_advances(battle, monkeypatch):
    rig(monkeypatch, ("beric_dondarrion", "janos_slynt", "varys"))
    state = fight("tyrell", "stark", area="the_reach", origin="highgarden", token="vassal_march",
                  attack=("2 knights",), defend=("footman",))
    b = battle(state, Assault("the_reach", "tyrell", "highgarden", ("knight", "knight")))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "beric_dondarrion"), deadline=True)
    assert b.of(CombatResolved)[0].winner == "tyrell"
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed) if e.house == "tyrell"] == [(("knight",), "Beric Dondarrion")]
    assert b.units("the_reach", "tyrell") == ["knight"] and not b.units("highgarden")


def test_beric_dondarrion_costs_nothing_when_the_vassal_loses(battle, monkeypatch):
    rig(monkeypatch, ("beric_dondarrion", "janos_slynt", "varys"))
    b = battle(stark_attacks_the_reach(attack=("3 knights",)), Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "beric_dondarrion"), deadline=True)
    assert b.of(CombatResolved)[0].winner == "stark"
    assert not [e for e in b.of(UnitsDestroyed) if e.cause == "Beric Dondarrion"]


# --- Janos Slynt -------------------------------------------------------------------------------------


def test_janos_slynt_has_strength_2_two_swords_and_a_fortification(battle, monkeypatch):
    rig(monkeypatch, ("janos_slynt", "varys", "syrio_forel"))
    b = battle(stark_attacks_the_reach(attack=("3 knights",), defend=("2 footmen",)),
               Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "janos_slynt"), deadline=True)
    resolved = b.of(CombatResolved)[0]
    assert resolved.winner == "stark" and ("card:janos_slynt", 2) in resolved.defender_strength
    due = b.of(CasualtiesDue)[0]
    assert (due.house, due.swords, due.fortifications, due.count) == ("tyrell", 2, 1, 1)  # Eddard's 2 swords, 1 fort
    rig(monkeypatch, ("janos_slynt", "varys", "syrio_forel"))
    state = fight("tyrell", "stark", area="the_reach", origin="highgarden", token="vassal_march",
                  attack=("3 knights",), defend=("2 footmen",))
    won = battle(state, Assault("the_reach", "tyrell", "highgarden", ("knight",) * 3))
    won.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "janos_slynt"), deadline=True)
    due = won.of(CasualtiesDue)[0]
    assert (due.house, due.swords, due.count) == ("stark", 2, 2)


# --- Jon Connington ----------------------------------------------------------------------------------


def test_jon_connington_a_beaten_vassal_places_a_knight_where_it_retreated_or_at_home(battle, monkeypatch):
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    b = battle(stark_attacks_the_reach(attack=("3 knights",)), Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"),
          for_vassal("tyrell", Retreat(areas=("dornish_marches",))))
    assert [(r.kind, r.house, r.vassal) for r in b.requests()] == [("card_choice", "lannister", "tyrell")]
    assert b.requests()[0].context["choices"] == ["dornish_marches", "highgarden", "no"]
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", area="highgarden")))
    assert b.done
    assert [(e.house, e.area, e.units) for e in b.of(UnitsPlaced)] == [("tyrell", "highgarden", ("knight",))]
    assert b.units("highgarden", "tyrell") == ["knight"] and b.units("dornish_marches", "tyrell") == ["footman"]


def test_jon_connington_ruling_281_a_beaten_attacker_places_it_where_it_marched_from(battle, monkeypatch):
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = fight("tyrell", "stark", area="the_reach", origin="the_boneway", token="vassal_march",
                  attack=("footman",), defend=("2 knights",))
    b = battle(state, Assault("the_reach", "tyrell", "the_boneway", ("footman",)))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"))
    assert b.requests()[0].context["choices"] == ["the_boneway", "highgarden", "no"]
    b.run(deadline=True)  # the default places nothing
    assert b.done and not b.of(UnitsPlaced)


def test_jon_connington_does_nothing_when_the_vassal_wins(battle, monkeypatch):
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    b = battle(stark_attacks_the_reach(attack=("footman",), defend=("2 knights",)),
               Assault("the_reach", "stark", "blackwater", ("footman",)))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"), deadline=True)
    assert b.of(CombatResolved)[0].winner == "tyrell" and not b.of(UnitsPlaced)


# --- Jaqen H'ghar ------------------------------------------------------------------------------------


def test_jaqen_hghar_replaces_the_opponents_card_with_one_picked_at_random_from_its_hand(battle, monkeypatch):
    rig(monkeypatch, ("jaqen_hghar", "janos_slynt", "varys"))
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "jaqen_hghar"), deadline=True)
    chosen = [e for e in b.of(HouseCardChosen) if e.cause == "Jaqen H'ghar"]
    assert len(chosen) == 1 and chosen[0].house == "stark" and chosen[0].card in STARK_HAND
    assert b.of(CombatResolved)[0].attacker_card == chosen[0].card
    assert chosen[0].card in b.state.houses["stark"].discards
    assert sorted(b.state.houses["stark"].hand + b.state.houses["stark"].discards) == sorted(STARK_HAND)
    again = battle(stark_attacks_the_reach(), ON_THE_REACH)
    again.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "jaqen_hghar"), deadline=True)
    assert [e.card for e in again.of(HouseCardChosen)] == [chosen[0].card]  # the game's seeded generator


def test_jaqen_hghar_ruling_280_the_card_sent_back_may_come_back(battle, monkeypatch):
    rig(monkeypatch, ("jaqen_hghar", "janos_slynt", "varys"))
    others = [c for c in STARK_HAND if c != "eddard_stark"]
    b = battle(stark_attacks_the_reach(hands={"stark": ["eddard_stark"]}, discards={"stark": others}), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "jaqen_hghar"), deadline=True)
    assert [(e.house, e.card) for e in b.of(HouseCardChosen)] == [("stark", "eddard_stark")]
    assert b.of(CombatResolved)[0].attacker_card == "eddard_stark"


def test_jaqen_hghar_against_a_vassal_picks_from_its_drawn_hand(battle, monkeypatch):
    rig(monkeypatch, ("janos_slynt", "varys", "syrio_forel"), ("jaqen_hghar", "bronn", "beric_dondarrion"))
    state = fight("martell", "tyrell", area="dornish_marches", origin="the_boneway", token="vassal_march")
    b = battle(state, Assault("dornish_marches", "martell", "the_boneway", ("knight",)))
    b.run(vassal_plays("martell", "janos_slynt"), vassal_plays("tyrell", "jaqen_hghar"), deadline=True)
    picked = [e.card for e in b.of(HouseCardChosen) if e.house == "martell"]
    assert len(picked) == 1 and picked[0] in ("janos_slynt", "varys", "syrio_forel")
    assert b.of(CombatResolved)[0].attacker_card == picked[0]


# --- Syrio Forel -------------------------------------------------------------------------------------


def test_syrio_forel_defending_makes_every_footman_but_a_vassals_count_0(battle, monkeypatch):
    rig(monkeypatch, ("syrio_forel", "janos_slynt", "varys"))
    state = stark_attacks_the_reach(attack=("2 footmen", "knight"), defend=("footman",),
                                    areas='kingswood = { units = ["baratheon footman"], order = "support+0" }')
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("footman", "footman", "knight")))
    b.run(play("stark", "catelyn_stark"), say("baratheon", Support(side="stark")),
          vassal_plays("tyrell", "syrio_forel"), deadline=True)
    resolved = b.of(CombatResolved)[0]
    assert ("ability:syrio_forel", -3) in resolved.attacker_strength  # Stark's two and Baratheon's supporting one
    assert ("units:footman", 1) in resolved.defender_strength  # Tyrell's own counts
    assert not [p for p in resolved.defender_strength if p[0] == "ability:syrio_forel"]


def test_syrio_forel_attacking_changes_nothing(battle, monkeypatch):
    rig(monkeypatch, ("syrio_forel", "janos_slynt", "varys"))
    state = fight("tyrell", "stark", area="the_reach", origin="highgarden", token="vassal_march",
                  attack=("knight",), defend=("2 footmen",))
    b = battle(state, Assault("the_reach", "tyrell", "highgarden", ("knight",)))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "syrio_forel"), deadline=True)
    resolved = b.of(CombatResolved)[0]
    assert ("units:footman", 2) in resolved.defender_strength
    assert not [p for p in resolved.defender_strength + resolved.attacker_strength if p[0] == "ability:syrio_forel"]


# --- Varys -------------------------------------------------------------------------------------------


def test_varys_moves_the_vassal_to_the_top_of_fiefdoms_and_the_blade_stays_with_a_player(battle, monkeypatch):
    rig(monkeypatch, ("varys", "janos_slynt", "syrio_forel"))
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    before = b.state.tracks["fiefdoms"]
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "varys"), deadline=True)
    assert b.state.tracks["fiefdoms"] == ["tyrell", *[h for h in before if h != "tyrell"]]
    assert [(e.house, e.track) for e in b.of(VassalRaised)] == [("tyrell", "fiefdoms")]
    assert b.state.holder("fiefdoms") == "baratheon"  # M065, ruling 240: a vassal never holds the Blade
    assert not b.state.check()


def test_jon_connington_ruling_281_never_places_a_knight_at_sea(battle, monkeypatch):
    """Found by maester simulate --players 7 --seed 47: a vassal's beaten ships retreated to a sea and
    the knight was placed there."""
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = fight("stark", "greyjoy", area="ironmans_bay", origin="sunset_sea", attack=("3 ships",), defend=("ship",))
    b = battle(state, Assault("ironmans_bay", "stark", "sunset_sea", ("ship",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("greyjoy", "jon_connington"),
          for_vassal("greyjoy", Retreat(areas=("the_golden_sound",))))
    assert b.units("the_golden_sound", "greyjoy") == ["ship"]
    assert [(r.kind, r.house, r.vassal) for r in b.requests()] == [("card_choice", "lannister", "greyjoy")]
    assert b.requests()[0].context["choices"] == ["pyke", "no"]  # its home, not the sea it retreated to
    b.run(for_vassal("greyjoy", CardChoice(card="jon_connington", area="the_golden_sound")))
    assert any("is not a choice Jon Connington allows here" in r for r in b.unusable("lannister"))
    b.run(for_vassal("greyjoy", CardChoice(card="jon_connington", area="pyke")))
    assert b.done and b.units("pyke", "greyjoy") == ["knight"] and not b.state.check()


# --- the edges of the numbers on the cards -----------------------------------------------------------


def test_bronn_an_opponent_with_exactly_2_power_may_pay_them(battle, monkeypatch):
    b = bronn_defends(battle, monkeypatch, 2)
    assert b.asked() == [("card_choice", "stark")]
    b.run(say("stark", CardChoice(card="bronn", option="pay")), deadline=True)
    assert ("card:bronn", 0) in b.of(CombatResolved)[0].defender_strength
    assert b.state.houses["stark"].power == 0


def beaten_tyrell_with_knights_on_the_board(battle, monkeypatch, knights: int):
    """Jon Connington's vassal Tyrell beaten in The Reach and retreating to Dornish Marches, with
    ``knights`` of its 5 knights already on the board (in Oldtown and Three Towers)."""
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    placed = [f'oldtown = {{ units = ["{min(knights, 2)} tyrell knights"] }}' if knights else "",
              f'three_towers = {{ units = ["{knights - 2} tyrell knights"] }}' if knights > 2 else ""]
    state = stark_attacks_the_reach(attack=("3 knights",), areas="\n".join(placed))
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"),
          for_vassal("tyrell", Retreat(areas=("dornish_marches",))))
    return b


def test_jon_connington_places_the_last_knight_of_the_reserves(battle, monkeypatch):
    b = beaten_tyrell_with_knights_on_the_board(battle, monkeypatch, 4)
    assert b.requests()[0].context["choices"] == ["dornish_marches", "highgarden", "no"]
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", area="highgarden")))
    assert [(e.house, e.area, e.units) for e in b.of(UnitsPlaced)] == [("tyrell", "highgarden", ("knight",))]


def test_jon_connington_with_no_knight_in_the_reserves_places_nothing(battle, monkeypatch):
    b = beaten_tyrell_with_knights_on_the_board(battle, monkeypatch, 5)
    assert b.done and not b.requests() and not b.of(UnitsPlaced)
    assert b.told("jon_connington") == ["Tyrell's Jon Connington has no effect: no knight left in the reserves."]


def test_jon_connington_ruling_281_places_the_knight_only_within_supply(battle, monkeypatch):
    """Supply 0 allows two armies of 2: with two of them on the board already, a knight beside the
    retreated footman would be a third; alone at home it is no army."""
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = stark_attacks_the_reach(attack=("3 knights",), areas='oldtown = { units = ["2 tyrell footmen"] }\n'
                                                                 'three_towers = { units = ["2 tyrell footmen"] }')
    state.houses["tyrell"].supply = 0
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"),
          for_vassal("tyrell", Retreat(areas=("dornish_marches",))))
    assert b.requests()[0].context["choices"] == ["highgarden", "no"]
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", area="dornish_marches")))
    assert any("is not a choice Jon Connington allows here" in r for r in b.unusable("lannister"))


def test_bronn_asks_the_player_opponent_to_pay_2_or_not_and_no_keeps_strength_4(battle, monkeypatch):
    b = bronn_defends(battle, monkeypatch, 3)
    (asked,) = b.requests()
    assert asked.prompt == "Bronn: discard 2 power to make Bronn's strength 0? ('pay' or 'no')"
    assert [o.option for o in asked.options] == ["pay", "no"] and asked.default.option == "no"
    b.run(say("stark", CardChoice(card="bronn", option="no")), deadline=True)
    assert not b.unusable("stark") and ("card:bronn", 4) in b.of(CombatResolved)[0].defender_strength
    assert b.told("bronn") == ["Tyrell's Bronn has no effect: Stark declined to pay."]
    assert b.state.houses["stark"].power == 3


def test_jon_connington_asks_the_commander_where_and_no_places_nothing(battle, monkeypatch):
    b = beaten_tyrell_with_knights_on_the_board(battle, monkeypatch, 0)
    (asked,) = b.requests()
    assert asked.prompt == "for Tyrell: Jon Connington: place a knight (name its area), or 'no'"
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", option="no")))
    assert b.done and not b.of(UnitsPlaced)
    assert b.told("jon_connington") == ["Tyrell's Jon Connington has no effect: declined."]


def test_jon_connington_ruling_281_with_no_area_within_supply_places_nothing(battle, monkeypatch):
    """Tyrell's home is Lannister's, and its beaten footman fell to Eddard Stark's swords: nowhere to
    place the knight."""
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = stark_attacks_the_reach(attack=("3 knights",), areas='highgarden = { units = ["lannister footman"] }')
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "jon_connington"), deadline=True)
    assert b.done and not b.units("the_reach", "tyrell") and not b.of(UnitsPlaced)
    assert b.told("jon_connington") == ["Tyrell's Jon Connington has no effect: no area to place a knight in within supply."]
