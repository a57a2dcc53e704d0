"""The log read as a ledger: one pass, indexed, and within a process read on from where it stopped.

Whatever was read before in this process, :meth:`Ledger.read` must give exactly the ledger a
reading of the whole log from scratch gives: after lines are appended, after a rollback, after
the log is rewritten in place or replaced, and with a last line cut short.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.folder import ledger
from adjudicator.folder.ledger import Archived, Ledger


def _line(**entry: object) -> str:
    return json.dumps(entry, sort_keys=True) + "\n"


def _accept(index: int, house: str = "stark", seq: int = 1, step: str = "planning", sha: str = "") -> str:
    name = f"{index:06d}-{house}-r1-{step}-seq{seq}.txt"
    return _line(action="accept", house=house, round=1, step=step, seq=seq, sha256=sha or f"digest{index}",
                 file=f"archive/{name}")  # fmt: skip


def _append(root: Path, text: str) -> None:
    with open(root / "log", "a", encoding="utf-8") as f:
        f.write(text)


def _fresh(root: Path) -> Ledger:
    """The ledger of the whole log, read with nothing remembered."""
    ledger._LEDGERS.clear()
    return Ledger.read(root)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    ledger._LEDGERS.clear()
    (tmp_path / "log").write_text(_line(action="setup", sha256="s0") + _accept(1) + _accept(2, "lannister"))
    return tmp_path


def test_reading_on_after_appended_lines_gives_the_ledger_of_the_whole_log(root: Path):
    Ledger.read(root)
    _append(root, _accept(3, seq=2) + _line(action="reject", sha256="bad", retry=False, at=0)
            + _line(action="snapshot", number=0, sha256="x", applied=[], deadline=False)
            + _line(action="deadline", at=0))  # fmt: skip
    again = Ledger.read(root)
    assert again == _fresh(root)
    assert [a.index for a in again.archived] == [1, 2, 3]
    assert again.highest() == {("stark", 1, "planning"): 2, ("lannister", 1, "planning"): 1}
    assert again.rejected == {"bad": False} and again.open_deadline == 0 and set(again.snapshots) == {0}


def test_a_rollback_read_on_sets_the_files_aside_as_a_whole_reading_does(root: Path):
    _append(root, _accept(3, "greyjoy"))
    Ledger.read(root)
    gone = ["000002-lannister-r1-planning-seq1.txt", "000003-greyjoy-r1-planning-seq1.txt"]
    _append(root, _line(action="rollback", to=0, folder="rolled-back-1", set_aside_files=gone, set_aside_snapshots=[]))
    again = Ledger.read(root)
    assert again == _fresh(root)
    assert [a.index for a in again.archived] == [1] and sorted(again.set_aside) == gone
    assert not again.is_accepted("digest2") and again.find(gone[0]) == again.set_aside[gone[0]]
    assert again.highest() == {("stark", 1, "planning"): 1} and again.last_index == 3


def test_the_ledger_a_run_changes_is_not_the_one_remembered(root: Path):
    first = Ledger.read(root)
    first.add(Archived(9, "000009-stark-r1-planning-seq5.txt", "stark", 1, "planning", 5, "digest9"))
    first.rejected["x"] = True
    assert Ledger.read(root) == _fresh(root)
    assert not Ledger.read(root).is_accepted("digest9")


def test_a_log_rewritten_in_place_is_read_again_from_the_start(root: Path):
    Ledger.read(root)
    text = (root / "log").read_text()
    (root / "log").write_text(text.replace("digest2", "digestX") + _accept(3))  # same file, longer, other bytes
    again = Ledger.read(root)
    assert again == _fresh(root) and again.is_accepted("digestX") and not again.is_accepted("digest2")


def test_a_log_replaced_by_another_file_is_read_again_from_the_start(root: Path):
    Ledger.read(root)
    other = root / "log.new"
    other.write_text(_accept(1, sha="other") + _accept(2, "lannister") + _accept(3))
    other.replace(root / "log")
    again = Ledger.read(root)
    assert again == _fresh(root) and again.is_accepted("other")


def test_a_line_cut_short_is_left_out_until_it_ends_then_skipped_like_any_broken_line(root: Path):
    _append(root, '{"action": "accept", "house": "stark"')
    cut = Ledger.read(root)
    assert [a.index for a in cut.archived] == [1, 2]
    _append(root, "\n" + _accept(3))
    again = Ledger.read(root)
    assert again == _fresh(root) and [a.index for a in again.archived] == [1, 2, 3]


def test_a_finished_last_line_without_its_newline_is_read(root: Path):
    _append(root, _accept(3).rstrip("\n"))
    assert [a.index for a in Ledger.read(root).archived] == [1, 2, 3]
    _append(root, "\n" + _accept(4))
    assert [a.index for a in Ledger.read(root).archived] == [1, 2, 3, 4] and Ledger.read(root) == _fresh(root)


def test_a_name_accepted_twice_counts_once_with_its_later_line(root: Path):
    _append(root, _accept(2, "lannister", sha="later"))
    led = Ledger.read(root)
    assert [a.name for a in led.archived] == ["000001-stark-r1-planning-seq1.txt", "000002-lannister-r1-planning-seq1.txt"]
    assert led.is_accepted("later") and not led.is_accepted("digest2")
    assert led.find("000002-lannister-r1-planning-seq1.txt").sha256 == "later"  # type: ignore[union-attr]


def test_the_files_after_an_index_are_those_not_applied_yet_in_order(root: Path):
    _append(root, _accept(3) + _accept(4, "lannister"))
    led = Ledger.read(root)
    assert [a.index for a in led.after(0)] == [1, 2, 3, 4]
    assert [a.index for a in led.after(2)] == [3, 4]
    assert led.after(4) == []


def test_a_line_that_is_not_ours_or_not_json_is_skipped(root: Path):
    _append(root, "not json\n" + _line(action="accept", file="archive/notours.txt") + "[1, 2]\n"
            + _line(action="deadline") + _accept(3))  # fmt: skip
    led = Ledger.read(root)
    assert [a.index for a in led.archived] == [1, 2, 3] and led.deadlines == set()


def test_a_folder_without_a_log_has_an_empty_ledger(tmp_path: Path):
    assert Ledger.read(tmp_path) == Ledger()
