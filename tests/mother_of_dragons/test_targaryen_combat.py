"""Targaryen's dragons and cards in real combats (M088, M092, M094, M095; sets A's removals)."""

from __future__ import annotations

from rules.helpers import entry, of

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import CardAbility, CombatResolved
from adjudicator.engine.invariants import check_invariants
from adjudicator.engine.machine import advance
from adjudicator.game.commands import Casualties, March, Move, PlayCard, Retreat, UnitSpec
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Order, Unit

T = "targaryen"


def flight(dragons: int = 2, defenders: tuple[str, ...] = ("footman",)) -> GameState:
    """Targaryen's dragons in The Rhoyne about to fly to Winterfell, held by Stark."""
    s = new_mod_game(["stark", "lannister", "arryn", T], seed="combat")
    s.phase, s.step = "action", "marches"
    s.area_mut("the_rhoyne").units = [Unit(T, "dragon") for _ in range(dragons)]
    s.area_mut("the_rhoyne").order = Order(T, "march+0")
    s.area_mut("winterfell").units = [Unit("stark", u) for u in defenders]
    return s


def fight(s: GameState, *answers: dict[str, object]):
    march = March(origin="the_rhoyne", moves=(Move(destination="winterfell", units=(UnitSpec("dragon", 2),)),))
    return advance(s, [entry(T, march), *answers], deadline=lambda r: r.key.startswith("r1.action"))


def test_M095_ruling_250_a_beaten_attacking_dragon_flies_back_to_where_it_flew_from():
    step = fight(flight(), entry("stark", PlayCard(card="roose_bolton")), entry(T, PlayCard(card="ser_jorah_mormont")))
    result = of(step.events, CombatResolved)
    assert [(r.attacker, r.defender, r.winner) for r in result] == [(T, "stark", "stark")]
    st = step.state
    assert [u.type for u in st.area("the_rhoyne").units] == ["dragon", "dragon"]  # back home by air
    assert not [u for u in st.area("winterfell").units if u.house == T]


def test_M094_dragons_may_be_lost_as_casualties():
    step = fight(flight(), entry("stark", PlayCard(card="eddard_stark")), entry(T, PlayCard(card="arstan_whitebeard")),
                 entry(T, Casualties(units=(UnitSpec("dragon", 1),))))
    lost = [e for e in of(step.events, UnitsDestroyed) if e.house == T]
    assert lost and "dragon" in lost[0].units
    assert sum(1 for _, u in step.state.units_of(T) if u.type == "dragon") == 2


def test_M088_a_dragon_attacks_with_the_strength_of_the_tokens_in_the_box():
    s = flight()
    s.dragon_tokens = [6, 8, 10]  # two tokens in the box: each dragon 2
    step = fight(s, entry("stark", PlayCard(card="catelyn_stark")), entry(T, PlayCard(card="ser_jorah_mormont")))
    combat = of(step.events, CombatResolved)[0]
    assert ("units:dragon", 4) in combat.attacker_strength


def test_illyrio_mopatis_in_a_real_combat_gives_power_and_leaves_the_game():
    s = flight()
    step = fight(s, entry("stark", PlayCard(card="eddard_stark")), entry(T, PlayCard(card="illyrio_mopatis")),
                 entry(T, Casualties(units=(UnitSpec("dragon", 2),))))
    hs = step.state.houses[T]
    assert hs.removed == ["illyrio_mopatis"] and "illyrio_mopatis" not in hs.hand + hs.discards
    assert any("removed from the game" in e.effect for e in of(step.events, CardAbility))
    assert not [p for p in check_invariants(step.state) if "house cards" in p]


def test_khal_drogo_in_a_real_combat_leaves_the_game_after_it():
    step = fight(flight(), entry("stark", PlayCard(card="catelyn_stark")), entry(T, PlayCard(card="khal_drogo")))
    hs = step.state.houses[T]
    assert hs.removed == ["khal_drogo"] and "khal_drogo" not in hs.discards


def test_viserys_in_a_real_combat_adds_the_discarded_cards_strength():
    from adjudicator.game.commands import CardChoice

    step = fight(flight(), entry("stark", PlayCard(card="catelyn_stark")), entry(T, PlayCard(card="viserys_targaryen")),
                 entry(T, CardChoice(card="viserys_targaryen", house_card="khal_drogo")))
    combat = of(step.events, CombatResolved)[0]
    assert ("ability:viserys_targaryen", 4) in combat.attacker_strength and combat.winner == T
    hs = step.state.houses[T]
    assert "khal_drogo" in hs.discards and "viserys_targaryen" in hs.discards and not hs.removed


def test_M095_ruling_250_a_beaten_defending_dragon_retreats_without_flying():
    s = new_mod_game(["stark", "lannister", "arryn", T], seed="combat")
    s.phase, s.step = "action", "marches"
    s.area_mut("the_rhoyne").units = [Unit(T, "dragon")]  # the third dragon waits in Castle Black
    s.area_mut("castle_black").units = [Unit(T, "dragon")]
    s.area_mut("winterfell").units = [Unit("stark", "knight"), Unit("stark", "knight")]
    s.area_mut("winterfell").order = Order("stark", "march+0")
    march = March(origin="winterfell", moves=(Move(destination="castle_black", units=(UnitSpec("knight", 2),)),))
    step = advance(s, [entry("stark", march), entry("stark", PlayCard(card="roose_bolton")),
                       entry(T, PlayCard(card="ser_jorah_mormont")), entry(T, Retreat(areas=("pentos",)))],
                   deadline=lambda r: r.key.startswith("r1.action"))
    refused = [e.reason for e in step.events if type(e).__name__ == "AnswerUnusable" and e.house == T]
    assert refused, "a flight to Pentos is no retreat"
    retreated = [a for a, u in step.state.units_of(T) if u.type == "dragon" and a not in ("norvos", "the_rhoyne")]
    assert len(retreated) == 1 and step.state.board().adjacent("castle_black", retreated[0])


def test_M089_a_supporting_dragon_gives_the_strength_of_the_tokens_in_the_box():
    from adjudicator.engine.events.combat import SupportDeclared
    from adjudicator.game.commands import Support

    s = flight()
    s.dragon_tokens = [6, 8, 10]  # two tokens in the box: each dragon 2
    s.area_mut("castle_black").units = [Unit(T, "dragon")]
    s.area_mut("castle_black").order = Order(T, "support+0")
    step = fight(s, entry(T, Support(side="attacker")), entry("stark", PlayCard(card="catelyn_stark")),
                 entry(T, PlayCard(card="ser_jorah_mormont")))
    declared = [(d.supporter, d.area, d.side, d.strength) for d in of(step.events, SupportDeclared)]
    assert declared == [(T, "castle_black", T, 2)]
    combat = of(step.events, CombatResolved)[0]
    assert ("support:targaryen:castle_black", 2) in combat.attacker_strength


def test_daenerys_targaryen_b_leaves_an_opponent_with_no_power_at_none():
    """The opponent discards the difference of the final strengths, as much as it has: at 0, nothing."""
    from adjudicator.engine.core.common import PowerChanged

    s = flight()
    s.dragon_tokens = [6, 8, 10]  # two tokens in the box: each dragon 2
    s.houses[T].hand = ["daenerys_targaryen_b", *[c for c in s.houses[T].hand if c != "daenerys_targaryen_b"]]
    s.houses["stark"].power = 0
    step = fight(s, entry("stark", PlayCard(card="catelyn_stark")), entry(T, PlayCard(card="daenerys_targaryen_b")))
    combat = of(step.events, CombatResolved)[0]
    assert combat.winner == T and combat.attacker_total > combat.defender_total
    assert step.state.houses["stark"].power == 0
    (lost,) = [e for e in of(step.events, PowerChanged) if e.house == "stark"]
    assert (lost.amount, lost.power) == (0, 0) and lost.describe().startswith("Stark has no power to discard")
