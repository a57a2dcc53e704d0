"""Mail out: a step's reports as one mail per player and a public copy, written as ``.eml`` and sent.

``maester outbox GAME_DIR`` writes, for the latest step NNNN that has its reports,
``GAME_DIR/outbox/NNNN/<house>.eml`` (to the address in ``game.toml``'s ``players.<house>.email``)
and ``public.eml``. Each mail has a text body that starts with what is asked of the player and
the turn-file skeleton to fill in, followed by the private report; an HTML alternative with the
map; and, with ``--key``, the moderator's seal over the text: ``report-NNNN-<house>.txt`` (the text
itself, byte for byte) and ``report-NNNN-<house>.txt.sig`` (an SSHSIG signature in the namespace
``maester-report``, which no turn file can use). ``--send smtp://HOST:PORT`` sends the mails with
:mod:`smtplib`; each one sent is recorded in ``sent.json`` and never sent again.

>>> from adjudicator.seals.keys import generate
>>> pair = generate()
>>> armour = seal_report("The report.\\n", pair.private)
>>> verify_report("The report.  \\r\\n", armour).key == pair.public
True
"""

from __future__ import annotations

import hashlib
import json
import os
import smtplib
import ssl
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, formataddr, getaddresses, make_msgid, parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..engine.events import kind_name
from ..folder import registry
from ..folder.audit import Folder
from ..folder.gamedir import GameDir, GameDirError
from ..game.state import GameState
from ..reports.report import (
    MAP_FILE,
    PHASE_NAMES,
    WIDTH,
    ReportError,
    drop_map,
    join_html,
    join_text,
    skeleton,
    with_map_src,
)
from ..seals import seal, sshsig
from ..seals.keys import KeyPair
from ..util import fileio
from .mapimage import MapImageError, attach_map, render_png

__all__ = [
    "REPORT_NAMESPACE", "OutboxError", "OutboxReport", "SmtpServer",
    "parse_smtp_url", "report_folder", "seal_report", "send_outbox", "verify_report", "write_outbox",
]  # fmt: skip

REPORT_NAMESPACE = "maester-report"
OUTBOX = "outbox"
SENT_FILE = "sent.json"
MANIFEST_FILE = "manifest.json"
REPORT_DONE = "report.json"  # the batch run writes it last: a report folder without it is not complete
ASKING_STEPS = ("westeros", "planning", "action")


class OutboxError(GameDirError):
    """Mail that cannot be written or sent as asked (exit status 2)."""


# --- the moderator's seal over a report -----------------------------------------------------------


def seal_report(text: str, key: Ed25519PrivateKey) -> str:
    """The armoured seal over ``normalise(text)`` in the ``maester-report`` namespace."""
    return seal.seal_text(text, key, namespace=REPORT_NAMESPACE)


def verify_report(text: str, armoured: str) -> seal.Signature:
    """Check the moderator's seal over a report's text; returns the signature (its ``key`` says whose).

    :raises BadArmour: for unreadable armour.
    :raises WrongNamespace: for a seal made for anything but a report (a turn's seal, say).
    :raises BadSignature: when the text or the seal was changed.
    """
    try:
        return sshsig.verify(seal.normalise(text).encode("utf-8"), armoured, REPORT_NAMESPACE)
    except seal.BadSignature:
        raise seal.BadSignature("the seal does not match the report (the text or the seal was changed)") from None


# --- which reports ---------------------------------------------------------------------------------


def report_folder(gd: GameDir, step: int | None = None) -> Path:
    """The complete report folder of step ``step`` (default: the latest).

    :raises OutboxError: when there is no such step, or its reports are not complete.
    """
    reports = gd.root / "reports"
    done = sorted(p for p in reports.glob("[0-9][0-9][0-9][0-9]-*") if (p / REPORT_DONE).is_file()) \
        if reports.is_dir() else []  # fmt: skip
    if step is not None:
        done = [p for p in done if p.name.startswith(f"{step:04d}-")]
        if not done:
            raise OutboxError(f"step {step:04d} has no complete reports in {reports} (see 'maester status')")
    if not done:
        raise OutboxError(f"{reports} holds no complete reports yet: run 'maester adjudicate {gd.root}' first")
    return done[-1]


def _report_sha256(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(q for q in folder.iterdir() if q.is_file()):
        h.update(p.name.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


# --- composing one mail ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """What the mails of one step share."""

    game_id: str
    number: int
    label: str  # "0003-r1-action"
    state: GameState
    sender: str
    key: KeyPair | None
    now: datetime

    @property
    def title(self) -> str:
        phase = PHASE_NAMES.get(self.state.phase, self.state.phase)
        return f"game {self.game_id} · round {self.state.round} · {phase} · step {self.number:04d}"


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest) or [first.rstrip()]


def _mine(step: _Step, house: str) -> list[dict[str, Any]]:
    return [r for r in step.state.pending if r.get("house") == house]


def _request_line(r: dict[str, Any]) -> str:
    return f"{kind_name(r['kind'])}: {r['prompt']}" + (" (secret)" if r.get("secret") else "")


def _skeleton(step: _Step, house: str, mine: list[dict[str, Any]], last_seq: int) -> str:
    """The turn file to fill in ("" when nothing is asked, or the game is over)."""
    return skeleton(step.state, house, mine, last_seq=last_seq) if mine and step.state.phase in ASKING_STEPS else ""


def letter_text(step: _Step, report_text: str, house: str | None, last_seq: int, attachment: str,
                receipts: Sequence[str] = ()) -> str:  # fmt: skip
    """The text body: what is asked and the skeleton first, then the report and the house's receipts,
    then how to check the seal."""
    rule = "-" * WIDTH
    out = [f"MAESTER · {step.title}"]
    if house is None:
        out += ["The public report of this step.", ""]
    else:
        mine = _mine(step, house)
        out += [f"Your report, House {house.title()}: first what is asked of you, then the whole report.", "",
                "ASKED OF YOU NOW"]  # fmt: skip
        for i, r in enumerate(mine, 1):
            out += _wrap(_request_line(r), f"{i:4d}. ", " " * 6)
        if mine:
            out += _wrap("The legal answers and the defaults are under YOUR DECISIONS in the report below.", "  ", "  ")
        else:
            out.append("  Nothing: no decision of yours is waiting.")
        if skel := _skeleton(step, house, mine, last_seq):
            out += ["", "YOUR TURN FILE: fill it in, seal it (maester sign) and mail it back",
                    rule, skel.rstrip("\n"), rule]  # fmt: skip
        out.append("")
    out.append(report_text.rstrip("\n"))
    if receipts:
        out += ["", "=" * WIDTH, "RECEIPTS: what was made of your files applied in this step", "=" * WIDTH]
        for receipt in receipts:
            out += ["", receipt.rstrip("\n")]
    if step.key is not None:
        out += ["", rule, *seal_paragraph(step.key.public.fingerprint, attachment)]
    return seal.normalise("\n".join(out))


def seal_paragraph(fingerprint: str, attachment: str) -> list[str]:
    """How to check the moderator's seal: the attachments, the allowed-signers file, the commands.

    Wrapped at spaces only, so that no name (``maester-report``, ``report-0012-stark.txt``) is
    cut at a hyphen, and every command is a line to copy as it is.
    """
    prose = (f"The attachment {attachment}.sig seals this text (namespace {REPORT_NAMESPACE}); "
             f"{attachment} is this text byte for byte. To check it, save both attachments, and once "
             "make the file moderator.allowed from the moderator's public key (moderator.pub, which "
             "the moderator gave you when the game began):")  # fmt: skip
    return ["Sealed by the moderator's key", f"  {fingerprint}.",
            *textwrap.wrap(prose, WIDTH, break_on_hyphens=False, break_long_words=False),
            f"  echo \"moderator namespaces=\\\"{REPORT_NAMESPACE}\\\" $(cat moderator.pub)\" \\",
            "    > moderator.allowed",
            f"  ssh-keygen -Y verify -f moderator.allowed -I moderator -n {REPORT_NAMESPACE} \\",
            f"    -s {attachment}.sig < {attachment}",
            *textwrap.wrap(f"It says Good \"{REPORT_NAMESPACE}\" signature for moderator. Or, with Maester "
                           "installed (the saved text of this mail checks too, with --sig):", WIDTH,
                           break_on_hyphens=False, break_long_words=False),
            f"  maester verify-report --key moderator.pub {attachment}"]  # fmt: skip


def letter_html(page: str, cid: str | None = None) -> str:
    """The HTML report for a mail: its map shown from the picture attached as ``cid`` (none: no map)."""
    if cid is None:
        return drop_map(page)
    return with_map_src(page, f"cid:{cid}")


def map_cid(step: _Step) -> str:
    """The Content-ID of a step's map picture: unique to the game and step, the same in each of its mails."""
    return f"map-{step.number:04d}.{step.game_id}@maester"


def compose(step: _Step, house: str | None, to: list[str], text: str, page: str,
            public_json: bytes | None = None, map_png: bytes | None = None,
            private_json: bytes | None = None) -> EmailMessage:  # fmt: skip
    """One mail: the text, the HTML alternative with the map as a picture inside it (``map_png``,
    shown by Content-ID), the public game state (so that a player can run ``maester check``
    offline), a house's private part as JSON (its answers' verdicts, ``private_json``), and with a
    key the sealed text and its seal attached."""
    who = f"House {house.title()}" if house else "everyone"
    m = EmailMessage(policy=policy.default)
    m["From"] = formataddr((f"Maester ({step.game_id})", step.sender))
    m["To"] = ", ".join(to)
    # Short enough not to be folded (a folded Subject reads back with a leading space).
    m["Subject"] = f"[{step.game_id}] round {step.state.round} {step.state.phase}, step {step.number:04d}: " + \
        (who if house else "public report")  # fmt: skip
    m["Date"] = format_datetime(step.now)
    m["Message-ID"] = make_msgid(idstring=f"{step.label}.{house or 'public'}",
                                 domain=step.sender.rpartition("@")[2] or None)  # fmt: skip
    m["Auto-Submitted"] = "auto-generated"  # no vacation replies (RFC 3834)
    m["X-Maester-Game"] = step.game_id
    m["X-Maester-Step"] = step.label
    m["X-Maester-House"] = house or "public"
    m.set_content(text, cte="quoted-printable")
    m.add_alternative(page, subtype="html", cte="quoted-printable")
    if map_png is not None:
        attach_map(m, map_png, map_cid(step))
    if public_json is not None:
        m.add_attachment(public_json, maintype="application", subtype="json",
                         filename=f"{step.game_id}-{step.number:04d}.json")  # fmt: skip
    if private_json is not None and house is not None:
        m.add_attachment(private_json, maintype="application", subtype="json",
                         filename=f"{step.game_id}-{step.number:04d}-{house}.json")  # fmt: skip
    if step.key is not None:
        name = f"report-{step.number:04d}-{house or 'public'}.txt"
        # application/octet-stream, not text/plain: mail programs show it as an attachment to save
        # and leave it out of a reply, which quotes the body (this same text) once. Base64: saved, it
        # is the signed bytes exactly.
        m.add_attachment(text.encode("utf-8"), maintype="application", subtype="octet-stream", filename=name)
        m.add_attachment(seal_report(text, step.key.private).encode("ascii"), maintype="application",
                         subtype="octet-stream", filename=name + ".sig")  # fmt: skip
    return m


# --- writing the outbox ----------------------------------------------------------------------------


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


def _read_json(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise OutboxError(f"{path} cannot be read ({type(e).__name__}); mend it before going on") from None
    if not isinstance(doc, dict):
        raise OutboxError(f"{path} is not a JSON object; mend it before going on")
    return doc


def _set_aside_if_stale(folder: Path, report_sha: str, notes: list[str]) -> None:
    """Mails written for reports that have changed since (a rollback) move to ``NNNN.superseded-K``."""
    manifest = _read_json(folder / MANIFEST_FILE)
    if not manifest or manifest.get("report_sha256") == report_sha:
        return
    k = 1
    while (aside := folder.with_name(f"{folder.name}.superseded-{k}")).exists():
        k += 1
    os.rename(folder, aside)
    notes.append(f"the reports of this step changed since its mails were written: the old ones are in {aside.name}/")


def write_outbox(game_dir: str | Path, step: int | None = None, *, key: KeyPair | None = None,
                 sender: str | None = None, public_to: str | None = None,
                 now: datetime | None = None) -> OutboxReport:  # fmt: skip
    """Write ``outbox/NNNN/<house>.eml`` and ``public.eml`` for a step's reports (see the module's doc).

    A mail already sent is never rewritten; the others are written afresh at every run.

    :raises OutboxError: for no complete reports, no sender address, or a damaged outbox record.
    :raises GameDirError: for a folder that is not a game folder, or is busy.
    """
    gd = GameDir.open(game_dir)
    game = registry.read_game(gd.root)
    game_id = registry.game_id(game)  # a damaged game.toml is named before anything else
    players = registry.players(game)
    try:  # every address before anything is written: a hand-edited list must not get a private report
        for who, entry in players.items():
            if entry.get("email"):
                registry.one_address(str(entry["email"]), f"players.{who}.email {str(entry['email'])!r} in game.toml")
        if public_to:
            registry.one_address(public_to, f"--public-to {public_to!r}")
    except registry.RegistryError as e:
        raise OutboxError(str(e)) from None
    sender = sender or str(players.get(registry.MODERATOR, {}).get("email", ""))
    if "@" not in parseaddr(sender)[1]:
        raise OutboxError("give the moderator's address with --from ADDR "
                          "(or register it: maester register GAME_DIR --house moderator --key KEY.pub --email ADDR)")  # fmt: skip
    if (gd.root / OUTBOX).exists() and not (gd.root / OUTBOX).is_dir():
        raise OutboxError(f"{gd.root / OUTBOX} is not a folder: move it away; the mails are written there")
    with gd.lock(timeout=10):
        where = report_folder(gd, step)
        number = int(where.name[:4])
        snap = Folder(gd).read_snapshot(number)
        folder = gd.root / OUTBOX / f"{number:04d}"
        report = OutboxReport(game_id, where.name, folder)
        _set_aside_if_stale(folder, _report_sha256(where), report.notes)
        sent = _read_json(folder / SENT_FILE)
        st = _Step(game_id, number, where.name, snap.state, parseaddr(sender)[1], key,
                   now or datetime.now(UTC))  # fmt: skip
        before = _read_json(folder / MANIFEST_FILE).get("mails", {})
        png = _map_png(where, report.notes)  # one picture for every mail of the step
        manifest: dict[str, Any] = {"report": where.name, "report_sha256": _report_sha256(where), "mails": {}}
        for house in [*snap.state.houses_in_play, None]:
            name = f"{house or 'public'}.eml"
            if name in sent:
                report.notes.append(f"{name} was sent already: kept as it is")
                manifest["mails"][name] = before.get(name, {})
                continue
            address = str(players.get(house, {}).get("email", "")) if house else (public_to or st.sender)
            if not address:
                report.notes.append(f"no mail for {registry.house_name(str(house))}: it has no address "
                                    f"(maester register GAME_DIR --house {house} --key KEY.pub --email ADDR)")  # fmt: skip
                continue
            to = [formataddr((registry.house_name(house), address))] if house else [address]
            msg = _letter(gd, where, st, house, to, snap.state, png)
            data = msg.as_bytes(policy=policy.SMTP)
            fileio.atomic_write_bytes(folder / name, data)
            manifest["mails"][name] = {"to": to, "subject": str(msg["Subject"]), "message_id": str(msg["Message-ID"]),
                                       "sha256": hashlib.sha256(data).hexdigest()}  # fmt: skip
            report.written.append(name)
        fileio.atomic_write_text(folder / MANIFEST_FILE, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
        _note_key(report, game, key)
    return report


def _letter(gd: GameDir, where: Path, st: _Step, house: str | None, to: list[str], state: GameState,
            map_png: bytes | None) -> EmailMessage:  # fmt: skip
    stem = house or "public"
    try:
        text = (where / "public.txt").read_text(encoding="utf-8")
        page = (where / "public.html").read_text(encoding="utf-8")
        if house is not None:  # the folder keeps each house's private part; the mail carries the whole report
            text = join_text((where / f"{stem}.txt").read_text(encoding="utf-8"), text)
            page = join_html((where / f"{stem}.html").read_text(encoding="utf-8"), page)
    except (OSError, UnicodeDecodeError, ReportError) as e:
        raise OutboxError(f"cannot read the report {where.name}/{stem}: {e}") from None
    last = registry.highest_accepted_seq(gd.root, house, state.round, state.phase) if house else 0
    attachment = f"report-{st.number:04d}-{stem}.txt"
    receipts = [p.read_text(encoding="utf-8", errors="replace") for p in _receipts(where, house)]
    try:
        public_json: bytes | None = (where / REPORT_DONE).read_bytes()  # the public twin: no secrets
    except OSError:
        public_json = None
    try:
        private_json = (where / f"{house}.json").read_bytes() if house is not None else None
    except OSError:
        private_json = None  # a step reported before houses had one
    return compose(st, house, to, letter_text(st, text, house, last, attachment, receipts),
                   letter_html(page, map_cid(st) if map_png else None), public_json, map_png, private_json)  # fmt: skip


def _map_png(where: Path, notes: list[str]) -> bytes | None:
    """The step's map as a PNG for its mails; None (and a note) when the folder has no readable map."""
    try:
        return render_png((where / MAP_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        notes.append(f"{where.name} has no {MAP_FILE}: the mails go without the map")
    except (OSError, UnicodeDecodeError, MapImageError) as e:
        notes.append(f"{where.name}/{MAP_FILE} cannot be drawn ({e}): the mails go without the map")
    return None


def _receipts(where: Path, house: str | None) -> list[Path]:
    """The receipts of ``house``'s archived files applied in this step (``receipts/NNNNNN-<house>-….txt``)."""
    folder = where / "receipts"
    if house is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"[0-9][0-9][0-9][0-9][0-9][0-9]-{house}-*.txt") if p.is_file())


def _note_key(report: OutboxReport, game: dict[str, Any], key: KeyPair | None) -> None:
    if key is None:
        report.notes.append("not sealed: give --key MODERATOR_KEY so that players can check the reports")
        return
    mine = [e for e in registry.key_entries(game) if e.house == registry.MODERATOR and not e.revoked]
    if key.public.fingerprint not in {e.fingerprint for e in mine}:
        report.notes.append(f"note: the key {key.public.fingerprint} is not registered as the moderator's in "
                            "game.toml (maester register GAME_DIR --house moderator --key KEY.pub)")  # fmt: skip


# --- sending ---------------------------------------------------------------------------------------


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


def _connect(server: SmtpServer) -> smtplib.SMTP:
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


def send_outbox(game_dir: str | Path, step: int | None = None, *, server: SmtpServer,
                now: datetime | None = None) -> OutboxReport:  # fmt: skip
    """Send every mail of ``outbox/NNNN/`` not sent yet; record each one sent in ``sent.json``.

    A mail the server refuses, or a connection lost, is reported (exit status 1) and tried again
    at the next run; a mail sent is never sent again.

    :raises OutboxError: when the step has no written mails (run :func:`write_outbox` first).
    """
    gd = GameDir.open(game_dir)
    with gd.lock(timeout=10):
        where = report_folder(gd, step)
        folder = gd.root / OUTBOX / where.name[:4]
        report = OutboxReport(registry.game_id(registry.read_game(gd.root)), where.name, folder)
        mails = sorted(p for p in folder.glob("*.eml")) if folder.is_dir() else []
        if not mails:
            raise OutboxError(f"{folder} holds no mail to send: write it first (maester outbox {gd.root})")
        sent = _read_json(folder / SENT_FILE)
        todo = [p for p in mails if p.name not in sent]
        report.notes += [f"{p.name} was sent already" for p in mails if p.name in sent]
        if not todo:
            return report
        try:
            smtp = _connect(server)
        except smtplib.SMTPAuthenticationError as e:
            report.failed += [f"{p.name}: {server} refused the login of {server.user}: {_why(e)}" for p in todo]
            return report
        except (smtplib.SMTPException, OSError) as e:
            report.failed += [f"{p.name}: cannot reach {server}: {_why(e)}" for p in todo]
            return report
        try:
            for i, path in enumerate(todo):
                if not _send_one(smtp, path, server, sent, report, now):
                    report.failed += [f"{p.name}: not tried (the connection was lost)" for p in todo[i + 1 :]]
                    break
                fileio.atomic_write_text(folder / SENT_FILE, json.dumps(sent, indent=1, sort_keys=True) + "\n")
        finally:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()
    return report


def _send_one(smtp: smtplib.SMTP, path: Path, server: SmtpServer, sent: dict[str, Any], report: OutboxReport,
              now: datetime | None) -> bool:  # fmt: skip
    """Send one written mail as it is on disk; False when the connection is gone."""
    data = path.read_bytes()
    head = BytesParser(policy=policy.default).parsebytes(data, headersonly=True)
    sender = parseaddr(str(head.get("From", "")))[1]
    to = [a for _, a in getaddresses([str(v) for v in head.get_all("To", []) + head.get_all("Cc", [])]) if a]
    try:
        refused = smtp.sendmail(sender, to, data)
    except smtplib.SMTPServerDisconnected as e:
        report.failed.append(f"{path.name}: the server closed the connection ({_why(e)})")
        return False
    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as e:
        report.failed.append(f"{path.name}: refused by {server}: {_why(e)}")
        return True
    except (smtplib.SMTPException, OSError) as e:
        report.failed.append(f"{path.name}: {_why(e)}")
        return False
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    sent[path.name] = {"sent": when, "server": str(server), "to": [a for a in to if a not in refused],
                       "refused": {a: _why(r) for a, r in refused.items()}, "sha256": hashlib.sha256(data).hexdigest()}  # fmt: skip
    report.sent.append(f"{path.name} to {', '.join(to)}" + (f" (refused: {', '.join(refused)})" if refused else ""))
    return True


def _why(e: object) -> str:
    """A one-line reason from an SMTP error or reply."""
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{a}: {_why(r)}" for a, r in e.recipients.items())
    if isinstance(e, tuple) and len(e) == 2:  # (code, message) as smtplib reports a refusal
        code, msg = e
        return f"{code} {msg.decode('utf-8', 'replace') if isinstance(msg, bytes) else msg}"
    if isinstance(e, (smtplib.SMTPResponseException,)):
        return _why((e.smtp_code, e.smtp_error))
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__
