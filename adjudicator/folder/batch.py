"""The moderator's main job: adjudicate a game folder in one run.

``adjudicate(GAME_DIR, files)`` takes the given files and everything in ``inbox/``; checks each
seal (a file whose seal fails is not parsed at all); archives and logs every accepted submission;
parses it, applies what is valid and advances the engine as far as the answers allow; then writes
the new snapshot, ``state.toml``, the reports, the receipts and who owes what (``pending``).

Crash safety rests on one order of writes, each atomic or append-only with fsync:

1. ``archive/NNNNNN-….txt`` (the accepted bytes), then its ``accept`` line in ``log``;
2. ``states/NNNN.toml``: the snapshot, recording which archived files it applied and whether a
   deadline filled the open requests: *the commit point*;
3. its ``snapshot`` line in ``log``, ``state.toml``, ``pending``, the record of the step's reports last.

``state.toml`` is the snapshot's file: its bytes are written once, beside it, linked as the
snapshot at 2. and renamed onto ``state.toml`` at 3. (ruling 390).

A run killed anywhere is finished by the next one: archived-but-unapplied files are applied, and
the outputs of the latest snapshot are re-derived (the engine is pure) and rewritten. No file is
lost or applied twice, and the result is byte for byte that of an uninterrupted run. See
``docs/game-folder.md`` for the layout and ``docs/rulings.md`` (rulings 90-99) for the choices.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..game.board import Board
from ..game.state import GameState
from ..game.table_settings import changed_settings
from ..seals.seal import SealError
from ..turnfile.names import vocabulary_of
from ..util import fileio
from . import deadlines, registry
from .audit import (
    PENDING_JSON,
    SETUP_NAME,
    BatchError,
    Check,
    CorruptFolder,
    Folder,
    Outcome,
    Snapshot,
    Understood,
    derive,
    logged_leaving,
    logged_rule,
    pending_view,
    understand,
)
from .defaults import DefaultRule
from .gamedir import GameDir, GameDirError
from .intake import Intake, Rejection, inbox_files
from .ledger import Archived, Ledger, keep_reading, log, log_lost, log_size, sha256
from .notices import game_path, in_inbox, kept_name, move, settle_inbox, who_gets, write_receipts
from .notices import waiting as notices_waiting
from .outputs import Timings, clock, edited_in_place, repair_record, same_file, write_outputs
from .receipts import (
    dropped_text,
    replaced_answers,
    shown,
    unusable_for,
)
from .setaside import complete_rollback
from .settle import Settled, locked

# --- snapshots this process wrote or read --------------------------------------------------------

_KNOWN: dict[str, Snapshot] = {}  # a snapshot's text -> the snapshot; the latest few of this process
_KNOWN_KEPT = 16


def forget_snapshots() -> None:
    """Forget the snapshots this process wrote or read: the next run parses them as a new command does."""
    _KNOWN.clear()


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
    # The state written to state.toml as the latest snapshot holds it, shared with the next run of
    # this process, which goes on from that snapshot: to read, never to change (``state`` is a copy).
    latest: GameState | None = field(default=None, repr=False)
    receipts: dict[str, str] = field(default_factory=dict)  # archive name -> its receipt, in the game folder
    players: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)  # game.toml's, for the lines
    _own: GameState | None = field(default=None, repr=False)

    @property
    def state(self) -> GameState | None:
        """The state written to ``state.toml``: a copy of the latest snapshot's, the caller's own
        (made when first asked: a caller that only reads takes :attr:`latest`)."""
        if self._own is None and self.latest is not None:
            self._own = self.latest.copy()
        return self._own

    @state.setter
    def state(self, state: GameState | None) -> None:
        self._own = state

    @property
    def exit_status(self) -> int:
        """0 when all went well, 1 when some file was rejected (a file kept for later is not).

        >>> RunResult("demo", rejected=[Rejection("late.txt", "ab12", ["not open yet"], retry=True)]).exit_status
        0
        """
        return 1 if any(not r.retry for r in self.rejected) else 0

    def lines(self) -> list[str]:
        out = [f"game {self.game}:"]
        out += [f"  accepted archive/{n}" + (f"; receipt {self.receipts[n]}" if n in self.receipts else "")
                for n in self.accepted]  # fmt: skip
        for r in self.rejected:
            what = "kept for later" if r.retry else "rejected"
            out.append(f"  {what} {shown(r.source)}:")
            out += [f"    {x}" for x in r.reasons]
            out += [f"    receipt {path}: for {who_gets(who, self.players)}" for who, path in r.receipts.items()]
            if r.kept:
                out.append(f"    the file is kept in {r.kept}")
        out += [f"  kept for a later step: {shown(d)}" for d in self.deferred]
        out += [f"  wrote reports/{s}.json" for s in self.steps]  # the step's record: 'maester reports' renders it
        out += [f"  {n}" for n in self.notes]
        if len(out) == 1:
            out.append("  nothing new")
        return out


class Run:
    """One adjudication of one game folder, under its lock."""

    def __init__(self, gd: GameDir, *, templates_dir: Path | None = None, board: Board | None = None,
                 settled: Settled | None = None) -> None:  # fmt: skip
        self.gd, self.folder = gd, Folder(gd)
        self.templates_dir, self.board = templates_dir, board  # None: each state's own map (state.board())
        self.timings = Timings()
        self.outcome: Outcome | None = None  # of the latest step applied by this run
        self.first_written = False  # this run resolved the game's first step (snapshot 0000)
        # What settling read under this lock, while the log is as it was then (a cut last line is not read).
        fresh = settled if settled is not None and settled.log_size == log_size(gd.root) else None
        self.settled_numbers = fresh.numbers if fresh else None
        self.ledger = fresh.ledger if fresh else Ledger.read(gd.root)
        self.read_back: dict[str, Understood] = {}  # files this run archived, as intake read them back
        self.in_force: dict[str, list[str]] | None = None  # the keys in force, as this run's intake read game.toml
        self.texts: dict[int, str] = {}  # snapshot number -> its text, as this run read or wrote it

    # --- recovery: finish whatever a killed run left half done ---------------------------------

    def recover(self) -> Snapshot:
        """The latest snapshot, its outputs complete; creates snapshot 0000 on the first run.

        :raises CorruptFolder: when ``state.toml`` or a snapshot disagrees with the others.
        """
        numbers, self.settled_numbers = self.settled_numbers, None
        if self.ledger.rollback is not None and not self.ledger.rollback_done:
            complete_rollback(self.folder, self.ledger)
            numbers = None  # moved aside
        # The temporary files of a killed run were swept by settle, under the lock this run holds (locked()).
        if numbers is None:
            numbers = self.folder.numbers()
        if not numbers:
            return self._first()
        n = numbers[-1]
        text = self._snapshot_text(n)
        logged = self.ledger.snapshot_line(n)
        try:
            snap = snapshot_of(text, where=str(self.folder.snapshot_path(n)))
            self._check_log(numbers, logged, text, snap.applied)
        except CorruptFolder as e:
            raise edited_in_place(self.folder, n, text, self.ledger) or e from None
        if (rendered := self.folder.report_dir(snap)).is_dir():  # a step's pages, with templates or by an older Maester
            _sweep(rendered, "**/")
        try:
            current = self.gd.state_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        finished = current == text and self.folder.reports_done(snap) and self._pending_number() == n
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

    def _check_log(self, numbers: list[int], logged: dict[str, Any] | None, text: str, applied: list[str]) -> None:
        """The log must record the setup, every snapshot but the latest, the latest as it is, and
        the acceptance of every file the latest applied (ruling 170).

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
        unrecorded = [name for name in applied if self.ledger.find(name) is None]
        if unrecorded:  # accepted before the snapshot was written: only a log cut short loses them
            raise CorruptFolder(f"{self.gd.root / 'log'} does not record the acceptance of archive/{unrecorded[0]}: "
                                "the log was lost or cut short; restore it from a backup (nothing was changed)")

    def _sweep(self, *, every_report: bool = False) -> None:
        """Remove the temporary files of atomic writes a killed run left behind (we hold the lock).

        A run writes in the game folder, ``states/``, ``archive/``, ``reports/`` (a new step's
        folder, written as ``.NAME.tmp`` and renamed) and the report folder of the latest snapshot
        only: a step's snapshot is written before its reports, and a receipt goes to the folder of
        the step it was judged at, the latest. So a killed run's temporary file is in one of these:
        settle (:mod:`adjudicator.folder.settle`) sweeps them all before a run, under the lock it
        holds, and :meth:`recover` the latest report folder and below once it knows the latest
        snapshot; only a repair, which may rewrite any step's reports, sweeps them all again here.
        """
        for folder in (self.gd.root, self.folder.states, self.folder.archive, self.folder.reports):
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
        """The text of ``states/NNNN.toml``: as this run read or wrote it last (it holds the lock), else read."""
        if (known := self.texts.get(n)) is not None:
            return known
        path = self.folder.snapshot_path(n)
        try:
            self.texts[n] = path.read_text(encoding="utf-8")
            return self.texts[n]
        except PermissionError as e:
            raise CorruptFolder(f"cannot read {path}: {e.strerror} (check its permissions)") from None
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
        understood = [self.read_archived(name, vocabulary_of(base)) for name in stored.applied]
        outcome = derive(prev, base, n, understood, deadline=stored.deadline, previous_sha256=sha256(prev_text.encode()),
                         board=self.board, rule=stored.rule(), leaving=stored.leaving)  # fmt: skip
        if outcome.snapshot.to_toml() != text:
            raise CorruptFolder(f"states/{n:04d}.toml does not follow from the snapshot before it and "
                                f"{', '.join(stored.applied) or 'no archived file'}; see 'maester replay {self.gd.root}'")  # fmt: skip
        return outcome

    def read_archived(self, name: str, variant: str) -> Understood:
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
        if (taken := self.read_back.pop(name, None)) is not None:
            return taken  # read back from these very bytes by intake, a moment ago
        t0 = clock()
        try:
            return understand(name, data, known, self.ledger.moderator_accepts, variant=variant)
        except SealError as e:
            numbers = self.folder.numbers()
            latest = f"{numbers[-1]:04d}" if numbers else "NNNN"
            raise CorruptFolder(f"archive/{name} holds no readable turn: {e}; when no step applied it yet, set it aside "
                                f"for good with 'maester rollback {self.gd.root} --to {latest} --drop archive/{name} --reason ...'"
                                ) from None  # fmt: skip
        finally:
            self.timings.parse += clock() - t0

    # --- writing --------------------------------------------------------------------------------

    def commit(self, outcome: Outcome) -> None:
        """Write the snapshot (the commit point), log it, then its outputs; the snapshot's bytes are
        written once, beside ``state.toml``, linked as the snapshot, renamed onto it last (ruling 390)."""
        text = outcome.snapshot.to_toml()
        data = text.encode("utf-8")
        staged = fileio.stage(self.gd.state_file, data)
        try:
            fileio.link_staged(staged, self.folder.snapshot_path(outcome.snapshot.number), data)
            self.texts[outcome.snapshot.number] = text
            _remember(outcome.snapshot, text)
            self._log_snapshot(outcome.snapshot, text)
            write_outputs(self.folder, outcome, text, ledger=self.ledger, templates_dir=self.templates_dir,
                          timings=self.timings, in_force=self.in_force, staged=staged)  # fmt: skip
        finally:
            fileio.remove_temp(staged)  # gone once placed; else not left for a sweep

    def _log_snapshot(self, snap: Snapshot, text: str) -> None:
        entry = {"action": "snapshot", "number": snap.number, "sha256": sha256(text.encode()),
                 "applied": snap.applied, "deadline": snap.deadline, "defaults": snap.defaults}  # fmt: skip
        entry |= {k: v for k, v in (("disorder", snap.disorder), ("missed", snap.missed), ("leaving", snap.leaving)) if v}
        self.ledger.put_snapshot(log(self.gd.root, entry))  # with its time: when the step was asked

    def reject(self, rej: Rejection, snap: Snapshot) -> None:
        """The receipts first, then the log line, then the file out of the inbox: a killed run writes
        the same receipts again, and the next run moves the file (see :mod:`adjudicator.folder.notices`)."""
        if not rej.sha256:
            return  # an unreadable input: reported, nothing to keep
        source = Path(rej.source)
        shown_rej = Rejection(shown(rej.source), rej.sha256, rej.reasons, rej.retry, rej.taken, list(rej.by))
        rej.receipts = write_receipts(self.folder, shown_rej, snap, source)
        where = rej.source if rej.returning else shown(game_path(self.gd.root, source))
        if not rej.retry and not rej.returning and in_inbox(self.folder, source):
            rej.kept = kept_name(self.folder, source, rej.sha256)
        entry: dict[str, Any] = {"action": "reject", "sha256": rej.sha256, "file": where, "retry": rej.retry,
                                 "at": snap.number, "reasons": rej.reasons, "receipts": rej.receipts}  # fmt: skip
        entry |= {"kept": rej.kept} if rej.kept else {}
        entry |= {"returning": rej.returning} if rej.returning else {}
        log(self.gd.root, entry)
        self.ledger._take(entry | {"time": ""})
        if rej.kept:
            move(source, self.gd.root / rej.kept)

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
            logged = self.ledger.snapshot_line(n)
            if logged is not None:
                applied, deadline = [str(x) for x in logged["applied"]], bool(logged.get("deadline", False))
                rule, leaving = logged_rule(logged), logged_leaving(logged)
            elif stored is not None:
                meta = Snapshot.from_toml(stored, where=str(path))
                applied, deadline, rule, leaving = meta.applied, meta.deadline, meta.rule(), meta.leaving
            else:
                raise CorruptFolder(f"cannot repair: {path} is unreadable and the log does not say what it applied")
            understood = [self.read_archived(name, vocabulary_of(base)) for name in applied]
            outcome = derive(prev, base, n, understood, deadline=deadline, previous_sha256=sha256(prev_text.encode()),
                             board=self.board, rule=rule, leaving=leaving)  # fmt: skip
            text = outcome.snapshot.to_toml()
            if text != stored:
                both = " and state.toml, one file changed in place (ruling 390)" if same_file(path, self.gd.state_file) else ""
                if stored is not None:
                    os.replace(path, path.with_name(path.name + ".damaged"))
                self.commit(outcome)
                chk.notes.append(f"rebuilt states/{n:04d}.toml{both}" + (f" (the damaged one is {path.name}.damaged)" if stored else ""))
            elif note := repair_record(self.folder, outcome, ledger=self.ledger):
                chk.notes.append(note)
            prev, base, prev_text = outcome.snapshot, outcome.snapshot.state, text
        if outcome is None:
            chk.notes.append("no step was resolved yet: nothing to rebuild")
            return chk
        try:
            current = self.gd.state_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        if current != prev_text or not self.folder.reports_done(outcome.snapshot):
            write_outputs(self.folder, outcome, prev_text, ledger=self.ledger, templates_dir=self.templates_dir, timings=self.timings)
            chk.notes.append(f"rebuilt state.toml and the reports of step {outcome.snapshot.number:04d}")
        if not chk.notes:
            chk.notes.append("nothing to repair: every snapshot follows from the archive")
        return chk

    # --- one run --------------------------------------------------------------------------------

    def go(self, files: Iterable[Path], *, deadline: bool = False, inbox: bool = True,
           now: datetime | None = None) -> RunResult:  # fmt: skip
        """Take the files, apply them step by step, and write everything (see the module's doc).

        ``deadline``: the requests past due at ``now`` (default: the time of the run) take their defaults.
        """
        whole = self.gd.read_game()  # read once for both
        info = self.gd.info(whole)
        result = RunResult(info.id, timings=self.timings)
        schedule = deadlines.load_schedule(self.gd, whole)  # a bad [deadlines] table stops the run before it writes
        snap = self.recover()
        if (changed := changed_settings(info.options, snap.state)) is not None:  # ruling 449
            raise CorruptFolder(f"{self.gd.game_file}: {changed} (nothing was changed)")
        self.clock = deadlines.Clock(schedule, self.ledger, now or datetime.now(UTC))
        if self.first_written:
            result.steps.append(snap.label())
        game: dict[str, Any] | None = None  # game.toml, read once for the run (the folder is locked)
        with contextlib.suppress(registry.RegistryError):  # said by the intake, which needs game.toml too
            game = registry.read_game(self.gd.root)
            result.players = registry.players(game)
        # Files a rollback gave back come first: an inbox copy of one of them is then known as the same turn.
        todo = [self.folder.archive / n for n in sorted(self.ledger.returning, key=lambda n: self.ledger.returning[n].index)]
        todo += [Path(f) for f in files]
        if inbox and self.folder.inbox.is_dir():
            todo += inbox_files(self.folder.inbox, lambda digest: False)
        looked = list(todo)
        digests: dict[str, str] = {}
        done: set[str] = set()  # input files whose turns are all taken
        early_house: dict[str, str] = {}
        result.notes += deadlines.disorder_lines(self.gd.root, self.ledger, snap)
        not_called = False
        if deadline and self.ledger.open_deadline is None:  # else an interrupted run called it: this run completes it
            # Logged before the files are taken: it fills what they leave open.
            not_called = bool(deadlines.call(self.gd.root, self.ledger, self.clock, snap))
        while True:
            t0 = clock()
            intake = Intake(self.folder, self.ledger, snap.state, game)
            self.in_force = intake.in_force
            accepted, rejected, deferred = intake.run(todo)
            self.read_back.update(intake.understood)
            self.timings.verify += clock() - t0
            for rej in rejected:
                if not rej.by and rej.sha256:  # a file refused as a whole before any seal was read
                    rej.by = [""] * len(rej.reasons)
                self.reject(rej, snap)
            digests.update(intake.digests)
            done |= intake.copies | (intake.taken_from - {r.source for r in rejected})
            early_house.update(intake.early_house)
            result.accepted += [a.name for a in accepted]
            result.rejected += rejected
            unapplied = self.ledger.after(snap.applied_through)
            disorder = deadlines.disorder_now(self.ledger, schedule)
            leaving = self.ledger.leaves.get(snap.number, [])  # maester leave, said in this step (M124)
            if not unapplied and snap.number not in self.ledger.deadlines and not disorder.owes(snap) and not leaving:
                break
            rule = deadlines.rule_for(snap, self.ledger, disorder)
            new = self.apply(snap, unapplied, rule, leaving)
            result.steps.append(new.label())
            result.receipts |= {u.name: f"reports/{new.label()}.json (receipts/{u.name})" for u in self.outcome.understood} \
                if self.outcome else {}  # fmt: skip
            result.notes += _flagged(self.outcome)
            result.notes += deadlines.after_step(self.gd.root, self.ledger, new, self.outcome, rule, disorder)
            moved = (new.state.round, new.state.phase) != (snap.state.round, snap.state.phase)
            snap = new
            if not (moved and deferred):
                break
            todo = deferred  # files sealed for the step that just opened
        for path in deferred:
            if path.parent == self.folder.archive:  # given back by a rollback: it waits in the archive
                result.deferred.append(f"archive/{path.name}")
                continue
            try:
                digest = sha256(path.read_bytes())
            except OSError:
                continue  # gone since it was read: nothing to keep
            if digest not in self.ledger.rejected:
                rej = Rejection(str(path), digest, ["sealed for a step that is not open yet"], retry=True,
                                by=[early_house.get(str(path), "")])  # fmt: skip
                self.reject(rej, snap)
                result.rejected.append(rej)
            else:
                result.deferred.append(str(path))
        settle_inbox(self.folder, self.ledger, looked, digests, done)
        if not_called:  # said of the step the run ends at: its files may have answered the first due
            result.notes += deadlines.not_yet(self.clock, snap)
        if self.ledger.open_deadline is not None:
            log(self.gd.root, {"action": "deadline-done", "at": self.ledger.open_deadline})
            self.ledger.open_deadline = None
        result.latest = snap.state  # the snapshot itself stays as written: the next run may go on from it
        self.in_force = None  # read again by the next run
        return result

    def apply(self, prev: Snapshot, unapplied: list[Archived], rule: DefaultRule, leaving: list[str]) -> Snapshot:
        """Derive and commit the next snapshot from archived files and the defaults ``rule`` names (a
        deadline called at ``prev``, the houses in civil disorder: :func:`deadlines.rule_for`), with
        the players ``maester leave`` named at ``prev``."""
        understood = [self.read_archived(a.name, vocabulary_of(prev.state)) for a in unapplied]
        prev_text = self._snapshot_text(prev.number)
        t0 = clock()
        outcome = derive(prev, prev.state, prev.number + 1, understood, deadline=prev.number in self.ledger.deadlines,
                         previous_sha256=sha256(prev_text.encode()), board=self.board, rule=rule, leaving=leaving)  # fmt: skip
        self.timings.engine += clock() - t0
        self.commit(outcome)
        self.outcome = outcome
        return outcome.snapshot


def _sweep(folder: Path, depth: str) -> None:
    """Delete the temporary files and folders of atomic writes in ``folder`` (``depth="**/"``: and below it)."""
    if depth:
        for tmp in list(folder.glob(f"{depth}.*.tmp")):
            fileio.remove_temp(tmp)
        return
    fileio.sweep_temp(folder)


def _flagged(outcome: Outcome | None) -> list[str]:
    """For the moderator: the files of a step with lines left out or answers refused, and those that
    dropped a house's earlier answers (ruling 94)."""
    out = []
    replaced = replaced_answers(outcome.start, outcome.understood) if outcome and outcome.understood else {}
    for u in outcome.understood if outcome else []:
        if gone := replaced.get(u.name):
            texts = "; ".join(str(a.get("text", "")) for a in gone)
            out.append(f"archive/{u.name}: {dropped_text(gone)}: {texts} (seq {u.header.seq} replaces them; "
                       "its receipt tells the player)")
        bad, unusable = len(u.problems), len(unusable_for(u, outcome))  # type: ignore[arg-type]
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
               templates_dir: str | Path | None = None, inbox: bool = True, now: datetime | None = None) -> RunResult:  # fmt: skip
    """Adjudicate a game folder with the given files and its inbox (see the module's doc).

    ``deadline``: the requests past due at ``now`` (the moderator's clock; default: the time of the
    run) take their defaults (:mod:`adjudicator.folder.deadlines`).

    :raises GameDirError: (``GameLocked``, ``BatchError``, ``CorruptFolder``) when the folder
        cannot be adjudicated; nothing is changed then.
    """
    gd = GameDir.open(root)
    check_writable(gd.root)
    for d in ("inbox", "archive", "reports", "states"):
        gd.folder(d).mkdir(exist_ok=True)
    with locked(gd) as settled:
        before = log_size(gd.root)
        run = Run(gd, templates_dir=Path(templates_dir) if templates_dir else None, settled=settled)
        result = run.go([Path(f) for f in files], deadline=deadline, inbox=inbox, now=now)
        if log_size(gd.root) != before:  # a run that wrote nothing leaves the folder as it was
            keep_reading(gd.root)  # the next command reads the log on from here
        return result


def repair(root: str | Path, *, templates_dir: str | Path | None = None) -> Check:
    """``maester replay --repair``: rebuild damaged snapshots, ``state.toml`` and reports from the archive.

    :raises GameDirError: when the folder cannot be repaired (a damaged archive or setup).
    """
    gd = GameDir.open(root)
    check_writable(gd.root)
    with locked(gd):
        return Run(gd, templates_dir=Path(templates_dir) if templates_dir else None).repair()


def status(root: str | Path, *, now: datetime | None = None) -> dict[str, Any]:
    """Who owes what, since which step and by when, read from the latest snapshot (see :func:`pending_view`
    and :func:`adjudicator.folder.deadlines.dated_view`); ``now``: the moderator's clock.

    :raises GameDirError: when the folder has no resolved step yet, or its state or schedule is damaged.
    """
    gd = GameDir.open(root)
    folder = Folder(gd)
    numbers = folder.numbers()
    if not numbers:
        state = gd.load_state()
        return pending_view(Snapshot(-1, state), gd.info().id) | {"snapshot": -1, "label": "not adjudicated yet"}
    n = numbers[-1]
    try:
        snap = folder.read_snapshot(n)
    except CorruptFolder as e:
        raise edited_in_place(folder, n, "") or e from None
    if edited := edited_in_place(folder, n, folder.snapshot_path(n).read_text(encoding="utf-8")):
        raise edited  # ruling 98: state.toml edited, and its snapshot with it
    try:
        current = gd.state_file.read_text(encoding="utf-8")
    except PermissionError as e:
        raise BatchError(f"cannot read {gd.state_file}: {e.strerror} (check its permissions)") from None
    except (OSError, UnicodeDecodeError):
        current = None
    if current != folder.snapshot_path(snap.number).read_text(encoding="utf-8") and _interrupted(folder, snap, current):
        view = deadlines.dated_view(gd, snap, now=now or datetime.now(UTC))  # the snapshot is the commit point
        return view | {"interrupted": f"a run was interrupted after writing states/{snap.number:04d}.toml and before "
                                      f"its reports: the next 'maester adjudicate {root}' finishes it"}  # fmt: skip
    if current != folder.snapshot_path(snap.number).read_text(encoding="utf-8"):
        raise CorruptFolder(f"{gd.state_file} does not match states/{snap.number:04d}.toml; run 'maester adjudicate "
                            f"{root}' to finish an interrupted run, or 'maester replay --repair {root}'")  # fmt: skip
    return deadlines.dated_view(gd, snap, now=now or datetime.now(UTC))


def _interrupted(folder: Folder, snap: Snapshot, current: str | None) -> bool:
    """Whether ``state.toml`` (``current``) is the step before ``snap`` because the run that wrote ``snap``
    was killed before its outputs, as :meth:`Run.recover` finishes it (ruling 331)."""
    if folder.reports_done(snap):
        return False
    try:
        before = folder.snapshot_path(snap.number - 1).read_text(encoding="utf-8") if snap.number else folder.setup_text()
    except (OSError, UnicodeDecodeError):
        return False
    return current == before


def waiting(root: str | Path) -> list[str]:
    """The files that wait, one line each (``maester status``): inbox files sealed for a later step or
    not read yet, and archived files a rollback gave back (see :func:`adjudicator.folder.notices.waiting`)."""
    gd = GameDir.open(root)
    return notices_waiting(Folder(gd), Ledger.read(gd.root))
