"""Base house cards meeting a vassal or Targaryen (section 9.6 of docs/rules-mother-of-dragons.md,
rulings 238, 253), one test each, and the text-less cards of Targaryen's set B in a real combat."""

from __future__ import annotations

from mother_of_dragons.vassal_battles import (
    battle,  # noqa: F401 (a fixture)
    fight,
    for_vassal,
    rig,
    vassal_plays,
)
from rules.test_combat_harness import Assault, play, say

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.combat import CardAbility, CasualtiesDue, CombatOrderRemoved, CombatResolved
from adjudicator.engine.events.vassals import CommanderRewarded
from adjudicator.game.commands import CardChoice, PlayCard, Support

QUIET = ("janos_slynt", "varys", "syrio_forel")


def lannister_attacks_yronwood(**kw):
    """Lannister marches from the Boneway on the vassal Martell (Arryn commands it) in Yronwood."""
    kw.setdefault("attack", ("2 knights",))
    kw.setdefault("defend", ("footman",))
    return fight("lannister", "martell", area="yronwood", origin="the_boneway", **kw)


ON_YRONWOOD = Assault("yronwood", "lannister", "the_boneway", ("knight", "knight"))


def test_tyrion_lannister_against_a_vassal_the_commander_plays_another_of_its_drawn_cards(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    b = battle(lannister_attacks_yronwood(), ON_YRONWOOD)
    b.run(play("lannister", "tyrion_lannister"), vassal_plays("martell", "janos_slynt"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    assert [(r.kind, r.house, r.vassal) for r in b.requests()] == [("house_card", "arryn", "martell")]
    assert [o.card for o in b.requests()[0].options] == ["syrio_forel", "varys"]  # ruling 238: its 2-card hand
    b.run(vassal_plays("martell", "janos_slynt"))
    assert any("sent back by Tyrion Lannister" in r for r in b.unusable("arryn"))
    b.run(vassal_plays("martell", "varys"), deadline=True)
    assert b.of(CombatResolved)[0].defender_card == "varys"


def test_patchface_against_a_vassal_finds_its_hand_shuffled_away(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = fight("baratheon", "martell", area="the_boneway", origin="storms_end", first="stark",
                  attack=("2 knights",), defend=("footman",))
    b = battle(state, Assault("the_boneway", "baratheon", "storms_end", ("knight", "knight")))
    b.run(play("baratheon", "patchface"), vassal_plays("martell", "varys"), deadline=True)
    assert b.done and not [r for r in b.events if type(r).__name__ == "OnlyOption" and "Patchface" in r.decision]
    said = [e.effect for e in b.of(CardAbility) if e.card == "patchface"]
    assert said == ["no effect (the opponent's hand is empty)"]  # ruling 238: shuffled back at clean-up (M061)


def test_stannis_baratheon_counts_a_vassal_above_him_on_the_iron_throne(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = fight("baratheon", "martell", area="the_boneway", origin="storms_end", first="martell",
                  attack=("knight",), defend=("footman",))
    assert state.position("iron_throne", "martell") < state.position("iron_throne", "baratheon")
    b = battle(state, Assault("the_boneway", "baratheon", "storms_end", ("knight",)))
    b.run(play("baratheon", "stannis_baratheon"), vassal_plays("martell", "varys"), deadline=True)
    assert ("ability:stannis_baratheon", 1) in b.of(CombatResolved)[0].attacker_strength


def test_stannis_baratheon_targaryen_is_always_below_him(battle):
    state = fight("baratheon", "targaryen", area="kingswood", origin="storms_end", first="greyjoy", side_b=True,
                  attack=("knight",), defend=("footman",))
    assert state.tracks["iron_throne"][-1] == "targaryen"
    b = battle(state, Assault("kingswood", "baratheon", "storms_end", ("knight",)))
    b.run(play("baratheon", "stannis_baratheon"), play("targaryen", "ser_jorah_mormont"), deadline=True)
    assert not [p for p in b.of(CombatResolved)[0].attacker_strength if p[0] == "ability:stannis_baratheon"]


def test_doran_martell_sends_a_vassal_to_position_7_below_which_only_targaryen_stands(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = fight("martell", "lannister", area="dornish_marches", origin="princes_pass", first="greyjoy", side_b=True,
                  attack=("knight",), defend=("footman",))
    b = battle(state, Assault("dornish_marches", "martell", "princes_pass", ("knight",)))
    b.run(play("martell", "doran_martell"), say("martell", CardChoice(card="doran_martell", track="iron_throne")),
          deadline=True)
    assert b.state.tracks["iron_throne"][-2:] == ["lannister", "targaryen"]  # ruling 253: "last" is position 7


def test_doran_martell_against_targaryen_moves_nothing(battle):
    state = fight("martell", "targaryen", area="the_boneway", origin="yronwood", first="greyjoy", side_b=True,
                  attack=("knight",), defend=("footman",))
    before = list(state.tracks["kings_court"])
    b = battle(state, Assault("the_boneway", "martell", "yronwood", ("knight",)))
    b.run(play("martell", "doran_martell"), play("targaryen", "ser_jorah_mormont"),
          say("martell", CardChoice(card="doran_martell", track="kings_court")), deadline=True)
    assert b.state.tracks["kings_court"] == before  # M097: Targaryen keeps position 8


def test_cersei_lannister_may_remove_a_vassals_order(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = lannister_attacks_yronwood(areas='sunspear = { units = ["martell footman"], order = "vassal_defense" }')
    b = battle(state, ON_YRONWOOD)
    b.run(play("lannister", "cersei_lannister"), vassal_plays("martell", "varys"),
          say("lannister", CardChoice(card="cersei_lannister", area="sunspear")), deadline=True)
    assert b.of(CombatResolved)[0].winner == "lannister"
    removed = [(e.house, e.area, e.cause) for e in b.of(CombatOrderRemoved) if e.area == "sunspear"]
    assert removed == [("martell", "sunspear", "Cersei Lannister")] and b.state.area("sunspear").order is None


def test_queen_of_thorns_may_remove_a_vassals_order_next_to_the_combat(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = fight("tyrell", "lannister", area="dornish_marches", origin="highgarden", first="greyjoy", side_b=True,
                  attack=("2 knights",), defend=("footman",),
                  areas='princes_pass = { units = ["lannister footman"], order = "vassal_raid_support" }')
    b = battle(state, Assault("dornish_marches", "tyrell", "highgarden", ("knight", "knight")))
    b.run(play("tyrell", "queen_of_thorns"), deadline=True)
    assert [(e.house, e.area) for e in b.of(CombatOrderRemoved) if e.cause == "Queen of Thorns"] == [
        ("lannister", "princes_pass")]


def test_tywin_lannister_against_a_vassal_gains_its_player_2_and_the_vassal_nothing(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    b = battle(lannister_attacks_yronwood(), ON_YRONWOOD)
    b.run(play("lannister", "tywin_lannister"), vassal_plays("martell", "varys"), deadline=True)
    assert b.of(CombatResolved)[0].winner == "lannister"
    assert [(e.house, e.amount) for e in b.of(PowerChanged)] == [("lannister", 2)]
    assert not b.of(CommanderRewarded)


def test_anya_waynwood_against_a_vassal_only_players_gain_power(battle, monkeypatch):
    rig(monkeypatch, QUIET)
    state = fight("arryn", "tyrell", area="the_reach", origin="blackwater", attack=("2 knights",), defend=("footman",),
                  areas='kingswood = { units = ["baratheon footman"], order = "support+0" }')
    b = battle(state, Assault("the_reach", "arryn", "blackwater", ("knight", "knight")))
    b.run(play("arryn", "anya_waynwood"), vassal_plays("tyrell", "varys"), say("baratheon", Support(side="arryn")),
          deadline=True)
    assert b.of(CombatResolved)[0].winner == "arryn"
    gains = sorted((e.house, e.amount) for e in b.of(PowerChanged))
    assert gains == [("arryn", 3), ("baratheon", 3)]  # the vassal and its commander Lannister gain nothing


def test_balon_greyjoy_a_vassal_cards_printed_strength_counts_0(battle, monkeypatch):
    rig(monkeypatch, ("bronn", "janos_slynt", "varys"))
    state = fight("greyjoy", "lannister", area="lannisport", origin="searoad_marches", first="tyrell", side_b=True,
                  attack=("2 knights",), defend=("footman",))
    b = battle(state, Assault("lannisport", "greyjoy", "searoad_marches", ("knight", "knight")))
    b.run(play("greyjoy", "balon_greyjoy"), vassal_plays("lannister", "bronn"), deadline=True)
    assert ("card:bronn", 0) in b.of(CombatResolved)[0].defender_strength


def test_targaryen_set_b_daario_naharis_gray_worm_and_strong_belwas_fight_with_their_printed_numbers(battle, monkeypatch):
    rig(monkeypatch, ("janos_slynt", "varys", "syrio_forel"))  # Stark, a vassal here, plays Janos Slynt: 2 swords
    for card, strength, swords, forts in (("daario_naharis", 3, 1, 0), ("gray_worm", 2, 1, 1),
                                          ("strong_belwas", 2, 2, 0)):
        attacking = fight("targaryen", "stark", area="kingswood", origin="the_boneway", first="greyjoy", side_b=True,
                          attack=("3 knights",), defend=("2 footmen",))
        attacking.houses["targaryen"].hand = [card]  # the alternate set, which no position deals (ruling 222)
        b = battle(attacking, Assault("kingswood", "targaryen", "the_boneway", ("knight",) * 3))
        b.run(for_vassal("stark", PlayCard(card="janos_slynt")), deadline=True)
        resolved = b.of(CombatResolved)[0]
        assert resolved.winner == "targaryen" and (f"card:{card}", strength) in resolved.attacker_strength, card
        assert [(d.house, d.swords) for d in b.of(CasualtiesDue)] == [("stark", swords)], card
        defending = fight("stark", "targaryen", area="kingswood", origin="the_boneway", first="greyjoy", side_b=True,
                          token="vassal_march", attack=("3 knights",), defend=("footman", "knight"))
        defending.houses["targaryen"].hand = [card]
        b = battle(defending, Assault("kingswood", "stark", "the_boneway", ("knight",) * 3))
        b.run(for_vassal("stark", PlayCard(card="janos_slynt")), deadline=True)
        assert b.of(CombatResolved)[0].winner == "stark", card
        assert [(d.house, d.fortifications) for d in b.of(CasualtiesDue)] == [("targaryen", forts)], card
