"""Setups as data (game/setup_file.py, docs/setups.md): the shipped setups, `maester new --setup`,
the community setups' facts (rulings 441-443; 444 in tests/rules/test_blocked_seas.py), every bad setup file refused with its line (ruling 440),
and the round limit and victory target a setup sets, played by robots."""

from __future__ import annotations

from pathlib import Path

import pytest
from clikit import reports_of, run

from adjudicator.folder import audit
from adjudicator.folder.gamedir import GameDir
from adjudicator.game.board import Board
from adjudicator.game.setup import SetupError, new_game
from adjudicator.game.setup_file import SetupFileError, load_setup, setup_named, setup_names
from adjudicator.game.variants import variant
from adjudicator.robots.simulate import simulate

COMMUNITY = ("struggle-in-the-north", "rumble-in-the-south", "race-to-kings-landing", "no-kraken-for-dinner")
NORTH_4 = ["stark", "lannister", "greyjoy", "baratheon"]


def without_setup(state):
    d = state.to_dict()
    d["options"].pop("setup")
    return d


def test_the_package_ships_the_official_and_community_setups():
    assert set(setup_names()) == {"base-game", "mother-of-dragons", "a-dance-with-dragons", "a-feast-for-crows", *COMMUNITY}
    assert {n: setup_named(n).title for n in COMMUNITY} == {
        "struggle-in-the-north": "Struggle in the North", "rumble-in-the-south": "Rumble in the South",
        "race-to-kings-landing": "Race to King's Landing", "no-kraken-for-dinner": "No Kraken for Dinner"}


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_the_base_games_setup_file_is_the_printed_setup(count):
    houses = list(Board.classic().setups[count].houses)
    state = setup_named("base-game").new_game(houses, seed="same")
    assert without_setup(state) == new_game(houses, seed="same").to_dict()
    assert state.options["setup"] == "the base game"


def test_the_expansions_setup_files_are_their_boxes_setups():
    six = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
    adwd = setup_named("a-dance-with-dragons").new_game(None, seed="same")  # it seats its six houses itself
    assert without_setup(adwd) == variant("a-dance-with-dragons").setup(six, seed="same").to_dict()
    mod = setup_named("mother-of-dragons").new_game(["stark", "lannister", "arryn", "targaryen"], seed="same")
    expected = variant("mother-of-dragons").setup(["stark", "lannister", "arryn", "targaryen"], seed="same")
    assert without_setup(mod) == expected.to_dict()


@pytest.mark.parametrize("name", sorted(setup_names()))
def test_maester_new_creates_each_shipped_setup(tmp_path, capsys, name):
    setup = setup_named(name)
    count = setup.players[0]
    mod_houses = ["stark", "lannister", "arryn", "targaryen"]
    houses = setup.fixed_houses(count) or (mod_houses if setup.box.has("vassals") else list(Board.classic().setups[count].houses))
    code, _, err = run(capsys, "new", tmp_path / "g", "--setup", name, "--houses", ",".join(houses), "--seed", "s")
    assert code == 0, err
    state = GameDir(tmp_path / "g").load_state()
    assert state.options["setup"] == setup.title and state.check() == []
    assert GameDir(tmp_path / "g").info().options["setup"] == setup.title  # game.toml records it too


def test_ruling_441_struggle_in_the_north_blocks_the_south_instead_of_its_neutral_forces():
    four = setup_named("struggle-in-the-north").new_game(NORTH_4, seed="s")
    assert {"highgarden", "oldtown", "sunspear", "storms_end", "port_of_storms_end", "the_boneway"} <= set(four.impassable)
    assert {a: s.neutral_force for a, s in four.areas.items() if s.neutral_force} == {"kings_landing": 5, "the_eyrie": 6}
    assert four.tracks == new_game(NORTH_4, seed="s").tracks and four.kings_court_overlay
    five = setup_named("struggle-in-the-north").new_game([*NORTH_4, "tyrell"], seed="s")
    assert set(five.impassable) == {"sunspear", "port_of_sunspear", "salt_shore", "yronwood", "starfall", "storms_end",
                                    "port_of_storms_end"}
    assert {a: s.neutral_force for a, s in five.areas.items() if s.neutral_force} == {"kings_landing": 5, "the_eyrie": 6}
    assert "highgarden" not in five.impassable and five.area("highgarden").garrison == 2


def test_ruling_442_a_setup_seating_other_houses_takes_the_six_player_tracks_without_the_absent():
    rumble = setup_named("rumble-in-the-south").new_game(None, seed="s")
    assert rumble.houses_in_play == ["lannister", "tyrell", "baratheon", "martell"]
    assert rumble.tracks == {"iron_throne": ["baratheon", "lannister", "martell", "tyrell"],
                             "fiefdoms": ["tyrell", "martell", "baratheon", "lannister"],
                             "kings_court": ["lannister", "martell", "baratheon", "tyrell"]}
    race = setup_named("race-to-kings-landing").new_game(None, seed="s")
    assert race.tracks["iron_throne"] == ["stark", "lannister", "martell", "greyjoy", "tyrell"]  # the setup's own
    assert race.tracks["fiefdoms"] == ["greyjoy", "tyrell", "martell", "stark", "lannister"]
    assert {"dragonstone", "port_of_dragonstone"} == set(race.impassable) and not race.kings_court_overlay
    assert race.area("sunspear").neutral_force is None and race.area("sunspear").garrison == 2  # Martell's home


def test_ruling_443_lannisters_port_ship_stays_out_where_the_setup_says():
    for name in ("rumble-in-the-south", "no-kraken-for-dinner"):
        state = setup_named(name).new_game(None, seed="s")
        assert state.area("port_of_lannisport").units == [] and state.area("the_golden_sound").units
    kraken = setup_named("no-kraken-for-dinner").new_game(None, seed="s")
    assert {"pyke", "port_of_pyke"} == set(kraken.impassable) and "greyjoy" not in kraken.houses_in_play
    race = setup_named("race-to-kings-landing").new_game(None, seed="s")
    assert race.area("port_of_lannisport").units  # Race to King's Landing keeps it


@pytest.mark.parametrize("name", COMMUNITY)
def test_each_community_setup_plays_through_the_text_path_and_replays_after_reveal(tmp_path, name):
    setup = setup_named(name)
    r = simulate(setup.players[-1], 5, text=True, out=tmp_path / "g", setup=name)
    assert r.problems == [] and r.winner is not None
    assert GameDir(tmp_path / "g").load_state().options["setup"] == setup.title
    audit.reveal(tmp_path / "g")
    check = audit.replay(tmp_path / "g")
    assert check.ok and any("fresh shuffle" in n for n in check.notes), check.problems


OFFICIAL = {"base-game": 4, "mother-of-dragons": 5, "a-dance-with-dragons": 6}


@pytest.mark.parametrize(("name", "players"), sorted(OFFICIAL.items()))
def test_each_official_setup_file_plays_through_the_text_path_and_replays_after_reveal(tmp_path, name, players):
    setup = setup_named(name)
    r = simulate(players, 6, text=True, out=tmp_path / "g", setup=name)
    assert r.problems == [] and r.winner is not None
    state = GameDir(tmp_path / "g").load_state()
    assert state.options["setup"] == setup.title and state.variant == setup.box.name and state.phase == "game_over"
    audit.reveal(tmp_path / "g")
    check = audit.replay(tmp_path / "g")
    assert check.ok and any("fresh shuffle" in n for n in check.notes), check.problems


def test_the_soak_plays_every_shipped_setup():
    from adjudicator.cli.simulate import SOAK_KINDS

    assert {setup for *_, setup in SOAK_KINDS if setup} == set(setup_names())


@pytest.mark.parametrize(("setup", "expansion", "houses"), [
    ("mother-of-dragons", "mother-of-dragons", "stark,lannister,arryn,targaryen"),
    ("a-dance-with-dragons", "a-dance-with-dragons", "stark,lannister,greyjoy,tyrell,baratheon,martell"),
    ("base-game", None, "stark,lannister,greyjoy,baratheon"),
])
def test_maester_new_with_an_official_setup_makes_the_boxs_own_game(tmp_path, capsys, setup, expansion, houses):
    """The same state but for the setup's name, and after a first run the same reports byte for byte."""
    by_setup, by_box = tmp_path / "by-setup", tmp_path / "by-box"
    assert run(capsys, "new", by_setup, "--setup", setup, "--houses", houses, "--seed", "z", "--game-id", "g")[0] == 0
    box = ("--expansion", expansion) if expansion else ()
    assert run(capsys, "new", by_box, *box, "--houses", houses, "--seed", "z", "--game-id", "g")[0] == 0
    title = setup_named(setup).title
    assert (by_setup / "state.toml").read_text().replace(f'setup = "{title}"\n', "") == (by_box / "state.toml").read_text()
    for root in (by_setup, by_box):
        assert run(capsys, "adjudicate", root)[0] == 0
    pages = {root: reports_of(root) for root in (by_setup, by_box)}  # every page, rendered from the records
    reports = sorted(p.relative_to(pages[by_box]) for p in pages[by_box].rglob("*") if p.is_file())
    assert reports and reports == sorted(p.relative_to(pages[by_setup]) for p in pages[by_setup].rglob("*") if p.is_file())
    for p in reports:
        if p.name != "report.json":  # its state view names the setup in its options
            assert (pages[by_setup] / p).read_bytes() == (pages[by_box] / p).read_bytes(), p


def test_ruling_440_a_round_limit_set_by_a_setup_ends_the_game_after_it(tmp_path):
    file = tmp_path / "short.toml"
    file.write_text('title = "Three rounds"\nplayers = [3]\nrounds = 3\n')
    rounds: set[int] = set()
    r = simulate(3, 2, text=False, setup=str(file), on_step=lambda s: rounds.add(s.round))
    assert r.problems == [] and max(rounds) == 3 and r.winner is not None


def test_ruling_440_a_victory_target_set_by_a_setup_wins_at_that_many_castles(tmp_path):
    file = tmp_path / "quick.toml"
    file.write_text('players = [3]\nvictory_target = 4\n')
    ends = []
    r = simulate(3, 3, text=False, setup=str(file), on_step=lambda s: ends.append(s) if s.phase == "game_over" else None)
    assert r.problems == [] and r.winner is not None  # the invariants check the target of 4, not 7
    end = ends[-1]
    held = end.castles(r.winner, end.board())
    assert end.victory_target(end.board()) == 4 and (held >= 4 or end.round == 10)


# --- bad setup files: each refused naming its line and what would do, no game written ----------------

BAD = [
    ("a unit in a blocked area", 'players = [3]\nblocked = ["white_harbor"]\n',
     r"bad\.toml:2: blocked: white_harbor is blocked but stark's footman starts there"),
    ("a unit in a blocked area, given", 'players = [3]\nblocked = ["karhold"]\n[house.stark]\n'
     'units = [{ area = "karhold", unit = "knight" }]\n', r"bad\.toml:4: house\.stark\.units: stark's knight in karhold, which is blocked"),
    ("a house twice", 'players = [3]\nhouses = ["stark", "lannister", "stark"]\n',
     r"bad\.toml:2: houses: house 'stark' is named twice"),
    ("an unknown card", 'players = [3]\n[decks]\nwesteros_1 = ["supply", "winter_is_comming"]\n',
     r"bad\.toml:3: decks\.westeros_1: 'winter_is_comming' is not a card of that deck; did you mean 'winter_is_coming'\?"),
    ("a supply over the track", 'players = [3]\n[house.stark]\nsupply = 7\n',
     r"bad\.toml:3: house\.stark\.supply: the supply track runs from 0 to 6, not 7"),
    ("a count out of range", 'players = [3]\n[house.stark]\nunits = [{ area = "winterfell", unit = "knight", count = 6 }]\n',
     r"bad\.toml:3: house\.stark\.units\.count: a count of 1 to 5 \(the knights stark has\), not 6"),
    ("a player count out of range", "players = [2]\n", r"bad\.toml:1: players: the base game is played by 3, 4, 5 or 6"),
    ("an unknown victory condition", 'players = [3]\nvictory = "objectives"\n',
     r"bad\.toml:2: victory: the engine knows no victory condition 'objectives'; it knows castles \("),
    ("an unknown key", 'players = [3]\nround = 4\n', r"bad\.toml:2: round: unknown key 'round'; did you mean 'rounds'\?"),
    ("an unknown area", 'players = [3]\nblocked = ["winterfel"]\n',
     r"bad\.toml:2: blocked: 'winterfel' is not an area of the map; did you mean 'winterfell'\?"),
    ("a victory target out of range", "victory_target = 21\n", r"bad\.toml:1: victory_target: the map has 20 castles"),
    ("rounds out of range", "rounds = 0\n", r"bad\.toml:1: rounds: a game has 1 to 10 rounds, not 0"),
    ("a track without a house in play", 'players = [3]\nhouses = ["stark", "lannister", "baratheon"]\n[tracks]\n'
     'fiefdoms = ["stark", "lannister"]\n', r"bad\.toml:4: tracks\.fiefdoms: must list each house in play once"),
    ("too many Power tokens", 'players = [3]\n[house.stark]\npower = 19\npower_tokens = ["karhold", "castle_black"]\n',
     r"bad\.toml:3: house\.stark\.power: stark has 20 Power tokens: 19 available and 2 on the board are more"),
    ("not TOML", "players = [3\n", r"bad\.toml(:\d)?: not valid TOML"),
]


@pytest.mark.parametrize(("what", "text", "error"), BAD, ids=[b[0] for b in BAD])
def test_ruling_440_a_bad_setup_file_is_refused_with_its_line_and_no_game_is_written(tmp_path, capsys, what, text, error):
    file = tmp_path / "bad.toml"
    file.write_text(text)
    code, _, err = run(capsys, "new", tmp_path / "g", "--setup", file, "--houses", "stark,lannister,baratheon")
    assert code == 2 and "Traceback" not in err
    assert __import__("re").search(error, err), err
    assert not (tmp_path / "g").exists()


def test_a_setup_refuses_houses_it_does_not_seat_and_an_unknown_name(tmp_path, capsys):
    with pytest.raises(SetupError, match="Rumble in the South with 4 players seats lannister, tyrell, baratheon, martell"):
        setup_named("rumble-in-the-south").new_game(NORTH_4, seed="s")
    with pytest.raises(SetupError, match="Struggle in the North is played by 4 or 5 players: name the houses"):
        setup_named("struggle-in-the-north").new_game(None, seed="s")
    code, _, err = run(capsys, "new", tmp_path / "g", "--setup", "rumble-in-the-nort", "--seed", "s")
    assert code == 2 and "no setup called 'rumble-in-the-nort': did you mean 'rumble-in-the-south'?" in err
    code, _, err = run(capsys, "new", tmp_path / "g", "--setup", "base-game", "--expansion", "mother-of-dragons",
                       "--houses", "stark,lannister,arryn")
    assert code == 2 and "--expansion mother-of-dragons disagrees with the setup base-game" in err
    assert not (tmp_path / "g").exists()


def test_a_setup_file_for_a_box_whose_setup_is_code_sets_only_the_table():
    with pytest.raises(SetupFileError, match=r"x\.toml:2: blocked: the setup of Mother of Dragons is its own code"):
        load_setup('box = "mother-of-dragons"\nblocked = ["pyke"]\n', filename="x.toml")


def test_a_setup_file_may_give_the_decks_each_of_the_box_cards(tmp_path: Path):
    setup = load_setup('players = [3]\n[decks]\nwesteros_1 = ["supply", "supply", "mustering"]\n'
                       'wildling = ["crow_killers", "skinchanger_scout"]\n', filename="decks.toml")
    state = setup.new_game(["stark", "lannister", "baratheon"], seed="s")
    assert sorted(state.westeros_decks["1"]) == ["mustering", "supply", "supply"]
    assert sorted(state.wildling_deck) == ["crow_killers", "skinchanger_scout"] and state.check() == []
    with pytest.raises(SetupFileError, match=r"'supply' 4 times: the box has 3"):
        load_setup('[decks]\nwesteros_1 = ["supply", "supply", "supply", "supply"]\n', filename="d.toml")
