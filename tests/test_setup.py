"""Setup for 3, 4, 5 and 6 players, as the rulebook (pp. 4-5 and 28) and the player screens give it."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.game.board import TRACKS, Board
from adjudicator.game.cards import CARDS
from adjudicator.game.setup import SetupError, check_houses, new_game
from adjudicator.game.state import Unit

BOARD = Board.classic()
GAMES = {
    3: ["stark", "lannister", "baratheon"],
    4: ["stark", "lannister", "greyjoy", "baratheon"],
    5: ["stark", "lannister", "greyjoy", "tyrell", "baratheon"],
    6: ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"],
}
PLAYER_COUNTS = sorted(GAMES)

# Starting units from the player screens (ruling 1: Lannister's port ship at every player count).
STARTING_UNITS = {
    "stark": {"winterfell": ["footman", "knight"], "white_harbor": ["footman"], "the_shivering_sea": ["ship"]},
    "lannister": {"lannisport": ["footman", "knight"], "stoney_sept": ["footman"], "the_golden_sound": ["ship"],
                  "port_of_lannisport": ["ship"]},
    "greyjoy": {"pyke": ["footman", "knight"], "greywater_watch": ["footman"], "ironmans_bay": ["ship"],
                "port_of_pyke": ["ship"]},
    "tyrell": {"highgarden": ["footman", "knight"], "dornish_marches": ["footman"], "redwyne_straights": ["ship"]},
    "baratheon": {"dragonstone": ["footman", "knight"], "kingswood": ["footman"], "shipbreaker_bay": ["ship", "ship"]},
    "martell": {"sunspear": ["footman", "knight"], "salt_shore": ["footman"], "sea_of_dorne": ["ship"]},
}
THREE_PLAYER_IMPASSABLE = [
    "dornish_marches", "highgarden", "oldtown", "princes_pass", "pyke", "salt_shore", "starfall", "storms_end",
    "sunspear", "the_boneway", "three_towers", "yronwood",
]


def game(n: int, seed: str = "test", **kw) -> object:
    return new_game(GAMES[n], seed=seed, **kw)


# --- who may play -------------------------------------------------------------------------------


@pytest.mark.parametrize("houses", [["stark", "lannister"], GAMES[6] + ["stark"], []])
def test_R001_a_game_has_3_to_6_houses(houses):
    with pytest.raises(SetupError, match="3 to 6 houses|named twice"):
        check_houses(houses, BOARD)


def test_R001_seven_distinct_names_are_refused_for_the_unknown_one():
    with pytest.raises(SetupError, match="unknown house 'arryn'"):
        check_houses(GAMES[6] + ["arryn"], BOARD)


def test_R001_two_houses_are_refused_with_the_count():
    with pytest.raises(SetupError, match="a game has 3 to 6 houses, not 2"):
        new_game(["stark", "lannister"], seed="x")


def test_R020_unknown_house_is_refused_with_the_list():
    with pytest.raises(SetupError, match=r"unknown house 'starks'; did you mean 'stark'\? The houses are stark, lannister"):
        check_houses(["starks", "lannister", "baratheon"], BOARD)
    with pytest.raises(SetupError, match="unknown house 'arryn'; the houses are stark, lannister, greyjoy, tyrell, "
                                         "baratheon and martell$"):
        check_houses(["arryn", "lannister", "baratheon"], BOARD)


def test_R020_a_house_named_twice_is_refused():
    with pytest.raises(SetupError, match="house 'stark' is named twice"):
        check_houses(["stark", "Stark", "lannister", "baratheon"], BOARD)


def test_R030_martell_cannot_play_in_a_five_player_game():
    with pytest.raises(SetupError, match="martell cannot play in a 5-player game"):
        check_houses(["stark", "lannister", "greyjoy", "martell", "baratheon"], BOARD)


@pytest.mark.parametrize("odd", ["martell", "tyrell"])
def test_R031_neither_martell_nor_tyrell_in_a_four_player_game(odd):
    with pytest.raises(SetupError, match=f"{odd} cannot play in a 4-player game"):
        check_houses(["stark", "lannister", "baratheon", odd], BOARD)


@pytest.mark.parametrize("odd", ["martell", "tyrell", "greyjoy"])
def test_R032_a_three_player_game_is_stark_lannister_baratheon(odd):
    with pytest.raises(SetupError, match=f"{odd} cannot play in a 3-player game"):
        check_houses(["stark", "lannister", odd], BOARD)


def test_houses_come_back_in_canonical_order_whatever_the_input_order():
    assert check_houses([" Baratheon", "STARK", "lannister "], BOARD) == ["stark", "lannister", "baratheon"]


# --- the board at setup -------------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R019_R034_the_game_starts_in_round_1_at_planning(n):
    s = game(n)
    assert (s.round, s.phase, s.winner, s.pending) == (1, "planning", None, [])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R016_wildling_threat_starts_at_2(n):
    assert game(n).wildling_threat == 2


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R025_starting_units_as_the_player_screens_show(n):
    s = game(n)
    expected = {}
    for h in GAMES[n]:
        for area, units in STARTING_UNITS[h].items():
            expected[area] = sorted((h, u) for u in units)
    actual = {a: sorted((u.house, u.type) for u in st.units) for a, st in s.areas.items() if st.units}
    assert actual == expected
    assert not any(u.routed for st in s.areas.values() for u in st.units)
    assert not any(st.order or st.power_token for st in s.areas.values())


@pytest.mark.parametrize("n", [3, 4, 5])
def test_ruling_1_lannister_has_a_ship_in_the_port_of_lannisport_at_every_player_count(n):
    assert game(n).area("port_of_lannisport").units == [Unit("lannister", "ship")]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R026_each_garrison_on_its_home_area_with_strength_2(n):
    s = game(n)
    garrisons = {a: st.garrison for a, st in s.areas.items() if st.garrison}
    assert garrisons == {BOARD.home_area(h): 2 for h in GAMES[n]}


def test_E01_R032_three_players_place_all_14_tokens_3_side_up():
    s = game(3)
    forces = {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force}
    impassable_land = [a for a in s.impassable if BOARD.area(a).is_land]
    assert len(forces) + len(impassable_land) == 14  # 000:2037-2041
    assert sorted(impassable_land) == THREE_PLAYER_IMPASSABLE
    assert not set(forces) & set(impassable_land)


def test_ruling_101_three_players_keep_neutral_forces_in_kings_landing_and_the_eyrie():
    s = game(3)
    assert {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force} == {
        "kings_landing": 5, "the_eyrie": 6,
    }


def test_ruling_100_three_players_close_the_ports_of_impassable_areas():
    s = game(3)
    ports = sorted(a for a in s.impassable if BOARD.area(a).is_port)
    assert ports == ["port_of_oldtown", "port_of_pyke", "port_of_storms_end", "port_of_sunspear"]
    for p in ports:
        assert BOARD.area(p).port_of in s.impassable
    s.area_mut("port_of_storms_end").units.append(Unit("baratheon", "ship"))
    assert any("impassable" in p for p in s.check())


def test_R031_four_players_place_12_tokens():
    s = game(4)
    forces = {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force}
    assert forces == {
        "dornish_marches": 3, "kings_landing": 5, "oldtown": 3, "princes_pass": 3, "salt_shore": 3, "starfall": 3,
        "storms_end": 4, "sunspear": 5, "the_boneway": 3, "the_eyrie": 6, "three_towers": 3, "yronwood": 3,
    }
    assert s.impassable == []


def test_R030_five_players_place_9_tokens():
    s = game(5)
    forces = {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force}
    assert forces == {
        "kings_landing": 5, "princes_pass": 3, "salt_shore": 3, "starfall": 3, "sunspear": 5, "the_boneway": 3,
        "the_eyrie": 6, "three_towers": 3, "yronwood": 3,
    }
    assert s.impassable == []


def test_E25_sunspear_holds_a_neutral_force_of_5_in_a_five_player_game():
    assert game(5).area("sunspear").neutral_force == 5  # 000:1936-1948


def test_R029_six_players_place_only_the_4_6_tokens():
    s = game(6)
    assert {a: st.neutral_force for a, st in s.areas.items() if st.neutral_force} == {
        "kings_landing": 5, "the_eyrie": 6,
    }
    assert s.impassable == []


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_neutral_forces_never_sit_on_a_home_area_of_a_house_in_play(n):
    s = game(n)
    homes = {BOARD.home_area(h) for h in GAMES[n]}
    assert not homes & {a for a, st in s.areas.items() if st.neutral_force}
    assert not homes & set(s.impassable)


# --- tracks and dominance tokens ----------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R023_tracks_are_the_six_player_order_slid_left(n):
    s = game(n)
    for track in TRACKS:
        six = BOARD.setups[6].tracks[track]
        assert s.tracks[track] == [h for h in six if h in GAMES[n]], track


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R024_position_1_of_each_track_holds_its_dominance_token_unused(n):
    s = game(n)
    d = s.dominance()
    assert d["iron_throne"] == {"holder": s.tracks["iron_throne"][0], "used": False}
    assert d["valyrian_steel_blade"] == {"holder": s.tracks["fiefdoms"][0], "used": False}
    assert d["messenger_raven"] == {"holder": s.tracks["kings_court"][0], "used": False}
    assert s.holder("iron_throne") == "baratheon"
    assert s.turn_order() == s.tracks["iron_throne"]


def test_R023_four_player_tracks_spelled_out():
    s = game(4)  # 000:208-214: Tyrell and Martell removed, the others slid left
    assert s.tracks == {
        "iron_throne": ["baratheon", "lannister", "stark", "greyjoy"],
        "fiefdoms": ["greyjoy", "stark", "baratheon", "lannister"],
        "kings_court": ["lannister", "stark", "baratheon", "greyjoy"],
    }


@pytest.mark.parametrize("n,overlay", [(3, True), (4, True), (5, False), (6, False)])
def test_R095_kings_court_overlay_only_with_3_or_4_players(n, overlay):
    s = game(n)
    assert s.kings_court_overlay is overlay
    stars = [s.stars(h, BOARD) for h in s.tracks["kings_court"]]
    assert stars == ([3, 2, 1, 0] if overlay else [3, 3, 2, 1, 0, 0])[:n]


# --- each house's holdings ----------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_E02_R027_each_house_takes_5_power_tokens(n):
    s = game(n)
    assert {h: s.houses[h].power for h in GAMES[n]} == dict.fromkeys(GAMES[n], 5)
    assert all(s.power_on_board(h) == 0 for h in GAMES[n])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R022_supply_starts_at_the_barrels_each_house_controls(n):
    s = game(n)
    for h in GAMES[n]:
        barrels = sum(a.supply for a in BOARD.land_areas() if s.controller(a.id, BOARD) == h)
        assert s.houses[h].supply == barrels == BOARD.houses[h].supply_start, h
    assert s.houses["stark"].supply == 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R248_victory_track_starts_at_castles_controlled_stark_2_others_1(n):
    s = game(n)
    assert {h: s.castles(h, BOARD) for h in GAMES[n]} == {h: 2 if h == "stark" else 1 for h in GAMES[n]}


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_R021_each_house_holds_its_seven_house_cards(n):
    s = game(n)
    for h in GAMES[n]:
        hand = s.houses[h].hand
        assert len(hand) == 7 and sorted(hand) == sorted(c.id for c in CARDS.house_cards.values()
                                                          if c.house == h and c.set == "base")
        assert s.houses[h].discards == []
    assert set(s.houses) == set(GAMES[n]) and "house_cards" not in s.options  # the base decks leave no mark


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_ruling_370_a_base_game_may_deal_the_a_dance_with_dragons_decks(n):
    s = new_game(GAMES[n], seed="adwd", house_cards="adwd")
    for h in GAMES[n]:
        assert sorted(s.houses[h].hand) == sorted(c.id for c in CARDS.house_cards.values()
                                                  if c.house == h and c.set == "adwd")
    assert s.options["house_cards"] == "adwd" and not s.check(BOARD)
    base = new_game(GAMES[n], seed="adwd")
    assert s.areas == base.areas and s.westeros_decks == base.westeros_decks  # only the hands differ
    with pytest.raises(SetupError, match="unknown house deck 'affc'; the house decks are base and adwd"):
        new_game(GAMES[n], seed="adwd", house_cards="affc")


def test_houses_not_in_play_have_nothing_on_the_board():
    s = game(3)
    assert {u.house for st in s.areas.values() for u in st.units} == set(GAMES[3])
    assert sorted(s.houses) == sorted(GAMES[3])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_setup_passes_the_box_check(n):
    assert game(n).check() == []
    assert game(n, tides_of_battle=True).check() == []


# --- decks and the seed -------------------------------------------------------------------------


def test_R017_each_westeros_deck_holds_its_own_ten_cards_shuffled():
    s = game(4)
    for n in ("1", "2", "3"):
        assert Counter(s.westeros_decks[n]) == Counter(CARDS.westeros_deck(int(n)))
        assert len(s.westeros_decks[n]) == 10
        assert s.westeros_discards[n] == []


def test_R017_the_westeros_decks_are_shuffled_not_in_box_order():
    # with 10 cards a shuffle leaves box order unchanged once in 3.6 million
    orders = [tuple(new_game(GAMES[4], seed=f"s{i}").westeros_decks["1"]) for i in range(5)]
    assert tuple(CARDS.westeros_deck(1)) not in orders
    assert len(set(orders)) > 1


def test_R016_the_wildling_deck_holds_all_nine_cards_shuffled():
    s = game(4)
    assert sorted(s.wildling_deck) == sorted(CARDS.wildling_cards)
    decks = {tuple(new_game(GAMES[4], seed=f"w{i}").wildling_deck) for i in range(5)}
    assert len(decks) > 1


def test_decks_are_reproducible_from_the_seed():
    a, b = new_game(GAMES[5], seed="same", tides_of_battle=True), new_game(GAMES[5], seed="same", tides_of_battle=True)
    assert a == b
    c = new_game(GAMES[5], seed="other", tides_of_battle=True)
    assert (a.westeros_decks, a.wildling_deck, a.tides_deck) != (c.westeros_decks, c.wildling_deck, c.tides_deck)


def test_R028_tides_of_battle_deck_only_when_chosen():
    without, with_tides = game(6), game(6, tides_of_battle=True)
    assert without.tides_deck == [] and without.options["tides_of_battle"] is False
    assert Counter(with_tides.tides_deck) == Counter(CARDS.tides_deck())
    assert len(with_tides.tides_deck) == 24
    assert with_tides.options["tides_of_battle"] is True


def test_the_seed_counter_counts_every_shuffle():
    assert game(4).rng_counter == 4  # three Westeros decks and the wildling deck
    assert game(4, tides_of_battle=True).rng_counter == 5
