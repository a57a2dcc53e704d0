"""Atomic file writes: a temp file in the same folder, fsync, then rename.

A run killed at any moment leaves either the old file or the new one, never half of either.
Durability (fsync of the file and its folder) is the default. A process that writes only
disposable folders, such as a simulated game or a benchmark, may give it up with :func:`relaxed`:
the writes stay atomic, only the wait for the disk goes.

A file wanted under two names (``state.toml``, a copy of the newest snapshot) is written once and
linked (:func:`stage`, :func:`link_staged`, :func:`place`).

A new folder of many files (a step's reports) is written in a temp folder beside it and renamed
once (:func:`write_folder`): atomic as a whole, with one rename instead of one per file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

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
    tmp = _staged(path, data)
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _staged(path: Path, data: bytes) -> Path:
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except FileNotFoundError:  # the folder is new: made here, not checked before every write
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            _sync(f.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def stage(path: Path, data: bytes) -> Path:
    """The first half of an atomic write of ``path``: ``data`` in a new temporary file beside it
    (``.NAME.XXXXXXXX.tmp``, mode 0600), on the disk; its path. :func:`place` finishes the write; a
    process killed before leaves the temporary file, which a sweep removes (:func:`sweep_temp`)."""
    return _staged(Path(path), data)


def place(staged: Path, path: Path) -> None:
    """The second half of an atomic write: the file :func:`stage` wrote for ``path`` renamed onto it."""
    os.replace(staged, path)
    _fsync_dir(Path(path).parent)


def link_staged(staged: Path, path: Path, data: bytes) -> None:
    """Give the file :func:`stage` wrote (holding ``data``) a second name, ``path``, in another folder of
    the same game folder, atomically and on the disk: one file, two names, its bytes written once
    (``state.toml`` and the newest snapshot). A later rename onto either name replaces that name
    only. Where there are no hard links (a file system without them, another device) or ``path``
    exists already, ``data`` is written to ``path`` atomically instead, as a file of its own."""
    try:
        os.link(staged, path)
    except OSError:  # EPERM, EXDEV, EMLINK, ENOTSUP, EEXIST, ENOENT (a new folder): the plain write
        atomic_write_bytes(path, data)
        return
    _fsync_dir(Path(path).parent)


def write_new(path: Path, data: bytes, *, mode: int = 0o600) -> None:
    """Write ``data`` to the new file ``path`` (it must not exist yet), flushed to the disk: the
    first half of a write-then-rename that the caller finishes (a Maildir's ``tmp/`` to ``new/``).
    A write cut short (a full disk) leaves the file half written, for the caller to remove.

    :raises FileExistsError: when ``path`` exists.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        _sync(f.fileno())


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


FILE_MODE = 0o600  # what mkstemp gives the files of atomic_write_bytes; write_folder's files get the same


def write_folder(path: Path, files: Mapping[str, bytes]) -> None:
    """Create the folder ``path`` holding ``files`` (names relative to it, ``receipts/x`` allowed), at once.

    The files are written into ``.NAME.tmp`` beside it, which is then renamed: a killed process
    leaves either no folder or the whole of it (and a temp folder the next call, or a sweep,
    removes). When ``path`` exists already (a run finishing what a killed one began), each file is
    written into it atomically instead, in the order given: put the file marking it complete last.
    """
    path = Path(path)
    if any(os.path.isabs(n) or ".." in Path(n).parts for n in files):
        raise ValueError(f"the files of {path} must be named inside it")
    if path.exists():
        for name, data in files.items():
            atomic_write_bytes(path / name, data)
        return
    tmp = path.with_name(f".{path.name}.tmp")
    remove_temp(tmp)  # left by a process killed while writing it
    path.parent.mkdir(parents=True, exist_ok=True)
    folders = [tmp]
    written: list[BinaryIO] = []
    try:
        os.mkdir(tmp)
        for name, data in files.items():
            target = tmp / name
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.append(target.parent)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
            written.append(os.fdopen(fd, "wb"))
            written[-1].write(data)
            written[-1].flush()
        # Every file written before any waits for the disk: the first fsync commits them all at once.
        for f in written:
            _sync(f.fileno())
        for folder in reversed(folders):
            _fsync_dir(folder)
        for f in written:
            f.close()
        os.rename(tmp, path)
    except BaseException:
        for f in written:
            f.close()
        remove_temp(tmp)
        raise
    _fsync_dir(path.parent)


def remove_temp(path: Path) -> None:
    """Remove a temp file or temp folder of this module's writes, if there is one (never a link's target)."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):  # lstat: a link is removed, never followed
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def is_temp_name(name: str) -> bool:
    """Whether a file name is one of this module's temporary names (``.NAME.XXXXXXXX.tmp``, ``.NAME.tmp``).

    >>> is_temp_name(".stark.eml.k2j4_x9a.tmp"), is_temp_name("stark.eml"), is_temp_name(".tmp")
    (True, False, False)
    """
    return name.startswith(".") and name[1:].endswith(".tmp")


def sweep_temp(folder: Path, *, names: list[str] | None = None) -> list[str]:
    """Remove the temporary files and folders a killed process left in ``folder`` (not below it); their
    names. ``names``: the folder's names as the caller listed them a moment ago (listed here when ``None``)."""
    if names is None:
        try:
            names = os.listdir(folder)  # one listing of names, no pattern matched per name
        except (FileNotFoundError, NotADirectoryError):
            return []
    # is_temp_name, inline: a folder of a long game holds a thousand names, nearly none a dot's
    found = [n for n in names if n[:1] == "." and len(n) > 4 and n.endswith(".tmp")]
    for name in found:
        remove_temp(Path(folder) / name)
    return found


def append_line(path: Path, line: str) -> None:
    """Append one line and fsync: the log is append-only. A last line cut short by a killed process
    is ended first, in the same write, so that the new line stands on its own and is read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    with open(path, "a+b") as f:
        if f.seek(0, os.SEEK_END) > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                data = b"\n" + data
        f.write(data)
        f.flush()
        _sync(f.fileno())


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (skipped when relaxed or where folders cannot be opened)."""
    _fsync_dir(folder)


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
