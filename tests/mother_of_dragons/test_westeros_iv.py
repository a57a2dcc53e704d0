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


def resolve(state: GameState, card: str, *answers: WesterosChoice, deadline: bool = False,
            answers_of: dict[str, list[WesterosChoice]] | None = None) -> Context:
    pool = [PoolEntry.from_dict(entry(T, a, round=state.round)) for a in answers]
    pool += [PoolEntry.from_dict(entry(h, a, round=state.round)) for h, cmds in (answers_of or {}).items() for a in cmds]
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


def test_domestic_disputes_costs_one_for_tokens_on_up_to_four_other_home_areas():
    s = tgame()
    power = s.houses[T].power
    ctx = resolve(s, "domestic_disputes", WesterosChoice(card="domestic_disputes", option="tyrell+stark"))
    assert placed(ctx) == ["storms_end", "winterfell", "highgarden"]  # named in any order, placed in house order
    assert s.houses[T].power == power - 1 and s.westeros_discards["4"] == ["domestic_disputes"]
    with pytest.raises(NeedAnswers):  # five houses, or Targaryen itself, are no choice
        resolve(tgame(), "domestic_disputes", WesterosChoice(card="domestic_disputes", option=f"stark+{T}"))


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


def test_playing_with_fire_puts_a_token_and_a_named_players_unit_on_an_uncontrolled_area():
    s = tgame()
    ctx = resolve(s, "playing_with_fire", WesterosChoice(card="playing_with_fire", option="stark+the_twins"),
                  answers_of={"stark": [WesterosChoice(card="playing_with_fire", option="knight")]})
    assert placed(ctx) == ["riverrun", "the_arbor", "the_twins"]
    assert [(u.house, u.type) for u in s.area("the_twins").units] == [("stark", "knight")]
    with pytest.raises(NeedAnswers):  # Winterfell is Stark's: not uncontrolled
        resolve(tgame(), "playing_with_fire", WesterosChoice(card="playing_with_fire", option="winterfell+stark"))


def test_scattering_dissent_each_player_in_reverse_turn_order_moves_a_token_targaryen_may_cancel():
    s = tgame()
    movers = [h for h in s.turn_order() if h in s.players()][::-1]
    assert movers[0] == T  # last in turn order, first to move
    power = s.houses[T].power
    ctx = resolve(s, "scattering_dissent", WesterosChoice(card="scattering_dissent", option="oldtown+three_towers"),
                  WesterosChoice(card="scattering_dissent", option="cancel"), deadline=True,
                  answers_of={movers[1]: [WesterosChoice(card="scattering_dissent", option="karhold+winterfell")]})
    moves = of(ctx.events, LoyaltyMoved)
    assert [m.house for m in moves] == movers
    assert all(s.board().adjacent(m.origin, m.destination) for m in moves)
    assert (moves[0].origin, moves[0].destination, moves[0].cancelled) == ("oldtown", "three_towers", False)
    assert (moves[1].origin, moves[1].destination, moves[1].cancelled) == ("karhold", "winterfell", True)
    assert not any(m.cancelled for m in moves[2:])  # one cancel answered; the rest by default
    assert s.houses[T].power == power - 1


def test_word_spreads_quickly_each_player_in_turn_order_moves_a_token():
    s = tgame()
    ctx = resolve(s, "word_spreads_quickly", deadline=True)
    players = [h for h in s.turn_order() if h in s.players()]
    assert [m.house for m in of(ctx.events, LoyaltyMoved)] == players
    assert not any(m.cancelled for m in of(ctx.events, LoyaltyMoved))  # by default Targaryen pays nothing


def test_a_loyalty_move_that_is_not_to_an_adjacent_area_is_refused():
    s = tgame()
    mover = [h for h in s.turn_order() if h in s.players()][0]
    pool = [PoolEntry.from_dict(entry(mover, WesterosChoice(card="word_spreads_quickly",
                                                            option="kings_landing+winterfell"), round=2))]
    ctx = Context(s, s.board(), Segment("westeros", {}), pool, False)
    with pytest.raises(NeedAnswers):
        resolve_card(ctx, 4, "word_spreads_quickly")
    refused = [e.reason for e in [*ctx.events, *ctx.transient] if type(e).__name__ == "AnswerUnusable"]
    assert refused and "adjacent land area" in refused[0] and "M083" in refused[0]


def test_southron_ambitions_token_on_blackwater_or_the_boneway():
    s = tgame()
    ctx = resolve(s, "southron_ambitions", WesterosChoice(card="southron_ambitions", option="the_boneway"))
    assert placed(ctx) == ["searoad_marches", "dornish_marches", "the_boneway"]


def test_strongholds_of_resistance_token_on_harrenhal_or_white_harbor():
    s = tgame()
    ctx = resolve(s, "strongholds_of_resistance", WesterosChoice(card="strongholds_of_resistance", option="harrenhal"))
    assert placed(ctx) == ["seagard", "harrenhal"]


def test_the_long_plan_lets_a_named_player_place_two_tokens_where_it_likes():
    s = tgame()
    ctx = resolve(s, "the_long_plan", WesterosChoice(card="the_long_plan", option="lannister"),
                  answers_of={"lannister": [WesterosChoice(card="the_long_plan", option="the_eyrie+seagard")]})
    assert placed(ctx) == ["castle_black", "yronwood", "the_eyrie", "seagard"]
    s = tgame()
    pool = [PoolEntry.from_dict(entry(T, WesterosChoice(card="the_long_plan", option="lannister"), round=2)),
            PoolEntry.from_dict(entry("lannister", WesterosChoice(card="the_long_plan", option="the_eyrie+the_eyrie"),
                                      round=2))]
    ctx = Context(s, s.board(), Segment("westeros", {}), pool, False)
    with pytest.raises(NeedAnswers):
        resolve_card(ctx, 4, "the_long_plan")
    refused = [e.reason for e in [*ctx.events, *ctx.transient] if type(e).__name__ == "AnswerUnusable"]
    assert refused and "two different land areas" in refused[0] and "M083" in refused[0]


def test_watering_the_seed_costs_the_victory_position_for_two_river_areas():
    s = tgame()
    power, cost = s.houses[T].power, s.victory(T, s.board())
    ctx = resolve(s, "watering_the_seed", WesterosChoice(card="watering_the_seed", option="seagard+riverrun"))
    assert placed(ctx) == ["riverrun", "seagard"] and s.houses[T].power == power - cost
    with pytest.raises(NeedAnswers):  # King's Landing is beside no river (ruling 210)
        resolve(tgame(), "watering_the_seed", WesterosChoice(card="watering_the_seed", option="kings_landing+riverrun"))


@pytest.mark.parametrize("line", ["Empty Promises: Moat Cailin", "Fire Made Flesh: destroy dragon in Norvos",
                                  "Fire Made Flesh: muster", "Southron Ambitions: nothing",
                                  "Domestic Disputes: stark, lannister, tyrell", "Watering the Seed: Riverrun, Seagard",
                                  "The Long Plan: stark", "Playing With Fire: The Twins, stark",
                                  "Playing With Fire: siege engine", "Scattering Dissent: Karhold, Winterfell",
                                  "Word Spreads Quickly: cancel"])
def test_M083_deck_iv_choices_print_and_parse_back(line):
    text = f"game g · house {T} · round 2 · westeros · seq 1\n{line}\n"
    tf = parse_turn_file(text, variant="mother-of-dragons")
    cmds = [c for c in tf.commands if isinstance(c, WesterosChoice)]
    assert len(cmds) == 1 and format_command(cmds[0]) == line
    assert CARDS.westeros_card(4, cmds[0].card).deck == 4


def test_the_guides_mother_of_dragons_examples_parse_in_the_expansions_vocabulary():
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "turn-files.md").read_text("utf-8")
    blocks = re.findall(r"```turn-mod\n(.*?)```", guide, re.DOTALL)
    assert any("distribute" in b for b in blocks) and any("empty promises" in b for b in blocks)
    for body in blocks:
        tf = parse_turn_file(body, variant="mother-of-dragons")
        assert not tf.problems, [p.render() for p in tf.problems]
        assert len(tf.commands) == len([ln for ln in body.splitlines() if ln.strip()])
        assert [format_command(c) for c in parse_turn_file("\n".join(format_command(c) for c in tf.commands),
                                                            variant="mother-of-dragons").commands] == \
            [format_command(c) for c in tf.commands]


def test_loyalty_moves_do_not_depend_on_the_processs_hash_seed():
    """Was wrong: the first adjacent area was read from a frozenset, whose order changes with
    PYTHONHASHSEED, so `maester replay` derived another position than the one adjudicated."""
    import os
    import subprocess
    import sys

    script = (
        "from adjudicator.engine.core.context import Context\n"
        "from adjudicator.engine.rules.westeros import resolve_card\n"
        "from adjudicator.game.mod_setup import new_mod_game\n"
        "from adjudicator.game.state import Segment\n"
        "s = new_mod_game(['stark', 'lannister', 'arryn', 'targaryen'], seed='iv')\n"
        "s.round, s.phase = 2, 'westeros'\n"
        "ctx = Context(s, s.board(), Segment('westeros', {}), [], True)\n"
        "resolve_card(ctx, 4, 'word_spreads_quickly')\n"
        "print([e.describe() for e in ctx.events])\n"
    )
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(runs) == 1 and "moves a loyalty token" in runs.pop()


def test_playing_with_fire_never_names_a_home_area_its_house_still_holds():
    s = tgame()
    s.area_mut("winterfell").units = []
    s.area_mut("winterfell").garrison = 0  # empty, but still Stark's by its home (R247)
    with pytest.raises(NeedAnswers):
        resolve(s, "playing_with_fire", WesterosChoice(card="playing_with_fire", option="winterfell+lannister"))
