"""``maester ingest | outbox``: mail in (sealed turn files into the inbox) and mail out (the reports)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

from .. import mailbox
from ..gamedir import GameDirError
from ..registry import RegistryError
from . import UserError


def register(subparsers: Any) -> None:
    """Add the mail commands to the ``maester`` parser."""
    p = subparsers.add_parser(
        "ingest", help="take the sealed turn files of this game out of a Maildir or an mbox into its inbox",
        description="Read every message not read before; drop each sealed block of this game (found in the body, "
        "attachments, quoted-printable, base64, flowed or HTML text, or a reply's quoting) into GAME_DIR/inbox/ "
        "as a file of its own. Exit status: 0, 1 when some message could not be read at all, 2 usage errors.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    add_mailbox_options(p, required=True)
    p.set_defaults(handler=cmd_ingest)


def add_mailbox_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    """``--maildir DIR | --mbox FILE``, for ``ingest`` and ``adjudicate``."""
    box = p.add_mutually_exclusive_group(required=required)
    box.add_argument("--maildir", type=Path, metavar="DIR", help="a Maildir (its new/ and cur/ are read; tmp/ never)")
    box.add_argument("--mbox", type=Path, metavar="FILE", help="an mbox file")


def guard(fn: Callable[[], Any]) -> Any:
    """Mailbox, registry and folder errors become one-line user errors (exit status 2)."""
    try:
        return fn()
    except (GameDirError, RegistryError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(f"{e.filename or 'the game folder'}: {e.strerror}") from None


def ingest(game_dir: Path, maildir: Path | None, mbox: Path | None) -> int:
    """Run one ingest and print its summary; returns its exit status."""
    report = guard(lambda: mailbox.ingest_into_inbox(game_dir, maildir=maildir, mbox=mbox))
    print("\n".join(report.lines()))
    sys.stdout.flush()
    return int(report.exit_status)


def cmd_ingest(args: argparse.Namespace) -> int:
    return ingest(args.game_dir, args.maildir, args.mbox)
