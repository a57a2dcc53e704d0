"""``maester deliver GAME_DIR``: one message from a mail server's pipe, taken, judged and answered at once.

A mail server hands each message to a command on its standard input (a Postfix alias or
``.forward``, procmail, any MDA). ``deliver`` does, in order:

1. **keep** the message in the game's mailbox (:mod:`adjudicator.mail.spool`): the commit point.
   Before it nothing is kept, and the exit status is 75 (``EX_TEMPFAIL``: the server keeps the
   message and tries again later); from it on the message is the game's and the exit status is 0,
   whatever happens next, so that a mail server never bounces a player's mail;
2. **take** every message of the mailbox not read before into the inbox (``maester ingest``);
3. **adjudicate** (``maester adjudicate``, without ``--deadline``: the cron job calls deadlines);
4. **mail**: write the outbox (``maester outbox``) and send it, with the replies due, through the
   server of ``[mail] send`` in ``game.toml`` (or ``--send``).

Each of steps 2-4 takes the game folder's lock in turn, waiting for a run that holds it (another
delivery, the cron job) up to ``wait`` seconds in all. A delivery that cannot get it in time stops
there: its message is kept, and the run that holds the lock, the next delivery or the next cron run
takes it (they all read the game's mailbox). Every step is one the next run finishes when a
delivery is killed: a message is read once, a turn taken once, a mail sent once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from ..folder.gamedir import RUN_WAIT, GameDir, GameDirError, GameLocked, when_free
from ..folder.registry import RegistryError
from ..seals.keys import KeyPair
from . import spool
from .sending import SmtpServer

__all__ = ["EX_TEMPFAIL", "LOCK_WAIT", "Delivery", "deliver", "keep_message"]

EX_TEMPFAIL = 75  # sysexits.h: "temporary failure; the user is invited to retry"
LOCK_WAIT = RUN_WAIT  # seconds a delivery waits in all for a run holding the game folder's lock


@dataclass
class Delivery:
    """What one delivery did: where the message was kept, then each step's lines."""

    game_dir: Path
    kept: spool.Kept | None = None
    lines: list[str] = field(default_factory=list)
    busy: bool = False  # stopped for want of the lock: the message waits in the mailbox
    failed: bool = False  # a step failed: the message is kept, the next run goes on from it

    @property
    def exit_status(self) -> int:
        """0 once the message is kept (or its note, for one over the limit); 75 when nothing was."""
        return 0 if self.kept is not None else EX_TEMPFAIL


@dataclass(frozen=True)
class Mailing:
    """How the run's mail goes out: the moderator's key, the sender, the server (None: written, not sent)."""

    server: SmtpServer | None = None
    key: KeyPair | None = None
    sender: str | None = None
    problem: str = ""  # why the mail is not written (a key that could not be read): the next outbox writes it


def keep_message(game_dir: str | Path, stream: BinaryIO, *, envelope_sender: str | None = None) -> Delivery:
    """Step 1 alone: keep the message; the :class:`Delivery` says where (or why nothing was kept).

    :raises GameDirError: when ``game_dir`` is no game folder (nothing is kept).
    :raises OSError: when the message cannot be written (nothing is kept).
    """
    gd = GameDir.open(game_dir)
    d = Delivery(gd.root)
    d.kept = spool.keep(gd.root, stream, envelope_sender=envelope_sender)
    what = "a note of it (the message is over the size limit)" if d.kept.refused else f"{d.kept.size:,} bytes"
    d.lines.append(f"kept {d.kept.where}: {what}")
    return d


def deliver(game_dir: str | Path, stream: BinaryIO, *, mailing: Mailing, envelope_sender: str | None = None,
            wait: float = LOCK_WAIT, now: datetime | None = None) -> Delivery:  # fmt: skip
    """Keep one message, then take, adjudicate and mail what it makes due (see the module's doc).

    :raises GameDirError: when ``game_dir`` is no game folder (nothing is kept).
    :raises OSError: when the message cannot be written (nothing is kept).
    """
    d = keep_message(game_dir, stream, envelope_sender=envelope_sender)
    finish(d, mailing=mailing, wait=wait, now=now)
    return d


def finish(d: Delivery, *, mailing: Mailing, wait: float = LOCK_WAIT, now: datetime | None = None) -> None:
    """Steps 2-4 for a kept message; never raises for a problem of the folder, the mail or the server:
    each is a line of ``d``, and the next run goes on from where this one stopped."""
    from ..folder import batch
    from .ingest import ingest_own_mailbox

    deadline = time.monotonic() + wait
    root = d.game_dir
    steps: list[tuple[str, Callable[[], list[str]]]] = [
        ("take the mail", lambda: ingest_own_mailbox(root, now=now).lines()),
        ("adjudicate", lambda: batch.adjudicate(root, now=now).lines()),
    ]
    steps += _mail_steps(root, mailing, now)
    for what, step in steps:
        try:
            d.lines += when_free(step, max(0.0, deadline - time.monotonic()))
        except GameLocked as e:
            d.busy = True
            d.lines.append(f"{what}: {e}; the message waits in {spool.MAILBOX}/ for the run that holds it, "
                           "or the next one")  # fmt: skip
            return
        except (GameDirError, RegistryError, OSError) as e:
            d.failed = True
            d.lines.append(f"{what}: not done: {e}; the message is kept, and the next run goes on from it")
            return


def _mail_steps(root: Path, mailing: Mailing, now: datetime | None) -> list[tuple[str, Callable[[], list[str]]]]:
    from .outbox import send_outbox, write_outbox
    from .replies import send_replies

    if mailing.problem:
        return [("mail", lambda: [f"mail: not written: {mailing.problem}"])]

    def write() -> list[str]:
        return write_outbox(root, key=mailing.key, sender=mailing.sender, now=now).lines()

    def send() -> list[str]:
        if mailing.server is None:
            return ["not sent: no server to send through ([mail] send in game.toml, or --send URL); "
                    f"'maester outbox {root} --send URL' sends them"]  # fmt: skip
        sent = send_outbox(root, server=mailing.server, now=now)
        answered = send_replies(root, server=mailing.server, now=now)  # the replies to mails not taken (ruling 323)
        return [f"  sent {n}" for n in [*sent.sent, *answered.sent]] + \
            [f"  NOT SENT {n}" for n in [*sent.failed, *answered.failed]]  # fmt: skip

    return [("write the mail", write), ("send the mail", send)]
