"""House Targaryen (M075-M102): loyalty tokens and victory, Pentos, dragons, tracks and bids.

Westeros deck IV has its own file (``test_westeros_iv.py``); the Targaryen house cards theirs
(``tests/cards/test_targaryen_cards.py``).
"""

from __future__ import annotations

import pytest
from rules.helpers import entry, of

from adjudicator.engine.cards.wildlings import Outcome, preemptive_raid
from adjudicator.engine.core.bidding import bid_for_track
from adjudicator.engine.core.common import after_control_change, army_sizes
from adjudicator.engine.core.context import Context, GameOver, NeedAnswers, PoolEntry
from adjudicator.engine.core.mustering import check_muster
from adjudicator.engine.core.targaryen import loyalty_left, place_loyalty
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.action import AttackDeclared
from adjudicator.engine.events.targaryen import BidGiven, DragonStrengthGained, LoyaltyGained, PentosGarrisonReturned
from adjudicator.engine.invariants import check_invariants
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import action
from adjudicator.engine.rules.endgame import standings
from adjudicator.engine.rules.marches import march_problem, unit_strength
from adjudicator.engine.rules.westeros import collect_power
from adjudicator.game.commands import Bid, DistributeBid, Gift, March, Move, MusterAction, UnitSpec
from adjudicator.game.mod_board import MOD, WESTEROSI
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import SetupError
from adjudicator.game.state import GameState, Order, Segment, Unit

FOUR_T = ["stark", "lannister", "arryn", "targaryen"]
T = "targaryen"


def tgame(houses: list[str] = FOUR_T, seed: str = "targ") -> GameState:
    return new_mod_game(houses, seed=seed)


def ctx_of(state: GameState, phase: str = "action", deadline: bool = False) -> Context:
    return Context(state, state.board(), Segment(phase, {}), [], deadline)


def fly(origin: str, dest: str, n: int = 1, unit: str = "dragon") -> March:
    return March(origin=origin, moves=(Move(destination=dest, units=(UnitSpec(unit, n),)),))


def with_march(state: GameState, area: str, house: str = T) -> GameState:
    state.area_mut(area).order = Order(house, "march+0")
    return state


# --- 4.1 In general --------------------------------------------------------------------------------


def test_M075_targaryen_plays_from_4_players_never_as_a_vassal_and_begins_on_essos():
    with pytest.raises(SetupError, match="M004"):
        new_mod_game(["stark", "lannister", T], seed="x")
    s = tgame()
    board = s.board()
    assert T in s.players() and not s.is_vassal(T)
    assert {board.area(a).board for a, _ in s.units_of(T)} == {"essos"}
    assert board.houses[T].home_area == "pentos"
    seven = new_mod_game(list(WESTEROSI), seed="x")  # seven players: Targaryen is not in the game at all
    assert T not in seven.houses_in_play and T not in seven.vassals


# --- 4.2 Loyalty tokens and victory ----------------------------------------------------------------


def test_M076_seven_castles_never_win_for_targaryen_its_track_counts_loyalty():
    s = tgame()
    board = s.board()
    castles = [a.id for a in board.land_areas() if a.has_castle and a.id != "pentos"][:7]
    for a in castles:
        s.areas.pop(a, None)
        s.area_mut(a).units = [Unit(T, "footman")]
    assert s.castles(T, board) >= 7
    ctx = ctx_of(s)
    after_control_change(ctx)  # no GameOver
    assert s.phase != "game_over" and s.victory(T, board) == 1
    assert {r[0]: r[1] for r in standings(s, board)}[T] == 1  # ranked by its track, not castles (ruling 247)


def test_M077_loyalty_tokens_share_an_area_and_do_not_affect_other_houses():
    s = tgame()
    board = s.board()
    before = (s.controller("winterfell", board), s.victory("stark", board), s.houses["stark"].supply)
    ctx = ctx_of(s)
    for _ in range(3):
        assert place_loyalty(ctx, "winterfell", "a test")
    after_control_change(ctx)
    assert s.area("winterfell").loyalty == 3
    assert (s.controller("winterfell", board), s.victory("stark", board), s.houses["stark"].supply) == before


def test_M078_ruling_246_targaryen_gains_every_token_of_an_area_it_comes_to_control():
    s = with_march(tgame(), "norvos")
    s.phase, s.step = "action", "marches"
    s.area_mut("the_disputed_lands").loyalty = 2
    step = advance(s, [entry(T, fly("norvos", "the_disputed_lands"))])
    gained = of(step.events, LoyaltyGained)
    assert [(e.area, e.count, e.victory) for e in gained] == [("the_disputed_lands", 2, 3)]
    assert step.state.area("the_disputed_lands").loyalty == 0 and step.state.loyalty_gained == 2


def test_M079_ruling_269_twenty_tokens_gained_ones_go_back_to_the_supply():
    s = tgame()
    board = s.board()
    assert loyalty_left(s, board) == 19  # one lies in King's Landing (M023)
    ctx = ctx_of(s)
    for _ in range(4):
        place_loyalty(ctx, "winterfell", "a test")
    s.area_mut("winterfell").units = [Unit(T, "dragon")]
    after_control_change(ctx)
    assert s.loyalty_gained == 4 and loyalty_left(s, board) == 19  # back in the supply, to be placed again
    for _ in range(19):
        assert place_loyalty(ctx, "riverrun", "a test")
    assert not place_loyalty(ctx, "seagard", "a test") and s.area("seagard").loyalty == 0


def test_M080_targaryen_wins_at_once_on_space_7():
    s = tgame()
    s.loyalty_gained = 5  # + Pentos = 6
    s.area_mut("myr").units = [Unit(T, "footman")]
    s.area_mut("myr").loyalty = 1
    ctx = ctx_of(s)
    with pytest.raises(GameOver):
        after_control_change(ctx)
    assert s.winner == T and s.phase == "game_over" and s.victory(T, s.board()) == 7



def test_M080_the_win_on_space_7_is_told_by_its_track_not_castles():
    from adjudicator.engine.core.common import GameWon

    s = tgame()
    s.loyalty_gained = 6  # + Pentos = 7
    ctx = ctx_of(s)
    with pytest.raises(GameOver):
        after_control_change(ctx)
    (won,) = of(ctx.events, GameWon)
    assert (won.winner, won.reason) == (T, "space 7 of the victory track, by loyalty tokens and Pentos")

def test_M081_targaryen_never_loses_the_spaces_loyalty_gave_it():
    s = tgame()
    board = s.board()
    s.loyalty_gained = 4
    s.area_mut("pentos").garrison = 0
    s.area_mut("pentos").units = [Unit("stark", "footman")]
    assert s.victory(T, board) == 4  # Pentos's point goes, the four tokens stay


# --- 4.3 Westeros IV: tests/mother_of_dragons/test_westeros_iv.py ---------------------------------
# --- 4.4 Pentos (M084 is in test_model.py) ---------------------------------------------------------


def test_M085_losing_pentos_moves_targaryen_back_one_space():
    s = tgame()
    board = s.board()
    assert s.victory(T, board) == 1
    s.area_mut("pentos").units = [Unit("stark", "knight")]
    s.area_mut("pentos").garrison = 0
    assert s.victory(T, board) == 0


def test_M086_ruling_248_regaining_pentos_moves_up_one_and_brings_the_garrison_back():
    s = tgame()
    board = s.board()
    s.area_mut("pentos").garrison = 0
    s.area_mut("pentos").units = [Unit("stark", "knight")]
    ctx = ctx_of(s)
    s.area_mut("pentos").units = []  # Stark leaves: the home shield gives Pentos back (R247)
    after_control_change(ctx)
    assert s.area("pentos").garrison == board.houses[T].garrison_strength == 2
    assert of(ctx.events, PentosGarrisonReturned) and s.victory(T, board) == 1
    assert not [p for p in check_invariants(s, board) if "M086" in p]


# --- 4.5 Dragons -------------------------------------------------------------------------------------


def test_M087_dragons_start_on_the_board_and_are_never_mustered():
    s = tgame()
    board = s.board()
    assert sum(1 for _, u in s.units_of(T) if u.type == "dragon") == MOD.constants["dragon_units"] == 3
    s.areas.pop("norvos")  # one dragon destroyed: still none to muster
    why = check_muster(s, board, T, "pentos", (MusterAction(unit="dragon"),), 2)
    assert why is not None and "mustered" in why


def test_M088_a_dragon_is_a_land_unit_that_counts_for_supply():
    s = tgame()
    s.area_mut("the_rhoyne").units = [Unit(T, "dragon"), Unit(T, "dragon")]
    assert 2 in army_sizes(s, T)
    s.area_mut("sea_of_myrth").units.append(Unit(T, "ship"))
    assert march_problem(s, s.board(), T, fly("the_rhoyne", "sea_of_myrth")) is not None  # never to sea


def test_M089_a_dragons_strength_is_the_tokens_in_the_box_zero_at_first():
    s = tgame()
    board = s.board()
    assert s.dragon_strength(board) == 0 and unit_strength("dragon", False, s.dragon_strength(board)) == 0
    s.dragon_tokens = [6, 8, 10]
    assert s.dragon_strength(board) == 2


def test_M090_ruling_274_the_round_marker_puts_its_dragon_token_into_the_box():
    s = tgame()
    s.phase, s.step = "action", ""
    ctx = ctx_of(s)
    action.clean_up(ctx)
    assert s.round == 2 and s.dragon_tokens == [4, 6, 8, 10] and s.dragon_strength(s.board()) == 1
    assert [e.round for e in of(ctx.events, DragonStrengthGained)] == [2]
    ctx = ctx_of(s)
    action.clean_up(ctx)  # round 3 holds no token
    assert s.dragon_tokens == [4, 6, 8, 10] and not of(ctx.events, DragonStrengthGained)


def test_M091_ruling_249_a_dragon_flies_to_any_land_area_of_either_board_never_to_sea():
    s = with_march(tgame(), "norvos")
    board = s.board()
    assert march_problem(s, board, T, fly("norvos", "castle_black")) is None
    why = march_problem(s, board, T, fly("norvos", "the_narrow_sea"))
    assert why is not None and "M091" in why


def test_M092_a_dragon_flying_into_enemy_units_starts_a_combat():
    s = with_march(tgame(), "norvos")
    s.phase, s.step = "action", "marches"
    s.area_mut("winterfell").order = None
    step = advance(s, [entry(T, fly("norvos", "winterfell"))])
    attacks = of(step.events, AttackDeclared)
    assert [(a.house, a.area, a.defender) for a in attacks] == [(T, "winterfell", "stark")]


def test_M093_only_dragons_fly():
    s = tgame()
    s.area_mut("norvos").units.append(Unit(T, "footman"))
    with_march(s, "norvos")
    board = s.board()
    why = march_problem(s, board, T, fly("norvos", "castle_black", unit="footman"))
    assert why is not None and "M093" in why
    both = March(origin="norvos", moves=(Move(destination="castle_black",
                                               units=(UnitSpec("dragon", 1), UnitSpec("footman", 1))),))
    assert march_problem(s, board, T, both) is not None


# --- 4.6 Power, tracks and bidding ----------------------------------------------------------------


def test_M096_targaryen_collects_power_like_any_house():
    s = tgame()
    ctx = ctx_of(s, "westeros")
    before = s.houses[T].power
    collect_power(ctx)
    crowns = sum(a.power for a in s.land_areas(s.board()) if s.controller(a.id, s.board()) == T)
    assert any(u.type == "ship" for u in s.area("port_of_pentos").units)  # a trading port (R045)
    assert crowns > 0 and s.houses[T].power == before + crowns + 1


def test_M098_ruling_251_targaryen_in_position_8_always_has_three_stars():
    s = tgame(["stark", "lannister", "arryn", "greyjoy", "tyrell", "baratheon", "martell", T])
    assert s.position("kings_court", T) == 8 and s.stars(T, s.board()) == 3


def test_M102_targaryen_may_leave_a_power_token_in_an_area_its_march_leaves():
    s = tgame()
    s.area_mut("myr").units = [Unit(T, "footman")]
    with_march(s, "myr")
    cmd = March(origin="myr", leave_power=True, moves=(Move(destination="the_disputed_lands",
                                                             units=(UnitSpec("footman", 1),)),))
    assert march_problem(s, s.board(), T, cmd) is None


# --- bids (M099-M101) ----------------------------------------------------------------------------------


def _ties(request: object) -> bool:
    """The Iron Throne holder's default tie-break (not under test here)."""
    return getattr(request, "kind", "") == "tie_break"


def bidding(state: GameState, *answers: tuple[str, object], deadline: bool = False) -> Context:
    pool = [PoolEntry.from_dict(entry(h, c, round=state.round)) for h, c in answers]
    ctx = Context(state, state.board(), Segment("westeros", {}), pool, True if deadline else _ties)
    bid_for_track(ctx, "fiefdoms")
    return ctx


def fiefdom_bids(targaryen: int) -> list[tuple[str, object]]:
    return [("stark", Bid(track="fiefdoms", amount=1)), ("lannister", Bid(track="fiefdoms", amount=2)),
            ("arryn", Bid(track="fiefdoms", amount=0)), (T, Bid(track="fiefdoms", amount=targaryen))]


def test_M099_targaryen_bids_in_secret_like_any_player():
    s = tgame()
    s.round = 2
    with pytest.raises(NeedAnswers) as waiting:
        bidding(s)
    asked = {r.house: r for r in waiting.value.requests}
    assert asked[T].kind == "bid" and asked[T].secret and set(asked) == set(s.players())


def test_M100_ruling_252_targaryen_gives_its_whole_bid_to_others_adding_to_their_bids():
    s = tgame()
    s.round = 2
    power = s.houses[T].power
    gift = DistributeBid(track="fiefdoms", gifts=(Gift("stark", 2), Gift("tyrell", 1)))
    ctx = bidding(s, *fiefdom_bids(3), (T, gift))
    assert s.houses[T].power == power - 3 and s.houses["stark"].power == 7 - 1  # the gift adds to the bid only
    assert s.tracks["fiefdoms"][:2] == ["stark", "lannister"] and s.tracks["fiefdoms"][-1] == T
    assert [e.gifts for e in of(ctx.events, BidGiven)] == [(("stark", 2), ("tyrell", 1))]


def test_M100_a_distribution_that_keeps_power_or_gives_to_itself_is_refused():
    for gifts, why in (((Gift("stark", 2),), "must give away all of it"), ((Gift(T, 3),), "other houses")):
        s = tgame()
        s.round = 2
        ctx = Context(s, s.board(), Segment("westeros", {}),
                      [PoolEntry.from_dict(entry(h, c, round=2)) for h, c in
                       [*fiefdom_bids(3), (T, DistributeBid(track="fiefdoms", gifts=gifts))]], False)
        with pytest.raises(NeedAnswers):
            bid_for_track(ctx, "fiefdoms")
        refusals = [e.reason for e in [*ctx.events, *ctx.transient] if isinstance(e, AnswerUnusable)]
        assert refusals and why in refusals[0] and "M100" in refusals[0]


def test_M100_ruling_252_by_default_the_highest_bidder_gets_it_all_and_a_zero_bid_is_not_asked():
    s = tgame()
    s.round = 2
    ctx = bidding(s, *fiefdom_bids(2), deadline=True)
    assert [e.gifts for e in of(ctx.events, BidGiven)] == [(("lannister", 2),)]
    s2 = tgame()
    s2.round = 2
    ctx = bidding(s2, *fiefdom_bids(0))
    assert not of(ctx.events, BidGiven)


def test_M101_ruling_253_a_lowest_bidding_targaryen_must_destroy_units_on_preemptive_raid():
    s = tgame()
    ctx = Context(s, s.board(), Segment("westeros", {}), [], True)
    before = len(s.units_of(T))
    preemptive_raid(ctx, Outcome(card="preemptive_raid", strength=8, nights_watch_won=False,
                                 bids=(("stark", 3), (T, 0)), highest=None, lowest=T, attack=lambda *a: None))
    assert len(s.units_of(T)) == before - 2 and all(s.tracks[t][-1] == T for t in s.tracks)


# --- the invariants simulations check ------------------------------------------------------------------


def test_M078_M080_M086_targaryens_invariants_catch_a_broken_position():
    s = tgame()
    s.pending = [{"key": "k", "kind": "orders", "house": "stark"}]
    s.commanders, s.vassal_sets = dict.fromkeys(s.vassals, "stark"), []  # orders come once vassals are chosen (M030)
    board = s.board()
    assert check_invariants(s, board) == []
    s.area_mut("myr").loyalty = 1  # Targaryen holds Myr: the token should have been gained
    assert any("M078" in p for p in check_invariants(s, board))
    s.area_mut("myr").loyalty = 0
    s.area_mut("pentos").garrison = 0
    assert any("M086" in p for p in check_invariants(s, board))
    s.area_mut("pentos").garrison = 2
    s.loyalty_gained = 6
    assert any("M080" in p for p in check_invariants(s, board))
    s.loyalty_gained = 0
    s.area_mut("winterfell").units.append(Unit("stark", "dragon"))
    assert any("M087" in p for p in check_invariants(s, board))
