"""Ruling 341: a box's own parts of a game are a table of their own in the state file, written, read
back and checked by the box's own module; a game begun before the table keeps its older format.

``tests/data/old_mod_game`` is an expansion folder written before the move (schema version 2).
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from clikit import reports_of

from adjudicator.folder import audit, registry
from adjudicator.folder.batch import adjudicate, repair
from adjudicator.game.boxes import box_named
from adjudicator.game.hooks import hooked
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, StateError
from adjudicator.game.validation import box_keys, box_keys_changed, validate_dict
from adjudicator.robots.demo import sample_dir, sample_plan

OLD = Path(__file__).resolve().parent.parent / "data" / "old_mod_game"
SAMPLE = sample_dir("mod-game")
MOD_KEYS = {"vassals", "commanders", "vassal_sets", "dragon_tokens", "loyalty_gained", "loan_deck", "loan_slots"}


def old_folder(tmp_path: Path) -> Path:
    root = tmp_path / "old-mod-game"
    shutil.copytree(OLD, root)
    (root / "inbox").mkdir(exist_ok=True)  # an empty folder git does not keep
    return root


def mod_game() -> GameState:
    return new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="table")


def test_ruling_341_a_new_expansion_game_writes_its_own_parts_in_the_box_table():
    s = mod_game()
    d = s.to_dict()
    table = box_named("mother-of-dragons").state_table
    assert d["schema_version"] == 3 and list(d)[0] == "schema_version"
    assert set(d[table]) == MOD_KEYS and not MOD_KEYS & set(d)
    assert d[table]["vassals"] == s.vassals and d[table]["loan_slots"] == s.loan_slots
    assert GameState.from_toml(s.to_toml()) == s


def test_ruling_341_the_box_table_is_written_read_and_checked_by_the_box_module():
    box = box_named("mother-of-dragons")
    for point in ("state_written", "state_read", "state_checked"):
        assert {f.__module__ for f in hooked(point, box)} == {"adjudicator.game.mod_state"}, point
        assert hooked(point, box_named("classic")) == [], point


def test_ruling_341_a_base_game_state_is_written_as_before_in_schema_version_1():
    s = new_game(["stark", "lannister", "baratheon"], seed="table")
    text = s.to_toml()
    assert text.startswith("schema_version = 1\n") and "variant" not in text and "mother_of_dragons" not in text
    assert s.written_as == 0 and GameState.from_toml(text).to_toml() == text


def test_ruling_341_a_version_2_state_is_read_and_written_again_byte_for_byte():
    text = (OLD / "state.toml").read_text(encoding="utf-8")
    assert text.startswith("schema_version = 2\n") and "\nvassals = [" in text
    snapshot = audit.Snapshot.from_toml(text, where="state.toml")  # a folder's state.toml is its latest snapshot
    s = snapshot.state
    assert s.written_as == 2 and sorted(s.vassals) == ["martell", "tyrell"] and len(s.loan_slots) == 3
    assert snapshot.to_toml() == text
    again = GameState.from_dict(s.copy().to_dict())
    assert again.written_as == 2, "a copy of an old game's state keeps its format"
    fresh = s.copy()
    fresh.written_as = 0
    assert fresh.to_dict()["schema_version"] == 3 and GameState.from_toml(fresh.to_toml()) == s


def test_ruling_341_a_key_at_fault_is_named_where_its_file_holds_it():
    old = tomllib.loads((OLD / "state.toml").read_text(encoding="utf-8"))
    del old["snapshot"]
    with pytest.raises(StateError, match=r"^loan_slots: 'gold' is not a loan of the Iron Bank"):
        validate_dict(old | {"loan_slots": ["gold"]})
    new = mod_game().to_dict()
    table = new["mother_of_dragons"]
    with pytest.raises(StateError, match=r"^mother_of_dragons\.loan_slots: 'gold' is not a loan"):
        validate_dict(new | {"mother_of_dragons": table | {"loan_slots": ["gold"]}})
    with pytest.raises(StateError, match=r"^mother_of_dragons\.commanders\.stark: not a vassal"):
        validate_dict(new | {"mother_of_dragons": table | {"commanders": {"stark": "lannister"}}})
    with pytest.raises(StateError, match=r"^mother_of_dragons: expected a table, got 3"):
        validate_dict(new | {"mother_of_dragons": 3})
    with pytest.raises(StateError, match=r"^mother_of_dragons\.braavos_token: 'tyrell' is not a player house"):
        validate_dict(new | {"mother_of_dragons": table | {"braavos_token": "tyrell"}})


def test_ruling_341_a_box_key_is_found_and_changed_in_either_format():
    old = tomllib.loads((OLD / "state.toml").read_text(encoding="utf-8"))
    del old["snapshot"]
    new = mod_game().to_dict()
    for d in (old, new):
        assert box_keys(d)["vassals"] == GameState.from_dict(d).vassals
        changed = box_keys_changed(d, leaving=["stark"])
        assert GameState.from_dict(changed).leaving == ["stark"] and box_keys(d).get("leaving") is None
    assert list(box_keys_changed(old, leaving=["stark"])) == [*old, "leaving"], "at the top level, as version 2 had it"
    assert box_keys({"variant": "classic"}) == {} and box_keys({"variant": "chess"}) == {}


def test_ruling_341_a_folder_written_before_the_table_replays_byte_for_byte(tmp_path):
    root = old_folder(tmp_path)
    chk = audit.replay(root)
    assert chk.ok, chk.lines()
    audit.reveal(root, force=True)  # the sample's public seed: the setup's decks checked against it too
    chk = audit.replay(root)
    assert chk.ok and any("setup's decks are its fresh shuffle" in n for n in chk.notes), chk.lines()


def test_ruling_341_a_folder_written_before_the_table_goes_on_as_the_sample_game_did(tmp_path):
    root = old_folder(tmp_path)
    _, runs = sample_plan(SAMPLE)
    assert sorted(p.stem for p in (root / "states").glob("[0-9]*.toml")) == [f"{n:04d}" for n in range(6)], \
        "the fixture holds the setup's step and the sample's runs 1 to 5"
    for run in runs[5:]:
        for f in sorted((SAMPLE / "sealed" / run.files).glob("*.txt")):
            shutil.copyfile(f, root / "inbox" / f"{run.files}-{f.name}")
        assert adjudicate(root).exit_status == 0, run.files
        assert not run.deadline
    expected = SAMPLE / "expected"
    reports = reports_of(root)
    continued = sorted(p.name for p in reports.iterdir())[1:]
    assert continued == sorted(p.name for p in expected.iterdir() if p.is_dir())[6:]
    for step in continued:
        for approved in (expected / step).rglob("*.txt"):
            produced = reports / step / approved.relative_to(expected / step)
            assert produced.read_text() == approved.read_text(), f"{step}/{approved.name} differs from the sample's"
    assert (root / "pending").read_text() == (expected / "pending").read_text()
    for snapshot in sorted((root / "states").glob("[0-9]*.toml")):
        text = snapshot.read_text(encoding="utf-8")
        assert text.startswith("schema_version = 2\n") and "\nvassals = [" in text, snapshot.name
        assert "mother_of_dragons" not in text, snapshot.name
    assert audit.replay(root).ok


def test_ruling_341_a_player_who_left_is_found_in_an_old_state_file_as_in_a_new_one(tmp_path):
    """``registry.departed`` reads one key of state.toml, not the whole state: in either format."""
    root = old_folder(tmp_path)
    game = registry.read_game(root)
    assert registry.departed(root, game) == set()
    text = (root / "state.toml").read_text(encoding="utf-8")
    (root / "state.toml").write_text(text.replace('vassals = [\n    "tyrell",', 'vassals = [\n    "stark",\n    "tyrell",'))
    assert registry.departed(root, game) == {"stark"}, "version 2: the vassals at the top level"
    state = audit.Snapshot.from_toml(text, where="state.toml").state
    state.written_as = 0  # as a game begun now writes it
    new = state.to_dict()
    new["mother_of_dragons"]["vassals"].append("stark")
    (root / "state.toml").write_text(tomli_w.dumps(new))
    assert registry.departed(root, game) == {"stark"}, "version 3: the vassals in the box's table"


def test_ruling_341_a_lost_snapshot_of_an_old_folder_is_rebuilt_in_its_own_format(tmp_path):
    root = old_folder(tmp_path)
    lost = (root / "states" / "0003.toml").read_bytes()
    (root / "states" / "0003.toml").unlink()
    assert repair(root).ok
    assert (root / "states" / "0003.toml").read_bytes() == lost, "version 2, byte for byte"
