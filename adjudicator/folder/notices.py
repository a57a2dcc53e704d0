"""Receipts of the files a run did not take, who gets each, and what stays in the inbox.

* **Who hears of a refused file** (ruling 300). Each refused part is told to the house whose
  registered key made a good seal over it, at that house's registered address, with its next mail
  (:mod:`adjudicator.mail.outbox`); never to the address the file came from, which anyone can
  write. A part that no registered key sealed (an unknown key, a damaged seal, no seal at all) is
  told to the moderator only, in the moderator's mail.
* **Where the receipts are.** ``refused/NNNN-NAME-HASH-WHO.txt``: NNNN is the step the file was
  judged against, WHO the house (or ``moderator``) it goes to. The file's ``reject`` line in the log
  names them (``receipts``); the run prints them.
* **The inbox keeps only what waits** (ruling 302). A file whose turns were taken leaves
  ``inbox/`` (the turns are in ``archive/``); a refused file moves to ``refused/files/`` beside its
  receipt; a file sealed for a step not open yet stays. A rollback puts back the files refused
  against the steps it undoes, so that they are judged again.
* **Paths in the log** are relative to the game folder (``inbox/x.txt``), so the log reads the
  same wherever a command was run; lines of older versions, which kept the path as given, are read
  through :func:`logged_path`.
* **A seal that sealed nothing** (ruling 195): a ``.sig`` a mail carried that sealed no turn of it,
  naming a house's registered key, is told to that house by ``maester ingest``: its receipt
  ``refused/NNNN-NAME-HASH-HOUSE.txt`` (NNNN: the step the game was at) is logged on an
  ``unmatched-seal`` line and mailed like any other (:func:`tell_unmatched_seal`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..util import fileio
from . import registry
from .audit import Folder, Snapshot
from .intake import Rejection
from .ledger import Ledger, log
from .receipts import receipt_name, rejected_receipt, safe_name, shown, unmatched_seal_receipt

REFUSED = "refused"
REFUSED_FILES = "refused/files"


# --- paths as the log keeps them -----------------------------------------------------------------


def game_path(root: Path, path: str | Path) -> str:
    """``path`` relative to the game folder ``root``, as the log keeps it (``../x.txt`` outside it).

    >>> game_path(Path("/srv/games/winter"), "/srv/games/winter/inbox/a.txt")
    'inbox/a.txt'
    """
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return Path(rel).as_posix()


def logged_path(root: Path, text: str) -> str:
    """A path read from a log line, relative to the game folder.

    Lines written before paths were kept relative hold the path as the command was given it: an
    absolute one is made relative; a relative one, whose starting point is not known, is kept as
    it is (it is only ever shown).

    >>> logged_path(Path("/g/winter"), "/g/winter/inbox/x.txt"), logged_path(Path("/g/winter"), "inbox/x.txt")
    ('inbox/x.txt', 'inbox/x.txt')
    """
    return game_path(root, text) if os.path.isabs(text) else text


def in_inbox(folder: Folder, path: Path) -> bool:
    return os.path.abspath(path.parent) == os.path.abspath(folder.inbox)


def _meta_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.meta.json")


def read_meta(path: Path) -> dict[str, Any]:
    """Where an inbox file came from, as ``maester ingest`` noted it (``{}`` when it did not)."""
    try:
        doc = json.loads(_meta_path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


# --- receipts of refused files -------------------------------------------------------------------


def recipients(rej: Rejection) -> dict[str, list[int]]:
    """Who hears of which reasons: the house whose key sealed that part, else the moderator.

    >>> recipients(Rejection("f.txt", "ab", ["x", "y", "z"], by=["stark", "", "stark"]))
    {'stark': [0, 2], 'moderator': [1]}
    """
    out: dict[str, list[int]] = {}
    for i in range(len(rej.reasons)):
        out.setdefault(rej.signer(i) or registry.MODERATOR, []).append(i)
    return out


def write_receipts(folder: Folder, rej: Rejection, snap: Snapshot, source: Path | None) -> dict[str, str]:
    """Write a refused file's receipts, one per recipient; returns recipient -> path in the game folder.

    A house's receipt holds only the reasons about the parts its key sealed (and names only its own
    turns of the file that were taken), so that one house never reads another's (ruling 300).
    """
    came = read_meta(source) if source is not None and in_inbox(folder, source) else {}
    out: dict[str, str] = {}
    for who, idx in recipients(rej).items():
        part = Rejection(rej.source, rej.sha256, [rej.reasons[i] for i in idx], rej.retry, rej.taken)
        name = receipt_name(rej, snap.number, who)
        text = rejected_receipt(part, snap, to=who, came=came if who == registry.MODERATOR else None)
        fileio.atomic_write_text(folder.root / REFUSED / name, text)
        out[who] = f"{REFUSED}/{name}"
    return out


def who_gets(who: str, players: dict[str, dict[str, Any]]) -> str:
    """Where a receipt goes, in words: ``House Stark (stark@example.org), with its next mail``."""
    if who == registry.MODERATOR:
        return "the moderator only, in the moderator's next mail (no registered key sealed it)"
    address = str(players.get(who, {}).get("email", ""))
    if not address:
        return f"{registry.house_name(who)}, which has no registered address: forward it yourself"
    return f"{registry.house_name(who)} ({address}), with its next mail"


UNMATCHED = "unmatched-seal"  # the log line of a seal told to the house whose key it names
MAX_WAITING = 4  # such receipts waiting for one house's next mail; beyond them, the moderator's summary only


def tell_unmatched_seal(root: Path, ledger: Ledger, *, house: str, name: str, sha256: str, fingerprint: str,
                        why: str, seals_name: str, hint: str, number: int, message: str, time: str = "",
                        over: str = "") -> str:  # fmt: skip
    """Write the receipt of a seal that sealed nothing for ``house`` and log it; what was done, in words.

    Once a seal (by its SHA-256): a message read again, or the same seal in another mail, is told
    once. At most :data:`MAX_WAITING` such receipts wait for a house's next mail, so that seals
    naming its key (which anyone can write) cannot fill its mail; ``over``, when given, is why the
    caller's bound over time refuses one more.
    """
    if f"seal:{sha256}" in ledger.notices:
        path = ledger.notices[f"seal:{sha256}"]["receipts"].get(house, "")
        return f"the seal {name!r} was told to {registry.house_name(house)} before ({path})"
    sent = ledger.mail.delivered.get(house, set())
    waiting = [e for e in ledger.notices.values()
               if e.get("action") == UNMATCHED and e["receipts"].get(house, "") not in sent | {""}]  # fmt: skip
    if len(waiting) >= MAX_WAITING:
        return (f"not told to {registry.house_name(house)}: {len(waiting)} receipts of seals naming its key wait "
                "for its next mail already (seals anyone can write); only this summary names it")  # fmt: skip
    if over:  # the caller's bound over time (ruling 327)
        return f"not told to {registry.house_name(house)}: {over} (seals anyone can write); only this summary names it"
    rel = f"{REFUSED}/{number:04d}-{safe_name(name).removesuffix('.sig')[:40]}-{sha256[:8]}-{house}.txt"
    text = unmatched_seal_receipt(name, sha256, house, fingerprint, why, seals_name, number=number, hint=hint)
    fileio.atomic_write_text(root / rel, text)  # then the log line: a run killed between them writes it again
    log(root, {"action": UNMATCHED, "sha256": sha256, "file": f"attachment {shown(name)!r} of {shown(message)}",
               "house": house, "why": why, "at": number, "receipts": {house: rel}} | ({"time": time} if time else {}))  # fmt: skip
    return f"receipt {rel}: for {registry.house_name(house)}, whose key the seal names, with its next mail"


# --- the inbox after a run ----------------------------------------------------------------------


def kept_name(folder: Folder, path: Path, sha: str) -> str:
    """Where a refused inbox file goes: ``refused/files/NAME`` (``NAME`` with its hash when taken); a
    name that is not UTF-8 is written with U+FFFD, as the log and the receipts say it."""
    name = shown(path.name)
    target = folder.root / REFUSED_FILES / name
    if target.exists():
        target = target.with_name(f"{sha[:8]}-{name}")
    return f"{REFUSED_FILES}/{target.name}"


def move(src: Path, dest: Path) -> None:
    """Move a file and the ingest note beside it (``.NAME.meta.json``); nothing when it is gone already."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    for a, b in ((src, dest), (_meta_path(src), _meta_path(dest))):
        with contextlib.suppress(FileNotFoundError):
            os.replace(a, b)


def remove(path: Path) -> None:
    """Remove an inbox file whose turns are in the archive, with its ingest note."""
    for p in (path, _meta_path(path)):
        p.unlink(missing_ok=True)


def settle_inbox(folder: Folder, ledger: Ledger, paths: Iterable[Path], digests: dict[str, str],
                 done: set[str]) -> None:  # fmt: skip
    """Empty the inbox of the files a run judged (ruling 302): those whose turns were taken (``done``,
    or known to the log as accepted or dropped) leave it; those refused for good move to
    ``refused/files/``; those waiting for a later step stay. Safe to do again after a crash."""
    for path in paths:
        if not in_inbox(folder, path) or not path.exists():
            continue
        sha = digests.get(str(path), "")
        if str(path) in done or (sha and (ledger.is_accepted(sha) or ledger.is_dropped(sha))):
            remove(path)
        elif sha and ledger.rejected.get(sha) is False:
            dest = folder.root / ledger.kept.get(sha, kept_name(folder, path, sha))
            if dest.exists():  # the same bytes, refused and kept before: this copy adds nothing
                remove(path)
            else:
                move(path, dest)


def put_back(folder: Folder, ledger: Ledger) -> None:
    """After a rollback: the files refused against the steps it undid go back to the inbox, to be
    judged again at the next run (their receipts stay where they are)."""
    for rel in ledger.unrefused.values():
        src = folder.root / rel
        if src.exists():
            move(src, folder.inbox / src.name)


# --- what waits ---------------------------------------------------------------------------------


def waiting(folder: Folder, ledger: Ledger) -> list[str]:
    """The files that wait, for ``maester status``: inbox files sealed for a later step, inbox files
    not read yet, and archived files a rollback gave back that wait for their step."""
    from .ledger import sha256

    out = []
    try:
        names = sorted(e.name for e in os.scandir(folder.inbox) if not e.name.startswith(".") and e.is_file())
    except OSError:
        names = []
    for name in names:
        try:
            sha = sha256((folder.inbox / name).read_bytes())
        except OSError:
            continue
        if ledger.rejected.get(sha):
            out.append(f"inbox/{name}: sealed for a step not open yet; taken when it opens")
        elif sha not in ledger.rejected and not ledger.is_accepted(sha):
            out.append(f"inbox/{name}: not read yet; the next 'maester adjudicate' reads it")
    for name in sorted(ledger.returning):
        out.append(f"archive/{name}: given back by a rollback; taken again at its step")
    return out
