"""The log's kept reading (issue 31): no run reads the whole log, and what it knows is what the log says.

Each ``maester adjudicate`` keeps its reading of the log in ``ledger.json`` (offset, checks, the
ledger's small fields) and ``ledger.sqlite`` (the archived files and snapshot lines, asked one at a
time); the next command reads the log on from there. These tests play runs as new commands (the
process forgets what it read before each) and count the log lines and the kept rows read, and
compare every ledger made from a kept reading with the log read whole, for every kind of line the
log holds, every question a run asks it, and every way the files or the log can differ from what
was kept.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.folder import batch, ledger, ledger_index
from adjudicator.folder.ledger import Ledger, keep_reading
from adjudicator.folder.mailbook import MailBook


def _log_lines(root: Path) -> int:
    return (root / "log").read_bytes().count(b"\n")


class Played:
    """A robot game played with every run a new command, and what each run read."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seen: list[tuple[int, int, int]] = []  # (lines read, lines appended since the last run ended, log length)
        self.kept: list[dict[str, int]] = []  # what each run read of the kept reading (ledger_index.read_counts)
        self.rows_kept: list[int] = []  # the rows ledger.sqlite held after each run


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    from adjudicator.folder.gamedir import GameDir
    from adjudicator.robots import simulate

    game = Played(tmp_path_factory.mktemp("played") / "g")
    real = batch.adjudicate
    ended = [0]

    def as_a_new_command(root: Path, *args: Any, **kwargs: Any) -> batch.RunResult:
        batch.forget_snapshots()
        ledger.forget_reads()
        before, kept_before = ledger.lines_read(), ledger_index.read_counts()
        result = real(root, *args, **kwargs)
        length = _log_lines(Path(root))
        game.seen.append((ledger.lines_read() - before, length - ended[0], length))
        game.kept.append({k: v - kept_before[k] for k, v in ledger_index.read_counts().items()})
        with sqlite3.connect(Path(root) / ledger_index.ROWS_FILE) as db:
            game.rows_kept.append(sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("file", "line")))
        ended[0] = length
        result.latest = GameDir.open(root).load_state()
        return result

    batch.adjudicate = as_a_new_command  # type: ignore[assignment]
    try:
        out = simulate.simulate(3, 7, rounds=3, out=game.root)
    finally:
        batch.adjudicate = real  # type: ignore[assignment]
    assert out.steps > 20 and not out.problems
    return game


def test_issue_31_no_run_reads_the_whole_log(played: Played) -> None:
    """A robot game with every run a new command: each run reads at most the log lines appended
    since the end of the run before (its own included), however long the log has grown."""
    seen = played.seen
    assert all(read <= appended for read, appended, _ in seen), [s for s in seen if s[0] > s[1]]
    assert seen[-1][2] > 4 * max(read for read, _, _ in seen[len(seen) // 2 :])  # the late runs read a sliver of it
    ledger.forget_reads()
    assert Ledger.read(played.root) == Ledger.read(played.root, kept=False)


def test_issue_31_no_run_loads_the_whole_kept_ledger(played: Played) -> None:
    """The same game: each run reads of the kept reading a head of about the same size and a few
    rows, as many late in the game as early, never every row, while the rows kept grow with every step."""
    kept, half = played.kept, len(played.kept) // 2
    assert not [k for k in kept if k["whole"]], "a run read every row of ledger.sqlite"
    most = max(k["rows"] for k in kept[1:half])
    assert 0 < max(k["rows"] for k in kept[half:]) <= most, [k["rows"] for k in kept]
    assert played.rows_kept[-1] > 5 * most  # a sliver of what is kept
    assert played.rows_kept[-1] > 2 * played.rows_kept[half - 1]  # and what is kept grew
    heads = [k["head_bytes"] for k in kept[1:]]
    assert max(heads[half:]) <= max(heads[:half]) + 256, heads  # the head does not grow with the game


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
        "outbox-two": {"action": "outbox", "folder": f"outbox/{n % 7:04d}-2",
                       "mails": [{"file": "stark.eml", "to": "stark", "steps": [n % 5], "asked": [f"k{n}"]},
                                 {"file": "public.eml", "to": "public", "steps": [n % 5]}]},
        "mailed-again": {"action": "mailed", "file": f"outbox/{n % 7:04d}-2/public.eml", "sha256": "y", "to": ["l@b"],
                         "server": "s", "time": f"t{n}"},
        "reply": {"action": "reply", "file": f"outbox/replies/r{n}.eml"},
        "extend": {"action": "extend", "house": "stark", "round": 1, "step": "planning", "hours": n},
        "remind": {"action": "remind", "requests": [{"key": f"k{n}", "due": "d"}]},
        "register-key": {"action": "register-key", "house": "stark", "fingerprint": "f"},
        "civil-disorder": {"action": "civil-disorder", "house": "stark", "at": n % 6},
        "civil-disorder-end": {"action": "civil-disorder-end", "house": "stark", "at": n % 6},
    }  # fmt: skip
    return lines[kind] | {"time": f"2026-01-01T00:00:{n % 60:02d}+00:00"}


def assert_answers_alike(kept: Ledger, whole: Ledger) -> None:
    """Every question a run asks the ledger gets the same answer from the kept rows as from the log read whole."""
    names = {a.name for a in whole.archived} | set(whole.set_aside) | {f"{n:06d}-x.txt" for n in range(1, 8)}
    for name in sorted(names | {"000099-none.txt"}):
        assert kept.find(name) == whole.find(name), name
    for sha in sorted({a.sha256 for a in whole.archived} | {"a1", "a2", "b3", "none"}):
        assert kept.is_accepted(sha) == whole.is_accepted(sha), sha
    for index in range(-1, whole.last_index + 2):
        assert kept.after(index) == whole.after(index), index
    for rnd, step in {(a.round, a.step) for a in whole.archived} | {(1, "planning"), (2, "action"), (3, "x")}:
        assert kept.highest_for(rnd, step) == whole.highest_for(rnd, step), (rnd, step)
    numbers = list(range(-1, 11))
    assert [kept.snapshot_line(n) for n in numbers] == [whole.snapshot_line(n) for n in numbers]
    assert (kept.snapshot_count(), kept.first_snapshot(), kept.latest_snapshot()) == (
        whole.snapshot_count(), whole.first_snapshot(), whole.latest_snapshot())  # fmt: skip
    assert kept.unlogged(numbers) == whole.unlogged(numbers)
    assert_mail_alike(kept.mail, whole.mail)


def assert_mail_alike(kept: MailBook, whole: MailBook) -> None:
    """Every question a run asks the mail book gets the same answer from the kept rows as from the log read whole."""
    paths = list(whole.written) + list(whole.mailed) + ["outbox/9999/stark.eml", "outbox/0001"]
    for records in ("written", "mailed"):
        mine, theirs = getattr(kept, records), getattr(whole, records)
        assert list(mine) == list(theirs) and mine.items() == list(theirs.items()), records
        assert len(mine) == len(theirs), records
        for path in paths:
            assert (path in mine, mine.get(path)) == (path in theirs, theirs.get(path)), (records, path)
    for folder in {p.rpartition("/")[0] for p in paths}:
        assert kept.written.with_prefix(folder + "/") == whole.written.with_prefix(folder + "/"), folder
    assert kept.queue() == whole.queue()
    for who in set(whole.current) | set(whole.last_sent) | {"stark", "public", "nobody"}:
        assert (kept.pending(who), kept.last_told(who)) == (whole.pending(who), whole.last_told(who)), who
    assert (kept.unsent, kept.current, kept.through, kept.last_folder) == (
        whole.unsent, whole.current, whole.through, whole.last_folder)  # fmt: skip


KINDS = ["accept", "accept", "accept-again", "reject", "unmatched-seal", "deadline", "deadline-done", "leave",
         "snapshot", "snapshot", "rollback", "rollback-done", "setup", "moderator-accept", "reveal", "outbox",
         "mailed", "reply", "extend", "remind", "register-key", "civil-disorder", "civil-disorder-end",
         "outbox-two", "mailed-again"]  # fmt: skip


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
                assert_answers_alike(kept, Ledger.read(root, kept=False))
                assert kept == Ledger.read(root, kept=False)
                assert kept.missed_since() == Ledger.read(root, kept=False).missed_since()
    ledger.forget_reads()
    assert Ledger.read(root) == Ledger.read(root, kept=False)


# --- a kept reading that does not match is not used --------------------------------------------------------


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    """A log of 30 lines, its reading kept after 20 of them."""
    ledger.forget_reads()
    lines = [json.dumps(_line(k, n), sort_keys=True) + "\n" for n, k in enumerate((KINDS + KINDS)[:30], 1)]
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
        "rows-missing", "rows-not-a-database", "rows-of-another-generation", "rows-without-their-tables",
    ],
)  # fmt: skip
def test_issue_31_a_kept_reading_that_does_not_match_the_log_is_not_used(kept: Path, spoil: str) -> None:
    index, log, rows = kept / ledger_index.INDEX_FILE, kept / "log", kept / ledger_index.ROWS_FILE
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
    elif spoil == "rows-missing":
        rows.unlink()
    elif spoil == "rows-not-a-database":
        rows.write_bytes(b"not a database" * 100)
    elif spoil == "rows-of-another-generation":  # rows written again since, by a head that was lost
        with sqlite3.connect(rows) as db:
            db.execute("UPDATE meta SET generation = 'another'")
    elif spoil == "rows-without-their-tables":
        with sqlite3.connect(rows) as db:
            db.execute("DROP TABLE meta")
    assert _lines_of_a_new_command(kept) == log.read_bytes().count(b"\n"), "the log was read whole"


def test_issue_31_replay_reads_the_log_whole_whatever_was_kept(kept: Path) -> None:
    ledger.forget_reads()
    Ledger.read(kept)  # this process read on from the kept reading
    before = ledger.lines_read()
    Ledger.read(kept, kept=False)
    assert ledger.lines_read() - before == 30


def test_issue_31_rows_a_killed_save_added_are_not_read_and_the_next_save_replaces_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command killed after adding its rows and before writing the head that names them: the next
    command reads on from the older head (the rows it names only), and the next save writes them again."""
    from adjudicator.util import fileio

    ledger.forget_reads()
    log = tmp_path / "log"
    log.write_text("".join(json.dumps(_line(k, n)) + "\n" for n, k in enumerate(KINDS[:9], 1)), encoding="utf-8")
    keep_reading(tmp_path)
    with open(log, "a", encoding="utf-8") as f:  # a step: two files accepted, one snapshot line
        f.write("".join(json.dumps(_line(k, n)) + "\n" for n, k in ((20, "accept"), (21, "accept"), (22, "snapshot"))))
    head = (tmp_path / ledger_index.INDEX_FILE).read_bytes()

    def killed(path: Path, data: bytes, **kwargs: Any) -> None:
        raise KeyboardInterrupt("killed")

    monkeypatch.setattr(fileio, "atomic_write_bytes", killed)
    with pytest.raises(KeyboardInterrupt):
        keep_reading(tmp_path)
    monkeypatch.undo()
    assert (tmp_path / ledger_index.INDEX_FILE).read_bytes() == head
    with sqlite3.connect(tmp_path / ledger_index.ROWS_FILE) as db:
        assert db.execute("SELECT count(*) FROM file WHERE version = 2").fetchone()[0] == 2  # added, named by no head
    assert _lines_of_a_new_command(tmp_path) == 3
    ledger.forget_reads()
    before = ledger.lines_read()
    Ledger.read(tmp_path)  # the next command: on from the older head
    keep_reading(tmp_path)
    assert ledger.lines_read() - before == 3
    assert _lines_of_a_new_command(tmp_path) == 0
    with sqlite3.connect(tmp_path / ledger_index.ROWS_FILE) as db:
        assert db.execute("SELECT count(*) FROM file WHERE version = 2").fetchone()[0] == 2  # once, not twice
        assert db.execute("SELECT count(*) FROM line WHERE version = 2").fetchone()[0] == 1


def test_issue_31_rows_that_fail_during_a_run_are_answered_from_the_log(kept: Path) -> None:
    """The rows' file stops answering after the ledger was loaded (damaged, a disk gone): the rows
    it named are read from the log, up to the head's offset, and every answer is the same."""
    keep_reading(kept)
    ledger.forget_reads()
    led = Ledger.read(kept)
    assert led._rows is not None
    led._rows.conn.close()
    assert_answers_alike(led, Ledger.read(kept, kept=False))
    assert led == Ledger.read(kept, kept=False)


def test_issue_31_a_journal_left_beside_no_rows_file_is_not_applied_to_a_new_one(kept: Path) -> None:
    """A rollback journal of a killed commit, its rows' file deleted since: the next save removes it
    before writing a new file, which a stale journal would otherwise damage."""
    rows = kept / ledger_index.ROWS_FILE
    rows.unlink()
    (kept / f"{ledger_index.ROWS_FILE}-journal").write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(600))
    ledger.forget_reads()
    Ledger.read(kept)
    keep_reading(kept)
    assert not (kept / f"{ledger_index.ROWS_FILE}-journal").exists()
    assert _lines_of_a_new_command(kept) == 0


# --- a game mailed after every step ------------------------------------------------------------------------


def test_issue_31_a_mailed_game_keeps_its_mails_as_rows_and_its_head_flat(tmp_path: Path) -> None:
    """A robot game with its mails written and recorded as sent after every run, each command a new
    one: the mails written and sent are rows of ``ledger.sqlite``, so the head a command reads is as
    large late in the game as early, and an ``outbox`` run reads a few mail rows, not every one."""
    import contextlib
    import io
    import tomllib

    import tomli_w
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from adjudicator.cli import main as maester
    from adjudicator.folder import registry
    from adjudicator.robots.simulate import simulate
    from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair

    root, moderator = tmp_path / "g", "gm@example.org"
    key = Ed25519PrivateKey.from_private_bytes(bytes([77] * 32))
    pair = KeyPair(key, PublicKey.from_key(key))
    write_key_pair(tmp_path / "moderator", pair)
    heads: list[int] = []
    outbox_rows: list[int] = []

    def new_command() -> None:
        batch.forget_snapshots()
        ledger.forget_reads()

    real = batch.adjudicate

    def adjudicate_as_a_new_command(*args: Any, **kwargs: Any) -> batch.RunResult:
        new_command()
        return real(*args, **kwargs)

    def mail_after_the_run(state: Any) -> None:
        if not heads:  # the addresses, once
            registry.register_key(root, "moderator", pair.public, email=moderator)
            game = tomllib.loads((root / "game.toml").read_text(encoding="utf-8"))
            for house in game["game"]["houses"]:
                game.setdefault("players", {}).setdefault(house, {})["email"] = f"{house}@players.example"
            (root / "game.toml").write_text(tomli_w.dumps(game), encoding="utf-8")
        heads.append((root / ledger_index.INDEX_FILE).stat().st_size)
        with contextlib.redirect_stdout(io.StringIO()):
            for args in (["--key", str(tmp_path / "moderator"), "--from", moderator], ["--mark-sent"]):
                new_command()
                before = ledger_index.read_counts()["rows"]
                assert maester(["outbox", str(root), *args]) in (0, 1)
                outbox_rows.append(ledger_index.read_counts()["rows"] - before)

    batch.adjudicate = adjudicate_as_a_new_command  # type: ignore[assignment]
    try:
        out = simulate(4, 2, rounds=4, out=root, on_step=mail_after_the_run)
    finally:
        batch.adjudicate = real  # type: ignore[assignment]
    assert out.steps > 30 and not out.problems
    book = Ledger.read(root).mail
    assert len(book.mailed) > 4 * out.steps // 2 and not book.queue(), "every reader mailed, every mail sent"
    with sqlite3.connect(root / ledger_index.ROWS_FILE) as db:
        rows = dict(db.execute("SELECT kind, count(*) FROM mail GROUP BY kind").fetchall())
    assert rows["written"] >= len(book.written) - 12 and rows["mailed"] >= len(book.mailed) - 12  # all but the last run's
    half = len(heads) // 2
    assert max(heads[half:]) <= max(heads[3:half]) + 256, heads  # the head does not grow with the mails
    assert max(outbox_rows[half:]) <= max(outbox_rows[:half]) + 6, outbox_rows  # nor what an outbox run reads
    assert 4 * max(outbox_rows) < rows["written"] + rows["mailed"], "a run reads a sliver of the rows"
    ledger.forget_reads()
    assert_mail_alike(Ledger.read(root).mail, Ledger.read(root, kept=False).mail)
