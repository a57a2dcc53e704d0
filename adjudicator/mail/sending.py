"""Sending mail: the SMTP server, one written ``.eml`` sent as it is, and what a run of the outbox reports.

Shared by the reports' mail (:mod:`adjudicator.mail.outbox`) and the reminders
(:mod:`adjudicator.mail.reminders`). ``smtp://HOST:PORT`` (optionally with STARTTLS) or
``smtps://HOST:PORT``; a login only over TLS; the server's certificate checked against the
system's authorities or a given file.
"""

from __future__ import annotations

import hashlib
import json
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..folder.gamedir import GameDirError
from ..folder.mailstore import OUTBOX

__all__ = ["OUTBOX", "SENT_FILE", "OutboxError", "OutboxReport", "SmtpServer", "close", "connect", "deliver",
           "parse_smtp_url", "read_json", "reason", "said", "send_one"]

SENT_FILE = "sent.json"  # the reminders' record of what was sent (the reports' is the game's log)


class OutboxError(GameDirError):
    """Mail that cannot be written or sent as asked (exit status 2)."""


@dataclass
class OutboxReport:
    """What one outbox run wrote, kept, skipped, sent and failed to send."""

    game: str
    step: str  # the report folder's name
    folder: Path
    written: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def exit_status(self) -> int:
        """0, or 1 when some mail could not be sent."""
        return 1 if self.failed else 0

    def lines(self) -> list[str]:
        out = [f"outbox of game {self.game}, step {self.step}: {self.folder}"]
        out += [f"  wrote {n}" for n in self.written] + [f"  sent {n}" for n in self.sent]
        out += [f"  NOT SENT {n}" for n in self.failed] + [f"  {n}" for n in self.notes]
        return out


def read_json(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise OutboxError(f"{path} cannot be read ({type(e).__name__}); mend it before going on") from None
    if not isinstance(doc, dict):
        raise OutboxError(f"{path} is not a JSON object; mend it before going on")
    return doc



# --- the server ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SmtpServer:
    """Where and how to send: ``smtp://`` (optionally with STARTTLS) or ``smtps://`` (TLS from the start)."""

    host: str
    port: int
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    context: ssl.SSLContext | None = field(default=None, repr=False)  # default: the system's trusted CAs
    timeout: float = 30.0

    def __str__(self) -> str:
        return f"{'smtps' if self.tls else 'smtp'}://{self.host}:{self.port}" + (" (STARTTLS)" if self.starttls else "")


def parse_smtp_url(url: str, *, starttls: bool = False, user: str | None = None, password: str | None = None,
                   context: ssl.SSLContext | None = None) -> SmtpServer:  # fmt: skip
    """``smtp://HOST[:PORT]`` (port 25) or ``smtps://HOST[:PORT]`` (port 465) as a :class:`SmtpServer`.

    >>> str(parse_smtp_url("smtps://mail.example.org"))
    'smtps://mail.example.org:465'

    :raises OutboxError: for another scheme, a missing host, a password in the address, STARTTLS
        on ``smtps://``, or a login without TLS (the password would travel in clear).
    """
    try:
        u = urlsplit(url)
        port = u.port
    except ValueError as e:
        raise OutboxError(f"{url!r} is not an smtp:// or smtps:// address ({e})") from None
    if u.scheme not in ("smtp", "smtps") or not u.hostname:
        raise OutboxError(f"{url!r} is not an smtp://HOST:PORT or smtps://HOST:PORT address")
    if u.password or u.username:
        raise OutboxError("give the user with --user and the password with --password-file, not in the address")
    tls = u.scheme == "smtps"
    if tls and starttls:
        raise OutboxError("smtps:// is TLS from the start; --starttls is for smtp://")
    if user and not (tls or starttls):
        raise OutboxError("--user needs smtps:// or --starttls: the password would travel in clear")
    return SmtpServer(u.hostname, port or (465 if tls else 25), tls, starttls, user, password, context)


def connect(server: SmtpServer) -> smtplib.SMTP:
    """An open, greeted (and, as the server asks, encrypted and logged-in) SMTP session."""
    ctx = server.context or ssl.create_default_context()
    if server.tls:
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=server.timeout, context=ctx)
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
    try:
        smtp.ehlo()
        if server.starttls:
            smtp.starttls(context=ctx)
            smtp.ehlo()
        if server.user:
            smtp.login(server.user, server.password or "")
    except BaseException:
        smtp.close()
        raise
    return smtp



@dataclass
class Delivery:
    """What the server made of one mail: taken (for ``to``, with ``refused`` addresses), or not and why."""

    name: str
    to: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    error: str = ""  # the mail was not taken
    connected: bool = True  # False: the connection is gone; try no more mails on it

    @property
    def ok(self) -> bool:
        return not self.error


def deliver(smtp: smtplib.SMTP, name: str, data: bytes, server: SmtpServer) -> Delivery:
    """Send one written mail exactly as it is (its ``From``, ``To`` and ``Cc`` give the envelope)."""
    head = BytesParser(policy=policy.default).parsebytes(data, headersonly=True)
    sender = parseaddr(str(head.get("From", "")))[1]
    to = [a for _, a in getaddresses([str(v) for v in head.get_all("To", []) + head.get_all("Cc", [])]) if a]
    try:
        refused = smtp.sendmail(sender, to, data)
    except smtplib.SMTPServerDisconnected as e:
        return Delivery(name, error=f"the server closed the connection ({reason(e)})", connected=False)
    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as e:
        return Delivery(name, error=f"refused by {server}: {reason(e)}")
    except (smtplib.SMTPException, OSError) as e:
        return Delivery(name, error=reason(e), connected=False)
    return Delivery(name, [a for a in to if a not in refused], {a: reason(r) for a, r in refused.items()})


def said(d: Delivery) -> str:
    """One line on a mail the server took: ``stark.eml to stark@example.org``."""
    return f"{d.name} to {', '.join([*d.to, *d.refused])}" + (f" (refused: {', '.join(d.refused)})" if d.refused else "")


def send_one(smtp: smtplib.SMTP, path: Path, server: SmtpServer, sent: dict[str, Any], report: OutboxReport,
              now: datetime | None) -> bool:  # fmt: skip
    """Send one written mail as it is on disk and note it in ``sent``; False when the connection is gone."""
    data = path.read_bytes()
    d = deliver(smtp, path.name, data, server)
    if not d.ok:
        report.failed.append(f"{path.name}: {d.error}")
        return d.connected
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    sent[path.name] = {"sent": when, "server": str(server), "to": d.to, "refused": d.refused,
                       "sha256": hashlib.sha256(data).hexdigest()}  # fmt: skip
    report.sent.append(said(d))
    return True


def close(smtp: smtplib.SMTP) -> None:
    """End a session politely, or drop it when the server is gone."""
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        smtp.close()


def reason(e: object) -> str:
    """A one-line reason from an SMTP error or reply."""
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{a}: {reason(r)}" for a, r in e.recipients.items())
    if isinstance(e, tuple) and len(e) == 2:  # (code, message) as smtplib reports a refusal
        code, msg = e
        return f"{code} {msg.decode('utf-8', 'replace') if isinstance(msg, bytes) else msg}"
    if isinstance(e, (smtplib.SMTPResponseException,)):
        return reason((e.smtp_code, e.smtp_error))
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__

