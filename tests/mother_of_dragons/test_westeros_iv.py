"""Westeros deck IV (M082, M083; docs/rules-mother-of-dragons.md section 9.8): one test per card."""

from __future__ import annotations

import pytest
from rules.helpers import entry, of

from adjudicator.engine.core.context import Context, NeedAnswers, PoolEntry
from adjudicator.engine.events.targaryen import DragonReturned, DragonStrengthGained, LoyaltyMoved, LoyaltyPlaced
from adjudicator.engine.events.westeros import WesterosCardResolved, WesterosCardRevealed, WesterosChoiceMade
from adjudicator.engine.rules import westeros
from adjudicator.engine.rules.westeros import resolve_card
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import WesterosChoice
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Segment, Unit
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

T = "targaryen"
FOUR_T = ["stark", "lannister", "arryn", T]


def tgame() -> GameState:
    s = new_mod_game(FOUR_T, seed="iv")
    s.round, s.phase = 2, "westeros"
    return s


def resolve(state: GameState, card: str, *answers: WesterosChoice, deadline: bool = False) -> Context:
    pool = [PoolEntry.from_dict(entry(T, a, round=state.round)) for a in answers]
    ctx = Context(state, state.board(), Segment("westeros", {}), pool, deadline)
    resolve_card(ctx, 4, card)
    return ctx


def placed(ctx: Context) -> list[str]:
    return [e.area for e in of(ctx.events, LoyaltyPlaced) if e.placed]


def _westeros_phase(state: GameState) -> list[object]:
    """Run a whole Westeros phase, every choice by its default; its events."""
    ctx = Context(state, state.board(), Segment("westeros", {}), [], True)
    while state.phase == "westeros":
        westeros.run(ctx)
    return ctx.events


def test_M082_deck_iv_is_revealed_after_iii_and_the_four_resolve_in_order():
    s = tgame()
    events = _westeros_phase(s)
    assert [e.deck for e in of(events, WesterosCardRevealed)][:4] == [1, 2, 3, 4]
    resolved = [e.deck for e in of(events, WesterosCardResolved)]
    assert resolved[-1] == 4 and 4 not in resolved[:-1] and resolved.index(3) < resolved.index(4)
    classic = new_game(["stark", "lannister", "baratheon"], seed="iv")
    classic.round, classic.phase = 2, "westeros"
    assert 4 not in {e.deck for e in of(_westeros_phase(classic), WesterosCardResolved)}


def test_M083_ruling_269_the_banner_comes_first_then_the_text():
    s = tgame()
    ctx = resolve(s, "empty_promises", WesterosChoice(card="empty_promises", option="moat_cailin"))
    kinds = [type(e).__name__ for e in ctx.events if isinstance(e, (LoyaltyPlaced, WesterosChoiceMade))]
    assert kinds == ["LoyaltyPlaced", "WesterosChoiceMade", "LoyaltyPlaced"]
    assert placed(ctx) == ["the_stony_shore", "moat_cailin"]


def test_M083_ruling_269_a_banner_token_on_an_area_targaryen_controls_is_gained_at_once():
    s = tgame()
    s.area_mut("the_stony_shore").units = [Unit(T, "footman")]
    resolve(s, "empty_promises", deadline=True)
    assert s.area("the_stony_shore").loyalty == 0 and s.loyalty_gained == 1


def test_domestic_disputes_puts_its_banner_on_storms_end():
    s = tgame()
    ctx = resolve(s, "domestic_disputes")
    assert placed(ctx) == ["storms_end"]
    assert s.westeros_discards["4"] == ["domestic_disputes"]


def test_empty_promises_costs_one_power_for_a_token_on_one_of_its_two_areas():
    s = tgame()
    power = s.houses[T].power
    resolve(s, "empty_promises", WesterosChoice(card="empty_promises", option="the_mountains_of_the_moon"))
    assert s.houses[T].power == power - 1 and s.area("the_mountains_of_the_moon").loyalty == 1
    s2 = tgame()
    with pytest.raises(NeedAnswers):  # Winterfell is not one of its areas: refused, still waiting
        resolve(s2, "empty_promises", WesterosChoice(card="empty_promises", option="winterfell"))


def test_empty_promises_without_power_offers_nothing():
    s = tgame()
    s.houses[T].power = 0
    ctx = resolve(s, "empty_promises")  # no question: the only choice is nothing
    assert placed(ctx) == ["the_stony_shore"]


def test_fire_made_flesh_destroying_a_dragon_moves_a_strength_token_into_the_box():
    s = tgame()
    ctx = resolve(s, "fire_made_flesh", WesterosChoice(card="fire_made_flesh", option="destroy norvos"))
    assert not [u for u in s.area("norvos").units if u.type == "dragon"]
    assert s.dragon_tokens == [2, 4, 6, 8] and s.dragon_strength(s.board()) == 1
    assert [e.cause for e in of(ctx.events, DragonStrengthGained)] == ["Fire Made Flesh"]


def test_fire_made_flesh_brings_a_destroyed_dragon_back_to_pentos():
    s = tgame()
    s.area_mut("norvos").units = [u for u in s.area("norvos").units if u.type != "dragon"]
    ctx = resolve(s, "fire_made_flesh", WesterosChoice(card="fire_made_flesh", option="muster"))
    assert [u.type for u in s.area("pentos").units].count("dragon") == 1 and of(ctx.events, DragonReturned)
    s2 = tgame()  # all three dragons on the board: nothing to bring back
    with pytest.raises(NeedAnswers):
        resolve(s2, "fire_made_flesh", WesterosChoice(card="fire_made_flesh", option="muster"))


def test_playing_with_fire_puts_its_banner_on_riverrun_and_the_arbor():
    assert placed(resolve(tgame(), "playing_with_fire")) == ["riverrun", "the_arbor"]


def test_scattering_dissent_each_player_in_reverse_turn_order_moves_a_token():
    s = tgame()
    ctx = resolve(s, "scattering_dissent")
    moves = of(ctx.events, LoyaltyMoved)
    players = [h for h in s.turn_order() if h in s.players()]
    assert [m.house for m in moves] == players[::-1]
    assert all(s.board().adjacent(m.origin, m.destination) for m in moves)


def test_southron_ambitions_token_on_blackwater_or_the_boneway():
    s = tgame()
    ctx = resolve(s, "southron_ambitions", WesterosChoice(card="southron_ambitions", option="the_boneway"))
    assert placed(ctx) == ["searoad_marches", "dornish_marches", "the_boneway"]


def test_strongholds_of_resistance_token_on_harrenhal_or_white_harbor():
    s = tgame()
    ctx = resolve(s, "strongholds_of_resistance", WesterosChoice(card="strongholds_of_resistance", option="harrenhal"))
    assert placed(ctx) == ["seagard", "harrenhal"]


def test_the_long_plan_puts_its_banner_on_castle_black_and_yronwood():
    assert placed(resolve(tgame(), "the_long_plan")) == ["castle_black", "yronwood"]


def test_watering_the_seed_has_no_banner():
    assert placed(resolve(tgame(), "watering_the_seed")) == []


def test_word_spreads_quickly_each_player_in_turn_order_moves_a_token():
    s = tgame()
    ctx = resolve(s, "word_spreads_quickly")
    players = [h for h in s.turn_order() if h in s.players()]
    assert [m.house for m in of(ctx.events, LoyaltyMoved)] == players


@pytest.mark.parametrize("line", ["Empty Promises: Moat Cailin", "Fire Made Flesh: destroy dragon in Norvos",
                                  "Fire Made Flesh: muster", "Southron Ambitions: nothing"])
def test_M083_deck_iv_choices_print_and_parse_back(line):
    text = f"game g · house {T} · round 2 · westeros · seq 1\n{line}\n"
    tf = parse_turn_file(text, variant="mother-of-dragons")
    cmds = [c for c in tf.commands if isinstance(c, WesterosChoice)]
    assert len(cmds) == 1 and format_command(cmds[0]) == line
    assert CARDS.westeros_card(4, cmds[0].card).deck == 4
