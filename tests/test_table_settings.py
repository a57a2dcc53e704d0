"""The table settings (game/table_settings.py, docs/setups.md, rulings 445-452): the round limit, the
victory target and random houses chosen at ``maester new``; recorded in game.toml and the state, named
in every report's header, refused when out of range and when changed during a game; random houses
drawn from the committed seed and shown by ``maester replay`` after ``maester reveal``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from clikit import files, reports_of, run

from adjudicator.cli import main
from adjudicator.engine.rules.endgame import standings
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.position_dump import dump_position
from adjudicator.game.setup import SetupError, new_game
from adjudicator.game.table_settings import (
    TableSettings,
    apply_settings,
    changed_settings,
    random_seats_check,
    seat_houses,
    seat_names,
    target_range,
)
from adjudicator.reports.report import render_report
from adjudicator.reports.svgmap import render_map
from adjudicator.reports.views import settings_text
from adjudicator.robots.simulate import simulate

THREE = "stark,lannister,baratheon"
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


def game_table(root: Path) -> dict:
    return tomllib.loads((root / "game.toml").read_text())["game"]


# --- ruling 445: a setting left out, or the rulebook's own, writes nothing -------------------------------


def test_ruling_445_a_game_without_settings_is_the_rulebooks_byte_for_byte(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "plain", "--houses", THREE, "--seed", "s")[0] == 0
    assert run(capsys, "new", tmp_path / "same", "--houses", THREE, "--seed", "s", "--rounds", "10",
               "--victory-target", "7")[0] == 0
    plain, same = files(tmp_path / "plain"), files(tmp_path / "same")
    assert plain["state.toml"].replace(b'"plain"', b'"same"') == same["state.toml"]
    assert game_table(tmp_path / "plain")["options"] == game_table(tmp_path / "same")["options"] == {
        "tides_of_battle": False, "tides_reshuffle_each_combat": True}
    state = GameDir(tmp_path / "same").load_state()
    assert settings_text(state) == "" and state.last_round() == 10


def test_ruling_445_settings_are_recorded_in_game_toml_the_state_and_the_header(tmp_path, capsys):
    code, out, err = run(capsys, "new", tmp_path / "g", "--houses", THREE, "--seed", "s", "--rounds", "8",
                         "--victory-target", "5", "--random-houses", "Ann,Bo,Cy", "--tides-of-battle",
                         "--house-cards", "adwd")
    assert code == 0, err
    state = GameDir(tmp_path / "g").load_state()
    seats = seat_houses("s", ["Ann", "Bo", "Cy"], ["stark", "lannister", "baratheon"])
    assert state.options == game_table(tmp_path / "g")["options"] == {
        "tides_of_battle": True, "tides_reshuffle_each_combat": True, "house_cards": "adwd",
        "rounds": 8, "victory_target": 5, "random_houses": seats}
    assert state.last_round() == 8 and state.victory_target(state.board()) == 5
    words = ", ".join(f"{s} plays {h.title()}" for s, h in seats.items())
    assert settings_text(state) == ("Played with A Dance with Dragons' house cards · Tides of Battle · The game ends after round 8 · "
                                    f"5 castles and strongholds win · Random houses: {words}")
    assert "random houses: " + ", ".join(f"{s} plays {h.title()}" for s, h in seats.items()) in out


def test_ruling_445_every_report_of_a_step_names_the_settings_in_its_header(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--houses", THREE, "--seed", "s", "--rounds", "7",
               "--random-houses", "Ann,Bo,Cy")[0] == 0
    assert run(capsys, "adjudicate", tmp_path / "g")[0] == 0
    reports = [p for p in reports_of(tmp_path / "g").rglob("*") if p.suffix in (".txt", ".html")]
    assert reports
    for p in reports:
        text = p.read_text()
        assert "The game ends after round 7" in text and "Random houses: Ann plays " in text, p


# --- ruling 446: a setup's own number against the table's ----------------------------------------------


def test_ruling_446_a_flag_disagreeing_with_a_setups_own_number_is_refused(tmp_path, capsys):
    file = tmp_path / "eight.toml"
    file.write_text('players = [3]\nrounds = 8\nvictory_target = 6\n')
    for flag, value, own in (("--rounds", "6", 8), ("--victory-target", "5", 6)):
        code, _, err = run(capsys, "new", tmp_path / "g", "--setup", file, "--houses", THREE, flag, value)
        assert code == 2 and f"{flag} {value} disagrees with the setup eight, which plays to {own}" in err
        assert not (tmp_path / "g").exists()
    assert run(capsys, "new", tmp_path / "g", "--setup", file, "--houses", THREE, "--rounds", "8")[0] == 0
    assert GameDir(tmp_path / "g").load_state().last_round() == 8


def test_ruling_446_a_boxs_own_round_limit_yields_to_the_tables(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--expansion", "a-dance-with-dragons", "--houses", ",".join(SIX),
               "--rounds", "8", "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    assert state.box.rounds == 6 and state.last_round() == 8 and state.options["rounds"] == 8
    assert run(capsys, "new", tmp_path / "h", "--expansion", "a-dance-with-dragons", "--houses", ",".join(SIX),
               "--rounds", "6", "--seed", "s")[0] == 0
    assert "rounds" not in GameDir(tmp_path / "h").load_state().options  # the box's own: nothing written


# --- ruling 447: the victory target's range, and what it means at the round limit -------------------------


@pytest.mark.parametrize(("args", "message"), [
    (("--rounds", "0"), "--rounds 0: the round track has 10 spaces: a round limit of 1 to 10"),
    (("--rounds", "11"), "--rounds 11: the round track has 10 spaces: a round limit of 1 to 10"),
    (("--rounds", "-2"), "--rounds -2: the round track has 10 spaces"),
    (("--victory-target", "2"), "--victory-target 2: this game has 13 castles and strongholds in play and a house "
                                "holds 2 at the start: a target of 3 to 13 (ruling 447)"),
    (("--victory-target", "14"), "a target of 3 to 13 (ruling 447)"),
    (("--victory-target", "0"), "a target of 3 to 13"),
])
def test_ruling_447_a_bad_round_limit_or_victory_target_is_refused_and_writes_nothing(tmp_path, capsys, args, message):
    code, out, err = run(capsys, "new", tmp_path / "g", "--houses", THREE, *args)
    assert code == 2 and message in err and "Traceback" not in err and out == ""
    assert not (tmp_path / "g").exists()


def test_ruling_447_a_rounds_value_that_is_not_a_number_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["new", str(tmp_path / "g"), "--houses", THREE, "--rounds", "ten"])
    assert "invalid int value: 'ten'" in capsys.readouterr().err and not (tmp_path / "g").exists()


def test_ruling_447_the_target_range_counts_only_the_castles_in_play():
    three = new_game(["stark", "lannister", "baratheon"], seed="s")
    six = new_game(SIX, seed="s")
    assert target_range(three, three.board()) == (3, 13)  # the three-player game blocks the south
    low, high = target_range(six, six.board())
    assert high == sum(a.fortification != "none" for a in six.board().areas.values()) and low <= 7


def test_ruling_447_at_the_round_limit_the_rulebooks_standings_decide_whatever_the_target(tmp_path):
    file = tmp_path / "one.toml"
    file.write_text('players = [3]\nrounds = 1\nvictory_target = 12\n')
    ends = []
    r = simulate(3, 4, text=False, setup=str(file), on_step=lambda s: ends.append(s) if s.phase == "game_over" else None)
    assert r.problems == [] and ends
    end = ends[-1]
    assert end.round == 1 and end.castles(r.winner, end.board()) < 12
    assert r.winner == standings(end, end.board())[0][0]


# --- ruling 448: no castle target with Targaryen ---------------------------------------------------------


def test_ruling_448_a_victory_target_with_targaryen_in_play_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--expansion", "mother-of-dragons",
                       "--houses", "stark,lannister,baratheon,targaryen", "--victory-target", "6")
    assert code == 2 and "Targaryen wins on space 7 of its victory track" in err and "(ruling 448)" in err
    assert not (tmp_path / "g").exists()
    assert run(capsys, "new", tmp_path / "g", "--expansion", "mother-of-dragons",
               "--houses", "stark,lannister,baratheon,arryn", "--victory-target", "6", "--seed", "s")[0] == 0
    assert GameDir(tmp_path / "g").load_state().victory_target(GameDir(tmp_path / "g").load_state().board()) == 6


# --- ruling 452: no victory target in a box won by objectives --------------------------------------------

AFFC = ("--expansion", "a-feast-for-crows", "--houses", "stark,lannister,baratheon,arryn")


@pytest.mark.parametrize("how", [AFFC, ("--setup", "a-feast-for-crows")])
def test_ruling_452_a_victory_target_in_a_feast_for_crows_is_refused(tmp_path, capsys, how):
    code, _, err = run(capsys, "new", tmp_path / "g", *how, "--victory-target", "6")
    assert code == 2 and "--victory-target 6: this box is won by points of objectives" in err
    assert "not by castles and strongholds (F045)" in err and "(ruling 452)" in err
    assert "Traceback" not in err and not (tmp_path / "g").exists()


def test_ruling_452_the_scenario_s_own_seven_is_the_rulebook_s_game(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", *AFFC, "--victory-target", "7", "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    assert "victory_target" not in state.options and state.victory_target(state.board()) == 7
    assert "victory_target" not in (tmp_path / "g" / "game.toml").read_text()


# --- ruling 449: a setting never changes during a game ---------------------------------------------------


@pytest.mark.parametrize(("edit", "key"), [
    (("rounds = 8", "rounds = 6"), "rounds"),
    (("tides_of_battle = false", "tides_of_battle = true"), "tides_of_battle"),
    (("tides_reshuffle_each_combat = true", 'tides_reshuffle_each_combat = true\nhouse_cards = "adwd"'), "house_cards"),
])
def test_ruling_449_a_setting_changed_during_the_game_is_refused(tmp_path, capsys, edit, key):
    root = tmp_path / "g"
    assert run(capsys, "new", root, "--houses", THREE, "--seed", "s", "--rounds", "8")[0] == 0
    assert run(capsys, "adjudicate", root)[0] == 0
    game = root / "game.toml"
    game.write_text(game.read_text().replace(*edit))
    before = files(root)
    code, _, err = run(capsys, "adjudicate", root)
    assert code != 0 and f"options say {key} = " in err and "cannot change during it (ruling 449)" in err
    assert "Traceback" not in err and files(root) == before


def test_ruling_449_changed_settings_reads_a_missing_flag_as_its_default():
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    assert changed_settings({}, state) is None  # tides_of_battle false either way
    assert changed_settings(dict(state.options), state) is None
    assert "victory_target = 5" in (changed_settings({"victory_target": 5}, state) or "")


# --- ruling 450: random houses come from the committed seed -----------------------------------------------


def test_ruling_450_the_same_seed_gives_the_same_seats_and_the_seats_follow_the_seed():
    houses = ["stark", "lannister", "greyjoy", "tyrell", "baratheon"]
    seats = ("a", "b", "c", "d", "e")
    assert seat_houses("one", seats, houses) == seat_houses("one", seats, houses)
    draws = {tuple(seat_houses(str(seed), seats, houses).values()) for seed in range(20)}
    assert len(draws) > 10  # the seed decides, not the order the houses were named in
    for draw in draws:
        assert sorted(draw) == sorted(houses)


def test_ruling_450_random_houses_leave_every_shuffle_of_the_game_as_it_was(tmp_path):
    plain = create_game(tmp_path / "plain", houses=["stark", "lannister", "baratheon"], seed="s").load_state()
    seated = create_game(tmp_path / "seated", houses=["stark", "lannister", "baratheon"], seed="s",
                         settings=TableSettings(random_houses=("x", "y", "z"))).load_state()
    for part in ("westeros_decks", "wildling_deck", "rng_counter", "tracks", "houses"):
        assert getattr(plain, part) == getattr(seated, part), part


def test_ruling_450_replay_after_reveal_shows_the_seats_are_the_seeds_draw(tmp_path, capsys):
    root = tmp_path / "g"
    assert run(capsys, "new", root, "--houses", THREE, "--random-houses", "Ann,Bo,Cy")[0] == 0
    assert run(capsys, "adjudicate", root)[0] == 0
    code, out, _ = run(capsys, "replay", root)
    assert code == 0 and "the seed is not revealed yet" in out
    assert run(capsys, "reveal", root, "--force")[0] == 0
    code, out, err = run(capsys, "replay", root)
    assert code == 0, err
    assert "the random houses are the revealed seed's draw: the moderator did not choose them (ruling 450)" in out


def test_ruling_450_replay_after_reveal_finds_seats_the_moderator_chose(tmp_path, capsys):
    root = tmp_path / "g"
    assert run(capsys, "new", root, "--houses", THREE, "--random-houses", "Ann,Bo,Cy", "--seed", "s")[0] == 0
    seats = seat_houses("s", ["Ann", "Bo", "Cy"], ["stark", "lannister", "baratheon"])
    chosen = {"Ann": seats["Bo"], "Bo": seats["Ann"], "Cy": seats["Cy"]}  # the moderator swaps two seats
    for name in ("state.toml", "game.toml"):
        path = root / name
        text = path.read_text()
        for seat in ("Ann", "Bo"):
            text = text.replace(f'{seat} = "{seats[seat]}"', f'{seat} = "@{chosen[seat]}"')
        path.write_text(text.replace('"@', '"'))
    assert GameDir(root).load_state().options["random_houses"] == chosen
    assert run(capsys, "adjudicate", root)[0] == 0
    assert run(capsys, "reveal", root, "--force")[0] == 0
    code, out, err = run(capsys, "replay", root)
    assert code != 0 and "the setup's random houses are not the revealed seed's draw" in out + err


def test_ruling_450_the_audit_refuses_seats_that_do_not_deal_the_houses_in_play():
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    assert random_seats_check(state, "s") is None
    state.options["random_houses"] = {"a": "stark", "b": "stark", "c": "baratheon"}
    assert random_seats_check(state, "s") == (False, "the setup's random_houses do not deal each house in play to one seat")


@pytest.mark.parametrize(("given", "message"), [
    ("Ann,,Cy", "'' cannot name a seat"),
    ("Ann,Bo,Ann", "the seat 'Ann' is named twice"),
    ("Ann,Bo,ann", "the seats 'Ann' and 'ann' are the same"),
    ("Ann,Bo,\x1b[31mCy", "cannot name a seat"),
    ("Ann,Bo," + "x" * 41, "cannot name a seat: give 1 to 40 letters"),
])
def test_ruling_450_bad_seat_names_are_refused(tmp_path, capsys, given, message):
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace("[", r"\[")):
        seat_names(given)
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", THREE, "--random-houses", given)
    assert code == 2 and message in err and not (tmp_path / "g").exists()


def test_ruling_450_as_many_seats_as_houses(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", THREE, "--random-houses", "Ann,Bo")
    assert code == 2 and "--random-houses names 2 seats for 3 houses (stark, lannister, baratheon)" in err
    assert not (tmp_path / "g").exists()
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    with pytest.raises(SetupError, match="names 4 seats"):
        apply_settings(state, TableSettings(random_houses=("a", "b", "c", "d")))
    assert "random_houses" not in state.options


# --- ruling 451: which houses random houses deal -----------------------------------------------------------


def test_ruling_451_without_houses_the_rulebooks_houses_for_the_count_are_dealt(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--random-houses", "a,b,c,d,e", "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    assert state.players() == ["stark", "lannister", "greyjoy", "tyrell", "baratheon"]
    assert sorted(state.options["random_houses"].values()) == sorted(state.players())


def test_ruling_451_a_setup_that_seats_its_own_houses_deals_those(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--setup", "rumble-in-the-south", "--random-houses", "a,b,c,d",
               "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    assert sorted(state.options["random_houses"].values()) == ["baratheon", "lannister", "martell", "tyrell"]


def test_ruling_451_mother_of_dragons_needs_the_houses_named(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--expansion", "mother-of-dragons", "--random-houses", "a,b,c,d")
    assert code == 2 and "name the houses in play with --houses: Mother of Dragons with 4 players" in err
    assert not (tmp_path / "g").exists()
    assert run(capsys, "new", tmp_path / "g", "--expansion", "mother-of-dragons", "--random-houses", "a,b,c,d",
               "--houses", "stark,lannister,arryn,targaryen", "--seed", "s")[0] == 0
    seats = GameDir(tmp_path / "g").load_state().options["random_houses"]
    assert sorted(seats.values()) == ["arryn", "lannister", "stark", "targaryen"]


def test_ruling_450_a_position_file_keeps_the_seats_and_refuses_seats_that_do_not_deal_the_houses(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--random-houses", "a,b,c", "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    text = dump_position(state)
    assert load_position(text).options["random_houses"] == state.options["random_houses"]
    seats = state.options["random_houses"]
    wrong = text.replace(f'c = "{seats["c"]}"', f'c = "{seats["a"]}"')
    with pytest.raises(PositionError, match="options.random_houses: seats each house in play once"):
        load_position(wrong)


def test_ruling_449_new_force_over_a_game_under_way_keeps_its_settings(tmp_path, capsys):
    root = tmp_path / "g"
    assert run(capsys, "new", root, "--houses", THREE, "--seed", "s", "--rounds", "8")[0] == 0
    assert run(capsys, "new", root, "--houses", THREE, "--seed", "s", "--rounds", "6", "--force")[0] == 0  # not begun
    assert run(capsys, "adjudicate", root)[0] == 0
    before = files(root)
    for args, said in ((("--rounds", "5"), "set up with rounds = 6"), (("--tides-of-battle",), "tides_of_battle = false"),
                       (("--random-houses", "a,b,c"), "random_houses = none")):
        code, _, err = run(capsys, "new", root, "--houses", THREE, "--seed", "s", "--rounds", "6", "--force", *args)
        assert code == 2 and said in err and "cannot change during a game (ruling 449)" in err, err
        assert files(root) == before


@pytest.mark.parametrize(("target", "spaces"), [(None, 8), (5, 6), (13, 14)])
def test_ruling_447_the_maps_victory_track_runs_to_the_target_within_the_map(target, spaces):
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    if target is not None:
        apply_settings(state, TableSettings(victory_target=target))
    svg = render_map(state)
    width = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))
    boxes = [(float(x), float(w)) for x, w in re.findall(r'<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)" height="28"/>', svg)]
    assert len(boxes) == 7 + spaces  # the supply track's seven spaces, then the victory track's 0 to the target
    assert max(x + w for x, w in boxes) <= width


def test_ruling_446_a_flag_adds_a_setting_to_a_position_file_but_never_changes_its_own(tmp_path, capsys):
    position = tmp_path / "start.toml"
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    apply_settings(state, TableSettings(rounds=8, random_houses=("a", "b", "c")))
    position.write_text(dump_position(state))
    for args in (("--rounds", "6"), ("--random-houses", "x,y,z")):
        code, _, err = run(capsys, "new", tmp_path / "g", "--position", position, *args)
        assert code == 2 and f"{args[0]} disagrees with {position}, which sets [options]" in err
        assert not (tmp_path / "g").exists()
    assert run(capsys, "new", tmp_path / "g", "--position", position, "--rounds", "8", "--victory-target", "6")[0] == 0
    made = GameDir(tmp_path / "g").load_state()
    assert (made.last_round(), made.options["victory_target"], made.options["random_houses"]) == (
        8, 6, state.options["random_houses"])


@pytest.mark.parametrize(("args", "message"), [
    (("--setup", "rumble-in-the-south", "--random-houses", "a,b,c,d,e"),
     "--random-houses names 5 seats, but Rumble in the South is played by 4 players: name one seat a player"),
    (("--setup", "struggle-in-the-north", "--random-houses", "a,b,c"),
     "--random-houses names 3 seats, but Struggle in the North is played by 4 or 5 players"),
    (("--setup", "a-dance-with-dragons", "--random-houses", "a,b,c"),
     "--random-houses names 3 seats, but A Dance with Dragons is played by 6 players"),
    (("--random-houses", "a,b"), "--random-houses names 2 seats, but The base game is played by 3 to 6 players"),
    (("--random-houses", "a,b,c,d,e,f,g"), "--random-houses names 7 seats, but The base game is played by 3 to 6"),
    (("--expansion", "a-dance-with-dragons", "--random-houses", "a,b,c"), "A Dance with Dragons is played by 6 players"),
])
def test_ruling_451_seats_for_a_count_the_game_is_not_played_by_are_refused(tmp_path, capsys, args, message):
    code, _, err = run(capsys, "new", tmp_path / "g", *args)
    assert code == 2 and message in err and "Traceback" not in err and "internal error" not in err, err
    assert not (tmp_path / "g").exists()


def test_ruling_451_a_setup_for_several_counts_deals_the_rulebooks_houses_for_the_seats(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "g", "--setup", "struggle-in-the-north", "--random-houses", "a,b,c,d,e",
               "--seed", "s")[0] == 0
    state = GameDir(tmp_path / "g").load_state()
    assert sorted(state.options["random_houses"].values()) == ["baratheon", "greyjoy", "lannister", "stark", "tyrell"]


def test_ruling_447_a_round_limit_before_a_positions_round_is_refused(tmp_path, capsys):
    state = new_game(["stark", "lannister", "baratheon"], seed="s")
    state.round = 5
    position = tmp_path / "late.toml"
    position.write_text(dump_position(state))
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", position, "--rounds", "4")
    assert code == 2 and "--rounds 4: this position is in round 5 already: a round limit of 5 to 10" in err
    assert not (tmp_path / "g").exists()
    assert run(capsys, "new", tmp_path / "g", "--position", position, "--rounds", "5")[0] == 0
    assert GameDir(tmp_path / "g").load_state().last_round() == 5


def test_ruling_447_the_bounds_themselves_are_accepted():
    for rounds in (1, 9):
        state = new_game(["stark", "lannister", "baratheon"], seed="s")
        apply_settings(state, TableSettings(rounds=rounds))
        assert state.last_round() == rounds and state.options["rounds"] == rounds
    for target in (3, 13):
        state = new_game(["stark", "lannister", "baratheon"], seed="s")
        apply_settings(state, TableSettings(victory_target=target))
        assert state.victory_target(state.board()) == target == state.options["victory_target"]
    assert seat_names(" Ann , " + "x" * 40 + " ") == ("Ann", "x" * 40)  # trimmed; forty letters are a name


def test_ruling_445_a_long_header_of_settings_is_wrapped_within_the_text_reports_width():
    state = new_game(SIX, seed="s", house_cards="adwd")
    seats = tuple(f"Player Number {i} Longname" for i in range(6))
    apply_settings(state, TableSettings(rounds=8, victory_target=6, random_houses=seats))
    for viewer in (None, "stark"):
        text = render_report(state, [], viewer=viewer)
        assert max(len(line) for line in text.splitlines()) <= 80
        assert "Random houses: Player Number 0" in text and "Longname plays Tyrell" in text.replace("\n", " ")


def test_ruling_450_the_draw_is_the_one_docs_setups_md_tells_players_to_repeat():
    import hashlib
    import random

    houses = ["stark", "lannister", "greyjoy", "baratheon"]
    digest = hashlib.sha256(b"a public seed:-1").digest()
    by_hand = list(houses)
    random.Random(int.from_bytes(digest, "big")).shuffle(by_hand)
    assert list(seat_houses("a public seed", ["a", "b", "c", "d"], houses).values()) == by_hand
