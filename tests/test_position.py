"""Position files: setup defaults, the readable forms, every refusal with its file, line and key."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_state import valid_states

from adjudicator.game.keyed_toml import key_lines
from adjudicator.game.position import PositionError, load_position, read_position
from adjudicator.game.position_dump import dump_position, unit_texts
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit

THREE = 'houses = ["stark", "lannister", "baratheon"]\n'


def load(text: str) -> GameState:
    return load_position(textwrap.dedent(text), filename="p.toml")


def refused(text: str) -> PositionError:
    with pytest.raises(PositionError) as e:
        load(text)
    return e.value


# --- defaults and forms ---------------------------------------------------------------------------


def test_a_position_naming_only_its_houses_is_the_setup():
    assert load(THREE) == new_game(["stark", "lannister", "baratheon"], seed="position")


def test_a_five_line_position():
    s = load("""
        houses = ["stark", "lannister", "baratheon"]
        round = 3
        phase = "action"
        [areas]
        karhold = { units = ["stark footman"], order = "march+1" }
    """)
    assert (s.round, s.phase) == (3, "action")
    assert s.area("karhold").units == [Unit("stark", "footman")]
    assert s.area("karhold").order == Order("stark", "march+1")
    assert s.area("winterfell").units == [Unit("stark", "footman"), Unit("stark", "knight")]  # setup kept


def test_start_empty_clears_units_garrisons_and_neutral_forces():
    s = load(THREE + 'start = "empty"\n[areas]\nwinterfell = ["stark knight"]\n')
    assert s.areas.keys() == {"winterfell"}
    assert s.area("winterfell").garrison == 0


def test_an_area_entry_replaces_only_the_fields_it_gives():
    s = load(THREE + '[areas]\nwinterfell = { units = ["stark knight"] }\nlannisport = { garrison = 0 }\n')
    assert s.area("winterfell").units == [Unit("stark", "knight")]
    assert s.area("winterfell").garrison == 2
    assert s.area("lannisport").garrison == 0
    assert len(s.area("lannisport").units) == 2


def test_an_empty_list_clears_an_area_of_units():
    s = load(THREE + "[areas]\nkingswood = []\n")
    assert s.area("kingswood").units == []


def test_unit_forms_counts_plurals_routed_and_siege_engines():
    s = load(THREE + """
        [areas]
        karhold = ["2 stark footmen", "stark knight routed", "stark siege engine", "Stark Siege_Engines"]
        bay_of_ice = ["3 stark ships routed"]
    """)
    assert s.area("karhold").units == [
        Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "knight", True),
        Unit("stark", "siege_engine"), Unit("stark", "siege_engine"),
    ]
    assert s.area("bay_of_ice").units == [Unit("stark", "ship", True)] * 3


def test_unit_texts_group_runs_of_equal_units():
    units = [Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "knight", True), Unit("stark", "footman")]
    assert unit_texts(units) == ["2 stark footmen", "stark knight routed", "stark footman"]


def test_orders_with_and_without_the_house():
    s = load(THREE + """
        [areas]
        winterfell = { order = "defense+2" }
        kingswood = { order = "baratheon consolidate*" }
        white_harbor = { order = "" }
    """)
    assert s.area("winterfell").order == Order("stark", "defense+2")
    assert s.area("kingswood").order == Order("baratheon", "consolidate*")
    assert s.area("white_harbor").order is None


def test_houses_tracks_dominance_decks_and_options():
    s = load(THREE + """
        wildling_threat = 8
        restrictions = ["raid"]
        [tracks]
        iron_throne = ["stark", "lannister", "baratheon"]
        [dominance]
        blade_used = true
        [house.stark]
        power = 1
        supply = 4
        discards = ["eddard_stark"]
        [decks]
        wildling = ["mammoth_riders"]
        westeros_1 = ["supply", "mustering"]
        [options]
        tides_of_battle = true
    """)
    assert s.wildling_threat == 8 and s.restrictions == ["raid"]
    assert s.tracks["iron_throne"] == ["stark", "lannister", "baratheon"]
    assert s.tracks["fiefdoms"] == ["stark", "baratheon", "lannister"]  # setup
    assert s.dominance()["valyrian_steel_blade"] == {"holder": "stark", "used": True}
    assert (s.houses["stark"].power, s.houses["stark"].supply) == (1, 4)
    assert s.houses["stark"].discards == ["eddard_stark"]
    assert "eddard_stark" not in s.houses["stark"].hand and len(s.houses["stark"].hand) == 6
    assert s.wildling_deck == ["mammoth_riders"]
    assert s.westeros_decks["1"] == ["supply", "mustering"]
    assert len(s.tides_deck) == 24


def test_the_seed_shuffles_the_decks_a_position_leaves_out():
    a = load_position(THREE, filename="a", seed="one")
    b = load_position(THREE + '[rng]\nseed = "one"\n', filename="b")
    assert a == b and a.rng_seed == "one"
    c = load_position(THREE, filename="c", seed="two")
    assert (c.westeros_decks, c.wildling_deck) != (a.westeros_decks, a.wildling_deck)


@pytest.mark.parametrize("houses", [
    ["stark", "lannister", "baratheon"], ["stark", "lannister", "greyjoy", "baratheon"],
    ["stark", "lannister", "greyjoy", "tyrell", "baratheon"],
    ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"],
])
def test_dump_then_load_gives_back_every_setup(houses):
    s = new_game(houses, seed="dump", tides_of_battle=True)
    assert load_position(dump_position(s), filename="d") == s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_states())
def test_dump_then_load_gives_back_any_state_the_box_can_hold(s):
    text = dump_position(s)
    assert load_position(text, filename="d") == s
    assert dump_position(load_position(text, filename="d")) == text


def test_both_options_survive_the_round_trip():
    s = new_game(["stark", "lannister", "baratheon"], seed="o", tides_of_battle=True)
    s.options["tides_reshuffle_each_combat"] = False
    assert load_position(dump_position(s), filename="o") == s


def test_read_position_names_a_missing_file(tmp_path):
    with pytest.raises(PositionError, match="nope.toml: cannot read the file"):
        read_position(tmp_path / "nope.toml")


# --- refusals: every one names the file, the line and the key -------------------------------------


def test_toml_syntax_error_gives_the_line():
    e = refused(THREE + "round = \n")
    assert (e.file, e.line, e.key) == ("p.toml", 2, "")
    assert str(e).startswith("p.toml:2: not valid TOML")


def test_two_orders_in_one_area_are_refused_at_the_second():
    e = refused(THREE + '[areas.winterfell]\norder = "march+1"\norder = "raid"\n')
    assert e.line == 4 and "not valid TOML" in str(e)


def test_a_missing_houses_list_is_refused():
    e = refused("round = 2\n")
    assert e.key == "houses" and "must name its houses" in e.message


def test_houses_that_cannot_play_together_are_refused():
    e = refused('houses = ["stark", "martell", "lannister"]\n')
    assert (e.line, e.key) == (1, "houses")
    assert "martell cannot play in a 3-player game" in e.message


def test_an_unknown_key_is_refused_with_a_suggestion():
    e = refused(THREE + "rond = 2\n")
    assert str(e) == "p.toml:2: rond: unknown key 'rond'; did you mean 'round'?"


def test_an_unknown_area_is_refused_with_its_line():
    e = refused(THREE + "[areas]\nkarhold = []\nwinterfel = []\n")
    assert str(e) == "p.toml:4: areas.winterfel: unknown area 'winterfel'; did you mean 'winterfell'?"


def test_an_unknown_house_in_a_unit_is_refused():
    e = refused(THREE + '[areas]\nkarhold = [\n  "stark footman",\n  "starc knight",\n]\n')
    assert (e.line, e.key) == (3, "areas.karhold.units")
    assert "'starc' is not a house; did you mean 'stark'?" in e.message


def test_a_house_not_in_play_is_refused():
    e = refused(THREE + '[areas]\nkarhold = ["greyjoy footman"]\n')
    assert "'greyjoy' is not a house in play" in e.message


def test_an_unknown_unit_is_refused():
    e = refused(THREE + '[areas]\nkarhold = ["stark dragon"]\n')
    assert "unknown unit 'dragon'" in e.message


def test_an_unreadable_unit_text_is_refused():
    e = refused(THREE + '[areas]\nkarhold = ["footman"]\n')
    assert "cannot read 'footman'" in e.message


def test_an_unknown_order_token_is_refused():
    e = refused(THREE + '[areas]\nwinterfell = { order = "march+2" }\n')
    assert (e.line, e.key) == (3, "areas.winterfell.order")
    assert "unknown order token 'march+2'" in e.message


def test_an_order_without_units_is_refused():
    e = refused(THREE + '[areas]\nkarhold = { order = "raid" }\n')
    assert "an order needs units of its house" in e.message


def test_a_wrong_type_is_refused_with_the_key():
    e = refused(THREE + 'round = "three"\n')
    assert str(e) == "p.toml:2: round: expected a whole number, got 'three' (str)"
    e = refused(THREE + "[dominance]\nblade_used = 1\n")
    assert e.key == "dominance.blade_used" and "true or false" in e.message


def test_round_phase_threat_and_supply_out_of_range_are_refused():
    assert refused(THREE + "round = 11\n").key == "round"
    assert refused(THREE + "round = true\n").key == "round"
    assert "unknown phase 'combat'" in refused(THREE + 'phase = "combat"\n').message
    assert refused(THREE + "wildling_threat = 3\n").key == "wildling_threat"
    assert refused(THREE + "[house.stark]\nsupply = 7\n").key == "house.stark.supply"
    assert refused(THREE + "[house.stark]\npower = -1\n").key == "house.stark.power"


def test_a_track_missing_a_house_is_refused():
    e = refused(THREE + '[tracks]\nfiefdoms = ["stark", "lannister"]\n')
    assert (e.line, e.key) == (3, "tracks.fiefdoms")


def test_cards_of_another_house_or_twice_are_refused():
    assert "'mace_tyrell' is not a house card of stark" in refused(THREE + '[house.stark]\nhand = ["mace_tyrell"]\n').message
    e = refused(THREE + '[house.stark]\nhand = ["robb_stark"]\ndiscards = ["robb_stark"]\n')
    assert "'robb_stark' appears twice" in e.message


def test_deck_cards_not_in_the_box_or_too_many_copies_are_refused():
    assert "'supply' is not in Westeros deck III" in refused(THREE + '[decks]\nwesteros_3 = ["supply"]\n').message
    e = refused(THREE + '[decks]\nwesteros_1 = ["winter_is_coming"]\nwesteros_1_discards = ["winter_is_coming"]\n')
    assert "holds 1 'winter_is_coming', not 2" in e.message


def test_R011_eleven_footmen_are_refused_at_the_area_of_the_eleventh():
    e = refused(THREE + '[areas]\nkarhold = ["6 stark footmen"]\ncastle_black = ["3 stark footmen"]\n')
    # with the two setup footmen that makes 11
    assert (e.line, e.key) == (4, "areas.castle_black.units")
    assert "stark has more than 10 footmen; the box holds 10" in e.message


def test_R112_a_special_order_placed_twice_is_refused():
    e = refused(THREE + '[areas]\nwinterfell = { order = "march+1" }\nwhite_harbor = { order = "march+1" }\n')
    assert "stark owns only 1 'march+1' order token(s)" in e.message
    assert (e.line, e.key) == (4, "areas.white_harbor.order")


def test_R145_a_position_with_a_ship_on_land_is_refused():
    e = refused(THREE + '[areas]\nkarhold = ["stark ship"]\n')
    assert str(e) == ("p.toml:3: areas.karhold.units: Karhold is a land area: "
                      "ships stay at sea or in a port (R145)")


def test_R078_a_footman_in_a_port_is_refused():
    e = refused(THREE + '[areas]\nport_of_winterfell = ["stark footman"]\n')
    assert "only ships may be there" in e.message


def test_R077_four_ships_in_a_port_are_refused():
    e = refused(THREE + '[areas]\nport_of_winterfell = ["4 stark ships"]\n')
    assert "holds 4 ships; a port holds 3" in e.message


def test_R147_a_position_with_two_houses_in_one_area_is_refused():
    e = refused(THREE + '[areas]\nkarhold = ["stark footman", "lannister footman"]\n')
    assert "units of lannister and stark cannot share an area" in e.message and e.message.endswith("(R147)")


def test_R235_units_in_an_impassable_area_are_refused():
    e = refused(THREE + '[areas]\nsunspear = ["stark footman"]\n')
    assert (e.line, e.key) == (3, "areas.sunspear") and "impassable" in e.message


def test_a_power_token_at_sea_is_refused():
    e = refused(THREE + '[areas]\nbay_of_ice = { power_token = "stark" }\n')
    assert e.key == "areas.bay_of_ice.power_token"


def test_R225_a_garrison_off_a_home_area_is_refused():
    e = refused(THREE + "[areas]\nkarhold = { garrison = 2 }\n")
    assert (e.line, e.key) == (3, "areas.karhold.garrison")
    e = refused(THREE + '[areas]\nwinterfell = ["lannister footman"]\n')
    assert (e.line, e.key) == (3, "areas.winterfell.garrison") and "never under enemy units" in e.message


def test_R231_a_position_with_units_beside_a_neutral_force_is_refused():
    e = refused(THREE + '[areas]\nthe_eyrie = ["stark footman"]\n')
    assert (e.line, e.key) == (3, "areas.the_eyrie.neutral_force") and "(R231, R233)" in e.message


def test_box_limits_beyond_the_area_checks_are_refused_by_state_check():
    e = refused(THREE + "[house.stark]\npower = 25\n")
    assert "the box cannot hold this position: stark has 25 power tokens; the box holds 20" in str(e)


# --- the key-to-line map --------------------------------------------------------------------------


def test_key_lines_skip_values_of_multi_line_arrays_and_strings():
    text = textwrap.dedent('''\
        houses = [
          "a = b",
          "stark",
        ]
        note = """
        round = 3
        """
        [areas]
        "winterfell" = { units = ["x"] }
        [house.stark]
        power = 2
    ''')
    lines = key_lines(text)
    assert lines[("houses",)] == 1
    assert lines[("note",)] == 5
    assert ("round",) not in lines
    assert lines[("areas", "winterfell")] == 9
    assert lines[("house", "stark", "power")] == 11


# --- the round trip from the text side: whatever loads dumps to itself ---------------------------

_INNER_KEYS = st.sampled_from(["units", "order", "garrison", "power_token", "name", "start", "x"])
_VALUES = st.recursive(
    st.one_of(st.integers(-3, 12), st.integers(), st.booleans(), st.floats(), st.sampled_from([
        '"stark"', '"planning"', '"action"', '"march+1"', '"2 stark footmen"', '"stark ship"', '"lannister knight routed"',
        '"setup"', '"empty"', '"eddard_stark"', '"mammoth_riders"', '""'])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_INNER_KEYS, inner, max_size=3)),
    max_leaves=6,
)
_KEYS = st.sampled_from(["round", "phase", "start", "wildling_threat", "kings_court_overlay", "impassable", "restrictions",
                         "winner", "game_id", "tides_of_battle", "tides_reshuffle_each_combat", "winterfell", "karhold",
                         "the_golden_sound", "power", "supply", "hand", "discards", "pending", "answers", "seed",
                         "counter", "blade_used", "iron_throne", "wildling", "colour"])  # fmt: skip
_TABLES = st.sampled_from(["", "[areas]", "[options]", "[house.stark]", "[rng]", "[engine]", "[engine.segment]",
                           "[dominance]", "[tracks]", "[decks]"])  # fmt: skip


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(v), repr(v))
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    return str(v)


@st.composite
def position_texts(draw: st.DrawFn) -> str:
    """Position-shaped TOML: real keys and tables with values of every type, in any order."""
    lines = [THREE.strip()]
    for table in draw(st.lists(_TABLES, unique=True, max_size=4)):
        lines.append(table)
        for key in draw(st.lists(_KEYS, unique=True, max_size=4)):
            lines.append(f"{key} = {_toml(draw(_VALUES))}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_texts())
def test_any_position_that_loads_dumps_to_an_equal_state(text):
    """load(dump(x)) == x for every x a text loads to; anything else is a PositionError ([options] took nan,
    which is not equal to itself, and keys of any kind)."""
    try:
        s = load_position(text, filename="fuzz.toml")
    except PositionError:
        return
    dumped = dump_position(s)
    assert load_position(dumped, filename="again.toml") == s
    assert dump_position(load_position(dumped, filename="again.toml")) == dumped
