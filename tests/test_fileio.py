"""Atomic writes: fsync by default; ``relaxed()`` skips it for disposable folders and nothing else changes."""

from __future__ import annotations

import os

import pytest

from adjudicator.util import fileio


@pytest.fixture
def fsyncs(monkeypatch):
    """Every descriptor passed to ``os.fsync``, as 'file' or 'dir'."""
    seen: list[str] = []
    real = os.fsync

    def counting(fd):
        seen.append("dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    return seen


def test_writes_wait_for_the_disk_by_default(tmp_path, fsyncs):
    fileio.atomic_write_text(tmp_path / "a.txt", "one\n")
    fileio.append_line(tmp_path / "log", "entry")
    assert fsyncs == ["file", "dir", "file"]
    assert fileio.durable()


def test_relaxed_skips_every_fsync_and_writes_the_same_bytes(tmp_path, fsyncs):
    with fileio.relaxed():
        assert not fileio.durable()
        fileio.atomic_write_text(tmp_path / "a.txt", "one\n", mode=0o600)
        fileio.atomic_write_bytes(tmp_path / "sub" / "b.bin", b"\x00\x01")
        fileio.append_line(tmp_path / "log", "entry")
        fileio.append_line(tmp_path / "log", "second\n")
    assert fsyncs == []
    assert (tmp_path / "a.txt").read_text() == "one\n"
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "sub" / "b.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "log").read_text() == "entry\nsecond\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "log", "sub"]  # no temp file left


def test_relaxed_blocks_nest_and_durability_returns_after_the_outer_one(tmp_path, fsyncs):
    with fileio.relaxed():
        with fileio.relaxed():
            fileio.atomic_write_text(tmp_path / "a.txt", "x")
        fileio.atomic_write_text(tmp_path / "a.txt", "y")
        assert fsyncs == []
    fileio.atomic_write_text(tmp_path / "a.txt", "z")
    assert fsyncs == ["file", "dir"]


def test_durability_returns_when_a_relaxed_block_raises(tmp_path, fsyncs):
    with pytest.raises(RuntimeError), fileio.relaxed():
        raise RuntimeError("boom")
    assert fileio.durable()
    fileio.append_line(tmp_path / "log", "entry")
    assert fsyncs == ["file"]


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "a.txt"
    fileio.atomic_write_text(target, "old")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with fileio.relaxed(), pytest.raises(OSError):
        fileio.atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_simulated_game_through_the_text_path_never_waits_for_the_disk(fsyncs):
    from adjudicator.robots.simulate import simulate

    result = simulate(3, 1, rounds=1)
    assert result.problems == [] and result.steps > 0
    assert fsyncs == []
    assert fileio.durable()
