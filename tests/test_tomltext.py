"""util/tomltext.py: a small text read again in one process is not parsed again, and no reader sees another's changes."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from adjudicator.folder import registry
from adjudicator.folder.gamedir import create_game
from adjudicator.util import tomltext

GAME = 'houses = ["stark", "lannister"]\n[game]\nid = "memo"\n[deadlines]\nstep = { hours = 48 }\n'


def test_a_text_read_again_gives_the_same_data_and_a_copy_of_its_own() -> None:
    first = tomltext.loads(GAME)
    first["houses"].append("greyjoy")
    first["deadlines"]["step"]["hours"] = 1
    second = tomltext.loads(GAME)  # from what the first reading gave, not from the first caller's copy
    assert second == tomllib.loads(GAME)
    second["game"]["id"] = "changed"
    assert tomltext.loads(GAME) == tomllib.loads(GAME)


def test_a_text_past_the_bounds_is_refused_every_time() -> None:
    text = "x = " + "[" * 40 + "]" * 40 + "\n"
    for _ in range(2):
        with pytest.raises(tomltext.TomlLimit):
            tomltext.loads(text)


def test_only_small_texts_are_remembered_and_only_a_few() -> None:
    tomltext._MEMO.clear()
    big = "".join(f"k{i} = {i}\n" for i in range(3000))
    assert len(big) > tomltext.MEMO_CHARS
    assert tomltext.loads(big)["k2999"] == 2999
    assert tomltext._MEMO == {}
    for i in range(tomltext.MEMO_ENTRIES + 3):
        tomltext.loads(f"n = {i}\n")
    assert len(tomltext._MEMO) == tomltext.MEMO_ENTRIES
    assert tomltext.loads("n = 0\n") == {"n": 0}  # forgotten, read again


def test_game_toml_changed_on_disk_is_read_as_it_is_now(tmp_path: Path) -> None:
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], game_id="memo", seed="s")
    before = registry.read_game(gd.root)
    gd.write_table("deadlines", {"step": {"hours": 12}})
    after = registry.read_game(gd.root)
    assert "deadlines" not in before or before["deadlines"] != after["deadlines"]
    assert after["deadlines"] == {"step": {"hours": 12}}
    assert gd.read_game() == after
