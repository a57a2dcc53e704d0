"""The batch run's bookkeeping: where it sweeps a killed run's temporary files, and what it reuses.

A run sweeps only the folders a run writes in (the game folder, ``states/``, ``archive/`` and the
report folder of the latest snapshot); a repair sweeps every report folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator import batch

from test_batch import make_game, planning_bids, run, use_toy_game


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
    return max((root / "reports").glob("[0-9][0-9][0-9][0-9]-*"))


def test_a_run_sweeps_the_temporary_files_where_a_killed_run_writes(toy: Path):
    latest = _latest_report(toy)
    left = [_leave_temp(toy), _leave_temp(toy / "states"), _leave_temp(toy / "archive"), _leave_temp(latest),
            _leave_temp(latest / "receipts")]  # fmt: skip
    run(toy)
    assert [p for p in left if p.exists()] == []


def test_a_run_leaves_the_report_folders_of_earlier_steps_unvisited_and_a_repair_sweeps_them(toy: Path):
    earlier = toy / "reports" / "0000-r1-planning"
    assert earlier != _latest_report(toy)
    left = _leave_temp(earlier / "receipts")
    run(toy)
    assert left.exists(), "no run writes in an earlier step's report folder, so no run looks there"
    batch.repair(toy)
    assert not left.exists()


def test_a_rollback_sweeps_the_report_folders_it_sets_aside(toy: Path):
    from adjudicator.audit import rollback

    left = _leave_temp(_latest_report(toy))
    rollback(toy, to=0, reason="a test")
    assert not left.exists() and not list((toy / "reports").glob("**/.*.tmp"))

