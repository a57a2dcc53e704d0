"""``maester ingest | outbox``: mail in (sealed turn files into the inbox) and mail out (the reports)."""

from __future__ import annotations

import argparse
import getpass
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import UserError, guard, os_error_line

if TYPE_CHECKING:  # the mail modules are imported by the commands that use them: adjudicate adds only the options
    from ..mail import outbox
    from ..seals import keys


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

    p = subparsers.add_parser(
        "outbox", help="write the latest reports as one mail per player (and a public copy); send them",
        description="Write GAME_DIR/outbox/NNNN/<house>.eml and public.eml for the latest step (or --step): the "
        "private report with what is asked and the turn-file skeleton first, an HTML alternative with the map, "
        "and with --key the moderator's seal. With --send, send the mails not sent yet. Exit status: 0, 1 when "
        "some mail could not be sent, 2 usage errors.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--step", type=int, metavar="NNNN", help="the step whose reports to mail (default: the latest)")
    p.add_argument("--key", type=Path, metavar="MODERATOR_KEY", help="seal the reports with this private key")
    p.add_argument("--passphrase-file", type=Path, metavar="F", help="read the key's passphrase from F")
    p.add_argument("--from", dest="sender", metavar="ADDR",
                   help="the sender's address (default: players.moderator.email in game.toml)")
    p.add_argument("--public-to", metavar="ADDR", help="where the public copy goes (default: the sender)")
    p.add_argument("--send", metavar="URL", help="send with smtp://HOST:PORT or smtps://HOST:PORT")
    p.add_argument("--starttls", action="store_true", help="with smtp://: switch to TLS before logging in")
    p.add_argument("--user", metavar="USER", help="log in to the mail server as USER")
    p.add_argument("--password-file", type=Path, metavar="F", help="the password for --user, first line of F")
    p.add_argument("--cafile", type=Path, metavar="F", help="trust the certificates in F (default: the system's)")
    p.set_defaults(handler=cmd_outbox)


def add_mailbox_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    """``--maildir DIR | --mbox FILE``, for ``ingest`` and ``adjudicate``."""
    box = p.add_mutually_exclusive_group(required=required)
    box.add_argument("--maildir", type=Path, metavar="DIR", help="a Maildir (its new/ and cur/ are read; tmp/ never)")
    box.add_argument("--mbox", type=Path, metavar="FILE", help="an mbox file")


def ingest(game_dir: Path, maildir: Path | None, mbox: Path | None) -> int:
    """Run one ingest and print its summary; returns its exit status."""
    from ..mail import ingest as mailbox

    report = guard(lambda: mailbox.ingest_into_inbox(game_dir, maildir=maildir, mbox=mbox))
    print("\n".join(report.lines()))
    sys.stdout.flush()
    return report.exit_status


def cmd_ingest(args: argparse.Namespace) -> int:
    return ingest(args.game_dir, args.maildir, args.mbox)


def _first_line(path: Path) -> bytes:
    return path.read_bytes().split(b"\n", 1)[0].rstrip(b"\r")


def _load_key(path: Path, passphrase_file: Path | None) -> keys.KeyPair:
    """The moderator's private key; a protected one needs its passphrase (a file, or typed at a terminal)."""
    from ..seals import keys

    passphrase = _first_line(passphrase_file) if passphrase_file else None
    if passphrase is None and keys.is_encrypted(path.read_text(encoding="utf-8", errors="replace")):
        if not sys.stdin.isatty():
            raise UserError(f"{path} is protected by a passphrase; give --passphrase-file")
        passphrase = getpass.getpass(f"passphrase for {path}: ").encode() or None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", keys.InsecureKeyFile)
        pair = keys.read_private_key(path, passphrase)
    for w in caught:
        print(f"maester: warning: {w.message}", file=sys.stderr)
    return pair


def _server(args: argparse.Namespace) -> outbox.SmtpServer:
    import ssl

    from ..mail import outbox

    if args.password_file and not args.user:
        raise UserError("--password-file goes with --user")
    try:
        password = _first_line(args.password_file).decode("utf-8") if args.password_file else None
    except UnicodeDecodeError:
        raise UserError(f"--password-file {args.password_file}: the password is not UTF-8 text") from None
    if args.user and password is None:
        if not sys.stdin.isatty():
            raise UserError("--user needs --password-file")
        password = getpass.getpass(f"password for {args.user}: ")
    try:
        context = ssl.create_default_context(cafile=str(args.cafile)) if args.cafile else None
    except OSError as e:  # ssl.SSLError included: a file of no certificates
        raise UserError(f"--cafile {args.cafile}: {e.strerror or e}") from None
    return outbox.parse_smtp_url(args.send, starttls=args.starttls, user=args.user, password=password, context=context)


def cmd_outbox(args: argparse.Namespace) -> int:
    import ssl

    from ..mail import outbox
    from ..seals import keys

    if (args.starttls or args.user or args.cafile) and not args.send:
        raise UserError("--starttls, --user and --cafile go with --send URL")
    try:
        server = guard(lambda: _server(args)) if args.send else None  # before writing: a bad address changes nothing
        key = _load_key(args.key, args.passphrase_file) if args.key else None
    except keys.SealError as e:
        raise UserError(f"{args.key}: {e}") from None
    except (OSError, ssl.SSLError) as e:
        raise UserError(os_error_line(e, "file")) from None
    report = guard(lambda: outbox.write_outbox(args.game_dir, args.step, key=key, sender=args.sender,
                                               public_to=args.public_to))  # fmt: skip
    lines, status = report.lines(), report.exit_status
    if server is not None:
        sent = guard(lambda: outbox.send_outbox(args.game_dir, args.step, server=server))
        lines += [f"  sent {n}" for n in sent.sent] + [f"  NOT SENT {n}" for n in sent.failed]
        status = sent.exit_status
    print("\n".join(lines))
    return status
