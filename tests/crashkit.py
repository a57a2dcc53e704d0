"""Fault injection for the crash tests: a command killed (``kill -9``) or meeting a full disk at its k-th write.

:class:`Faults` counts every write a command makes inside one game folder, through each way the
program writes: an atomic write (``fileio.atomic_write_bytes``), a new file written in place
(``fileio.write_new``: a message a delivery keeps; ``fileio.stage``: the first half of one), a
hard link (``os.link``: ``state.toml``'s bytes given the snapshot's name), a log line (``fileio.append_line``),
a new folder written whole (``fileio.write_folder``), a rename, a removal, a new folder, and a mail
handed to the SMTP server. A write made inside another counted one (the rename inside an atomic
write) is part of it.

At the chosen write the command dies. *kill*: what a process killed during that write leaves is
put on the disk (an atomic write's temporary file half written, a log line cut in half, a new
report folder's temporary folder half full; a rename, removal or mail not made), the folder is
copied as it is at that instant, and :class:`Killed` is raised; the test goes on with the copy, so
no clean-up the program runs while the exception rises can help it. *full*: that write and every
later one of the same command fails with ``ENOSPC`` (a log line written half first, as a short
write leaves it); the command must stop with an ``OSError`` or a one-line error of its own.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import smtplib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adjudicator.util import fileio


class Killed(BaseException):
    """Stands for the process dying: not an Exception, so nothing in the program catches it."""


@dataclass(frozen=True)
class Write:
    """One write of a command: its kind and the path it writes, relative to the game folder."""

    kind: str  # write, append, folder, move, link, remove, mkdir, send
    path: str

    def role(self) -> str:
        """The kind and the path with its numbers and temporary names generalised: writes of one role
        do the same thing to different files (``write outbox/.staged/N/H.eml``)."""
        path = re.sub(r"\d+", "N", self.path)
        path = re.sub(r"(stark|lannister|baratheon|greyjoy|tyrell|martell|arryn|targaryen|moderator|public)", "H", path)
        return f"{self.kind} {path}"


@dataclass
class Faults:
    """Counts the writes into ``root`` and makes write number ``at`` (1-based) fail as ``mode`` says."""

    root: Path
    at: int | None = None
    mode: str = "kill"  # or "full"
    frozen: Path | None = None  # where the folder is copied when the command is killed
    writes: list[Write] = field(default_factory=list)
    smtp: tuple[type, ...] = (smtplib.SMTP,)  # the classes whose sendmail hands a mail to a server
    full: bool = False  # the disk is full (from write `at` on)
    _depth: int = 0

    def _inside(self, path: Any) -> str | None:
        try:
            p = os.path.abspath(os.fspath(path))
        except TypeError:
            return None
        root = str(self.root)
        return os.path.relpath(p, root) if p == root or p.startswith(root + os.sep) else None

    def _hit(self, kind: str, path: Any, partial: Callable[[], None] = lambda: None) -> None:
        """Count one write; fail it when it is the chosen one (or the disk is full)."""
        rel = self._inside(path) if kind != "send" else str(path)
        if rel is None or self._depth:
            return
        if self.full:
            if kind != "send":
                partial()
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            return
        self.writes.append(Write(kind, rel))
        if len(self.writes) != self.at:
            return
        if self.mode == "full" and kind != "send":
            self.full = True
            partial()
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        partial()
        if self.frozen is not None:
            with self.nested():
                shutil.copytree(self.root, self.frozen, symlinks=True)
        raise Killed(f"killed at write {self.at}: {kind} {rel}")

    @contextmanager
    def nested(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def _wrap(self, kind: str, real: Callable[..., Any], partial: Callable[..., Callable[[], None]] | None = None,
              *, only_new: bool = False) -> Callable[..., Any]:  # fmt: skip
        def wrapper(path: Any, *args: Any, **kwargs: Any) -> Any:
            if kwargs.get("dir_fd") is None and kwargs.get("src_dir_fd") is None and not (only_new and os.path.lexists(path)):
                self._hit(kind, path, partial(path, *args, **kwargs) if partial else lambda: None)
            with self.nested():
                return real(path, *args, **kwargs)

        return wrapper

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Put the counting writes in place (``monkeypatch.undo()`` takes them away)."""
        monkeypatch.setattr(fileio, "atomic_write_bytes", self._wrap("write", fileio.atomic_write_bytes, _half_temp))
        monkeypatch.setattr(fileio, "stage", self._wrap("write", fileio.stage, _half_temp))
        monkeypatch.setattr(fileio, "write_new", self._wrap("write", fileio.write_new, _half_new))
        monkeypatch.setattr(fileio, "append_line", self._wrap("append", fileio.append_line, _half_line))
        monkeypatch.setattr(fileio, "write_folder", self._wrap("folder", fileio.write_folder, _half_folder))
        monkeypatch.setattr(os, "replace", self._wrap("move", os.replace))
        monkeypatch.setattr(os, "rename", self._wrap("move", os.rename))
        monkeypatch.setattr(os, "link", self._link(os.link))
        monkeypatch.setattr(os, "unlink", self._wrap("remove", os.unlink))
        monkeypatch.setattr(os, "remove", self._wrap("remove", os.remove))
        monkeypatch.setattr(os, "rmdir", self._wrap("remove", os.rmdir))
        monkeypatch.setattr(shutil, "rmtree", self._wrap("remove", shutil.rmtree))
        monkeypatch.setattr(os, "mkdir", self._wrap("mkdir", os.mkdir, only_new=True))
        for cls in self.smtp:
            monkeypatch.setattr(cls, "sendmail", self._send(cls.sendmail))

    def _link(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def link(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
            self._hit("link", dst)  # the new name is what the write makes
            with self.nested():
                return real(src, dst, *args, **kwargs)

        return link

    def _send(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def sendmail(smtp: Any, sender: str, to: Any, msg: Any, *args: Any, **kwargs: Any) -> Any:
            self._hit("send", ",".join(to) if isinstance(to, list) else str(to))
            return real(smtp, sender, to, msg, *args, **kwargs)

        return sendmail


def _half_temp(path: Any, data: bytes, *args: Any, **kwargs: Any) -> Callable[[], None]:
    """An atomic write killed half way: its temporary file, half written, beside the target."""
    def leave() -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        (target.parent / f".{target.name}.k1ll3d_x.tmp").write_bytes(data[: len(data) // 2])

    return leave


def _half_new(path: Any, data: bytes, *args: Any, **kwargs: Any) -> Callable[[], None]:
    """A new file's write cut short (``fileio.write_new``, a message kept in ``mailbox/tmp/``): half of it."""
    def leave() -> None:
        Path(path).write_bytes(data[: len(data) // 2])

    return leave


def _half_line(path: Any, line: str, *args: Any, **kwargs: Any) -> Callable[[], None]:
    """A log line cut short: half of it, no newline."""
    def leave() -> None:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line.rstrip("\n")[: len(line) // 2])

    return leave


def _half_folder(path: Any, files: dict[str, bytes], *args: Any, **kwargs: Any) -> Callable[[], None]:
    """A new folder killed half way: its temporary folder holds half its files, the last one cut short
    (a folder that exists already gets half its files rewritten, each atomically: the same bytes)."""
    def leave() -> None:
        target = Path(path)
        if target.exists():
            for name, data in list(files.items())[: len(files) // 2]:
                (target / name).write_bytes(data)
            return
        tmp = target.with_name(f".{target.name}.tmp")
        for name, data in list(files.items())[: len(files) // 2]:
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_bytes(data[: len(data) // 2])

    return leave


def temporary_files(root: Path) -> list[str]:
    """Every temporary file or folder of an atomic write left in a game folder, the outbox's staging,
    and a message a delivery was writing into the game's mailbox (``mailbox/tmp/``)."""
    found = [str(p.relative_to(root)) for p in root.rglob(".*.tmp")]
    found += [str(p.relative_to(root)) for p in (root / "mailbox" / "tmp").glob("*")]
    return found + [str(p.relative_to(root)) for p in root.rglob(".staged")]


def sample(writes: list[Write], *, every: bool = False) -> list[int]:
    """The write numbers to fail (1-based): all of them with ``every``, else the first of each role
    (every kind of write to every kind of file is hit once)."""
    if every:
        return list(range(1, len(writes) + 1))
    first: dict[str, int] = {}
    for i, w in enumerate(writes, 1):
        first.setdefault(w.role(), i)
    return sorted(first.values())
