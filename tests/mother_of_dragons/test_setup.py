"""Mother of Dragons' setup, rule by rule (docs/rules-mother-of-dragons.md, M001-M025) and its rulings.

Each test sets a game up as ``maester new --expansion mother-of-dragons`` does and checks one rule of
the expansion's setup against the package's data and the rulings that settle what the summary leaves
open (200-209, 220-224, 227-228, 264-265, 275).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources

import pytest

from adjudicator.game.cards import CARDS
from adjudicator.game.mod_board import MOD, WESTEROSI, mod_board
from adjudicator.game.mod_setup import check_mod_houses, new_mod_game, starting_tracks
from adjudicator.game.setup import SetupError
from adjudicator.game.state import GameState
from adjudicator.game.variants import variant

THREE = ["stark", "lannister", "baratheon"]
FOUR_T = ["stark", "lannister", "arryn", "targaryen"]
EIGHT = [*WESTEROSI, "targaryen"]
COUNTS = {n: WESTEROSI[:n] for n in range(3, 8)} | {n: [*WESTEROSI[: n - 1], "targaryen"] for n in range(4, 9)}


def game(houses: list[str], seed: str = "mod") -> GameState:
    return new_mod_game(houses, seed=seed)


def units(state: GameState, house: str) -> Counter[tuple[str, str]]:
    return Counter((a, u.type) for a, u in state.units_of(house))


def data() -> dict:
    text = resources.files("adjudicator.game").joinpath("data/mother_of_dragons/board.toml").read_text("utf-8")
    return tomllib.loads(text)


# --- 1. choosing the game and its houses ----------------------------------------------------------


def test_M001_the_expansion_is_chosen_by_name_and_its_setup_replaces_the_base_one():
    s = variant("mother-of-dragons").setup(THREE, seed="x")
    assert s.variant == "mother-of-dragons" and (s.round, s.phase) == (1, "planning")
    # R015-R032 do not apply: no 3-player impassable areas, no King's Court overlay, no base neutral forces
    assert s.impassable == [] and s.kings_court_overlay is False
    assert {a for a, st in s.areas.items() if st.neutral_force} == {"kings_landing"}
    assert s.check() == []


def test_M001_ruling_224_the_expansions_facts_come_from_the_package_data():
    d = data()
    assert {v["house"] for v in d["vassal_setup"]} == set(MOD.vassal_setups) == set(WESTEROSI)
    assert all(MOD.tracks[t] == tuple(d["tracks"][t]) for t in MOD.tracks)
    s = game(["arryn", "stark", "tyrell"])
    for v in s.vassals:
        listed = Counter({(u["area"], u["unit"]): u["count"] for u in next(x for x in d["vassal_setup"]
                                                                           if x["house"] == v)["starting_units"]})
        assert units(s, v) == listed


@pytest.mark.parametrize("n", range(3, 9))
def test_M002_a_game_has_3_to_8_players(n):
    for houses in {tuple(COUNTS[n])} | ({tuple(WESTEROSI[:n])} if n < 8 else set()):
        s = game(list(houses))
        assert s.players() == [h for h in (*WESTEROSI, "targaryen") if h in houses]
        assert s.check() == []


@pytest.mark.parametrize("houses", [["stark", "lannister"], [*EIGHT, "stark"], []])
def test_M002_ruling_275_fewer_than_3_or_more_than_8_players_are_refused(houses):
    with pytest.raises(SetupError, match="3 to 8 players|named twice"):
        check_mod_houses(houses)


def test_M002_ruling_227_the_moderator_lists_the_houses_and_seat_order_has_no_effect():
    a, b = game(["targaryen", "arryn", "stark", "lannister"]), game(FOUR_T)
    assert a == b and a.players() == ["stark", "lannister", "arryn", "targaryen"]


def test_M002_ruling_275_unknown_houses_are_refused_with_a_suggestion():
    with pytest.raises(SetupError, match="unknown house 'aryn'; did you mean 'arryn'"):
        check_mod_houses(["aryn", "stark", "tyrell"])


def test_M003_with_4_or_more_players_any_of_the_eight_houses_may_play():
    for houses in (["arryn", "martell", "greyjoy", "targaryen"], ["targaryen", "tyrell", "arryn", "baratheon"]):
        assert game(houses).players() == [h for h in EIGHT if h in houses]


def test_M003_ruling_275_an_8_player_game_includes_every_house_and_targaryen():
    s = game(EIGHT)
    assert s.players() == EIGHT and s.vassals == [] and "targaryen" in s.houses_in_play


def test_M004_ruling_275_targaryen_cannot_be_chosen_by_3_players():
    with pytest.raises(SetupError, match="Targaryen plays only with 4 or more players"):
        game(["stark", "lannister", "targaryen"])


@pytest.mark.parametrize("n", range(3, 8))
def test_M005_every_westerosi_house_no_player_chose_is_a_vassal(n):
    s = game(WESTEROSI[:n])
    assert s.vassals == list(WESTEROSI[n:])
    assert set(s.houses_in_play) == set(WESTEROSI)  # all seven on the board, as players or vassals
    assert all(s.units_of(h) for h in WESTEROSI)


def test_M005_ruling_220_targaryen_is_never_a_vassal():
    s = game(WESTEROSI[:4])
    assert "targaryen" not in s.vassals and "targaryen" not in s.houses_in_play
    s.vassals.append("targaryen")
    assert any("M075" in p for p in s.check())


def test_M006_without_targaryen_nothing_of_targaryen_is_used():
    s = game(["stark", "lannister", "greyjoy", "tyrell"])
    board = s.board()
    assert "targaryen" not in s.houses_in_play and "targaryen" not in board.houses
    assert not any(a.board == "essos" for a in board.areas.values())
    assert "4" not in s.westeros_decks and s.dragon_tokens == []
    assert s.loan_deck == [] and s.loan_slots == [] and s.braavos_token is None
    assert sum(st.loyalty for st in s.areas.values()) == 0
    assert not any(c.house == "targaryen" for h in s.houses.values() for c in map(CARDS.house_cards.get, h.hand))


def test_M006_a_state_using_targaryens_parts_without_targaryen_breaks_the_box():
    s = game(THREE)
    s.area_mut("winterfell").loyalty = 1
    s.westeros_decks["4"] = []
    problems = " | ".join(s.check())
    assert "loyalty" in problems and "M006" in problems


# --- 2. what each house takes ---------------------------------------------------------------------


def test_M007_a_player_takes_its_cards_order_tokens_sea_orders_and_units():
    s = game(FOUR_T)
    for h in s.players():
        assert len(s.houses[h].hand) == 7 and s.houses[h].discards == []
        tokens = s.order_tokens(h)
        assert sum(tokens.values()) == 18 and {"sea_march", "sea_support", "iron_bank"} <= set(tokens)
        assert all(h in s.tracks[t] for t in s.tracks)  # its 3 influence tokens
        assert s.area(s.board().home_area(h)).garrison > 0 and s.units_of(h)


def test_M007_the_targaryen_player_takes_set_a_and_the_20_loyalty_tokens():
    s = game(FOUR_T)
    assert sorted(s.houses["targaryen"].hand) == sorted(CARDS.of_set("targaryen_a"))
    assert s.board().constants["loyalty_tokens_total"] == 20
    assert sum(st.loyalty for st in s.areas.values()) <= 20


def test_M008_ruling_208_every_game_uses_the_eyrie_and_bite_overlays():
    for houses in (THREE, FOUR_T):
        board = game(houses).board()
        eyrie = board.area("the_eyrie")
        assert (eyrie.fortification, eyrie.supply, eyrie.power, eyrie.port) == ("stronghold", 1, 1, "port_of_the_eyrie")
        assert board.area("port_of_the_eyrie").opens_onto == "the_narrow_sea"
        assert (board.area("the_vale_of_arryn").fortification, board.area("the_vale_of_arryn").power) == ("castle", 1)
        assert board.adjacent("the_bite", "white_harbor") and not board.adjacent("the_narrow_sea", "white_harbor")
    west = mod_board(essos=False)
    assert len(west.areas) == 61 and len(west.border_pairs) == 152
    assert Counter(a.kind for a in west.areas.values()) == {"land": 39, "sea": 13, "port": 9}


def test_M009_ruling_209_the_essos_side_board_is_added_only_with_targaryen():
    with_t, without = game(FOUR_T).board(), game(WESTEROSI[:4]).board()
    assert len(with_t.areas) == 75 and len(with_t.border_pairs) == 188
    assert Counter(a.kind for a in with_t.areas.values()) == {"land": 46, "sea": 17, "port": 12}
    assert {a.id for a in with_t.areas.values() if a.board == "essos"} == {
        "braavos", "myr", "norvos", "pentos", "the_disputed_lands", "the_rhoyne", "volantis", "bay_of_pentos",
        "braavosian_coastlands", "sea_of_myrth", "the_orange_shore", "port_of_braavos", "port_of_pentos",
        "port_of_volantis"}
    assert len(without.areas) == 61


def test_M010_a_vassal_takes_its_supply_influence_garrison_and_units_but_no_cards_orders_or_power():
    s = game(THREE)
    for v in s.vassals:
        hs = s.houses[v]
        assert (hs.power, hs.hand, hs.discards, hs.supply) == (0, [], [], 4)
        assert all(v in s.tracks[t] for t in s.tracks)
        assert s.area(s.board().home_area(v)).garrison > 0
        assert s.order_tokens(v) == {"vassal_march": 1, "vassal_raid_support": 1, "vassal_defense_muster": 1,
                                     "vassal_defense": 1}


def test_M011_the_wildling_deck_is_shuffled_and_the_threat_starts_on_2():
    s = game(THREE)
    assert s.wildling_threat == 2 and sorted(s.wildling_deck) == sorted(CARDS.wildling_cards)
    assert [game(THREE, seed=str(i)).wildling_deck for i in range(4)].count(s.wildling_deck) < 4


def test_M012_decks_i_to_iii_are_shuffled_apart_and_deck_iv_joins_with_targaryen():
    s, t = game(THREE), game(FOUR_T)
    for n in ("1", "2", "3"):
        assert sorted(s.westeros_decks[n]) == sorted(CARDS.westeros_deck(int(n)))
    assert "4" not in s.westeros_decks
    assert sorted(t.westeros_decks["4"]) == sorted(CARDS.westeros_deck(4)) and len(t.westeros_decks["4"]) == 10
    assert t.westeros_discards["4"] == []


def test_M013_ruling_221_dragon_strength_tokens_lie_on_rounds_2_4_6_8_and_10():
    t = game(FOUR_T)
    assert t.round == 1 and t.dragon_tokens == [2, 4, 6, 8, 10]
    assert t.dragon_strength(t.board()) == 0
    t.dragon_tokens = [6, 8, 10]  # two have gone into the box
    assert t.dragon_strength(t.board()) == 2
    assert game(THREE).dragon_tokens == []


def test_M014_players_start_where_their_screens_say_and_vassals_on_supply_4():
    s = game(["stark", "arryn", "martell"])  # Martell is a player here: its screen says 2
    board = s.board()
    assert {h: s.houses[h].supply for h in s.players()} == {"stark": 1, "martell": 2, "arryn": 1}
    assert {s.houses[v].supply for v in s.vassals} == {4}
    assert s.victory("arryn", board) == 2  # The Eyrie and The Vale of Arryn


def test_M014_ruling_265_a_vassal_starts_on_4_whatever_it_controls():
    from adjudicator.engine.core.common import supply_count

    s = game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "arryn"])  # Martell alone a vassal
    assert s.houses["martell"].supply == 4 != supply_count(s, s.board(), "martell")


def test_M015_ruling_201_influence_follows_the_expansions_own_order_without_absent_houses():
    s = game(EIGHT)
    assert {t: tuple(s.tracks[t]) for t in s.tracks} == MOD.tracks
    w = game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell", "arryn"])
    assert w.tracks["iron_throne"] == [h for h in MOD.tracks["iron_throne"] if h != "targaryen"]


def test_M016_ruling_202_vassals_in_the_top_three_move_below_the_players():
    s = game(THREE)  # vassals greyjoy, tyrell, martell, arryn
    # Fiefdoms was greyjoy, tyrell, martell, arryn, stark, baratheon, lannister: all vassals go below, in order
    assert s.tracks["fiefdoms"] == ["stark", "baratheon", "lannister", "greyjoy", "tyrell", "martell", "arryn"]
    # the Iron Throne track had no vassal in its top three: unchanged
    assert s.tracks["iron_throne"] == ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]


def test_M016_ruling_202_targaryen_stays_in_position_8_when_vassals_move():
    tracks = starting_tracks(EIGHT, ["greyjoy", "tyrell", "martell"])
    assert tracks["fiefdoms"] == ["arryn", "stark", "baratheon", "lannister", "greyjoy", "tyrell", "martell",
                                  "targaryen"]
    assert all(order[-1] == "targaryen" for order in tracks.values())


def test_M017_the_highest_house_on_each_track_holds_its_dominance_token_and_it_is_a_player():
    for n, houses in COUNTS.items():
        s = game(houses)
        for t in s.tracks:
            assert s.holder(t) == s.tracks[t][0] and not s.is_vassal(s.holder(t)), (n, t)


def test_M017_ruling_240_a_vassal_above_every_player_never_holds_the_token():
    s = game(THREE)
    s.tracks["fiefdoms"] = ["tyrell", "martell", "stark", "baratheon", "lannister", "greyjoy", "arryn"]
    assert s.holder("fiefdoms") == "stark" and s.dominance()["valyrian_steel_blade"]["holder"] == "stark"


def test_M018_vassal_markers_start_beside_the_iron_throne_track_with_no_commander():
    s = game(THREE)
    assert s.commanders == {} and all(s.commander(v) is None for v in s.vassals)


def test_M019_ruling_228_one_set_of_vassal_orders_per_vassal_to_the_highest_players():
    five = game(WESTEROSI[:5])  # 2 vassals: the two highest players on the Iron Throne track
    assert five.vassal_sets == [h for h in five.turn_order() if not five.is_vassal(h)][:2]
    three = game(THREE)  # 4 vassals, 3 players: the highest takes the fourth set too
    assert three.vassal_sets == ["baratheon", "lannister", "stark", "baratheon"]
    four_t = game(FOUR_T)  # 4 vassals, 4 players: Targaryen too (ruling 229)
    assert sorted(four_t.vassal_sets) == sorted(FOUR_T) and len(four_t.vassal_sets) == 4
    assert game(EIGHT).vassal_sets == []


def test_M020_ruling_223_base_houses_place_their_screens_units():
    s = game(["lannister", "stark", "tyrell"])
    assert units(s, "lannister") == Counter({("lannisport", "footman"): 1, ("lannisport", "knight"): 1,
                                             ("stoney_sept", "footman"): 1, ("the_golden_sound", "ship"): 1,
                                             ("port_of_lannisport", "ship"): 1})  # ruling 1's port ship


def test_M020_ruling_203_arryn_and_targaryen_place_their_screens_units():
    s = game(FOUR_T)
    assert units(s, "arryn") == Counter({("the_eyrie", "knight"): 2, ("the_vale_of_arryn", "knight"): 1,
                                         ("port_of_the_eyrie", "ship"): 1})
    assert units(s, "targaryen") == Counter({("pentos", "knight"): 1, ("pentos", "footman"): 1,
                                             ("port_of_pentos", "ship"): 1, ("bay_of_pentos", "ship"): 2,
                                             ("myr", "knight"): 1, ("norvos", "dragon"): 1, ("the_rhoyne", "dragon"): 2})


def test_M020_ruling_203_vassals_place_their_vassal_setup_cards_units():
    s = game(["stark", "lannister", "greyjoy", "tyrell"])
    assert units(s, "baratheon") == Counter({("dragonstone", "knight"): 2, ("kingswood", "footman"): 1,
                                             ("storms_end", "footman"): 1, ("blackwater_bay", "ship"): 1,
                                             ("shipbreaker_bay", "ship"): 2})  # the card printed in the rulebook
    assert units(s, "arryn")[("the_bite", "ship")] == 1


def test_M021_ruling_200_every_house_puts_its_garrison_on_its_home_arryns_is_4():
    s = game(FOUR_T)
    board = s.board()
    assert {h: s.area(board.home_area(h)).garrison for h in s.houses_in_play} == {
        "stark": 2, "lannister": 2, "greyjoy": 2, "tyrell": 2, "baratheon": 2, "martell": 2, "arryn": 4,
        "targaryen": 2}


def test_M022_ruling_264_only_kings_landing_and_with_targaryen_braavos_hold_neutral_forces():
    for houses in (THREE, WESTEROSI[:6]):
        s = game(houses)
        assert {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force} == {"kings_landing": 5}
    t = game(FOUR_T)
    assert {a: st.neutral_force for a, st in t.areas.items() if st.neutral_force} == {"kings_landing": 5, "braavos": 5}


def test_M023_with_targaryen_a_loyalty_token_lies_in_kings_landing():
    t = game(FOUR_T)
    assert {a: st.loyalty for a, st in t.areas.items() if st.loyalty} == {"kings_landing": 1}


def test_M024_the_loan_deck_is_shuffled_and_one_loan_lies_in_the_rightmost_slot():
    t = game(FOUR_T)
    assert t.loan_slots[:2] == ["", ""] and t.loan_slots[2] in CARDS.loans
    assert sorted(t.loan_deck + t.loan_slots[2:]) == CARDS.loan_deck() and len(t.loan_deck) == 11
    assert game(FOUR_T, seed="other").loan_deck != t.loan_deck or game(FOUR_T, seed="o2").loan_deck != t.loan_deck


def test_M025_ruling_204_players_take_7_power_vassals_none_with_or_without_targaryen():
    for houses in (THREE, FOUR_T):
        s = game(houses)
        assert {h: s.houses[h].power for h in s.players()} == dict.fromkeys(s.players(), 7)
        assert {s.houses[v].power for v in s.vassals} <= {0}


def test_M025_a_vassal_holding_power_breaks_the_box():
    s = game(THREE)
    s.houses["tyrell"].power = 1
    assert any("M025" in p for p in s.check())
