"""The invariants robot games check after every step, for Mother of Dragons' facts: each one broken
on purpose in a sound position, and caught (``engine/invariants.py``, ``GameState.check``)."""

from __future__ import annotations

import pytest

from adjudicator.engine.invariants import check_change, check_invariants
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Order, Unit

FOUR_T = ["stark", "lannister", "greyjoy", "targaryen"]  # vassals: tyrell, baratheon, martell, arryn


def sound(houses: list[str] = FOUR_T, *, round: int = 1, phase: str = "planning") -> GameState:
    """A new expansion game at a step boundary: vassals chosen, every player asked for orders."""
    s = new_mod_game(houses, seed="invariants")
    s.round, s.phase = round, phase
    s.dragon_tokens = [r for r in s.dragon_tokens if r > round]
    s.commanders, s.vassal_sets = dict.fromkeys(s.vassals, "stark"), []
    s.pending = [{"key": f"r{round}.{phase}.1.orders.{h}", "kind": "orders", "house": h, "prompt": "p"}
                 for h in s.players()]
    assert check_invariants(s) == []
    return s


def caught(s: GameState, *words: str) -> bool:
    return any(all(w in p for w in words) for p in check_invariants(s))


# --- vassals -----------------------------------------------------------------------------------------


def test_M070_a_vassals_castles_end_nothing():
    s = sound()
    castles = [a.id for a in s.board().land_areas() if a.has_castle and not s.area(a.id).units
               and s.controller(a.id, s.board()) is None][:7]
    for a in castles:
        s.area_mut(a).power_token = "tyrell"  # Tyrell, a vassal, holds seven castles: the game goes on
    assert s.castles("tyrell", s.board()) >= 7 and not caught(s, "castles but the game goes on")
    for a in castles:
        s.area_mut(a).power_token = "stark"
    assert caught(s, "stark holds", "castles but the game goes on")
    s.phase, s.winner = "game_over", "tyrell"  # a game ended with a vassal as winner
    assert caught(s, "vassal tyrell won", "M070")
    s.winner = "stark"
    assert not caught(s, "won the game (M070)")


def test_M010_M025_a_vassal_holds_no_house_cards_and_no_available_power():
    s = sound()
    s.houses["tyrell"].power = 1
    assert caught(s, "vassal tyrell", "M025")
    s = sound()
    s.houses["martell"].hand = ["doran_martell"]
    assert caught(s, "vassal martell", "M010")


def test_M030_M037_every_vassal_has_a_commander_once_the_choices_are_made():
    s = sound()
    del s.commanders["arryn"]
    assert caught(s, "arryn commanded by no player", "M030")
    s.phase = "action"
    assert caught(s, "arryn commanded by no player")
    s.phase = "planning"
    s.vassal_sets = ["greyjoy"]
    s.pending = [{"key": "r1.planning.1.vassal_choice.greyjoy", "kind": "vassal_choice", "house": "greyjoy", "prompt": "p"}]
    assert not caught(s, "commanded by no player")  # still being chosen
    s = sound(round=3, phase="westeros")
    s.commanders = {}  # a leaving player's vassals wait for the next Planning phase (ruling 262)
    assert not caught(s, "commanded by no player")


def test_M030_only_a_player_commands_a_vassal_and_each_set_is_a_players():
    s = sound()
    s.commanders["tyrell"] = "martell"
    assert caught(s, "martell commands tyrell", "M030")
    s = sound()
    s.vassal_sets = ["arryn"]
    assert caught(s, "not a player", "M019")


def test_M039_a_vassal_takes_at_most_two_orders_of_its_own_set():
    s = sound(phase="action")
    s.pending = [{"key": "r1.action.1.raid.stark", "kind": "raid", "house": "stark", "prompt": "p"}]
    tyrell = [a for a, _ in s.units_of("tyrell")]
    tokens = ["vassal_march", "vassal_raid_support", "vassal_defense_3"]
    for area, token in zip(tyrell, tokens[:2]):
        s.area_mut(area).order = Order("tyrell", token)
    assert check_invariants(s) == []
    s.area_mut(tyrell[2]).order = Order("tyrell", tokens[2])
    assert caught(s, "vassal tyrell has 3 orders", "M039")
    s.area_mut(tyrell[2]).order = Order("tyrell", "march+1")
    assert caught(s, "tyrell has a 'march+1' order, a token it does not own")
    s.area_mut(tyrell[2]).order = None
    s.area_mut(tyrell[1]).order = Order("tyrell", "vassal_march")
    assert caught(s, "tyrell has 2 'vassal_march' orders; it owns 1")


def test_M014_a_vassal_keeps_to_its_supply_limit():
    s = sound()
    area = next(a for a, _ in s.units_of("tyrell"))
    s.houses["tyrell"].supply = 0
    s.area_mut(area).units += [Unit("tyrell", "footman")] * 3
    assert caught(s, "tyrell's armies exceed its supply level 0")


# --- Targaryen ---------------------------------------------------------------------------------------


def test_M077_M083_loyalty_tokens_twenty_at_most_and_only_on_land():
    s = sound()
    s.area_mut("the_narrow_sea").loyalty = 1
    assert caught(s, "loyalty token outside a land area", "M083")
    s = sound()
    s.area_mut("winterfell").loyalty = 20
    assert caught(s, "21 loyalty tokens on the board", "M079")
    s = sound(["stark", "lannister", "greyjoy", "tyrell"])
    s.area_mut("winterfell").loyalty = 1
    assert caught(s, "1 loyalty tokens on the board", "M006")


@pytest.mark.parametrize("round", [1, 2, 5, 10])
def test_M089_M090_dragon_strength_follows_the_round_track(round):
    s = sound(round=round)
    assert s.dragon_strength(s.board()) == sum(1 for r in (2, 4, 6, 8, 10) if r <= round)
    if s.dragon_tokens:
        s.dragon_tokens.pop()  # a token taken early (Fire Made Flesh, ruling 217) breaks nothing
        assert check_invariants(s) == []
    if round >= 2:
        s.dragon_tokens = sorted({*s.dragon_tokens, 2})  # one left behind on a space passed does
        assert caught(s, "dragon strength tokens of rounds [2] still on the round track", "M090")


def test_M087_three_dragons_at_most_and_only_targaryens():
    s = sound()
    s.area_mut("pentos").units.append(Unit("targaryen", "dragon"))
    assert caught(s, "M087")
    s = sound()
    s.area_mut("winterfell").units.append(Unit("stark", "dragon"))
    assert caught(s, "M087")


def test_M097_targaryen_stays_in_position_8_of_every_track():
    s = sound()
    t = s.tracks["fiefdoms"]
    t[-1], t[-2] = t[-2], t[-1]
    assert caught(s, "position 8", "M097")


def test_M009_essos_is_on_the_board_only_with_targaryen():
    s = sound(["stark", "lannister", "greyjoy", "tyrell"])
    s.area_mut("braavos").units.append(Unit("stark", "footman"))
    assert caught(s, "unknown area 'braavos'")


# --- sea orders and the Iron Bank ------------------------------------------------------------------------


def test_M114_three_sea_orders_one_of_each():
    s = sound()
    ships = [a for a, u in s.units_of("greyjoy") if u.type == "ship"]
    s.area_mut(ships[0]).order = Order("greyjoy", "iron_bank")
    assert check_invariants(s) == []
    s.area_mut(ships[1]).order = Order("greyjoy", "iron_bank")
    assert caught(s, "greyjoy has 2 'iron_bank' orders; it owns 1")
    s.area_mut(ships[1]).order = Order("tyrell", "sea_march")
    assert caught(s, "tyrell has a 'sea_march' order, a token it does not own")


def test_M116_no_sea_order_is_left_on_land_once_orders_resolve():
    s = sound(phase="action")
    s.pending = [{"key": "r1.action.1.raid.stark", "kind": "raid", "house": "stark", "prompt": "p"}]
    s.area_mut("winterfell").order = Order("stark", "sea_support")
    assert caught(s, "sea orders left on land", "M116")
    s.phase = "planning"
    assert not caught(s, "sea orders left on land")  # placed on land, removed after the raven (ruling 258)


def test_M104_M105_each_loan_once_in_the_bank_and_three_slots():
    s = sound()
    loan = next(x for x in s.loan_slots if x)
    s.houses["stark"].loans.append(loan)
    assert caught(s, "a loan is in two places")
    s = sound()
    s.loan_slots = s.loan_slots[1:]
    assert caught(s, "slots, not 3", "M105")
    s = sound()
    s.loan_deck.pop()
    assert caught(s, "loans are not each exactly once")


def test_M111_M113_the_braavos_token_is_with_the_player_controlling_braavos():
    s = sound()
    s.braavos_token = "stark"  # the neutral force still stands: no one has defeated it
    assert caught(s, "while its neutral force stands", "M111")
    s.area_mut("braavos").neutral_force = None
    assert caught(s, "Braavos token is with stark, but no player controls", "M113")
    s.area_mut("braavos").units.append(Unit("lannister", "footman"))
    assert caught(s, "Braavos token is with stark, but lannister controls")
    s.braavos_token = "lannister"
    assert check_invariants(s) == []
    s.area_mut("braavos").units = [Unit("tyrell", "footman")]
    assert caught(s, "a vassal keeps", "ruling 257") or caught(s, "but no player controls")
    s.braavos_token = None
    assert check_invariants(s) == []
    s.braavos_token = "tyrell"
    assert caught(s, "a vassal keeps the Braavos token", "ruling 257")


# --- from one step to the next ------------------------------------------------------------------------


def test_M081_M090_M104_M111_M124_what_only_moves_one_way_between_two_steps():
    before = sound(round=4)
    before.loyalty_gained, before.houses["stark"].loans, before.houses["targaryen"].removed = 2, ["a"], ["khal_drogo"]
    before.loan_deck = []  # the invariants of one position are not under test here
    before.area_mut("braavos").neutral_force = None
    assert check_change(before, before.copy()) == []
    after = before.copy()
    after.round = 6
    after.loyalty_gained, after.dragon_tokens, after.vassals = 3, [8, 10], [*before.vassals, "lannister"]
    assert check_change(before, after) == []  # a token gained, a round reached, a player left
    for change, words in [
        (lambda s: setattr(s, "round", 3), "round 4 became round 3"),
        (lambda s: setattr(s, "loyalty_gained", 1), "M081"),
        (lambda s: s.dragon_tokens.append(4), "M090"),
        (lambda s: s.houses["stark"].loans.clear(), "M104"),
        (lambda s: s.houses["targaryen"].removed.clear(), "came back into the game"),
        (lambda s: setattr(s.area_mut("braavos"), "neutral_force", 5), "M111"),
        (lambda s: s.vassals.remove("tyrell"), "M124"),
        (lambda s: s.vassals.append("targaryen"), "M125"),
    ]:
        after = before.copy()
        change(after)
        assert any(words in p for p in check_change(before, after)), words


def test_every_step_of_a_robot_game_is_checked_against_the_one_before(monkeypatch):
    from adjudicator.robots import simulate as sim

    seen = []
    monkeypatch.setattr(sim, "check_change", lambda a, b: seen.append((a.round, b.round)) or ["broken on purpose"])
    r = sim.simulate(4, 1, rounds=1, text=False, expansion="mother-of-dragons")
    assert len(seen) == 1 and r.problems == ["step 1, round 1 planning: broken on purpose"]
