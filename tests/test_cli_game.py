"""``maester new`` and ``maester show``: the game folder, and bad input that changes nothing."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.folder.gamedir import GameDir, GameDirError, GameLocked, create_game
from adjudicator.game import rng
from adjudicator.game.position import load_position
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

HOUSES4 = "stark,lannister,greyjoy,baratheon"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for folders)."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


# --- maester new ----------------------------------------------------------------------------------


def test_new_creates_the_game_folder(tmp_path, capsys):
    code, out, err = run(capsys, "new", tmp_path / "g1", "--houses", HOUSES4, "--seed", "s3cret")
    assert (code, err) == (0, "")
    assert "created game 'g1'" in out
    root = tmp_path / "g1"
    assert sorted(p.name for p in root.iterdir()) == ["archive", "game.toml", "inbox", "reports", "secret",
                                                      "state.toml", "states"]
    for name in ("inbox", "archive", "reports", "states"):
        assert list((root / name).iterdir()) == []
    game = tomllib.loads((root / "game.toml").read_text())["game"]
    assert game["id"] == "g1"
    assert game["houses"] == ["stark", "lannister", "greyjoy", "baratheon"]
    assert game["seed_commitment"] == rng.commitment("s3cret")
    assert game["options"]["tides_of_battle"] is False
    assert datetime.fromisoformat(game["created"]).tzinfo is not None
    state = GameState.from_toml((root / "state.toml").read_text())
    assert state == new_game(["stark", "lannister", "greyjoy", "baratheon"], seed="s3cret", game_id="g1")


def test_new_keeps_the_seed_secret_with_mode_0600(tmp_path, capsys):
    run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--seed", "s3cret")
    seed_file = tmp_path / "g" / "secret" / "seed"
    assert seed_file.read_text().strip() == "s3cret"
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(seed_file.parent.stat().st_mode) == 0o700
    assert b"s3cret" not in (tmp_path / "g" / "game.toml").read_bytes()


def test_new_without_seed_draws_a_fresh_one_and_commits_to_it(tmp_path, capsys):
    run(capsys, "new", tmp_path / "a", "--houses", HOUSES4)
    run(capsys, "new", tmp_path / "b", "--houses", HOUSES4)
    seeds = [GameDir(tmp_path / x).seed() for x in "ab"]
    assert seeds[0] != seeds[1] and len(seeds[0]) == 32
    assert GameDir(tmp_path / "a").info().seed_commitment == rng.commitment(seeds[0])


def test_new_with_game_id_and_tides_of_battle(tmp_path, capsys):
    code, _, _ = run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--game-id", "winter-1.b_2",
                     "--tides-of-battle")
    assert code == 0
    gd = GameDir.open(tmp_path / "g")
    assert gd.info().id == "winter-1.b_2" and gd.info().options["tides_of_battle"] is True
    assert len(gd.load_state().tides_deck) == 24 and gd.load_state().game_id == "winter-1.b_2"


def test_new_into_an_existing_empty_folder(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    assert run(capsys, "new", tmp_path / "g", "--houses", HOUSES4)[0] == 0
    assert (tmp_path / "g" / "state.toml").exists()


def test_new_from_a_position_file(tmp_path, capsys):
    pos = tmp_path / "pos.toml"
    pos.write_text('houses = ["stark", "lannister", "baratheon"]\nround = 4\n[areas]\nkarhold = ["stark knight"]\n')
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", pos, "--seed", "p")
    assert (code, err) == (0, "")
    state = GameDir.open(tmp_path / "g").load_state()
    assert state.round == 4 and state.area("karhold").units[0].type == "knight"
    expected = load_position(pos.read_text(), seed="p")
    expected.game_id = "g"
    assert state == expected


def test_new_from_a_position_that_fixes_its_seed(tmp_path, capsys):
    pos = tmp_path / "pos.toml"
    pos.write_text('houses = ["stark", "lannister", "baratheon"]\n[rng]\nseed = "fixed"\n')
    assert run(capsys, "new", tmp_path / "g", "--position", pos)[0] == 0
    assert GameDir(tmp_path / "g").seed() == "fixed"
    code, _, err = run(capsys, "new", tmp_path / "h", "--position", pos, "--seed", "other")
    assert code == 2 and "fixes its own seed" in err
    assert not (tmp_path / "h").exists()


def test_new_force_reuses_a_folder_and_keeps_other_tables_and_files(tmp_path, capsys):
    root = tmp_path / "g"
    run(capsys, "new", root, "--houses", HOUSES4, "--seed", "one")
    gd = GameDir(root)
    gd.write_table("keys", {"stark": [{"fingerprint": "SHA256:x"}]})
    gd.write_table("players", {"stark": {"email": "ned@example.org"}})
    (root / "inbox" / "mail.txt").write_text("keep me")
    code, _, err = run(capsys, "new", root, "--houses", "stark,lannister,baratheon", "--seed", "two", "--force")
    assert (code, err) == (0, "")
    data = gd.read_game()
    assert data["keys"] == {"stark": [{"fingerprint": "SHA256:x"}]}
    assert data["players"] == {"stark": {"email": "ned@example.org"}}
    assert data["game"]["houses"] == ["stark", "lannister", "baratheon"]
    assert (root / "inbox" / "mail.txt").read_text() == "keep me"
    assert gd.seed() == "two" and gd.load_state().houses_in_play == ["stark", "lannister", "baratheon"]


BAD_HOUSES = [
    ("stark,lannister", "a game has 3 to 6 houses, not 2"),
    ("stark,lannister,greyjoy,tyrell,baratheon,martell,stark", "house 'stark' is named twice"),
    ("stark,lannister,greyjoy,tyrell,baratheon,martell,arryn", "unknown house 'arryn'"),
    ("stark,lannister,greyjoy,tyrell,martell", "martell cannot play in a 5-player game"),
    ("stark,lannister,dragon", "unknown house 'dragon'"),
    ("stark,stark,lannister,baratheon", "house 'stark' is named twice"),
]


@pytest.mark.parametrize("houses,message", BAD_HOUSES)
def test_new_refuses_bad_houses_and_writes_nothing(tmp_path, capsys, houses, message):
    code, out, err = run(capsys, "new", tmp_path / "g", "--houses", houses)
    assert code == 2 and out == ""
    assert err.startswith("maester: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_new_without_houses_or_position_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g")
    assert code == 2 and "--houses" in err and not (tmp_path / "g").exists()


def test_new_refuses_an_existing_non_empty_folder_and_leaves_it_unchanged(tmp_path, capsys):
    root = tmp_path / "g"
    root.mkdir()
    (root / "notes.txt").write_text("mine")
    before = snapshot(root)
    code, _, err = run(capsys, "new", root, "--houses", HOUSES4)
    assert code == 2 and "exists and is not empty (use --force" in err
    assert snapshot(root) == before


def test_new_refuses_a_second_game_in_the_same_folder(tmp_path, capsys):
    root = tmp_path / "g"
    run(capsys, "new", root, "--houses", HOUSES4)
    before = snapshot(root)
    assert run(capsys, "new", root, "--houses", HOUSES4)[0] == 2
    assert snapshot(root) == before


@pytest.mark.parametrize("game_id", ["my game", "-x", "a/b", "ünï"])
def test_new_refuses_a_bad_game_id(tmp_path, capsys, game_id):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, f"--game-id={game_id}")
    assert code == 2 and "invalid game id" in err
    assert not (tmp_path / "g").exists()


def test_new_refuses_a_folder_name_that_cannot_be_an_id_and_suggests_game_id(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "my game", "--houses", HOUSES4)
    assert code == 2 and "--game-id" in err and not (tmp_path / "my game").exists()
    assert run(capsys, "new", tmp_path / "my game", "--houses", HOUSES4, "--game-id", "mine")[0] == 0


BAD_POSITIONS = [
    ('houses = ["stark", "lannister", "baratheon"]\nround = \n', "pos.toml:2: not valid TOML"),
    ('houses = ["stark", "lannister", "baratheon"]\n[areas]\nwinterfel = []\n',
     "pos.toml:3: areas.winterfel: unknown area 'winterfel'"),
    ('houses = ["stark", "lannister", "baratheon"]\n[areas]\nkarhold = ["6 stark footmen", "5 stark footmen"]\n',
     "pos.toml:3: areas.karhold.units: stark has more than 10 footmen"),
    ('houses = ["stark", "lannister", "baratheon"]\n[areas.winterfell]\norder = "raid"\norder = "raid"\n',
     "pos.toml:4: not valid TOML"),
    ('houses = ["stark", "lannister", "baratheon"]\n[areas]\nkarhold = ["stark ship"]\n',
     "pos.toml:3: areas.karhold.units: Karhold is a land area: ships stay at sea"),
]


@pytest.mark.parametrize("text,message", BAD_POSITIONS)
def test_new_refuses_a_bad_position_naming_file_line_and_key(tmp_path, capsys, text, message):
    pos = tmp_path / "pos.toml"
    pos.write_text(text)
    code, out, err = run(capsys, "new", tmp_path / "g", "--position", pos)
    assert code == 2 and out == ""
    assert err.startswith(f"maester: error: {tmp_path / message.split(':')[0]}:") and message.split(":", 1)[1] in err
    assert len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.toml"]


def test_new_refuses_houses_that_disagree_with_the_position(tmp_path, capsys):
    pos = tmp_path / "pos.toml"
    pos.write_text('houses = ["stark", "lannister", "baratheon"]\n')
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", pos, "--houses", HOUSES4)
    assert code == 2 and "--houses disagrees" in err and not (tmp_path / "g").exists()


def test_new_refuses_a_missing_position_file(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", tmp_path / "none.toml")
    assert code == 2 and "cannot read the file" in err and not (tmp_path / "g").exists()


# --- maester show ---------------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path, capsys) -> Path:
    run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--seed", "show")
    return tmp_path / "g"


def test_show_prints_a_readable_summary(game, capsys):
    code, out, _ = run(capsys, "show", game)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Game g: round 1, planning phase"
    assert "Iron Throne:  1. Baratheon  2. Lannister  3. Stark  4. Greyjoy   [Iron Throne]" in lines
    assert "Fiefdoms:     1. Greyjoy  2. Stark  3. Baratheon  4. Lannister   [Valyrian" in lines
    assert "              Steel Blade]" in lines  # within 80 columns
    assert max(len(line) for line in lines) <= 80
    assert "Wildlings:    threat 2" in lines
    assert "Stark           5     0      1       2  7 / -" in lines
    assert "  Winterfell:                Stark: 1 footman and 1 knight; garrison 2" in lines
    assert "  The Eyrie:                 neutral force 6" in lines
    assert "Waiting for: nothing" in lines


def test_show_json_has_the_documented_keys(game, capsys):
    code, out, _ = run(capsys, "show", game, "--json")
    assert code == 0
    view = json.loads(out)
    assert view["schema_version"] == 1 and (view["round"], view["phase"]) == (1, "planning")
    assert view["tracks"]["iron_throne"] == ["baratheon", "lannister", "stark", "greyjoy"]
    assert view["houses"]["stark"] == {
        "power": 5, "power_on_board": 0, "supply": 1, "victory": 2, "hand": view["houses"]["stark"]["hand"],
        "discards": [],
    }
    assert len(view["houses"]["stark"]["hand"]) == 7
    assert view["areas"]["winterfell"] == {
        "units": [{"house": "stark", "type": "footman", "routed": False},
                  {"house": "stark", "type": "knight", "routed": False}],
        "controller": "stark", "order": None, "power_token": None, "garrison": 2, "neutral_force": None,
    }
    assert "port_of_winterfell" not in view["areas"]  # an empty port
    assert view["areas"]["port_of_lannisport"]["controller"] == "lannister"
    assert view["impassable"] == []
    assert view["areas"]["kings_landing"]["neutral_force"] == 5
    assert view["wildling_threat"] == 2
    assert view["dominance"]["messenger_raven"] == {"holder": "lannister", "used": False}
    assert view["pending"] == []


def test_show_json_hides_the_deck_order_and_the_seed(game, capsys):
    out = run(capsys, "show", game, "--json")[1]
    state = GameDir(game).load_state()
    assert "show" not in json.loads(out).values()
    assert json.loads(out)["decks"] == {
        "westeros": {"1": 10, "2": 10, "3": 10}, "westeros_discards": {"1": [], "2": [], "3": []},
        "wildling": 9, "tides": 0, "tides_discards": [],
    }
    assert state.wildling_deck[0] not in out


def test_show_position_prints_a_position_that_loads_back(game, capsys):
    code, out, _ = run(capsys, "show", game, "--position")
    assert code == 0
    assert load_position(out, filename="shown") == GameDir(game).load_state()


def test_show_refuses_a_folder_that_is_not_a_game(tmp_path, capsys):
    code, out, err = run(capsys, "show", tmp_path)
    assert code == 2 and out == "" and "is not a game folder" in err


def test_show_refuses_a_damaged_state(game, capsys):
    (game / "state.toml").write_text("round = [\n")
    code, _, err = run(capsys, "show", game)
    assert code == 2 and "state.toml cannot be read" in err


# --- the game folder library ----------------------------------------------------------------------


def test_write_table_replaces_one_table_and_keeps_the_others(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    gd.write_table("players", {"stark": {"email": "a@b"}})
    gd.write_table("players", {"lannister": {"email": "c@d"}})
    data = gd.read_game()
    assert data["players"] == {"lannister": {"email": "c@d"}} and data["game"]["id"] == "g"


def test_save_state_is_atomic_and_leaves_no_temporary_file(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    s = gd.load_state()
    s.round = 2
    gd.save_state(s)
    assert gd.load_state().round == 2
    assert [p.name for p in gd.root.iterdir() if p.name.startswith(".")] == []


def test_create_game_records_the_time_given(tmp_path):
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x", now=when)
    assert gd.info().created == "2026-01-02T03:04:05+00:00"


def test_a_new_folder_gets_ordinary_permissions(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(gd.root.stat().st_mode) == 0o777 & ~umask


def test_the_lock_is_exclusive_and_released_on_exit(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    with gd.lock(), pytest.raises(GameLocked, match="is busy: another maester run holds its lock"), \
            gd.lock(timeout=0.1):
        pass
    with gd.lock():
        pass


@pytest.mark.parametrize("before", ["", "pid 1\n", f"pid {os.getpid()}\nand a longer tail left by hand\n", "\x00junk"])
def test_the_lock_file_names_the_process_holding_it_whatever_it_held_before(tmp_path, before):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    gd.lock_file.write_text(before)
    for _ in range(2):  # the second run of the same process finds its own line there already
        with gd.lock():
            assert gd.lock_file.read_text() == f"pid {os.getpid()}\n"


def test_the_lock_is_released_when_the_body_raises(tmp_path):
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], seed="x")
    with pytest.raises(RuntimeError), gd.lock():
        raise RuntimeError("boom")
    with gd.lock(timeout=0):
        pass


def test_open_refuses_a_folder_without_game_toml(tmp_path):
    with pytest.raises(GameDirError, match="not a game folder"):
        GameDir.open(tmp_path)


def test_info_refuses_a_game_toml_without_game_table(tmp_path):
    (tmp_path / "game.toml").write_text("[keys]\n")
    with pytest.raises(GameDirError, match="has no \\[game\\] table"):
        GameDir.open(tmp_path).info()




# --- the house decks, a table setting (ruling 370) ------------------------------------------------


def test_ruling_370_new_deals_the_a_dance_with_dragons_decks_in_a_base_game(tmp_path, capsys):
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--seed", "s", "--house-cards", "adwd")
    assert code == 0, err
    gd = GameDir(tmp_path / "g")
    assert tomllib.loads(gd.game_file.read_text())["game"]["options"]["house_cards"] == "adwd"
    state = gd.load_state()
    assert state.houses["stark"].hand[:2] == ["roose_bolton_adwd", "ramsay_bolton"] and state.house_deck() == "adwd"


def test_ruling_370_new_with_the_base_decks_writes_nothing_new(tmp_path, capsys):
    code, _, _ = run(capsys, "new", tmp_path / "a", "--houses", HOUSES4, "--seed", "s", "--game-id", "g",
                     "--house-cards", "base")
    assert code == 0
    code, _, _ = run(capsys, "new", tmp_path / "b", "--houses", HOUSES4, "--seed", "s", "--game-id", "g")
    assert code == 0
    a, b = GameDir(tmp_path / "a"), GameDir(tmp_path / "b")
    assert a.state_file.read_bytes() == b.state_file.read_bytes() and "house_cards" not in a.state_file.read_text()


def test_ruling_370_new_refuses_an_unknown_deck_and_writes_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--house-cards", "affc")
    assert "invalid choice: 'affc'" in capsys.readouterr().err and not (tmp_path / "g").exists()
    code, _, err = run(capsys, "new", tmp_path / "g", "--houses", HOUSES4, "--alternate-house-cards")
    assert code == 2 and "--house-cards adwd" in err and not (tmp_path / "g").exists()


def test_ruling_370_a_position_names_its_deck_and_new_checks_it(tmp_path, capsys):
    pos = tmp_path / "p.toml"
    pos.write_text('houses = ["stark", "lannister", "baratheon"]\n[options]\nhouse_cards = "adwd"\n')
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", pos, "--house-cards", "base")
    assert code == 2 and "disagrees" in err and not (tmp_path / "g").exists()
    code, _, err = run(capsys, "new", tmp_path / "g", "--position", pos)
    assert code == 0, err
    assert GameDir(tmp_path / "g").load_state().houses["baratheon"].hand[0] == "stannis_baratheon_adwd"
    pos.write_text('houses = ["stark", "lannister", "baratheon"]\n[options]\nhouse_cards = "dance"\n')
    code, _, err = run(capsys, "new", tmp_path / "h", "--position", pos)
    assert code == 2 and "unknown house deck 'dance'" in err and not (tmp_path / "h").exists()
