"""The batch run's bookkeeping: where it sweeps a killed run's temporary files, and what it reuses.

A run sweeps only the folders a run writes in (the game folder, ``states/``, ``archive/``,
``reports/`` itself, where a new step's folder is written as a temp folder and renamed, and the
report folder of the latest snapshot); a repair sweeps every report folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_batch import make_game, planning_bids, run, use_toy_game

from adjudicator.folder import batch, intake, stepreports


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_toy_game(monkeypatch)
    root = make_game(tmp_path / "toy")
    run(root)
    planning_bids(root)
    run(root)  # step 0001: the bids are applied
    return root


def _leave_temp(folder: Path) -> Path:
    """A temporary file as an atomic write killed halfway leaves it."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".state.toml.k2j4x9.tmp"
    tmp.write_text("half written")
    return tmp


def _latest_report(root: Path) -> Path:
    """The latest step's report folder, where an older Maester (or the moderator's templates) wrote its
    pages: a run writes the step's record beside it (``reports/NNNN-rR-STEP.json``)."""
    return max((root / "reports").glob("[0-9][0-9][0-9][0-9]-*.json")).with_suffix("")


def test_a_run_sweeps_the_temporary_files_where_a_killed_run_writes(toy: Path):
    latest = _latest_report(toy)
    left = [_leave_temp(toy), _leave_temp(toy / "states"), _leave_temp(toy / "archive"), _leave_temp(toy / "reports"),
            _leave_temp(latest), _leave_temp(latest / "receipts")]  # fmt: skip
    run(toy)
    assert [p for p in left if p.exists()] == []


def test_a_run_sweeps_a_temp_report_folder_that_no_later_run_would_write_again(toy: Path):
    """A run killed while writing step 0002's folder, then a rollback to 0001 (which knows nothing of
    temp folders): no run writes that step's folder again, yet the next run removes what was left."""
    half = toy / "reports" / ".0002-r1-action.tmp"
    (half / "receipts").mkdir(parents=True)
    (half / "public.txt").write_text("half written")
    run(toy)
    assert not half.exists()
    assert [p.name for p in (toy / "reports").iterdir() if p.name.startswith(".")] == []


def test_a_report_folder_an_older_maester_left_half_written_is_finished_by_the_record(toy: Path):
    """An older Maester wrote a step's reports one by one, ``report.json`` last: a run killed halfway
    left the folder without it (and a temp file). The next run writes the step's record, which replaces
    that folder: the game folder is byte for byte that of an uninterrupted run of this Maester."""
    from test_batch import tree

    latest = _latest_report(toy)
    expected = tree(toy)
    stepreports.write_out(stepreports.steps(toy)[-1], latest.parent)  # the pages as the older Maester wrote them
    (latest.parent / stepreports.record_name(latest.name)).unlink()
    for name in ("report.json", "public.html", "stark.txt"):
        (latest / name).unlink()
    (latest / "public.txt").write_text("half")
    _leave_temp(latest)
    (toy / "pending.json").write_text("{}")  # written after the reports by that older Maester
    run(toy)
    assert tree(toy) == expected
    assert not latest.exists() and [p.name for p in (toy / "reports").iterdir() if p.name.startswith(".")] == []


def test_a_repair_sweeps_temp_report_folders_too(toy: Path):
    half = toy / "reports" / "0000-r1-planning" / ".receipts.tmp"
    half.mkdir(parents=True)
    (half / "x.txt").write_text("half written")
    batch.repair(toy)
    assert not half.exists()


def test_a_run_leaves_the_report_folders_of_earlier_steps_unvisited_and_a_repair_sweeps_them(toy: Path):
    earlier = toy / "reports" / "0000-r1-planning"  # rendered with the moderator's templates, say (ruling 453)
    assert earlier != _latest_report(toy)
    left = _leave_temp(earlier / "receipts")
    run(toy)
    assert left.exists(), "no run writes in an earlier step's report folder, so no run looks there"
    batch.repair(toy)
    assert not left.exists()


def test_a_rollback_sweeps_the_report_folders_it_sets_aside(toy: Path):
    from adjudicator.folder.undo import rollback

    left = _leave_temp(_latest_report(toy))
    rollback(toy, to=0, reason="a test")
    assert not left.exists() and not list((toy / "reports").glob("**/.*.tmp"))



# --- what a run reuses within a process -------------------------------------------------------


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a game folder but those that carry the clock (the log's times, game.toml, the lock) or
    the log's inode (its kept reading, ledger.json and ledger.sqlite: they hold the log's times too)."""
    import json

    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name not in (".lock", "game.toml", "ledger.json", "ledger.sqlite"):
            data = p.read_bytes()
            if p.name == "log":
                data = json.dumps([{k: v for k, v in json.loads(line).items() if k != "time"}
                                   for line in data.decode().splitlines()]).encode()  # fmt: skip
            out[str(p.relative_to(root))] = data
    return out


def test_runs_that_reuse_what_the_last_run_left_write_what_runs_reading_everything_back_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A robot game played twice: once as one process plays it, reusing the last run's snapshot,
    ledger and state; once as if each run were a new process, reading all of them back from the
    files. Every file of the two folders is the same, byte for byte."""
    from adjudicator.folder import ledger
    from adjudicator.folder.gamedir import GameDir
    from adjudicator.robots import simulate

    first = simulate.simulate(3, 7, rounds=1, out=tmp_path / "reused" / "g")
    real = batch.adjudicate

    def as_a_new_process(root, *args, **kwargs):
        batch.forget_snapshots()
        ledger.forget_reads()
        result = real(root, *args, **kwargs)
        result.latest = GameDir.open(root).load_state()
        return result

    monkeypatch.setattr(batch, "adjudicate", as_a_new_process)
    second = simulate.simulate(3, 7, rounds=1, out=tmp_path / "read-back" / "g")
    assert first.final_line() == second.final_line() and first.steps > 5
    assert _files(tmp_path / "reused" / "g") == _files(tmp_path / "read-back" / "g")


def test_a_run_gives_the_state_it_wrote(toy: Path):
    from adjudicator.folder.gamedir import GameDir
    from adjudicator.game.state import GameState

    result = run(toy)
    assert result.state is not None and result.state is not result.latest
    assert result.state == GameState.from_toml((toy / "state.toml").read_text()) == GameDir.open(toy).load_state()
    assert result.latest == result.state


def test_a_snapshot_text_seen_before_gives_that_snapshot_and_any_other_is_parsed(toy: Path):
    from adjudicator.folder.audit import Snapshot

    text = (toy / "state.toml").read_text()
    batch._KNOWN.clear()
    parsed = batch.snapshot_of(text, where="state.toml")
    assert parsed == Snapshot.from_toml(text, where="state.toml")
    assert batch.snapshot_of(text, where="state.toml") is parsed
    with pytest.raises(batch.CorruptFolder, match="not a readable snapshot"):
        batch.snapshot_of(text.replace("[snapshot]", "[nothing]"), where="state.toml")


def test_derive_changes_neither_the_snapshot_it_starts_from_nor_its_state():
    """derive copies only what it replaces (the answers pool, the decisions a deadline fills)."""
    from adjudicator.folder.audit import derive, understand
    from adjudicator.folder.ledger import Archived, sha256
    from adjudicator.game.setup import new_game
    from adjudicator.turnfile.printer import format_command

    first = derive(None, new_game(["stark", "lannister", "baratheon"], seed="doc"), 0, [], deadline=False,
                   previous_sha256="")  # fmt: skip
    stark = next(r for r in first.requests if r.house == "stark")
    orders = "\n".join(format_command(c) for c in stark.default)  # type: ignore[union-attr]

    def turn(seq: int, index: int):
        text = f"game doc · house stark · round 1 · planning · seq {seq}\n{orders}\n"
        name = f"{index:06d}-stark-r1-planning-seq{seq}.txt"
        record = Archived(index, name, "stark", 1, "planning", seq, sha256(text.encode()))
        return understand(name, text.encode(), record, {sha256(text.encode())})  # as if the moderator accepted it

    one = derive(first.snapshot, first.snapshot.state, 1, [turn(1, 1)], deadline=False, previous_sha256="a")
    before = one.snapshot.to_toml()
    two = derive(one.snapshot, one.snapshot.state, 2, [turn(2, 2)], deadline=False, previous_sha256="b")
    assert two.snapshot.state.answers[0]["id"].startswith("stark/1.planning/seq2/")
    assert one.snapshot.to_toml() == before, "seq 2 replaced seq 1's answers in a copy"
    three = derive(two.snapshot, two.snapshot.state, 3, [], deadline=True, previous_sha256="c")
    assert three.snapshot.defaults and two.snapshot.state.segment is not None
    assert not set(three.snapshot.defaults) & set(two.snapshot.state.segment.decisions)
    assert three.start is two.snapshot.state and first.start is None


def test_ruling_302_a_judged_inbox_file_leaves_the_inbox_and_is_read_once(toy: Path, monkeypatch):
    """Ruling 96: a file once accepted or refused is not read again; ruling 302: it leaves the inbox
    (refused: to refused/files/), and a new file under the same name is read afresh."""
    from test_batch import drop, sealed

    reads: list[str] = []
    real = Path.read_bytes

    def counted(self: Path) -> bytes:
        reads.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    drop(toy, "late.txt", sealed("stark", "bid wildlings 9\n", seq=1))  # the bids are done: refused for good
    drop(toy, "junk.txt", "no seal here\n")
    first = run(toy)
    assert sorted(r.source.rsplit("/", 1)[-1] for r in first.rejected) == ["junk.txt", "late.txt"]
    assert reads.count("late.txt") == 1 and reads.count("junk.txt") == 1
    assert not any((toy / "inbox").iterdir())
    assert sorted(p.name for p in (toy / "refused" / "files").iterdir()) == ["junk.txt", "late.txt"]
    again = run(toy)
    assert again.rejected == [] and again.accepted == []
    assert reads.count("late.txt") == 1 and reads.count("junk.txt") == 1, "judged already: not read again"
    drop(toy, "junk.txt", "no seal here either\n")  # a new text under the same name
    third = run(toy)
    assert [r.source.rsplit("/", 1)[-1] for r in third.rejected] == ["junk.txt"] and reads.count("junk.txt") == 2
    kept = sorted(p.name for p in (toy / "refused" / "files").iterdir())
    assert sorted(kept) == sorted(["junk.txt", "late.txt", f"{third.rejected[0].sha256[:8]}-junk.txt"])
    drop(toy, "late-again.txt", sealed("stark", "bid wildlings 9\n", seq=1))  # the same bytes as late.txt
    intake._DIGESTS.clear()  # as a new process: the file is read, known by its SHA-256 and put away
    fourth = run(toy)
    assert fourth.rejected == [] and not any((toy / "inbox").iterdir())


def test_changing_the_state_a_run_gives_changes_nothing_the_next_run_does(tmp_path: Path, monkeypatch):
    """The next run in the process goes on from the snapshot the last one wrote: the caller gets a copy."""
    use_toy_game(monkeypatch)
    roots = [make_game(tmp_path / name / "toy") for name in ("left-alone", "meddled")]
    for root in roots:
        first = run(root)
        assert first.state is not None
        if root.parent.name == "meddled":
            first.state.houses["stark"].power = 99
            first.state.answers.append({"id": "stark/1.planning/seq9/L1", "house": "stark", "text": "bid wildlings 9"})
        planning_bids(root)
        run(root)
    assert _files(roots[0]) == _files(roots[1])


def test_the_state_a_run_hands_back_is_never_changed_by_a_robot_game_that_reads_it():
    """A run hands back the latest snapshot's own state (``latest``, no copy) and the next run of
    the process goes on from that snapshot; the robots of ``simulate`` read it: after a robot game
    through the text path, every snapshot the process remembers still writes its own text."""
    from adjudicator.robots import simulate

    batch._KNOWN.clear()
    result = simulate.simulate(4, 5, rounds=2)
    assert result.problems == [] and result.steps > 10 and batch._KNOWN
    for text, snap in batch._KNOWN.items():
        assert snap.to_toml() == text, f"snapshot {snap.number} was changed after it was written"
