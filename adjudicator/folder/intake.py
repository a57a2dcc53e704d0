"""Taking files into a game: seals first, then the headers in a fixed order; archive and log.

Part of the batch run (:mod:`adjudicator.folder.batch`): a file whose seal fails is never parsed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game.state import GameState
from ..seals.seal import (
    NoSeal,
    SealError,
    WrongStep,
    decode,
    normalise,
)
from ..turnfile.header import (
    STEPS,
    Header,
    HeaderError,
    find_header,
)
from ..turnfile.names import vocabulary_of
from ..util import fileio
from . import registry
from .audit import (
    BatchError,
    Folder,
    Understood,
    understand,
)
from .ledger import Archived, Ledger, sha256

MAX_INPUT_BYTES = 5_000_000  # a turn is a few kilobytes; a mail with attachments stays far below this


# --- intake: seals first, then the headers in a fixed order -----------------------------------


@dataclass
class Rejection:
    """An input file (or part of one) that was not accepted, with every reason.

    ``by`` names, reason by reason, the house whose registered key made a good seal over the part
    that reason is about ("" when no registered key did: an unknown key, a damaged seal, no seal):
    the receipt goes to that house, never to whoever sent the file (:mod:`adjudicator.folder.notices`).
    """

    source: str
    sha256: str
    reasons: list[str]
    retry: bool = False  # sealed for a step not open yet: tried again when it opens
    taken: list[str] = field(default_factory=list)  # archive names of the other blocks of the file, accepted
    by: list[str] = field(default_factory=list)  # per reason: the house whose key sealed that part, or ""
    receipts: dict[str, str] = field(default_factory=dict)  # recipient (house or "moderator") -> receipt path
    returning: str = ""  # the archived file a rollback gave back, refused now: it stays set aside
    kept: str = ""  # where the refused inbox file went (refused/files/...)

    def signer(self, i: int) -> str:
        """Who sealed the part reason ``i`` is about ("" when unknown)."""
        return self.by[i] if i < len(self.by) else ""


@dataclass
class _Candidate:
    source: str
    file_sha: str
    data: bytes  # what is archived: the block alone (its normalised text and seal), or an accepted unsealed text
    header: Header
    where: str  # "lines 3-14" in the input file
    sealed: bool = True  # False: an unsealed text the moderator accepted
    readmit: str = ""  # an archived file a rollback gave back: taken again under its own name, not copied


# The SHA-256 of each input file this process read, by path, with the file's identity then (device,
# inode, size, change times): the inbox keeps its files, and one judged before is not read again.
_DIGESTS: dict[str, tuple[tuple[int, ...], str]] = {}
_DIGESTS_KEPT = 100_000


def forget_digests() -> None:
    """Forget the input files this process hashed: the next run reads them as a new command does."""
    _DIGESTS.clear()


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


def inbox_files(inbox: Path, judged: Callable[[str | None], bool]) -> list[Path]:
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

    def __init__(self, folder: Folder, ledger: Ledger, state: GameState, game: dict[str, Any] | None = None) -> None:
        """``game``: ``game.toml`` as this run read it (read here when ``None``).

        :raises BatchError: when game.toml lacks what the seal checks need."""
        self.folder, self.ledger, self.state = folder, ledger, state
        self.understood: dict[str, Understood] = {}  # archive name -> the turn as read back before archiving it
        self.digests: dict[str, str] = {}  # input path -> the SHA-256 of its bytes (files read)
        self.copies: set[str] = set()  # input paths whose every sealed turn was accepted before: nothing new
        self.taken_from: set[str] = set()  # input paths with a turn accepted now
        self.early_house: dict[str, str] = {}  # input path sealed for a later step -> the house whose key sealed it
        try:
            game = registry.read_game(folder.root) if game is None else game
            players = registry.houses(game)
            entries = registry.key_entries(game)
            self.in_force = registry.in_force(entries)  # the keys the step's record names (read once a run)
            self.checker = registry.Checker(
                registry.game_id(game), players, entries,
                (state.round, state.phase), ledger.highest_for(state.round, state.phase), {h for h in players if h in state.vassals},
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
            if path.parent == self.folder.archive and path.name in self.ledger.returning:
                self._take_back(path, good, rejected, deferred, taken)
                continue
            try:
                st = path.stat()
                if self._judged(known := _digest_seen(path, st)):
                    self.digests[str(path)] = str(known)
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
            self.digests[str(path)] = digest
            if self._judged(digest) or digest in taken or digest in seen:
                continue  # processed by an earlier run, or a copy of a file of this run (idempotent)
            seen.add(digest)
            before = len(good)
            reasons, by, early = self._check_file(path, data, digest, good, taken)
            if reasons:
                rejected[str(path)] = Rejection(str(path), digest, reasons, by=by)
            elif early:
                deferred.append(path)
            elif len(good) == before:
                self.copies.add(str(path))  # every turn in it was taken before (a resent or quoted copy)
        # Order-independent: a house's seq 1 and seq 2 give the same result in either order.
        good.sort(key=lambda c: (*_step_index(c.header.round, c.header.step), c.header.house, c.header.seq, c.source))
        accepted: list[Archived] = []
        kept: dict[str, list[str]] = {}  # source -> archive names of its blocks accepted now
        for c in good:
            fault = self.checker.check_header(c.header)
            why = f"invalid [{fault.code}]: {fault}" if fault is not None else self._unreadable(c)
            if why:
                rej = rejected.setdefault(c.source, Rejection(c.source, c.file_sha, [], returning=c.readmit))
                rej.reasons.append(f"{c.where}: {why}")
                rej.by.append(c.header.house if c.sealed else "")  # its seal held: that house's key
                continue
            accepted.append(self._archive(c))
            kept.setdefault(c.source, []).append(accepted[-1].name)
            self.taken_from.add(c.source)
        for source, rej in rejected.items():
            rej.taken = kept.get(source, [])
        deferred = [p for p in deferred if str(p) not in rejected]
        return accepted, list(rejected.values()), deferred

    def _take_back(self, path: Path, good: list[_Candidate], rejected: dict[str, Rejection], deferred: list[Path],
                   taken: set[str]) -> None:  # fmt: skip
        """An archived file a rollback set aside and gave back (ruling 301): checked again as if it had
        just come in, and taken again under its own name; sealed for a later step, it waits for it."""
        record = self.ledger.returning[path.name]
        source = f"archive/{path.name}"
        try:
            data = path.read_bytes()
        except OSError as e:
            rejected[source] = Rejection(source, record.sha256, [f"cannot read the file: {e.strerror}"], by=[""],
                                         returning=path.name)  # fmt: skip
            return
        if sha256(data) != record.sha256:
            why = "it was changed after it was accepted (its SHA-256 differs from the log's): it stays set aside"
            rejected[source] = Rejection(source, record.sha256, [why], by=[""], returning=path.name)
            return
        found: list[_Candidate] = []
        reasons, by, early = self._check_file(path, data, record.sha256, found, taken)
        for c in found:
            c.source, c.readmit = source, path.name
        good.extend(found)
        if reasons:
            rejected[source] = Rejection(source, record.sha256, reasons, by=by, returning=path.name)
        elif early:
            deferred.append(path)
        elif not found:  # its turn came in again since, sent anew, and was taken: this one is not needed
            why = "the same turn was taken again since the rollback (sent anew): this copy stays set aside"
            rejected[source] = Rejection(source, record.sha256, [why], by=[""], returning=path.name)

    def _judged(self, digest: str | None) -> bool:
        """Whether a file with this SHA-256 was accepted, or refused for good, by an earlier run (ruling 96)."""
        return self.judged_by(self.ledger)(digest)

    @staticmethod
    def judged_by(ledger: Ledger) -> Callable[[str | None], bool]:
        """The question :meth:`_judged` asks, of a ledger: a file dropped by a rollback counts as judged."""
        return lambda digest: digest is not None and (
            ledger.is_accepted(digest) or ledger.rejected.get(digest) is False or ledger.is_dropped(digest))

    def _check_file(self, path: Path, data: bytes, digest: str, good: list[_Candidate],
                    taken: set[str]) -> tuple[list[str], list[str], bool]:  # fmt: skip
        """The reasons to refuse the file (with, for each, the house whose key sealed that part, or
        ""), and whether it waits for a later step; its acceptable turns go to ``good``."""
        try:
            text = decode(data)
        except SealError as e:
            return [f"invalid [{e.code}]: {e}"], [""], False
        report = self.checker.check(text)
        unsealed = not report.verdicts or (len(report.verdicts) == 1 and isinstance(report.verdicts[0].error, NoSeal))
        if unsealed and (accepted := self._moderator_accepted(text)) is not None:
            header, body = accepted
            good.append(_Candidate(str(path), digest, body, header, "the whole file (accepted unsealed by the moderator)",
                                   sealed=False))  # fmt: skip
            return [], [], False
        if not report.verdicts:
            return [f"invalid [{report.error.code}]: {report.error}" if report.error else "no sealed block"], [""], False
        reasons: list[str] = []
        by: list[str] = []
        early = False
        for v in report.verdicts:
            where = f"lines {v.first_line}-{v.last_line}"
            # The block alone, exactly the text and seal just checked: never a range of the file's lines,
            # which another reading of "a line" could shift onto someone else's text (issue 13).
            part = v.own_text.encode("utf-8")
            part_sha = sha256(part)
            if self.ledger.is_accepted(part_sha) or part_sha in taken or self.ledger.is_dropped(part_sha):
                continue  # the same turn again (a resent or quoted copy), or one the moderator dropped
            if v.ok and v.header is not None:
                good.append(_Candidate(str(path), digest, part, v.header, where))
                taken.add(part_sha)
            elif isinstance(v.error, WrongStep) and v.header is not None and self._is_early(v.header):
                early = True
                self.early_house.setdefault(str(path), v.signer)
            else:
                reasons.append(v.describe())
                by.append(v.signer)  # the house of the registered key whose seal holds ("" for none)
        return reasons, by, early

    def _moderator_accepted(self, text: str) -> tuple[Header, bytes] | None:
        """The header and the normalised text (what is archived) of a text the moderator accepted unsealed."""
        body = normalise(text).encode("utf-8")
        if sha256(body) not in self.ledger.moderator_accepts:
            return None
        try:
            header = find_header(body.decode("utf-8"))
        except HeaderError:
            return None
        return (header, body) if header is not None else None

    def _is_early(self, h: Header) -> bool:
        if self.state.phase not in STEPS or h.game != self.checker.game_id:
            return False
        return _step_index(h.round, h.step) > _step_index(self.state.round, self.state.phase)

    def _record(self, c: _Candidate) -> Archived:
        """The ``accept`` line this candidate would get: the next archive index, its header, its bytes' SHA-256."""
        h = c.header
        index = self.ledger.last_index + 1
        name = c.readmit or f"{index:06d}-{h.house}-r{h.round}-{h.step}-seq{h.seq}.txt"
        return Archived(index, name, h.house, h.round, h.step, h.seq, sha256(c.data))

    def _unreadable(self, c: _Candidate) -> str:
        """Why the bytes about to be archived would not read back as this very turn (``""`` when they do).

        The archive is read back exactly as the run and ``maester replay`` will read it, so a turn
        that cannot be understood gets a rejection now and never stops a later run.
        """
        record = self._record(c)
        try:
            u = understand(record.name, c.data, record, self.ledger.moderator_accepts, variant=vocabulary_of(self.state))
        except SealError as e:
            return f"not taken: its text does not read back as one turn ({e})"
        except Exception as e:
            return f"not taken: it could not be read ({type(e).__name__}); please report this to the moderator"
        if (why := u.disagreement()) or u.header.game != self.checker.game_id:
            return f"not taken: it does not read back as the turn that was checked ({why or 'another game'})"
        self.understood[record.name] = u
        return ""

    def _archive(self, c: _Candidate) -> Archived:
        """Archive first, then log: a run killed in between leaves an orphan the next run overwrites.

        A file a rollback gave back is in the archive already: only its new ``accept`` line is written,
        with its new place in the order (``index``), so ``archive/`` never holds a second copy.
        """
        a = self._record(c)
        if not c.readmit:
            fileio.atomic_write_bytes(self.folder.archive / a.name, c.data)
        registry.record_acceptance(self.folder.root, c.header, a.sha256, f"archive/{a.name}",
                                   index=a.index if c.readmit else None)  # fmt: skip
        self.ledger.add(a)
        self.checker.highest[(a.house, a.round, a.step)] = a.seq
        return a
