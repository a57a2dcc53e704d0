"""The log's kept reading: where the last run stopped reading the log, and what it had read by then.

A new command would otherwise read the whole log to know what is archived, refused, mailed and
ordered, so a run would cost more the longer the game had lasted. ``maester adjudicate`` keeps,
at the end of each run, the ledger it read (:class:`adjudicator.folder.ledger.Ledger`) beside the
log, with the offset it read to; the next command loads it and reads the log on from that offset.

It is kept in two files, so that a run reads of it only what it asks, however long the game:

* ``ledger.json``, the head, read whole: the checks below, the ledger's small fields (refusals,
  deadlines, mails, set-aside files...) and which rows of the other file it covers;
* ``ledger.sqlite``, the rows, read in part: one row per archived file in force and per snapshot
  line, the two things that grow with every step. A run asks it for the few it needs through its
  indexes (one file by name or by hash, the files after an index, the highest sequence numbers of
  one step, one snapshot line); only a rollback or a file accepted again reads every row. A
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..util import fileio

INDEX_FILE = "ledger.json"
ROWS_FILE = "ledger.sqlite"
FORMAT = 2
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
# tuples; "setmap": a dict of sets; "archmap": a dict of Archived by name. (The archived files in force and
# the snapshot lines are rows: class Rows.)
LEDGER_FIELDS = {
    "set_aside": "archmap", "last_index": "json", "rejected": "json", "rejected_at": "json",
    "kept": "json", "notices": "json", "returning": "archmap", "dropped": "archmap", "unrefused": "json",
    "deadlines": "set", "leaves": "intkeys", "open_deadline": "json",
    "moderator_accepts": "set", "revealed": "json", "setup_sha256": "json", "rollback": "json",
    "rollback_done": "json", "disorder_fold": "json",
}  # fmt: skip
BOOK_FIELDS = {"calls": "intkeys", "extensions": "json", "reminded": "tuples", "key_changes": "json",
               "disorder_starts": "tuples", "disorder_ends": "tuples"}  # fmt: skip
MAIL_FIELDS = {"written": "json", "current": "json", "mailed": "json", "through": "json", "delivered": "setmap",
               "undone": "json", "first_mailed": "intkeys", "lines": "json", "replies": "set", "last_folder": "json"}  # fmt: skip


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
    return {n: _enc(kinds[n], getattr(obj, n)) for n in kinds}


def encode(ledger: Any) -> dict[str, Any]:
    """The ledger's small fields as JSON values (:raises ValueError: for a field the codec does not know)."""
    out = _fields(ledger, LEDGER_FIELDS)
    out["book"] = _fields(ledger.book, BOOK_FIELDS)
    out["mail"] = _fields(ledger.mail, MAIL_FIELDS)
    return out


def decode(data: dict[str, Any], ledger_cls: Any, book_cls: Any, mail_cls: Any, archived_cls: Any) -> Any:
    """The ledger :func:`encode` gave, without its rows (:raises KeyError, TypeError, ValueError: when it is not one)."""
    book = book_cls(**{n: _dec(k, data["book"][n], archived_cls) for n, k in BOOK_FIELDS.items()})
    mail = mail_cls(**{n: _dec(k, data["mail"][n], archived_cls) for n, k in MAIL_FIELDS.items()})
    return ledger_cls(book=book, mail=mail, **{n: _dec(k, data[n], archived_cls) for n, k in LEDGER_FIELDS.items()})


# --- the rows -------------------------------------------------------------------------------------------


# The rows, from the log read whole up to an offset: (files in force as tuples, snapshot lines by number).
FromLog = Callable[[int], tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]]]]


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
        self._mem: tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]]] | None = None

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

    def whole(self) -> tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]]]:
        """Every file in force and every snapshot line (a rollback, a file accepted again)."""
        _counts["whole"] += 1
        return self._whole()

    def _whole(self) -> tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]]]:
        files = self._query(f"SELECT {_FILE_COLUMNS} FROM file WHERE version <= ? ORDER BY idx")
        texts = self._query("SELECT number, text FROM line WHERE version <= ? ORDER BY number, version")
        if files is None or texts is None:
            if self._mem is None:
                self._mem = self.from_log(self.offset)
            return self._mem
        return files, {number: json.loads(text) for number, text in texts}


def _open_rows(path: Path, mode: str) -> sqlite3.Connection:
    # isolation_level=None: no transaction is opened behind our back; the writes open their own.
    return sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                           check_same_thread=False)  # fmt: skip


class Stale(Exception):
    """The rows' file holds another generation than the rows a ledger reads on from: write them all."""


def _insert(conn: sqlite3.Connection, version: int, files: list[Any], lines: dict[int, dict[str, Any]]) -> None:
    conn.executemany(f"INSERT INTO file({_FILE_COLUMNS}, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     [(a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256, version) for a in files])  # fmt: skip
    conn.executemany("INSERT INTO line VALUES (?, ?, ?)",
                     [(n, version, json.dumps(e, ensure_ascii=False, sort_keys=True)) for n, e in lines.items()])  # fmt: skip


def _write_rows(root: Path, rows: Rows | None, files: list[Any], lines: dict[int, dict[str, Any]]) -> tuple[str, int]:
    """Add ``files`` and ``lines`` to the rows ``rows`` names, under the next version, in one
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
            _insert(conn, version, files, lines)
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
        _insert(conn, 1, files, lines)
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
         rows: Rows | None, files: list[Any], lines: dict[int, dict[str, Any]], counts: tuple[int, int, int],
         from_log: FromLog) -> Rows:  # fmt: skip
    """Keep the reading of the log ``f`` up to ``offset`` (``tail``: the bytes just before it): the
    ledger's small fields ``state``, its files and snapshot lines added since ``rows`` (all of them
    when ``rows`` is ``None``) and ``counts`` (how many snapshot numbers it holds, the first and the
    last); ``from_log`` gives the same rows from the log should the file fail later (:class:`Rows`).
    Returns the rows now kept (:raises sqlite3.Error, OSError, ValueError:)."""
    generation, version = _write_rows(root, rows, files, lines)
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
