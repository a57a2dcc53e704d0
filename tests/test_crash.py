"""Crash safety: a run killed at any point, then run again, ends exactly as an uninterrupted run.

Two ways to kill: fault injection raising before each write the run makes (every write point,
in turn), and a real ``SIGKILL`` of a subprocess at random moments (several seeds). After the
re-run, every file of the game folder (states, state.toml, archive, reports, receipts, pending)
is byte for byte that of the uninterrupted run, and the log accepts each submission once.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_batch import drop, make_game, run, sealed, tree, use_toy_game

from adjudicator.folder import batch, ledger, ledger_index, registry
from adjudicator.util import fileio

TESTS = Path(__file__).resolve().parent


class Killed(BaseException):
    """Stands for the process dying: not an Exception, so nothing in the run catches it."""


def _template(root: Path) -> Path:
    """A game after its first report, with an inbox that takes three steps to apply."""
    make_game(root)
    run(root)
    drop(root, "stark.txt", sealed("stark", "bid wildlings 1\n"))
    drop(root, "stark2.txt", sealed("stark", "bid wildlings 2\n", seq=2))
    drop(root, "lannister.txt", sealed("lannister", "bid wildlings 2\nbid nonsense\n"))
    drop(root, "greyjoy.txt", sealed("greyjoy", "bid wildlings 0\n"))
    drop(root, "junk.txt", "no seal here\n")
    # sealed for the action phase: kept until the deadline opens it, then applied in the same run
    drop(root, "baratheon-action.txt", sealed("baratheon", "bid fiefdoms 1\n", step="action"))
    return root


def _accepts(root: Path) -> list[tuple[str, int, str]]:
    return sorted((e["house"], e["seq"], e["file"]) for e in registry.read_log(root) if e.get("action") == "accept")


def _deadline_done(root: Path) -> bool:
    """Whether a deadline run got to its last write: the log line closing the deadline it called."""
    return any(e.get("action") == "deadline-done" for e in registry.read_log(root))


def assert_kept_reading_is_the_logs(root: Path, *, used: bool) -> None:
    """A new command starting from the log's reading kept beside it (ledger.json) knows what the log
    read whole says; ``used``: the last run appended to the log, so it kept its reading, and a new
    command reads no line of the log. (A run killed after its last log line, before keeping its
    reading, leaves the older one, and a re-run that appends nothing keeps none: the next command
    then reads the log from where the older one stopped, or whole.)"""
    ledger.forget_reads()
    lines = ledger.lines_read()
    from_kept = ledger.Ledger.read(root)
    if used:
        assert (root / ledger_index.INDEX_FILE).is_file()
        assert ledger.lines_read() == lines, "a new command read the log again instead of its kept reading"
    assert from_kept == ledger.Ledger.read(root, kept=False)


def _comparable(root: Path) -> dict[str, bytes]:
    return {k: v for k, v in tree(root).items() if not k.endswith(".tmp")}


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync guards against a power cut, not a killed process: skipped here for speed, kept in the subprocess."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture
def template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_toy_game(monkeypatch)
    return _template(tmp_path / "template" / "toy")


def _copy(template: Path, where: Path) -> Path:
    shutil.copytree(template, where, symlinks=True)
    return where


def _half_written(path: Path, files: dict[str, bytes]) -> None:
    """What a process killed while writing a new report folder leaves: its temp folder, half full
    (or, when the folder exists, some of its files rewritten: the same bytes)."""
    if path.exists():
        for name, data in list(files.items())[: len(files) // 2]:
            fileio.atomic_write_bytes(path / name, data)
        return
    tmp = path.with_name(f".{path.name}.tmp")
    for name, data in list(files.items())[: len(files) // 2]:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_bytes(data[: len(data) // 2])


TEMPLATES = TESTS.parent / "templates"  # the built-in templates, named as a moderator's own (ruling 453)


@pytest.mark.parametrize("templates", [False, True], ids=["record", "templates"])
def test_a_fault_at_every_write_point_then_a_rerun_gives_the_uninterrupted_result(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, templates: bool
):
    """Each step writes its record of its reports last (with the moderator's templates, its folder of
    pages before it): a kill at any write, the record's among them, then a re-run, ends as one run."""
    given = {"templates_dir": TEMPLATES} if templates else {}

    def run(root: Path, *, deadline: bool) -> batch.RunResult:
        return batch.adjudicate(root, deadline=deadline, **given)  # type: ignore[arg-type]

    reference = _copy(template, tmp_path / "reference" / "toy")
    run(reference, deadline=True)
    expected, expected_accepts = _comparable(reference), _accepts(reference)
    assert len(expected_accepts) == 5 and batch.status(reference)["snapshot"] == 2
    assert_kept_reading_is_the_logs(reference, used=True)

    real_write, real_append, real_folder = fileio.atomic_write_bytes, fileio.append_line, fileio.write_folder
    real_stage, real_link = fileio.stage, os.link
    k, killed_at = 0, []
    while True:
        k += 1
        root = _copy(template, tmp_path / f"k{k}" / "toy")
        calls = 0

        def counted(real, k=k, root=root, named=0):  # named: the argument that is the path written
            def wrapper(*a, **kw):
                nonlocal calls
                calls += 1
                if calls == k:
                    killed_at.append(Path(a[named]).relative_to(root).as_posix())
                    raise Killed(f"killed before write {k}")
                return real(*a, **kw)

            return wrapper

        def counted_folder(path, files, k=k, root=root):
            nonlocal calls
            calls += 1
            if calls == k:  # killed halfway through a new report folder: its temp folder holds some files
                killed_at.append(Path(path).relative_to(root).as_posix() + "/")
                _half_written(path, files)
                raise Killed(f"killed in write {k}")
            return real_folder(path, files)

        monkeypatch.setattr(fileio, "atomic_write_bytes", counted(real_write))
        monkeypatch.setattr(fileio, "append_line", counted(real_append))
        monkeypatch.setattr(fileio, "write_folder", counted_folder)
        monkeypatch.setattr(fileio, "stage", counted(real_stage))  # state.toml's bytes, beside it
        monkeypatch.setattr(os, "link", counted(real_link, named=1))  # ... linked as the snapshot: the commit point
        try:
            run(root, deadline=True)
            finished = True
        except Killed:
            finished = False
        monkeypatch.setattr(fileio, "atomic_write_bytes", real_write)
        monkeypatch.setattr(fileio, "append_line", real_append)
        monkeypatch.setattr(fileio, "write_folder", real_folder)
        monkeypatch.setattr(fileio, "stage", real_stage)
        monkeypatch.setattr(os, "link", real_link)
        size = ledger.log_size(root)
        if not finished:  # the moderator runs the same command again; killed after closing the deadline it
            run(root, deadline=not _deadline_done(root))  # called (keeping the log's reading), a plain run
        assert _comparable(root) == expected, f"differs after a kill before write {k}"
        assert _accepts(root) == expected_accepts, f"a submission lost or applied twice (kill before write {k})"
        assert_kept_reading_is_the_logs(root, used=finished or ledger.log_size(root) != size)
        shutil.rmtree(root.parent)
        if finished:
            break
    assert k > 20, "the run was killed at every one of its writes"
    snapshots = [p for p in killed_at if p.startswith("states/0")]
    assert snapshots == ["states/0001.toml", "states/0002.toml"], ("each step's snapshot, linked", killed_at)
    records = [p for p in killed_at if p.startswith("reports/") and p.endswith(".json")]
    assert records == ["reports/0001-r1-action.json", "reports/0002-r1-action.json"], ("each step's record", killed_at)
    assert any(p.startswith("reports/") and p.endswith("/") for p in killed_at) == templates, killed_at


def test_two_kills_in_a_row_then_a_rerun_give_the_uninterrupted_result(template: Path, tmp_path: Path, monkeypatch):
    reference = _copy(template, tmp_path / "reference" / "toy")
    run(reference, deadline=True)
    expected = _comparable(reference)
    real_write, real_stage, real_link = fileio.atomic_write_bytes, fileio.stage, os.link
    rng = random.Random(7)
    for trial in range(4):
        root = _copy(template, tmp_path / f"t{trial}" / "toy")
        finished = False
        for attempt in range(2):
            left = rng.randint(1, 25)

            def dying(real):
                def wrapper(*a, **kw):
                    nonlocal left
                    left -= 1
                    if left == 0:
                        raise Killed()
                    return real(*a, **kw)

                return wrapper

            monkeypatch.setattr(fileio, "atomic_write_bytes", dying(real_write))
            monkeypatch.setattr(fileio, "stage", dying(real_stage))
            monkeypatch.setattr(os, "link", dying(real_link))
            try:  # the same command again, unless the killed one closed its deadline (then a plain run)
                run(root, deadline=attempt == 0 or not _deadline_done(root))
                finished = True
                break
            except Killed:
                pass
        monkeypatch.setattr(fileio, "atomic_write_bytes", real_write)
        monkeypatch.setattr(fileio, "stage", real_stage)
        monkeypatch.setattr(os, "link", real_link)
        size = ledger.log_size(root)
        if not finished:
            run(root, deadline=not _deadline_done(root))
        assert _comparable(root) == expected, f"trial {trial}"
        assert_kept_reading_is_the_logs(root, used=finished or ledger.log_size(root) != size)


RUNNER = """
import sys
sys.path.insert(0, {tests!r})
from adjudicator.engine import machine
from adjudicator.folder import batch
from adjudicator.turnfile import parser, printer
import test_batch
machine._runners = test_batch.toy_runners
machine.lapsed = lambda *args: None  # as test_batch.use_toy_game: the toy asks for bids in any phase
parser.parse_turn_file, printer.format_command = test_batch.toy_parse, test_batch.toy_format
batch.adjudicate({warm!r}, deadline=True)  # templates and caches loaded: the timed run is a warm one
print("ready", flush=True)
sys.stdin.readline()
batch.adjudicate({root!r}, deadline=True)
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_sigkill_at_a_random_moment_then_a_rerun_gives_the_uninterrupted_result(template: Path, tmp_path: Path, seed: int):
    reference = _copy(template, tmp_path / "reference" / "toy")
    start = time.perf_counter()
    run(reference, deadline=True)
    took = time.perf_counter() - start
    root = _copy(template, tmp_path / "killed" / "toy")
    warm = _copy(template, tmp_path / "warm" / "toy")
    script = RUNNER.format(tests=str(TESTS), root=str(root), warm=str(warm))
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=TESTS.parent)
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == b"ready"  # the imports are done: the run starts now
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    time.sleep(random.Random(seed).uniform(0, took))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _deadline_done(reference)
    # Killed before its last durable act (closing the deadline it called), the moderator runs it again.
    # Judged from the folder, not the exit status: a kill during the interpreter's exit, after the run
    # finished, is not an interrupted run, and running the deadline again would close the next step too.
    # A plain run after one that finished changes nothing.
    size = ledger.log_size(root)
    run(root, deadline=not _deadline_done(root))
    assert _comparable(root) == _comparable(reference)
    assert _accepts(root) == _accepts(reference)
    assert_kept_reading_is_the_logs(root, used=ledger.log_size(root) != size)
