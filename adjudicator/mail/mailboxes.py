"""Reading a Maildir or an mbox: each message's bytes, or why they could not be read.

A Maildir's ``tmp/`` is never read (mail is still being written there); an mbox is read under a
shared lock, so a delivery in progress is not cut. A mailbox that cannot be read at all is a
:class:`MailError`; one message that cannot be read is a :class:`RawMessage` saying why.
"""

from __future__ import annotations

import fcntl
import mailbox as std_mailbox  # the standard library's (this module is mailboxes, but be plain about it)
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..folder.gamedir import GameDirError

__all__ = ["LOCK_WAIT", "MailError", "RawMessage", "read_maildir", "read_mbox"]

LOCK_WAIT = 10.0  # seconds to wait for a mail program's lock on an mbox


class MailError(GameDirError):
    """A mailbox or game folder that cannot be read as asked (exit status 2)."""


@dataclass(frozen=True, slots=True)
class RawMessage:
    label: str
    data: bytes | None
    problem: str = ""
    retry: bool = False  # a transient problem: the message is read again next time
    name: str = ""  # "maildir:<unique name>": known before the bytes are read
    known: bool = False  # read before, by that name: not read again


def read_maildir(path: Path, known: Callable[[str], bool]) -> Iterator[RawMessage]:
    """Messages in ``new/`` and ``cur/`` (never ``tmp/``, where mail is still being written).

    A message whose unique name is ``known`` is not read at all (its name does not change when a
    mail program moves it from ``new/`` to ``cur/`` or marks it read).
    """
    if not ((path / "new").is_dir() and (path / "cur").is_dir()):
        raise MailError(f"{path} is not a Maildir: it has no new/ and cur/ folders")
    box = std_mailbox.Maildir(str(path), factory=None, create=False)
    try:
        keys = sorted(box.keys())
    except OSError as e:
        raise MailError(f"cannot list {path}: {e.strerror}") from None
    for key in keys:
        name = f"maildir:{key}"
        if known(name):
            yield RawMessage(key, None, name=name, known=True)
            continue
        try:
            yield RawMessage(key, box.get_bytes(key), name=name)
        except (KeyError, FileNotFoundError):
            yield RawMessage(key, None, "vanished while being read (moved or deleted)", retry=True)
        except OSError as e:
            yield RawMessage(key, None, f"cannot be read: {e.strerror}")


def read_mbox(path: Path, lock_wait: float) -> Iterator[RawMessage]:
    """Messages of an mbox, read under a shared lock so that a delivery in progress is not cut."""
    if path.is_dir():
        raise MailError(f"{path} is a folder: give a Maildir with --maildir")
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        raise MailError(f"cannot open {path}: {e.strerror}") from None
    try:
        start = os.read(fd, 5)
        if start and start != b"From ":
            raise MailError(f"{path} is not an mbox: it does not start with a 'From ' line")
        _shared_lock(fd, path, lock_wait)
        box = std_mailbox.mbox(str(path), factory=None, create=False)
        for n, key in enumerate(box.keys(), 1):
            yield RawMessage(f"message {n}", box.get_bytes(key))
    finally:
        os.close(fd)  # releases the locks


def _shared_lock(fd: int, path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    for lock in (lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),
                 lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)):  # fmt: skip
        while True:
            try:
                lock()
                break
            except OSError:
                if time.monotonic() >= deadline:
                    raise MailError(f"{path} is locked by another program (mail being delivered?); try again") from None
                time.sleep(0.05)
