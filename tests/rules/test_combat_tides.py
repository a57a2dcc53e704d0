"""Tides of Battle (R268-R273) and its deck."""

from __future__ import annotations

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events import visible
from adjudicator.engine.events.combat import (
    BladeUsed,
    CasualtiesDue,
    CombatResolved,
    TidesDrawn,
    TidesRevealed,
)
from adjudicator.game.commands import Casualties, UnitSpec, UseBlade

from .test_combat_harness import battle, duel, everyone, play, say  # noqa: F401

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def tides(deck, *, reshuffle=False, discards=()):
    """Position text turning Tides of Battle on with a known deck (top first)."""
    return (f"[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = {str(reshuffle).lower()}\n"
            f"[decks]\ntides = {list(deck)!r}\ntides_discards = {list(discards)!r}\n").replace("'", '"')


def test_R268_each_side_draws_a_tides_card_after_the_reveal_and_sees_only_its_own(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), options=tides(["two", "three"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    drawn = b.of(TidesDrawn)
    assert [(d.house, d.card, d.visible_to) for d in drawn] == [("stark", "two", "stark"), ("lannister", "three", "lannister")]
    assert not [e for e in visible(b.events, "stark") if isinstance(e, TidesDrawn) and e.house == "lannister"]
    names = [type(e).__name__ for e in b.events]
    assert names.index("HouseCardsRevealed") < names.index("TidesDrawn") < names.index("TidesRevealed")


def test_R269_with_tides_the_blade_redraws_and_adds_nothing(battle):
    fiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms, areas=BLOCKED,
                 options=tides(["blank", "two", "three"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.asked() == [("blade", "stark")] and b.requests()[0].context["effect"] == "redraw"
    b.run(say("stark", UseBlade(use=True)))
    assert b.done
    assert [(d.card, d.redraw) for d in b.of(TidesDrawn) if d.house == "stark"] == [("blank", False), ("three", True)]
    assert b.of(BladeUsed)[0].effect == "redraw" and b.state.blade_used
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:knight": 2, "card:catelyn_stark": 0, "tides:three": 3}
    assert "blank" in b.state.tides_discards and "three" in b.state.tides_discards


def test_R270_the_tides_value_adds_to_the_strength(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), options=tides(["two", "blank"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    revealed = b.of(TidesRevealed)[0]
    assert (revealed.attacker_card, revealed.defender_card) == ("two", "blank")
    final = b.of(CombatResolved)[0]
    assert ("tides:two", 2) in final.attacker_strength and final.attacker_total == 4


def test_R271_tides_swords_and_fortifications_join_the_house_cards_icons(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("2 footmen",), areas=BLOCKED,
                 options=tides(["one_sword", "blank"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(1, 1)]
    state = duel("stark", "lannister", attack=("2 knights",), defend=("2 footmen",), areas=BLOCKED,
                 options=tides(["blank", "one_fortification"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "greatjon_umber"), play("lannister", "cersei_lannister"))
    assert [(d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [(1, 1, 0)]
    state = duel("lannister", "stark", attack=("2 knights",), defend=("3 footmen",), areas=BLOCKED,
                 options=tides(["blank", "one_fortification"]))
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_gregor_clegane"), play("stark", "ser_rodrick_cassel"))
    assert [(d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [(3, 3, 0)]  # 2 printed + 1


def test_R272_a_skull_kills_one_more_opposing_unit_whoever_wins_and_forts_do_not_stop_it(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("3 footmen",), options=tides(["skull", "blank"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister"
    skull = [d for d in b.of(CasualtiesDue) if d.skulls]
    assert [(d.house, d.area, d.count, d.skulls) for d in skull] == [("lannister", "kingswood", 1, 1)]
    assert [(e.house, e.cause) for e in b.of(UnitsDestroyed)] == [("lannister", "a Tides of Battle skull (R272)")]
    assert b.units("kingswood", "lannister") == ["footman", "footman"]


def test_R272_the_house_hit_by_a_skull_picks_the_unit(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman", "knight"), options=tides(["skull", "blank"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.asked() == [("casualties", "lannister")] and "skull" in b.requests()[0].prompt
    b.run(say("lannister", Casualties(units=(UnitSpec("knight"),))))
    assert b.done and b.units("kingswood", "lannister") == ["footman"]


def test_R230_R273_garrisons_ignore_skulls(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=(), area="winterfell", origin="moat_cailin",
                 areas='winterfell = { garrison = 2 }', options=tides(["skull", "blank"]))
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "eddard_stark"))
    assert b.done and b.results()[0].winner == "stark"
    assert [d.house for d in b.of(CasualtiesDue) if d.skulls] == ["stark"]
    assert b.state.area("winterfell").garrison == 2 and not [e for e in b.of(UnitsDestroyed) if e.house == "stark"]


def test_the_tides_deck_is_reshuffled_whole_before_every_combat_by_default(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), options=tides(["blank"], reshuffle=True))
    del state.options["tides_reshuffle_each_combat"]  # a state written before the setting existed
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and len(b.state.tides_deck) == 22 and len(b.state.tides_discards) == 2


def test_ruling_44_an_empty_tides_deck_is_rebuilt_from_its_discards(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",),
                 options=tides([], discards=["two", "two", "three"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    drawn = sorted(d.card for d in b.of(TidesDrawn))
    assert b.done and len(drawn) == 2 and set(drawn) <= {"two", "three"}
    assert len(b.state.tides_deck) == 1 and sorted(b.state.tides_discards) == drawn
