"""Every kind of decision has a complete sample turn file and a documented example."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.game.commands import COMMAND_TYPES
from adjudicator.turnfile.parser import parse_turn_file

ROOT = Path(__file__).resolve().parent.parent
ALL = {t.__name__ for t in COMMAND_TYPES}


def test_every_command_appears_in_some_sample_turn_file():
    seen = {type(c).__name__ for p in (ROOT / "samples" / "turnfiles").glob("*.txt")
            for c in parse_turn_file(p.read_bytes(), filename=p.name).commands}
    for p in (ROOT / "samples" / "turnfiles" / "mother-of-dragons").glob("*.txt"):  # the expansion's words
        tf = parse_turn_file(p.read_bytes(), filename=p.name, variant="mother-of-dragons")
        assert not tf.problems, [str(x) for x in tf.problems]
        seen |= {type(c).__name__ for c in tf.commands}
    for p in (ROOT / "samples" / "turnfiles" / "a-feast-for-crows").glob("*.txt"):  # its objectives
        tf = parse_turn_file(p.read_bytes(), filename=p.name, variant="a-feast-for-crows")
        assert not tf.problems, [str(x) for x in tf.problems]
        seen |= {type(c).__name__ for c in tf.commands}
    assert ALL - seen == set()


def test_every_command_has_an_example_in_the_players_guide():
    guide = (ROOT / "docs" / "turn-files.md").read_text(encoding="utf-8")
    seen = {type(c).__name__ for block in re.findall(r"```turn\n(.*?)```", guide, re.S)
            for c in parse_turn_file(block).commands}
    seen |= {type(c).__name__ for block in re.findall(r"```turn-mod\n(.*?)```", guide, re.S)
             for c in parse_turn_file(block, variant="mother-of-dragons").commands}
    seen |= {type(c).__name__ for block in re.findall(r"```turn-affc\n(.*?)```", guide, re.S)
             for c in parse_turn_file(block, variant="a-feast-for-crows").commands}
    assert ALL - seen == set()
