"""The game's own mailbox: where ``maester deliver`` keeps each message a mail server hands it.

``GAME_DIR/mailbox/`` is a Maildir (``tmp/``, ``new/``, ``cur/``). A message is written to
``tmp/`` under a name no other delivery can take (time, microseconds, process id, a counter, the
host), flushed to the disk, then renamed into ``new/``: that rename is the commit point. Before
it nothing was kept, and the mail server keeps the message and tries again (exit status 75); after
it the message is the game's, and the next run of any kind (a ``deliver``, ``adjudicate``,
``ingest``) takes it, exactly once (``mail-seen.json`` knows each message by its name).

A message over :data:`MAX_MESSAGE_BYTES` is not kept: what its header says (sender, subject,
date, Message-ID) is, in ``mailbox/refused/NAME.json``, so that the moderator's mail lists it.

A delivery killed before the rename leaves its file in ``tmp/``; :func:`sweep` (and the next
command of any kind, :mod:`adjudicator.folder.settle`) removes the files whose writer is gone (its
process no longer runs on this host, or the file is 36 hours old, the Maildir convention).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..util import fileio
from ..util.maildir import sweep_dead, unique_name
from .parse import parse

__all__ = ["MAILBOX", "MAX_MESSAGE_BYTES", "REFUSED", "Kept", "keep", "read_refused", "sweep", "unique_name"]

MAILBOX = "mailbox"
REFUSED = "refused"  # mailbox/refused/NAME.json: messages over the size limit, not kept
MAX_MESSAGE_BYTES = 10 * 1024 * 1024  # Postfix's own default limit (message_size_limit) is about the same
HEADER_BYTES = 256 * 1024  # what is read of a message over the limit, for its sender and subject
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Kept:
    """What a delivery kept: the message in ``new/`` (``name``), or only a note of a message over the limit."""

    name: str  # the unique name, in mailbox/new/ or (for ``refused``) mailbox/refused/NAME.json
    size: int  # bytes read
    refused: bool = False  # over the limit: only its note was kept

    @property
    def where(self) -> str:
        """Its place in the game folder: ``mailbox/new/NAME`` or ``mailbox/refused/NAME.json``."""
        return f"{MAILBOX}/{REFUSED}/{self.name}.json" if self.refused else f"{MAILBOX}/new/{self.name}"


def folders(root: Path) -> Path:
    """``GAME_DIR/mailbox`` with its ``tmp/``, ``new/`` and ``cur/``, made when missing."""
    box = root / MAILBOX
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    return box


def keep(root: Path, stream: BinaryIO, *, envelope_sender: str | None = None, limit: int = MAX_MESSAGE_BYTES) -> Kept:
    """Keep one message read from ``stream`` in the game's mailbox; the rename into ``new/`` commits it.

    ``envelope_sender``: the sender the mail server gave (``SENDER``; ``""`` for a bounce's null
    sender), written as a ``Return-Path`` header when the message has none, so that a bounce is
    known as one when the message is read.

    :raises OSError: when nothing could be kept (a full disk, a folder that cannot be written):
        the mail server should keep the message and try again.
    """
    box = folders(root)
    sweep(box)
    name = unique_name()
    tmp = box / "tmp" / name
    head, size, over = _read(stream, limit)
    if over:
        return _refuse(box, name, head, size, limit)
    data = with_return_path(head, envelope_sender)
    try:
        fileio.write_new(tmp, data)
        os.rename(tmp, box / "new" / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fileio.fsync_folder(box / "new")
    return Kept(name, size)


def _read(stream: BinaryIO, limit: int) -> tuple[bytes, int, bool]:
    """The message's bytes (only its first :data:`HEADER_BYTES` when over ``limit``), its size, and
    whether it is over the limit. A message over it is read to its end all the same: a mail server
    that could not write the rest would take the delivery as failed, and try again."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(_CHUNK):
        size += len(chunk)
        if size <= limit + _CHUNK:
            chunks.append(chunk)
    data = b"".join(chunks)
    return (data[:HEADER_BYTES], size, True) if size > limit else (data, size, False)


def with_return_path(data: bytes, sender: str | None) -> bytes:
    r"""``data`` with ``Return-Path: <sender>`` added (after an mbox ``From `` line), unless the
    sender is not known or the header section has a Return-Path already.

    >>> with_return_path(b"From: a@x\n\nhi\n", "")
    b'Return-Path: <>\nFrom: a@x\n\nhi\n'
    >>> with_return_path(b"Return-Path: <a@x>\nFrom: a@x\n\nhi\n", "b@y")[:22]
    b'Return-Path: <a@x>\nFro'
    """
    if sender is None:
        return data
    head = re.split(rb"\r?\n\r?\n", data[:HEADER_BYTES], maxsplit=1)[0]
    if re.search(rb"(?im)^return-path:", head):
        return data
    clean = re.sub(r"[^\x21-\x7e]", "", sender)[:254].strip("<>")
    eol = b"\r\n" if b"\r\n" in head[:2000] else b"\n"
    line = f"Return-Path: <{clean}>".encode("ascii") + eol
    if data.startswith(b"From "):  # an mbox envelope line (procmail, Postfix with flags=F) stays first
        first, _, rest = data.partition(b"\n")
        return first + b"\n" + line + rest
    return line + data


def _refuse(box: Path, name: str, head: bytes, size: int, limit: int) -> Kept:
    parsed = parse(head)
    note = {"from": parsed.sender, "subject": parsed.subject, "message_id": parsed.message_id,
            "date": parsed.date.isoformat() if parsed.date else "", "size": size,
            "why": f"the message is {size:,} bytes, over the {limit:,} bytes maester deliver takes: not read"}  # fmt: skip
    fileio.atomic_write_text(box / REFUSED / f"{name}.json", json.dumps(note, ensure_ascii=False) + "\n")
    return Kept(name, size, refused=True)


def read_refused(root: Path) -> Iterator[tuple[Path, dict[str, object]]]:
    """The notes of messages over the limit, oldest first: ``(path, note)``; a damaged note is read as an empty one."""
    folder = root / MAILBOX / REFUSED
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return
    for n in names:
        try:
            doc = json.loads((folder / n).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            doc = {}
        yield folder / n, doc if isinstance(doc, dict) else {}


def sweep(box: Path, *, now: float | None = None) -> list[str]:
    """Remove the files of deliveries that died in ``box/tmp/`` (their process is gone, or 36 hours passed)."""
    return sweep_dead(box / "tmp", now=now)
