"""The moves of a rollback, after its log line: safe to make again, so that a rollback killed half way
is finished by the next command of any kind (:mod:`adjudicator.folder.settle`, ruling 331).

``maester rollback`` (:mod:`adjudicator.folder.undo`) writes one ``rollback`` line, the commit point,
then makes these moves and ends with a ``rollback-done`` line.
"""

from __future__ import annotations

import os

from ..util import fileio
from .audit import Folder, Snapshot, write_pending
from .ledger import Ledger, log
from .notices import put_back


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
    put_back(folder, ledger)
    text = folder.snapshot_path(to).read_text(encoding="utf-8")
    fileio.atomic_write_text(folder.gd.state_file, text)
    write_pending(folder, Snapshot.from_toml(text, where=str(folder.snapshot_path(to))))
    log(folder.root, {"action": "rollback-done", "folder": dest})
    ledger.rollback_done = True
