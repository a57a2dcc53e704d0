"""The moderator's main job: adjudicate a game folder in one run.

``adjudicate(GAME_DIR, files)`` takes the given files and everything in ``inbox/``; checks each
seal (a file whose seal fails is not parsed at all); archives and logs every accepted submission;
parses it, applies what is valid and advances the engine as far as the answers allow; then writes
the new snapshot, ``state.toml``, the reports, the receipts and who owes what (``pending``).

Crash safety rests on one order of writes, each atomic or append-only with fsync:

1. ``archive/NNNNNN-….txt`` (the accepted bytes), then its ``accept`` line in ``log``;
2. ``states/NNNN.toml``: the snapshot, recording which archived files it applied and whether a
   deadline filled the open requests: *the commit point*;
3. its ``snapshot`` line in ``log``, ``state.toml``, the reports, ``pending``; ``report.json`` last.

A run killed anywhere is finished by the next one: archived-but-unapplied files are applied, and
the outputs of the latest snapshot are re-derived (the engine is pure) and rewritten. No file is
lost or applied twice, and the result is byte for byte that of an uninterrupted run. See
``docs/game-folder.md`` for the layout and ``docs/rulings.md`` (rulings 90-99) for the choices.
"""

from __future__ import annotations

import json
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from . import fileio, registry
from .audit import (
    PENDING_JSON,
    SETUP_NAME,
    Archived,
    BatchError,
    CorruptFolder,
    Folder,
    Ledger,
    Outcome,
    Snapshot,
    Understood,
    Check,
    complete_rollback,
    derive,
    entry_prefix,
    log,
    log_lost,
    mend_log,
    pending_view,
    sha256,
    understand,
    write_pending,
)
from .board import Board
from .events import AnswerUnusable
from .gamedir import GameDir, GameDirError
from .header import STEPS, Header, HeaderError, find_header
from .seal import NoSeal, SealError, WrongStep, decode, normalise
from .state import GameState

REPORT_DONE = "report.json"  # written last in a report folder: its presence marks it complete
MAX_INPUT_BYTES = 5_000_000  # a turn is a few kilobytes; a mail with attachments stays far below this


# --- intake: seals first, then the headers in a fixed order -----------------------------------


@dataclass
class Rejection:
    """An input file (or part of one) that was not accepted, with every reason."""

    source: str
    sha256: str
    reasons: list[str]
    retry: bool = False  # sealed for a step not open yet: tried again when it opens


@dataclass
class _Candidate:
    source: str
    file_sha: str
    data: bytes  # what is archived: the whole file, or the block's own lines in a file of several
    header: Header
    where: str  # "lines 3-14" in the input file


# The SHA-256 of each input file this process read, by path, with the file's identity then (device,
# inode, size, change times): the inbox keeps its files, and one judged before is not read again.
_DIGESTS: dict[str, tuple[tuple[int, ...], str]] = {}
_DIGESTS_KEPT = 100_000


def _identity(st: os.stat_result) -> tuple[int, ...]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _digest_seen(path: Path | str, st: os.stat_result) -> str | None:
    """The SHA-256 this process read from ``path`` before, if the file is unchanged since."""
    known = _DIGESTS.get(str(path))
    return known[1] if known is not None and known[0] == _identity(st) else None


def _see_digest(path: Path, st: os.stat_result, digest: str) -> None:
    if len(_DIGESTS) >= _DIGESTS_KEPT:
        _DIGESTS.clear()
    _DIGESTS[str(path)] = (_identity(st), digest)


def _inbox_files(inbox: Path, judged: Callable[[str | None], bool]) -> list[Path]:
    """The inbox files to read, sorted by name: not those whose name starts with a dot, nor those an
    earlier run of this process read and ``judged`` (by their SHA-256) if they did not change since."""
    names = []
    with os.scandir(inbox) as entries:
        for e in entries:
            if e.name.startswith(".") or not _is_file(e):
                continue
            try:
                if judged(_digest_seen(e.path, e.stat())):
                    continue
            except OSError:
                pass  # read, and reported, with the others
            names.append(e.name)
    return [inbox / name for name in sorted(names)]


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _step_index(rnd: int, step: str) -> tuple[int, int]:
    return rnd, (STEPS.index(step) if step in STEPS else len(STEPS))


class Intake:
    """Checks input files against the open step and archives the accepted ones."""

    def __init__(self, folder: Folder, ledger: Ledger, state: GameState) -> None:
        """:raises BatchError: when game.toml lacks what the seal checks need."""
        self.folder, self.ledger, self.state = folder, ledger, state
        try:
            game = registry.read_game(folder.root)
            self.checker = registry.Checker(
                registry.game_id(game), registry.houses(game), registry.key_entries(game),
                (state.round, state.phase), ledger.highest(),
            )  # fmt: skip
        except registry.RegistryError as e:
            raise BatchError(str(e)) from None

    def run(self, paths: list[Path]) -> tuple[list[Archived], list[Rejection], list[Path]]:
        """Accepted (archived and logged), rejected (not yet logged), deferred (sealed for a later step)."""
        good: list[_Candidate] = []
        rejected: dict[str, Rejection] = {}
        deferred: list[Path] = []
        taken: set[str] = set()  # the blocks taken in this run (the ledger knows those of earlier runs)
        seen: set[str] = set()
        for path in paths:
            try:
                st = path.stat()
                if self._judged(_digest_seen(path, st)):
                    continue  # judged by an earlier run of this process and not changed since: not read again
                size = st.st_size
                data = path.read_bytes() if size <= MAX_INPUT_BYTES else b""
            except OSError as e:
                rejected[str(path)] = Rejection(str(path), "", [f"cannot read the file: {e.strerror}"])
                continue
            if size > MAX_INPUT_BYTES:
                why = f"the file has {size:,} bytes: too large to hold turns (the limit is {MAX_INPUT_BYTES:,})"
                rejected[str(path)] = Rejection(str(path), "", [why])
                continue
            digest = sha256(data)
            _see_digest(path, st, digest)
            if self._judged(digest) or digest in taken or digest in seen:
                continue  # processed by an earlier run, or a copy of a file of this run (idempotent)
            seen.add(digest)
            reasons, early = self._check_file(path, data, digest, good, taken)
            if reasons:
                rejected[str(path)] = Rejection(str(path), digest, reasons)
            elif early:
                deferred.append(path)
        # Order-independent: a house's seq 1 and seq 2 give the same result in either order.
        good.sort(key=lambda c: (*_step_index(c.header.round, c.header.step), c.header.house, c.header.seq, c.source))
        accepted: list[Archived] = []
        for c in good:
            fault = self.checker.check_header(c.header)
            if fault is not None:
                rej = rejected.setdefault(c.source, Rejection(c.source, c.file_sha, []))
                rej.reasons.append(f"{c.where}: invalid [{fault.code}]: {fault}")
                continue
            accepted.append(self._archive(c))
        deferred = [p for p in deferred if str(p) not in rejected]
        return accepted, list(rejected.values()), deferred

    def _judged(self, digest: str | None) -> bool:
        """Whether a file with this SHA-256 was accepted, or refused for good, by an earlier run (ruling 96)."""
        return self.judged_by(self.ledger)(digest)

    @staticmethod
    def judged_by(ledger: Ledger) -> Callable[[str | None], bool]:
        """The question :meth:`_judged` asks, of a ledger."""
        return lambda digest: digest is not None and (ledger.is_accepted(digest) or ledger.rejected.get(digest) is False)

    def _check_file(self, path: Path, data: bytes, digest: str, good: list[_Candidate],
                    taken: set[str]) -> tuple[list[str], bool]:  # fmt: skip
        try:
            text = decode(data)
        except SealError as e:
            return [f"invalid [{e.code}]: {e}"], False
        report = self.checker.check(text)
        unsealed = not report.verdicts or (len(report.verdicts) == 1 and isinstance(report.verdicts[0].error, NoSeal))
        if unsealed and (header := self._moderator_accepted(text)) is not None:
            good.append(_Candidate(str(path), digest, data, header, "the whole file (accepted unsealed by the moderator)"))
            return [], False
        if not report.verdicts:
            return [f"invalid [{report.error.code}]: {report.error}" if report.error else "no sealed block"], False
        reasons: list[str] = []
        early = False
        lines = text.splitlines(keepends=True)
        for v in report.verdicts:
            where = f"lines {v.first_line}-{v.last_line}"
            part = data if len(report.verdicts) == 1 else "".join(lines[v.first_line - 1 : v.last_line]).encode("utf-8")
            part_sha = sha256(part)
            if self.ledger.is_accepted(part_sha) or part_sha in taken:
                continue  # the same turn again (a resent or quoted copy)
            if v.ok and v.header is not None:
                good.append(_Candidate(str(path), digest, part, v.header, where))
                taken.add(part_sha)
            elif isinstance(v.error, WrongStep) and v.header is not None and self._is_early(v.header):
                early = True
            else:
                reasons.append(v.describe())
        return reasons, early

    def _moderator_accepted(self, text: str) -> Header | None:
        body = normalise(text)
        if sha256(body.encode("utf-8")) not in self.ledger.moderator_accepts:
            return None
        try:
            return find_header(body)
        except HeaderError:
            return None

    def _is_early(self, h: Header) -> bool:
        if self.state.phase not in STEPS or h.game != self.checker.game_id:
            return False
        return _step_index(h.round, h.step) > _step_index(self.state.round, self.state.phase)

    def _archive(self, c: _Candidate) -> Archived:
        """Archive first, then log: a run killed in between leaves an orphan the next run overwrites."""
        h = c.header
        index = self.ledger.last_index + 1
        name = f"{index:06d}-{h.house}-r{h.round}-{h.step}-seq{h.seq}.txt"
        digest = sha256(c.data)
        fileio.atomic_write_bytes(self.folder.archive / name, c.data)
        registry.record_acceptance(self.folder.root, h, digest, f"archive/{name}")
        a = Archived(index, name, h.house, h.round, h.step, h.seq, digest)
        self.ledger.add(a)
        self.checker.highest[(h.house, h.round, h.step)] = h.seq
        return a


# --- receipts ---------------------------------------------------------------------------------


def accepted_receipt(u: Understood, outcome: Outcome, sealed_by: str, replaced: list[str] | None = None) -> str:
    """What a house's accepted file was understood to say, what could not be used, what it replaced
    (``replaced``: the texts of the house's earlier answers it dropped, ruling 94) and what is still
    asked of the house."""
    h = u.header
    snap = outcome.snapshot
    out = [
        f"Receipt for archive/{u.name}",
        f"Accepted: {registry.house_name(h.house)}, game {h.game}, round {h.round} {h.step}, seq {h.seq}.",
        f"Sealed by {sealed_by}." if u.sealed else "Accepted unsealed, on the moderator's word (see the log).",
        f"Applied at step {snap.number:04d}; the game is now at round {snap.state.round}, {snap.state.phase}.",
        "",
    ]
    out.append(f"Understood ({len(u.lines)} line{'s' if len(u.lines) != 1 else ''}):")
    out += [f"  line {line}: {text}" for line, text in u.lines] or ["  (nothing)"]
    if u.warnings:
        out += ["", "Read with a correction (check that this is what you meant):"]
        out += ["  " + w.replace("\n", "\n  ") for w in u.warnings]
    if u.problems:
        out += ["", f"Not understood or not allowed ({len(u.problems)}); these lines were left out, the others stand:"]
        out += ["  " + p.replace("\n", "\n  ") for p in u.problems]
    unusable = _unusable_for(u, outcome)
    if unusable:
        out += ["", "Answers the engine could not use:"]
        out += [f"  {e.answer}: {e.reason}" + (f" ({e.rule})" if e.rule else "") for e in unusable]
    if outcome.idle.get(u.name):
        out += ["", f"{registry.house_name(h.house)} had nothing pending when this file was applied: its "
                    "answers stand as instructions for later in the round; those not needed expire at its end."]
    if replaced:
        out += ["", f"Replaced by this file: your earlier answers for round {h.round} {h.step}, not used yet",
                "(ruling 94); send them again if you still mean them:"]
        out += [f"  {t}" for t in replaced]
    if u.ignored:
        out += ["", "Outside the seal (not read):"] + [f"  {g}" for g in u.ignored]
    asked = [r for r in outcome.requests if r.house == h.house]
    out += ["", "Asked of you now:" if asked else "Nothing is asked of you now."]
    out += [f"  - {r.kind}: {r.prompt}" for r in asked]
    return "\n".join(out) + "\n"


def replaced_answers(prev: GameState | None, understood: list[Understood]) -> dict[str, list[str]]:
    """Per archived file, the texts of its house's earlier answers for the same step that it dropped.

    The same replacement as :func:`adjudicator.audit.derive` makes (ruling 94), told to the player.
    """
    pool = list(prev.answers) if prev is not None else []
    used = set(prev.segment.used) if prev is not None and prev.segment else set()
    new: list[dict[str, Any]] = []
    out: dict[str, list[str]] = {}
    for u in understood:
        prefix = entry_prefix(u.header)
        gone = [a for a in pool if a["id"].startswith(prefix) and a["id"] not in used]
        gone += [a for a in new if a["id"].startswith(prefix)]
        pool = [a for a in pool if not a["id"].startswith(prefix) or a["id"] in used]
        new = [a for a in new if not a["id"].startswith(prefix)] + list(u.entries)
        out[u.name] = [str(a.get("text", "")) for a in gone]
    return out


def _unusable_for(u: Understood, outcome: Outcome) -> list[AnswerUnusable]:
    """The ``AnswerUnusable`` events of the file's house that name its lines (an event names one
    line, or several of one composite answer joined by "; "); older files' answers tried again are
    the private report's business."""
    mine = [e for e in outcome.events if isinstance(e, AnswerUnusable) and e.house == u.header.house]
    texts = {t for _, t in u.lines}
    return [e for e in mine if any(f"; {t}; " in f"; {e.answer}; " for t in texts)]


def rejected_receipt(rej: Rejection, snap: Snapshot) -> str:
    """Why a file was not accepted: every reason; nothing in it was read or applied."""
    st = snap.state
    if rej.retry:
        head = ["Not yet: this file is sealed for a step that is not open.",
                f"The game is at round {st.round}, {st.phase} (step {snap.number:04d}). Maester keeps the file",
                "and tries it again at every run; it is accepted when its step opens."]  # fmt: skip
    else:
        head = ["Rejected: nothing in this file was read or applied.",
                f"It was checked against round {st.round}, {st.phase} (step {snap.number:04d})."]  # fmt: skip
    out = [f"Receipt for {Path(rej.source).name} (sha256 {rej.sha256[:16]})", *head, "", "Reasons:"]
    out += [f"  {r}" for r in rej.reasons]
    todo = [] if rej.retry else list(dict.fromkeys(WHAT_TO_DO[c] for r in rej.reasons
                                                   for c in re.findall(r"\[([a-z-]+)\]", r) if c in WHAT_TO_DO))
    if todo:
        out += ["", "What to do:"] + [f"  - {t}" for t in todo]
    return "\n".join(out) + "\n"


# What a player does about each reason a seal check gives (the codes of docs/seals.md).
WHAT_TO_DO: dict[str, str] = {
    "bad-signature": "the text changed after it was sealed (a mail program may have rewrapped a line): seal the "
                     "file again and send it unchanged, best as an attachment",
    "unknown-key": "seal with the key registered for your house, or ask the moderator to register this one",
    "revoked-key": "this key is revoked: seal with your house's key in force (the report lists them)",
    "wrong-house": "seal with your own house's key, and name your house in the header",
    "wrong-game": "write this game's id in the header, seal the file again and send it",
    "wrong-step": "write the header for the step the game is at (seq 1 for your first file of a step), seal the "
                  "file again and send it",
    "replayed": "give the file a seq higher than your last accepted one for that step, seal it again and send it",
    "wrong-namespace": "seal turn files with 'maester sign' (or ssh-keygen -Y sign -n maester-turn)",
    "unsupported-key": "make an Ed25519 key ('maester keygen') and have it registered",
    "armour-truncated": "the seal was cut short on the way: send the sealed file as an attachment",
    "armour-doubled": "send one seal per turn: seal the plain text once, not a sealed file again",
    "bad-armour": "the seal was damaged on the way: send the sealed file as an attachment",
    "bad-header": "begin the turn with 'game ID · house H · round N · STEP · seq N', seal it again and send it",
    "no-seal": "seal the file ('maester sign --key KEY FILE') and send the .sealed file",
    "bad-encoding": "save the file as UTF-8 text, seal it again and send it",
}  # fmt: skip


def shown(name: str) -> str:
    """A file name as text fit to write anywhere: bytes of the name that are not UTF-8 become U+FFFD.

    >>> shown("caf\\udce9.txt")
    'caf\ufffd.txt'
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _receipt_name(rej: Rejection) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(rej.source).stem)[:60] or "file"
    return f"rejected-{stem}-{rej.sha256[:8]}.txt"


# --- writing a step's outputs -----------------------------------------------------------------


@dataclass
class Timings:
    """Seconds spent per part of a run (for the benchmark)."""

    verify: float = 0.0
    parse: float = 0.0
    engine: float = 0.0
    render: float = 0.0
    write: float = 0.0


def _clock() -> float:
    import time

    return time.perf_counter()


def write_outputs(folder: Folder, outcome: Outcome, text: str, *, ledger: Ledger, templates_dir: Path | None,
                  timings: Timings) -> None:  # fmt: skip
    """``state.toml``, the step's report folder, ``pending``; ``report.json`` last, marking it complete."""
    from .report import render_reports

    t0 = _clock()
    snap = outcome.snapshot
    state, events, requests = snap.state, outcome.events, outcome.requests
    fileio.atomic_write_text(folder.gd.state_file, text)
    where = folder.report_dir(snap)
    replaced = replaced_answers(outcome.start, outcome.understood) if outcome.understood else {}
    for u in outcome.understood:
        by = f"{registry.house_name(u.header.house)} ({u.fingerprint})"
        fileio.atomic_write_text(where / "receipts" / u.name, accepted_receipt(u, outcome, by, replaced.get(u.name)))
    fps = registry.fingerprints_in_force(folder.root)
    best = ledger.highest()
    seqs = {h: best.get((h, state.round, state.phase), 0) for h in state.houses_in_play}
    t1 = _clock()

    def render(viewers: list[str | None], formats: list[str]) -> dict[tuple[str | None, str], str]:
        return render_reports(state, events, viewers=viewers, formats=formats, requests=requests, fingerprints=fps,
                              templates_dir=templates_dir, last_seqs=seqs)  # fmt: skip

    ext = {"text": "txt", "html": "html"}
    pages = {f"{viewer or 'public'}.{ext[fmt]}": page
             for (viewer, fmt), page in render([None, *state.houses_in_play], ["text", "html"]).items()}  # fmt: skip
    done = render([None], ["json"])[(None, "json")]
    t2 = _clock()
    for name, page in pages.items():
        fileio.atomic_write_text(where / name, page)
    write_pending(folder, snap)
    fileio.atomic_write_text(where / REPORT_DONE, done)
    timings.render += t2 - t1
    timings.write += (t1 - t0) + (_clock() - t2)


# --- snapshots this process wrote or read --------------------------------------------------------

_KNOWN: dict[str, Snapshot] = {}  # a snapshot's text -> the snapshot; the latest few of this process
_KNOWN_KEPT = 16


def _remember(snap: Snapshot, text: str) -> None:
    """Keep a snapshot with its text, so that the next run in this process need not parse it again."""
    _KNOWN.pop(text, None)
    while len(_KNOWN) >= _KNOWN_KEPT:
        _KNOWN.pop(next(iter(_KNOWN)))
    _KNOWN[text] = snap


def snapshot_of(text: str, *, where: str) -> Snapshot:
    """The snapshot a text holds: the one this process wrote or read with that very text, else parsed.

    A snapshot is never changed once made (the engine copies what it changes), and one derived in
    memory gives the same next steps as its text read back, as ``maester replay`` checks for every
    step; so a run goes on from the snapshot the previous run of this process left.

    :raises CorruptFolder: when the text is not a snapshot.
    """
    snap = _KNOWN.get(text)
    if snap is None:
        snap = Snapshot.from_toml(text, where=where)
        _remember(snap, text)
    return snap


# --- the run ----------------------------------------------------------------------------------


@dataclass
class RunResult:
    """What one run did: files accepted, rejected and kept for later, steps written."""

    game: str
    accepted: list[str] = field(default_factory=list)  # archive names
    rejected: list[Rejection] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)  # sealed for a step not open yet
    steps: list[str] = field(default_factory=list)  # report folders written
    notes: list[str] = field(default_factory=list)
    timings: Timings = field(default_factory=Timings)
    state: GameState | None = None  # the state written to state.toml: a copy of the latest snapshot's, the caller's own

    @property
    def exit_status(self) -> int:
        """0 when all went well, 1 when some file was rejected (a file kept for later is not).

        >>> RunResult("demo", rejected=[Rejection("late.txt", "ab12", ["not open yet"], retry=True)]).exit_status
        0
        """
        return 1 if any(not r.retry for r in self.rejected) else 0

    def lines(self) -> list[str]:
        out = [f"game {self.game}:"]
        out += [f"  accepted archive/{n}" for n in self.accepted]
        for r in self.rejected:
            what = "kept for later" if r.retry else "rejected"
            out.append(f"  {what} {shown(r.source)}:")
            out += [f"    {x}" for x in r.reasons]
        out += [f"  kept for a later step: {shown(d)}" for d in self.deferred]
        out += [f"  wrote reports/{s}/" for s in self.steps]
        out += [f"  {n}" for n in self.notes]
        if len(out) == 1:
            out.append("  nothing new")
        return out


class Run:
    """One adjudication of one game folder, under its lock."""

    def __init__(self, gd: GameDir, *, templates_dir: Path | None = None, board: Board | None = None) -> None:
        self.gd, self.folder = gd, Folder(gd)
        self.templates_dir, self.board = templates_dir, board or Board.classic()
        self.timings = Timings()
        self.outcome: Outcome | None = None  # of the latest step applied by this run
        self.first_written = False  # this run resolved the game's first step (snapshot 0000)
        mend_log(gd.root)
        self.ledger = Ledger.read(gd.root)

    # --- recovery: finish whatever a killed run left half done ---------------------------------

    def recover(self) -> Snapshot:
        """The latest snapshot, its outputs complete; creates snapshot 0000 on the first run.

        :raises CorruptFolder: when ``state.toml`` or a snapshot disagrees with the others.
        """
        if self.ledger.rollback is not None and not self.ledger.rollback_done:
            complete_rollback(self.folder, self.ledger)
        self._sweep()
        numbers = self.folder.numbers()
        if not numbers:
            return self._first()
        n = numbers[-1]
        text = self._snapshot_text(n)
        snap = snapshot_of(text, where=str(self.folder.snapshot_path(n)))
        _sweep(self.folder.report_dir(snap), "**/")
        logged = self.ledger.snapshots.get(n)
        self._check_log(numbers, logged, text)
        try:
            current = self.gd.state_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        done = self.folder.report_dir(snap) / REPORT_DONE
        finished = current == text and done.is_file() and self._pending_number() == n
        if not finished and current not in (text, self._snapshot_text(n - 1) if n > 0 else self.folder.setup_text()):
            raise CorruptFolder(
                f"{self.gd.state_file} does not match the latest snapshot states/{n:04d}.toml (damaged or edited); "
                f"check the game with 'maester replay {self.gd.root}' and rebuild it with "
                f"'maester replay --repair {self.gd.root}'"
            )
        if logged is None:  # written by a run killed before its log line: checked above, logged now
            self._log_snapshot(snap, text)
        if finished:
            return snap
        outcome = self.rederive(n)
        write_outputs(self.folder, outcome, text, ledger=self.ledger, templates_dir=self.templates_dir, timings=self.timings)
        return snap

    def _check_log(self, numbers: list[int], logged: dict[str, Any] | None, text: str) -> None:
        """The log must record the setup, every snapshot but the latest, and the latest as it is (ruling 170).

        :raises CorruptFolder: for a log lost or cut short (a run would number new archived files
            from 1 again, overwriting the turns archived before) or a snapshot changed since.
        """
        n = numbers[-1]
        if logged is not None and logged.get("sha256") != sha256(text.encode()):
            raise CorruptFolder(f"states/{n:04d}.toml is not the snapshot the log records (damaged or edited); check "
                                f"the game with 'maester replay {self.gd.root}' and rebuild it with "
                                f"'maester replay --repair {self.gd.root}'")  # fmt: skip
        if (lost := log_lost(self.gd.root, self.ledger, numbers)) is not None:
            raise CorruptFolder(lost)

    def _sweep(self, *, every_report: bool = False) -> None:
        """Remove the temporary files of atomic writes a killed run left behind (we hold the lock).

        A run writes in the game folder, ``states/``, ``archive/`` and the report folder of the
        latest snapshot only: a step's snapshot is written before its reports, and a receipt goes
        to the folder of the step it was judged at, the latest. So a killed run's temporary file is
        in one of these, and :meth:`recover` sweeps that report folder once it knows the latest
        snapshot; only a repair, which may rewrite any step's reports, sweeps them all.
        """
        for folder in (self.gd.root, self.folder.states, self.folder.archive):
            _sweep(folder, "")
        if every_report:
            _sweep(self.folder.reports, "**/")

    def _first(self) -> Snapshot:
        setup_path = self.folder.states / SETUP_NAME
        if not setup_path.exists():
            try:
                self.gd.load_state()  # says what is wrong, key by key
                text = self.gd.state_file.read_text(encoding="utf-8")
            except (GameDirError, OSError, UnicodeDecodeError) as e:
                raise CorruptFolder(f"{e}; no step was resolved yet: mend it, or create the game again with "
                                    "'maester new'") from None  # fmt: skip
            fileio.atomic_write_text(setup_path, text)
        setup_text = self.folder.setup_text()
        if not self.ledger.setup_sha256:
            self.ledger.setup_sha256 = sha256(setup_text.encode())
            log(self.gd.root, {"action": "setup", "sha256": self.ledger.setup_sha256})
        setup = GameState.from_toml(setup_text)
        outcome = derive(None, setup, 0, [], deadline=False, previous_sha256=sha256(setup_text.encode()), board=self.board)
        self.commit(outcome)
        self.first_written = True
        return outcome.snapshot

    def _snapshot_text(self, n: int) -> str:
        path = self.folder.snapshot_path(n)
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CorruptFolder(f"cannot read {path} ({e}); rebuild it with 'maester replay --repair {self.gd.root}'") from None

    def _pending_number(self) -> int | None:
        try:
            return int(json.loads((self.gd.root / PENDING_JSON).read_text(encoding="utf-8"))["snapshot"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def rederive(self, n: int) -> Outcome:
        """Derive snapshot ``n`` again from the one before it (the engine is pure).

        :raises CorruptFolder: when the result differs from the stored snapshot.
        """
        text = self._snapshot_text(n)
        stored = Snapshot.from_toml(text, where=str(self.folder.snapshot_path(n)))
        if n == 0:
            setup_text = self.folder.setup_text()
            prev, base, prev_text = None, GameState.from_toml(setup_text), setup_text
        else:
            prev_text = self._snapshot_text(n - 1)
            prev = Snapshot.from_toml(prev_text, where=str(self.folder.snapshot_path(n - 1)))
            base = prev.state
        understood = [self.read_archived(name) for name in stored.applied]
        outcome = derive(prev, base, n, understood, deadline=stored.deadline,
                         previous_sha256=sha256(prev_text.encode()), board=self.board)  # fmt: skip
        if outcome.snapshot.to_toml() != text:
            raise CorruptFolder(f"states/{n:04d}.toml does not follow from the snapshot before it and "
                                f"{', '.join(stored.applied) or 'no archived file'}; see 'maester replay {self.gd.root}'")  # fmt: skip
        return outcome

    def read_archived(self, name: str) -> Understood:
        """Read and parse one archived file, checking its bytes against the log.

        :raises CorruptFolder: when the file is missing or its bytes changed.
        """
        path = self.folder.archive / name
        try:
            data = path.read_bytes()
        except OSError as e:
            raise CorruptFolder(f"cannot read archive/{name}: {e.strerror}") from None
        known = self.ledger.find(name)
        if known is None or known.sha256 != sha256(data):
            raise CorruptFolder(f"archive/{name} is not what was accepted (its SHA-256 differs from the log's); "
                                f"see 'maester replay {self.gd.root}'")  # fmt: skip
        t0 = _clock()
        try:
            return understand(name, data)
        except SealError as e:
            raise CorruptFolder(f"archive/{name} no longer holds a readable turn: {e}") from None
        finally:
            self.timings.parse += _clock() - t0

    # --- writing --------------------------------------------------------------------------------

    def commit(self, outcome: Outcome) -> None:
        """Write the snapshot (the commit point), log it, then its outputs."""
        text = outcome.snapshot.to_toml()
        fileio.atomic_write_text(self.folder.snapshot_path(outcome.snapshot.number), text)
        _remember(outcome.snapshot, text)
        self._log_snapshot(outcome.snapshot, text)
        write_outputs(self.folder, outcome, text, ledger=self.ledger, templates_dir=self.templates_dir, timings=self.timings)

    def _log_snapshot(self, snap: Snapshot, text: str) -> None:
        entry = {"action": "snapshot", "number": snap.number, "sha256": sha256(text.encode()),
                 "applied": snap.applied, "deadline": snap.deadline}  # fmt: skip
        log(self.gd.root, entry)
        self.ledger.snapshots[snap.number] = entry

    def reject(self, rej: Rejection, snap: Snapshot) -> None:
        """The receipt first, then the log line: a killed run writes the same receipt again."""
        if not rej.sha256:
            return  # an unreadable input: reported, nothing to keep
        rej = Rejection(shown(rej.source), rej.sha256, rej.reasons, rej.retry)
        where = self.folder.report_dir(snap) / "receipts" / _receipt_name(rej)
        fileio.atomic_write_text(where, rejected_receipt(rej, snap))
        log(self.gd.root, {"action": "reject", "sha256": rej.sha256, "file": str(rej.source), "retry": rej.retry,
                           "at": snap.number, "reasons": rej.reasons})  # fmt: skip
        self.ledger.rejected[rej.sha256] = rej.retry

    # --- repair -------------------------------------------------------------------------------

    def repair(self) -> Check:
        """Rebuild every snapshot that does not follow from the archive, then ``state.toml`` and the reports.

        :raises CorruptFolder: when the archive or the setup itself is damaged (nothing to rebuild from).
        """
        chk = Check()
        if self.ledger.rollback is not None and not self.ledger.rollback_done:
            complete_rollback(self.folder, self.ledger)
        self._sweep(every_report=True)
        try:
            setup_text = self.folder.setup_text()
        except (OSError, UnicodeDecodeError) as e:
            raise CorruptFolder(f"cannot repair: states/{SETUP_NAME} cannot be read ({e})") from None
        if self.ledger.setup_sha256 and sha256(setup_text.encode()) != self.ledger.setup_sha256:
            raise CorruptFolder(f"cannot repair: states/{SETUP_NAME} was changed (its SHA-256 differs from the log's)")
        numbers = sorted(set(self.folder.numbers()) | set(self.ledger.snapshots))
        if numbers != list(range(len(numbers))):
            raise CorruptFolder(f"cannot repair: the snapshots are not numbered 0000 on without gaps ({numbers})")
        prev: Snapshot | None = None
        base, prev_text = GameState.from_toml(setup_text), setup_text
        outcome: Outcome | None = None
        for n in numbers:
            path = self.folder.snapshot_path(n)
            try:
                stored = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                stored = None
            logged = self.ledger.snapshots.get(n)
            if logged is not None:
                applied, deadline = [str(x) for x in logged["applied"]], bool(logged.get("deadline", False))
            elif stored is not None:
                meta = Snapshot.from_toml(stored, where=str(path))
                applied, deadline = meta.applied, meta.deadline
            else:
                raise CorruptFolder(f"cannot repair: {path} is unreadable and the log does not say what it applied")
            understood = [self.read_archived(name) for name in applied]
            outcome = derive(prev, base, n, understood, deadline=deadline,
                             previous_sha256=sha256(prev_text.encode()), board=self.board)  # fmt: skip
            text = outcome.snapshot.to_toml()
            if text != stored:
                if stored is not None:
                    os.replace(path, path.with_name(path.name + ".damaged"))
                self.commit(outcome)
                chk.notes.append(f"rebuilt states/{n:04d}.toml" + (f" (the damaged one is {path.name}.damaged)" if stored else ""))
            prev, base, prev_text = outcome.snapshot, outcome.snapshot.state, text
        if outcome is None:
            chk.notes.append("no step was resolved yet: nothing to rebuild")
            return chk
        try:
            current = self.gd.state_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        if current != prev_text or not (self.folder.report_dir(outcome.snapshot) / REPORT_DONE).is_file():
            write_outputs(self.folder, outcome, prev_text, ledger=self.ledger, templates_dir=self.templates_dir, timings=self.timings)
            chk.notes.append(f"rebuilt state.toml and the reports of step {outcome.snapshot.number:04d}")
        if not chk.notes:
            chk.notes.append("nothing to repair: every snapshot follows from the archive")
        return chk

    # --- one run --------------------------------------------------------------------------------

    def go(self, files: Iterable[Path], *, deadline: bool = False, inbox: bool = True) -> RunResult:
        """Take the files, apply them step by step, and write everything (see the module's doc)."""
        result = RunResult(self.gd.info().id, timings=self.timings)
        snap = self.recover()
        if self.first_written:
            result.steps.append(snap.label())
        todo = [Path(f) for f in files]
        if inbox and self.folder.inbox.is_dir():
            todo += _inbox_files(self.folder.inbox, Intake.judged_by(self.ledger))
        if deadline and self.ledger.open_deadline is not None:
            deadline = False  # an interrupted run ordered it: this run completes that one, not a second
        elif deadline and not snap.state.pending:
            result.notes.append("--deadline: nothing is pending, so no default was used")
            deadline = False
        if deadline:  # logged before the files are taken: it fills what they leave open
            log(self.gd.root, {"action": "deadline", "at": snap.number})
            self.ledger.deadlines.add(snap.number)
            self.ledger.open_deadline = snap.number
        while True:
            t0 = _clock()
            accepted, rejected, deferred = Intake(self.folder, self.ledger, snap.state).run(todo)
            self.timings.verify += _clock() - t0
            for rej in rejected:
                self.reject(rej, snap)
            result.accepted += [a.name for a in accepted]
            result.rejected += rejected
            unapplied = self.ledger.after(snap.applied_through)
            if not unapplied and snap.number not in self.ledger.deadlines:
                break
            new = self.apply(snap, unapplied)
            result.steps.append(new.label())
            result.notes += _flagged(self.outcome)
            if new.deadline:
                result.notes.append(f"deadline: {len(new.defaults)} request(s) took their default")
                still = [r for r in new.requests() if new.since.get(r.key, new.number) <= snap.number]
                result.notes += [f"deadline: {r.house} still owes '{r.prompt}': it has no default" for r in still]
            moved = (new.state.round, new.state.phase) != (snap.state.round, snap.state.phase)
            snap = new
            if not (moved and deferred):
                break
            todo = deferred  # files sealed for the step that just opened
        for path in deferred:
            try:
                digest = sha256(path.read_bytes())
            except OSError:
                continue  # gone since it was read: nothing to keep
            if digest not in self.ledger.rejected:
                rej = Rejection(str(path), digest, ["sealed for a step that is not open yet"], retry=True)
                self.reject(rej, snap)
                result.rejected.append(rej)
            else:
                result.deferred.append(str(path))
        if self.ledger.open_deadline is not None:
            log(self.gd.root, {"action": "deadline-done", "at": self.ledger.open_deadline})
            self.ledger.open_deadline = None
        result.state = snap.state.copy()  # the snapshot itself stays as written: the next run may go on from it
        return result

    def apply(self, prev: Snapshot, unapplied: list[Archived]) -> Snapshot:
        """Derive and commit the next snapshot from archived files and any deadline ordered at ``prev``."""
        understood = [self.read_archived(a.name) for a in unapplied]
        prev_text = self._snapshot_text(prev.number)
        t0 = _clock()
        outcome = derive(prev, prev.state, prev.number + 1, understood, deadline=prev.number in self.ledger.deadlines,
                         previous_sha256=sha256(prev_text.encode()), board=self.board)  # fmt: skip
        self.timings.engine += _clock() - t0
        self.commit(outcome)
        self.outcome = outcome
        return outcome.snapshot


def _sweep(folder: Path, depth: str) -> None:
    """Delete the temporary files of atomic writes in ``folder`` (``depth="**/"``: and below it)."""
    if depth:
        for tmp in folder.glob(f"{depth}.*.tmp"):
            tmp.unlink(missing_ok=True)
        return
    try:
        with os.scandir(folder) as entries:  # as glob(".*.tmp") finds them, without a pattern per name
            found = [e.path for e in entries if e.name.startswith(".") and e.name[1:].endswith(".tmp")]
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in found:
        Path(name).unlink(missing_ok=True)


def _flagged(outcome: Outcome | None) -> list[str]:
    """For the moderator: the files of a step with lines left out or answers refused."""
    out = []
    for u in outcome.understood if outcome else []:
        bad, unusable = len(u.problems), len(_unusable_for(u, outcome))  # type: ignore[arg-type]
        parts = [f"{bad} line{'s' if bad != 1 else ''} left out"] if bad else []
        parts += [f"{unusable} answer{'s' if unusable != 1 else ''} refused by the rules"] if unusable else []
        if parts:
            out.append(f"archive/{u.name}: {', '.join(parts)} (its receipt tells the player why)")
    return out


def check_writable(root: Path) -> None:
    """:raises BatchError: naming the first part of the folder a run could not read or write."""
    for p in [root, *(root / n for n in ("inbox", "archive", "reports", "states"))]:
        if p.exists() and not os.access(p, os.R_OK | os.W_OK | os.X_OK):
            raise BatchError(f"cannot read and write {p}: check its permissions")
    for p in (root / registry.LOG_FILE, root / "state.toml"):
        if p.exists() and not os.access(p, os.R_OK | os.W_OK):
            raise BatchError(f"cannot read and write {p}: check its permissions")


def adjudicate(root: str | Path, files: Iterable[str | Path] = (), *, deadline: bool = False,
               templates_dir: str | Path | None = None, inbox: bool = True) -> RunResult:  # fmt: skip
    """Adjudicate a game folder with the given files and its inbox (see the module's doc).

    :raises GameDirError: (``GameLocked``, ``BatchError``, ``CorruptFolder``) when the folder
        cannot be adjudicated; nothing is changed then.
    """
    gd = GameDir.open(root)
    check_writable(gd.root)
    for d in ("inbox", "archive", "reports", "states"):
        gd.folder(d).mkdir(exist_ok=True)
    with gd.lock():
        run = Run(gd, templates_dir=Path(templates_dir) if templates_dir else None)
        return run.go([Path(f) for f in files], deadline=deadline, inbox=inbox)


def repair(root: str | Path, *, templates_dir: str | Path | None = None) -> Check:
    """``maester replay --repair``: rebuild damaged snapshots, ``state.toml`` and reports from the archive.

    :raises GameDirError: when the folder cannot be repaired (a damaged archive or setup).
    """
    gd = GameDir.open(root)
    check_writable(gd.root)
    with gd.lock():
        return Run(gd, templates_dir=Path(templates_dir) if templates_dir else None).repair()


def status(root: str | Path) -> dict[str, Any]:
    """Who owes what and since which step, read from the latest snapshot (see :func:`pending_view`).

    :raises GameDirError: when the folder has no resolved step yet, or its state is damaged.
    """
    gd = GameDir.open(root)
    folder = Folder(gd)
    numbers = folder.numbers()
    if not numbers:
        state = gd.load_state()
        return pending_view(Snapshot(-1, state), gd.info().id) | {"snapshot": -1, "label": "not adjudicated yet"}
    snap = folder.read_snapshot(numbers[-1])
    try:
        current = gd.state_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        current = None
    if current != folder.snapshot_path(snap.number).read_text(encoding="utf-8"):
        raise CorruptFolder(f"{gd.state_file} does not match states/{snap.number:04d}.toml; run 'maester adjudicate "
                            f"{root}' to finish an interrupted run, or 'maester replay --repair {root}'")  # fmt: skip
    return pending_view(snap, gd.info().id)


# --- many games at once -----------------------------------------------------------------------


def _one(job: tuple[str, bool, str | None]) -> tuple[str, int, list[str]]:
    root, deadline, templates = job
    try:
        r = adjudicate(root, deadline=deadline, templates_dir=templates)
        return root, r.exit_status, [f"{root} (game {r.game}):", *r.lines()[1:]]
    except (GameDirError, registry.RegistryError, OSError) as e:
        return root, 2, [f"game {root}: {e}"]


def game_folders(parent: str | Path) -> list[Path]:
    """The game folders directly inside ``parent`` (those with a ``game.toml``), sorted."""
    return sorted(p for p in Path(parent).iterdir() if (p / "game.toml").is_file())


def adjudicate_all(parent: str | Path, *, jobs: int = 1, deadline: bool = False,
                   templates_dir: str | Path | None = None,
                   progress: Optional[Callable[[int, int], None]] = None) -> dict[str, tuple[int, list[str]]]:  # fmt: skip
    """Adjudicate every game folder in ``parent``, ``jobs`` at a time in separate processes.

    Returns, per folder, the exit status and the lines of its run. ``progress(done, total)`` is
    called after each folder.
    """
    work = [(str(p), deadline, str(templates_dir) if templates_dir else None) for p in game_folders(parent)]
    out: dict[str, tuple[int, list[str]]] = {}
    if jobs <= 1:
        for i, job in enumerate(work, 1):
            root, code, lines = _one(job)
            out[root] = (code, lines)
            if progress:
                progress(i, len(work))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_one, job) for job in work]
        for i, fut in enumerate(as_completed(futures), 1):
            root, code, lines = fut.result()
            out[root] = (code, lines)
            if progress:
                progress(i, len(work))
    return dict(sorted(out.items()))


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on a terminal (nothing when the output is not one)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
