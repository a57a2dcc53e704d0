"""The next command of any kind finishes or undoes what a killed command left half done (ruling 331).

Every command that changes a game folder writes in an order whose every prefix the next command
can read (``docs/game-folder.md``, "Crash safety"). What a command killed at any point (kill -9, a
power cut, a full disk) may leave, and what :func:`settle` does with it, under the folder's lock:

* a ``rollback`` line without its ``rollback-done``: the rollback's moves are finished;
* an ``outbox`` run killed half way: its mails placed or removed, its manifest written
  (:mod:`adjudicator.folder.mailstore`);
* a reply to a mail not taken written and never logged: removed (ruling 323: its log line is the commit point);
* temporary files of atomic writes (``.NAME.XXXXXXXX.tmp``) in every folder a command writes: removed;
* a message a ``maester deliver`` killed before its commit point left in ``mailbox/tmp/``, once its
  process is gone: removed (the mail server, which saw the delivery fail, hands the message over again).

A log line cut short needs nothing: it is never read, and the next line appended starts on a line
of its own (:func:`adjudicator.util.fileio.append_line`).

What only ``maester adjudicate`` can finish (a snapshot whose reports are not written yet, turns
archived and not applied) it finishes at its next run, as before: that needs the engine. A
folder whose log was lost or cut short is left as it is: each command says so (ruling 170).

Commands that change the folder take the lock through :func:`locked`; commands that only read
call :func:`tidy`, which settles when the lock is free and the folder writable, and else leaves
the work to the next command.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..util import fileio
from ..util.maildir import sweep_dead
from . import mailstore
from .gamedir import GameDir, GameDirError
from .ledger import Ledger, log_lost, log_size, numbers_in, snapshot_numbers

# The folders a command writes in with atomic writes (a temporary file beside the target).
WRITTEN = ("", "states", "archive", "reports", "inbox", "refused", "refused/files", "mailbox/refused")
MAILBOX_TMP = "mailbox/tmp"  # where maester deliver writes a message before its commit point (a Maildir's tmp/)


@dataclass
class Settled:
    """What :func:`settle` did, and what it read on the way: the log's ledger and the snapshot
    numbers in ``states/`` once settled, for the command that holds the lock to go on from (a run
    of ``maester adjudicate`` reads them first, and would read them again)."""

    done: list[str]
    ledger: Ledger
    numbers: list[int]
    log_size: int  # of the log the ledger read to its end: a command that logged since reads it on


def settle(gd: GameDir) -> list[str]:
    """Finish or undo what a killed command left (see the module's doc); the caller holds the lock.
    Returns what it did, one line each (nothing when there was nothing to do)."""
    return settled(gd).done


def settled(gd: GameDir) -> Settled:
    """:func:`settle`, with the ledger and snapshot numbers it read (see :class:`Settled`)."""
    root = gd.root
    ledger = Ledger.read(root)
    size = log_size(root)
    states, reports = gd.folder("states"), gd.folder("reports")
    listed = {states: _names(states), reports: _names(reports)}  # each listed once, for its numbers and its sweep
    numbers = numbers_in(listed[states])
    if log_lost(root, ledger, numbers) is not None:
        return Settled([], ledger, numbers, size)  # nothing is finished on a log cut short: the command names what it lacks
    done: list[str] = []
    if ledger.rollback is not None and not ledger.rollback_done:
        from .audit import Folder  # the rollback's own code: loaded only when one is left half done
        from .setaside import complete_rollback

        complete_rollback(Folder(gd), ledger)
        size = -2  # its lines logged: read again by the next reader
        done.append(f"finished the rollback to snapshot {int(ledger.rollback['to']):04d} that a killed command began")
        listed = {}  # moved: listed again
        numbers = snapshot_numbers(states)
    mailstore.settle(root, ledger.mail)
    folders = [root / name for name in WRITTEN] + mailstore.temp_folders(root, ledger.mail)
    if numbers:  # the latest step's report folder: a run finishing it writes its files one by one
        prefix = f"{numbers[-1]:04d}-"
        for name in (listed[reports] if reports in listed else _names(reports)) or ():  # listed, not globbed: a long game has many
            if name.startswith(prefix):
                folders += [reports / name, reports / name / "receipts"]
    swept = [name for folder in folders for name in fileio.sweep_temp(folder, names=listed.get(folder))]
    swept += sweep_dead(root / MAILBOX_TMP)
    if swept:
        done.append(f"removed {len(swept)} temporary file(s) a killed command left")
    return Settled(done, ledger, numbers, size)


def _names(folder: Path) -> list[str] | None:
    """The names in ``folder``; ``None`` when it is missing or no folder."""
    try:
        return os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return None


@contextmanager
def locked(gd: GameDir, *, timeout: float = 0.0) -> Iterator[Settled]:
    """Hold the folder's lock (:meth:`GameDir.lock`) with the folder settled first; gives what settling read.

    :raises GameLocked: when another command still holds the lock after ``timeout`` seconds.
    """
    with gd.lock(timeout=timeout):
        yield settled(gd)


def tidy(root: str | Path) -> list[str]:
    """For a command that only reads: settle the folder when its lock is free and it may be written;
    else nothing (the next command that writes settles it). Never raises."""
    try:
        gd = GameDir.open(root)
        with gd.lock():
            return settle(gd)
    except (GameDirError, OSError):
        return []
