"""Issue 22: every count, size and depth read from a player's text is bounded before it is used.

``muster in Lannisport: 99999999999 footmen`` once built that many muster actions before the
count was checked: a sealed one-line turn held ``maester adjudicate`` (and ``maester check``) until
it was killed. Each case here runs with a guard that stops any build of more than 1,000 muster
actions from one file, so a regression fails at once instead of eating the machine's memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.folder import registry
from adjudicator.folder.batch import adjudicate
from adjudicator.folder.check import check_file
from adjudicator.folder.gamedir import create_game
from adjudicator.game import commands
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile.parser import parse_turn_file

HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 71] * 32)) for i, h in enumerate(HOUSES)}
HUGE = "99999999999"
STARK_ORDERS = "White Harbor: defense +1\nWinterfell: defense +1\nThe Shivering Sea: consolidate\n"


@pytest.fixture(autouse=True)
def few_muster_actions(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Stop any turn file that builds more than 1,000 muster actions (a bounded line builds 10 at most)."""
    real, built = commands.MusterAction, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        if len(built) > 1000:
            raise MemoryError("more than 1,000 muster actions built: a count was used before it was checked")
        return real(*args, **kwargs)

    monkeypatch.setattr(commands, "MusterAction", counted)
    return built


@pytest.mark.parametrize("line,column", [
    (f"muster in Lannisport: {HUGE} footmen", 23),
    (f"consolidate in Lannisport: muster {HUGE} footmen", 35),
    (f"The Horde Descends: muster in Lannisport: {HUGE} footmen", 43),
    (f"muster in Lannisport: 1 knight, {HUGE} ships to the Golden Sound", 33),
], ids=["muster", "consolidate", "wildling card", "second action"])
def test_a_huge_muster_count_is_refused_without_building_the_units(line, column):
    tf = parse_turn_file(line + "\n")
    assert tf.commands == ()
    [problem] = tf.problems
    assert (problem.code, problem.where.column) == ("E205", column)
    assert problem.message == f"a number of units must be from 1 to 10, not {HUGE}"


def test_a_count_of_hundreds_of_digits_is_named_short():
    digits = "9" * 900
    [problem] = parse_turn_file(f"muster in Lannisport: {digits} footmen\n").problems
    assert problem.code == "E205" and problem.message.endswith("not 999999...(900 digits)")


def test_leading_zeros_are_read_as_the_number_they_write():
    [cmd] = parse_turn_file("casualties: 0000000000000000000002 footmen\n").commands
    assert cmd.units[0].count == 2  # type: ignore[attr-defined]


def test_a_muster_naming_more_than_ten_units_in_all_is_refused():
    tf = parse_turn_file("muster in Lannisport: " + ", ".join(["10 footmen"] * 60) + "\n")
    assert tf.commands == ()
    assert [p.code for p in tf.problems] == ["E205"]
    assert "a muster names at most 10 units" in tf.problems[0].message


def test_ten_units_in_one_muster_line_are_still_read(few_muster_actions):
    [cmd] = parse_turn_file("muster in Lannisport: 9 footmen, 1 knight\n").commands
    assert len(cmd.actions) == 10 and len(few_muster_actions) == 10  # type: ignore[attr-defined]


def sealed(house: str, body: str) -> str:
    return seal.sign(f"game bounds · house {house} · round 1 · planning · seq 1\n{body}", KEYS[house])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = create_game(tmp_path / "bounds", houses=HOUSES, seed="bounds-seed").root
    for h, k in KEYS.items():
        registry.register_key(root, h, PublicKey.from_key(k, h))
    assert adjudicate(root).exit_status == 0
    return root


def test_a_sealed_huge_muster_line_is_refused_in_the_receipt_and_the_other_lines_stand(game):
    (game / "inbox" / "stark.txt").write_text(sealed("stark", STARK_ORDERS + f"muster in Winterfell: {HUGE} footmen\n"))
    result = adjudicate(game)
    assert result.accepted == ["000001-stark-r1-planning-seq1.txt"]
    [receipt] = (game / "reports").glob(f"*/receipts/{result.accepted[0]}")
    text = " ".join(receipt.read_text().split())  # the receipt folds its lines at 80 columns
    assert f":5:23: error E205: a number of units must be from 1 to 10, not {HUGE}" in text
    assert "line 2: White Harbor: defense +1" in text and "internal error" not in text


def test_check_refuses_a_huge_muster_line(game, tmp_path):
    turn = tmp_path / "turn.txt"
    turn.write_text("game bounds · house stark · round 1 · planning · seq 1\n" + STARK_ORDERS
                    + f"muster in Winterfell: {HUGE} footmen\n")  # fmt: skip
    tf = check_file(game, turn)
    assert [(p.code, p.where.line) for p in tf.problems] == [("E205", 5)]
    assert not [w for w in tf.warnings if w.code == "W901"]
