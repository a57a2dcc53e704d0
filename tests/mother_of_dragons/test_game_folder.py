"""A Mother of Dragons game from the moderator's chair: ``maester new --expansion``, positions, names,
``maester show``, reports, the map, the robots and ``maester replay``; and bad input that changes nothing.

The expansion's own rules (vassals, Targaryen, the Iron Bank) come later (issue 20): here a game with
the expansion runs on the base rules, vassals giving no orders, and every part of the product reads it.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from clikit import run

from adjudicator.folder.gamedir import GameDir, GameDirError, create_game
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.position_dump import dump_position
from adjudicator.reports.report import render_reports
from adjudicator.reports.svgmap import render_map
from adjudicator.robots.simulate import simulate
from adjudicator.turnfile.names import display_name, lookup, vocabulary
from adjudicator.turnfile.parser import parse_turn_file

MOD = "mother-of-dragons"


# --- maester new ------------------------------------------------------------------------------------


def test_M001_maester_new_with_the_expansion_records_it_in_game_toml_and_the_state(tmp_path, capsys):
    code, out, _ = run(capsys, "new", tmp_path / "g", "--houses", "targaryen,stark,arryn,lannister",
                       "--expansion", MOD, "--seed", "s")
    assert code == 0 and "for stark, lannister, arryn, targaryen with mother-of-dragons" in out
    game = tomllib.loads((tmp_path / "g" / "game.toml").read_text())["game"]
    assert game["expansion"] == MOD and game["houses"] == ["stark", "lannister", "arryn", "targaryen"]
    state = GameDir.open(tmp_path / "g").load_state()
    assert state.variant == MOD and state.vassals == ["greyjoy", "tyrell", "baratheon", "martell"]


def test_M002_ruling_275_a_refused_house_list_writes_nothing(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", "stark,lannister,targaryen", "--expansion", MOD)
    assert code == 2 and "Targaryen plays only with 4 or more players (M004, ruling 275)" in err
    assert not (tmp_path / "g").exists()
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", "stark,lannister,baratheon", "--expansion", "dragons")
    assert code == 2 and "unknown expansion 'dragons'; the expansions are a-dance-with-dragons, a-feast-for-crows, mother-of-dragons" in err
    assert not (tmp_path / "g").exists()


def test_M002_seven_or_eight_houses_need_the_expansion(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", "stark,lannister,greyjoy,tyrell,baratheon,martell,arryn")
    assert code == 2 and "unknown house 'arryn'" in err and not (tmp_path / "g").exists()


def test_M123_ruling_370_maester_new_deals_the_alternate_house_cards(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", "stark,lannister,arryn,targaryen",
                       "--expansion", MOD, "--alternate-house-cards", "--seed", "s")
    assert code == 0, err
    gd = GameDir(tmp_path / "g")
    assert tomllib.loads(gd.game_file.read_text())["game"]["options"]["house_cards"] == "adwd"
    assert gd.load_state().houses["targaryen"].hand[0] == "daenerys_targaryen_b"
    code, _, err = run(capsys, "new", tmp_path / "h", "--houses", "stark,lannister,arryn",
                       "--expansion", MOD, "--alternate-house-cards", "--house-cards", "base")
    assert code == 2 and "deals the adwd house cards" in err and not (tmp_path / "h").exists()


def test_a_classic_game_folder_is_written_as_before(tmp_path):
    gd = create_game(tmp_path / "c", houses=["stark", "lannister", "baratheon"], seed="s")
    table = tomllib.loads(gd.game_file.read_text())["game"]
    assert "expansion" not in table and gd.info().variant == "classic"
    assert gd.state_file.read_text().startswith("schema_version = 1\n")


def test_a_game_toml_naming_an_unknown_expansion_is_refused(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "arryn"], seed="s", expansion=MOD)
    gd.game_file.write_text(gd.game_file.read_text().replace(MOD, "dance-with-dragons"))
    with pytest.raises(GameDirError, match="expansion is 'dance-with-dragons', not an expansion"):
        gd.info()


# --- positions ----------------------------------------------------------------------------------------

POSITION = '''houses = ["stark", "lannister", "arryn", "targaryen"]
expansion = "mother-of-dragons"
[areas]
seagard = { units = ["stark footman"], improvements = ["+power"], loyalty = 2 }
norvos = ["2 targaryen dragons"]
the_rhoyne = []
[house.stark]
loans = ["customs_officer"]
[mother_of_dragons]
commanders = { tyrell = "stark" }
vassal_sets = ["lannister", "arryn", "targaryen"]
dragon_tokens = [6, 8, 10]
loan_slots = ["", "", "spymaster"]
loan_deck = ["full_host"]
braavos_token = "lannister"
'''


def test_a_position_file_names_the_expansion_and_its_parts_and_round_trips():
    s = load_position(POSITION, filename="p.toml")
    assert s.variant == MOD and s.vassals == ["greyjoy", "tyrell", "baratheon", "martell"]
    assert s.area("seagard").loyalty == 2 and s.area("seagard").improvements == ["+power"]
    assert s.houses["stark"].loans == ["customs_officer"] and s.commander("tyrell") == "stark"
    assert s.dragon_strength(s.board()) == 2 and s.braavos_token == "lannister"
    assert [u.type for u in s.area("norvos").units] == ["dragon", "dragon"]
    assert load_position(dump_position(s), filename="again.toml") == s


@pytest.mark.parametrize("change, message", [
    (("expansion = \"mother-of-dragons\"", "expansion = \"mod\""), "expansion: unknown expansion 'mod'"),
    (("braavos_token = \"lannister\"", "braavos_token = \"tyrell\""), "'tyrell' is not a player in this game"),
    (("commanders = { tyrell = \"stark\" }", "commanders = { stark = \"lannister\" }"), "'stark' is not a vassal"),
    (("loan_deck = [\"full_host\"]", "loan_deck = [\"spymaster\"]"), "'spymaster' is in two places"),
    (("loans = [\"customs_officer\"]", "loans = [\"eddard_stark\"]"), "'eddard_stark' is not a loan"),
    (("improvements = [\"+power\"]", "improvements = [\"+castle\"]"), "unknown token '+castle'"),
    (("norvos = [\"2 targaryen dragons\"]", "norvos = [\"4 targaryen dragons\"]"), "a house has 1 to 3"),
    (("the_rhoyne = []", "the_rhoyne = [\"2 targaryen dragons\"]"), "targaryen has more than 3 dragons"),
    (("norvos = [\"2 targaryen dragons\"]", "norvos = [\"stark dragon\"]"), "stark has no dragons"),
    (("norvos = [\"2 targaryen dragons\"]", "the_bite = { loyalty = 1 }"), "loyalty tokens lie on land areas only"),
])
def test_a_bad_expansion_position_is_refused_naming_its_key(change, message):
    with pytest.raises(PositionError, match=message.replace("+", r"\+")):
        load_position(POSITION.replace(*change), filename="p.toml")


def test_a_classic_position_knows_no_dragons_nor_expansion_keys():
    with pytest.raises(PositionError, match="unknown unit 'dragon'"):
        load_position('houses = ["stark", "lannister", "baratheon"]\n[areas]\nwinterfell = ["stark dragon"]\n')
    with pytest.raises(PositionError, match="add expansion"):
        load_position('houses = ["stark", "lannister", "baratheon"]\n[mother_of_dragons]\nloyalty_gained = 1\n')
    with pytest.raises(PositionError, match="unknown key 'loyalty'"):
        load_position('houses = ["stark", "lannister", "baratheon"]\n[areas]\nwinterfell = { loyalty = 1 }\n')


def test_maester_new_from_an_expansion_position(tmp_path, capsys):
    (tmp_path / "p.toml").write_text(POSITION)
    code, _, _ = run(capsys, "new", tmp_path / "g", "--position", tmp_path / "p.toml")
    assert code == 0 and GameDir.open(tmp_path / "g").info().expansion == MOD
    code, _, err = run(capsys, "new", tmp_path / "h", "--position", tmp_path / "p.toml", "--houses",
                       "stark,lannister,greyjoy,targaryen")
    assert code == 2 and "--houses disagrees" in err


# --- names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, text, ident", [
    ("area", "Braavos", "braavos"), ("area", "the bite", "the_bite"), ("area", "Vale", "the_vale_of_arryn"),
    ("area", "Eyrie port", "port_of_the_eyrie"), ("area", "Port of Pentos", "port_of_pentos"),
    ("area", "Volantys", "volantis"), ("area", "Rhoyne", "the_rhoyne"), ("area", "Braavosian coast", "braavosian_coastlands"),
    ("house", "Targaryen", "targaryen"), ("house", "house arryn", "arryn"), ("house", "Targs", "targaryen"),
    ("house_card", "Khal Drogo", "khal_drogo"), ("house_card", "drogo", "khal_drogo"),
    ("house_card", "Daenerys", "daenerys_targaryen_a"), ("house_card", "Lysa Arryn", "lysa_arryn_mod"),
    ("house_card", "Bronn", "bronn"), ("house_card", "jaqen", "jaqen_hghar"), ("house_card", "Syrio", "syrio_forel"),
    ("westeros_card", "Fire Made Flesh", "fire_made_flesh"), ("loan", "Spymaster", "spymaster"),
    ("loan", "faceless men", "the_faceless_men"), ("unit", "dragons", "dragon"),
])
def test_new_areas_houses_and_cards_have_forgiving_names(kind, text, ident):
    assert lookup(kind, text, MOD).id == ident


def test_every_expansion_card_and_area_resolves_by_its_printed_name():
    from adjudicator.game.cards import CARDS, STANDARD_SETS

    for c in CARDS.house_cards.values():
        if c.set in STANDARD_SETS | {"vassal"}:
            assert lookup("house_card", c.name, MOD).id == c.id, c.id
    for loan in CARDS.loans.values():
        assert lookup("loan", loan.name, MOD).id == loan.id
    board = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="x").board()
    for a in board.areas.values():
        assert lookup("area", a.name, MOD).id == a.id and display_name("area", a.id) == a.name


def test_a_classic_game_reads_no_expansion_name_and_a_turn_file_reads_its_games_vocabulary():
    assert lookup("area", "Braavos").id is None and lookup("house", "Arryn").id is None
    text = "game g · house arryn · round 1 · planning · seq 1\nThe Eyrie: defense +1\nVale: march +0\n"
    tf = parse_turn_file(text, variant=MOD)
    assert not tf.problems and [c.area for c in tf.commands] == ["the_eyrie", "the_vale_of_arryn"]
    classic = parse_turn_file(text)
    assert any("unknown area 'Vale'" in str(p) for p in classic.problems)
    with vocabulary(MOD):
        assert lookup("house", "arryn").id == "arryn"
    assert lookup("house", "arryn").id is None


# --- show, reports, the map ----------------------------------------------------------------------------


def test_maester_show_prints_an_expansion_game_as_text_json_and_a_position(tmp_path, capsys):
    create_game(tmp_path / "g", houses=["stark", "lannister", "arryn", "targaryen"], seed="s", expansion=MOD)
    code, out, _ = run(capsys, "show", tmp_path / "g")
    assert code == 0 and "Vassals (*):" in out and "Braavos:" in out and "Iron Bank:" in out
    code, out, _ = run(capsys, "show", tmp_path / "g", "--json")
    view = json.loads(out)
    assert code == 0 and view["variant"] == MOD and view["houses"]["targaryen"]["victory"] == 1
    code, out, _ = run(capsys, "show", tmp_path / "g", "--position")
    assert code == 0 and load_position(out) == GameDir.open(tmp_path / "g").load_state()


def test_the_map_draws_essos_dragons_and_the_expansions_areas():
    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="x")
    svg = render_map(s)
    for area in ("braavos", "the_rhoyne", "the_vale_of_arryn", "port_of_the_eyrie"):
        assert f'id="a-{area}"' in svg
    assert 'id="u-dragon"' in svg and 'href="#u-dragon"' in svg
    west = render_map(new_mod_game(["stark", "lannister", "arryn"], seed="x"))
    assert 'id="a-the_vale_of_arryn"' in west and 'id="a-braavos"' not in west and 'id="u-dragon"' not in west


def test_reports_render_for_an_expansion_state():
    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="x")
    pages = render_reports(s, [], viewers=[None, "targaryen"], formats=["text", "html"])
    assert all(pages.values()) and "Pentos" in pages[(None, "text")] and "Khal Drogo" in pages[("targaryen", "text")]


# --- the engine on an expansion game, with robots ------------------------------------------------------


@pytest.mark.parametrize("players, targaryen", [(3, False), (4, True), (8, True)])
def test_an_expansion_game_advances_with_robots_on_the_base_rules(players, targaryen):
    r = simulate(players, 7, rounds=3, text=False, expansion=MOD, targaryen=targaryen)
    assert r.problems == [] and (r.round > 3 or r.winner)


# Every kind of expansion game the issue names: 4-6 players with and without Targaryen, 7 of either, 8.
WHOLE_GAMES = [(4, True), (4, False), (5, True), (5, False), (6, True), (6, False), (7, True), (7, False), (8, True)]


@pytest.mark.parametrize("players, targaryen", WHOLE_GAMES,
                         ids=[f"{n}{'' if t else '-without-targaryen'}" for n, t in WHOLE_GAMES])
def test_maester_simulate_plays_the_expansion_through_the_text_path_and_replays(tmp_path, capsys, players, targaryen):
    """Two rounds of robots through turn files, seals, the inbox and reports (vassals chosen and
    ordered twice, a Westeros phase with deck IV when Targaryen plays), every invariant checked
    after every step; then ``maester replay`` re-derives every snapshot. Whole ten-round games of
    each kind: ``make soak`` (engine only) and docs/testing.md."""
    args = ["simulate", "--players", players, "--rounds", 2, "--seed", 3, "--out", tmp_path / "s"]
    if players < 7:
        args += ["--expansion", MOD]
    if not targaryen:
        args += ["--expansion", MOD, "--without-targaryen"] if players == 7 else ["--without-targaryen"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and "invariant broken" not in out
    gd = GameDir.open(tmp_path / "s")
    state = gd.load_state()
    assert gd.info().expansion == MOD and len(state.players()) == players
    assert ("targaryen" in state.houses_in_play) == targaryen and len(state.vassals) == 8 - players - (not targaryen)
    assert state.round == 3 or state.winner
    code, out, _ = run(capsys, "replay", tmp_path / "s")
    assert code == 0 and "byte for byte" in out


def test_maester_simulate_refuses_without_targaryen_outside_the_expansion(capsys):
    code, _, err = run(capsys, "simulate", "--players", "3", "--without-targaryen")
    assert code == 2 and "--expansion mother-of-dragons" in err


def test_M030_pending_says_who_answers_for_each_vassal():
    """Was "baratheon: nothing pending" for a vassal whose commander owed its decisions: a moderator
    could not tell a vassal from a player with nothing to do."""
    from adjudicator.folder.audit import Snapshot, pending_text, pending_view
    from adjudicator.game.setup import new_game
    from mother_of_dragons.vassal_helpers import mod_game

    s = mod_game()
    s.commanders = {"tyrell": "stark"}
    view = pending_view(Snapshot(3, s))
    assert view["vassals"] == {v: ("stark" if v == "tyrell" else "") for v in s.vassals}
    text = pending_text(view)
    assert "  tyrell: a vassal: stark answers for it (M030)\n" in text
    assert "  arryn: a vassal, commanded by nobody yet (M030)\n" in text
    assert "vassal" not in pending_text(pending_view(Snapshot(3, new_game(["stark", "lannister", "baratheon"], seed="p"))))
