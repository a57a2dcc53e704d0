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


# --- a new folder written whole: a temp folder beside it, renamed once ---------------------------

FILES = {"public.txt": b"public\n", "receipts/000001-stark.txt": b"receipt\n", "report.json": b"{}\n"}


def _tree(folder):
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mode & 0o777)
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def test_a_new_folder_holds_the_same_bytes_and_modes_as_file_by_file_writes_and_no_temp_is_left(tmp_path, fsyncs):
    for name, data in FILES.items():
        fileio.atomic_write_bytes(tmp_path / "one-by-one" / name, data)
    fileio.write_folder(tmp_path / "whole" / "0001-r1-planning", FILES)
    assert _tree(tmp_path / "whole" / "0001-r1-planning") == _tree(tmp_path / "one-by-one")
    assert [p.name for p in (tmp_path / "whole").iterdir()] == ["0001-r1-planning"]
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "one-by-one", tmp_path / "whole" / "0001-r1-planning")}
    assert modes["one-by-one"] == modes["0001-r1-planning"]
    assert fsyncs[-6:] == ["file", "file", "file", "dir", "dir", "dir"]  # each file, both folders, then the parent


def test_a_new_folder_written_relaxed_waits_for_no_disk(tmp_path, fsyncs):
    with fileio.relaxed():
        fileio.write_folder(tmp_path / "step", FILES)
    assert fsyncs == [] and (tmp_path / "step" / "report.json").read_bytes() == b"{}\n"


def test_an_existing_folder_gets_each_file_rewritten_in_the_order_given_and_keeps_its_others(tmp_path, monkeypatch):
    step = tmp_path / "step"
    (step / "receipts").mkdir(parents=True)
    (step / "public.txt").write_bytes(b"half")
    (step / "extra.txt").write_bytes(b"kept")
    order = []
    real = fileio.atomic_write_bytes
    monkeypatch.setattr(fileio, "atomic_write_bytes", lambda path, data, **kw: (order.append(path.name), real(path, data, **kw)))
    fileio.write_folder(step, FILES)
    assert order == ["public.txt", "000001-stark.txt", "report.json"]
    assert (step / "public.txt").read_bytes() == b"public\n" and (step / "extra.txt").read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step"]


@pytest.mark.parametrize("left", ["half folder", "file", "link to a folder"])
def test_a_temp_folder_a_killed_process_left_is_replaced_and_a_link_is_never_followed(tmp_path, left):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_bytes(b"untouched")
    tmp = tmp_path / "reports" / ".0002-r1-action.tmp"
    tmp.parent.mkdir()
    if left == "half folder":
        (tmp / "receipts").mkdir(parents=True)
        (tmp / "public.txt").write_bytes(b"pub")
    elif left == "file":
        tmp.write_bytes(b"junk")
    else:
        tmp.symlink_to(elsewhere)
    fileio.write_folder(tmp_path / "reports" / "0002-r1-action", FILES)
    assert {n: d for n, (d, _) in _tree(tmp_path / "reports" / "0002-r1-action").items()} == FILES
    assert [p.name for p in (tmp_path / "reports").iterdir()] == ["0002-r1-action"]
    assert [p.name for p in elsewhere.iterdir()] == ["precious.txt"]
    assert (elsewhere / "precious.txt").read_bytes() == b"untouched"


@pytest.mark.parametrize("fails", ["rename", "write"])
def test_a_failed_folder_write_leaves_neither_the_folder_nor_its_temp(tmp_path, monkeypatch, fails):
    def broken(*a, **kw):
        raise OSError(28, "No space left on device")

    if fails == "rename":
        monkeypatch.setattr(os, "rename", broken)
    else:
        monkeypatch.setattr(os, "fdopen", broken)
    with fileio.relaxed(), pytest.raises(OSError):
        fileio.write_folder(tmp_path / "step", FILES)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["../outside.txt", "/etc/x", "receipts/../../outside.txt"])
def test_a_folder_file_named_outside_the_folder_is_refused_before_anything_is_written(tmp_path, name):
    with pytest.raises(ValueError, match="inside it"):
        fileio.write_folder(tmp_path / "step", {"public.txt": b"x", name: b"y"})
    assert list(tmp_path.iterdir()) == []


def test_ruling_331_a_line_appended_after_one_cut_short_stands_on_its_own(tmp_path):
    log = tmp_path / "log"
    fileio.append_line(log, '{"action": "setup"}')
    with open(log, "a") as f:
        f.write('{"action": "mai')  # a process killed while writing its line
    fileio.append_line(log, '{"action": "mailed"}')
    assert log.read_text().splitlines() == ['{"action": "setup"}', '{"action": "mai', '{"action": "mailed"}']
    fileio.append_line(log, "third")
    assert log.read_text().endswith('{"action": "mailed"}\nthird\n'), "no blank line between whole lines"


def test_ruling_331_sweep_temp_removes_only_temporary_files_and_folders(tmp_path):
    for name in ("stark.eml", ".stark.eml.meta.json", ".tmp"):
        (tmp_path / name).write_text("keep")
    (tmp_path / ".stark.eml.k2j4x9a0.tmp").write_text("half a mail")
    (tmp_path / ".0003-r1-action.tmp").mkdir()
    assert sorted(fileio.sweep_temp(tmp_path)) == [".0003-r1-action.tmp", ".stark.eml.k2j4x9a0.tmp"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".stark.eml.meta.json", ".tmp", "stark.eml"]
    assert fileio.sweep_temp(tmp_path / "none") == []
