"""The log's kept reading (issue 31): no run reads the whole log, and what it knows is what the log says.

Each ``maester adjudicate`` keeps its reading of the log in ``ledger.json`` (offset, checks, the
ledger); the next command reads the log on from there. These tests play runs as new commands
(the process forgets what it read before each) and count the log lines read, and compare every
ledger made from a kept reading with the log read whole, for every kind of line the log holds and
for every way the file or the log can differ from what was kept.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.folder import batch, ledger, ledger_index
from adjudicator.folder.ledger import Ledger, keep_reading


def _log_lines(root: Path) -> int:
    return (root / "log").read_bytes().count(b"\n")


def test_issue_31_no_run_reads_the_whole_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A robot game with every run a new command: each run reads at most the log lines appended
    since the end of the run before (its own included), however long the log has grown."""
    from adjudicator.folder.gamedir import GameDir
    from adjudicator.robots import simulate

    real = batch.adjudicate
    seen: list[tuple[int, int, int]] = []  # (lines read, lines appended since the last run ended, log length)
    ended = [0]

    def as_a_new_command(root: Path, *args: Any, **kwargs: Any) -> batch.RunResult:
        batch.forget_snapshots()
        ledger.forget_reads()
        before = ledger.lines_read()
        result = real(root, *args, **kwargs)
        length = _log_lines(Path(root))
        seen.append((ledger.lines_read() - before, length - ended[0], length))
        ended[0] = length
        result.latest = GameDir.open(root).load_state()
        return result

    monkeypatch.setattr(batch, "adjudicate", as_a_new_command)
    out = simulate.simulate(3, 7, rounds=3, out=tmp_path / "g")
    assert out.steps > 20 and not out.problems
    assert all(read <= appended for read, appended, _ in seen), [s for s in seen if s[0] > s[1]]
    assert seen[-1][2] > 4 * max(read for read, _, _ in seen[len(seen) // 2 :])  # the late runs read a sliver of it
    ledger.forget_reads()
    assert Ledger.read(tmp_path / "g") == Ledger.read(tmp_path / "g", kept=False)


# --- every kind of line, read on from a kept reading ------------------------------------------------------


def _line(kind: str, n: int) -> dict[str, Any]:
    """One log line of each kind the ledger reads, numbered ``n`` (names and hashes made from it)."""
    name = f"{n:06d}-stark-r1-planning-seq{n}.txt"
    lines: dict[str, dict[str, Any]] = {
        "accept": {"action": "accept", "house": "stark", "round": 1, "step": "planning", "seq": n, "sha256": f"a{n % 7}",
                   "file": f"archive/{name}"},
        "accept-again": {"action": "accept", "house": "lannister", "round": 2, "step": "action", "seq": 1,
                         "sha256": f"b{n}", "file": f"archive/{(n % 5) + 1:06d}-x.txt", "index": 100 + n},
        "reject": {"action": "reject", "sha256": f"r{n % 4}", "file": f"inbox/f{n}.txt", "retry": n % 2 == 0, "at": n % 6,
                   "reasons": ["no seal"], "receipts": {"stark": f"reports/r{n}"}, "kept": f"refused/files/f{n}",
                   "returning": f"{n % 5 + 1:06d}-x.txt"},
        "unmatched-seal": {"action": "unmatched-seal", "sha256": f"u{n}", "receipts": {"greyjoy": "x"}},
        "deadline": {"action": "deadline", "at": n % 6, "now": "2026-01-01T00:00:00+00:00"},
        "deadline-done": {"action": "deadline-done", "at": n % 6},
        "leave": {"action": "leave", "at": n % 6, "house": "greyjoy"},
        "snapshot": {"action": "snapshot", "number": n % 9, "sha256": f"s{n}", "applied": [name], "deadline": False,
                     "defaults": [], "missed": ["stark"] if n % 3 else [], "disorder": []},
        "rollback": {"action": "rollback", "to": n % 4, "folder": "rolled-back-1", "set_aside_files": [name],
                     "returning": [name], "dropped": [f"{(n % 5) + 1:06d}-x.txt"], "reason": "r"},
        "rollback-done": {"action": "rollback-done"},
        "setup": {"action": "setup", "sha256": f"setup{n}"},
        "moderator-accept": {"action": "moderator-accept", "sha256": f"m{n}"},
        "reveal": {"action": "reveal", "seed": f"seed{n}"},
        "outbox": {"action": "outbox", "folder": f"outbox/{n:04d}", "legacy_through": {"stark": n % 3},
                   "mails": [{"file": "stark.eml", "to": "stark", "steps": [n % 5], "notices": [f"r{n % 4}"]}]},
        "mailed": {"action": "mailed", "file": f"outbox/{max(n - 1, 0):04d}/stark.eml", "sha256": "x", "to": ["a@b"],
                   "server": "s", "time": f"t{n}"},
        "reply": {"action": "reply", "file": f"outbox/replies/r{n}.eml"},
        "extend": {"action": "extend", "house": "stark", "round": 1, "step": "planning", "hours": n},
        "remind": {"action": "remind", "requests": [{"key": f"k{n}", "due": "d"}]},
        "register-key": {"action": "register-key", "house": "stark", "fingerprint": "f"},
        "civil-disorder": {"action": "civil-disorder", "house": "stark", "at": n % 6},
        "civil-disorder-end": {"action": "civil-disorder-end", "house": "stark", "at": n % 6},
    }  # fmt: skip
    return lines[kind] | {"time": f"2026-01-01T00:00:{n % 60:02d}+00:00"}


KINDS = ["accept", "accept", "accept-again", "reject", "unmatched-seal", "deadline", "deadline-done", "leave",
         "snapshot", "snapshot", "rollback", "rollback-done", "setup", "moderator-accept", "reveal", "outbox",
         "mailed", "reply", "extend", "remind", "register-key", "civil-disorder", "civil-disorder-end"]  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=40), keep_every=st.integers(1, 4))
def test_issue_31_a_kept_reading_read_on_is_the_log_read_whole(
    tmp_path_factory: pytest.TempPathFactory, kinds: list[str], keep_every: int
) -> None:
    root: Path = tmp_path_factory.mktemp("kept")
    ledger.forget_reads()
    with open(root / "log", "w", encoding="utf-8") as log:
        for n, kind in enumerate(kinds, 1):
            log.write(json.dumps(_line(kind, n), sort_keys=True) + "\n")
            log.flush()
            if n % keep_every == 0:
                keep_reading(root)  # as a run ends
                ledger.forget_reads()  # the next command knows nothing but the file
                before = ledger.lines_read()
                kept = Ledger.read(root)
                assert ledger.lines_read() == before  # nothing appended since: nothing read
                assert kept == Ledger.read(root, kept=False)
                assert kept.missed_since() == Ledger.read(root, kept=False).missed_since()
    ledger.forget_reads()
    assert Ledger.read(root) == Ledger.read(root, kept=False)


# --- a kept reading that does not match is not used --------------------------------------------------------


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    """A log of 30 lines, its reading kept after 20 of them."""
    ledger.forget_reads()
    lines = [json.dumps(_line(k, n), sort_keys=True) + "\n" for n, k in enumerate(KINDS + KINDS[:7], 1)]
    (tmp_path / "log").write_text("".join(lines[:20]), encoding="utf-8")
    keep_reading(tmp_path)
    with open(tmp_path / "log", "a", encoding="utf-8") as f:
        f.write("".join(lines[20:]))
    ledger.forget_reads()
    return tmp_path


def _lines_of_a_new_command(root: Path) -> int:
    ledger.forget_reads()
    before = ledger.lines_read()
    got = Ledger.read(root)
    read = ledger.lines_read() - before
    assert got == Ledger.read(root, kept=False)
    return read


def test_issue_31_a_new_command_reads_only_what_was_appended_after_the_kept_reading(kept: Path) -> None:
    assert _lines_of_a_new_command(kept) == 10


def _rewrite_index(root: Path, change: Any) -> None:
    path = root / ledger_index.INDEX_FILE
    first, _, body = path.read_bytes().partition(b"\n")
    header = json.loads(first)
    change(header)
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


@pytest.mark.parametrize(
    "spoil",
    [
        "missing", "not-json", "cut-short", "body-changed", "other-format", "other-code", "offset-past-the-end",
        "log-cut-short", "log-changed-before-the-offset", "log-start-changed", "log-replaced",
    ],
)  # fmt: skip
def test_issue_31_a_kept_reading_that_does_not_match_the_log_is_not_used(kept: Path, spoil: str) -> None:
    index, log = kept / ledger_index.INDEX_FILE, kept / "log"
    data = log.read_bytes()
    if spoil == "missing":
        index.unlink()
    elif spoil == "not-json":
        index.write_bytes(b"\x00\x01 not a kept reading\n")
    elif spoil == "cut-short":
        index.write_bytes(index.read_bytes()[:-40])
    elif spoil == "body-changed":
        index.write_bytes(index.read_bytes().replace(b'"stark"', b'"starx"', 1))
    elif spoil == "other-format":
        _rewrite_index(kept, lambda h: h.update(format=h["format"] + 1))
    elif spoil == "other-code":
        _rewrite_index(kept, lambda h: h.update(code="0" * 64))
    elif spoil == "offset-past-the-end":
        _rewrite_index(kept, lambda h: h.update(offset=len(data) + 10))
    elif spoil == "log-cut-short":
        log.write_bytes(data[: json.loads(index.read_bytes().partition(b"\n")[0])["offset"] - 5])
    elif spoil == "log-changed-before-the-offset":
        offset = json.loads(index.read_bytes().partition(b"\n")[0])["offset"]
        log.write_bytes(data[: offset - 20] + data[offset - 20 : offset].replace(b"0", b"1") + data[offset:])
    elif spoil == "log-start-changed":
        log.write_bytes(data.replace(b"stark", b"stork", 1))
    elif spoil == "log-replaced":  # another file (a restored backup, a copied folder): another inode
        os.replace(log, kept / "old-log")
        log.write_bytes(data)
    assert _lines_of_a_new_command(kept) == log.read_bytes().count(b"\n"), "the log was read whole"


def test_issue_31_replay_reads_the_log_whole_whatever_was_kept(kept: Path) -> None:
    ledger.forget_reads()
    Ledger.read(kept)  # this process read on from the kept reading
    before = ledger.lines_read()
    Ledger.read(kept, kept=False)
    assert ledger.lines_read() - before == 30
