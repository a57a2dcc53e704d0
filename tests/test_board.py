"""The board's facts: counts, borders, ports, islands, and every fact the rulebook's examples imply.

Line numbers (000:N) are lines of the rulebook text; E-numbers are the worked examples.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from adjudicator.game.board import HOUSES, Board
from adjudicator.game.commands import ORDER_TOKENS, SPECIAL_TOKENS

BOARD = Board.classic()


def kinds(a: str, b: str) -> tuple[str, str]:
    return tuple(sorted((BOARD.area(a).kind, BOARD.area(b).kind)))  # type: ignore[return-value]


# --- counts -------------------------------------------------------------------------------------


def test_R003_the_map_has_58_areas_38_land_12_sea_8_ports():
    assert len(BOARD.areas) == 58
    assert Counter(a.kind for a in BOARD.areas.values()) == {"land": 38, "sea": 12, "port": 8}


def test_143_borders_each_listed_once_and_symmetric():
    pairs = [tuple(sorted(p)) for p in BOARD.border_pairs]
    assert len(pairs) == 143
    assert len(set(pairs)) == 143, "a border is listed twice"
    assert all(a != b for a, b in pairs)
    for a, nbrs in BOARD.neighbours.items():
        for b in nbrs:
            assert a in BOARD.neighbours[b], f"{a} -> {b} is not symmetric"
    assert sum(len(n) for n in BOARD.neighbours.values()) == 2 * 143


def test_borders_by_kind_63_land_land_52_land_sea_12_sea_sea_8_port_land_8_port_sea():
    by_kind = Counter(kinds(a, b) for a, b in BOARD.border_pairs)
    assert by_kind == {
        ("land", "land"): 63, ("land", "sea"): 52, ("sea", "sea"): 12, ("land", "port"): 8, ("port", "sea"): 8,
    }


def test_10_castles_and_10_strongholds():
    forts = {a.id: a.fortification for a in BOARD.areas.values() if a.has_castle}
    assert sorted(a for a, f in forts.items() if f == "stronghold") == [
        "dragonstone", "highgarden", "kings_landing", "lannisport", "oldtown", "pyke", "riverrun", "seagard",
        "sunspear", "winterfell",
    ]
    assert sorted(a for a, f in forts.items() if f == "castle") == [
        "crackclaw_point", "flints_finger", "harrenhal", "moat_cailin", "starfall", "storms_end", "the_eyrie",
        "the_reach", "white_harbor", "yronwood",
    ]
    assert all(BOARD.area(a).is_land for a in forts)


def test_R068_mustering_points_stronghold_2_castle_1_else_0():
    assert BOARD.area("winterfell").muster_points == 2
    assert BOARD.area("white_harbor").muster_points == 1
    assert BOARD.area("karhold").muster_points == 0


def test_24_supply_barrels_and_19_power_crowns_on_18_areas():
    assert sum(a.supply for a in BOARD.areas.values()) == 24
    assert sum(a.power for a in BOARD.areas.values()) == 19
    assert sum(1 for a in BOARD.areas.values() if a.power) == 18
    assert BOARD.area("kings_landing").power == 2


def test_only_land_areas_have_barrels_crowns_or_castles():
    for a in BOARD.areas.values():
        if not a.is_land:
            assert (a.supply, a.power, a.fortification, a.home_of) == (0, 0, "none", None), a.id


def test_R004_each_house_has_one_home_area_with_a_stronghold():
    homes = {a.home_of: a.id for a in BOARD.areas.values() if a.home_of}
    assert homes == {
        "stark": "winterfell", "lannister": "lannisport", "greyjoy": "pyke", "tyrell": "highgarden",
        "baratheon": "dragonstone", "martell": "sunspear",
    }
    for house, area in homes.items():
        assert BOARD.home_area(house) == area
        assert BOARD.area(area).fortification == "stronghold"


def test_R011_unit_limits_per_house():
    assert {u: BOARD.unit_limit(u) for u in ("footman", "knight", "ship", "siege_engine")} == {
        "footman": 10, "knight": 5, "ship": 6, "siege_engine": 2,
    }
    assert BOARD.constants["power_tokens_max_per_house"] == 20


def test_R112_fifteen_order_tokens_five_of_them_special():
    assert sum(ORDER_TOKENS.values()) == 15
    assert sum(ORDER_TOKENS[t] for t in SPECIAL_TOKENS) == 5
    assert sorted(SPECIAL_TOKENS) == ["consolidate*", "defense+2", "march+1", "raid*", "support+1"]


# --- ports and islands --------------------------------------------------------------------------

PORTS = {
    "port_of_winterfell": ("winterfell", "bay_of_ice"),
    "port_of_white_harbor": ("white_harbor", "the_narrow_sea"),
    "port_of_pyke": ("pyke", "ironmans_bay"),
    "port_of_lannisport": ("lannisport", "the_golden_sound"),
    "port_of_dragonstone": ("dragonstone", "shipbreaker_bay"),
    "port_of_storms_end": ("storms_end", "shipbreaker_bay"),
    "port_of_sunspear": ("sunspear", "east_summer_sea"),
    "port_of_oldtown": ("oldtown", "redwyne_straights"),
}


@pytest.mark.parametrize("port", sorted(PORTS))
def test_R253_a_port_touches_only_its_land_area_and_the_one_sea_it_opens_onto(port):
    land, sea = PORTS[port]
    p = BOARD.area(port)
    assert (p.port_of, p.opens_onto) == (land, sea)
    assert BOARD.neighbours[port] == {land, sea}
    assert BOARD.area(land).port == port
    assert BOARD.adjacent(land, sea), "a port's land area borders the port's sea"


def test_only_the_eight_listed_land_areas_have_ports():
    assert {a.id for a in BOARD.land_areas() if a.port} == {land for land, _ in PORTS.values()}


def test_R259_the_islands_are_dragonstone_pyke_the_arbor_with_no_land_neighbour():
    islands = sorted(a.id for a in BOARD.areas.values() if a.island)
    assert islands == ["dragonstone", "pyke", "the_arbor"]  # 000:1964-1965
    for island in islands:
        assert not [n for n in BOARD.neighbours[island] if BOARD.area(n).is_land], island


def test_every_land_area_is_reachable_and_every_sea_touches_land():
    for a in BOARD.areas.values():
        assert BOARD.neighbours[a.id], f"{a.id} has no neighbour"
        if a.is_sea:
            assert any(BOARD.area(n).is_land for n in BOARD.neighbours[a.id]), a.id


# --- facts implied by the rulebook's examples ---------------------------------------------------

EXAMPLE_BORDERS = [
    ("riverrun", "the_golden_sound", "000:609, E08: a ship mustered from Riverrun into the Golden Sound"),
    ("highgarden", "west_summer_sea", "000:1002-1010, E12: Greyjoy raids Highgarden from the West Summer Sea"),
    ("dornish_marches", "the_reach", "000:1016-1017, E12: Lannister raids the Dornish Marches from The Reach"),
    ("lannisport", "stoney_sept", "000:1020-1021, E12: Baratheon raids Lannisport from Stoney Sept"),
    ("lannisport", "searoad_marches", "000:1106-1110, E13: a march from Lannisport into the Searoad Marches"),
    ("blackwater", "the_reach", "000:1301-1308, E16: Tyrell marches from The Reach into Blackwater"),
    ("blackwater", "kings_landing", "E16: support from King's Landing into Blackwater"),
    ("blackwater", "stoney_sept", "E16: support from Stoney Sept into Blackwater"),
    ("blackwater", "harrenhal", "E16: support from Harrenhal into Blackwater"),
    ("kings_landing", "kingswood", "000:1436-1437, E18: Tyrell marches from King's Landing into the Kingswood"),
    ("kingswood", "storms_end", "000:1537-1541, E20: Tyrell retreats from the Kingswood to Storm's End"),
    ("storms_end", "the_boneway", "E20: Baratheon attacks Storm's End from The Boneway"),
    ("highgarden", "redwyne_straights", "000:1707-1711, E23: transport from Highgarden"),
    ("redwyne_straights", "west_summer_sea", "E23: consecutively adjacent ships"),
    ("east_summer_sea", "west_summer_sea", "E23: consecutively adjacent ships"),
    ("east_summer_sea", "sunspear", "E23: transport lands in Sunspear"),
    ("port_of_sunspear", "sunspear", "000:1856-1866, E24: a ship mustered at Sunspear into its port"),
    ("sea_of_dorne", "sunspear", "E24: the Sea of Dorne would also have been legal"),
    ("east_summer_sea", "port_of_sunspear", "E24: the raid from the Port of Sunspear hits the East Summer Sea"),
    ("sunspear", "yronwood", "000:1937-1944, E25: Tyrell marches from Yronwood into Sunspear"),
    ("dragonstone", "shipbreaker_bay", "Baratheon's starting ships lie next to Dragonstone"),
]


@pytest.mark.parametrize("a,b,source", EXAMPLE_BORDERS, ids=[f"{a}-{b}" for a, b, _ in EXAMPLE_BORDERS])
def test_examples_imply_these_borders(a, b, source):
    assert BOARD.adjacent(a, b) and BOARD.adjacent(b, a), source


EXAMPLE_NON_BORDERS = [
    ("port_of_sunspear", "sea_of_dorne", "E24: a port opens onto one sea only"),
    ("highgarden", "sunspear", "E23: transport does not make them adjacent"),
]


@pytest.mark.parametrize("a,b,source", EXAMPLE_NON_BORDERS, ids=[f"{a}-{b}" for a, b, _ in EXAMPLE_NON_BORDERS])
def test_examples_imply_these_areas_do_not_border(a, b, source):
    assert not BOARD.adjacent(a, b), source


def test_E12_the_sunset_sea_borders_exactly_these_areas():
    # 000:1027-1028: Lannister's Sunset Sea raid finds no target among its neighbours
    assert BOARD.neighbours["sunset_sea"] == {
        "bay_of_ice", "flints_finger", "ironmans_bay", "searoad_marches", "the_golden_sound", "west_summer_sea",
    }


def test_E07_riverrun_and_seagard_have_one_barrel_each():
    assert (BOARD.area("riverrun").supply, BOARD.area("seagard").supply) == (1, 1)  # 000:522-538


def test_E08_mustering_areas_lannisport_harrenhal_riverrun_stoney_sept():
    assert BOARD.area("lannisport").muster_points == 2  # 000:597-614
    assert BOARD.area("harrenhal").muster_points == 1
    assert BOARD.area("riverrun").muster_points == 2
    assert BOARD.area("stoney_sept").muster_points == 0
    assert BOARD.adjacent("lannisport", "the_golden_sound")


def test_E15_dragonstone_has_exactly_one_power_icon():
    assert BOARD.area("dragonstone").power == 1  # 000:1169-1179


def test_E05_supply_3_allows_armies_of_3_2_2_2():
    assert BOARD.supply_limits(3) == (3, 2, 2, 2)  # 000:486-488


def test_E06_supply_2_allows_armies_of_3_2_2():
    assert BOARD.supply_limits(2) == (3, 2, 2)  # 000:492-496


def test_E07_supply_5_allows_armies_of_4_3_2_2():
    limits = BOARD.supply_limits(5)
    assert sorted(limits, reverse=True)[:4] == [4, 3, 2, 2]  # 000:528-529


def test_R059_supply_track_runs_0_to_6_and_limits_never_shrink():
    table = [BOARD.supply_limits(n) for n in range(7)]
    for lower, higher in itertools.pairwise(table):
        assert len(higher) >= len(lower)
        assert all(h >= lo for h, lo in zip(higher, lower))
    assert BOARD.supply_limits(9) == BOARD.supply_limits(6)  # clamped to the track


def test_E11_kings_court_stars_with_5_or_6_players():
    stars = [BOARD.kings_court_stars(p, overlay=False) for p in range(1, 7)]
    assert stars[0] == 3 and stars[3] == 1 and stars[4] == 0  # 000:830-834, 1558-1561
    assert stars == [3, 3, 2, 1, 0, 0]


def test_R095_kings_court_overlay_stars_with_3_or_4_players():
    assert [BOARD.kings_court_stars(p, overlay=True) for p in range(1, 5)] == [3, 2, 1, 0]
    assert BOARD.kings_court_stars(5, overlay=True) == 0


def test_R005_six_player_track_orders():
    s = BOARD.setups[6]
    assert s.tracks["iron_throne"] == ("baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell")
    assert s.tracks["fiefdoms"] == ("greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister")
    assert s.tracks["kings_court"] == ("lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy")


def test_board_area_repr_can_be_pasted_back_and_unknown_ids_raise():
    assert repr(BOARD.area("kings_landing")) == "board.area('kings_landing')"
    assert eval(repr(BOARD.area("kings_landing")), {"board": BOARD}) is BOARD.area("kings_landing")
    with pytest.raises(KeyError):
        BOARD.area("kings_landin")


def test_every_house_is_on_the_board():
    assert sorted(BOARD.houses) == sorted(HOUSES)
