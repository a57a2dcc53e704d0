"""A sent mail kept as what it was made of, not twice (ruling 318).

Every mail ``maester outbox`` writes goes with its *recipe*, ``outbox/NNNN/READER.recipe.json``: the
report folders it carries (each by name and a hash of its files), the latest step's, what was asked
of the reader and by when, the receipts' paths, the moderator's lines, the rollbacks it tells of,
the time it was written, and what no report says: its Message-ID, its MIME boundaries, its seal and
the scale of its map. From these and the reports :func:`rebuild` makes the mail again, byte for byte
(its SHA-256 is the one the log recorded). While a mail waits to be sent its ``.eml`` stays, to be
sent exactly as written (or by hand, ``--mark-sent``); once it is sent (its ``mailed`` line logged),
:func:`shrink` rebuilds it and, when the bytes are the same, removes the ``.eml``: the reports and
the recipe are the mail. A mail that does not come out the same (a report changed by hand, another
version of a library drawing the map) keeps its ``.eml`` and loses its recipe. A folder written by
an older Maester has no recipes: its mails stay whole.

A rollback moves the undone steps' reports to ``reports/rolled-back-K/``: a report folder is found
where its name and hash say, in ``reports/`` or one of those.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from ..folder import mailstore, stepreports
from ..folder.ledger import Ledger
from ..folder.mailbook import MailBook
from ..folder.stepreports import StepReports
from ..reports.report import ReportError
from ..util import fileio
from . import mailbuild
from .digest import Asked, Digest, Game
from .mailbuild import Fixed, build, report_sha256
from .mapimage import MapImageError
from .sending import OutboxError

RECIPE_SUFFIX = mailstore.RECIPE_SUFFIX
VERSION = 2  # 2: a step's heading one line (ruling 319); a recipe of 1 no longer makes its mail


class RecipeError(OutboxError):
    """A mail cannot be made again from its recipe and the reports, byte for byte."""


def recipe_path(path: str) -> str:
    """``outbox/0003/stark.eml`` -> ``outbox/0003/stark.recipe.json``.

    >>> recipe_path("outbox/0003/stark.eml")
    'outbox/0003/stark.recipe.json'
    """
    return path.removesuffix(".eml") + RECIPE_SUFFIX


def notice_text(root: Path, path: str) -> str:
    """A receipt of a file not taken, as a mail carries it."""
    try:
        return (root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"(the receipt {path} cannot be read: see the game folder)"


def recipe_of(g: Game, d: Digest, address: str, folders: list[tuple[str, str]], now: tuple[str, str],
              public_json: bool, fixed: Fixed) -> bytes:  # fmt: skip
    """The recipe of a mail just built: ``folders`` and ``now`` as (name, :func:`report_sha256`)."""
    doc: dict[str, Any] = {
        "recipe": VERSION,
        "game": {"game_id": g.game_id, "number": g.number, "label": g.label, "round": g.round, "phase": g.phase,
                 "sender": g.sender, "now": g.now.isoformat(), "sealed_by": g.fingerprint},
        "who": d.who, "address": address, "steps": [list(f) for f in folders], "now": list(now),
        "public_json": public_json,
        "notices": [p for p, _ in d.notices], "told_houses": d.told_houses, "untaken": d.untaken, "undone": d.undone,
        "asked": [[a.key, a.kind, a.prompt, a.secret, a.due.isoformat() if a.due else None] for a in d.asked],
        "disorder": d.disorder, "scheduled": d.scheduled,
        "message_id": fixed.message_id, "boundaries": list(fixed.boundaries), "seal": fixed.armour,
        "map_scale": fixed.scale,
    }  # fmt: skip
    return (json.dumps(doc, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def find_report(root: Path, name: str, sha256: str) -> StepReports:
    """The reports of step ``name`` whose pages hash to ``sha256``: in ``reports/``, or moved aside by a rollback.

    :raises RecipeError: when there is none.
    """
    for found in stepreports.everywhere(root, name):
        try:
            if report_sha256(found) == sha256:
                return found
        except (OSError, ValueError):
            continue
    raise RecipeError(f"the report {name} it was made of is gone or changed")


def rebuild(root: Path, rec: dict[str, Any]) -> bytes:
    """The mail of ``rec`` (its record in the log) made again from its recipe and the reports.

    :raises RecipeError: when it has no readable recipe, a report it needs is gone or changed, or
        the mail made again is not the one sent (its SHA-256 differs).
    """
    path = root / recipe_path(str(rec["path"]))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("recipe") != VERSION:
            raise RecipeError(f"{path.name} is a recipe of another version ({doc.get('recipe')})")
        info = doc["game"]
        g = Game(info["game_id"], info["number"], info["label"], info["round"], info["phase"], info["sender"], None,
                 datetime.fromisoformat(info["now"]), sealed_by=info["sealed_by"])  # fmt: skip
        folders = [find_report(root, name, sha) for name, sha in doc["steps"]]
        now = find_report(root, *doc["now"])
        d = Digest(doc["who"], notices=[(p, notice_text(root, p)) for p in doc["notices"]],
                   told_houses=list(doc["told_houses"]), untaken=list(doc["untaken"]), undone=list(doc["undone"]),
                   asked=[Asked(k, kind, prompt, bool(secret), datetime.fromisoformat(due) if due else None)
                          for k, kind, prompt, secret, due in doc["asked"]],
                   disorder=bool(doc["disorder"]), scheduled=bool(doc["scheduled"]))  # fmt: skip
        scale = doc["map_scale"]
        pictures = mailbuild.pictures_of(now) if scale is not None else None
        public_json = now.page(stepreports.REPORT_DONE) if doc["public_json"] else None
        fixed = Fixed(doc["message_id"], tuple(doc["boundaries"]), doc["seal"], scale)
        _, _, data = build(g, d, doc["address"], folders, now, pictures, public_json, fixed)
    except RecipeError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, ReportError, MapImageError, OutboxError) as e:
        raise RecipeError(f"{rec['path']} cannot be made again from {path.name}: {e}") from None
    if hashlib.sha256(data).hexdigest() != rec.get("sha256"):
        raise RecipeError(f"{rec['path']} made again from {path.name} is not the mail written (its SHA-256 differs)")
    return data


def mail_bytes(root: Path, rec: dict[str, Any]) -> bytes:
    """A mail written, as it was written: its ``.eml``, else made again from its recipe.

    :raises OSError: when it has no ``.eml`` and no recipe.
    :raises RecipeError: when it has only a recipe, and that does not make it again.
    """
    try:
        return (root / str(rec["path"])).read_bytes()
    except FileNotFoundError:
        if "recipe" not in rec or not (root / recipe_path(str(rec["path"]))).is_file():
            raise
        return rebuild(root, rec)


def written_mail(root: Path, path: str) -> bytes:
    """The mail the log records at ``path`` (``outbox/NNNN/x.eml``), as written: its ``.eml``, or
    made again from its recipe once it was sent.

    :raises KeyError: when the log records no mail there.
    :raises OSError, RecipeError: as :func:`mail_bytes`.
    """
    return mail_bytes(root, Ledger.read(root).mail.written[path])


def shrink(root: Path, rec: dict[str, Any]) -> bool:
    """Once a mail is sent: remove its ``.eml`` when its recipe makes it again byte for byte (the
    recipe goes instead when it does not); whether the ``.eml`` was removed."""
    eml, recipe = root / str(rec["path"]), root / recipe_path(str(rec["path"]))
    if "recipe" not in rec or not eml.is_file() or not recipe.is_file():
        return False
    try:
        rebuild(root, rec)
    except RecipeError:
        os.remove(recipe)  # the mail stays whole, and is not tried again
        return False
    os.remove(eml)
    return True


def shrink_sent(root: Path, book: MailBook) -> int:
    """Shrink every mail sent whose ``.eml`` is still there (a run killed after a ``mailed`` line and
    before it shrank the mail); how many were. Such a mail is its reader's current one (every command
    that writes or sends mails calls this first, before a new mail takes its place), or was sent since
    the kept reading of the log (the log read whole: every mail, a folder of an older Maester's
    included): those are the ones looked at, a few whatever the game's length."""
    done = 0
    for path in dict.fromkeys([*book.current.values(), *book.sent_since_kept()]):
        if path in book.mailed and (root / path).is_file() and "recipe" in (rec := book.written.get(path) or {}):
            done += shrink(root, rec)
    return done


def write_recipe(root: Path, path: str, data: bytes) -> None:
    """Write a recipe where its mail is staged (the log line commits both)."""
    fileio.atomic_write_bytes(mailstore.staged_path(root, recipe_path(path)), data)
