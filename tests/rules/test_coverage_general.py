"""Definitions, the box, setup and the shape of the game (R002-R036), one test per rule.

The definitional rules are checked on the data and on the behaviour they imply: what counts as a
unit, an army, available power, an enemy. Game flow is driven through ``advance`` from short
positions; the Westeros Phase is played for real where a test needs it, and stopped otherwise.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import (
    ControlChanged,
    GameWon,
    PowerChanged,
    UnitsDestroyed,
    available_units,
    gain_power,
)
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable, PhaseStarted
from adjudicator.engine.events.action import (
    AttackDeclared,
    RaidResolved,
    RoundEnded,
    UnitsMoved,
)
from adjudicator.engine.events.combat import CombatStarted, SupportDeclared
from adjudicator.engine.events.westeros import FinalStandings, UnitsMustered
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.engine.rules.planning import unused_tokens
from adjudicator.game.board import DOMINANCE_TOKENS, HOUSES, TRACKS
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import (
    ORDER_TOKENS,
    AssignOrder,
    Bid,
    March,
    Move,
    Muster,
    MusterAction,
    PlayCard,
    Raid,
    Raven,
    Support,
    UnitSpec,
    UseBlade,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Segment

from .helpers import (  # noqa: F401
    BOARD,
    at_action,
    combat,
    entry,
    game,
    of,
    phases,
    put,
    run,
    units,
)
from .test_combat_harness import battle, duel, everyone, play, say  # noqa: F401

THREE = ["stark", "lannister", "baratheon"]  # turn order baratheon, lannister, stark; raven: lannister
_ids = itertools.count()


def answer(house: str, command: Any, round: int = 2) -> dict[str, Any]:
    return pool_entry(id=f"g{next(_ids)}", house=house, round=round, command=command)


def westeros_position(cards: tuple[str, str, str], *, houses: list[str] = THREE, bare: bool = True,
                      threat: int = 0, round: int = 2) -> GameState:
    """A game at the start of a Westeros Phase with ``cards`` on top of decks I-III."""
    s = new_game(houses, seed="coverage")
    s.round, s.phase, s.wildling_threat = round, "westeros", threat
    if bare:
        for st in s.areas.values():
            st.units.clear()
        s.tidy()
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play the Westeros Phase for real and stop as the Planning Phase begins."""
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


QUIET = ("last_days_of_summer", "last_days_of_summer", "web_of_lies")  # no decisions


# --- R002: units -------------------------------------------------------------------------------


def test_R002_a_garrison_or_a_neutral_force_takes_no_order(phases):
    s = new_game(THREE, seed="r002")
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    put(s, "white_harbor", "stark", "footman")
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="defense+1")),
               entry("stark", AssignOrder(area="kings_landing", token="defense+2")))
    orders = next(r for r in step.requests if r.kind == "orders")
    assert orders.house == "stark" and orders.context["areas"] == ["white_harbor"]
    assert [r.house for r in step.requests if r.kind == "orders"] == ["stark"], "no house answers for a garrison"
    reasons = {e.reason.split(" ")[0]: e.reason for e in of(step.events, AnswerUnusable)}
    assert "garrison" in reasons["Winterfell"] and reasons["Winterfell"].endswith("(R117)"), reasons
    assert "King's Landing" in reasons["you"] and reasons["you"].endswith("(R115)"), reasons


def test_R002_a_garrison_is_not_counted_in_an_army_for_supply(westeros_only):
    s = westeros_position(("supply", "last_days_of_summer", "web_of_lies"))
    put(s, "winterfell", "stark", "footman", "footman", "footman")  # with the garrison of 2: five, if it counted
    put(s, "karhold", "stark", "footman", "footman")
    assert s.area("winterfell").garrison == 2
    step = advance(s, [])
    assert step.state.houses["stark"].supply == 1  # Winterfell's one barrel: armies of 3 and 2
    assert not [r for r in step.requests if r.kind == "reconcile"]
    assert not of(step.events, UnitsDestroyed)
    assert units(step.state, "winterfell") == ["footman"] * 3


# --- R006: enemy and friendly ------------------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R006_marching_onto_friendly_units_joins_them_onto_enemy_units_attacks():
    s = game()
    put(s, "winterfell", "stark", "footman", "footman", order="march+0")
    put(s, "castle_black", "stark", "knight")
    put(s, "karhold", "lannister", "footman")
    step = run(at_action(s), entry("stark", March(origin="winterfell", moves=(
        Move(units=(UnitSpec("footman"),), destination="castle_black"),
        Move(units=(UnitSpec("footman"),), destination="karhold")))))
    assert [(e.origin, e.destination) for e in of(step.events, UnitsMoved)] == [("winterfell", "castle_black")]
    assert [(a.area, a.defender) for a in of(step.events, AttackDeclared)] == [("karhold", "lannister")]
    assert units(step.state, "castle_black") == ["footman", "knight"]


@pytest.mark.usefixtures("phases", "combat")
def test_R006_a_raid_removes_only_an_enemy_order():
    s = game()
    put(s, "winterfell", "stark", "footman", order="raid")
    put(s, "castle_black", "stark", "footman", order="support+0")
    put(s, "karhold", "lannister", "footman", order="support+0")
    step = run(at_action(s), entry("stark", Raid(origin="winterfell", targets=("castle_black",))))
    assert any("your own" in e.reason and "(R130)" in e.reason for e in of(step.events, AnswerUnusable))
    assert s.area("castle_black").order == Order("stark", "support+0")
    step = run(step.state, entry("stark", Raid(origin="winterfell", targets=("karhold",))))
    assert [(e.target, e.target_house) for e in of(step.events, RaidResolved)] == [("karhold", "lannister")]


# --- R007: armies --------------------------------------------------------------------------------


def test_R007_single_units_are_free_ships_at_sea_and_in_a_port_are_armies(westeros_only):
    s = westeros_position(("supply", "last_days_of_summer", "web_of_lies"))
    put(s, "winterfell", "stark", "footman", "footman")
    put(s, "bay_of_ice", "stark", "ship", "ship")
    put(s, "port_of_winterfell", "stark", "ship", "ship")
    for area in ("castle_black", "karhold", "white_harbor", "moat_cailin", "the_twins", "harrenhal"):
        put(s, area, "stark", "footman")  # six single units in areas without a barrel
    step = advance(s, [])
    assert step.state.houses["stark"].supply == 1  # two armies allowed: 3 and 2
    [req] = [r for r in step.requests if r.kind == "reconcile"]
    assert req.house == "stark" and req.context["units_to_destroy"] == 1
    assert req.context["armies"] == {"bay_of_ice": 2, "port_of_winterfell": 2, "winterfell": 2}


# --- R008 / R009: available power and the pool ---------------------------------------------------


def test_R008_power_tokens_on_the_board_are_not_available_for_a_bid(westeros_only):
    s = westeros_position(("last_days_of_summer", "clash_of_kings", "web_of_lies"))
    s.houses["stark"].power = 2
    for area in ("karhold", "castle_black", "the_stony_shore"):
        s.area_mut(area).power_token = "stark"
    step = advance(s, [answer("stark", Bid(track="iron_throne", amount=3))])
    [req] = [r for r in step.requests if r.kind == "bid" and r.house == "stark"]
    assert req.context["available_power"] == 2
    assert [e.reason for e in of(step.events, AnswerUnusable)] == ["a bid of 3 is more than your 2 available power (R082)"]


@pytest.mark.usefixtures("phases", "combat")
def test_R009_a_pillager_gains_from_its_own_pool_never_the_victims_tokens():
    s = game()
    s.houses["stark"].power = 19
    s.area_mut("the_stony_shore").power_token = "stark"  # Stark's 20 tokens: none left in the pool
    s.houses["lannister"].power = 3
    put(s, "winterfell", "stark", "footman", order="raid")
    put(s, "karhold", "lannister", "footman", order="consolidate")
    step = run(at_action(s), entry("stark", Raid(origin="winterfell", targets=("karhold",))))
    changes = [(e.house, e.amount) for e in of(step.events, PowerChanged)]
    assert changes == [("stark", 0), ("lannister", -1)]
    assert step.state.houses["stark"].power == 19 and step.state.houses["lannister"].power == 2


def test_R009_power_discarded_to_the_pool_can_be_collected_again(westeros_only):
    s = westeros_position(("last_days_of_summer", "game_of_thrones", "web_of_lies"), threat=8)
    s.wildling_deck.remove("silence_at_the_wall")
    s.wildling_deck.insert(0, "silence_at_the_wall")
    s.houses["stark"].power = 20  # none of Stark's tokens is in the pool
    step = advance(s, [answer("stark", Bid(track="wildlings", amount=4)),
                       answer("lannister", Bid(track="wildlings", amount=0)),
                       answer("baratheon", Bid(track="wildlings", amount=0))])
    stark = [(e.amount, e.cause) for e in of(step.events, PowerChanged) if e.house == "stark"]
    assert stark == [(-4, "bid for the Night's Watch"), (1, "Game of Thrones")], stark
    assert step.state.houses["stark"].power == 17


# --- R010: destroyed units go back to the box ----------------------------------------------------


def test_R010_a_destroyed_unit_can_be_mustered_again(westeros_only):
    s = westeros_position(("supply", "last_days_of_summer", "web_of_lies"))
    put(s, "winterfell", "stark", "footman", "footman", "footman", "footman")
    for area in ("castle_black", "karhold", "white_harbor", "moat_cailin", "the_twins", "harrenhal"):
        put(s, area, "stark", "footman")
    assert available_units(s, BOARD, "stark", "footman") == 0
    step = advance(s, [])  # one legal reconciliation: taken without asking
    assert [(e.area, e.units) for e in of(step.events, UnitsDestroyed)] == [("winterfell", ("footman",))]
    assert available_units(step.state, BOARD, "stark", "footman") == 1
    later = step.state
    later.segment, later.pending, later.answers = None, [], []
    later.round, later.phase = 3, "westeros"
    for deck, card in enumerate(("mustering", "game_of_thrones", "storm_of_swords"), 1):
        later.westeros_decks[str(deck)].remove(card)
        later.westeros_decks[str(deck)].insert(0, card)
    passes = [answer(h, Muster(area=a), round=3) for h, a in (("baratheon", "dragonstone"), ("lannister", "lannisport"),
                                                               ("stark", "harrenhal"), ("stark", "moat_cailin"),
                                                               ("stark", "winterfell"))]
    step = advance(later, [*passes, answer("stark", Muster(area="white_harbor", actions=(MusterAction(unit="footman"),)),
                                           round=3)])
    assert step.requests == [], [r.key for r in step.requests]
    mustered = [(e.area, e.placed) for e in of(step.events, UnitsMustered) if e.placed]
    assert mustered == [("white_harbor", (("footman", "white_harbor"),))]
    assert available_units(step.state, BOARD, "stark", "footman") == 0


# --- R012: the embattled area --------------------------------------------------------------------


def test_R012_the_combat_is_fought_in_the_embattled_area_and_supported_from_around_it(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), defense="defense+1", areas="""
blackwater = { units = ["tyrell knight"], order = "support+0" }
the_boneway = { units = ["greyjoy knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run()
    started = b.of(CombatStarted)[0]
    assert (started.area, started.origin) == ("kingswood", "kings_landing")
    assert b.asked() == [("support", "greyjoy")], "Blackwater borders only the origin, not the embattled area"
    b.run(say("greyjoy", Support(side="none")), play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert [d.area for d in b.of(SupportDeclared)] == ["the_boneway"]
    from adjudicator.engine.events.combat import CombatStrengths

    assert ("defense", 1) in b.of(CombatStrengths)[0].defender_strength


# --- R013: orders go back to their house ---------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R013_a_raided_order_is_back_among_its_houses_tokens_and_every_order_is_after_clean_up():
    s = game()
    put(s, "winterfell", "stark", "footman", order="raid")
    put(s, "karhold", "lannister", "footman", order="support+1")
    put(s, "castle_black", "lannister", "footman", order="march+1")
    s = at_action(s)
    assert "support+1" not in unused_tokens(s, "lannister") and "march+1" not in unused_tokens(s, "lannister")
    step = run(s, entry("stark", Raid(origin="winterfell", targets=("karhold",))))
    assert [(r.kind, r.house) for r in step.requests] == [("march", "lannister")]
    assert "support+1" in unused_tokens(step.state, "lannister"), "raided: back behind its screen"
    assert "march+1" not in unused_tokens(step.state, "lannister"), "not resolved yet"
    step = run(step.state, entry("lannister", March(origin="castle_black")))
    assert step.state.round == 2 and not any(st.order for st in step.state.areas.values())
    for house in HOUSES:
        assert Counter(unused_tokens(step.state, house)) == Counter(ORDER_TOKENS)


# --- R014: the box -------------------------------------------------------------------------------


def test_R014_the_box_holds_the_printed_cards_tokens_and_overlay():
    base = [CARDS.house_cards[c] for c in CARDS.of_set("base")]  # the catalogue holds the expansion's too
    assert len(base) == 42
    assert Counter(c.house for c in base) == dict.fromkeys(HOUSES, 7)
    assert sum(c.copies for c in CARDS.westeros if c.deck <= 3 and c.set == "base") == 30  # the base box's (R014)
    assert [len(CARDS.westeros_deck(d)) for d in (1, 2, 3)] == [10, 10, 10]
    assert len(CARDS.wildling_cards) == 9
    assert len(CARDS.tides_deck()) == 24
    three = BOARD.setups[3]
    assert len(three.neutral_forces) + len(three.impassable_areas) == 14, "all 14 tokens are placed with 3 players"
    assert max(len(BOARD.setups[n].neutral_forces) + len(BOARD.setups[n].impassable_areas) for n in (3, 4, 5, 6)) == 14
    assert sorted(h.home_area for h in BOARD.houses.values()) == sorted(
        ["winterfell", "lannisport", "pyke", "highgarden", "dragonstone", "sunspear"]), "six garrisons, one per home"
    assert sorted(DOMINANCE_TOKENS.values()) == ["iron_throne", "messenger_raven", "valyrian_steel_blade"]
    assert sorted(n for n in (3, 4, 5, 6) if BOARD.setups[n].kings_court_overlay) == [3, 4], "one overlay, for 3-4 players"


# --- R015: the setup steps -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_R015_a_new_game_is_the_result_of_all_eleven_setup_steps(n):
    setup = BOARD.setups[n]
    s = new_game(list(setup.houses), seed=f"r015-{n}")
    assert sorted(s.wildling_deck) == sorted(CARDS.wildling_cards) and s.wildling_threat == 2  # step 2
    for deck in (1, 2, 3):  # step 3
        assert sorted(s.westeros_decks[str(deck)]) == sorted(CARDS.westeros_deck(deck))
    assert {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force} == setup.neutral_forces  # step 4
    assert s.round == 1  # step 5
    assert s.houses_in_play == [h for h in HOUSES if h in setup.houses]  # step 6
    for h in s.houses_in_play:  # step 7
        assert sorted(s.houses[h].hand) == sorted(CARDS.hand_of(h)) and s.houses[h].discards == []
    assert {t: s.tracks[t] for t in TRACKS} == {t: list(setup.tracks[t]) for t in TRACKS}  # step 8
    assert {tok: d["holder"] for tok, d in s.dominance().items()} == {
        DOMINANCE_TOKENS[t]: setup.tracks[t][0] for t in TRACKS}
    placed = Counter((a, u.house, u.type) for a, st in s.areas.items() for u in st.units)  # step 9
    printed = Counter({(su.area, h, su.unit): su.count for h in s.houses_in_play for su in BOARD.houses[h].starting_units})
    assert placed == printed
    assert {a: st.garrison for a, st in s.areas.items() if st.garrison} == {  # step 10
        BOARD.houses[h].home_area: 2 for h in s.houses_in_play}
    assert {h: s.houses[h].power for h in s.houses_in_play} == dict.fromkeys(s.houses_in_play, 5)  # step 11
    assert s.check() == []


# --- R018: neutral force tokens ---------------------------------------------------------------------


def test_R018_each_player_count_places_its_tokens_and_the_rest_stay_in_the_box():
    placed = {n: BOARD.setups[n].neutral_forces for n in (4, 5, 6)}
    assert set(placed[6]) < set(placed[5]) < set(placed[4]), "a token for 4-6 players is also placed with 4 or 5"
    for n in (5, 6):
        assert all(placed[4][a] == v for a, v in placed[n].items()), "one side of a token, one strength"
    three = set(BOARD.setups[3].impassable_areas) | set(BOARD.setups[3].neutral_forces)
    assert len(three) == 14 and set(placed[4]) <= three, "every range side is the back of one of the 14 '3' sides"
    for n in (3, 4, 5, 6):
        s = new_game(list(BOARD.setups[n].houses), seed="r018")
        on_board = {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force is not None}
        assert on_board == BOARD.setups[n].neutral_forces, f"{n} players: only their tokens, the rest back in the box"
        assert sorted(s.impassable) == sorted(BOARD.setups[n].impassable_areas + BOARD.setups[n].unusable_ports)
    assert not new_game(list(BOARD.setups[6].houses), seed="r018").impassable, "the '3' side is never used with 6"


# --- R027: starting power ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 6])
def test_R027_each_house_takes_five_and_fifteen_of_its_tokens_stay_in_the_pool(n):
    s = new_game(list(BOARD.setups[n].houses), seed="r027")
    assert not any(st.power_token for st in s.areas.values())
    ctx = Context(s, BOARD, Segment("action", {}), [], False)
    for h in s.houses_in_play:
        assert s.houses[h].power == 5
        assert gain_power(ctx, h, 100, "test") == 15, "the pool holds the other 15 of the house's 20"


# --- R033 / R034 / R035: rounds and phases ------------------------------------------------------------


def _bare_three(seed: str) -> GameState:
    s = new_game(THREE, seed=seed)
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    return s


def test_R033_a_round_is_westeros_planning_action_with_combat_inside_the_action_phase():
    s = westeros_position(QUIET, threat=0)
    put(s, "winterfell", "stark", "knight")
    put(s, "karhold", "lannister", "footman")
    orders = [answer("stark", AssignOrder(area="winterfell", token="march+0")),
              answer("lannister", AssignOrder(area="karhold", token="defense+1")),
              answer("lannister", Raven(action="pass")),
              answer("stark", March(origin="winterfell", moves=(Move(units=(UnitSpec("knight"),), destination="karhold"),))),
              answer("stark", PlayCard(card="ser_rodrick_cassel")), answer("stark", UseBlade(use=False)),
              answer("lannister", PlayCard(card="the_hound"))]
    step = advance(s, orders)
    phases_seen = [(e.round, e.phase) for e in of(step.events, PhaseStarted)]
    assert phases_seen[:4] == [(2, "westeros"), (2, "planning"), (2, "action"), (3, "westeros")]
    names = [type(e).__name__ if not isinstance(e, PhaseStarted) else f"{e.phase}" for e in step.events]
    assert names.index("action") < names.index("CombatStarted") < names.index("RoundEnded")


def test_R034_round_one_has_no_westeros_phase():
    s = _bare_three("r034")
    step = advance(s, [answer("lannister", Raven(action="pass"), round=1)])
    phases_seen = [(e.round, e.phase) for e in of(step.events, PhaseStarted)]
    assert phases_seen[:3] == [(1, "planning"), (1, "action"), (2, "westeros")]
    assert (1, "westeros") not in phases_seen


def test_R035_the_game_ends_once_after_round_ten_and_no_eleventh_round_begins():
    s = _bare_three("r035")
    s.round, s.phase = 10, "action"
    step = advance(s, [])
    assert step.state.phase == "game_over" and step.state.round == 10 and step.requests == []
    assert [(e.round, e.last) for e in of(step.events, RoundEnded)] == [(10, True)]
    assert len(of(step.events, FinalStandings)) == 1 and len(of(step.events, GameWon)) == 1
    assert not of(step.events, PhaseStarted)[1:], "nothing starts after the action phase of round 10"
    again = advance(step.state, [])
    assert again.events == [] and again.state.phase == "game_over"
    s.round = 9
    step = advance(s, [])
    assert [(e.round, e.last) for e in of(step.events, RoundEnded)] == [(9, False)]
    assert (10, "westeros") in [(e.round, e.phase) for e in of(step.events, PhaseStarted)]


# --- R036: seven castles win at once -------------------------------------------------------------------


LANNISTER_SIX = ("riverrun", "seagard", "crackclaw_point", "the_reach", "oldtown")  # with Lannisport: six


@pytest.mark.usefixtures("phases", "combat")
def test_R036_the_seventh_castle_wins_in_the_middle_of_the_march_step():
    s = game()
    for area in LANNISTER_SIX:
        put(s, area, "lannister", "footman")
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    put(s, "castle_black", "stark", "footman", order="march+0")  # Stark marches after Lannister
    assert s.castles("lannister", BOARD) == 6
    step = run(at_action(s), entry("lannister", March(origin="stoney_sept", moves=(
        Move(units=(UnitSpec("footman"),), destination="harrenhal"),))))
    assert step.state.phase == "game_over" and step.state.winner == "lannister"
    assert [(e.winner, e.round) for e in of(step.events, GameWon)] == [("lannister", 1)]
    assert step.requests == [] and step.state.area("castle_black").order == Order("stark", "march+0")


@pytest.mark.usefixtures("phases", "combat")
def test_R036_a_home_area_returning_to_its_house_can_give_it_the_seventh_castle():
    s = game()
    for area in (*LANNISTER_SIX, "harrenhal"):
        put(s, area, "lannister", "footman")
    put(s, "lannisport", "stark", "footman", order="march+0")  # Stark holds Lannister's home
    s.area_mut("lannisport").garrison = 0
    assert s.castles("lannister", BOARD) == 6
    step = run(at_action(s), entry("stark", March(origin="lannisport", moves=(
        Move(units=(UnitSpec("footman"),), destination="stoney_sept"),))))
    assert ("lannisport", "stark", "lannister") in [(e.area, e.old, e.new) for e in of(step.events, ControlChanged)]
    assert step.state.winner == "lannister" and step.state.phase == "game_over"
    assert of(step.events, GameWon)[0].winner == "lannister"


def test_R131_pillage_of_a_house_without_power_says_it_has_none_to_discard():
    """A raid pillaging a house with no power must not read "gains 0 power"."""
    from adjudicator.engine.core.common import PowerChanged

    lost = PowerChanged(house="stark", amount=0, cause="pillaged", power=0, asked=-1)
    assert lost.describe() == "Stark has no power to discard (pillaged)."
    capped = PowerChanged(house="stark", amount=0, cause="pillage", power=20, asked=1)
    assert "gains none" in capped.describe()
    assert PowerChanged(house="stark", amount=-1, cause="pillaged", power=2, asked=-1).describe() == \
        "Stark loses 1 power (pillaged); now 2."


def test_invariants_allow_routed_units_when_the_game_ended_mid_action():
    """Seven castles won during a march end the game before the clean-up stands routed units up."""
    from adjudicator.engine.invariants import check_invariants
    from adjudicator.game.setup import new_game

    state = new_game(["stark", "lannister", "baratheon"], seed="routed")
    state.areas["winterfell"].units[0].routed = True
    state.phase, state.winner = "game_over", "stark"
    assert not any("routed" in p for p in check_invariants(state))
    state.phase = "planning"
    assert any("routed" in p for p in check_invariants(state))
