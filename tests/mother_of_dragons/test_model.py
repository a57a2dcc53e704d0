"""Mother of Dragons' state: its parts, their text forms and limits, and the rules the model itself keeps.

Covers M084 (Targaryen's start on the victory track), M097 (position 8), M114 (sea orders), M119-M120's
lookup (an area's icons as its tokens leave them), M122-M123 (the house-card sets), and the state's
lossless TOML, schema versions, ``check()`` and JSON view for an expansion game.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.core.bidding import move_on_track
from adjudicator.game.cards import CARDS, STANDARD_SETS
from adjudicator.game.commands import SEA_ORDER_TOKENS, SPECIAL_TOKENS, order_bonus, order_kind, order_kinds
from adjudicator.game.mod_board import WESTEROSI
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import SetupError, new_game
from adjudicator.game.state import SCHEMA_VERSION, GameState, Order, StateError, Unit
from adjudicator.game.validation import IMPROVEMENT_TOKENS
from adjudicator.reports.show import json_view, summary

FOUR_T = ["stark", "lannister", "arryn", "targaryen"]
EIGHT = [*WESTEROSI, "targaryen"]


def game(houses: list[str] = FOUR_T, seed: str = "model") -> GameState:
    return new_mod_game(houses, seed=seed)


# --- Targaryen's place ----------------------------------------------------------------------------


def test_M084_targaryen_starts_on_space_1_of_the_victory_track_for_pentos():
    s = game()
    board = s.board()
    assert s.victory("targaryen", board) == 1 and s.loyalty_gained == 0
    assert s.castles("targaryen", board) == 1  # Pentos is a stronghold, but the track counts it as Pentos
    s.area_mut("pentos").units = [Unit("stark", "footman")]
    s.area_mut("pentos").garrison = 0
    s.area_mut("pentos").units.clear()
    s.area_mut("pentos").power_token = "stark"
    assert s.victory("targaryen", board) == 0  # Pentos lost (M085's effect follows from control)
    s.loyalty_gained = 3
    assert s.victory("targaryen", board) == 3


def test_M097_targaryen_holds_position_8_of_every_track_from_the_start():
    s = game(EIGHT)
    assert all(s.tracks[t][-1] == "targaryen" and s.position(t, "targaryen") == 8 for t in s.tracks)


def test_M097_ruling_253_no_track_move_shifts_targaryen_or_puts_another_house_in_position_8():
    s = game()
    move_on_track(s, "fiefdoms", "targaryen", 1)
    assert s.tracks["fiefdoms"][-1] == "targaryen"
    move_on_track(s, "fiefdoms", "stark", 8)  # "to the bottom" is position 7 when Targaryen plays
    assert s.tracks["fiefdoms"][-2:] == ["stark", "targaryen"]
    classic = new_game(["stark", "lannister", "baratheon"], seed="x")
    move_on_track(classic, "fiefdoms", "stark", 3)
    assert classic.tracks["fiefdoms"][-1] == "stark"


def test_M097_without_targaryen_a_house_may_move_to_the_last_place_of_a_track():
    from adjudicator.game.mod_setup import new_mod_game

    s = new_mod_game(["stark", "lannister", "baratheon", "greyjoy"], seed="no-targaryen")
    track = s.tracks["fiefdoms"]
    assert "targaryen" not in track
    top = track[0]
    move_on_track(s, "fiefdoms", top, len(track))
    assert s.tracks["fiefdoms"][-1] == top


def test_M097_a_track_with_targaryen_out_of_place_breaks_the_box():
    s = game()
    s.tracks["kings_court"].remove("targaryen")
    s.tracks["kings_court"].insert(0, "targaryen")
    assert any("M097" in p for p in s.check())


# --- orders -----------------------------------------------------------------------------------------


def test_M114_ruling_206_each_player_has_three_sea_orders_none_special():
    s = game()
    for h in s.players():
        owned = s.order_tokens(h)
        assert {t: owned[t] for t in SEA_ORDER_TOKENS} == {"sea_march": 1, "sea_support": 1, "iron_bank": 1}
        assert sum(owned.values()) == 18
    assert not set(SEA_ORDER_TOKENS) & SPECIAL_TOKENS
    assert not Order("stark", "sea_march").special
    assert not set(SEA_ORDER_TOKENS) & set(new_game(["stark", "lannister", "baratheon"], seed="x").order_tokens("stark"))


def test_M114_ruling_207_a_sea_order_is_the_order_it_names():
    assert (order_kind("sea_march"), order_bonus("sea_march")) == ("march", -1)
    assert (order_kind("sea_support"), order_bonus("sea_support")) == ("support", 0)
    assert order_kind("iron_bank") == "iron_bank"
    assert order_kinds("vassal_raid_support") == ("raid", "support") and order_bonus("vassal_defense") == 3


def test_M114_ruling_205_the_iron_bank_order_stays_with_a_house_in_a_game_without_targaryen():
    s = game(list(WESTEROSI[:4]))
    assert s.order_tokens("stark")["iron_bank"] == 1


def test_M114_a_second_sea_order_of_a_kind_or_a_vassal_token_on_a_player_breaks_the_box():
    s = game()
    s.area_mut("the_shivering_sea").units.append(Unit("stark", "ship"))
    s.area_mut("the_shivering_sea").order = Order("stark", "sea_march")
    s.area_mut("bay_of_ice").units.append(Unit("stark", "ship"))
    s.area_mut("bay_of_ice").order = Order("stark", "sea_march")
    s.area_mut("white_harbor").order = Order("stark", "vassal_defense")
    problems = " | ".join(s.check())
    assert "2 'sea_march' orders; it owns 1" in problems and "'vassal_defense' order, a token it does not own" in problems


# --- cards --------------------------------------------------------------------------------------------


def test_M122_the_standard_sets_base_cards_arryns_own_and_targaryen_a():
    s = game(EIGHT)
    for h in s.players():
        sets = {CARDS.house_cards[c].set for c in s.houses[h].hand}
        assert sets == ({"arryn_mod"} if h == "arryn" else {"targaryen_a"} if h == "targaryen" else {"base"})
        assert len(s.houses[h].hand) == 7
    assert {"base", "arryn_mod", "targaryen_a"} == STANDARD_SETS
    assert sum(CARDS.house_cards[c].strength for c in s.houses["arryn"].hand) == 13


def test_M123_ruling_370_the_alternate_set_deals_adwd_affc_and_targaryen_b():
    s = new_mod_game(FOUR_T, seed="x", alternate_cards=True)
    assert s.house_deck() == "adwd" and s.options["house_cards"] == "adwd" and not s.check(s.board())
    for h in s.players():
        sets = {CARDS.house_cards[c].set for c in s.houses[h].hand}
        assert sets == ({"arryn_affc"} if h == "arryn" else {"targaryen_b"} if h == "targaryen" else {"adwd"})
        assert len(s.houses[h].hand) == 7
    assert new_mod_game(FOUR_T, seed="x", house_cards="adwd").houses == s.houses
    with pytest.raises(SetupError, match="unknown house deck 'affc'"):
        new_mod_game(FOUR_T, seed="x", house_cards="affc")


# --- an area's icons as its tokens leave them (M119, M120; the lookup for WP4) --------------------------


def test_an_areas_icons_count_its_improvement_and_degradation_tokens():
    s = game()
    board = s.board()
    assert s.effective_area("seagard", board) is board.area("seagard")  # no token: the board's own
    s.area_mut("seagard").improvements = ["+supply", "+supply", "+power", "+stronghold"]
    seagard = s.effective_area("seagard", board)
    printed = board.area("seagard")
    assert (seagard.supply, seagard.power, seagard.fortification) == (printed.supply + 2, printed.power + 1,
                                                                      "stronghold")
    s.area_mut("white_harbor").improvements = ["-castle"]
    assert s.effective_area("white_harbor", board).has_castle is False
    assert s.castles("stark", board) == 1  # Winterfell alone: the degraded castle counts for nothing


def test_improvement_tokens_feed_supply_crowns_and_mustering():
    from adjudicator.engine.core.common import supply_count
    from adjudicator.engine.core.mustering import mustering_areas

    s = game()
    board = s.board()
    before = supply_count(s, board, "stark")
    s.area_mut("winterfell").improvements = ["+supply"]
    assert supply_count(s, board, "stark") == before + 1
    s.area_mut("white_harbor").improvements = ["-castle"]
    assert mustering_areas(s, board, "stark") == ["winterfell"]


def test_more_than_15_improvement_tokens_break_the_box():
    s = game()
    s.area_mut("winterfell").improvements = ["+power"] * 16
    assert any("improvement" in p for p in s.check())


# --- the state's text forms ------------------------------------------------------------------------------


def test_an_expansion_state_round_trips_through_toml_with_every_part():
    s = game(EIGHT)
    s.commanders = {}
    s.area_mut("kings_landing").loyalty = 3
    s.area_mut("seagard").improvements = ["+power", "-castle"]
    s.houses["stark"].loans = [s.loan_deck.pop()]
    s.braavos_token = "lannister"
    s.loyalty_gained = 2
    s.dragon_tokens = [6, 8, 10]
    back = GameState.from_toml(s.to_toml())
    assert back == s and back.variant == "mother-of-dragons"
    text = s.to_toml()
    assert 'schema_version = 3' in text and 'variant = "mother-of-dragons"' in text
    assert "\n[mother_of_dragons]\n" in text and 'braavos_token = "lannister"' in text, "the box's own table (ruling 341)"


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 7), targaryen=st.booleans(), seed=st.text(max_size=6))
def test_every_expansion_setup_round_trips_and_holds_the_box(n, targaryen, seed):
    houses = [*WESTEROSI[: n - 1], "targaryen"] if targaryen and n >= 4 else list(WESTEROSI[:n])
    s = new_mod_game(houses, seed=seed)
    assert GameState.from_toml(s.to_toml()) == s
    assert s.check() == []


def test_a_classic_state_is_written_as_before_and_read_as_classic():
    s = new_game(["stark", "lannister", "baratheon"], seed="x")
    text = s.to_toml()
    assert text.startswith("schema_version = 1\n") and "variant" not in text and "vassals" not in text
    assert GameState.from_toml(text).variant == "classic"


def test_a_schema_1_state_naming_an_expansion_or_a_newer_schema_is_refused():
    d = new_game(["stark", "lannister", "baratheon"], seed="x").to_dict() | {"variant": "mother-of-dragons"}
    with pytest.raises(StateError, match="schema_version 1 state is a classic game"):
        GameState.from_dict(d)
    with pytest.raises(StateError, match=f"schema_version {SCHEMA_VERSION + 1} is newer"):
        GameState.from_dict(game().to_dict() | {"schema_version": SCHEMA_VERSION + 1})


@pytest.mark.parametrize("key, value, message", [
    ("variant", "chess", "'chess' is not a variant"),
    ("vassals", ["targaryen"], "not a Westerosi house in play"),
    ("commanders", {"stark": "lannister"}, "not a vassal"),
    ("commanders", {"tyrell": "greyjoy"}, "not a player house"),
    ("dragon_tokens", [11], "not a round of the round track"),
    ("loan_slots", ["", "", "bribe"], "not a loan of the Iron Bank"),
    ("braavos_token", "tyrell", "not a player house"),
])
def test_a_damaged_expansion_state_is_refused_naming_its_key(key, value, message):
    d = game().to_dict()
    if key == "variant":
        d[key], path = value, key
    else:  # the box's own keys lie in its table (ruling 341)
        d["mother_of_dragons"], path = d["mother_of_dragons"] | {key: value}, f"mother_of_dragons.{key}"
    with pytest.raises(StateError, match=f"^{path}.*{message}"):
        GameState.from_dict(d)


def test_a_damaged_area_or_house_of_an_expansion_state_is_refused():
    d = game().to_dict()
    d["areas"]["winterfell"]["improvements"] = ["+castle"]
    with pytest.raises(StateError, match=r"areas.winterfell.improvements: '\+castle' is not an improvement token"):
        GameState.from_dict(d)
    d = game().to_dict()
    d["houses"]["stark"]["loans"] = ["eddard_stark"]
    with pytest.raises(StateError, match="houses.stark.loans"):
        GameState.from_dict(d)
    assert "+supply" in IMPROVEMENT_TOKENS


def test_check_names_the_broken_expansion_limits():
    s = game()
    s.commanders = {"greyjoy": "tyrell"}
    s.vassal_sets = ["tyrell"]
    s.loan_slots = s.loan_slots + [""]
    s.area_mut("the_narrow_sea").loyalty = 1
    problems = " | ".join(s.check())
    for rule in ("M030", "M019", "M105", "M083"):
        assert rule in problems, rule


def test_the_json_view_shows_the_expansions_parts():
    s = game()
    view = json_view(s)
    json.dumps(view)
    assert view["variant"] == "mother-of-dragons" and view["vassals"] == s.vassals
    assert view["houses"]["targaryen"]["victory"] == 1 and view["houses"]["tyrell"]["vassal"] is True
    assert view["areas"]["kings_landing"]["loyalty"] == 1
    assert view["dragons"] == {"tokens_on_round_track": [2, 4, 6, 8, 10], "strength": 0}
    assert view["iron_bank"]["slots"][2] == s.loan_slots[2] and view["iron_bank"]["deck"] == 11
    assert "loan_deck" not in json.dumps(view)  # the deck's order is the moderator's secret
    assert view["decks"]["westeros"]["4"] == 10


def test_the_summary_names_vassals_their_commanders_and_targaryens_loyalty():
    s = game()
    s.commanders = {"greyjoy": "stark"}
    s.vassal_sets = s.vassal_sets[1:]
    text = summary(s)
    assert "Vassals (*):  Greyjoy (commanded by Stark)" in text and "Tyrell (no commander yet)" in text
    assert "Tyrell*" in text and "Iron Bank:" in text and "Dragons:      strength 0" in text
    assert "loyalty 1" in text
