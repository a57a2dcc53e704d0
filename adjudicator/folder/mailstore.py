"""The outbox's files, and the one order they are written in: staged, committed by the log, placed.

``maester outbox`` writes a run's mails in three moves (ruling 330):

1. each mail into ``outbox/.staged/NNNN/READER.eml`` (atomically); nothing reads that folder as mail;
2. one ``outbox`` line in the log naming every mail of the run: *the commit point*. Before it the
   run wrote nothing that counts; after it, each mail it names is to be sent;
   Beside each, its recipe ``READER.recipe.json`` (what it is made of: ruling 318);
3. each staged mail renamed into its place ``outbox/NNNN/READER.eml``, the mails it supersedes
   moved to ``outbox/superseded/``, then ``outbox/NNNN/manifest.json`` (what the log says of the
   folder's mails, for people): written last, it marks the run finished.

A run killed anywhere leaves one of these states, and :func:`settle` (called by the next command
of any kind, :mod:`adjudicator.folder.settle`) finishes or undoes it: a staged mail the log names
is placed, one it does not name is removed (its run never committed: the next ``outbox`` writes
it afresh), the superseded mails are moved and the manifest written. So a game's first mailing
killed half way is never mistaken for mail an older Maester sent (its manifest, written by this
Maester, comes only after the log line), and no temporary file of a mail stays behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from ..util import fileio
from .mailbook import MailBook

OUTBOX = "outbox"
STAGED = ".staged"  # a dot: `outbox/*` globs and people listing the folder pass it by
MANIFEST_FILE = "manifest.json"
SUPERSEDED = "superseded"
REPLIES = "replies"  # outbox/replies/NAME.eml: the replies to mails not taken (ruling 323)
RECIPE_SUFFIX = ".recipe.json"  # beside each mail: what it is made of (ruling 318, adjudicator/mail/recipe.py)
MANIFEST_KEYS = ("to", "address", "steps", "subject", "message_id", "sha256")
_RUN_FOLDER = re.compile(rf"{OUTBOX}/\d{{4}}(-\d+)?")  # outbox/NNNN, outbox/NNNN-2 ...: the only ones written


def staged_path(root: Path, path: str) -> Path:
    """Where the mail to be placed at ``path`` (``outbox/NNNN/x.eml``) is written before the log names it.

    >>> staged_path(Path("g"), "outbox/0003/stark.eml").as_posix()
    'g/outbox/.staged/0003/stark.eml'
    """
    return root / OUTBOX / STAGED / path.removeprefix(f"{OUTBOX}/")


def stage(root: Path, path: str, data: bytes) -> None:
    """Write one mail of a run into the staging folder (step 1 above)."""
    fileio.atomic_write_bytes(staged_path(root, path), data)


def place(root: Path, book: MailBook, folder: str) -> None:
    """Steps 3 above, once the log holds the run's ``outbox`` line (``book`` has read it): the staged
    mails the log names go to their places, the superseded ones aside, then ``folder``'s manifest."""
    _place_staged(root, book)
    sweep_superseded(root, book)
    write_manifest(root, book, folder)


def settle(root: Path, book: MailBook) -> None:
    """Finish or undo what an ``outbox`` run killed half way left (see the module's doc), and remove a
    reply written and never logged; cheap when nothing was left: one look at the staging folder, one
    at the replies' folder and one at the latest run's manifest."""
    sweep_unlogged_replies(root, book)
    if (root / OUTBOX / STAGED).exists():
        _place_staged(root, book)
    folder = book.last_folder
    if _RUN_FOLDER.fullmatch(folder) and _manifest(root, folder) != manifest_of(book, folder):
        sweep_superseded(root, book)
        write_manifest(root, book, folder)


def temp_folders(root: Path, book: MailBook) -> list[Path]:
    """The folders of the outbox where a killed command may have left a temporary file: the outbox
    itself, the latest run's folder (its manifest), the reminders' and the replies' folders."""
    base = root / OUTBOX
    found = [base, base / "reminders", base / REPLIES]
    if _RUN_FOLDER.fullmatch(book.last_folder):
        found.append(root / book.last_folder)
    return found


def sweep_unlogged_replies(root: Path, book: MailBook) -> list[str]:
    """Remove each reply a killed run wrote and never logged (its ``reply`` line is the commit point:
    such a reply was never made, and is never sent; the next read of its mail writes it again)."""
    folder = root / OUTBOX / REPLIES
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    gone = [n for n in names if n.endswith(".eml") and not n.startswith(".") and f"{OUTBOX}/{REPLIES}/{n}" not in book.replies]
    for n in gone:
        fileio.remove_temp(folder / n)
    return gone


def sweep_every_folder(root: Path) -> None:
    """Remove the temporary files of mails in every folder of the outbox: an earlier Maester wrote its
    mails in place, so that a run of it killed while writing left one beside them (``outbox`` does this,
    the one command that owns the outbox; the others look only where this Maester writes)."""
    base = root / OUTBOX
    try:
        with os.scandir(base) as entries:
            folders = [base / e.name for e in entries if e.is_dir(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return
    for folder in folders:
        fileio.sweep_temp(folder)


def _place_staged(root: Path, book: MailBook) -> None:
    staged = root / OUTBOX / STAGED
    for src in sorted(p for p in staged.rglob("*") if p.is_file() or p.is_symlink()):
        path = f"{OUTBOX}/{src.relative_to(staged).as_posix()}"
        is_recipe = path.endswith(RECIPE_SUFFIX)
        rec = book.written.get(path.removesuffix(RECIPE_SUFFIX) + ".eml" if is_recipe else path)
        want = None if rec is None else rec.get("recipe" if is_recipe else "sha256")
        if want is None or not _RUN_FOLDER.fullmatch(path.rpartition("/")[0]) or src.name.startswith(".") or _sha256(src) != want:
            fileio.remove_temp(src)  # never committed (or a temporary file of a write cut short): undone
            continue
        dest = root / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)
    if staged.is_dir() and not any(p.is_file() for p in staged.rglob("*")):
        shutil.rmtree(staged, ignore_errors=True)


def sweep_superseded(root: Path, book: MailBook) -> None:
    """Move the mails written, never sent and superseded since to ``outbox/superseded/``, so that
    nobody sends one by hand; the log keeps what they were."""
    current = set(book.current.values())
    for path in sorted(book.unsent - current):
        src = root / path
        if not src.is_file():
            continue
        recipe = root / (path.removesuffix(".eml") + RECIPE_SUFFIX)
        if recipe.is_file():  # a mail never sent needs no recipe (ruling 318); removed first, then the mail moved
            os.remove(recipe)
        dest = root / OUTBOX / SUPERSEDED / path.removeprefix(f"{OUTBOX}/").replace("/", "-")
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)


def manifest_of(book: MailBook, folder: str) -> dict[str, Any]:
    """What ``folder/manifest.json`` says: each mail the log records in that folder, by file name."""
    prefix = f"{folder}/"
    mails = {path.removeprefix(prefix): {k: rec[k] for k in MANIFEST_KEYS if k in rec}
             for path, rec in book.written.with_prefix(prefix) if "/" not in path.removeprefix(prefix)}  # fmt: skip
    return {"mails": mails}


def write_manifest(root: Path, book: MailBook, folder: str) -> None:
    fileio.atomic_write_text(root / folder / MANIFEST_FILE,
                             json.dumps(manifest_of(book, folder), indent=1, ensure_ascii=False) + "\n")  # fmt: skip


def _manifest(root: Path, folder: str) -> Any:
    try:
        return json.loads((root / folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def is_older_maesters(root: Path, folder: Path) -> bool:
    """Whether ``outbox/NNNN/`` was written by a Maester before the log recorded the mail (ruling 304):
    it holds a ``sent.json``, or a manifest of that time, which named the report it was made from.
    A manifest of this Maester names no report: the log is the record of its mails."""
    if (folder / "sent.json").is_file():
        return True
    doc = _manifest(root, folder.relative_to(root).as_posix())
    return isinstance(doc, dict) and "report" in doc


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
