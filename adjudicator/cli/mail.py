"""``maester ingest | outbox | verify-report | deliver``: mail in (sealed turn files into the inbox), mail
out (the reports, the replies), a player's check of the moderator's seal on a report, and one message
from a mail server's pipe, taken and answered at once."""

from __future__ import annotations

import argparse
import getpass
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from . import UserError, guard, os_error_line

T = TypeVar("T")

if TYPE_CHECKING:  # the mail modules are imported by the commands that use them: adjudicate adds only the options
    from ..mail import outbox
    from ..seals import keys


def patient(fn: Callable[[], T]) -> T:
    """:func:`guard`, waiting up to a minute for a run that holds the game folder's lock (a delivery, say)."""
    from ..folder.gamedir import when_free

    return guard(lambda: when_free(fn))


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
        "outbox", help="mail each player everything since their last mail (and the moderator, and a game list)",
        description="Write GAME_DIR/outbox/NNNN/<reader>.eml for each house with an address, the moderator and a "
        "game list ([mail] list in game.toml, or --public-to): every step's report since that reader's last mail, "
        "oldest first, with what is asked and the turn-file skeleton first, the receipts of its files taken and "
        "not taken, an HTML alternative with the latest map, and with --key the moderator's seal. The log records "
        "what each mail carries. With --send, send every mail written and not sent yet, and the replies to mails "
        "that could not be taken (outbox/replies/). Exit status: 0, 1 when "
        "some mail could not be sent, 2 usage errors.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--step", type=int, metavar="NNNN", help="mail the steps up to this one (default: the latest)")
    add_sending_options(p, send="send with smtp://HOST:PORT or smtps://HOST:PORT", starttls=False)
    p.add_argument("--public-to", metavar="ADDR",
                   help="the game list that gets the public reports (default: [mail] list in game.toml; none: no list)")
    p.add_argument("--mark-sent", action="store_true",
                   help="record the mails written and not sent as sent: you sent the .eml files yourself")
    p.add_argument("--reminders", action="store_true",
                   help="instead of the reports: remind each house whose answers are due within [deadlines] "
                   "remind_hours (once per request), in GAME_DIR/outbox/reminders/")  # fmt: skip
    p.add_argument("--now", metavar="TIME", help="with --reminders: judge what is due soon by this time (ISO 8601)")
    p.set_defaults(handler=cmd_outbox)

    p = subparsers.add_parser(
        "verify-report", help="check the moderator's seal on a report mail's text",
        description="Check that SIG is the moderator's seal over FILE: the "
        "mail's text as saved from a mail program (it is normalised first, as the seal covers it), or the whole "
        "mail as saved (.eml: its text is decoded as a mail program shows it, and its .sig attachment is the "
        "seal). Exit status: 0 for a good seal by the key given, 1 otherwise, 2 usage errors.",
    )
    p.add_argument("file", type=Path, metavar="FILE",
                   help="the report's text (the mail's text saved as a file, or the whole mail as saved)")
    p.add_argument("--key", required=True, type=Path, metavar="MODERATOR.pub", help="the moderator's public key")
    p.add_argument("--sig", type=Path, metavar="SIG",
                   help="the seal (default: a saved mail's own .sig attachment, else FILE.sig)")
    p.set_defaults(handler=cmd_verify_report)

    p = subparsers.add_parser(
        "deliver", help="take one message from a mail server's pipe: keep it, adjudicate, and mail what is due at once",
        description="For a mail server's pipe delivery (a Postfix alias or .forward, procmail, an MDA): keep the "
        "message on standard input in GAME_DIR/mailbox/, then take it into the inbox, adjudicate, and write and send "
        "the mail it makes due (the receipts, the replies, the reports) through [mail] send of game.toml or --send. "
        "Safe beside other deliveries and the cron job: each step waits for the game folder's lock, and what a "
        "delivery could not finish the next run does. Exit status: 0 once the message is kept (whatever it holds), "
        "75 (EX_TEMPFAIL: the server tries again later) when nothing could be kept.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    add_sending_options(p, send="send through smtp://HOST:PORT or smtps://HOST:PORT (default: [mail] send in "
                        "game.toml; none: the mail is written, not sent)", starttls=None)  # None: not given  # fmt: skip
    p.add_argument("--envelope-sender", metavar="ADDR",
                   help="the message's envelope sender (default: $SENDER, which Postfix and others set)")
    p.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                   help="wait this long in all for a run holding the game folder's lock (default: 60)")
    p.add_argument("--keep-only", action="store_true",
                   help="only keep the message in GAME_DIR/mailbox/: the next run takes it")
    p.set_defaults(handler=cmd_deliver)


def add_sending_options(p: argparse.ArgumentParser, *, send: str, starttls: bool | None) -> None:
    """The moderator's key and sender, and the server to send through, for ``outbox`` and ``deliver``."""
    p.add_argument("--key", type=Path, metavar="MODERATOR_KEY", help="seal the reports with this private key")
    p.add_argument("--passphrase-file", type=Path, metavar="F", help="read the key's passphrase from F")
    p.add_argument("--from", dest="sender", metavar="ADDR",
                   help="the sender's address (default: players.moderator.email in game.toml)")
    p.add_argument("--send", metavar="URL", help=send)
    p.add_argument("--starttls", action="store_true", default=starttls,
                   help="with smtp://: switch to TLS before logging in")
    p.add_argument("--user", metavar="USER", help="log in to the mail server as USER")
    p.add_argument("--password-file", type=Path, metavar="F", help="the password for --user, first line of F")
    p.add_argument("--cafile", type=Path, metavar="F", help="trust the certificates in F (default: the system's)")


def add_mailbox_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    """``--maildir DIR | --mbox FILE``, for ``ingest`` and ``adjudicate``."""
    box = p.add_mutually_exclusive_group(required=required)
    box.add_argument("--maildir", type=Path, metavar="DIR", help="a Maildir (its new/ and cur/ are read; tmp/ never)")
    box.add_argument("--mbox", type=Path, metavar="FILE", help="an mbox file")


def ingest(game_dir: Path, maildir: Path | None, mbox: Path | None) -> int:
    """Run one ingest and print its summary; returns its exit status."""
    from ..mail import ingest as mailbox

    report = patient(lambda: mailbox.ingest_into_inbox(game_dir, maildir=maildir, mbox=mbox))
    print("\n".join(report.lines()))
    sys.stdout.flush()
    return report.exit_status


def has_own_mailbox(game_dir: Path) -> bool:
    """Whether ``maester deliver`` keeps mail for this game (``GAME_DIR/mailbox/new/``)."""
    return (game_dir / "mailbox" / "new").is_dir()


def ingest_own(game_dir: Path) -> int:
    """Take what ``maester deliver`` kept into the inbox, and print the summary when there was something new."""
    from ..mail import ingest as mailbox

    report = patient(lambda: mailbox.ingest_own_mailbox(game_dir))
    if any(o.status != "seen" for o in report.outcomes):
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

    from ..mail import outbox, replies
    from ..seals import keys

    if (args.starttls or args.user or args.cafile) and not args.send:
        raise UserError("--starttls, --user and --cafile go with --send URL")
    if args.reminders:
        return _reminders(args)
    if args.now is not None:
        raise UserError("--now goes with --reminders (the reports are mailed as they are)")
    try:
        server = guard(lambda: _server(args)) if args.send else None  # before writing: a bad address changes nothing
        key = _load_key(args.key, args.passphrase_file) if args.key else None
    except keys.SealError as e:
        raise UserError(f"{args.key}: {e}") from None
    except (OSError, ssl.SSLError) as e:
        raise UserError(os_error_line(e, "file")) from None
    if args.mark_sent:
        if server is not None or key is not None:
            raise UserError("--mark-sent only records the mails written as sent: it goes without --send and --key")
        marked = patient(lambda: outbox.mark_sent(args.game_dir))
        replied = patient(lambda: replies.mark_replies_sent(args.game_dir))
        print("\n".join([f"  marked {n}" for n in [*marked.sent, *replied]] + [f"  {n}" for n in marked.notes]))
        return 0
    report = patient(lambda: outbox.write_outbox(args.game_dir, args.step, key=key, sender=args.sender,
                                               public_to=args.public_to))  # fmt: skip
    lines, status = report.lines(), report.exit_status
    if server is not None:
        sent = patient(lambda: outbox.send_outbox(args.game_dir, server=server))
        answered = patient(lambda: replies.send_replies(args.game_dir, server=server))  # ruling 323
        lines += [f"  sent {n}" for n in [*sent.sent, *answered.sent]]
        lines += [f"  NOT SENT {n}" for n in [*sent.failed, *answered.failed]]
        status = max(sent.exit_status, answered.exit_status)
    else:
        lines += [f"  reply {e['file']} to {e.get('address', '')}: written, not sent (give --send)"
                  for e in guard(lambda: replies.pending(args.game_dir))]  # fmt: skip
    print("\n".join(lines))
    return status


def cmd_verify_report(args: argparse.Namespace) -> int:
    from ..mail import outbox
    from ..mail.savedreport import read_saved
    from ..seals import keys, seal

    try:
        key = keys.read_public_key(args.key)
    except keys.SealError as e:
        raise UserError(f"--key {args.key}: {e} (give the moderator's public key file, one 'ssh-ed25519 ...' line)") from None
    except OSError as e:
        raise UserError(os_error_line(e, "file")) from None
    try:
        saved = read_saved(args.file.read_bytes())
    except seal.SealError as e:
        raise UserError(f"{args.file}: {e}: give the mail's text saved as a file (report-NNNN-HOUSE.txt) or the "
                        "whole mail as your mail program saved it") from None  # fmt: skip
    except OSError as e:
        raise UserError(os_error_line(e, "file")) from None
    if saved.mail and not saved.texts:
        raise UserError(f"{args.file}: a mail with no text part: give the mail's text saved as a file")
    armoured = _report_seal(args, saved.seal)
    first: seal.SealError | None = None
    for reading in saved.texts:
        try:
            sig = outbox.verify_report(reading.text, armoured)
        except seal.SealError as e:
            first = first or e
            continue
        if sig.key.fingerprint != key.fingerprint:
            print(f"{args.file}: BAD [unknown-key]: sealed by {sig.key.fingerprint}, not by the key in {args.key} "
                  f"({key.fingerprint})")  # fmt: skip
            return 1
        how = "" if reading.how == "the file" else f" ({reading.how})"
        print(f"{args.file}: good: sealed by the moderator's key {key.fingerprint}, unchanged{how}")
        return 0
    assert first is not None
    hint = "" if first.code != "bad-signature" or args.file.name.startswith("report-") else (
        "; a mail program may change the text it saves: give the whole mail as saved (mutt: s on the message), "
        "or the text part saved byte for byte (mutt: v, then s on it)")  # fmt: skip
    print(f"{args.file}: BAD [{first.code}]: {first}{hint}")
    return 1


def _report_seal(args: argparse.Namespace, attached: str | None) -> str:
    """The seal to check: --sig, else the saved mail's own .sig attachment, else FILE.sig."""
    if args.sig is None and attached is not None:
        return attached
    sig_path: Path = args.sig or args.file.with_name(args.file.name + ".sig")
    try:
        return sig_path.read_text(encoding="ascii", errors="replace")
    except FileNotFoundError as e:
        hint = " (give the seal with --sig FILE)" if not args.sig and e.filename == str(sig_path) else ""
        raise UserError(f"{e.filename}: no such file{hint}") from None
    except OSError as e:
        raise UserError(os_error_line(e, "file")) from None


def _reminders(args: argparse.Namespace) -> int:
    """``outbox --reminders``: write the reminders due, and send them with ``--send``."""
    from ..folder.deadlines import moderator_time
    from ..mail import reminders

    for given, name in ((args.step, "--step"), (args.key, "--key"), (args.public_to, "--public-to")):
        if given is not None:
            raise UserError(f"{name} does not go with --reminders (a reminder is a short plain mail to one house)")
    now = guard(lambda: moderator_time(args.now))
    server = guard(lambda: _server(args)) if args.send else None  # before writing: a bad address changes nothing
    report = patient(lambda: reminders.write_reminders(args.game_dir, sender=args.sender, now=now))
    lines, status = report.lines(), report.exit_status
    if server is not None:
        sent = patient(lambda: reminders.send_reminders(args.game_dir, server=server, now=now))
        lines += [f"  sent {n}" for n in sent.sent] + [f"  NOT SENT {n}" for n in sent.failed]
        lines += [f"  {n}" for n in sent.notes]
        status = sent.exit_status
    print("\n".join(lines))
    return status


def cmd_deliver(args: argparse.Namespace) -> int:
    """``maester deliver``: exit status 0 once the message is kept, 75 while nothing is (never 2: a mail
    server would bounce the mail to its sender for a fault of the moderator's set-up)."""
    import os

    from ..mail import deliver

    envelope = args.envelope_sender if args.envelope_sender is not None else os.environ.get("SENDER")
    try:
        d = deliver.keep_message(args.game_dir, sys.stdin.buffer, envelope_sender=envelope)
    except Exception as e:  # nothing was kept: the mail server keeps the message and tries again
        why = os_error_line(e) if isinstance(e, OSError) else str(e)
        print(f"maester: deliver: nothing was kept: {why}; the mail server keeps the message and tries again",
              file=sys.stderr)  # fmt: skip
        return deliver.EX_TEMPFAIL
    try:
        if not args.keep_only:
            deliver.finish(d, mailing=_delivery_mailing(args), wait=60.0 if args.wait is None else max(0.0, args.wait))
    except Exception as e:  # a bug of ours: the message is kept, the next run takes it
        d.lines.append(f"internal error: {type(e).__name__}: {e} (please report this); the message is kept in "
                       f"{d.kept.where if d.kept else 'the mailbox'} and the next run takes it")  # fmt: skip
    print("\n".join(d.lines))
    return d.exit_status


def _delivery_mailing(args: argparse.Namespace) -> Any:
    """The key and server ``deliver`` mails with: its options over ``[mail]`` of game.toml."""
    from ..folder import registry
    from ..mail import deliver, settings
    from ..mail.sending import OutboxError

    given = settings.SendSettings(args.send, args.starttls, args.user, args.password_file, args.cafile, args.key,
                                  args.passphrase_file, args.sender)  # fmt: skip
    try:
        return settings.mailing(given.over(settings.read_settings(args.game_dir, registry.read_game(args.game_dir))))
    except (OutboxError, registry.RegistryError) as e:
        return deliver.Mailing(problem=str(e))
