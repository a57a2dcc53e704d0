"""Undo without re-doing (issue 15): rollback --drop, files given back from the archive without a copy,
the inbox emptied of what was taken, the files that wait in 'status', paths in the log (toy game, see test_batch)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from test_batch import drop, make_game, planning_bids, run, sealed, state_of, use_toy_game

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, registry, undo
from adjudicator.folder.notices import logged_path


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy game after its planning bids (0001) and Stark's and Lannister's action bids (0002)."""
    use_toy_game(monkeypatch)
    root = make_game(tmp_path / "toy")
    planning_bids(root, {"stark": 1, "lannister": 2, "greyjoy": 0, "baratheon": 1})
    run(root)  # 0000, 0001: into the action phase
    drop(root, "baratheon-a.txt", sealed("baratheon", "bid fiefdoms 1\n", step="action"))
    drop(root, "lannister-a.txt", sealed("lannister", "bid fiefdoms 3\n", step="action"))  # the mistake
    run(root)  # 0002
    return root


def archived(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "archive").iterdir())


def applied(root: Path) -> list[str]:
    out = []
    for path in sorted((root / "states").glob("[0-9]*.toml")):
        out += tomllib.loads(path.read_text())["snapshot"]["applied"]
    return out


def log(root: Path, action: str) -> list[dict]:
    return [e for e in registry.read_log(root) if e.get("action") == action]


def test_ruling_301_rollback_drop_is_not_taken_again_and_the_rest_comes_back_without_a_copy(played: Path):
    mistake = next(n for n in archived(played) if "-lannister-r1-action" in n)
    other = next(n for n in archived(played) if "-baratheon-r1-action" in n)
    before = archived(played)
    said = undo.rollback(played, to=1, reason="Lannister's file was taken by mistake", drop=[f"archive/{mistake}"])
    assert f"dropped for good (no run takes it again): archive/{mistake}" in said
    assert "1 archived file(s) come back at the next run, each at its own step and without a copy" in said
    entry = log(played, "rollback")[-1]
    assert entry["dropped"] == [mistake] and entry["returning"] == [other]
    result = run(played)
    assert result.accepted == [other] and result.steps == ["0002-r1-action"]
    assert archived(played) == before, "no second copy in archive/"
    assert mistake not in applied(played) and other in applied(played)
    assert state_of(played).houses["lannister"].power == 5 - 2  # the planning bid stands, the action bid is gone
    # The same turn dropped into the inbox again (a resent mail) is not taken either.
    (played / "inbox" / "again.txt").write_bytes((played / "archive" / mistake).read_bytes())
    again = run(played)
    assert again.accepted == [] and again.rejected == [] and not (played / "inbox" / "again.txt").exists()
    assert audit.replay(played).ok, audit.replay(played).lines()
    # The file given back took its new place in the order: its accept line says so, its name does not change.
    accepts = [e for e in log(played, "accept") if e["file"] == f"archive/{other}"]
    assert len(accepts) == 2 and accepts[1]["index"] > accepts[0].get("index", 0)


def test_ruling_301_a_file_given_back_waits_for_its_step_and_the_player_may_answer_anew(played: Path):
    planning_file = next(n for n in archived(played) if "-stark-r1-planning" in n)
    undo.rollback(played, to=0, reason="the planning bids were opened early", drop=[planning_file])
    assert batch.waiting(played) == [f"archive/{n}: given back by a rollback; taken again at its step"
                                     for n in sorted(set(archived(played)) - {planning_file},
                                                     key=lambda n: n)]  # fmt: skip
    drop(played, "stark-new.txt", sealed("stark", "bid wildlings 0\n", seq=2))
    result = run(played)
    assert len(result.accepted) == 6 and [n for n in result.accepted if "-stark-" in n] == [
        n for n in archived(played) if n.endswith("-stark-r1-planning-seq2.txt")]  # fmt: skip
    assert len(archived(played)) == 7, "the five given back kept their names (one dropped), one new"
    assert state_of(played).houses["stark"].power == 5, "Stark's new bid, not the dropped one"
    assert audit.replay(played).ok


def test_ruling_301_a_file_given_back_that_no_longer_fits_is_refused_and_stays_aside(played: Path):
    undo.rollback(played, to=1, reason="redo the action phase")
    drop(played, "lannister-b.txt", sealed("lannister", "bid fiefdoms 0\n", step="action", seq=1))
    first = run(played)  # the new seq 1 and the one given back: the same seq, one of them is refused
    refused = [r for r in first.rejected if r.returning]
    assert len(refused) == 1 and "[replayed]" in refused[0].reasons[0]
    assert refused[0].receipts == {"lannister": refused[0].receipts["lannister"]}, "told to the house whose key sealed it"
    assert run(played).accepted == [], "it stays aside: not tried again"
    assert batch.waiting(played) == []
    assert audit.replay(played).ok


def test_rollback_drop_names_what_it_cannot_drop(played: Path, capsys: pytest.CaptureFixture[str]):
    planning = next(n for n in archived(played) if "-stark-r1-planning" in n)
    with pytest.raises(batch.BatchError, match="applied at step 0001, which this rollback keeps"):
        undo.rollback(played, to=1, reason="x", drop=[planning])
    with pytest.raises(batch.BatchError, match="no archived file of that name"):
        undo.rollback(played, to=1, reason="x", drop=["archive/000099-stark-r1-action-seq1.txt"])
    assert log(played, "rollback") == [], "nothing logged, nothing moved"
    code = cli_main(["rollback", str(played), "--to", "1", "--reason", "x", "--drop", planning])
    assert code == 2 and "which this rollback keeps" in capsys.readouterr().err


def test_ruling_302_taken_files_leave_the_inbox_and_refused_ones_are_kept_beside_their_receipts(played: Path):
    assert [p.name for p in (played / "inbox").iterdir()] == [], "every file was taken"
    drop(played, "late.txt", sealed("stark", "bid wildlings 1\n", seq=9))  # for a past step: refused
    drop(played, "early.txt", sealed("stark", "bid wildlings 1\n", rnd=2))  # for a later step: kept
    (played / "inbox" / ".early.txt.meta.json").write_text('{"from": "ned@example.org"}\n')
    result = run(played)
    assert [p.name for p in (played / "inbox").iterdir()] == ["early.txt", ".early.txt.meta.json"] or \
        sorted(p.name for p in (played / "inbox").iterdir()) == [".early.txt.meta.json", "early.txt"]  # fmt: skip
    assert (played / "refused" / "files" / "late.txt").is_file()
    late = next(r for r in result.rejected if r.source.endswith("late.txt"))
    assert late.kept == "refused/files/late.txt" and "    the file is kept in refused/files/late.txt" in result.lines()
    assert batch.waiting(played) == ["inbox/early.txt: sealed for a step not open yet; taken when it opens"]


def test_a_rollback_puts_back_the_files_refused_against_the_steps_it_undoes(played: Path):
    drop(played, "stark-a.txt", sealed("stark", "bid wildlings 1\n", seq=2))  # planning is over: wrong step
    run(played)
    assert (played / "refused" / "files" / "stark-a.txt").is_file()
    said = undo.rollback(played, to=0, reason="the planning bids were opened early")
    assert "1 file(s) refused against the undone steps are back in the inbox" in said
    assert (played / "inbox" / "stark-a.txt").is_file()
    result = run(played)
    assert any(n.endswith("-stark-r1-planning-seq2.txt") for n in result.accepted), "judged again, and taken this time"


def test_the_log_keeps_paths_relative_to_the_game_folder(played: Path, tmp_path: Path, monkeypatch):
    outside = tmp_path / "mail" / "turn.txt"
    outside.parent.mkdir()
    outside.write_text(sealed("greyjoy", "bid wildlings 1\n", seq=3))
    drop(played, "x.txt", "not a turn\n")
    monkeypatch.chdir(tmp_path / "mail")
    batch.adjudicate(os.path.relpath(played), [Path("turn.txt")])
    files = sorted(e["file"] for e in log(played, "reject"))
    assert files == ["../mail/turn.txt", "inbox/x.txt"]
    assert all(not Path(e["file"]).is_absolute() for e in registry.read_log(played) if "file" in e)


def test_an_older_log_line_with_an_absolute_path_is_read_as_before(played: Path):
    old = {"action": "reject", "sha256": "ab" * 32, "file": str(played / "inbox" / "old.txt"), "retry": False,
           "at": 2, "reasons": ["no sealed block"]}  # fmt: skip
    with open(played / "log", "a", encoding="utf-8") as f:
        f.write(json.dumps(old) + "\n")
    assert run(played).exit_status == 0 and audit.replay(played).ok
    assert logged_path(played, old["file"]) == "inbox/old.txt"
    assert logged_path(played, "inbox/new.txt") == "inbox/new.txt"


def test_cli_status_lists_the_files_waiting(played: Path, capsys: pytest.CaptureFixture[str]):
    drop(played, "early.txt", sealed("stark", "bid wildlings 1\n", rnd=2))
    run(played)
    drop(played, "new.txt", "not read yet\n")
    assert cli_main(["status", str(played)]) == 0
    out = capsys.readouterr().out
    assert "Files waiting:\n  inbox/early.txt: sealed for a step not open yet" in out
    assert "  inbox/new.txt: not read yet" in out
    assert cli_main(["status", str(played), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["waiting"]) == 2
