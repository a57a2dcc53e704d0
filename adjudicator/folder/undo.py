"""``maester rollback``: the moderator's undo, which never takes the mistake again (rulings 93, 301).

``rollback(GAME_DIR, to=N, reason=R, drop=[ARCHIVED...])`` goes back to snapshot N: the later
snapshots and reports move to ``states/rolled-back-K/`` and ``reports/rolled-back-K/``, and the
archived files applied after N (or waiting to be applied) no longer count. The files named in
``drop`` are set aside for good: no later run takes them, nor a copy of them. The others come back
from ``archive/`` at the next run, each checked again as if it had just arrived and applied at its
step, under its own name: ``archive/`` never gets a second copy. Files refused against the undone
steps go back to the inbox, to be judged again. The action is one ``rollback`` line in the log
(with ``dropped`` and ``returning``), then ``rollback-done`` once every move is made: a rollback
killed half way is finished by the next command.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .audit import BatchError, CorruptFolder, Folder
from .gamedir import GameDir
from .ledger import Ledger, log, log_lost
from .setaside import complete_rollback
from .settle import settle


def open_settled(gd: GameDir) -> tuple[Folder, Ledger]:
    """The folder and its ledger, checked and settled for a moderator's command (under ``gd.lock()``):
    what a killed command left half done is finished first (a rollback, a torn log line, an outbox:
    :func:`adjudicator.folder.settle.settle`); a log that lost its last lines stops it.

    :raises CorruptFolder: when the log lost lines the snapshots show were written.
    """
    settle(gd)
    folder = Folder(gd)
    ledger = Ledger.read(gd.root)
    if (lost := log_lost(gd.root, ledger, folder.numbers())) is not None:
        raise CorruptFolder(lost)
    return folder, ledger


def rollback(root: str | Path, *, to: int, reason: str, drop: Iterable[str] = ()) -> str:
    """Go back to snapshot ``to``; drop the named archived files for good (see the module's doc).

    :raises BatchError: for a missing reason, an unknown snapshot, nothing to undo, or a file to
        drop that this rollback does not set aside.
    """
    if not reason.strip():
        raise BatchError("give the reason for the rollback (--reason); it is kept in the log")
    gd = GameDir.open(root)
    with gd.lock():
        folder, ledger = open_settled(gd)
        numbers = folder.numbers()
        if to not in numbers:
            have = f"0000-{numbers[-1]:04d}" if numbers else "none yet"
            raise BatchError(f"there is no snapshot {to:04d} (the snapshots are {have})")
        target = folder.read_snapshot(to)
        files = [a.name for a in ledger.archived if a.index > target.applied_through]
        dropped = _to_drop(ledger, list(drop), files, to)
        if to == numbers[-1] and not files and not dropped:
            raise BatchError(f"snapshot {to:04d} is the latest: there is nothing to undo")
        # To the latest snapshot: only the archived files that wait to be applied are set aside (a file an
        # older Maester archived broken would otherwise stop every run; ruling 93).
        taken = [p.name for p in folder.states.glob("rolled-back-*")]
        k = 1 + max((int(n.rsplit("-", 1)[1]) for n in taken if n.rsplit("-", 1)[1].isdigit()), default=0)
        later = [n for n in numbers if n > to]
        entry = {"action": "rollback", "to": to, "reason": reason.strip(), "folder": f"rolled-back-{k}",
                 "set_aside_snapshots": later, "set_aside_files": files, "dropped": dropped,
                 "returning": [n for n in files if n not in dropped]}  # fmt: skip
        log(gd.root, entry)
        ledger._take(entry)
        back = len(ledger.unrefused)
        complete_rollback(folder, ledger)
    moved = (f"snapshots {', '.join(f'{n:04d}' for n in later)} and their reports moved to rolled-back-{k}/" if later
             else "it is the latest snapshot: no snapshot or report moved")  # fmt: skip
    out = [f"rolled back to snapshot {to:04d} (round {target.state.round}, {target.state.phase}); {moved}"]
    out += [f"dropped for good (no run takes it again): archive/{n}" for n in dropped]
    returning = sorted(ledger.returning, key=lambda n: ledger.returning[n].index)
    if returning:
        out.append(f"{len(returning)} archived file(s) come back at the next run, each at its own step and "
                   "without a copy (drop one with --drop): " + ", ".join(f"archive/{n}" for n in returning))  # fmt: skip
    if back:
        out.append(f"{back} file(s) refused against the undone steps are back in the inbox, to be judged again")
    return "\n".join(out)


def _to_drop(ledger: Ledger, names: list[str], files: list[str], to: int) -> list[str]:
    """The archive names to drop, each one this rollback sets aside or a rollback gave back.

    :raises BatchError: naming the first that is not, and why.
    """
    out: list[str] = []
    for given in names:
        name = Path(given).name
        if name in files or name in ledger.returning:
            out.append(name) if name not in out else None
            continue
        a = ledger.find(name)
        if a is None:
            raise BatchError(f"--drop {given}: no archived file of that name in this game (see archive/)")
        if name in ledger.dropped:
            raise BatchError(f"--drop {given}: dropped already by an earlier rollback")
        step = next((n for n, s in sorted(ledger.snapshots.items()) if name in s.get("applied", [])), None)
        if step is not None and step <= to:
            raise BatchError(f"--drop {given}: it was applied at step {step:04d}, which this rollback keeps; to drop "
                             f"it, roll back to step {step - 1:04d} or before" if step else
                             f"--drop {given}: it was applied at step 0000, which no rollback undoes")  # fmt: skip
        raise BatchError(f"--drop {given}: a rollback set it aside already and it does not come back")
    return out
