"""The log's kept reading: where the last run stopped reading the log, and what it had read by then.

A new command would otherwise read the whole log to know what is archived, refused, mailed and
ordered, so a run would cost more the longer the game had lasted. ``maester adjudicate`` keeps,
at the end of each run, the ledger it read (:class:`adjudicator.folder.ledger.Ledger`) in
``ledger.json`` beside the log, with the offset it read to; the next command loads it and reads
the log on from that offset only.

The file is a cache of the log and never more: the log stays the record. It is used only when
everything about it matches, and else the log is read whole as before (and the next run writes
the file again):

* its format, and a hash of the code that reads the log (a new Maester reads afresh);
* the log is the same file (device and inode), no shorter than the offset, and has the same bytes
  at its start and just before the offset (a log replaced, restored or cut short differs there);
* a checksum of its own contents (a file damaged on the disk).

It is written without waiting for the disk, atomically (a temporary file, then a rename): a power
cut may lose it or leave an older one, and a killed command leaves the previous one whole; either
way the checks above send the next command to the log. ``maester replay`` never uses it.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from pathlib import Path
from typing import Any

from ..util import fileio

INDEX_FILE = "ledger.json"
FORMAT = 1
_HEAD = 4096  # bytes at the start of the log that must not have changed
_SOURCES = ("ledger.py", "ledger_index.py", "mailbook.py")  # the code whose reading the file holds


def _code_hash() -> str:
    """A hash of the modules that read the log: a file kept by other code is never trusted."""
    global _code
    if _code is None:
        h = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for name in _SOURCES:
            try:
                h.update((here / name).read_bytes())
            except OSError:
                h.update(os.urandom(16))  # unreadable: no file kept by this code matches another's
        _code = h.hexdigest()
    return _code


_code: str | None = None


# --- the codec: each field of the ledger and its books, by the kind of value it holds ------------------------

# "json": as JSON keeps it; "intkeys": a dict with int keys; "set": a set of strings or ints; "tuples": a set of
# tuples; "setmap": a dict of sets; "archived": a list of Archived; "archmap": a dict of Archived by name.
LEDGER_FIELDS = {
    "archived": "archived", "set_aside": "archmap", "last_index": "json", "rejected": "json", "rejected_at": "json",
    "kept": "json", "notices": "json", "returning": "archmap", "dropped": "archmap", "unrefused": "json",
    "deadlines": "set", "leaves": "intkeys", "open_deadline": "json", "snapshots": "intkeys",
    "moderator_accepts": "set", "revealed": "json", "setup_sha256": "json", "rollback": "json",
    "rollback_done": "json", "disorder_fold": "json",
}  # fmt: skip
BOOK_FIELDS = {"calls": "intkeys", "extensions": "json", "reminded": "tuples", "key_changes": "json",
               "disorder_starts": "tuples", "disorder_ends": "tuples"}  # fmt: skip
MAIL_FIELDS = {"written": "json", "current": "json", "mailed": "json", "through": "json", "delivered": "setmap",
               "undone": "json", "first_mailed": "intkeys", "lines": "json", "replies": "set", "last_folder": "json"}  # fmt: skip


def _enc(kind: str, v: Any) -> Any:
    if kind == "json":
        return v
    if kind == "intkeys":
        return [[k, x] for k, x in v.items()]
    if kind == "set":
        return sorted(v)
    if kind == "tuples":
        return sorted(list(t) for t in v)
    if kind == "setmap":
        return {k: sorted(x) for k, x in v.items()}
    if kind == "archived":
        return [[a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256] for a in v]
    if kind == "archmap":
        return {k: [a.index, a.name, a.house, a.round, a.step, a.seq, a.sha256] for k, a in v.items()}
    raise ValueError(kind)


def _dec(kind: str, v: Any, archived: Any) -> Any:
    if kind == "json":
        return v
    if kind == "intkeys":
        return {int(k): x for k, x in v}
    if kind == "set":
        return set(v)
    if kind == "tuples":
        return {tuple(t) for t in v}
    if kind == "setmap":
        return {k: set(x) for k, x in v.items()}
    if kind == "archived":
        return [archived(*x) for x in v]
    if kind == "archmap":
        return {k: archived(*x) for k, x in v.items()}
    raise ValueError(kind)


def _fields(obj: Any, kinds: dict[str, str]) -> dict[str, Any]:
    names = [n for n in getattr(obj, "__dataclass_fields__", {}) if not n.startswith("_")]
    if set(names) - set(kinds) - {"book", "mail"}:  # a field this codec does not know: keep nothing
        raise ValueError(f"no codec for {sorted(set(names) - set(kinds))}")
    return {n: _enc(kinds[n], getattr(obj, n)) for n in kinds}


def encode(ledger: Any) -> dict[str, Any]:
    """The ledger as JSON values (:raises ValueError: for a field the codec does not know)."""
    out = _fields(ledger, LEDGER_FIELDS)
    out["book"] = _fields(ledger.book, BOOK_FIELDS)
    out["mail"] = _fields(ledger.mail, MAIL_FIELDS)
    return out


def decode(data: dict[str, Any], ledger_cls: Any, book_cls: Any, mail_cls: Any, archived_cls: Any) -> Any:
    """The ledger :func:`encode` gave (:raises KeyError, TypeError, ValueError: when it is not one)."""
    book = book_cls(**{n: _dec(k, data["book"][n], archived_cls) for n, k in BOOK_FIELDS.items()})
    mail = mail_cls(**{n: _dec(k, data["mail"][n], archived_cls) for n, k in MAIL_FIELDS.items()})
    return ledger_cls(book=book, mail=mail, **{n: _dec(k, data[n], archived_cls) for n, k in LEDGER_FIELDS.items()})


# --- the file ---------------------------------------------------------------------------------------------


def _head_hash(f: Any, offset: int) -> str:
    f.seek(0)
    return hashlib.sha256(f.read(min(offset, _HEAD))).hexdigest()


def save(root: Path, ident: tuple[int, int], offset: int, tail: bytes, f: Any, state: dict[str, Any]) -> None:
    """Keep the reading of the log ``f`` up to ``offset`` (``tail``: the bytes just before it) in
    ``ledger.json``. Written atomically and without fsync (a cache: a lost one is read afresh)."""
    body = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = {"format": FORMAT, "code": _code_hash(), "device": ident[0], "inode": ident[1], "offset": offset,
              "head": _head_hash(f, offset), "tail": tail.hex(), "crc32": zlib.crc32(body)}  # fmt: skip
    with fileio.relaxed():
        fileio.atomic_write_bytes(Path(root) / INDEX_FILE, json.dumps(header).encode() + b"\n" + body)


def load(root: Path, ident: tuple[int, int], size: int, f: Any) -> tuple[dict[str, Any], int, bytes] | None:
    """The kept reading of the log ``f`` (its ``ident`` and ``size`` now): the ledger's JSON values, the
    offset to read on from and the bytes just before it; ``None`` when any check fails (see the module's doc)."""
    try:
        data = (Path(root) / INDEX_FILE).read_bytes()
    except OSError:
        return None
    first, _, body = data.partition(b"\n")
    try:
        header = json.loads(first)
        offset, tail = int(header["offset"]), bytes.fromhex(str(header["tail"]))
        if (header["format"] != FORMAT or header["code"] != _code_hash() or (header["device"], header["inode"]) != ident
                or not 0 < offset <= size or len(tail) != min(offset, 256) or zlib.crc32(body) != header["crc32"]):  # fmt: skip
            return None
        f.seek(offset - len(tail))
        if f.read(len(tail)) != tail or _head_hash(f, offset) != header["head"]:
            return None
        state = json.loads(body)
    except (ValueError, KeyError, TypeError, OSError):
        return None
    f.seek(offset)
    return (state, offset, tail) if isinstance(state, dict) else None
