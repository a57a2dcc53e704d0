"""The log: every accepted submission and moderator action, one JSON line each, read once.

The batch run (:mod:`adjudicator.folder.batch`) and the audit (:mod:`adjudicator.folder.audit`) ask it which files
are archived and in force; it is append-only, and a damaged line is reported, never trusted.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

from ..util import fileio
from ..util.lines import split_lines
from . import ledger_index, registry
from .mailbook import MailBook

_ARCHIVE_NAME = re.compile(r"^(\d{6})-")


def sha256(data: bytes) -> str:
    """The SHA-256 of some bytes, in hex: how the record names files and snapshots.

    >>> sha256(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(data).hexdigest()


# --- what the log says ------------------------------------------------------------------------


@dataclass(frozen=True)
class Archived:
    """One accepted submission, as its ``accept`` line in the log records it."""

    index: int
    name: str  # the file name inside archive/
    house: str
    round: int
    step: str
    seq: int
    sha256: str  # of the archived bytes


@dataclass(eq=False)
class Ledger:
    """The log read as bookkeeping: what is archived and in force, what was processed, what was ordered.

    Reading costs one pass over the lines, each line a constant amount of work: the archived files
    in force are indexed by name, by SHA-256 and by (house, round, step), so no question a run asks
    walks the whole game. Within one process the log is read from where the last read stopped
    (:meth:`read`), so a long game does not make each run slower.

    A ledger read on from a kept reading (:mod:`adjudicator.folder.ledger_index`) holds in memory
    only the archived files and snapshot lines read since, and asks the kept rows for the others
    one at a time (:meth:`find`, :meth:`is_accepted`, :meth:`after`, :meth:`highest_for`,
    :meth:`snapshot_line`): :attr:`archived` and :attr:`snapshots` read every row first, and so do a
    rollback and a file accepted again.
    """

    _files: list[Archived] = field(default_factory=list, repr=False)  # in force, by index (with _rows: since them)
    set_aside: dict[str, Archived] = field(default_factory=dict)  # set aside by a rollback
    last_index: int = 0  # highest archive index ever used (set-aside files keep theirs)
    rejected: dict[str, bool] = field(default_factory=dict)  # input sha -> may be retried (early)
    rejected_at: dict[str, int] = field(default_factory=dict)  # input sha -> snapshot it was judged at
    kept: dict[str, str] = field(default_factory=dict)  # refused input sha -> where the file was moved (refused/files/)
    notices: dict[str, dict[str, Any]] = field(default_factory=dict)  # input sha -> its reject line, with receipts;
    # "seal:SHA" -> the unmatched-seal line of a seal that sealed nothing (ruling 195)
    returning: dict[str, Archived] = field(default_factory=dict)  # set aside by a rollback, taken again from archive/
    dropped: dict[str, Archived] = field(default_factory=dict)  # set aside by a rollback for good (--drop)
    unrefused: dict[str, str] = field(default_factory=dict)  # by the last rollback: sha -> refused file to put back
    deadlines: set[int] = field(default_factory=set)  # snapshot numbers a deadline was ordered at
    leaves: dict[int, list[str]] = field(default_factory=dict)  # snapshot -> players maester leave named there (M124)
    open_deadline: int | None = None  # ordered by a run that did not finish: a re-run completes it
    _lines: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)  # logged snapshot lines (with _rows: since them)
    moderator_accepts: set[str] = field(default_factory=set)  # sha256 of normalised unsealed texts
    revealed: str = ""
    setup_sha256: str = ""
    rollback: dict[str, Any] | None = None  # the last rollback line
    rollback_done: bool = True  # its files were all moved aside
    book: DeadlineBook = field(default_factory=lambda: DeadlineBook())  # deadline calls, extensions, reminders
    mail: MailBook = field(default_factory=MailBook)  # what was mailed to whom (maester outbox)
    disorder_fold: dict[str, Any] = field(default_factory=dict, compare=False)  # a cache of the snapshot lines (missed_since())
    # Indexes of `archived`, kept in step with it by add() and _take():
    _by_name: dict[str, Archived] = field(default_factory=dict, repr=False)
    _shas: dict[str, int] = field(default_factory=dict, repr=False)  # sha256 -> archived files with it
    _highest: dict[tuple[str, int, str], int] = field(default_factory=dict, repr=False)
    _in_order: bool = field(default=True, repr=False)  # `_files` is sorted by index
    _rows: ledger_index.Rows | None = field(default=None, repr=False)  # the kept rows this ledger reads on from
    _added: int = field(default=0, repr=False)  # snapshot numbers in `_lines` and not in `_rows`

    @property
    def archived(self) -> list[Archived]:
        """Every archived file in force, by index (every kept row read: ask :meth:`find` or :meth:`after`)."""
        self._whole()
        return self._files

    @property
    def snapshots(self) -> dict[int, dict[str, Any]]:
        """Every logged snapshot line by number (every kept row read: ask :meth:`snapshot_line`)."""
        self._whole()
        return self._lines

    def _whole(self) -> None:
        """Hold every file and snapshot line in memory, the kept rows no longer asked."""
        if self._rows is None:
            return
        files, lines, mails = self._rows.whole()
        self._rows = None
        self._files = [Archived(*a) for a in files] + self._files
        self._index()
        self._lines = lines | self._lines
        self._added = 0
        self.mail.whole(mails)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ledger):
            return NotImplemented
        mine, theirs = self.copy(), other.copy()
        mine._whole()
        theirs._whole()
        mine._sort()
        theirs._sort()
        names = [f for f in self.__dataclass_fields__ if f not in ("disorder_fold", "_rows", "_added", "_in_order")]
        return all(getattr(mine, f) == getattr(theirs, f) for f in names)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _rebase(self, rows: ledger_index.Rows) -> None:
        """Read on from ``rows``, which hold every file and snapshot line this ledger holds."""
        self._rows, self._added = rows, 0
        self._set_archived([])
        self._lines = {}
        self.mail.attach(rows)

    def snapshot_line(self, number: int) -> dict[str, Any] | None:
        """The log's line of snapshot ``number`` (the latest logged), if any."""
        line = self._lines.get(number)
        if line is None and self._rows is not None:
            line = self._rows.line(number)
        return line

    def snapshot_count(self) -> int:
        """How many snapshot numbers the log records."""
        return len(self._lines) if self._rows is None else self._rows.count + self._added

    def first_snapshot(self) -> int:
        """The lowest snapshot number the log records (-1: none)."""
        mine = min(self._lines, default=-1)
        if self._rows is None or self._rows.first < 0:
            return mine
        return self._rows.first if mine < 0 else min(mine, self._rows.first)

    def latest_snapshot(self) -> int:
        """The highest snapshot number the log records (-1: none)."""
        mine = max(self._lines, default=-1)
        return mine if self._rows is None else max(mine, self._rows.last)

    def unlogged(self, numbers: list[int]) -> list[int]:
        """Those of ``numbers`` the log records no snapshot line of (the kept rows asked as a range when
        they are numbered on without gaps)."""
        first, last = self.first_snapshot(), self.latest_snapshot()
        if self.snapshot_count() == last - first + 1:
            return [m for m in numbers if not first <= m <= last]
        return [m for m in numbers if self.snapshot_line(m) is None]

    def put_snapshot(self, line: dict[str, Any]) -> None:
        """Count one more snapshot line (logged, or about to be)."""
        number = int(line["number"])
        if number not in self._lines and (self._rows is None or self._rows.line(number) is None):
            self._added += 1
        self._lines[number] = line

    @classmethod
    def read(cls, root: Path, *, kept: bool = True) -> Ledger:
        """The log of the game folder ``root`` as bookkeeping.

        The log is append-only. This process remembers the ledger at the end of the last read of
        each log, and reads only the lines added since, when the file is the same file, is no
        shorter and still has the same bytes just before where that read stopped; a new process
        starts from the reading the last run kept (:mod:`adjudicator.folder.ledger_index`) under
        the same checks; else, and always with ``kept=False`` (``maester replay``), it reads the
        whole log. Lines that are not JSON objects (a cut write) are skipped.
        """
        path = Path(root) / registry.LOG_FILE
        try:
            f = open(path, "rb")  # noqa: SIM115  (closed by the with below; no log yet is no error)
        except FileNotFoundError:
            return cls()
        with f:
            st = os.fstat(f.fileno())
            ident = (st.st_dev, st.st_ino)
            led, offset, tail, fresh = _resume(path, ident, st.st_size, f, kept)
            data = f.read()
        end = data.rfind(b"\n") + 1  # what follows the last newline is not a finished line yet
        led._take_lines(data[:end])
        led._sort()
        if end or fresh:  # remembered: the next read of this process starts from here
            tail = data[max(0, end - _TAIL) : end] if end >= _TAIL else (tail + data[:end])[-_TAIL:]
            _LEDGERS.pop(path, None)
            while len(_LEDGERS) >= _LEDGERS_KEPT:
                _LEDGERS.pop(next(iter(_LEDGERS)))  # the one read longest ago
            led.missed_since()  # folded before it is remembered: the next read folds on from here
            _LEDGERS[path] = _Read(ident, offset + end, tail, led.copy())
        led._take_lines(data[end:])
        led._sort()
        return led

    def copy(self) -> Ledger:
        """An independent ledger with the same contents (the entries themselves are never changed)."""
        return Ledger(
            _files=list(self._files), set_aside=dict(self.set_aside), last_index=self.last_index,
            rejected=dict(self.rejected), rejected_at=dict(self.rejected_at), kept=dict(self.kept),
            notices=dict(self.notices), returning=dict(self.returning), dropped=dict(self.dropped),
            unrefused=dict(self.unrefused), deadlines=set(self.deadlines),
            leaves={n: list(hs) for n, hs in self.leaves.items()},
            open_deadline=self.open_deadline, _lines=dict(self._lines),
            moderator_accepts=set(self.moderator_accepts), revealed=self.revealed, setup_sha256=self.setup_sha256,
            rollback=self.rollback, rollback_done=self.rollback_done, book=self.book.copy(), mail=self.mail.copy(),
            disorder_fold=self.disorder_fold | {"since": {h: list(ns) for h, ns in self.disorder_fold.get("since", {}).items()}}
            if self.disorder_fold else {}, _by_name=dict(self._by_name),
            _shas=dict(self._shas), _highest=dict(self._highest), _in_order=self._in_order, _rows=self._rows,
            _added=self._added,
        )  # fmt: skip

    def _take_lines(self, data: bytes) -> None:
        _lines_read[0] += data.count(b"\n")
        # Lines end at LF only (adjudicator.util.lines): a U+2028 or NEL inside a logged text (written raw, as
        # json.dumps(ensure_ascii=False) does) must not cut its line in two, losing it.
        for line in split_lines(data.decode("utf-8", errors="replace")):  # a damaged line fails as JSON
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if not isinstance(e, dict):
                continue
            try:
                self._take(e)
            except (KeyError, TypeError, ValueError):
                continue  # a line some other tool wrote differently: not ours to judge

    def _take(self, e: dict[str, Any]) -> None:
        action = e.get("action")
        if action == "accept":
            file = str(e.get("file", ""))
            name = file.rpartition("/")[2]  # as Path(file).name, which costs ten times as much, for the log's paths
            if name in ("", "."):
                name = Path(file).name
            m = _ARCHIVE_NAME.match(name)
            if not m:
                return  # not one of ours
            # A file taken again from the archive after a rollback keeps its name; its new place in the
            # order of acceptances is the line's "index" (ruling 301).
            index = int(e["index"]) if "index" in e else int(m[1])
            a = Archived(index, name, str(e["house"]), int(e["round"]), str(e["step"]), int(e["seq"]), str(e["sha256"]))
            if name in self._by_name or (self._rows is not None and self._rows.find(name) is not None):
                self._whole()  # accepted again under the same name: the later line counts
                self._set_archived([x for x in self._files if x.name != name])
            self.add(a)
        elif action == "reject":
            sha = str(e["sha256"])
            self.rejected[sha] = bool(e.get("retry", False))
            self.rejected_at[sha] = int(e.get("at", 0))
            if isinstance(e.get("kept"), str):
                self.kept[sha] = e["kept"]
            if isinstance(e.get("receipts"), dict):
                self.notices[sha] = e
            if isinstance(e.get("returning"), str):  # a file a rollback gave back, refused this time: it stays aside
                self.returning.pop(e["returning"], None)
        elif action == "unmatched-seal":  # a seal that sealed nothing, told to the house its key names (ruling 195)
            if isinstance(e.get("receipts"), dict):
                self.notices[f"seal:{e['sha256']}"] = e
        elif action == "deadline":
            self.deadlines.add(int(e["at"]))
            self.open_deadline = int(e["at"])
            self.book.calls[int(e["at"])] = e
        elif action == "leave":
            at, house = int(e["at"]), str(e["house"])
            if house not in self.leaves.get(at, []):
                self.leaves[at] = [*self.leaves.get(at, []), house]
        elif action == "deadline-done":
            self.open_deadline = None
        elif action == "snapshot":
            if not isinstance(e.get("applied"), list):
                raise TypeError("a snapshot line lists the archived files it applied")
            number = int(e["number"])
            if number <= self.disorder_fold.get("through", -1):  # logged again: fold them all anew
                self.disorder_fold = {}
            self.put_snapshot(e)
        elif action == "rollback":
            to = int(e["to"])
            if not re.fullmatch(r"rolled-back-\d+", str(e["folder"])):
                raise ValueError("a rollback sets its files aside in states/rolled-back-K/ only")
            self._whole()
            gone = set(e.get("set_aside_files", []))
            aside = {a.name: a for a in self._files if a.name in gone}
            self.set_aside.update(aside)
            self._set_archived([a for a in self._files if a.name not in gone])
            # A rollback line of ruling 301 says which files come back from the archive and which are
            # dropped for good; an older line says neither: its files came back only when sent again.
            dropped = set(e.get("dropped", []))
            self.dropped.update({n: a for n, a in self.set_aside.items() if n in dropped})
            if "returning" in e:
                back = set(e["returning"])
                self.returning = {n: a for n, a in self.returning.items() if n not in dropped}
                self.returning.update({n: a for n, a in self.set_aside.items() if n in back and n not in dropped})
            self.deadlines = {d for d in self.deadlines if d < to}
            self.leaves = {n: hs for n, hs in self.leaves.items() if n <= to}  # said at a step kept: they stand
            self.book.calls = {d: c for d, c in self.book.calls.items() if d < to}
            self.open_deadline = None
            self._lines = {n: s for n, s in self._lines.items() if n <= to}
            self.disorder_fold = {}
            later = {sha for sha, at in self.rejected_at.items() if at > to}  # judged against an undone step
            self.rejected = {k: v for k, v in self.rejected.items() if k not in later}
            self.unrefused = {sha: self.kept[sha] for sha in later if sha in self.kept}
            self.kept = {k: v for k, v in self.kept.items() if k not in later}
            self.notices = {k: v for k, v in self.notices.items() if k not in later}
            self.mail.rolled_back(e)
            self.rollback, self.rollback_done = e, False
        elif action == "rollback-done":
            self.rollback_done = True
        elif action == "setup":
            self.setup_sha256 = str(e.get("sha256", ""))
        elif action == "moderator-accept":
            self.moderator_accepts.add(str(e.get("sha256", "")))
        elif action == "reveal":
            self.revealed = str(e.get("seed", ""))
        elif action in ("outbox", "mailed", "reply"):
            self.mail.take(e)
        else:
            self.book.take(e, self.latest_snapshot())

    def missed_since(self) -> dict[str, Any] | None:
        """The snapshot lines folded for civil disorder (issue 31), brought up to the latest; ``None``
        when they are not numbered on without gaps (a damaged log: the caller reads them all).

        ``first`` and ``through``: the first and last snapshot folded; ``count``: how many; ``since``:
        by house, the snapshots at which it missed a deadline since the last one that applied a file
        of it, in order. A rollback, or a snapshot line logged again, empties the fold; a read of the
        log carries it on (within a process, each run folds only the steps since the last).
        """
        if not self.snapshot_count():
            return None
        fold = self.disorder_fold
        if not fold:
            first = self.first_snapshot()
            fold.update(first=first, through=first - 1, count=0, since={})
        n, since = int(fold["through"]) + 1, fold["since"]
        while (line := self.snapshot_line(n)) is not None:
            for name in line["applied"]:  # a list: a snapshot line without one is not taken
                a = self.find(str(name))
                if a is not None:
                    since[a.house] = []
            missed = line.get("missed", [])
            for h in missed if isinstance(missed, list) else []:  # damaged: no misses, as a whole reading says
                since.setdefault(str(h), []).append(n)
            n += 1
        fold["count"] += n - 1 - int(fold["through"])
        fold["through"] = n - 1
        return fold if fold["count"] == self.snapshot_count() else None

    def add(self, a: Archived) -> None:
        """Count one more archived file in force (its ``accept`` line is in the log, or about to be)."""
        if self._files and a.index < self._files[-1].index:
            self._in_order = False
        self._files.append(a)
        self._by_name[a.name] = a
        self._shas[a.sha256] = self._shas.get(a.sha256, 0) + 1
        k = (a.house, a.round, a.step)
        self._highest[k] = max(self._highest.get(k, 0), a.seq)
        self.set_aside.pop(a.name, None)
        self.returning.pop(a.name, None)
        self.last_index = max(self.last_index, a.index, archive_number(a.name))

    def _index(self) -> None:
        """Build the indexes of ``_files`` from it."""
        self._by_name = {a.name: a for a in self._files}
        self._shas, self._highest = {}, {}
        for a in self._files:
            self._shas[a.sha256] = self._shas.get(a.sha256, 0) + 1
            k = (a.house, a.round, a.step)
            self._highest[k] = max(self._highest.get(k, 0), a.seq)
        self._in_order = all(x.index <= y.index for x, y in zip(self._files, self._files[1:], strict=False))

    def _set_archived(self, archived: list[Archived]) -> None:
        """Replace the files in force (after a rollback, or a file accepted again): the indexes are rebuilt."""
        last = self.last_index
        self._files, self._by_name, self._shas, self._highest, self._in_order = [], {}, {}, {}, True
        for a in archived:
            self.add(a)
        self.last_index = last

    def _sort(self) -> None:
        if not self._in_order:
            self._files.sort(key=lambda a: a.index)
            self._in_order = True

    def is_dropped(self, sha: str) -> bool:
        """Whether a rollback dropped a file with these bytes for good (``--drop``): it is never taken again."""
        return any(a.sha256 == sha for a in self.dropped.values())

    def accepted_shas(self) -> set[str]:
        """The SHA-256 of every archived file in force (a new set; every kept row read)."""
        self._whole()
        return set(self._shas)

    def is_accepted(self, sha: str) -> bool:
        """Whether an archived file in force has these bytes."""
        return sha in self._shas or (self._rows is not None and self._rows.has_sha(sha))

    def find(self, name: str) -> Archived | None:
        """The archived file of that name, in force or set aside by a rollback."""
        a = self._by_name.get(name)
        if a is None and self._rows is not None and (row := self._rows.find(name)) is not None:
            a = Archived(*row)
        return a or self.set_aside.get(name)

    def after(self, index: int) -> list[Archived]:
        """The archived files in force with an index above ``index``, in order."""
        self._sort()
        mine = self._files[bisect.bisect_right(self._files, index, key=lambda a: a.index) :]
        if self._rows is None:
            return mine
        return [Archived(*row) for row in self._rows.after(index)] + mine  # the rows' indexes are all below mine

    def highest(self) -> dict[tuple[str, int, str], int]:
        """The highest sequence number in force per (house, round, step): a rollback frees its files' (a new
        dict; every kept row read: ask :meth:`highest_for`)."""
        self._whole()
        return dict(self._highest)

    def highest_for(self, round: int, step: str) -> dict[tuple[str, int, str], int]:
        """:meth:`highest` for one round and step only (the one a file may be accepted for)."""
        best = self._rows.highest(round, step) if self._rows is not None else {}
        for (house, r, s), seq in self._highest.items():
            if (r, s) == (round, step):
                best[(house, r, s)] = max(best.get((house, r, s), 0), seq)
        return best


@dataclass
class DeadlineBook:
    """What the log says about deadlines besides the calls' snapshot numbers (``adjudicator.folder.deadlines`` reads it).

    None of it is undone by a rollback but the calls: an extension granted, a reminder mailed or a
    key registered happened, whatever step the game went back to.
    """

    calls: dict[int, dict[str, Any]] = field(default_factory=dict)  # snapshot -> its deadline line (now, keys)
    extensions: list[dict[str, Any]] = field(default_factory=list)  # extend lines
    reminded: set[tuple[str, str]] = field(default_factory=set)  # (request key, due time) a reminder was mailed for
    key_changes: dict[str, int] = field(default_factory=dict)  # house -> latest snapshot logged when it got a key
    disorder_starts: set[tuple[str, int]] = field(default_factory=set)  # (house, snapshot) civil-disorder lines
    disorder_ends: set[tuple[str, int]] = field(default_factory=set)  # (house, snapshot) civil-disorder-end lines

    def take(self, e: dict[str, Any], latest: int) -> None:
        """Read one log line of the kinds this book keeps (others are not its business)."""
        action = e.get("action")
        if action == "extend":
            self.extensions.append({"house": str(e["house"]), "round": int(e["round"]), "step": str(e["step"]),
                                    "hours": int(e["hours"])})  # fmt: skip
        elif action == "remind":
            self.reminded.update((str(r["key"]), str(r["due"])) for r in e["requests"])
        elif action == "register-key":
            self.key_changes[str(e["house"])] = latest
        elif action == "civil-disorder":
            self.disorder_starts.add((str(e["house"]), int(e["at"])))
        elif action == "civil-disorder-end":
            self.disorder_ends.add((str(e["house"]), int(e["at"])))

    def copy(self) -> DeadlineBook:
        return DeadlineBook(dict(self.calls), list(self.extensions), set(self.reminded), dict(self.key_changes),
                            set(self.disorder_starts), set(self.disorder_ends))  # fmt: skip


@dataclass
class _Read:
    """Where this process last stopped reading one log, and the ledger it had read by then."""

    ident: tuple[int, int]  # the file's device and inode
    offset: int
    tail: bytes  # the bytes just before `offset`: a log rewritten in place differs there
    ledger: Ledger


_LEDGERS: dict[Path, _Read] = {}  # by log path; the oldest is forgotten first
_LEDGERS_KEPT = 64
_TAIL = 256
_KEPT: dict[Path, tuple[tuple[int, int], int]] = {}  # by log path: the log and offset of the reading kept beside it
_lines_read = [0]  # log lines this process has read, all logs together (lines_read())


def forget_reads() -> None:
    """Forget every log this process read: the next read of each is a new command's (benchmarks, tests)."""
    _LEDGERS.clear()
    _KEPT.clear()


def lines_read() -> int:
    """How many log lines this process has read so far: a run reads only what was appended since the last."""
    return _lines_read[0]


def _resume(path: Path, ident: tuple[int, int], size: int, f: Any, kept: bool) -> tuple[Ledger, int, bytes, bool]:
    """A copy of the ledger this process read from ``path`` before, the offset to read on from and
    the bytes just before it; else the reading the last run kept beside the log; a fresh ledger at
    offset 0 when neither is of the log as it is, or without ``kept`` (the log read whole). Last,
    whether the ledger is not one this process remembers."""
    last = _LEDGERS.get(path) if kept else None
    if last is not None and last.ident == ident and last.offset <= size:
        f.seek(last.offset - len(last.tail))
        if f.read(len(last.tail)) == last.tail:
            return last.ledger.copy(), last.offset, last.tail, False
    if kept and (got := ledger_index.load(path.parent, ident, size, f, _from_log(path))) is not None:
        state, rows, offset, tail = got
        try:
            led = ledger_index.decode(state, Ledger, DeadlineBook, MailBook, Archived)
        except (KeyError, TypeError, ValueError):
            led = None
        if led is not None:
            led._rows = rows
            led.mail.attach(rows)
            f.seek(offset)
            _KEPT[path] = (ident, offset)
            return led, offset, tail, True
    f.seek(0)
    return Ledger(), 0, b"", True


def _from_log(path: Path) -> Any:
    """What kept rows hold, from the log read whole up to their head's offset (should their file fail)."""

    def read(offset: int) -> ledger_index.Whole:
        with open(path, "rb") as f:
            data = f.read(offset)
        led = Ledger()
        led._take_lines(data)
        led._sort()
        mails: dict[str, list[tuple[str, int, dict[str, Any]]]] = {}
        for kind, key, at, rec in led.mail.unsaved():
            mails.setdefault(kind, []).append((key, at, rec))
        for got in mails.values():
            got.sort(key=lambda row: row[1])
        return [(a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256) for a in led._files], led._lines, mails

    return read


def log_size(root: Path) -> int:
    """The size of the log of ``root`` in bytes (-1 when there is none): whether a command appended to it."""
    try:
        return os.stat(Path(root) / registry.LOG_FILE).st_size
    except OSError:
        return -1


def keep_reading(root: Path) -> None:
    """Keep this process's reading of the log of ``root``, brought up to its end, beside it for the
    next command (:mod:`adjudicator.folder.ledger_index`); the caller holds the folder's lock.
    Nothing is kept when the log cannot be read or the ledger holds what the file cannot."""
    path = Path(root) / registry.LOG_FILE
    Ledger.read(root)  # reads on: the lines this run appended
    last = _LEDGERS.get(path)
    if last is None or _KEPT.get(path) == (last.ident, last.offset):
        return  # nothing read since the reading kept (or nothing to keep)
    led = last.ledger
    try:
        with open(path, "rb") as f:
            if (os.fstat(f.fileno()).st_dev, os.fstat(f.fileno()).st_ino) != last.ident:
                return
            state = ledger_index.encode(led)
            try:
                rows = _save(path, last, f, state, led)
            except ledger_index.Stale:  # the file holds other rows than those this ledger reads on from
                led._whole()
                rows = _save(path, last, f, state, led)
        _KEPT[path] = (last.ident, last.offset)
    except (OSError, ValueError, sqlite3.Error):
        return  # a cache: the next command reads the log
    led._rebase(rows)  # what it holds is in the rows now: the next save adds only what follows


def _save(path: Path, last: _Read, f: Any, state: dict[str, Any], led: Ledger) -> ledger_index.Rows:
    led._sort()
    counts = (led.snapshot_count(), led.first_snapshot(), led.latest_snapshot())
    return ledger_index.save(path.parent, last.ident, last.offset, last.tail, f, state, led._rows, led._files,
                             led._lines, led.mail.unsaved(), counts, _from_log(path))  # fmt: skip


def archive_number(name: str) -> int:
    """The number an archived file's name starts with (0 for another name).

    >>> archive_number("000012-stark-r2-action-seq1.txt")
    12
    """
    m = _ARCHIVE_NAME.match(name)
    return int(m[1]) if m else 0


def now() -> str:
    """The time a log line is stamped with (UTC, to the second)."""
    from datetime import datetime

    return datetime.now(UTC).isoformat(timespec="seconds")


def log(root: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """Append one line to the game's log (flushed to disk), stamped with the time unless it has one; returns it."""
    entry = {"time": now(), **entry}
    fileio.append_line(root / registry.LOG_FILE, json.dumps(entry, ensure_ascii=False, sort_keys=True))
    return entry


_DIGITS = frozenset("0123456789")


def snapshot_numbers(states: Path) -> list[int]:
    """The numbers of the snapshots in force in ``states/`` (the names ``NNNN.toml``; rolled-back ones
    live in sub-folders)."""
    try:
        names = os.listdir(states)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return numbers_in(names)


def numbers_in(names: list[str] | None) -> list[int]:
    """:func:`snapshot_numbers` of the names a listing of ``states/`` gave (``None``: no folder)."""
    return sorted(int(n[:4]) for n in names or () if len(n) == 9 and n.endswith(".toml") and _DIGITS.issuperset(n[:4]))


def in_force(ledger: Ledger, numbers: list[int]) -> list[int]:
    """The snapshot numbers that stand once a rollback the log records but a killed run did not
    finish has moved its snapshots aside (all of them when there is none)."""
    if ledger.rollback is None or ledger.rollback_done:
        return numbers
    to = int(ledger.rollback["to"])
    return [n for n in numbers if n <= to]


def log_lost(root: Path, ledger: Ledger, numbers: list[int]) -> str | None:
    """What the log fails to record of a folder with snapshots ``numbers`` (ruling 170), or ``None``.

    The log must record the setup and every snapshot but the latest (a run killed between the
    snapshot and its log line leaves the latest unrecorded). A log lost or cut short fails this:
    a run on it would number new archived files from 1 again, over the turns archived before.
    The snapshots a rollback logged but not finished sets aside are not asked for: the rollback
    line undid their lines, and the next command moves them (ruling 331).
    """
    numbers = in_force(ledger, numbers)
    if not numbers:
        return None
    unrecorded = [f"snapshot {m:04d}" for m in ledger.unlogged(numbers[:-1])]
    if ledger.setup_sha256 and not unrecorded:
        return None
    what = unrecorded[0] if unrecorded else "the setup"
    return (f"{Path(root) / registry.LOG_FILE} does not record {what}: the log was lost or cut short; restore it "
            "from a backup (nothing was changed, and nothing will be until it is back: it holds every acceptance)")
