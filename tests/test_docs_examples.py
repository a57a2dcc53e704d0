"""The examples in docs/positions.md, docs/state-json.md and docs/game-folder.md are real output."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adjudicator import __version__
from adjudicator.folder.gamedir import FOLDERS, create_game
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.state import Order, Unit
from adjudicator.reports.show import to_json

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"(<!-- refused -->\n)?```(\w+)\n(.*?)```", re.S)


def blocks(doc: str) -> list[tuple[bool, str, str]]:
    """Every fenced block of a doc: (marked refused, language, text)."""
    return [(bool(m[1]), m[2], m[3]) for m in BLOCK.finditer((DOCS / doc).read_text(encoding="utf-8"))]


def test_positions_md_every_plain_position_loads():
    tomls = [text for refused, lang, text in blocks("positions.md") if lang == "toml" and not refused]
    assert len(tomls) == 3
    for text in tomls:
        load_position(text, filename="example.toml")


def test_positions_md_the_short_test_position_means_what_the_text_says():
    text = [t for r, lang, t in blocks("positions.md") if lang == "toml" and not r][1]
    s = load_position(text, filename="example.toml")
    assert s.phase == "action"
    assert s.area("karhold").units == [Unit("stark", "footman")]
    assert s.area("karhold").order == Order("stark", "march+1")
    assert s.area("kingswood").units == []
    assert s.area("winterfell").units == [Unit("stark", "footman"), Unit("stark", "knight")]
    assert s.area("winterfell").garrison == 2


def test_positions_md_the_areas_example_means_what_the_text_says():
    text = [t for r, lang, t in blocks("positions.md") if lang == "toml" and not r][2]
    s = load_position(text, filename="example.toml")
    assert s.area("white_harbor").units == [Unit("stark", "footman")] * 2
    assert s.area("white_harbor").order == Order("stark", "defense+1")
    assert s.area("white_harbor").power_token == "stark"
    assert s.area("bay_of_ice").units == [Unit("stark", "ship", routed=True)]
    assert (s.area("lannisport").garrison, s.area("the_eyrie").neutral_force) == (2, 6)
    assert s.area("dragonstone").garrison == 0  # start = "empty"


def test_positions_md_refused_examples_give_the_messages_shown():
    found = blocks("positions.md")
    pairs = [(found[i][2], found[i + 1][2]) for i in range(len(found) - 1) if found[i][0]]
    assert len(pairs) == 2
    for position, message in pairs:
        assert found[[b[2] for b in found].index(message)][1] == "text"
        with pytest.raises(PositionError) as e:
            load_position(position, filename="example.toml")
        assert str(e.value) == message.strip()


def test_state_json_md_example_is_the_real_output():
    found = [(lang, text) for _, lang, text in blocks("state-json.md")]
    assert [lang for lang, _ in found] == ["toml", "json"]
    position, shown = found[0][1], found[1][1]
    assert to_json(load_position(position, filename="example.toml")) == shown


def test_state_json_md_documents_every_top_level_key():
    doc = (DOCS / "state-json.md").read_text(encoding="utf-8")
    position = blocks("state-json.md")[0][2]
    view = json.loads(to_json(load_position(position)))
    for key in view:
        assert f"`{key}`" in doc or f"`{key}.<" in doc, key
    for key in view["houses"]["stark"]:
        assert f"`{key}`" in doc, key
    for key in view["areas"]["winterfell"]:
        assert f"`{key}`" in doc, key


def test_game_folder_md_game_toml_is_what_maester_new_writes(tmp_path):
    gd = create_game(tmp_path / "mygame", houses=["stark", "lannister", "greyjoy", "baratheon"],
                     seed="an example seed", now=datetime(2026, 3, 1, 18, 0, tzinfo=timezone.utc))
    shown = [text for _, lang, text in blocks("game-folder.md") if lang == "toml"]
    assert len(shown) == 1
    expected = shown[0].replace('maester_version = "0.1.0"', f'maester_version = "{__version__}"')
    assert gd.game_file.read_text(encoding="utf-8") == expected


def test_game_folder_md_layout_is_what_maester_new_makes(tmp_path):
    gd = create_game(tmp_path / "mygame", houses=["stark", "lannister", "baratheon"], seed="x")
    layout = [text for _, lang, text in blocks("game-folder.md") if lang == "text"][0]
    listed = {line.split()[0].rstrip("/") for line in layout.splitlines()[1:]}
    made = {p.name for p in gd.root.iterdir()} | {"secret/seed", ".lock"}
    assert listed == made - {"secret"}
    assert set(FOLDERS) <= listed
