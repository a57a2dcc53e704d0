"""``maester outbox GAME_DIR --reminders``: a short mail to each house whose answers fall due soon.

A house is reminded of an open request when its due time (:mod:`adjudicator.folder.deadlines`) is
less than ``remind_hours`` away (``[deadlines]`` of ``game.toml``), once per request and due time: an
extension moves the due time, and the house may be reminded again before the new one (ruling 114).
Each reminder is written to ``outbox/reminders/HOUSE-NNNN-HASH.eml`` and then logged (a ``remind``
line), so a second run writes none again; ``--send`` sends the ones not sent yet and records them
in ``outbox/reminders/sent.json``. A house in civil disorder is not reminded: its defaults are taken
anyway.
"""

from __future__ import annotations

import hashlib
import json
import smtplib
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, formataddr, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from ..engine.core.context import Request
from ..engine.events import kind_name
from ..folder import deadlines, registry, stepreports
from ..folder.audit import Folder, Snapshot
from ..folder.gamedir import GameDir
from ..folder.ledger import Ledger, log
from ..folder.schedule import show_span, show_time
from ..folder.settle import locked
from ..reports.sections import pick, text_sections, trimmed
from ..util import fileio
from .digest import short_time
from .sending import OUTBOX, SENT_FILE, OutboxError, OutboxReport, SmtpServer, connect, read_json, reason, send_one

REMINDERS = "reminders"
WIDTH = 78


@dataclass(frozen=True)
class Owed:
    """One request a house is reminded of, with its times."""

    request: Request
    since: int
    due: deadlines.Due


def reminders_due(snap: Snapshot, clock: deadlines.Clock, ledger: Ledger, window: int) -> dict[str, list[Owed]]:
    """Per house, the open requests due within ``window`` hours of ``clock.now`` and not reminded of yet."""
    out: dict[str, list[Owed]] = {}
    in_disorder = deadlines.disorder_now(ledger, clock.schedule).houses
    for r in snap.requests():
        since = snap.since.get(r.key, snap.number)
        d = clock.due(r, since)
        if r.house in in_disorder or d.due is None:
            continue
        if d.due - timedelta(hours=window) <= clock.now < d.due and (r.key, _iso(d.due)) not in ledger.book.reminded:
            out.setdefault(r.house, []).append(Owed(r, since, d))
    return out


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def _too_late(path: Path, now: datetime) -> bool:
    """Whether a written reminder's first due time has passed (its ``X-Maester-Reminder`` header)."""
    try:
        with open(path, "rb") as f:
            head = BytesParser(policy=policy.default).parse(f, headersonly=True)
        return now >= datetime.fromisoformat(str(head.get("X-Maester-Reminder", "")))
    except (OSError, ValueError):
        return False  # written by an older Maester, or unreadable: sending says what is wrong


def reminder_text(game_id: str, house: str, owed: list[Owed], now: datetime, grace: int, turn_file: str = "") -> str:
    """The text of one reminder: each request, its due time and default, then the house's turn file
    to fill in (``turn_file``: the YOUR TURN FILE section of its latest report)."""
    from ..turnfile.printer import format_command  # the parser's grammar loads lazily

    def wrap(text: str, first: str, rest: str) -> list[str]:
        return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest) or [first.rstrip()]

    after = f" and the grace period of {grace} h after it" if grace else ""
    out = [f"MAESTER · game {game_id} · reminder for {registry.house_name(house)}", ""]
    out += wrap(f"These answers of yours are due soon. If none has come by the due time{after}, the moderator's "
                "next deadline run takes the documented default shown.", "", "")  # fmt: skip
    out.append("")
    for i, o in enumerate(owed, 1):
        r, due = o.request, o.due.due
        assert due is not None
        out += wrap(f"{kind_name(r.kind)}: {r.prompt}" + (" (secret)" if r.secret else ""), f"{i:4d}. ", " " * 6)
        out += wrap(f"asked in step {o.since:04d}; due {show_time(due)} (in {show_span(due - now)})", " " * 6, " " * 6)
        if r.default is not None:
            parts = r.default if isinstance(r.default, tuple) else (r.default,)
            out += wrap("default: " + "; ".join(format_command(c) for c in parts), " " * 6, " " * 8)
    if turn_file.strip():
        out += ["", *turn_file.rstrip("\n").split("\n")]
    else:  # its report cannot be read: say where the turn file is
        out += [""] + wrap(f"The turn file to fill in is in your report of step {max(o.since for o in owed):04d} "
                           "(YOUR TURN FILE): seal it (maester sign) and mail it back.", "", "")  # fmt: skip
    return "\n".join(out) + "\n"


def turn_file_of(root: Path, number: int, house: str) -> str:
    """The YOUR TURN FILE section of ``house``'s report of step ``number`` ("" when it cannot be read)."""
    found = stepreports.step(root, number)
    try:
        return trimmed(pick(text_sections(found.text(f"{house}.txt")), "turn-file")) if found is not None else ""
    except (OSError, ValueError):  # a page that does not read (UnicodeDecodeError is a ValueError)
        return ""


def compose_reminder(game_id: str, sender: str, house: str, to: str, text: str, first_due: datetime,
                     now: datetime, kinds: list[str]) -> EmailMessage:  # fmt: skip
    """One reminder mail; its subject says what is due and when first (ruling 311)."""
    names = list(dict.fromkeys(kind_name(k).upper() for k in kinds))
    what = " + ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
    m = EmailMessage(policy=policy.default)
    m["From"] = formataddr((f"Maester ({game_id})", sender))
    m["To"] = formataddr((registry.house_name(house), to))
    m["Subject"] = f"[{game_id}] {what} DUE {short_time(first_due)} · reminder, {show_span(first_due - now)} left"
    m["Date"] = format_datetime(now)
    m["Message-ID"] = make_msgid(idstring=f"reminder.{house}", domain=sender.rpartition("@")[2] or None)
    m["Auto-Submitted"] = "auto-generated"  # no vacation replies (RFC 3834)
    m["X-Maester-Game"] = game_id
    m["X-Maester-House"] = house
    m["X-Maester-Reminder"] = _iso(first_due)  # send_reminders sends no reminder after this
    m.set_content(text, cte="quoted-printable")
    return m


def write_reminders(game_dir: str | Path, *, sender: str | None = None, now: datetime | None = None) -> OutboxReport:
    """Write and log a reminder to each house with answers due soon (see the module's doc).

    :raises OutboxError: for no schedule, no reminder window, no sender address or a bad address.
    :raises GameDirError: for a folder that is not a game folder, is busy, or has a bad schedule.
    """
    gd = GameDir.open(game_dir)
    game = registry.read_game(gd.root)
    game_id = registry.game_id(game)
    players = registry.players(game)
    schedule = deadlines.load_schedule(gd)
    if schedule is None:
        raise OutboxError(f"{gd.game_file} has no [deadlines] table: without a schedule nothing falls due by itself, "
                          "so there is nothing to remind of")  # fmt: skip
    if not schedule.remind_hours:
        raise OutboxError(f"{gd.game_file}: [deadlines] has no remind_hours: set how many hours before the due time "
                          "a house is reminded, e.g. remind_hours = 12")  # fmt: skip
    try:
        for who, entry in players.items():
            if entry.get("email"):
                registry.one_address(str(entry["email"]), f"players.{who}.email {str(entry['email'])!r} in game.toml")
    except registry.RegistryError as e:
        raise OutboxError(str(e)) from None
    sender = sender or str(players.get(registry.MODERATOR, {}).get("email", ""))
    if "@" not in parseaddr(sender)[1]:
        raise OutboxError("give the moderator's address with --from ADDR "
                          "(or register it: maester register GAME_DIR --house moderator --key KEY.pub --email ADDR)")  # fmt: skip
    now = now or datetime.now(UTC)
    folder = gd.root / OUTBOX / REMINDERS
    report = OutboxReport(game_id, REMINDERS, folder)
    with locked(gd, timeout=10):
        numbers = Folder(gd).numbers()
        if not numbers:
            raise OutboxError(f"no step was resolved yet: run 'maester adjudicate {gd.root}' first")
        snap = Folder(gd).read_snapshot(numbers[-1])
        ledger = Ledger.read(gd.root)
        owed = reminders_due(snap, deadlines.Clock(schedule, ledger, now), ledger, schedule.remind_hours)
        gone = registry.departed(gd.root, game)  # a house whose player left gets no more mail
        for house, mine in owed.items():
            address = str(players.get(house, {}).get("email", "")) if house not in gone else ""
            if not address:
                report.notes.append(f"no reminder for {registry.house_name(house)}: it has no address")
                continue
            first = min(o.due.due for o in mine if o.due.due is not None)
            text = reminder_text(game_id, house, mine, now, schedule.grace_hours, turn_file_of(gd.root, snap.number, house))
            msg = compose_reminder(game_id, parseaddr(sender)[1], house, address, text, first, now,
                                   [o.request.kind for o in mine])  # fmt: skip
            stamp = hashlib.sha256("\n".join(f"{o.request.key} {_iso(o.due.due)}" for o in mine  # type: ignore[arg-type]
                                             ).encode()).hexdigest()[:12]  # fmt: skip
            name = f"{house}-{snap.number:04d}-{stamp}.eml"
            fileio.atomic_write_bytes(folder / name, msg.as_bytes(policy=policy.SMTP))  # then the log: a re-run rewrites it
            log(gd.root, {"action": "remind", "house": house, "file": f"{OUTBOX}/{REMINDERS}/{name}", "now": _iso(now),
                          "requests": [{"key": o.request.key, "due": _iso(o.due.due)} for o in mine]})  # type: ignore[arg-type]  # fmt: skip
            what = "1 request" if len(mine) == 1 else f"{len(mine)} requests"
            report.written.append(f"{name} to {address}: {what} due from {show_time(first)}")
        if not owed:
            report.notes.append(f"no answer falls due within {schedule.remind_hours} h that was not reminded of already")
    return report


def send_reminders(game_dir: str | Path, *, server: SmtpServer, now: datetime | None = None) -> OutboxReport:
    """Send every reminder of ``outbox/reminders/`` not sent yet; record each in its ``sent.json``.

    A reminder written but not sent before its due time (written without ``--send``) is not sent
    any more: it is recorded as dropped, and said.
    """
    gd = GameDir.open(game_dir)
    folder = gd.root / OUTBOX / REMINDERS
    report = OutboxReport(registry.game_id(registry.read_game(gd.root)), REMINDERS, folder)
    when = now or datetime.now(UTC)
    with locked(gd, timeout=10):
        sent: dict[str, Any] = read_json(folder / SENT_FILE)
        todo = sorted(p for p in folder.glob("*.eml") if p.name not in sent) if folder.is_dir() else []
        late = [p for p in todo if _too_late(p, when)]
        for path in late:
            sent[path.name] = {"dropped": _iso(when), "why": "its due time passed before it was sent"}
            report.notes.append(f"{path.name} is not sent: its due time passed before it was sent")
            todo.remove(path)
        if late:
            fileio.atomic_write_text(folder / SENT_FILE, json.dumps(sent, indent=1, sort_keys=True) + "\n")
        if not todo:
            return report
        try:
            smtp = connect(server)
        except (smtplib.SMTPException, OSError) as e:
            report.failed += [f"{p.name}: cannot reach {server}: {reason(e)}" for p in todo]
            return report
        try:
            for i, path in enumerate(todo):
                if not send_one(smtp, path, server, sent, report, now):
                    report.failed += [f"{p.name}: not tried (the connection was lost)" for p in todo[i + 1 :]]
                    break
                fileio.atomic_write_text(folder / SENT_FILE, json.dumps(sent, indent=1, sort_keys=True) + "\n")
        finally:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()
    return report
