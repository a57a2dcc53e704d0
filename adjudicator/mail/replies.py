"""Answering a mail that could not be taken: one short reply, to a registered player's address only.

A player who forgot to seal, or sealed with a key the game does not know, should hear so before
the deadline, not find out when the default is taken (ruling 323). But anyone can write any
``From``: so the reply goes only to the address registered for the house whose address the mail
came from, never to the ``From`` or ``Reply-To`` of the mail itself; a mail from any other address
is never answered (it is listed in the moderator's mail). And it is bounded (ruling 324):

* never an answer to an automatic mail, a bounce or a list (:mod:`adjudicator.mail.autoreply`),
  nor to a mail from the moderator's own address;
* one reply a message, however many faults it has, and one only, however often it is read;
* at most :data:`MAX_A_DAY` replies to one address in 24 hours and :data:`MAX_A_WEEK` in 7 days;
* each reply carries ``Auto-Submitted: auto-replied`` (RFC 3834), so that a well-behaved program
  never answers it, and no turn-file header line, so that a reply quoted back (by a vacation
  program that does answer) holds nothing a run would read as a turn.

A reply quotes nothing a stranger wrote: it names the mail by its date and its Message-ID (when
that is plain), each turn by where it was (a body's lines, an attachment's name in letters and
digits) and by the round, step and seq its header claims.

A reply is written to ``outbox/replies/NAME.eml`` and then logged (a ``reply`` line): the commit
point. ``maester outbox --send`` (and ``maester deliver``) sends the ones not sent yet and logs a
``replied`` line for each just after the server took it (as ruling 304 does for the reports).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from pathlib import Path
from typing import Any

from ..folder import registry
from ..folder.gamedir import GameDir
from ..folder.ledger import log
from ..folder.receipts import WHAT_TO_DO, safe_name
from ..folder.settle import locked
from ..util import fileio
from .blocks import FoundBlock, MailScan
from .sending import OUTBOX, OutboxReport, SmtpServer, close, connect, deliver, reason, said

__all__ = ["MAX_A_DAY", "MAX_A_WEEK", "REPLIES", "Replier", "faults_of", "mark_replies_sent", "send_replies"]

REPLIES = "replies"  # outbox/replies/
MAX_A_DAY = 3  # replies to one address in any 24 hours
MAX_A_WEEK = 10  # and in any 7 days
WIDTH = 78
_PLAIN_ID = re.compile(r"^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]{3,120}>$")


@dataclass
class Replier:
    """Decides and writes the replies of one ingest run; reads the log's ``reply`` lines once."""

    root: Path
    game_id: str
    sender: str  # the moderator's address: the From of a reply ("": no reply can be written)
    now: datetime
    lines: list[dict[str, Any]] = field(default_factory=list)  # the log's reply lines, and those written now

    @classmethod
    def load(cls, root: Path, game: dict[str, Any], game_id: str, now: datetime) -> Replier:
        sender = str(registry.players(game).get(registry.MODERATOR, {}).get("email", ""))
        lines = [e for e in registry.read_log(root) if e.get("action") == "reply"]
        return cls(root, game_id, sender, now, lines)

    def answer(self, *, house: str, address: str, message: str, faults: list[str], date: datetime | None,
               message_id: str) -> str:  # fmt: skip
        """Write the reply to ``house``'s registered ``address`` about ``faults``; what was done, in words."""
        who = registry.house_name(house)
        for e in self.lines:
            if e.get("message") == message:  # read again (a run killed before it recorded the mail as read):
                # said as the first reading said it, so that the moderator's mail is the same either way
                return f"answered: a reply to {who} ({e.get('address', address)}), {e.get('file', '')}"
        if not self.sender:
            return ("not answered: the moderator has no registered address to answer from (maester register "
                    "GAME_DIR --house moderator --key KEY.pub --email ADDR)")  # fmt: skip
        if (why := self._over_limit(address)):
            return f"not answered: {why}"
        mail = reply_mail(self.game_id, house, address, self.sender, faults, date, message_id, self.now)
        data = mail.as_bytes(policy=policy.SMTP)
        name = f"{house}-{hashlib.sha256(message.encode()).hexdigest()[:16]}.eml"  # a run killed before its log
        # line writes the same name again, so no reply is left that the log does not know
        rel = f"{OUTBOX}/{REPLIES}/{name}"
        fileio.atomic_write_bytes(self.root / rel, data)  # then the log line, the commit point
        entry = log(self.root, {"action": "reply", "file": rel, "house": house, "address": address,
                                "message": message, "why": faults, "sha256": hashlib.sha256(data).hexdigest(),
                                "time": self.now.isoformat(timespec="seconds")})  # fmt: skip
        self.lines.append(entry)
        return f"answered: a reply to {who} ({address}), {rel}"

    def _over_limit(self, address: str) -> str:
        times = []
        for e in self.lines:
            if e.get("address") == address:
                try:
                    times.append(datetime.fromisoformat(str(e.get("time", ""))))
                except ValueError:
                    continue
        day = sum(self.now - timedelta(hours=24) < t <= self.now for t in times)
        week = sum(self.now - timedelta(days=7) < t <= self.now for t in times)
        if day >= MAX_A_DAY:
            return f"{day} replies went to {address} in the last 24 hours already (at most {MAX_A_DAY} a day)"
        if week >= MAX_A_WEEK:
            return f"{week} replies went to {address} in the last 7 days already (at most {MAX_A_WEEK} a week)"
        return ""


def _para(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=" " * len(indent),
                         break_on_hyphens=False, break_long_words=False)  # fmt: skip


def reply_text(game_id: str, house: str, faults: list[str], date: datetime | None) -> str:
    """The reply's words: what was wrong, how to seal, and who gets this (no line of it is a turn header)."""
    who = registry.house_name(house)
    dated = f", dated {date:%a %d %b %Y %H:%M} UTC," if date else ""
    out = _para(f"Your mail to game {game_id}{dated} held a turn that was not taken:")
    out.append("")
    for fault in faults[:8]:
        out += _para(fault, "  * ")
    if len(faults) > 8:
        out += _para(f"and {len(faults) - 8} more.", "  * ")
    out += ["", *_para("To be taken, a turn must be sealed with the key registered for your house. Seal the "
                       "file, with a seq higher than any you sent for that step, and mail it again:"), "",
            "    maester sign --key ~/.ssh/maester turn.txt --out -", "",
            *_para("and paste what it prints into the body of your mail (or attach turn.txt.sealed). With plain "
                   "OpenSSH, attach turn.txt and the turn.txt.sig that ssh-keygen -Y sign -n maester-turn writes "
                   "beside it (the moderator's guide for players, docs/seals.md, says how)."), "",
            *_para(f"This answer goes only to the address registered for {who}. If you did not send that mail, "
                   "someone else wrote your address on it: nothing was taken, and you need do nothing. Maester "
                   f"answers one address at most {MAX_A_DAY} times a day and {MAX_A_WEEK} times a week; the "
                   "moderator sees every mail not taken.")]  # fmt: skip
    return "\n".join(out) + "\n"


def reply_mail(game_id: str, house: str, address: str, sender: str, faults: list[str], date: datetime | None,
               message_id: str, now: datetime) -> EmailMessage:  # fmt: skip
    """One reply: to the registered address, from the moderator's, marked as automatic (RFC 3834)."""
    m = EmailMessage(policy=policy.default)
    m["From"] = formataddr((f"Maester ({game_id})", sender))
    m["To"] = formataddr((registry.house_name(house), address))
    when = f" of {date:%d %b %H:%M} UTC" if date else ""
    m["Subject"] = f"[{game_id}] NOT TAKEN · your mail{when}"
    m["Date"] = format_datetime(now)
    m["Message-ID"] = make_msgid(idstring=f"reply.{house}", domain=sender.rpartition("@")[2] or None)
    if _PLAIN_ID.match(message_id):
        m["In-Reply-To"] = message_id
        m["References"] = message_id
    m["Auto-Submitted"] = "auto-replied"  # RFC 3834: no program answers it
    m["X-Maester-Game"] = game_id
    m["X-Maester-Reply"] = "not-taken"
    m["X-Maester-House"] = house
    m.set_content(reply_text(game_id, house, faults, date))
    return m


def where_said(where: str) -> str:
    """Where a turn was in a mail, as a reply may say it: the names a stranger chose made safe.

    >>> where_said("attachment 'Click here: evil.example!.txt', lines 1-7")
    "attachment 'Click_here_evil.example_.txt', lines 1-7"
    """
    return re.sub(r"'([^']*)'", lambda m: repr(safe_name(m[1])), where)[:160]


# --- what was wrong ------------------------------------------------------------------------------

_DOCUMENT = re.compile(r"\((application/(pdf|msword|rtf|vnd\.openxmlformats[^)]*|vnd\.oasis\.opendocument[^)]*|"
                       r"vnd\.ms-[^)]*)|text/rtf)\) is not text: not read$")  # fmt: skip
_SKIPPED = ("is a zip archive: not opened (turn files must come as text)", "MB limit: not read")


def faults_of(found: MailScan, game_id: str, house: str | None, key_house: dict[str, str],
              house_keys: list[str]) -> list[str]:  # fmt: skip
    """What in a mail of this game could not be taken, one sentence each, as a reply to ``house`` says it.

    A turn with no seal, a seal that does not hold, a seal by a key not registered for the house
    (or one registered to another house, over a turn for this one), a ``.sig`` naming no registered
    key; and, when the mail holds no turn text at all, a document or archive that was not read.
    """
    who = registry.house_name(house) if house else "your house"
    out: list[str] = []
    for b in (b for b in found.blocks if b.game == game_id):
        where, claim = where_said(b.where), _claim(b)
        if not b.fingerprint:
            m = re.search(r"\[([a-z-]+)\]", b.seal)
            code = m[1] if m else "bad-armour"
            out.append(f"{where}: the seal of the turn ({claim}) does not hold [{code}]: "
                       f"{WHAT_TO_DO.get(code, 'seal the file again and send it unchanged')}")  # fmt: skip
            continue
        owner = key_house.get(b.fingerprint)
        if owner is None:
            yours = f" ({'its key: ' + ', '.join(house_keys)})" if house_keys else ""
            out.append(f"{where}: the turn ({claim}) is sealed by the key {b.fingerprint}, which is not registered "
                       f"for {who} in this game{yours}")  # fmt: skip
        elif house and owner != house and b.header is not None and b.header.house == house:
            out.append(f"{where}: the turn ({claim}) is sealed by a key registered to another house, not {who}'s")
    for u in (u for u in found.unsealed if u.game == game_id and not u.quoted):
        out.append(f"{where_said(u.where)}: a turn ({_claim(u)}) with no seal")
    for stray in found.unmatched:
        if stray.why == "no-file" and key_house.get(stray.fingerprint) is None and stray.game in (game_id, None):
            out.append(f"attachment {safe_name(stray.name)!r}: a seal that sealed no turn of the mail, naming a key "
                       f"not registered for {who}")  # fmt: skip
    if not found.blocks and not found.unsealed and not out:
        out += [where_said(n) for n in found.notes if n.endswith(_SKIPPED) or _DOCUMENT.search(n)]
    return out


def _claim(b: FoundBlock) -> str:
    h = b.header
    return f"{registry.house_name(h.house)}, round {h.round} {h.step}, seq {h.seq}" if h else "its header cannot be read"


# --- sending ---------------------------------------------------------------------------------------


def pending(root: Path) -> list[dict[str, Any]]:
    """The replies written and not sent yet, in the order written."""
    entries = registry.read_log(root)
    sent = {str(e.get("file")) for e in entries if e.get("action") == "replied"}
    return [e for e in entries if e.get("action") == "reply" and str(e.get("file")) not in sent]


def send_replies(game_dir: str | Path, *, server: SmtpServer, now: datetime | None = None) -> OutboxReport:
    """Send every reply written and not sent yet, each exactly as its ``.eml`` holds it; log a
    ``replied`` line for each as soon as the server took it. A reply the server refuses is tried
    again at the next run."""
    gd = GameDir.open(game_dir)
    report = OutboxReport("", "replies", gd.root / OUTBOX / REPLIES)
    with locked(gd, timeout=10):  # settled first: a reply never logged is gone (folder.settle)
        todo: list[tuple[dict[str, Any], bytes]] = []
        for e in pending(gd.root):
            try:
                data = (gd.root / str(e["file"])).read_bytes()
            except OSError as err:
                report.failed.append(f"{e['file']}: cannot be read ({err.strerror}): not sent")
                continue
            if hashlib.sha256(data).hexdigest() != e.get("sha256"):
                report.failed.append(f"{e['file']} was changed since it was written: not sent")
                continue
            todo.append((e, data))
        if not todo:
            return report
        try:
            smtp = connect(server)
        except Exception as err:  # smtplib's and the socket's errors: every reply waits for the next run
            report.failed += [f"{e['file']}: cannot reach {server}: {reason(err)}" for e, _ in todo]
            return report
        try:
            for e, data in todo:
                d = deliver(smtp, str(e["file"]), data, server)
                if not d.ok:
                    report.failed.append(f"{e['file']}: {d.error}")
                    if not d.connected:
                        break
                    continue
                log(gd.root, {"action": "replied", "file": e["file"], "to": d.to, "refused": d.refused,
                              "server": str(server), **({"time": now.isoformat(timespec="seconds")} if now else {})})  # fmt: skip
                report.sent.append(said(d))
        finally:
            close(smtp)
    return report


def mark_replies_sent(game_dir: str | Path) -> list[str]:
    """Record every reply written and not sent as sent: the moderator sent the ``.eml`` files by other means."""
    gd = GameDir.open(game_dir)
    with locked(gd, timeout=10):
        out = []
        for e in pending(gd.root):
            log(gd.root, {"action": "replied", "file": e["file"], "to": [e.get("address", "")], "server": "by the moderator"})
            out.append(f"{e['file']} to {e.get('address', '')} (recorded as sent by you)")
    return out
