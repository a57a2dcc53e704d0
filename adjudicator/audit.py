"""The game's record and its audit: snapshots, the log, the archive, one step's derivation; replay.

The record of a game folder is append-only: every accepted file in ``archive/`` with its
``accept`` line in ``log``, every moderator action (deadline, rollback, reveal) in ``log``, and a
snapshot per resolved step in ``states/NNNN.toml`` naming the archived files it applied. One pure
function, :func:`derive`, takes a snapshot and archived files to the next snapshot; the batch run
(:mod:`adjudicator.batch`) and :func:`replay` both use it, so anyone holding the folder can re-derive
every state byte for byte. See ``docs/game-folder.md``.
"""

from __future__ import annotations

import bisect
import copy
import dataclasses
import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from . import fileio, registry
from .board import Board
from .commands import to_dict
from .events import PUBLIC, DefaultUsed, Event
from .gamedir import GameDir, GameDirError
from .header import Header, HeaderError, find_header
from .rules import machine
from .rules.machine import Request, pool_entry
from .seal import NoSeal, SealError, decode, normalise, scan
from .state import GameState

SETUP_NAME = "setup.toml"
PENDING_FILE = "pending"
PENDING_JSON = "pending.json"
_ARCHIVE_NAME = re.compile(r"^(\d{6})-")
_DIGITS = frozenset("0123456789")

class BatchError(GameDirError):
    """The game folder cannot be adjudicated as it is (exit status 2), with what to do about it."""


class CorruptFolder(BatchError):
    """A state or snapshot file that does not read back, or disagrees with the others."""


# --- snapshots --------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """One resolved step: the state and what was applied to reach it (``states/NNNN.toml``)."""

    number: int
    state: GameState
    applied: list[str] = field(default_factory=list)  # archive names applied in this step
    applied_through: int = 0  # every archived file up to this index was considered
    deadline: bool = False  # the open requests took their defaults
    defaults: list[str] = field(default_factory=list)  # keys of the requests filled by default
    since: dict[str, int] = field(default_factory=dict)  # open request key -> snapshot it appeared in
    previous_sha256: str = ""

    def to_toml(self) -> str:
        meta: dict[str, Any] = {
            "number": self.number, "applied": list(self.applied), "applied_through": self.applied_through,
            "deadline": self.deadline, "defaults": list(self.defaults), "since": dict(self.since),
            "previous_sha256": self.previous_sha256,
        }  # fmt: skip
        return tomli_w.dumps({**self.state.to_dict(), "snapshot": meta})

    @classmethod
    def from_toml(cls, text: str, *, where: str) -> Snapshot:
        """:raises CorruptFolder: when the text is not a snapshot."""
        try:
            data = tomllib.loads(text)
            meta = data.pop("snapshot")
            return cls(
                number=int(meta["number"]), state=GameState.from_dict(data), applied=list(meta["applied"]),
                applied_through=int(meta["applied_through"]), deadline=bool(meta["deadline"]),
                defaults=list(meta["defaults"]), since={str(k): int(v) for k, v in meta["since"].items()},
                previous_sha256=str(meta["previous_sha256"]),
            )  # fmt: skip
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise CorruptFolder(f"{where} is not a readable snapshot ({type(e).__name__}: {e})") from None

    def label(self) -> str:
        """``0003-r1-action``: the name of this step's report folder."""
        return f"{self.number:04d}-r{self.state.round}-{self.state.phase}"

    def requests(self) -> list[Request]:
        return [Request.from_dict(p) for p in self.state.pending]


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


@dataclass
class Ledger:
    """The log read as bookkeeping: what is archived and in force, what was processed, what was ordered.

    Reading costs one pass over the lines, each line a constant amount of work: the archived files
    in force are indexed by name, by SHA-256 and by (house, round, step), so no question a run asks
    walks the whole game. Within one process the log is read from where the last read stopped
    (:meth:`read`), so a long game does not make each run slower.
    """

    archived: list[Archived] = field(default_factory=list)  # in force, by index; change it only with add()
    set_aside: dict[str, Archived] = field(default_factory=dict)  # set aside by a rollback
    last_index: int = 0  # highest archive index ever used (set-aside files keep theirs)
    rejected: dict[str, bool] = field(default_factory=dict)  # input sha -> may be retried (early)
    rejected_at: dict[str, int] = field(default_factory=dict)  # input sha -> snapshot it was judged at
    deadlines: set[int] = field(default_factory=set)  # snapshot numbers a deadline was ordered at
    open_deadline: int | None = None  # ordered by a run that did not finish: a re-run completes it
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)  # logged snapshot lines
    moderator_accepts: set[str] = field(default_factory=set)  # sha256 of normalised unsealed texts
    revealed: str = ""
    setup_sha256: str = ""
    rollback: dict[str, Any] | None = None  # the last rollback line
    rollback_done: bool = True  # its files were all moved aside
    # Indexes of `archived`, kept in step with it by add() and _take():
    _by_name: dict[str, Archived] = field(default_factory=dict, repr=False)
    _shas: dict[str, int] = field(default_factory=dict, repr=False)  # sha256 -> archived files with it
    _highest: dict[tuple[str, int, str], int] = field(default_factory=dict, repr=False)
    _in_order: bool = field(default=True, repr=False)  # `archived` is sorted by index

    @classmethod
    def read(cls, root: Path) -> Ledger:
        """The log of the game folder ``root`` as bookkeeping.

        The log is append-only. This process remembers the ledger at the end of the last read of
        each log, and reads only the lines added since, when the file is the same file, is no
        shorter and still has the same bytes just before where that read stopped; else it reads
        the whole log again. Lines that are not JSON objects (a cut write) are skipped.
        """
        path = Path(root) / registry.LOG_FILE
        try:
            f = open(path, "rb")
        except FileNotFoundError:
            return cls()
        with f:
            st = os.fstat(f.fileno())
            ident = (st.st_dev, st.st_ino)
            led, offset, tail = _resume(path, ident, st.st_size, f)
            data = f.read()
        end = data.rfind(b"\n") + 1  # what follows the last newline is not a finished line yet
        led._take_lines(data[:end])
        led._sort()
        if end:
            tail = data[max(0, end - _TAIL) : end] if end >= _TAIL else (tail + data[:end])[-_TAIL:]
            _LEDGERS.pop(path, None)
            while len(_LEDGERS) >= _LEDGERS_KEPT:
                _LEDGERS.pop(next(iter(_LEDGERS)))  # the one read longest ago
            _LEDGERS[path] = _Read(ident, offset + end, tail, led.copy())
        led._take_lines(data[end:])
        led._sort()
        return led

    def copy(self) -> Ledger:
        """An independent ledger with the same contents (the entries themselves are never changed)."""
        return Ledger(
            archived=list(self.archived), set_aside=dict(self.set_aside), last_index=self.last_index,
            rejected=dict(self.rejected), rejected_at=dict(self.rejected_at), deadlines=set(self.deadlines),
            open_deadline=self.open_deadline, snapshots=dict(self.snapshots),
            moderator_accepts=set(self.moderator_accepts), revealed=self.revealed, setup_sha256=self.setup_sha256,
            rollback=self.rollback, rollback_done=self.rollback_done, _by_name=dict(self._by_name),
            _shas=dict(self._shas), _highest=dict(self._highest), _in_order=self._in_order,
        )  # fmt: skip

    def _take_lines(self, data: bytes) -> None:
        # Lines split as str.splitlines splits them, as every reader of the log does.
        for line in data.decode("utf-8", errors="replace").splitlines():  # a damaged line fails as JSON
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
            name = Path(str(e.get("file", ""))).name
            m = _ARCHIVE_NAME.match(name)
            if not m:
                return  # not one of ours
            a = Archived(int(m[1]), name, str(e["house"]), int(e["round"]), str(e["step"]), int(e["seq"]), str(e["sha256"]))
            if name in self._by_name:  # accepted again under the same name: the later line counts
                self._set_archived([x for x in self.archived if x.name != name])
            self.add(a)
        elif action == "reject":
            self.rejected[str(e["sha256"])] = bool(e.get("retry", False))
            self.rejected_at[str(e["sha256"])] = int(e.get("at", 0))
        elif action == "deadline":
            self.deadlines.add(int(e["at"]))
            self.open_deadline = int(e["at"])
        elif action == "deadline-done":
            self.open_deadline = None
        elif action == "snapshot":
            if not isinstance(e.get("applied"), list):
                raise TypeError("a snapshot line lists the archived files it applied")
            self.snapshots[int(e["number"])] = e
        elif action == "rollback":
            to = int(e["to"])
            if not re.fullmatch(r"rolled-back-\d+", str(e["folder"])):
                raise ValueError("a rollback sets its files aside in states/rolled-back-K/ only")
            gone = set(e.get("set_aside_files", []))
            self.set_aside.update({a.name: a for a in self.archived if a.name in gone})
            self._set_archived([a for a in self.archived if a.name not in gone])
            self.deadlines = {d for d in self.deadlines if d < to}
            self.open_deadline = None
            self.snapshots = {n: s for n, s in self.snapshots.items() if n <= to}
            later = {sha for sha, at in self.rejected_at.items() if at > to}  # judged against an undone step
            self.rejected = {k: v for k, v in self.rejected.items() if k not in later}
            self.rollback, self.rollback_done = e, False
        elif action == "rollback-done":
            self.rollback_done = True
        elif action == "setup":
            self.setup_sha256 = str(e.get("sha256", ""))
        elif action == "moderator-accept":
            self.moderator_accepts.add(str(e.get("sha256", "")))
        elif action == "reveal":
            self.revealed = str(e.get("seed", ""))

    def add(self, a: Archived) -> None:
        """Count one more archived file in force (its ``accept`` line is in the log, or about to be)."""
        if self.archived and a.index < self.archived[-1].index:
            self._in_order = False
        self.archived.append(a)
        self._by_name[a.name] = a
        self._shas[a.sha256] = self._shas.get(a.sha256, 0) + 1
        k = (a.house, a.round, a.step)
        self._highest[k] = max(self._highest.get(k, 0), a.seq)
        self.set_aside.pop(a.name, None)
        self.last_index = max(self.last_index, a.index)

    def _set_archived(self, archived: list[Archived]) -> None:
        """Replace the files in force (after a rollback, or a file accepted again): the indexes are rebuilt."""
        last = self.last_index
        self.archived, self._by_name, self._shas, self._highest, self._in_order = [], {}, {}, {}, True
        for a in archived:
            self.add(a)
        self.last_index = last

    def _sort(self) -> None:
        if not self._in_order:
            self.archived.sort(key=lambda a: a.index)
            self._in_order = True

    def accepted_shas(self) -> set[str]:
        """The SHA-256 of every archived file in force (a new set)."""
        return set(self._shas)

    def is_accepted(self, sha: str) -> bool:
        """Whether an archived file in force has these bytes."""
        return sha in self._shas

    def find(self, name: str) -> Archived | None:
        """The archived file of that name, in force or set aside by a rollback."""
        return self._by_name.get(name) or self.set_aside.get(name)

    def after(self, index: int) -> list[Archived]:
        """The archived files in force with an index above ``index``, in order."""
        self._sort()
        return self.archived[bisect.bisect_right(self.archived, index, key=lambda a: a.index) :]

    def highest(self) -> dict[tuple[str, int, str], int]:
        """The highest sequence number in force per (house, round, step): a rollback frees its files' (a new dict)."""
        return dict(self._highest)


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


def _resume(path: Path, ident: tuple[int, int], size: int, f: Any) -> tuple[Ledger, int, bytes]:
    """A copy of the ledger this process read from ``path`` before, the offset to read on from and
    the bytes just before it; a fresh ledger at offset 0 when the log is not the one read then."""
    last = _LEDGERS.get(path)
    if last is not None and last.ident == ident and last.offset <= size:
        f.seek(last.offset - len(last.tail))
        if f.read(len(last.tail)) == last.tail:
            return last.ledger.copy(), last.offset, last.tail
    f.seek(0)
    return Ledger(), 0, b""


def log(root: Path, entry: dict[str, Any]) -> None:
    """Append one line to the game's log (flushed to disk), stamped with the time unless it has one."""
    entry = {"time": _now(), **entry}
    fileio.append_line(root / registry.LOG_FILE, json.dumps(entry, ensure_ascii=False, sort_keys=True))


def log_lost(root: Path, ledger: Ledger, numbers: list[int]) -> str | None:
    """What the log fails to record of a folder with snapshots ``numbers`` (ruling 170), or ``None``.

    The log must record the setup and every snapshot but the latest (a run killed between the
    snapshot and its log line leaves the latest unrecorded). A log lost or cut short fails this:
    a run on it would number new archived files from 1 again, over the turns archived before.
    """
    if not numbers:
        return None
    unrecorded = [f"snapshot {m:04d}" for m in numbers[:-1] if m not in ledger.snapshots]
    if ledger.setup_sha256 and not unrecorded:
        return None
    what = unrecorded[0] if unrecorded else "the setup"
    return (f"{Path(root) / registry.LOG_FILE} does not record {what}: the log was lost or cut short; restore it "
            "from a backup (nothing was changed, and nothing will be until it is back: it holds every acceptance)")


def mend_log(root: Path) -> None:
    """End a log cut short by a killed run with a newline, so the next line stands on its own."""
    path = root / registry.LOG_FILE
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return
            f.seek(-1, os.SEEK_END)
            last = f.read(1)
    except FileNotFoundError:
        return
    if last != b"\n":
        with open(path, "ab") as f:
            f.write(b"\n")
            f.flush()
            os.fsync(f.fileno())


# --- the folder, as this module sees it -------------------------------------------------------


class Folder:
    """Paths and reads of the parts of a game folder that the batch run owns."""

    def __init__(self, gd: GameDir) -> None:
        self.gd = gd
        self.root = gd.root
        self.states = gd.folder("states")
        self.archive = gd.folder("archive")
        self.reports = gd.folder("reports")
        self.inbox = gd.folder("inbox")

    def snapshot_path(self, number: int) -> Path:
        return self.states / f"{number:04d}.toml"

    def numbers(self) -> list[int]:
        """The snapshot numbers in force (rolled-back ones live in sub-folders): the names ``NNNN.toml``."""
        try:
            with os.scandir(self.states) as entries:
                names = [e.name for e in entries]
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted(int(n[:4]) for n in names if len(n) == 9 and n.endswith(".toml") and _DIGITS.issuperset(n[:4]))

    def read_snapshot(self, number: int) -> Snapshot:
        """:raises CorruptFolder: when the snapshot cannot be read."""
        path = self.snapshot_path(number)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CorruptFolder(f"cannot read {path}: {e}; rebuild it with 'maester replay --repair {self.root}'") from None
        snap = Snapshot.from_toml(text, where=str(path))
        if snap.number != number:
            raise CorruptFolder(f"{path} says it is snapshot {snap.number}")
        return snap

    def setup_text(self) -> str:
        """The state as ``maester new`` wrote it, kept as ``states/setup.toml``."""
        return (self.states / SETUP_NAME).read_text(encoding="utf-8")

    def report_dir(self, snap: Snapshot) -> Path:
        return self.reports / snap.label()

    def report_dir_of(self, number: int) -> Path | None:
        found = sorted(self.reports.glob(f"{number:04d}-*")) if self.reports.is_dir() else []
        return found[0] if found else None


# --- reading an archived submission -----------------------------------------------------------


@dataclass
class Understood:
    """What was made of one archived submission: its header, its answers and its problems."""

    name: str
    header: Header
    sealed: bool  # False: an unsealed text accepted on the moderator's word
    fingerprint: str = ""  # of the key that sealed it
    lines: list[tuple[int, str]] = field(default_factory=list)  # (line, canonical text) per accepted line
    entries: list[dict[str, Any]] = field(default_factory=list)  # pool entries, one per accepted line
    problems: list[str] = field(default_factory=list)  # per-line problems, as the parser says them
    warnings: list[str] = field(default_factory=list)  # lines read with a correction ("read as")
    ignored: list[str] = field(default_factory=list)  # text outside the sealed block


def open_archived(data: bytes) -> tuple[Header, str, str, list[str]]:
    """The header, the sealed text, the sealing key's fingerprint ("" if unsealed), the lines outside.

    An archived file holds one sealed block, or one unsealed text accepted by the moderator.
    The seal itself is checked at intake and by ``maester replay``, not here.

    :raises SealError: when the bytes no longer hold one readable turn.
    """
    text = decode(data)
    found = scan(text)
    ignored = [f"lines {g.first_line}-{g.last_line} ignored ({g.reason})" for g in found.ignored]
    if len(found.blocks) > 1:
        raise SealError("an archived file holds exactly one turn")
    if found.blocks and not isinstance(found.blocks[0].error, NoSeal):
        sealed = found.blocks[0].open()
        return sealed.header, sealed.text, sealed.key.fingerprint, ignored
    body = normalise(text)
    try:
        header = find_header(body)
    except HeaderError as e:
        raise SealError(str(e)) from None
    if header is None:
        raise SealError("the file has no header line")
    return header, body, "", []


def understand(name: str, data: bytes) -> Understood:
    """Parse one archived submission into pool entries (ids ``house/R.step/seqN/Lk``).

    :raises SealError: when the archived bytes no longer hold one readable turn.
    """
    from .turnfile import format_command, parse_turn_file  # the parser loads its grammar once

    header, text, fingerprint, ignored = open_archived(data)
    parsed = parse_turn_file(text, filename=name)
    out = Understood(name, header, bool(fingerprint), fingerprint, ignored=ignored)
    prefix = entry_prefix(header)
    for cmd in parsed.commands:
        line = cmd.where.line if cmd.where is not None else 0
        canonical = format_command(cmd)
        out.lines.append((line, canonical))
        out.entries.append(pool_entry(id=f"{prefix}seq{header.seq}/L{line}", house=header.house,
                                      round=header.round, command=cmd, text=canonical))  # fmt: skip
    out.problems = [p.render() for p in parsed.problems]
    out.warnings = [w.render() for w in parsed.warnings]
    return out


def archive_index(name: str) -> int:
    """The number an archived file's name starts with (0 for any other name).

    >>> archive_index("000012-stark-r2-action-seq1.txt")
    12
    """
    m = _ARCHIVE_NAME.match(name)
    return int(m[1]) if m else 0


def entry_prefix(header: Header) -> str:
    """How the pool ids of one house's answers for one step start.

    >>> entry_prefix(Header("demo", "stark", 3, "planning", 2))
    'stark/3.planning/'
    """
    return f"{header.house}/{header.round}.{header.step}/"


# --- one step: the pure derivation shared by the run and by replay ----------------------------


@dataclass
class Outcome:
    """A new snapshot and everything that was said on the way to it."""

    snapshot: Snapshot
    events: list[Event]
    requests: list[Request]
    understood: list[Understood]
    idle: dict[str, bool]  # per archive name: its house had nothing pending when it was applied
    start: GameState | None = None  # the state of the snapshot before (None for the first)


def derive(
    prev: Snapshot | None,
    base: GameState,
    number: int,
    understood: list[Understood],
    *,
    deadline: bool,
    previous_sha256: str,
    board: Board | None = None,
) -> Outcome:
    """Apply submissions (in archive order) and, at a deadline, the defaults; advance the engine.

    >>> from adjudicator.setup import new_game
    >>> first = derive(None, new_game(["stark", "lannister", "baratheon"], seed="doc"), 0, [],
    ...                deadline=False, previous_sha256="")
    >>> first.snapshot.label(), sorted({r.kind for r in first.requests})
    ('0000-r1-planning', ['orders'])

    A later file of a house for a step replaces that house's unused answers of earlier files of
    that step. At a deadline, the requests that were open before and are still open after the
    files take their defaults; decisions that arise from them are asked as usual (ruling 91).
    """
    # Shallow copies: the engine changes no state it is given, and only the answers pool is replaced here.
    state = copy.copy(base)
    owing = {r.house for r in (prev.requests() if prev else [])}
    used = set(state.segment.used) if state.segment else set()
    new: list[dict[str, Any]] = []
    idle: dict[str, bool] = {}
    for u in understood:
        prefix = entry_prefix(u.header)
        state.answers = [a for a in state.answers if not a["id"].startswith(prefix) or a["id"] in used]
        new = [a for a in new if not a["id"].startswith(prefix)]
        new.extend(u.entries)
        idle[u.name] = u.header.house not in owing
    step = machine.advance(state, new, board=board)
    events = list(step.events)
    filled: list[str] = []
    was_open = {p["key"] for p in prev.state.pending} if prev else set()
    overdue = [r for r in step.requests if r.key in was_open and r.default is not None] if deadline else []
    if overdue:
        state = copy.copy(step.state)
        assert step.state.segment is not None, "open requests belong to a half-resolved phase"
        state.segment = dataclasses.replace(step.state.segment, decisions=dict(step.state.segment.decisions))
        filled = record_defaults(state, overdue)  # writes only into the decisions copied just above
        step = machine.advance(state, [], board=board)
        events.extend(step.events)
    since_before = prev.since if prev else {}
    since = {r.key: since_before.get(r.key, number) for r in step.requests}
    applied_through = max([prev.applied_through if prev else 0, *(archive_index(u.name) for u in understood)])
    snap = Snapshot(
        number=number, state=step.state, applied=[u.name for u in understood], applied_through=applied_through,
        deadline=deadline, defaults=filled, since=since, previous_sha256=previous_sha256,
    )  # fmt: skip
    return Outcome(snap, events, step.requests, understood, idle, start=base if prev is not None else None)


def record_defaults(state: GameState, requests: list[Request]) -> list[str]:
    """Take the documented default for each open request, as if it had been decided (ruling 91).

    The defaults are written into the half-resolved phase as decisions, the way the engine records
    every decision it takes, so the next ``advance`` goes on from them. Only these requests are
    filled: decisions that arise later are asked of the houses as usual. Returns the keys filled.
    """
    from .turnfile import format_command

    assert state.segment is not None, "open requests belong to a half-resolved phase"
    filled = []
    for r in requests:
        if r.default is None:
            continue
        parts = r.default if isinstance(r.default, tuple) else None
        text = "; ".join(format_command(c) for c in (parts or (r.default,)))  # type: ignore[arg-type]
        marks = [DefaultUsed(house=r.house, decision=r.prompt, answer=text, visible_to=r.house if r.secret else PUBLIC)]
        if r.secret:  # everyone learns that the house missed the deadline; only it learns the answer yet
            marks.append(DefaultUsed(house=r.house, decision=r.prompt, answer="its documented default (secret)"))
        value = {"parts": [to_dict(c) for c in parts]} if parts is not None else {"value": to_dict(r.default)}
        state.segment.decisions[r.key] = {**value, "events": [m.to_dict() for m in marks]}
        filled.append(r.key)
    return filled


def pending_view(snap: Snapshot, game_id: str = "") -> dict[str, Any]:
    """Who owes what, and since which step: the data of ``pending.json`` and ``maester status``."""
    st = snap.state
    houses: dict[str, list[dict[str, Any]]] = {h: [] for h in st.houses_in_play}
    for r in snap.requests():
        since = snap.since.get(r.key, snap.number)
        houses.setdefault(r.house, []).append({"key": r.key, "kind": r.kind, "prompt": r.prompt, "since": since})
    return {
        "game": game_id or st.game_id, "snapshot": snap.number, "label": snap.label(), "round": st.round,
        "step": st.phase, "winner": st.winner or "", "houses": houses,
    }  # fmt: skip


def pending_text(view: dict[str, Any]) -> str:
    """The view of :func:`pending_view` as lines for a person."""
    if view["snapshot"] < 0:
        return (f"Game {view['game']}: round {view['round']}, {view['step']}; no step resolved yet: "
                "'maester adjudicate' writes the first report and asks the first questions\n")  # fmt: skip
    out = [f"Game {view['game']}: round {view['round']}, {view['step']} (step {view['snapshot']:04d})"]
    if view["winner"]:
        out.append(f"The game is over: {registry.house_name(view['winner'])} won.")
    for house, reqs in view["houses"].items():
        if not reqs:
            out.append(f"  {house}: nothing pending")
            continue
        out.append(f"  {house}: {len(reqs)} request{'s' if len(reqs) != 1 else ''}")
        out += [f"    - {r['kind']}: {r['prompt']} (since step {r['since']:04d})" for r in reqs]
    return "\n".join(out) + "\n"


def write_pending(folder: Folder, snap: Snapshot) -> None:
    """``pending`` and ``pending.json`` for a snapshot (derived: rewritten whenever it changes)."""
    view = pending_view(snap)
    fileio.atomic_write_text(folder.root / PENDING_FILE, pending_text(view))
    fileio.atomic_write_text(folder.root / PENDING_JSON, json.dumps(view, indent=1, sort_keys=True) + "\n")


# --- rollback: the moderator's undo -----------------------------------------------------------


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def rollback(root: str | Path, *, to: int, reason: str) -> str:
    """Go back to snapshot ``to``: later snapshots and reports are set aside, the action logged.

    Archived files stay in ``archive/``; those applied after ``to`` (or not applied yet) are set
    aside with the snapshots and no longer count: a house may send them again (ruling 93).

    :raises BatchError: for a missing reason, an unknown snapshot, or nothing to undo.
    """
    if not reason.strip():
        raise BatchError("give the reason for the rollback (--reason); it is kept in the log")
    gd = GameDir.open(root)
    with gd.lock():
        folder = Folder(gd)
        mend_log(gd.root)
        ledger = Ledger.read(gd.root)
        if ledger.rollback is not None and not ledger.rollback_done:
            complete_rollback(folder, ledger)
        numbers = folder.numbers()
        if (lost := log_lost(gd.root, ledger, numbers)) is not None:
            raise CorruptFolder(lost)
        if to not in numbers:
            have = f"0000-{numbers[-1]:04d}" if numbers else "none yet"
            raise BatchError(f"there is no snapshot {to:04d} (the snapshots are {have})")
        if to == numbers[-1]:
            raise BatchError(f"snapshot {to:04d} is the latest: there is nothing to undo")
        target = folder.read_snapshot(to)
        taken = [p.name for p in folder.states.glob("rolled-back-*")]
        k = 1 + max((int(n.rsplit("-", 1)[1]) for n in taken if n.rsplit("-", 1)[1].isdigit()), default=0)
        later = [n for n in numbers if n > to]
        files = [a.name for a in ledger.archived if a.index > target.applied_through]
        entry = {"action": "rollback", "to": to, "reason": reason.strip(), "folder": f"rolled-back-{k}",
                 "set_aside_snapshots": later, "set_aside_files": files}  # fmt: skip
        log(gd.root, entry)
        ledger._take(entry)
        complete_rollback(folder, ledger)
    files_note = (f"; {len(files)} archived file(s) no longer count: sent again, or still in the inbox, they are "
                  "taken again at the next run" if files else "")  # fmt: skip
    return (f"rolled back to snapshot {to:04d} (round {target.state.round}, {target.state.phase}); snapshots "
            f"{', '.join(f'{n:04d}' for n in later)} and their reports moved to rolled-back-{k}/{files_note}")  # fmt: skip


def complete_rollback(folder: Folder, ledger: Ledger) -> None:
    """Move aside what the last logged rollback sets aside; safe to run again after a crash."""
    e = ledger.rollback
    assert e is not None
    to, dest = int(e["to"]), str(e["folder"])
    for n in reversed([n for n in folder.numbers() if n > to]):
        (folder.states / dest).mkdir(parents=True, exist_ok=True)
        os.replace(folder.snapshot_path(n), folder.states / dest / folder.snapshot_path(n).name)
    for d in sorted(folder.reports.glob("[0-9][0-9][0-9][0-9]-*")):
        if int(d.name[:4]) > to:
            for tmp in d.glob("**/.*.tmp"):  # a killed run's: no later run sweeps a folder set aside
                tmp.unlink(missing_ok=True)
            (folder.reports / dest).mkdir(parents=True, exist_ok=True)
            os.replace(d, folder.reports / dest / d.name)
    text = folder.snapshot_path(to).read_text(encoding="utf-8")
    fileio.atomic_write_text(folder.gd.state_file, text)
    write_pending(folder, Snapshot.from_toml(text, where=str(folder.snapshot_path(to))))
    log(folder.root, {"action": "rollback-done", "folder": dest})
    ledger.rollback_done = True


# --- reveal: the seed at the end --------------------------------------------------------------


def reveal(root: str | Path, *, force: bool = False) -> str:
    """Publish the seed: ``[game] seed_revealed`` in game.toml and a ``reveal`` line in the log.

    :raises BatchError: when the seed does not match the commitment, or the game is not over
        (revealing early tells everyone the coming cards) and ``force`` is not given.
    """
    from .rng import commitment

    gd = GameDir.open(root)
    with gd.lock():
        info = gd.info()
        seed = gd.seed()
        if commitment(seed) != info.seed_commitment:
            raise BatchError(f"{gd.seed_file} does not match the published commitment {info.seed_commitment}")
        state = gd.load_state()
        if state.phase != "game_over" and not force:
            raise BatchError("the game is not over: the seed tells every coming card (use --force to reveal anyway)")
        table = gd.read_game()["game"]
        if table.get("seed_revealed") != seed:
            gd.write_table("game", {**table, "seed_revealed": seed})
        if Ledger.read(gd.root).revealed != seed:  # also after a run killed between the two writes
            log(gd.root, {"action": "reveal", "seed": seed, "commitment": info.seed_commitment})
    return f"seed revealed: {seed} (commitment {info.seed_commitment}); 'maester replay {root}' now checks every shuffle"


# --- replay: re-derive everything and compare -------------------------------------------------


@dataclass
class Check:
    """What replay found: problems (any fails it) and notes."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = ["replay: every snapshot follows from the archive, byte for byte" if self.ok
                else f"replay FAILED: {len(self.problems)} problem(s)"]  # fmt: skip
        return head + [f"  problem: {p}" for p in self.problems] + [f"  {n}" for n in self.notes]


def check_archived(folder: Folder, a: Archived, ledger: Ledger, keys: dict[str, registry.KeyEntry], gid: str) -> str:
    """What is wrong with one archived file (its bytes, seal, key or header), or ``""``."""
    try:
        data = (folder.archive / a.name).read_bytes()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if sha256(data) != a.sha256:
        return "was changed after it was accepted (its SHA-256 differs from the log's)"
    try:
        header, text, fingerprint, _ = open_archived(data)
    except SealError as e:
        return f"no longer holds a valid sealed turn ({e})"
    if fingerprint:
        key = keys.get(fingerprint)
        if key is None or key.house != header.house:
            return f"is sealed by key {fingerprint}, never registered for {registry.house_name(header.house)}"
    elif sha256(text.encode("utf-8")) not in ledger.moderator_accepts:
        return "is unsealed and the log has no moderator acceptance for it"
    if header.game != gid or (header.house, header.round, header.step, header.seq) != (a.house, a.round, a.step, a.seq):
        return "has a header that differs from its acceptance in the log"
    return ""


def _first_difference(stored: str, derived: str) -> str:
    for i, (x, y) in enumerate(zip(stored.splitlines(), derived.splitlines()), 1):
        if x != y:
            return f"line {i}: stored {x[:70]!r}, derived {y[:70]!r}"
    return "one of them is longer"


def replay(root: str | Path, *, board: Board | None = None) -> Check:
    """Re-derive every snapshot from the setup, the archive and the logged deadlines; compare bytes.

    With a revealed seed, also check that the setup's decks are a fresh shuffle of that seed.

    :raises GameDirError: when the folder is not a game folder.
    """
    gd = GameDir.open(root)
    folder, ledger, chk = Folder(gd), Ledger.read(gd.root), Check()
    try:
        game = registry.read_game(gd.root)
        gid = registry.game_id(game)
    except registry.RegistryError as e:
        raise BatchError(str(e)) from None
    keys = {k.fingerprint: k for k in registry.key_entries(game)}
    bad = {a.name: why for a in [*ledger.archived, *ledger.set_aside.values()]
           if (why := check_archived(folder, a, ledger, keys, gid))}  # fmt: skip
    try:
        setup_text = folder.setup_text()
    except (OSError, UnicodeDecodeError) as e:
        chk.problems.append(f"states/{SETUP_NAME} cannot be read ({e}); nothing can be re-derived")
        return chk
    if ledger.setup_sha256 and sha256(setup_text.encode()) != ledger.setup_sha256:
        chk.problems.append(f"states/{SETUP_NAME} was changed (its SHA-256 differs from the log's)")
        return chk
    _check_seed(game, setup_text, chk)
    prev: Snapshot | None = None
    base, prev_text = GameState.from_toml(setup_text), setup_text
    numbers = folder.numbers()
    if (lost := log_lost(gd.root, ledger, numbers)) is not None:
        chk.problems.append(lost)
        return chk
    gone = sorted(set(ledger.snapshots) - set(numbers))
    if gone:
        chk.problems.append(f"states/{gone[0]:04d}.toml is missing, and the log records it (rebuild it with "
                            f"'maester replay --repair {root}')")  # fmt: skip
        return chk
    for n in numbers:
        path = folder.snapshot_path(n)
        try:
            stored_text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            stored_text = f"(unreadable: {e})"
        logged = ledger.snapshots.get(n)
        if logged is not None:
            applied, deadline = [str(x) for x in logged["applied"]], bool(logged.get("deadline", False))
        else:
            try:
                meta = Snapshot.from_toml(stored_text, where=str(path))
            except CorruptFolder as e:
                chk.problems.append(f"states/{n:04d}.toml: {e}, and the log does not say what it applied")
                return chk
            applied, deadline = meta.applied, meta.deadline
            chk.notes.append(f"states/{n:04d}.toml is not in the log yet (an interrupted run: the next adjudicate finishes it)")
        for name in applied:
            if name in bad:
                chk.problems.append(f"states/{n:04d}.toml cannot be re-derived: archive/{name} {bad[name]}")
                return chk
        understood = [understand(name, (folder.archive / name).read_bytes()) for name in applied]
        outcome = derive(prev, base, n, understood, deadline=deadline, previous_sha256=sha256(prev_text.encode()), board=board)
        text = outcome.snapshot.to_toml()
        if text != stored_text:
            files = ", ".join(f"archive/{x}" for x in applied) or "no archived file"
            chk.problems.append(f"states/{n:04d}.toml differs from its re-derivation from {files}"
                                f"{' and a deadline' if deadline else ''}: {_first_difference(stored_text, text)}")  # fmt: skip
            return chk
        if logged is not None and logged.get("sha256") != sha256(text.encode()):
            chk.problems.append(f"the log's hash of states/{n:04d}.toml differs from the file")
        prev, base, prev_text = outcome.snapshot, outcome.snapshot.state, text
    chk.problems += [f"archive/{name} {why}" for name, why in bad.items()]
    try:
        current = gd.state_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        current = None
    if numbers and current != prev_text:
        chk.problems.append(f"state.toml is not the latest snapshot states/{numbers[-1]:04d}.toml "
                            f"(rebuild it with 'maester replay --repair {root}')")  # fmt: skip
    through = prev.applied_through if prev else 0
    waiting = [a.name for a in ledger.archived if a.index > through]
    if waiting:
        chk.notes.append(f"archived but not applied yet: {', '.join(waiting)} (the next adjudicate applies them)")
    chk.notes.append(f"{len(numbers)} snapshot(s) and {len(ledger.archived)} archived file(s) checked")
    return chk


def _check_seed(game: dict[str, Any], setup_text: str, chk: Check) -> None:
    """With a revealed seed: its commitment, and the setup's decks against a fresh shuffle."""
    from .rng import commitment
    from .setup import SetupError, new_game

    table = game.get("game", {})
    seed = table.get("seed_revealed")
    if not seed:
        chk.notes.append("the seed is not revealed yet: the shuffles are checked after 'maester reveal'")
        return
    if commitment(seed) != table.get("seed_commitment"):
        chk.problems.append("the revealed seed does not match the seed commitment published at the start")
        return
    setup = GameState.from_toml(setup_text)
    try:
        fresh = new_game(list(setup.houses_in_play), seed=seed, game_id=setup.game_id,
                         tides_of_battle=bool(setup.options.get("tides_of_battle")))  # fmt: skip
    except SetupError as e:
        chk.problems.append(f"cannot set up a fresh game to compare with: {e}")
        return
    parts = ("rng_seed", "westeros_decks", "wildling_deck", "tides_deck")
    differ = [p for p in parts if getattr(fresh, p) != getattr(setup, p)]
    if differ:
        chk.problems.append(f"the setup's {', '.join(differ)} are not those of a fresh game with the revealed seed")
    else:
        chk.notes.append("the revealed seed matches its commitment and the setup's decks are its fresh shuffle")
