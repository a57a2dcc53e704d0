"""The Mother of Dragons data files agree with themselves, with the base board and with the rules.

The expansion's board and cards live in the package's data folder, `mother_of_dragons/`, beside the
base game's board.toml and cards.toml; nothing loads them into the engine yet. These tests recount
every figure the files declare and check each fact a rule of docs/rules-mother-of-dragons.md
(M001...) or a ruling (200-275) relies on, so a wrong edit to the data fails here first.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from functools import cache
from importlib import resources
from typing import Any

import pytest

from adjudicator.game.board import HOUSES as BASE_HOUSES
from adjudicator.game.board import Board

BASE = Board.classic()
WESTEROSI = (*BASE_HOUSES, "arryn")
ALL_HOUSES = (*WESTEROSI, "targaryen")
TIMING = {"on_reveal_cancel", "on_reveal_immediately", "combat_strength", "after_victor_determined", "casualties",
          "retreat", "after_combat", "none"}
Pair = tuple[str, str]


def load(name: str) -> dict[str, Any]:
    """One of the expansion's data files, read from the installed package as the engine will."""
    text = resources.files("adjudicator.game").joinpath("data", "mother_of_dragons", name).read_text("utf-8")
    return tomllib.loads(text)


MB = load("board.toml")
MC = load("cards.toml")


@cache
def areas() -> dict[str, dict[str, Any]]:
    """Every area of the map with Essos: the base areas as the overlays change them, then the new ones."""
    merged: dict[str, dict[str, Any]] = {
        a.id: {"id": a.id, "name": a.name, "kind": a.kind, "fortification": a.fortification, "supply": a.supply,
               "power": a.power, "home_of": a.home_of, "port": a.port, "port_of": a.port_of,
               "opens_onto": a.opens_onto, "board": "westeros"}
        for a in BASE.areas.values()
    }
    for change in MB["area_change"]:
        merged[change["id"]].update({k: v for k, v in change.items() if k in merged[change["id"]]})
    for a in MB["area"]:
        merged[a["id"]] = {"home_of": None, "port": None, "port_of": None, "opens_onto": None, **a}
    return merged


def essos() -> set[str]:
    return {a for a, v in areas().items() if v["board"] == "essos"}


def pairs(key: str) -> set[Pair]:
    return {(a, b) for a, b in MB["borders"][key]}


def westeros_map() -> set[Pair]:
    return (set(BASE.border_pairs) - pairs("removed_pairs")) | pairs("added_pairs")


def essos_map() -> set[Pair]:
    return westeros_map() | pairs("essos_pairs") | pairs("cross_board_pairs")


def neighbours(border_pairs: set[Pair]) -> dict[str, set[str]]:
    nbrs: dict[str, set[str]] = {}
    for a, b in border_pairs:
        nbrs.setdefault(a, set()).add(b)
        nbrs.setdefault(b, set()).add(a)
    return nbrs


def kind(area: str) -> str:
    return str(areas()[area]["kind"])


# --- the maps -------------------------------------------------------------------------------------


def test_new_areas_have_new_ids_and_changes_name_base_areas():
    assert not {a["id"] for a in MB["area"]} & set(BASE.areas)
    assert len({a["id"] for a in MB["area"]}) == len(MB["area"])
    assert {c["id"] for c in MB["area_change"]} <= set(BASE.areas)


def test_every_border_is_sorted_listed_once_between_known_areas():
    for key in ("removed_pairs", "added_pairs", "essos_pairs", "cross_board_pairs"):
        listed = [tuple(p) for p in MB["borders"][key]]
        assert len(listed) == len(set(listed)), f"{key}: a border is listed twice"
        for a, b in listed:
            assert a < b, f"{key}: {a}-{b} is not in id order (or joins an area to itself)"
            assert a in areas() and b in areas(), f"{key}: unknown area in {a}-{b}"


def test_removed_borders_exist_in_the_base_map_and_added_ones_do_not():
    assert pairs("removed_pairs") <= set(BASE.border_pairs)
    assert not pairs("added_pairs") & set(BASE.border_pairs)


def test_borders_are_symmetric_on_both_maps():
    for border_pairs in (westeros_map(), essos_map()):
        nbrs = neighbours(border_pairs)
        assert all(a in nbrs[b] for a in nbrs for b in nbrs[a])
        assert sum(len(n) for n in nbrs.values()) == 2 * len(border_pairs)


def test_M008_the_westeros_map_has_61_areas_and_152_borders():
    west = {a for a in areas() if a not in essos()}
    c = MB["counts"]
    assert len(west) == c["westeros_mod_areas"] == 61
    assert Counter(kind(a) for a in west) == {"land": c["westeros_mod_land"], "sea": c["westeros_mod_sea"],
                                              "port": c["westeros_mod_ports"]} == {"land": 39, "sea": 13, "port": 9}
    assert len(westeros_map()) == c["westeros_mod_border_pairs"] == 152
    assert set(neighbours(westeros_map())) == west, "a Westeros area without borders, or an Essos one"


def test_M009_the_map_with_essos_has_75_areas_and_188_borders():
    c = MB["counts"]
    assert len(areas()) == c["with_essos_areas"] == 75
    assert Counter(kind(a) for a in areas()) == {"land": c["with_essos_land"], "sea": c["with_essos_sea"],
                                                 "port": c["with_essos_ports"]}
    assert len(essos_map()) == c["with_essos_border_pairs"] == 188
    assert len(essos()) == c["essos_areas"] == 14
    assert len(pairs("essos_pairs") | pairs("cross_board_pairs")) == c["essos_border_pairs"]
    assert set(neighbours(essos_map())) == set(areas())


def test_icon_counts_on_each_board():
    c = MB["counts"]
    for board, names in (("westeros_mod", set(areas()) - essos()), ("essos", essos())):
        forts = Counter(areas()[a]["fortification"] for a in names)
        assert forts["castle"] == c[f"{board}_castles"], board
        assert forts["stronghold"] == c[f"{board}_strongholds"], board
        assert sum(areas()[a]["supply"] for a in names) == c[f"{board}_supply_barrels"], board
        assert sum(areas()[a]["power"] for a in names) == c[f"{board}_power_crowns"], board


def test_only_land_areas_carry_icons_castles_or_homes():
    for a in areas().values():
        if a["kind"] != "land":
            assert (a["supply"], a["power"], a["fortification"], a["home_of"]) == (0, 0, "none", None), a["id"]


def test_essos_borders_stay_on_essos():
    for a, b in pairs("essos_pairs"):
        assert a in essos() and b in essos(), (a, b)


def test_M027_the_seven_links_join_a_westeros_sea_to_an_essos_sea():
    links = pairs("cross_board_pairs")
    assert len(links) == 7
    for a, b in links:
        assert kind(a) == kind(b) == "sea", (a, b)
        assert (a in essos()) != (b in essos()), (a, b)
    assert links == {("braavosian_coastlands", "the_shivering_sea"), ("braavosian_coastlands", "the_narrow_sea"),
                     ("bay_of_pentos", "the_narrow_sea"), ("bay_of_pentos", "shipbreaker_bay"),
                     ("sea_of_myrth", "shipbreaker_bay"), ("east_summer_sea", "sea_of_myrth"),
                     ("east_summer_sea", "the_orange_shore")}


@pytest.mark.parametrize("port", sorted(a for a, v in areas().items() if v["kind"] == "port"))
def test_each_port_touches_exactly_its_land_area_and_one_sea(port):
    a = areas()[port]
    assert kind(a["port_of"]) == "land" and kind(a["opens_onto"]) == "sea"
    assert areas()[a["port_of"]]["port"] == port, "the land area does not name its port"
    assert neighbours(essos_map())[port] == {a["port_of"], a["opens_onto"]}
    if port not in essos():
        assert neighbours(westeros_map())[port] == {a["port_of"], a["opens_onto"]}


def test_ruling_208_the_bite_takes_the_narrow_sea_s_place_in_the_north():
    west = neighbours(westeros_map())
    assert west["the_bite"] == {"moat_cailin", "port_of_white_harbor", "the_fingers", "the_narrow_sea", "the_twins",
                                "white_harbor", "widows_watch"}
    assert not {"moat_cailin", "the_twins", "white_harbor", "port_of_white_harbor"} & west["the_narrow_sea"]
    assert areas()["port_of_white_harbor"]["opens_onto"] == "the_bite"
    eyrie = areas()["the_eyrie"]
    assert (eyrie["fortification"], eyrie["home_of"], eyrie["port"]) == ("stronghold", "arryn", "port_of_the_eyrie")
    assert west["the_vale_of_arryn"] == {"the_eyrie", "the_fingers", "the_mountains_of_the_moon", "the_narrow_sea"}


# --- houses, setups, tracks -----------------------------------------------------------------------


def houses() -> dict[str, dict[str, Any]]:
    return {h["id"]: h for h in MB["house"]}


def armies(units: list[dict[str, Any]]) -> list[int]:
    """Sizes of the armies (2+ units in one area; ports count like any area, R007), largest first."""
    per_area = Counter[str]()
    for u in units:
        per_area[u["area"]] += u["count"]
    return sorted((n for n in per_area.values() if n > 1), reverse=True)


def within_supply(units: list[dict[str, Any]], level: int) -> bool:
    allowed = BASE.supply_limits(level)
    sizes = armies(units)
    return len(sizes) <= len(allowed) and all(size <= cap for size, cap in zip(sizes, allowed))


def assert_units_stand_on_the_right_kind(units: list[dict[str, Any]], who: str, may_use: set[str]) -> None:
    for u in units:
        assert u["area"] in may_use, f"{who}: {u['area']} is not on its map"
        if u["unit"] == "ship":
            assert kind(u["area"]) in ("sea", "port"), f"{who}: a ship on land in {u['area']}"
        else:
            assert kind(u["area"]) == "land", f"{who}: a {u['unit']} at sea in {u['area']}"


def test_M020_the_new_houses_start_on_their_own_boards_within_supply_and_unit_limits():
    limits = MB["constants"]["unit_limits"]
    for hid, h in houses().items():
        board = set(areas()) if hid == "targaryen" else set(areas()) - essos()
        assert_units_stand_on_the_right_kind(h["starting_units"], hid, board)
        assert within_supply(h["starting_units"], h["supply_start"]), hid
        totals = Counter[str]()
        for u in h["starting_units"]:
            totals[u["unit"]] += u["count"]
        assert all(n <= limits[hid].get(unit, 0) for unit, n in totals.items()), hid
    assert all(u["area"] in essos() for u in houses()["targaryen"]["starting_units"]), "Targaryen begins on Essos"


def test_M020_arryn_starts_with_the_supply_and_victory_its_areas_give():
    arryn = houses()["arryn"]
    held = {u["area"] for u in arryn["starting_units"] if kind(u["area"]) == "land"}
    assert sum(areas()[a]["supply"] for a in held) == arryn["supply_start"] == 1
    assert sum(areas()[a]["fortification"] != "none" for a in held) == arryn["victory_start"] == 2


def test_targaryen_starts_with_the_supply_its_areas_give_and_one_victory_point_for_pentos():
    targ = houses()["targaryen"]
    held = {u["area"] for u in targ["starting_units"] if kind(u["area"]) == "land"}
    assert sum(areas()[a]["supply"] for a in held) == targ["supply_start"] == 4
    assert targ["victory_start"] == MB["constants"]["targaryen_victory_start"] == 1
    assert areas()["pentos"]["home_of"] == "targaryen" and targ["home_area"] == "pentos"


def test_M087_three_dragons_and_48_new_plastic_units():
    limits = MB["constants"]["unit_limits"]
    assert limits["targaryen"]["dragon"] == MB["constants"]["dragon_units"] == 3
    assert sum(limits["arryn"].values()) + sum(limits["targaryen"].values()) == 48
    dragons = sum(u["count"] for u in houses()["targaryen"]["starting_units"] if u["unit"] == "dragon")
    assert dragons == 3


def test_M010_M020_one_vassal_setup_per_westerosi_house_within_supply_4():
    setups = {v["house"]: v for v in MB["vassal_setup"]}
    assert sorted(setups) == sorted(WESTEROSI) and len(MB["vassal_setup"]) == 7
    home = {h: BASE.home_area(h) for h in BASE_HOUSES} | {"arryn": "the_eyrie"}
    for hid, v in setups.items():
        assert v["home_area"] == home[hid]
        assert v["supply_start"] == MB["constants"]["vassal_supply_start"] == 4
        assert_units_stand_on_the_right_kind(v["starting_units"], f"vassal {hid}", set(areas()) - essos())
        assert within_supply(v["starting_units"], v["supply_start"]), hid
        limits = MB["constants"]["unit_limits"].get(hid) or {u: BASE.unit_limit(u) for u in
                                                             ("footman", "knight", "ship", "siege_engine")}
        totals = Counter[str]()
        for u in v["starting_units"]:
            totals[u["unit"]] += u["count"]
        assert all(n <= limits[unit] for unit, n in totals.items()), hid


def test_M021_every_garrison_stands_on_its_house_s_home_area():
    home = {h: BASE.home_area(h) for h in BASE_HOUSES} | {h: v["home_area"] for h, v in houses().items()}
    assert sorted(MB["garrisons"]) == sorted(ALL_HOUSES)
    for hid, g in MB["garrisons"].items():
        assert g["area"] == home[hid]
        assert g["strength"] == (4 if hid == "arryn" else 2)
    assert houses()["arryn"]["garrison"] == MB["garrisons"]["arryn"]


def test_M022_only_king_s_landing_and_braavos_hold_neutral_forces():
    tokens = {n["area"]: n for n in MB["neutral_force_token"]}
    assert {a: n["strength"] for a, n in tokens.items()} == {"kings_landing": 5, "braavos": 5}
    assert tokens["braavos"]["used"] == "with_targaryen" and tokens["kings_landing"]["used"] == "always"
    assert areas()["braavos"]["neutral_force"] == MB["iron_bank"]["braavos_neutral_force"] == 5


def test_M015_M097_each_track_lists_all_eight_houses_with_targaryen_eighth():
    for track, order in MB["tracks"].items():
        assert sorted(order) == sorted(ALL_HOUSES), track
        assert order[-1] == "targaryen" and MB["constants"]["targaryen_influence_position"] == 8


def test_M098_king_s_court_stars_for_eight_positions_give_targaryen_three():
    stars = MB["constants"]["kings_court_stars_8_positions"]
    assert len(stars) == 8 and stars[7] == 3
    assert stars[:6] == BASE.constants["kings_court_stars_5_6_players"], "positions 1-6 as in the base game"
    assert MB["constants"]["kings_court_overlay_used"] is False


def test_M002_M005_player_setups_cover_3_to_8_players_and_at_most_four_vassals():
    seen = set()
    for ps in MB["player_setup"]:
        assert ps["houses_in_game"] == (8 if ps["targaryen_played"] else 7)
        assert ps["houses_in_game"] - ps["players"] == ps["vassals"] <= MB["constants"]["vassal_order_token_sets"]
        assert ps["map"] == ("with_essos" if ps["targaryen_played"] else "westeros_mod")
        assert ps["essos_iron_bank_loyalty_deck4_dragons"] == ps["targaryen_played"]
        seen.add((ps["players"], ps["targaryen_played"]))
    assert seen == {(n, t) for n in range(3, 9) for t in (False, True)} - {(3, True), (8, False)}


def test_M004_M075_targaryen_plays_with_4_to_8_players_arryn_with_3_to_8():
    assert houses()["targaryen"]["plays_in"] == [4, 5, 6, 7, 8]
    assert houses()["arryn"]["plays_in"] == [3, 4, 5, 6, 7, 8]


def test_M013_M090_dragon_strength_grows_on_even_rounds_from_0_to_5():
    c = MB["constants"]
    assert c["dragon_strength_token_rounds"] == [2, 4, 6, 8, 10]
    assert c["dragon_strength_start"] == 0 and c["dragon_strength_max"] == len(c["dragon_strength_token_rounds"])


def test_M023_M079_twenty_loyalty_tokens_one_in_king_s_landing_at_setup():
    assert MB["constants"]["loyalty_tokens_total"] == 20
    assert MB["constants"]["loyalty_tokens_at_setup"] == [{"area": "kings_landing", "count": 1}]


def test_M025_every_player_starts_with_7_power():
    assert MB["constants"]["power_tokens_start"] == 7
    assert all(h["power_tokens_start"] == 7 for h in houses().values())


def test_ruling_210_river_areas_are_westeros_land_areas():
    rivers = MB["rivers"]["adjacent_land_areas"]
    assert len(rivers) == len(set(rivers)) == 12
    assert all(a in areas() and a not in essos() and kind(a) == "land" for a in rivers)


# --- order tokens ---------------------------------------------------------------------------------


def test_M114_three_sea_orders_per_house_24_in_all_none_special():
    tokens = {t["id"]: t for t in MB["sea_order_token"]}
    assert len(tokens) == MB["constants"]["sea_order_tokens_per_house"] == 3
    assert len(tokens) * len(ALL_HOUSES) == 24
    assert (tokens["sea_march"]["type"], tokens["sea_march"]["modifier"]) == ("march", -1)
    assert (tokens["sea_support"]["type"], tokens["sea_support"]["modifier"]) == ("support", 0)
    assert not any(t["special"] for t in tokens.values())


def test_M117_M118_the_iron_bank_order_resolves_with_consolidate_power_and_is_never_pillaged():
    bank = next(t for t in MB["sea_order_token"] if t["id"] == "iron_bank")
    assert bank["resolves_in"] == "consolidate_power_step" and bank["crown_icon"] is True
    assert bank["can_be_raided"] is True and bank["pillage"] is False


def test_M043_M055_four_vassal_order_tokens_in_four_sets_make_16():
    tokens = {t["id"]: t for t in MB["vassal_order_token"]}
    assert len(tokens) * MB["constants"]["vassal_order_token_sets"] == 16
    assert {i: (t["type"], t["modifier"]) for i, t in tokens.items()} == {
        "vassal_march": ("march", 0), "vassal_raid_support": ("raid_or_support", 1),
        "vassal_defense_muster": ("defense_or_muster", 1), "vassal_defense": ("defense", 3),
    }
    assert tokens["vassal_defense_muster"].get("crown_icon") is True
    assert MB["constants"]["vassal_orders_per_vassal"] == 2


# --- the Iron Bank --------------------------------------------------------------------------------


def test_M105_M112_three_slots_costing_1_4_7_and_the_braavos_discount():
    bank = MB["iron_bank"]
    assert bank["slots"] == len(bank["slot_costs_left_to_right"]) == 3
    assert bank["slot_costs_left_to_right"] == [1, 4, 7]
    assert bank["setup_cards_revealed"] == 1 and bank["interest_per_loan_per_round"] == 1
    assert bank["braavos_discount"] == areas()["braavos"]["iron_bank_discount"] == 1
    assert bank["loan_cards"] == len(MC["loan_card"]) == 12


# --- cards ----------------------------------------------------------------------------------------


def base_card_ids() -> set[str]:
    text = resources.files("adjudicator.game").joinpath("data", "cards.toml").read_text("utf-8")
    return {c["id"] for c in tomllib.loads(text)["house_card"]}


def test_four_house_card_sets_of_seven_each_summing_to_13():
    cards = MC["house_card"]
    by_set = Counter(c["set"] for c in cards)
    assert by_set == {"arryn_mod": 7, "targaryen_a": 7, "targaryen_b": 7, "arryn_affc": 7}
    assert len(cards) == MC["meta"]["house_cards"] == 28
    for s in by_set:
        assert sum(c["strength"] for c in cards if c["set"] == s) == 13, s
        assert {c["house"] for c in cards if c["set"] == s} == {s.split("_")[0]}
        assert sorted(c["strength"] for c in cards if c["set"] == s) == [0, 1, 1, 2, 2, 3, 4], s


def test_M058_the_vassal_deck_has_seven_cards_summing_to_13():
    cards = MC["vassal_house_card"]
    assert len(cards) == MC["meta"]["vassal_house_cards"] == 7
    assert sorted(c["strength"] for c in cards) == [0, 1, 1, 2, 2, 3, 4]
    assert MB["constants"]["vassal_combat_hand_size"] == 3


def test_card_ids_are_unique_and_new():
    ids = [c["id"] for key in ("house_card", "vassal_house_card", "loan_card", "westeros_card") for c in MC[key]]
    assert len(ids) == len(set(ids))
    assert not set(ids) & base_card_ids()


def test_ruling_211_every_card_text_has_a_timing_and_the_fields_it_needs():
    base = tomllib.loads(resources.files("adjudicator.game").joinpath("data", "cards.toml").read_text("utf-8"))
    assert MC["timing"]["order"] == base["timing"]["order"], "the base game's timing words, in its order"
    for c in MC["house_card"] + MC["vassal_house_card"]:
        assert c["when"] in TIMING, c["id"]
        assert c["has_ability"] == (c["when"] != "none") == bool(c["ability"]), c["id"]
        if c["has_ability"]:
            assert isinstance(c["optional"], bool) and c["condition"], c["id"]
        assert c["swords"] >= 0 and c["fortifications"] >= 0 and 0 <= c["strength"] <= 4, c["id"]


def test_M104_twelve_loans_each_with_an_effect_and_units_only_of_known_kinds():
    loans = MC["loan_card"]
    assert len(loans) == 12 and all(loan["effect"] for loan in loans)
    for loan in loans:
        assert set(loan.get("units", {})) <= {"footman", "knight", "ship", "siege_engine"}, loan["id"]


def test_M082_M083_ten_westeros_iv_cards_naming_westeros_land_areas():
    deck = MC["westeros_card"]
    assert len(deck) == MC["meta"]["westeros_deck_iv_cards"] == 10
    assert sum(c["copies"] for c in deck) == 10
    assert all(c["deck"] == 4 and not c["wildling_icon"] and c["effect"] for c in deck)
    for c in deck:
        for a in c["banner"] + c.get("choice_areas", []):
            assert a in areas() and a not in essos() and kind(a) == "land", (c["id"], a)
    assert sum(len(c["banner"]) for c in deck) == 14


def test_westeros_iv_costs_are_whole_power_or_the_victory_position():
    for c in MC["westeros_card"]:
        if c.get("cost_is_victory_position"):
            assert "cost" not in c and c["id"] == "watering_the_seed"
        elif "cost" in c:
            assert c["cost"] in (0, 1), c["id"]
        else:
            assert c["cost_to_cancel_each_move"] in (1, 2), c["id"]
