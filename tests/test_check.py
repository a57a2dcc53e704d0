"""``maester check``: static checks on a fresh six-player game, engine refusals, headers, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.engine import machine
from adjudicator.engine.core.context import Step
from adjudicator.engine.rules.planning import areas_needing_orders, default_orders
from adjudicator.folder import check as check_module
from adjudicator.folder.check import CheckError, check_file, check_turn_file
from adjudicator.folder.gamedir import create_game
from adjudicator.game.board import Board
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit
from adjudicator.turnfile.diagnostics import IllegalOrder
from adjudicator.turnfile.parser import TurnFile, parse_turn_file

BOARD = Board.classic()
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "turnfiles"


def fresh() -> GameState:
    """A fresh six-player game, round 1 planning, with the game id the samples use."""
    return new_game(SIX, seed="check-tests", game_id="sample")


def header(house: str = "stark", step: str = "planning", rnd: int = 1, game: str = "sample") -> str:
    return f"game {game} · house {house} · round {rnd} · {step} · seq 1\n"


def run(body: str, state: GameState | None = None, house: str = "stark", engine: bool = False, **kw: object) -> TurnFile:
    state = state or fresh()
    return check_turn_file(parse_turn_file(header(house, state.phase, state.round) + body), state, engine=engine, **kw)  # type: ignore[arg-type]


def codes(tf: TurnFile) -> list[tuple[int, str]]:
    return [(p.where.line, p.code) for p in tf.problems]


STARK_ORDERS = "Winterfell: march +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +1\n"


# --- the samples ---------------------------------------------------------------------------------


@pytest.fixture
def sample_game(tmp_path: Path) -> Path:
    root = tmp_path / "sample"
    create_game(root, houses=SIX, seed="sample-seed")
    return root


@pytest.mark.parametrize("house", SIX)
def test_every_round_1_sample_passes_on_a_fresh_six_player_game(sample_game: Path, house: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", str(sample_game), str(SAMPLES / f"planning-r1-{house}.txt")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.rstrip().endswith("complete: every line accepted, nothing missing")


def test_the_broken_sample_lists_every_problem_with_line_and_column(sample_game: Path) -> None:
    tf = check_file(sample_game, SAMPLES / "broken-stark-planning.txt")
    assert [(p.where.line, p.where.column, p.code) for p in tf.problems] == [
        (4, 1, "E401"), (5, 16, "E111"), (6, 26, "E201"), (7, 1, "E401"), (8, 1, "E204"),
        (9, 1, "E409"), (10, 1, "E407"), (11, 9, "E209"), (12, 1, "E411"),
    ]
    assert tf.missing == ("orders: no order yet for The Shivering Sea", "orders: no order yet for White Harbor")
    receipt = tf.receipt()
    assert "broken-stark-planning.txt:12:1: error E411" in receipt and "  line 3: Winterfell: march +1" in receipt


def test_every_other_sample_is_a_complete_file_for_its_decision() -> None:
    for path in sorted(SAMPLES.glob("*.txt")):
        if path.name.startswith(("broken", "planning-r1-")):
            continue
        tf = parse_turn_file(path.read_bytes(), filename=path.name)
        assert tf.header is not None and tf.commands and not tf.problems and not tf.warnings, path.name


# --- orders (static) ----------------------------------------------------------------------------------


def test_R115_a_complete_legal_set_of_orders_passes() -> None:
    tf = run(STARK_ORDERS)
    assert tf.problems == () and tf.missing == () and tf.ok


def test_R115_orders_go_only_on_areas_with_the_house_units() -> None:
    tf = run(STARK_ORDERS + "Karhold: defense +1\nLannisport: raid\n")
    assert codes(tf) == [(5, "E401"), (6, "E409")]
    assert all(isinstance(p, IllegalOrder) for p in tf.problems)
    assert "R115" in tf.problems[0].message


def test_R115_areas_left_without_an_order_are_listed_as_missing() -> None:
    tf = run("Winterfell: march +1\n")
    assert tf.missing == ("orders: no order yet for The Shivering Sea", "orders: no order yet for White Harbor")
    assert not tf.ok


def test_R119_special_orders_within_the_king_s_court_stars() -> None:
    tf = run("Pyke: defense +2\nGreywater Watch: march +0\nIronman's Bay: support +0\nPort of Pyke: raid\n", house="greyjoy")
    assert codes(tf) == [(2, "E404")]  # Greyjoy is 6th on the King's Court track: no star
    tf = run("Winterfell: march +1\nWhite Harbor: defense +2\nThe Shivering Sea: support +1\n")
    assert codes(tf) == []  # Stark, 2nd, has three


def test_R112_an_order_token_used_more_often_than_owned() -> None:
    tf = run("Winterfell: march +0\nWhite Harbor: raid*\nThe Shivering Sea: raid*\n")
    assert codes(tf) == [(4, "E405")]


def test_R120_orders_banned_by_a_westeros_card() -> None:
    state = fresh()
    state.restrictions = ["raid"]
    tf = run("Winterfell: march +0\nWhite Harbor: raid\nThe Shivering Sea: raid*\n", state)
    assert codes(tf) == [(3, "E406"), (4, "E406")]


def test_R122_no_order_only_for_a_house_short_of_tokens() -> None:
    tf = run("Winterfell: march +1\nWhite Harbor: no order\nThe Shivering Sea: support +0\n")
    assert codes(tf) == [(3, "E412")]


def test_ruling_9_a_later_order_line_replaces_an_earlier_one() -> None:
    tf = run("Winterfell: raid*\nWinterfell: march +1\nWhite Harbor: defense +2\nThe Shivering Sea: support +1\n")
    assert tf.problems == ()  # the replaced raid* does not count against the three stars
    assert [(w.where.line, w.code) for w in tf.warnings] == [(2, "W205")]


def test_R114_orders_are_placed_in_the_planning_phase_only() -> None:
    state = fresh()
    state.phase = "action"
    assert codes(run("Winterfell: march +1\n", state)) == [(2, "E410")]


# --- other static checks ------------------------------------------------------------------------------


def test_R082_R101_bids_within_available_power() -> None:
    assert codes(run("bid iron throne 5\nbid wildlings 6\n")) == [(3, "E407")]


def test_R192_R195_house_cards_must_be_yours_and_in_hand() -> None:
    state = fresh()
    state.houses["stark"].hand.remove("eddard_stark")
    state.houses["stark"].discards.append("eddard_stark")
    tf = run("play eddard stark\nplay tywin lannister\nplay robb stark\n", state)
    assert codes(tf) == [(2, "E408"), (3, "E409")]


def test_R193_only_the_card_s_player_chooses_for_it() -> None:
    assert codes(run("tyrion lannister: cancel\n")) == [(2, "E409")]
    assert codes(run("tyrion lannister: cancel\n", house="lannister")) == []


def test_R125_only_the_raven_holder_uses_the_raven() -> None:
    assert codes(run("raven: look\nwildling card: top\n")) == [(2, "E409"), (3, "E409")]
    lannister = "Lannisport: defense +1\nPort of Lannisport: consolidate\nStoney Sept: march +0\nThe Golden Sound: raid\n"
    assert codes(run(lannister + "raven: look\nraven: swap Lannisport to defense +2\n", house="lannister")) == []
    state = fresh()
    state.raven_used = True
    assert codes(run("raven: look\n", state, house="lannister")) == [(2, "E412")]


def test_R126_ruling_3_the_raven_swap_obeys_the_bans() -> None:
    state = fresh()
    state.restrictions = ["defense"]
    tf = run("Lannisport: march +0\nraven: swap Lannisport to defense +1\n", state, house="lannister")
    assert (3, "E406") in codes(tf)


def test_R084_only_the_iron_throne_holder_breaks_ties() -> None:
    assert codes(run("tie-break: stark, lannister\n")) == [(2, "E409")]
    tf = run("tie-break fiefdoms: stark, stark\n", house="baratheon")
    assert codes(tf) == [(2, "E412")] and "2 times" in tf.problems[0].message


def test_R044_R047_R056_westeros_choices_only_by_the_token_holder() -> None:
    assert codes(run("a throne of blades: muster\n", house="baratheon")) == []  # Iron Throne
    assert codes(run("a throne of blades: muster\n")) == [(2, "E409")]
    assert codes(run("dark wings, dark words: bid\n", house="lannister")) == []  # Messenger Raven
    assert codes(run("put to the sword: nothing\n", house="greyjoy")) == []  # Valyrian Steel Blade
    assert codes(run("put to the sword: nothing\n", house="lannister")) == [(2, "E409")]


def test_R199_only_the_blade_holder_uses_the_blade() -> None:
    assert codes(run("use blade\nkeep blade\n")) == [(2, "E409")]
    assert codes(run("use blade\n", house="greyjoy")) == []


def test_R129_R130_R132_raids() -> None:
    body = STARK_ORDERS.replace("White Harbor: defense +1", "White Harbor: raid")
    tf = run(body + "raid from White Harbor onto Widow's Watch\nraid from White Harbor onto Pyke\n"
             "raid from White Harbor onto The Narrow Sea\nraid from Winterfell onto Karhold\n")
    assert codes(tf) == [(6, "E412"), (7, "E412"), (8, "E411")]
    assert "R132" in tf.problems[1].message and "R129" in tf.problems[2].message


def test_R142_R145_marches() -> None:
    tf = run(STARK_ORDERS + "march from Winterfell: 2 knights -> Karhold\nmarch from Winterfell: knight -> Bay of Ice\n"
             "march from Winterfell: footman -> Moat Cailin; knight -> Castle Black; leave power\n")
    assert codes(tf) == [(5, "E413"), (6, "E412")]


LANNISTER_ORDERS = "Lannisport: march +0\nStoney Sept: defense +1\nPort of Lannisport: support\nThe Golden Sound: raid\n"


def test_R241_ruling_314_a_power_token_is_left_only_where_every_unit_leaves() -> None:
    """Issue 27: the march answered ahead with one of Lannisport's two units and 'leave power', which the
    run refuses, is refused by the check too (and so offline, without the engine)."""
    march = "march from Lannisport: knight -> Searoad Marches; leave power\n"
    for engine in (False, True):
        tf = run(LANNISTER_ORDERS + march, house="lannister", engine=engine)
        assert codes(tf) == [(6, "E412")], engine
        assert "do not all leave Lannisport (1 footman would stay)" in tf.problems[0].message
        assert "R241" in tf.problems[0].message
    assert codes(run(LANNISTER_ORDERS + march.replace("knight ->", "knight, footman ->"), house="lannister")) == []
    assert codes(run(LANNISTER_ORDERS + march.replace("; leave power", ""), house="lannister")) == []


def test_R241_ruling_314_the_engine_refuses_what_the_check_refuses() -> None:
    """The same march when it is asked, in the action phase: the static check and the engine agree."""
    from adjudicator.engine.rules.marches import march_problem

    state = action_phase()
    state.area_mut("lannisport").order = Order("lannister", "march+0")
    tf = run("march from Lannisport: knight -> Searoad Marches; leave power\n", state, house="lannister", engine=True)
    assert codes(tf) == [(2, "E412")]
    assert "R241" in str(march_problem(state, BOARD, "lannister", tf.commands[0]))


def test_R241_ruling_314_no_power_token_is_left_at_sea() -> None:
    body = STARK_ORDERS.replace("The Shivering Sea: support +1", "The Shivering Sea: march +0")
    tf = run(body + "march from The Shivering Sea: ship -> The Narrow Sea; leave power\n")
    assert codes(tf) == [(5, "E412")] and "only on land areas" in tf.problems[0].message


def test_R145_ships_move_to_an_adjacent_sea() -> None:
    body = STARK_ORDERS.replace("The Shivering Sea: support +1", "The Shivering Sea: march +0")
    tf = run(body + "march from The Shivering Sea: ship -> Karhold\nmarch from The Shivering Sea: ship -> The Narrow Sea\n")
    assert codes(tf) == [(5, "E412")]


def test_R165_only_a_special_consolidate_power_order_musters() -> None:
    tf = run("Winterfell: consolidate\nWhite Harbor: consolidate*\nThe Shivering Sea: support +0\n"
             "consolidate in Winterfell: muster knight\nconsolidate in White Harbor: muster footman\nconsolidate in Winterfell\n")
    assert codes(tf) == [(5, "E411")]


def test_R067_R075_R078_mustering() -> None:
    tf = run("muster in Winterfell: footman, ship to The Shivering Sea\nmuster in Lannisport: footman\n"
             "muster in Karhold: footman\nmuster in Winterfell: ship to Bay of Ice, knight to Karhold\n"
             "muster in Winterfell: ship to The Narrow Sea\n")
    assert codes(tf) == [(3, "E412"), (4, "E412"), (5, "E412"), (6, "E412")]


def test_R060_supply_removes_units_the_house_has() -> None:
    tf = run("supply: destroy footman in Winterfell, knight in Winterfell\nsupply: destroy 2 knights in Winterfell\n")
    assert codes(tf) == [(3, "E413")]


def test_combat_instructions_name_houses_in_the_game() -> None:
    state = new_game(["stark", "lannister", "baratheon"], seed="x", game_id="sample")
    tf = run("against greyjoy: play eddard stark\nrefuse support from stark\nsupport martell\n", state)
    assert codes(tf) == [(2, "E412"), (3, "E412"), (4, "E412")]


def test_R246_only_ports_are_taken_over() -> None:
    assert codes(run("port of winterfell: take over 1 ship\nwinterfell: take over 1 ship\n")) == [(3, "E412")]


# --- the header ------------------------------------------------------------------------------------


def test_header_for_another_game_house_or_step() -> None:
    state = fresh()
    assert [p.code for p in check_turn_file(parse_turn_file(header(game="other") + STARK_ORDERS), state,
                                            engine=False).problems] == ["E304"]
    state_3p = new_game(["stark", "lannister", "baratheon"], seed="x", game_id="sample")
    assert [p.code for p in check_turn_file(parse_turn_file(header("tyrell")), state_3p, engine=False).problems] == ["E305"]
    tf = check_turn_file(parse_turn_file(header() + STARK_ORDERS), state, house="lannister", engine=False)
    assert "E305" in [p.code for p in tf.problems]
    tf = check_turn_file(parse_turn_file(header(step="action", rnd=3) + "bid fiefdoms 1\n"), state, engine=False)
    assert [p.code for p in tf.problems] == ["E306"] and "round 1 planning" in tf.problems[0].message


def test_a_missing_header_is_a_problem_that_shows_the_expected_one() -> None:
    tf = check_turn_file(parse_turn_file(STARK_ORDERS), fresh(), house="stark", engine=False)
    assert [p.code for p in tf.problems] == ["E307"] and tf.warnings == ()
    assert "game sample · house stark · round 1 · planning · seq 1" in tf.problems[0].suggestion


def test_no_house_to_check_for_is_a_usage_error() -> None:
    with pytest.raises(CheckError):
        check_turn_file(parse_turn_file(STARK_ORDERS), fresh())
    with pytest.raises(CheckError):
        check_turn_file(parse_turn_file(STARK_ORDERS), fresh(), house="dothraki")
    state_3p = new_game(["stark", "lannister", "baratheon"], seed="x", game_id="sample")
    with pytest.raises(CheckError, match="not playing"):
        check_turn_file(parse_turn_file(STARK_ORDERS), state_3p, house="greyjoy")


def test_a_header_for_a_house_not_in_the_game_stops_the_check_there() -> None:
    state_3p = new_game(["stark", "lannister", "baratheon"], seed="x", game_id="sample")
    tf = check_turn_file(parse_turn_file(header("greyjoy") + "bid iron throne 1\nplay eddard stark\n"), state_3p)
    assert [p.code for p in tf.problems] == ["E305"] and not tf.ok


# --- the engine ----------------------------------------------------------------------------------------


def action_phase() -> GameState:
    """A six-player game in the action phase: every house's default orders, Stark's raid in White Harbor."""
    state = fresh()
    for house in state.houses_in_play:
        for cmd in default_orders(state, BOARD, house, areas_needing_orders(state, BOARD, house)):
            state.area_mut(cmd.area).order = Order(house, cmd.token)  # type: ignore[attr-defined]
    state.area_mut("white_harbor").order = Order("stark", "raid")
    state.phase = "action"
    return state


def test_R130_ruling_8_the_engine_refusal_is_reported_on_its_line() -> None:
    tf = run("raid from White Harbor onto Widow's Watch\n", action_phase(), engine=True)
    assert codes(tf) == [(2, "E420")]
    assert "R130" in tf.problems[0].message


def test_R129_a_decision_the_engine_still_needs_from_the_house_is_missing() -> None:
    state = action_phase()
    state.area_mut("the_shivering_sea").order = Order("stark", "raid")
    state.area_mut("the_narrow_sea").units.append(Unit("lannister", "ship"))
    state.area_mut("the_narrow_sea").order = Order("lannister", "consolidate")
    tf = run("", state, engine=True)
    assert tf.missing == ("raid: resolve one of your raid orders: name the order and its target, or no effect",)
    tf = run("raid from The Shivering Sea onto The Narrow Sea\n", state, engine=True)
    assert tf.missing == () and tf.problems == ()


def test_the_engine_unavailable_leaves_the_static_checks_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ModuleNotFoundError("No module named 'adjudicator.engine.rules.planning'")

    monkeypatch.setattr(machine, "_runners", missing)
    tf = run("Karhold: defense +1\n", engine=True)
    assert codes(tf) == [(2, "E401")]
    assert [w.code for w in tf.warnings] == ["W901"] and "not available" in tf.warnings[0].message


def test_check_changes_nothing_in_the_state() -> None:
    state = action_phase()
    before = state.to_toml()
    run("raid from White Harbor onto Widow's Watch\nplay eddard stark\n", state, engine=True)
    assert state.to_toml() == before


def test_engine_is_given_only_lines_that_passed_the_static_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    real = machine.advance

    def spy(state: GameState, answers: list[dict[str, object]], **kw: object) -> Step:
        seen.append([a["text"] for a in answers])  # type: ignore[misc]
        return real(state, answers, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(machine, "advance", spy)
    run(STARK_ORDERS + "play tywin lannister\nplay eddard stark\n", engine=True)
    assert seen == [["Winterfell: march +1", "White Harbor: defense +1", "The Shivering Sea: support +1",
                     "play Eddard Stark"]]
    seen.clear()
    run("Winterfell: march +1\nplay eddard stark\n", engine=True)  # an incomplete set is not sent
    assert seen == [["play Eddard Stark"]]


# --- the command line ----------------------------------------------------------------------------------


def test_cli_exit_codes(sample_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text(header() + STARK_ORDERS)
    bad = tmp_path / "bad.txt"
    bad.write_text(header() + STARK_ORDERS + "Karhold: raid\n")
    bare = tmp_path / "bare.txt"
    bare.write_text(STARK_ORDERS)
    assert main(["check", str(sample_game), str(good)]) == 0
    assert main(["check", str(sample_game), str(bad)]) == 1
    assert "bad.txt:5:1: error E401" in capsys.readouterr().out
    assert main(["check", str(sample_game), str(bare), "--house", "Stark"]) == 1  # E307: no header
    assert main(["check", str(sample_game), str(bare)]) == 2
    assert main(["check", str(tmp_path / "nowhere"), str(good)]) == 2
    assert main(["check", str(sample_game), str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert "give --house" in err and "not a game folder" in err and "cannot read" in err


def test_check_module_names_its_public_functions() -> None:
    assert set(check_module.__all__) == {"CheckError", "check_file", "check_turn_file"}
