"""Issue 22: every count, size and depth read from a turn file or a position is bounded before it is used.

``muster in Lannisport: 99999999999 footmen`` once built that many muster actions before the
count was checked: a sealed one-line turn held ``maester adjudicate`` (and ``maester check``) until
it was killed. Each case here runs with a guard that stops any build of more than 1,000 muster
actions from one file, so a regression fails at once instead of eating the machine's memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.cli import main
from adjudicator.folder import registry
from adjudicator.folder.batch import adjudicate
from adjudicator.folder.check import check_file
from adjudicator.folder.gamedir import create_game
from adjudicator.game import commands, position
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.setup import new_game
from adjudicator.game.state import StateError, validate_engine
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
    [receipt] = reports_of(game).glob(f"*/receipts/{result.accepted[0]}")
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


# --- position files (moderator input): every refusal a PositionError naming the key and line ------

THREE = 'houses = ["stark", "lannister", "baratheon"]\n'


@pytest.fixture
def few_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop any position that builds more than 10,000 units (the box holds a few dozen)."""
    real, built = position.Unit, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        if len(built) > 10_000:
            raise MemoryError("more than 10,000 units built: a count was used before it was checked")
        return real(*args, **kwargs)

    monkeypatch.setattr(position, "Unit", counted)


def refused(text: str) -> PositionError:
    with pytest.raises(PositionError) as e:
        load_position(text, filename="p.toml")
    return e.value


def test_a_huge_unit_count_in_a_position_is_refused_before_a_unit_is_built(few_units):
    e = refused(THREE + '[areas]\nkarhold = ["99999999999 stark footmen"]\n')
    assert (e.line, e.key) == (3, "areas.karhold.units")
    assert e.message == "cannot place 99999999999 footmen: a house has 1 to 10"


def test_a_unit_count_above_the_box_is_refused_at_its_key():
    e = refused(THREE + '[areas]\nthe_golden_sound = ["7 lannister ships"]\n')
    assert (e.line, e.key, e.message) == (3, "areas.the_golden_sound.units", "cannot place 7 ships: a house has 1 to 6")


@pytest.mark.parametrize("text,line,message", [
    (THREE + "round = " + "1" * 4301 + "\n", 2, "a number 4301 characters long; the longest Maester reads has 100"),
    (THREE + "round = " + "[" * 500 + "]" * 500 + "\n", 2,
     "brackets nested more than 32 deep; Maester's files nest 8 deep at most"),
    (THREE + "[areas]\n" + ".".join(["a"] * 5000) + " = 1\n", 3, "a dotted key of more than 32 parts"),
], ids=["4,301 digits", "500 brackets", "5,000 dotted parts"])
def test_toml_past_the_readers_bounds_is_refused_with_its_line(text, line, message):
    e = refused(text)
    assert (e.file, e.line, e.key, e.message) == ("p.toml", line, "", message)


@pytest.mark.parametrize("segment,line,key,message", [
    ('decisions = "ab"', 5, "engine.segment.decisions", "expected a table, got 'ab'"),
    ("used = 1", 5, "engine.segment.used", "expected a list, got 1"),
    ('used = ["a", 2]', 5, "engine.segment.used", "2 is not text"),
    ('events_seen = "x"', 5, "engine.segment.events_seen", "expected a whole number, got 'x'"),
], ids=["decisions", "used", "used item", "events_seen"])
def test_an_engine_segment_of_the_wrong_types_is_refused_naming_its_key(segment, line, key, message):
    e = refused(THREE + f'[engine.segment]\nname = "planning"\nstart = {{}}\n{segment}\n')
    assert (e.line, e.key, e.message) == (line, key, message)


def test_a_deeply_nested_engine_request_is_refused_before_show_could_recurse_on_it():
    """250 nested arrays in a request loaded, and dump_position ('maester show') then recursed out."""
    e = refused(THREE + '[engine]\npending = [{ key = "k", kind = "orders", house = "stark", prompt = "p", x = '
                + "[" * 250 + "]" * 250 + " }]\n")  # fmt: skip
    assert (e.line, e.message) == (3, "brackets nested more than 32 deep; Maester's files nest 8 deep at most")


def test_a_standing_answer_with_a_huge_count_is_refused_naming_the_field():
    command = '{ type = "Casualties", units = [{ type = "UnitSpec", unit = "footman", count = 99999999999 }] }'
    e = refused(THREE + f'[engine]\nanswers = [{{ id = "a", house = "stark", round = 1, command = {command} }}]\n')
    assert (e.line, e.key) == (3, "engine.answers.1.command")
    assert "command.units.1.count: expected a whole number from 1 to 10, got 99999999999" in e.message


@pytest.mark.parametrize("options,key,message", [
    ("colour = 'red'", "options.colour", "unknown key 'colour'; the keys are tides_of_battle, "
     "tides_reshuffle_each_combat, house_cards, setup, rounds, victory_target, random_houses"),
    ("tides_of_batle = true", "options.tides_of_batle", "unknown key 'tides_of_batle'; did you mean 'tides_of_battle'?"),
    ("tides_of_battle = nan", "options.tides_of_battle",
     "expected a whole number, true or false or a string, not the fraction nan"),
    ("tides_reshuffle_each_combat = 1", "options.tides_reshuffle_each_combat", "expected true or false, got 1 (int)"),
], ids=["unknown", "misspelt", "nan", "number"])
def test_options_are_checked_like_every_other_table(options, key, message):
    e = refused(THREE + f"[options]\n{options}\n")
    assert (e.line, e.key, e.message) == (3, key, message)


def test_position_refusals_reach_the_moderator_as_one_line(capsys, tmp_path, few_units):
    pos = tmp_path / "pos.toml"
    pos.write_text(THREE + '[areas]\nkarhold = ["99999999999 stark footmen"]\n')
    code = main(["new", str(tmp_path / "game"), "--position", str(pos), "--seed", "p"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and not (tmp_path / "game").exists()
    assert err.strip().splitlines() == [
        f"maester: error: {pos}:3: areas.karhold.units: cannot place 99999999999 footmen: a house has 1 to 10"]


def test_check_against_a_report_json_nested_past_the_reader_is_one_clear_line(capsys, tmp_path):
    """'maester check report.json turn.txt' with 100,000 nested brackets was an internal error (RecursionError)."""
    report, turn = tmp_path / "report.json", tmp_path / "turn.txt"
    report.write_text("[" * 100_000 + "]" * 100_000)
    turn.write_text("game bounds · house stark · round 1 · planning · seq 1\nWinterfell: defense +1\n")
    code = main(["check", str(report), str(turn)])
    _, err = capsys.readouterr()
    assert code == 2 and "internal error" not in err
    assert err.startswith(f"maester: error: {report} is neither a game folder nor a published report.json")


@pytest.mark.parametrize("decision,message", [
    ({"value": {"type": "Bid", "track": "fiefdoms", "amount": 99999999999}},
     ("segment.decisions.k.value: not an answer Maester knows (ValueError: command.amount: expected a whole number "
     "from 0 to 99, got 99999999999)")),
    ({"parts": [{"type": "PortShips", "port": "pyke", "count": "3"}]},
     ("segment.decisions.k.parts.1: not an answer Maester knows (ValueError: command.count: expected a whole number "
     "from 0 to 3, got '3')")),
    ({"value": {"type": "Bid", "track": "fiefdoms", "amount": 1}, "events": [{"type": "Footmen", "count": 10**11}]},
     "segment.decisions.k.events.1: the number 100000000000 is past 1000"),
    ({"value": {"type": "Bid", "track": "fiefdoms", "amount": 1}, "events": [5]},
     "segment.decisions.k.events.1: expected a table with a type, got 5"),
], ids=["value", "part", "event number", "event shape"])
def test_a_recorded_decision_past_its_bounds_is_refused(decision, message):
    """A replayed decision sizes lists by its numbers (an event's count of replaced units in a report)."""
    start = new_game(HOUSES, seed="s").to_dict()
    with pytest.raises(StateError) as e:
        validate_engine({"segment": {"name": "action", "start": start, "decisions": {"k": decision}}})
    assert str(e.value) == message


def test_a_file_of_thousands_of_bad_lines_is_read_only_to_its_hundredth_problem(monkeypatch):
    """Fuzz finding (turnfile, slow input): every line was parsed and explained before the 100-problem
    cut-off was applied (129,000 lines of '1': 4.6 s; a 1 MB file about 18 s)."""
    from adjudicator.turnfile import parser

    real, parsed = parser._parse_line, []

    def counted(*args: Any) -> Any:
        parsed.append(1)
        return real(*args)

    monkeypatch.setattr(parser, "_parse_line", counted)
    tf = parse_turn_file(b"1\n" * 10_000)
    assert len(tf.problems) == 101 and tf.problems[-1].code == "E005"
    assert len(parsed) == 101


def test_a_tie_break_that_prints_longer_than_a_line_is_refused():
    """Fuzz finding (turnfile, round trip): 'tie-break: baratheon,ratheon,ratheon,...' (740 characters) was
    accepted as an order of 91 Baratheons, and printed to a line of 1,000+ characters the parser refuses."""
    line = "tie-break: baratheon" + ",ratheon" * 90
    tf = parse_turn_file(line + "\n")
    assert tf.commands == ()
    assert [str(p) for p in tf.problems] == [
        "<turn>:1:1: E002 written out in full this line is 1,010 characters long; the limit is 1,000"]


def test_a_line_whose_full_form_would_be_too_long_is_refused():
    """What a line accepts prints to a line the parser accepts again: 'kl' 120 times prints as King's Landing."""
    line = "raid from Winterfell onto " + " else ".join(["kl"] * 120)
    assert len(line) < 1000
    tf = parse_turn_file(line + "\n")
    assert tf.commands == ()
    assert [str(p) for p in tf.problems] == [
        "<turn>:1:1: E002 written out in full this line is 2,420 characters long; the limit is 1,000"]
