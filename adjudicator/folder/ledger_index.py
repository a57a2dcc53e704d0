"""The log's kept reading: where the last run stopped reading the log, and what it had read by then.

A new command would otherwise read the whole log to know what is archived, refused, mailed and
ordered, so a run would cost more the longer the game had lasted. ``maester adjudicate`` keeps,
at the end of each run, the ledger it read (:class:`adjudicator.folder.ledger.Ledger`) beside the
log, with the offset it read to; the next command loads it and reads the log on from that offset.

It is kept in two files, so that a run reads of it only what it asks, however long the game:

* ``ledger.json``, the head, read whole: the checks below, the ledger's small fields (refusals,
  deadlines, mails, set-aside files...) and which rows of the other file it covers;
* ``ledger.sqlite``, the rows, read in part: one row per archived file in force, per snapshot
  line and per mail written or sent (:class:`KeptRecords`), the things that grow with every step.
  A run asks it for the few it needs through its indexes (one file by name or by hash, the files
  after an index, the highest sequence numbers of one step, one snapshot line, one mail by its
  path or the mails of one outbox folder); only a rollback or a file accepted again reads every row. A
  database, not a file of our own: keyed lookups read in part and rows added in a transaction
  that a killed process cannot leave half done are what SQLite (in the standard library) is for.

Each save adds, in one transaction, only the rows the runs since the last save added, tagged
with the next version number, then writes the head naming that version; a reader takes only the
rows of the versions its head names. A command killed between the two leaves rows that no head
names: they are not read, and the next save removes them. A ledger that no longer extends the
rows (read whole from the log, after a rollback) writes them all again under a new generation.

The files are a cache of the log and never more: the log stays the record. They are used only
when everything about them matches, and else the log is read whole as before (and the next run
writes them again):

* the head's format, and a hash of the code that reads the log (a new Maester reads afresh);
* the log is the same file (device and inode), no shorter than the offset, and has the same bytes
  at its start and just before the offset (a log replaced, restored or cut short differs there);
* a checksum of the head's own contents (a file damaged on the disk);
* the rows are of the generation the head names (a rows file deleted, replaced or rewritten since).

The head is written atomically (a temporary file, then a rename) and, like the rows, without
waiting for the disk when the process writes so (:func:`adjudicator.util.fileio.relaxed`); else
the rows are on the disk before the head names them. A killed command leaves the previous head
and rows whole; either way the checks above send the next command to the log when they do not
match. Delete either file at any time: nothing is lost. ``maester replay`` never uses them.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..util import fileio

INDEX_FILE = "ledger.json"
ROWS_FILE = "ledger.sqlite"
FORMAT = 3  # 3: the mails written and sent are rows, not fields of the head
_HEAD = 4096  # bytes at the start of the log that must not have changed
_SOURCES = ("ledger.py", "ledger_index.py", "mailbook.py")  # the code whose reading the file holds
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(generation TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS file(name TEXT PRIMARY KEY, idx INTEGER, house TEXT, round INTEGER, step TEXT,
                                seq INTEGER, sha256 TEXT, version INTEGER);
CREATE INDEX IF NOT EXISTS file_idx ON file(idx);
CREATE INDEX IF NOT EXISTS file_sha ON file(sha256);
CREATE INDEX IF NOT EXISTS file_step ON file(round, step);
CREATE INDEX IF NOT EXISTS file_version ON file(version);
CREATE TABLE IF NOT EXISTS line(number INTEGER, version INTEGER, text TEXT, PRIMARY KEY(number, version));
CREATE INDEX IF NOT EXISTS line_version ON line(version);
CREATE TABLE IF NOT EXISTS mail(kind TEXT, key TEXT, position INTEGER, version INTEGER, text TEXT,
                                PRIMARY KEY(kind, key, version));
CREATE INDEX IF NOT EXISTS mail_position ON mail(kind, position);
CREATE INDEX IF NOT EXISTS mail_version ON mail(version);
"""
_FILE_COLUMNS = "idx, name, house, round, step, seq, sha256"  # in the order of Archived's fields
_counts = {"rows": 0, "head_bytes": 0, "whole": 0}  # what this process read of kept readings (read_counts())


def read_counts() -> dict[str, int]:
    """What this process has read of kept readings so far: ``rows`` (rows of ``ledger.sqlite``),
    ``head_bytes`` (of ``ledger.json``) and ``whole`` (times every row was read: a rollback, a
    file accepted again). A run reads a bounded amount, whatever the game's length."""
    return dict(_counts)


def _code_hash() -> str:
    """A hash of the modules that read the log: a file kept by other code is never trusted."""
    global _code
    if _code is None:
        h = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for name in _SOURCES:
            try:
                h.update((here / name).read_bytes())
            except OSError:
                h.update(os.urandom(16))  # unreadable: no file kept by this code matches another's
        _code = h.hexdigest()
    return _code


_code: str | None = None


# --- the head's codec: each small field of the ledger and its books, by the kind of value it holds -----------

# "json": as JSON keeps it; "intkeys": a dict with int keys; "set": a set of strings or ints; "tuples": a set of
# tuples; "setmap": a dict of sets; "archmap": a dict of Archived by name; "rows": KeptRecords, kept as rows
# and not in the head. (The archived files in force and the snapshot lines are rows too: class Rows.)
LEDGER_FIELDS = {
    "set_aside": "archmap", "last_index": "json", "rejected": "json", "rejected_at": "json",
    "kept": "json", "notices": "json", "returning": "archmap", "dropped": "archmap", "unrefused": "json",
    "deadlines": "set", "leaves": "intkeys", "open_deadline": "json",
    "moderator_accepts": "set", "revealed": "json", "setup_sha256": "json", "rollback": "json",
    "rollback_done": "json", "disorder_fold": "json",
}  # fmt: skip
BOOK_FIELDS = {"calls": "intkeys", "extensions": "json", "reminded": "tuples", "key_changes": "json",
               "disorder_starts": "tuples", "disorder_ends": "tuples"}  # fmt: skip
MAIL_FIELDS = {"written": "rows", "current": "json", "mailed": "rows", "through": "json", "delivered": "setmap",
               "undone": "json", "lines": "json", "replies": "set", "last_folder": "json", "unsent": "set",
               "last_sent": "json"}  # fmt: skip


def _enc(kind: str, v: Any) -> Any:
    if kind == "json":
        return v
    if kind == "intkeys":
        return [[k, x] for k, x in v.items()]
    if kind == "set":
        return sorted(v)
    if kind == "tuples":
        return sorted(list(t) for t in v)
    if kind == "setmap":
        return {k: sorted(x) for k, x in v.items()}
    if kind == "archmap":
        return {k: [a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256] for k, a in v.items()}
    raise ValueError(kind)


def _dec(kind: str, v: Any, archived: Any) -> Any:
    if kind == "json":
        return v
    if kind == "intkeys":
        return {int(k): x for k, x in v}
    if kind == "set":
        return set(v)
    if kind == "tuples":
        return {tuple(t) for t in v}
    if kind == "setmap":
        return {k: set(x) for k, x in v.items()}
    if kind == "archmap":
        return {k: archived(*x) for k, x in v.items()}
    raise ValueError(kind)


def _fields(obj: Any, kinds: dict[str, str]) -> dict[str, Any]:
    names = [n for n in getattr(obj, "__dataclass_fields__", {}) if not n.startswith("_")]
    if set(names) - set(kinds) - {"book", "mail"}:  # a field this codec does not know: keep nothing
        raise ValueError(f"no codec for {sorted(set(names) - set(kinds))}")
    return {n: _enc(kind, getattr(obj, n)) for n, kind in kinds.items() if kind != "rows"}


def encode(ledger: Any) -> dict[str, Any]:
    """The ledger's small fields as JSON values (:raises ValueError: for a field the codec does not know)."""
    out = _fields(ledger, LEDGER_FIELDS)
    out["book"] = _fields(ledger.book, BOOK_FIELDS)
    out["mail"] = _fields(ledger.mail, MAIL_FIELDS)
    return out


def decode(data: dict[str, Any], ledger_cls: Any, book_cls: Any, mail_cls: Any, archived_cls: Any) -> Any:
    """The ledger :func:`encode` gave, without its rows (:raises KeyError, TypeError, ValueError: when it is not one)."""
    book = book_cls(**{n: _dec(k, data["book"][n], archived_cls) for n, k in BOOK_FIELDS.items()})
    mail = mail_cls(**{n: _dec(k, data["mail"][n], archived_cls) for n, k in MAIL_FIELDS.items() if k != "rows"})
    return ledger_cls(book=book, mail=mail, **{n: _dec(k, data[n], archived_cls) for n, k in LEDGER_FIELDS.items()})


# --- the rows -------------------------------------------------------------------------------------------

# Every row one head names: the files in force (tuples in the order of Archived's fields), the snapshot
# lines by number, and the mail records of each kind as (key, position, record) in the order written.
Whole = tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]], dict[str, list[tuple[str, int, dict[str, Any]]]]]
# The rows, from the log read whole up to an offset.
FromLog = Callable[[int], Whole]


class Rows:
    """The rows of ``ledger.sqlite`` that one head names (its generation, versions up to ``version``),
    read on demand. ``count``, ``first`` and ``last``: how many snapshot numbers they hold, the
    lowest and the highest (-1 when none). Files come back as tuples in the order of ``Archived``'s fields.

    Never changed once made: a save adds rows of a later version, which this one does not read. Should
    the file fail to answer later in the process (damaged on the disk since), ``from_log`` gives the same
    rows from the log, read whole up to the head's offset, and they are answered from memory."""

    def __init__(self, conn: sqlite3.Connection, generation: str, version: int, count: int, first: int, last: int,
                 offset: int, from_log: FromLog) -> None:  # fmt: skip
        self.conn, self.generation, self.version = conn, generation, version
        self.count, self.first, self.last = count, first, last
        self.offset, self.from_log = offset, from_log
        self._mem: Whole | None = None

    def _query(self, sql: str, *args: Any) -> list[tuple[Any, ...]] | None:
        """The rows of one query (``None``: the file no longer answers, and the rows are in memory now)."""
        if self._mem is None:
            try:
                got = self.conn.execute(sql, (*args, self.version)).fetchall()
                _counts["rows"] += len(got)
                return got
            except sqlite3.Error:
                self._mem = self.from_log(self.offset)
        return None

    def find(self, name: str) -> tuple[Any, ...] | None:
        """The archived file in force of that name."""
        got = self._query(f"SELECT {_FILE_COLUMNS} FROM file WHERE name = ? AND version <= ?", name)
        if got is None:
            got = [a for a in self._whole()[0] if a[1] == name]
        return got[0] if got else None

    def has_sha(self, sha: str) -> bool:
        """Whether an archived file in force has these bytes."""
        got = self._query("SELECT 1 FROM file WHERE sha256 = ? AND version <= ? LIMIT 1", sha)
        return bool(got) if got is not None else any(a[6] == sha for a in self._whole()[0])

    def after(self, index: int) -> list[tuple[Any, ...]]:
        """The archived files in force with an index above ``index``, in order."""
        got = self._query(f"SELECT {_FILE_COLUMNS} FROM file WHERE idx > ? AND version <= ? ORDER BY idx", index)
        return got if got is not None else [a for a in self._whole()[0] if a[0] > index]

    def highest(self, round: int, step: str) -> dict[tuple[str, int, str], int]:
        """The highest sequence number in force per house for one round and step."""
        got = self._query("SELECT house, max(seq) FROM file WHERE round = ? AND step = ? AND version <= ? GROUP BY house",
                          round, step)  # fmt: skip
        if got is None:
            best: dict[tuple[str, int, str], int] = {}
            for a in self._whole()[0]:
                if (a[3], a[4]) == (round, step):
                    best[(a[2], round, step)] = max(best.get((a[2], round, step), 0), a[5])
            return best
        return {(house, round, step): seq for house, seq in got}

    def line(self, number: int) -> dict[str, Any] | None:
        """The snapshot line of that number (the latest logged)."""
        got = self._query("SELECT text FROM line WHERE number = ? AND version <= ? ORDER BY version DESC LIMIT 1", number)
        if got is None:
            return self._whole()[1].get(number)
        return json.loads(got[0][0]) if got else None

    def record(self, kind: str, key: str) -> tuple[int, dict[str, Any]] | None:
        """One mail record of ``kind`` by its key, with its position (the latest logged)."""
        got = self._query("SELECT position, text FROM mail WHERE kind = ? AND key = ? AND version <= ? "
                          "ORDER BY version DESC LIMIT 1", kind, key)  # fmt: skip
        if got is None:
            return next(((p, r) for k, p, r in reversed(self._whole()[2].get(kind, [])) if k == key), None)
        return (got[0][0], json.loads(got[0][1])) if got else None

    def records(self, kind: str, prefix: str = "") -> list[tuple[str, int, dict[str, Any]]]:
        """The mail records of ``kind`` whose keys start with ``prefix`` (every one: ``""``), in the order
        written, each once (its latest)."""
        if prefix:  # the keys from the prefix up to the next string that does not start with it: read through the index
            got = self._query("SELECT key, position, text FROM mail WHERE kind = ? AND key >= ? AND key < ? AND version <= ? "
                              "ORDER BY position, version", kind, prefix, prefix + "\U0010ffff")  # fmt: skip
        else:
            got = self._query("SELECT key, position, text FROM mail WHERE kind = ? AND version <= ? ORDER BY position, version",
                              kind)  # fmt: skip
        if got is None:
            rows = [(k, p, r) for k, p, r in self._whole()[2].get(kind, []) if k.startswith(prefix)]
        else:
            rows = [(k, p, json.loads(t)) for k, p, t in got]
        latest = {k: (k, p, r) for k, p, r in rows}  # a later version of a key replaces the earlier
        return sorted(latest.values(), key=lambda row: row[1])

    def record_keys(self, kind: str) -> list[str]:
        """The keys of the mail records of ``kind``, in the order written (no record read)."""
        got = self._query("SELECT key FROM mail WHERE kind = ? AND version <= ? GROUP BY key ORDER BY min(position)", kind)
        if got is None:
            return list(dict.fromkeys(k for k, _, _ in sorted(self._whole()[2].get(kind, []), key=lambda row: row[1])))
        return [k for (k,) in got]

    def next_position(self, kind: str) -> int:
        """The position a new key of ``kind`` takes: one past the last kept."""
        got = self._query("SELECT max(position) FROM mail WHERE kind = ? AND version <= ?", kind)
        if got is None:
            return 1 + max((p for _, p, _ in self._whole()[2].get(kind, [])), default=-1)
        return 0 if got[0][0] is None else int(got[0][0]) + 1

    def whole(self) -> Whole:
        """Every file in force, snapshot line and mail record (a rollback, a file accepted again)."""
        _counts["whole"] += 1
        return self._whole()

    def _whole(self) -> Whole:
        files = self._query(f"SELECT {_FILE_COLUMNS} FROM file WHERE version <= ? ORDER BY idx")
        texts = self._query("SELECT number, text FROM line WHERE version <= ? ORDER BY number, version")
        mails = self._query("SELECT kind, key, position, text FROM mail WHERE version <= ? ORDER BY position, version")
        if files is None or texts is None or mails is None:
            if self._mem is None:
                self._mem = self.from_log(self.offset)
            return self._mem
        by_kind: dict[str, list[tuple[str, int, dict[str, Any]]]] = {}
        for kind, key, position, text in mails:
            by_kind.setdefault(kind, []).append((key, position, json.loads(text)))
        return files, {number: json.loads(text) for number, text in texts}, by_kind


class KeptRecords(Mapping[str, dict[str, Any]]):
    """The records of one kind of mail line by key (a mail written by its path, a mail sent by its path),
    as a read-only mapping in the order first written: those a kept reading holds asked of its rows when
    needed, those read since held here. So a game mailed to every reader after every step keeps a head
    of the same size however long it lasts, and a run reads only the records it asks for. Iterating
    gives the keys alone (one query); :meth:`items` reads every record (one query); :meth:`with_prefix`
    the records of one outbox folder."""

    def __init__(self, kind: str, rows: Rows | None = None) -> None:
        self.kind = kind
        self._rows = rows
        self._mine: dict[str, dict[str, Any]] = {}  # key -> record, read since the rows (all of them without rows)
        self._at: dict[str, int] = {}  # key -> its position, for the keys in `_mine`
        self._next: int | None = 0 if rows is None else None  # the next new key's position (None: ask the rows)

    def __getitem__(self, key: str) -> dict[str, Any]:
        if key in self._mine:
            return self._mine[key]
        if self._rows is not None and (got := self._rows.record(self.kind, key)) is not None:
            return got[1]
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if key in self._mine:
            return True
        return isinstance(key, str) and self._rows is not None and self._rows.record(self.kind, key) is not None

    def __iter__(self) -> Iterator[str]:
        kept = self._rows.record_keys(self.kind) if self._rows is not None else []
        seen = set(kept)
        return iter(kept + [k for k in sorted(self._mine, key=self._at.__getitem__) if k not in seen])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return list(self.items()) == list(other.items())  # the same records in the same order

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"KeptRecords({self.kind!r}, {len(self._mine)} read since the rows, rows={self._rows is not None})"

    def items(self) -> list[tuple[str, dict[str, Any]]]:  # type: ignore[override]  # a list: read once, in order
        """Every record with its key, in the order first written."""
        return self.with_prefix("")

    def with_prefix(self, prefix: str) -> list[tuple[str, dict[str, Any]]]:
        """The records whose keys start with ``prefix`` (``outbox/0007/``: one run's mails), in the order written."""
        kept = self._rows.records(self.kind, prefix) if self._rows is not None else []
        mine = {k: r for k, r in self._mine.items() if k.startswith(prefix)}
        out = {k: r for k, _, r in kept} | mine
        at = {k: p for k, p, _ in kept} | {k: self._at[k] for k in mine}  # a key read again has its kept position
        return sorted(out.items(), key=lambda kv: at[kv[0]])

    def position(self, key: str) -> int:
        """Where ``key`` was first written among the keys of this kind (:raises KeyError: for no such key)."""
        if key in self._at:
            return self._at[key]
        if self._rows is not None and (got := self._rows.record(self.kind, key)) is not None:
            return got[0]
        raise KeyError(key)

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Read one more record (a key read again keeps its first position, as a dict keeps its order)."""
        if key not in self._at:
            try:
                self._at[key] = self.position(key)
            except KeyError:
                if self._next is None:
                    self._next = self._rows.next_position(self.kind) if self._rows is not None else 0
                self._at[key] = self._next
                self._next += 1
        self._mine[key] = record

    def unsaved(self) -> list[tuple[str, int, dict[str, Any]]]:
        """The records read since the rows, as the rows keep them: (key, position, record)."""
        return [(k, self._at[k], r) for k, r in self._mine.items()]

    def attach(self, rows: Rows) -> None:
        """Read on from ``rows``, which hold every record held here."""
        self._rows, self._mine, self._at, self._next = rows, {}, {}, None

    def whole(self, kept: list[tuple[str, int, dict[str, Any]]] | None = None) -> None:
        """Hold every record here, the rows no longer asked (their file is to be written anew); ``kept``:
        the rows' records of this kind, when the caller read every row already."""
        if self._rows is None:
            return
        if kept is None:
            kept = self._rows.whole()[2].get(self.kind, [])
        mine, at = self._mine, self._at
        self._rows, self._mine, self._at = None, {}, {}
        for k, p, r in kept:  # in the order written, each key's latest last
            self._mine[k], self._at[k] = r, p
        for k, r in mine.items():
            self._mine[k] = r
            self._at.setdefault(k, at[k])
        self._mine = dict(sorted(self._mine.items(), key=lambda kv: self._at[kv[0]]))
        self._next = 1 + max(self._at.values(), default=-1)

    def copy(self) -> KeptRecords:
        """An independent mapping with the same records (the rows, never changed, shared)."""
        out = KeptRecords(self.kind, self._rows)
        out._mine, out._at, out._next = {k: dict(r) for k, r in self._mine.items()}, dict(self._at), self._next
        return out


def _open_rows(path: Path, mode: str) -> sqlite3.Connection:
    # isolation_level=None: no transaction is opened behind our back; the writes open their own.
    return sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                           check_same_thread=False)  # fmt: skip


class Stale(Exception):
    """The rows' file holds another generation than the rows a ledger reads on from: write them all."""


# A mail record as a row: (kind, key, position, record).
MailRow = tuple[str, str, int, dict[str, Any]]


def _insert(conn: sqlite3.Connection, version: int, files: list[Any], lines: dict[int, dict[str, Any]],
            mails: list[MailRow]) -> None:  # fmt: skip
    conn.executemany(f"INSERT INTO file({_FILE_COLUMNS}, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     [(a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256, version) for a in files])  # fmt: skip
    conn.executemany("INSERT INTO line VALUES (?, ?, ?)",
                     [(n, version, json.dumps(e, ensure_ascii=False, sort_keys=True)) for n, e in lines.items()])  # fmt: skip
    conn.executemany("INSERT INTO mail VALUES (?, ?, ?, ?, ?)",
                     [(kind, key, at, version, json.dumps(r, ensure_ascii=False, sort_keys=True))
                      for kind, key, at, r in mails])  # fmt: skip


def _write_rows(root: Path, rows: Rows | None, files: list[Any], lines: dict[int, dict[str, Any]],
                mails: list[MailRow]) -> tuple[str, int]:  # fmt: skip
    """Add ``files``, ``lines`` and ``mails`` to the rows ``rows`` names, under the next version, in one
    transaction; without ``rows``, write them as every row of a new generation, in a new file
    renamed over the old one (a process still reading the old one reads it to its end). Returns the
    generation and version written (:raises Stale: :raises sqlite3.Error, OSError:)."""
    path, journal = Path(root) / ROWS_FILE, Path(root) / f"{ROWS_FILE}-journal"
    sync = "FULL" if fileio.durable() else "OFF"
    if rows is not None:
        conn = _open_rows(path, "rw")
        try:
            conn.execute(f"PRAGMA synchronous = {sync}")
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT generation FROM meta").fetchone()
            if row is None or row[0] != rows.generation:
                raise Stale(ROWS_FILE)
            version = rows.version + 1
            conn.execute("DELETE FROM file WHERE version >= ?", (version,))  # a killed save's, which no head names
            conn.execute("DELETE FROM line WHERE version >= ?", (version,))
            conn.execute("DELETE FROM mail WHERE version >= ?", (version,))
            _insert(conn, version, files, lines, mails)
            conn.execute("COMMIT")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()
        return rows.generation, version
    generation = os.urandom(16).hex()
    tmp = path.with_name(f".{ROWS_FILE}.{generation[:8]}.tmp")  # swept by settle when a killed run leaves it
    tmp.unlink(missing_ok=True)
    conn = _open_rows(tmp, "rwc")
    try:
        conn.execute("PRAGMA journal_mode = OFF")  # a new file no reader sees before the rename
        conn.execute(f"PRAGMA synchronous = {sync}")
        conn.executescript(_SCHEMA)
        conn.execute("BEGIN")
        conn.execute("INSERT INTO meta VALUES (?)", (generation,))
        _insert(conn, 1, files, lines, mails)
        conn.execute("COMMIT")
    finally:
        conn.close()
    if journal.exists():  # a killed commit's: rolled back into the old file first, never left beside the new one
        if path.exists():
            old = _open_rows(path, "rw")
            try:
                old.execute("SELECT count(*) FROM meta").fetchone()
            finally:
                old.close()
        journal.unlink(missing_ok=True)
    os.replace(tmp, path)
    return generation, 1


# --- the head -------------------------------------------------------------------------------------------


def _head_hash(f: Any, offset: int) -> str:
    f.seek(0)
    return hashlib.sha256(f.read(min(offset, _HEAD))).hexdigest()


def save(root: Path, ident: tuple[int, int], offset: int, tail: bytes, f: Any, state: dict[str, Any],
         rows: Rows | None, files: list[Any], lines: dict[int, dict[str, Any]], mails: list[MailRow],
         counts: tuple[int, int, int], from_log: FromLog) -> Rows:  # fmt: skip
    """Keep the reading of the log ``f`` up to ``offset`` (``tail``: the bytes just before it): the
    ledger's small fields ``state``, its files, snapshot lines and mail records added since ``rows``
    (all of them when ``rows`` is ``None``) and ``counts`` (how many snapshot numbers it holds, the first and the
    last); ``from_log`` gives the same rows from the log should the file fail later (:class:`Rows`).
    Returns the rows now kept (:raises sqlite3.Error, OSError, ValueError:)."""
    generation, version = _write_rows(root, rows, files, lines, mails)
    count, first, last = counts
    state = state | {"rows": {"generation": generation, "version": version, "count": count, "first": first, "last": last}}
    body = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = {"format": FORMAT, "code": _code_hash(), "device": ident[0], "inode": ident[1], "offset": offset,
              "head": _head_hash(f, offset), "tail": tail.hex(), "crc32": zlib.crc32(body)}  # fmt: skip
    with fileio.relaxed():  # the rows it names are on the disk: a lost head names older ones, or is read afresh
        fileio.atomic_write_bytes(Path(root) / INDEX_FILE, json.dumps(header).encode() + b"\n" + body)
    return Rows(_open_rows(Path(root) / ROWS_FILE, "ro"), generation, version, count, first, last, offset, from_log)


def load(root: Path, ident: tuple[int, int], size: int, f: Any, from_log: FromLog) -> tuple[dict[str, Any], Rows, int, bytes] | None:
    """The kept reading of the log ``f`` (its ``ident`` and ``size`` now): the ledger's small fields as
    JSON values, its rows, the offset to read on from and the bytes just before it; ``None`` when any
    check fails (see the module's doc)."""
    try:
        data = (Path(root) / INDEX_FILE).read_bytes()
    except OSError:
        return None
    _counts["head_bytes"] += len(data)
    first, _, body = data.partition(b"\n")
    try:
        header = json.loads(first)
        offset, tail = int(header["offset"]), bytes.fromhex(str(header["tail"]))
        if (header["format"] != FORMAT or header["code"] != _code_hash() or (header["device"], header["inode"]) != ident
                or not 0 < offset <= size or len(tail) != min(offset, 256) or zlib.crc32(body) != header["crc32"]):  # fmt: skip
            return None
        f.seek(offset - len(tail))
        if f.read(len(tail)) != tail or _head_hash(f, offset) != header["head"]:
            return None
        state = json.loads(body)
        kept = state.pop("rows")
        conn = _open_rows(Path(root) / ROWS_FILE, "ro")
        try:
            row = conn.execute("SELECT generation FROM meta").fetchone()
        except sqlite3.Error:
            conn.close()
            raise
        if row is None or row[0] != kept["generation"]:
            conn.close()
            return None
        rows = Rows(conn, str(kept["generation"]), int(kept["version"]), int(kept["count"]), int(kept["first"]),
                    int(kept["last"]), offset, from_log)  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError, OSError, sqlite3.Error):
        return None
    f.seek(offset)
    return (state, rows, offset, tail) if isinstance(state, dict) else None
