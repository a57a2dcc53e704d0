"""A per-user cache of work every start would otherwise redo: the turn-file parser's tables, the compiled templates.

Building the Lark parser from the grammar and compiling the report templates cost a new
``maester`` process more than the rest of its start-up together; both depend only on files of
the package and on the versions of Lark, Jinja2 and Python. So the result is kept in the user's
cache folder, ``$XDG_CACHE_HOME/maester`` (else ``~/.cache/maester``), and read back by the next
process. Removing the folder is always safe; ``MAESTER_NO_CACHE=1`` turns the cache off.

What the cache may be trusted with, and why (docs/moderating.md, "The cache folder"):

* **Never another user's file.** A compiled template is code, and Lark's own cache format is a
  pickle: whoever can write a cache file can run code as the user who reads it. So the folder is
  made with mode 0700 and used only when it is a real folder (not a link) owned by this user and
  writable by nobody else; each file is opened through that folder's descriptor (no path can be
  swapped between the check and the read), without following a link, and read only when it is a
  regular file owned by this user and writable by nobody else. A folder or file that fails a check
  is not used (and not repaired: Maester works without it, only slower).
* **A file for exactly this input.** Each file starts with a header line naming its key (a hash of
  everything the content depends on: the source, the library versions, Python's) and a SHA-256 of
  its body; a file whose key or hash does not match (another version, a torn or damaged file) is
  ignored and written again.
* **Written atomically**: a temporary file in the folder, then a rename; readers see the old file
  or the new one. Two processes writing the same entry write the same bytes.

>>> key = entry_key("example", "source text", "library 1.0")
>>> decode(encode(b"body", key), key)
b'body'
>>> decode(encode(b"body", key), entry_key("example", "other source")) is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from pathlib import Path

_MAGIC = b"maester-cache 1"
MAX_ENTRY_BYTES = 16 * 1024 * 1024  # the largest entry read back; ours are well under 1 MB


def entry_key(*parts: str) -> str:
    """A key for content that depends on exactly ``parts`` (sources, versions), with Python's version added."""
    h = hashlib.sha256()
    for part in (*parts, sys.version, sys.implementation.cache_tag or ""):
        h.update(part.encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


def encode(body: bytes, key: str) -> bytes:
    """A cache file's bytes: the header line (magic, key, SHA-256 of the body), then the body."""
    return b"%s %s %s\n" % (_MAGIC, key.encode("ascii"), hashlib.sha256(body).hexdigest().encode("ascii")) + body


def decode(data: bytes, key: str) -> bytes | None:
    """The body of a cache file made by :func:`encode` for ``key``; ``None`` for anything else."""
    head, sep, body = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 4 or b" ".join(parts[:2]) != _MAGIC or parts[2] != key.encode("ascii"):
        return None
    return body if hashlib.sha256(body).hexdigest().encode("ascii") == parts[3] else None


def folder() -> Path | None:
    """The cache folder's path (not checked yet), or ``None`` when the cache is off or there is no home."""
    if os.environ.get("MAESTER_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home directory known
            return None
    return Path(base) / "maester"


def _private(st: os.stat_result, kind: int) -> bool:
    """Of this kind, owned by this user, and writable by no one else."""
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def _open_folder(create: bool) -> int | None:
    """A descriptor of the cache folder, when it is this user's own and private to it; else ``None``."""
    where = folder()
    if where is None:
        return None
    try:
        if create:
            where.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkdir(where, 0o700)
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if _private(os.fstat(fd), stat.S_IFDIR):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def load(name: str, key: str) -> bytes | None:
    """The body cached under ``name`` for ``key``, or ``None`` (missing, stale, damaged, not trusted)."""
    dir_fd = _open_folder(create=False)
    if dir_fd is None:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    try:
        st = os.fstat(fd)
        if not _private(st, stat.S_IFREG) or st.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return decode(data, key)


def store(name: str, key: str, body: bytes) -> None:
    """Keep ``body`` under ``name`` for ``key``, atomically; a cache that cannot be written is left alone."""
    dir_fd = _open_folder(create=True)
    if dir_fd is None:
        return
    tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.write(encode(body, key))
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)
