"""The audit: replay byte for byte, repair, rollback, and the revealed seed (toy game, see test_batch)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from test_batch import (
    drop,
    make_game,
    planning_bids,
    run,
    sealed,
    state_of,
    tree,
    use_toy_game,
)

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, registry, setaside, undo


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A toy game played to its second round: five snapshots, a deadline among them."""
    use_toy_game(monkeypatch)
    root = make_game(tmp_path / "toy")
    planning_bids(root, {"stark": 1, "lannister": 2, "greyjoy": 0})
    run(root)  # 0000, 0001
    run(root, deadline=True)  # 0002: Baratheon's planning bid defaulted
    for h in ["baratheon", "lannister", "stark", "greyjoy"]:
        drop(root, f"{h}-a.txt", sealed(h, "bid fiefdoms 1\n", step="action"))
    run(root)  # 0003: into round 2
    return root


def test_replay_of_an_untouched_game_passes(played: Path):
    check = audit.replay(played)
    assert check.ok, check.lines()
    assert any("4 snapshot(s)" in n or "snapshot(s)" in n for n in check.notes)


def test_replay_redoes_the_logged_deadline(played: Path):
    meta = batch.Snapshot.from_toml((played / "states" / "0002.toml").read_text(), where="0002")
    assert meta.deadline and meta.defaults
    assert audit.replay(played).ok


def test_replay_fails_naming_the_snapshot_and_file_when_an_archived_byte_changes(played: Path):
    victim = played / "archive" / "000002-lannister-r1-planning-seq1.txt"
    data = bytearray(victim.read_bytes())
    data[data.index(b"bid wildlings 2")+14] = ord("3")
    victim.write_bytes(bytes(data))
    check = audit.replay(played)
    assert not check.ok
    assert "states/0001.toml" in check.problems[0] and "000002-lannister-r1-planning-seq1.txt" in check.problems[0]
    assert "changed after it was accepted" in check.problems[0]


def test_replay_fails_when_a_stored_snapshot_was_edited(played: Path):
    path = played / "states" / "0002.toml"
    path.write_text(path.read_text().replace("power = 4", "power = 9", 1))
    check = audit.replay(played)
    assert not check.ok and check.problems[0].startswith("states/0002.toml differs from its re-derivation")


def test_cli_replay_exit_status_1_names_the_first_difference(played: Path, capsys: pytest.CaptureFixture[str]):
    assert cli_main(["replay", str(played)]) == 0
    (played / "archive" / "000001-greyjoy-r1-planning-seq1.txt").write_text("tampered\n")
    assert cli_main(["replay", str(played)]) == 1
    err = capsys.readouterr().err
    assert "replay FAILED" in err and "states/0001.toml" in err and "000001-greyjoy" in err


@pytest.mark.parametrize("how", ["replaced", "in place"])
def test_ruling_98_corrupt_state_file_is_refused_and_repair_rebuilds_it(played: Path, how: str):
    """An editor that writes a new file replaces state.toml alone; a write in place (a shell's ``>``)
    changes the newest snapshot too, the same file (ruling 390): refused all the same, both rebuilt."""
    good = (played / "state.toml").read_bytes()
    if how == "replaced":
        (played / "state.toml.new").write_text("garbage")
        os.replace(played / "state.toml.new", played / "state.toml")
    else:
        (played / "state.toml").write_text("garbage")
        assert (played / "states" / "0003.toml").read_text() == "garbage"
    with pytest.raises(batch.CorruptFolder, match="replay --repair") as refused:
        run(played)
    assert ("ruling 390" in str(refused.value)) == (how == "in place")
    check = batch.repair(played)
    rebuilt = "rebuilt state.toml" if how == "replaced" else "rebuilt states/0003.toml and state.toml"
    assert rebuilt in " ".join(check.notes)
    assert (played / "state.toml").read_bytes() == good
    assert (played / "states" / "0003.toml").read_bytes() == good
    assert audit.replay(played).ok


def test_repair_rebuilds_a_damaged_snapshot_and_keeps_the_damaged_copy(played: Path):
    path = played / "states" / "0001.toml"
    good = path.read_bytes()
    path.write_text("not a snapshot")
    check = batch.repair(played)
    assert path.read_bytes() == good
    assert (played / "states" / "0001.toml.damaged").read_text() == "not a snapshot"
    assert "rebuilt states/0001.toml" in check.notes[0]


def test_repair_refuses_when_the_archive_itself_is_damaged(played: Path):
    (played / "archive" / "000001-greyjoy-r1-planning-seq1.txt").write_text("tampered\n")
    with pytest.raises(batch.CorruptFolder, match="SHA-256 differs from the log"):
        batch.repair(played)


# --- rollback ---------------------------------------------------------------------------------


def test_rollback_sets_later_snapshots_and_reports_aside_and_logs_it(played: Path):
    message = undo.rollback(played, to=1, reason="the deadline was called a day early")
    assert "rolled back to snapshot 0001" in message
    assert [p.name for p in sorted((played / "states").glob("[0-9]*.toml"))] == ["0000.toml", "0001.toml"]
    assert sorted(p.name for p in (played / "states" / "rolled-back-1").iterdir()) == ["0002.toml", "0003.toml"]
    assert (played / "reports" / "rolled-back-1").is_dir()
    assert not list((played / "reports").glob("0002-*"))
    assert (played / "state.toml").read_text() == (played / "states" / "0001.toml").read_text()
    assert batch.status(played)["snapshot"] == 1
    entry = [e for e in registry.read_log(played) if e.get("action") == "rollback"][0]
    assert entry["reason"] == "the deadline was called a day early" and entry["set_aside_snapshots"] == [2, 3]
    assert len(entry["set_aside_files"]) == 4, "the action files applied after 0001"
    assert len(list((played / "archive").iterdir())) == 7, "archived files are kept"
    assert audit.replay(played).ok


def test_ruling_93_after_a_rollback_the_late_answer_counts_and_the_deadline_is_not_redone(played: Path):
    undo.rollback(played, to=1, reason="Baratheon's mail was in the spam folder")
    drop(played, "baratheon-late.txt", sealed("baratheon", "bid wildlings 3\n"))
    result = run(played)
    assert result.exit_status == 0 and result.steps[0] == "0002-r1-action"
    assert not batch.Snapshot.from_toml((played / "states" / "0002.toml").read_text(), where="0002").deadline
    # The action files set aside by the rollback come back from the archive (ruling 301): they count
    # again, once their step opens, under their own names, and take the game into round 2.
    assert [n.split('-')[2:4] for n in result.accepted] == [['r1', 'planning']] + [['r1', 'action']] * 4
    assert len(list((played / "archive").iterdir())) == 8, "no second copy of a file given back"
    st = state_of(played)
    assert st.round == 2 and st.houses["baratheon"].power == 5 - 3 - 1
    assert audit.replay(played).ok


def test_rollback_refuses_an_unknown_snapshot_the_latest_and_a_missing_reason(played: Path):
    with pytest.raises(batch.BatchError, match="there is no snapshot 0009"):
        undo.rollback(played, to=9, reason="x")
    with pytest.raises(batch.BatchError, match="nothing to undo"):
        undo.rollback(played, to=3, reason="x")
    with pytest.raises(batch.BatchError, match="--reason"):
        undo.rollback(played, to=1, reason="  ")


def test_rollback_interrupted_before_its_moves_is_finished_by_the_next_run(played: Path, monkeypatch):
    calls = []

    def crash(*a, **k):
        calls.append(a)
        raise OSError("killed")

    monkeypatch.setattr(setaside.os, "replace", crash)  # the rollback's moves (adjudicator.folder.setaside)
    with pytest.raises(OSError):
        undo.rollback(played, to=1, reason="undo")
    monkeypatch.undo()
    use_toy_game(monkeypatch)
    run(played)
    assert [p.name for p in sorted((played / "states").glob("[0-9]*.toml"))] == ["0000.toml", "0001.toml"]
    assert batch.status(played)["snapshot"] == 1


# --- reveal -----------------------------------------------------------------------------------


def _play_to_the_end(root: Path) -> None:
    for _ in range(10):
        if state_of(root).phase == "game_over":
            return
        run(root, deadline=True)


def test_reveal_publishes_the_seed_and_replay_checks_the_shuffles(played: Path):
    _play_to_the_end(played)
    message = audit.reveal(played)
    assert "toy-seed" in message
    game = tomllib.loads((played / "game.toml").read_text())["game"]
    assert game["seed_revealed"] == "toy-seed"
    assert [e["seed"] for e in registry.read_log(played) if e.get("action") == "reveal"] == ["toy-seed"]
    check = audit.replay(played)
    assert check.ok and any("fresh shuffle" in n for n in check.notes)


def test_ruling_99_reveal_before_the_end_is_refused_without_force(played: Path):
    with pytest.raises(batch.BatchError, match="the game is not over"):
        audit.reveal(played)
    assert "seed_revealed" not in tomllib.loads((played / "game.toml").read_text())["game"]
    assert "toy-seed" in audit.reveal(played, force=True)


def test_reveal_twice_logs_once(played: Path):
    audit.reveal(played, force=True)
    audit.reveal(played, force=True)
    assert len([e for e in registry.read_log(played) if e.get("action") == "reveal"]) == 1


def test_reveal_refuses_a_seed_that_does_not_match_the_commitment(played: Path):
    (played / "secret" / "seed").write_text("another-seed\n")
    with pytest.raises(batch.BatchError, match="does not match the published commitment"):
        audit.reveal(played, force=True)


def test_replay_after_reveal_catches_a_stacked_deck(played: Path):
    audit.reveal(played, force=True)
    setup = played / "states" / "setup.toml"
    data = tomllib.loads(setup.read_text())
    data["decks"]["wildling"] = list(reversed(data["decks"]["wildling"]))
    setup.write_text(tomli_w.dumps(data))
    # the log holds the setup's hash, so the change is caught before the decks are even compared
    check = audit.replay(played)
    assert not check.ok and "setup.toml was changed" in check.problems[0]
    log = [json.loads(x) for x in (played / "log").read_text().splitlines()]
    stripped = "\n".join(json.dumps(e) for e in log if e.get("action") != "setup") + "\n"
    (played / "log").write_text(stripped)
    check = audit.replay(played)
    assert not check.ok and "wildling_deck are not those of a fresh game" in " ".join(check.problems)


def test_replay_and_repair_leave_an_untouched_folder_unchanged(played: Path):
    before = tree(played)
    assert audit.replay(played).ok
    assert batch.repair(played).notes == ["nothing to repair: every snapshot follows from the archive"]
    assert tree(played) == before
