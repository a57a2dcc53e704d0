"""Atomic file writes: a temp file in the same folder, fsync, then rename.

A run killed at any moment leaves either the old file or the new one, never half of either.
Durability (fsync of the file and its folder) is the default. A process that writes only
disposable folders, such as a simulated game or a benchmark, may give it up with :func:`relaxed`:
the writes stay atomic, only the wait for the disk goes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_relaxed_depth = 0  # how many relaxed() blocks are open in this process


@contextmanager
def relaxed() -> Iterator[None]:
    """Skip every fsync in this process while the block runs (blocks may nest).

    For folders that are thrown away (``maester simulate``, benchmarks): a power cut may then lose
    recent writes, but a killed process still leaves whole files, since the rename stays.

    >>> with relaxed():
    ...     durable()
    False
    >>> durable()
    True
    """
    global _relaxed_depth
    _relaxed_depth += 1
    try:
        yield
    finally:
        _relaxed_depth -= 1


def durable() -> bool:
    """True when writes wait for the disk (outside every :func:`relaxed` block)."""
    return _relaxed_depth == 0


def _sync(fd: int) -> None:
    if _relaxed_depth == 0:
        os.fsync(fd)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically (same-folder temp file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            _sync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def append_line(path: Path, line: str) -> None:
    """Append one line and fsync: the log is append-only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line.rstrip("\n") + "\n")
        f.flush()
        _sync(f.fileno())


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (skipped when relaxed or where folders cannot be opened)."""
    if _relaxed_depth:
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
