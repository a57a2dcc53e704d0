"""A step's outputs: ``state.toml``, ``pending`` and the record of the step's reports and receipts.

A run writes them after the step's snapshot, its commit point (see :mod:`adjudicator.folder.batch`);
each is re-derived from the snapshot, so a run finishing a killed one's writes gives the same bytes.
The time each part of a run takes is counted in :class:`Timings` (for the benchmark).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.ahead import Upcoming, upcoming
from ..game.board import Board
from ..util import fileio
from . import audit, registry
from .audit import Check, CorruptFolder, Folder, Outcome, write_pending
from .ledger import Ledger, sha256
from .receipts import accepted_receipt, replaced_answers
from .stepreports import StepReportsError, folder_done, read_record, record_bytes, record_name, render_pages


@dataclass
class Timings:
    """Seconds spent per part of a run (for the benchmark)."""

    verify: float = 0.0
    parse: float = 0.0
    engine: float = 0.0
    render: float = 0.0
    write: float = 0.0


def clock() -> float:
    """Seconds on a steady clock, to time the parts of a run."""
    import time

    return time.perf_counter()


def write_outputs(folder: Folder, outcome: Outcome, text: str, *, ledger: Ledger, templates_dir: Path | None,
                  timings: Timings, in_force: Mapping[str, list[str]] | None = None,
                  staged: Path | None = None) -> None:  # fmt: skip
    """``state.toml``, ``pending``, then the step's record of its reports (:mod:`.stepreports`), whose
    existence marks the step complete; with the moderator's templates, the pages rendered with them
    first, into the step's folder whole at once (ruling 453). ``in_force``: the keys in force as this
    run read ``game.toml`` (:func:`.registry.in_force`; read again when ``None``). ``staged``: ``text``
    written already beside ``state.toml`` (:func:`fileio.stage`), renamed onto it here."""
    t0 = clock()
    snap = outcome.snapshot
    if staged is not None:
        fileio.place(staged, folder.gd.state_file)
    else:
        fileio.atomic_write_text(folder.gd.state_file, text)
    record = step_record(folder.root, outcome, ledger=ledger, in_force=in_force)
    t1 = clock()
    pages = render_pages(snap.state, read_record(record, where="the record"), templates_dir=templates_dir) \
        if templates_dir is not None else None  # fmt: skip
    t2 = clock()
    write_pending(folder, snap)
    rendered = folder.report_dir(snap)
    if pages is not None:  # the folder appears whole, by one rename (or is finished file by file)
        fileio.write_folder(rendered, {name: page.encode("utf-8") for name, page in pages.items()})
    elif rendered.is_dir() and not folder_done(rendered):
        shutil.rmtree(rendered)  # half written by an older Maester, killed: the record replaces it
    fileio.atomic_write_bytes(folder.reports / record_name(snap.label()), record)  # last: the step is complete
    timings.render += t2 - t1
    timings.write += (t1 - t0) + (clock() - t2)


def step_record(root: Path, outcome: Outcome, *, ledger: Ledger | None, kept: Mapping[str, Any] | None = None,
                in_force: Mapping[str, list[str]] | None = None) -> bytes:  # fmt: skip
    """The record of the step ``outcome`` reached (:func:`.stepreports.record_bytes`): its receipts
    written out, the keys in force and the last sequence numbers as the registry and the log say
    now, or as ``kept`` (a record read back) says they were, for a replay to compare. ``in_force``:
    the keys in force as the running command read them from ``game.toml`` a moment ago, under the
    folder's lock (read here when ``None``)."""
    state, requests = outcome.snapshot.state, outcome.requests
    replaced = replaced_answers(outcome.start, outcome.understood) if outcome.understood else {}
    ahead: dict[str, list[Upcoming]] = {}  # by house: what comes up for it, once for all its receipts
    receipts: dict[str, str] = {}
    for u in outcome.understood:
        house = u.header.house
        if house not in ahead:
            ahead[house] = upcoming(state, house, requests)
        by = f"{registry.house_name(house)} ({u.fingerprint})"
        receipts[u.name] = accepted_receipt(u, outcome, by, replaced.get(u.name), ahead=ahead[house])
    if kept is not None or ledger is None:
        fps, seqs = (kept or {}).get("fingerprints", {}), (kept or {}).get("last_seqs", {})
    else:
        fps = registry.fingerprints_in_force(root) if in_force is None else in_force
        best = ledger.highest_for(state.round, state.phase)
        seqs = {h: best.get((h, state.round, state.phase), 0) for h in state.houses_in_play}
    return record_bytes(events=outcome.events, requests=[r.to_dict() for r in requests], pending=state.pending,
                        fingerprints=fps, last_seqs=seqs, receipts=receipts)  # fmt: skip


def replay(root: str | Path, *, board: Board | None = None) -> Check:
    """``maester replay``: every snapshot re-derived (:func:`adjudicator.folder.audit.replay`), and each
    step's record of its reports with it, byte for byte."""
    return audit.replay(root, board=board, record_of=lambda outcome, kept: step_record(Path(root), outcome, ledger=None,
                                                                                      kept=kept))  # fmt: skip


def repair_record(folder: Folder, outcome: Outcome, *, ledger: Ledger) -> str | None:
    """``maester replay --repair``: write the record of the step ``outcome`` reached again when it is
    missing, damaged or not its re-derivation (a step an older Maester rendered into a complete folder
    is left as it is); a note of what was done, or None."""
    snap = outcome.snapshot
    path = folder.reports / record_name(snap.label())
    try:
        stored: bytes | None = path.read_bytes()
    except OSError:
        stored = None
    if stored is None and folder_done(folder.report_dir(snap)):
        return None
    try:
        kept = read_record(stored, where=str(path)) if stored is not None else None
    except StepReportsError:
        kept = None  # damaged: the keys and sequence numbers as they are now
    fresh = step_record(folder.root, outcome, ledger=ledger, kept=kept)
    if fresh == stored:
        return None
    if stored is not None:
        os.replace(path, path.with_name(path.name + ".damaged"))
    fileio.atomic_write_bytes(path, fresh)
    return f"rebuilt reports/{path.name}" + (f" (the damaged one is {path.name}.damaged)" if stored is not None else "")


def edited_in_place(folder: Folder, n: int, text: str, ledger: Ledger | None = None) -> CorruptFolder | None:
    """The error to give when ``state.toml`` and snapshot ``n`` (holding ``text``), one file, were changed
    in place (ruling 390): the same file, of other bytes than the log records; else ``None``."""
    if not same_file(folder.gd.state_file, folder.snapshot_path(n)):
        return None
    logged = (ledger or Ledger.read(folder.gd.root)).snapshot_line(n)
    if logged is None or logged.get("sha256") == sha256(text.encode()):
        return None  # unlogged (a log cut short says so itself) or as logged
    root = folder.gd.root
    return CorruptFolder(f"{folder.gd.state_file} was changed in place (damaged or edited), and with it "
                         f"states/{n:04d}.toml, the same file (ruling 390): it is not the snapshot the log records; "
                         f"check the game with 'maester replay {root}' and rebuild both with "
                         f"'maester replay --repair {root}'")  # fmt: skip


def same_file(a: Path, b: Path) -> bool:
    """Whether two names are one file (``state.toml`` and its snapshot, ruling 390); False when either is missing."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
