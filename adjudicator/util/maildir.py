"""Maildir names: one no other writer takes, and the files in ``tmp/`` of writers that died.

A Maildir writer puts each message in ``tmp/`` under a unique name (time, microseconds, process
id, a counter, the host), then renames it into ``new/``. A writer killed before the rename leaves
its file in ``tmp/``: :func:`sweep_dead` removes the files whose writer is gone (its process no
longer runs on this host, or the file is 36 hours old, the Maildir convention). The file of a
writer still running is left alone: a delivery keeps its message before it takes any lock.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import time
from pathlib import Path

__all__ = ["STALE_SECONDS", "sweep_dead", "unique_name"]

STALE_SECONDS = 36 * 3600  # a file in tmp/ this old is a delivery that died (the Maildir convention)
_COUNTER = itertools.count(1)
_NAME = re.compile(r"^\d+\.M\d+P(\d+)Q\d+\.(.+)$")


def _host() -> str:
    """This host's name as a Maildir name may hold it (``/`` and ``:`` escaped, as Maildir writers do)."""
    import socket  # here: every command that settles a folder imports this module, few name a message

    return socket.gethostname().replace("/", r"\057").replace(":", r"\072") or "localhost"


def unique_name() -> str:
    """A name no other writer takes: ``SECONDS.MmicrosecondsPpidQcounter.host``."""
    now = time.time()
    return f"{int(now)}.M{int(now % 1 * 1_000_000):06d}P{os.getpid()}Q{next(_COUNTER)}.{_host()}"


def sweep_dead(tmp: Path, *, now: float | None = None) -> list[str]:
    """Remove the files in ``tmp`` (a Maildir's ``tmp/``) whose writer is gone; their names."""
    gone: list[str] = []
    clock = time.time() if now is None else now
    try:
        entries = list(os.scandir(tmp))
    except OSError:
        return gone
    host = _host() if entries else ""  # (most folders have no tmp/: the host's name is not looked up)
    for e in entries:
        m = _NAME.match(e.name)
        try:
            old = clock - e.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
        except OSError:
            continue
        dead = m is not None and m[2] == host and not _alive(int(m[1]))
        if old or dead:
            with contextlib.suppress(OSError):
                os.unlink(e.path)
                gone.append(e.name)
    return gone


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it runs, as another user
        return True
    return True
