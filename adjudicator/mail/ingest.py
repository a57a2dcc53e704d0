"""Mail in: find the sealed turn files in a Maildir or an mbox and drop each into a game's inbox.

``maester ingest GAME_DIR --maildir DIR`` (or ``--mbox FILE``) reads every message not read
before, takes each sealed block (header line … ``END SSH SIGNATURE``) of this game from it and
writes it to ``GAME_DIR/inbox/`` as a file of its own, for ``maester adjudicate``. A block is
found wherever mail puts it: the body, a text attachment, quoted-printable or base64, flowed
text (RFC 3676), HTML-only mail, a reply's ``> `` quoting, a forwarded message, a file and its
detached ``.sig``. The mailbox is read by :mod:`adjudicator.mail.mailboxes`, each message's
blocks found by :mod:`adjudicator.mail.blocks` (its texts by :mod:`adjudicator.mail.textparts`);
this module keeps the game's record of mail read and writes the inbox.

Nothing here decides whether a turn counts: the seal does, when the batch run checks it. A sender
address that is not the player's is reported, no more. A ``.sig`` that sealed nothing is told to
the house whose registered key it names (:mod:`adjudicator.mail.strays`, ruling 195). See
``docs/moderating.md``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..folder import registry
from ..folder.gamedir import GameDir
from ..folder.settle import locked
from ..util import fileio
from . import spool
from .blocks import MAX_REJOINED, FoundBlock, MailScan, scan_message
from .mailboxes import LOCK_WAIT, MailError, RawMessage, read_maildir, read_mbox
from .replies import Replier, faults_of
from .strays import tell_houses
from .textparts import MAX_PART_BYTES, html_to_text, unflow

# The names callers of maester ingest's API have long imported from here, wherever they now live.
__all__ = [
    "MAX_PART_BYTES", "MAX_REJOINED", "SEEN_FILE", "FoundBlock", "IngestReport", "MailError", "MailScan",
    "MessageOutcome", "html_to_text", "ingest_into_inbox", "ingest_own_mailbox", "scan_message", "unflow",
]  # fmt: skip

SEEN_FILE = "mail-seen.json"


# --- the game's record of mail read --------------------------------------------------------------


@dataclass
class _Seen:
    """``GAME_DIR/mail-seen.json``: messages read (by Message-ID, else the SHA-256 of their bytes), blocks taken.

    ``raw`` knows each message read by what identifies it before it is parsed (its Maildir name,
    the SHA-256 of its bytes), so a message read before costs no parsing at the next run.
    """

    path: Path
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    blocks: dict[str, dict[str, str]] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)  # "maildir:NAME" or "sha256:HEX" -> the message's key
    last: int = -1  # the highest number of a mail not taken (-1: not counted yet)

    @classmethod
    def read(cls, root: Path) -> _Seen:
        path = root / SEEN_FILE
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            return cls(path, dict(doc["messages"]), dict(doc["blocks"]), dict(doc.get("raw", {})))
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            raise MailError(f"{path} cannot be read ({type(e).__name__}); mend it, or remove it: "
                            "blocks already in the inbox are still recognised") from None  # fmt: skip

    def number(self, entry: dict[str, Any]) -> None:
        """Give an entry of a mail not taken the next number: the moderator's mail lists those after its last."""
        if self.last < 0:
            self.last = max((int(e.get("n", 0)) for e in self.messages.values()), default=0)
        self.last += 1
        entry["n"] = self.last

    def save(self) -> None:
        doc = {"version": 2, "messages": self.messages, "blocks": self.blocks, "raw": self.raw}
        fileio.atomic_write_text(self.path, json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


# --- ingest --------------------------------------------------------------------------------------


@dataclass
class MessageOutcome:
    """What became of one message: taken, ignored, read before, refused, or not readable."""

    source: str
    status: str  # "taken", "nothing new", "ignored", "seen", "refused", "unreadable", "retry"
    sender: str = ""
    subject: str = ""
    lines: list[str] = field(default_factory=list)
    old: bool = False  # dated before the game began: an ignored one is counted, not listed

    def title(self) -> str:
        who = f" from {self.sender or '(no address)'}, {self.subject[:60]!r}" if self.sender or self.subject else ""
        return f"{self.status}: {self.source}{who}"


@dataclass
class IngestReport:
    """One ingest: per message what was done, and the inbox files written."""

    game: str
    mailbox: str
    outcomes: list[MessageOutcome] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)  # inbox file names

    @property
    def exit_status(self) -> int:
        """0, or 1 when some message could not be read at all (or was refused: the moderator should know)."""
        return 1 if any(o.status in ("unreadable", "refused") for o in self.outcomes) else 0

    def lines(self) -> list[str]:
        out = [f"mail for game {self.game} from {self.mailbox}:"]
        seen = sum(o.status == "seen" for o in self.outcomes)
        old = [o for o in self.outcomes if o.status == "ignored" and o.old]
        for o in self.outcomes:
            if o.status != "seen" and not (o.status == "ignored" and o.old):
                out.append(f"  {o.title()}")
                out += [f"    {line}" for line in o.lines]
        if old:  # a first run on a mailbox of old mail: one line, not one paragraph each
            out.append(f"  ignored: {len(old)} message{'s' * (len(old) != 1)} dated before the game began, "
                       "with no turn for this game")  # fmt: skip
        counts = {s: sum(o.status == s for o in self.outcomes) for s in ("ignored", "refused", "unreadable", "retry")}
        summary = f"  took {len(self.taken)} turn file{'s' * (len(self.taken) != 1)} into the inbox"
        summary += "".join(f"; {n} {s}" for s, n in counts.items() if n) + (f"; {seen} read before" if seen else "")
        return out + [summary]


def ingest_into_inbox(game_dir: str | Path, maildir: str | Path | None = None, mbox: str | Path | None = None,
                      *, now: datetime | None = None, lock_wait: float = LOCK_WAIT) -> IngestReport:  # fmt: skip
    """Take this game's sealed blocks from every message not read before into ``GAME_DIR/inbox/``.

    Each block becomes ``inbox/YYYYMMDDTHHMMSSZ-<sha256 prefix>.txt`` (the message's date), written
    atomically, with ``inbox/.<name>.meta.json`` saying where it came from. A block already taken
    (from any message) is not taken again; nor is a message read before.

    :raises MailError: for a missing or unreadable mailbox, or a damaged ``mail-seen.json``.
    :raises GameDirError: for a folder that is not a game folder, or is busy.
    """
    if (maildir is None) == (mbox is None):
        raise MailError("give one mailbox: --maildir DIR or --mbox FILE")
    source = f"Maildir {maildir}" if maildir is not None else f"mbox {mbox}"

    def messages(intake: _Intake) -> Iterator[RawMessage]:
        known = intake.seen.raw.__contains__
        return read_maildir(Path(maildir), known) if maildir is not None else read_mbox(Path(mbox or ""), lock_wait)

    return _ingest(GameDir.open(game_dir), source, messages, now)


def ingest_own_mailbox(game_dir: str | Path, *, now: datetime | None = None) -> IngestReport:
    """Take what ``maester deliver`` kept in ``GAME_DIR/mailbox/`` (:mod:`adjudicator.mail.spool`),
    as :func:`ingest_into_inbox` takes a Maildir; a message that was over the size limit is recorded
    as refused (its note then goes).

    :raises MailError: for a damaged ``mail-seen.json``.
    :raises GameDirError: for a folder that is not a game folder, or is busy.
    """
    gd = GameDir.open(game_dir)
    box = spool.folders(gd.root)

    def messages(intake: _Intake) -> Iterator[RawMessage]:
        intake.refused_notes(gd.root)
        return read_maildir(box, intake.seen.raw.__contains__)

    return _ingest(gd, f"the game's mailbox {spool.MAILBOX}/", messages, now)


def _ingest(gd: GameDir, source: str, messages: Callable[[_Intake], Iterator[RawMessage]],
            now: datetime | None) -> IngestReport:  # fmt: skip
    game = registry.read_game(gd.root)
    intake = _Intake(gd, registry.game_id(game), game, now or datetime.now(UTC))
    report = IngestReport(intake.game_id, source)
    with locked(gd, timeout=10):
        intake.seen = _Seen.read(gd.root)
        intake.list_inbox()
        found = messages(intake)
        report.outcomes += intake.outcomes
        try:
            for raw in found:
                outcome = intake.take(raw)
                report.outcomes.append(outcome)
                report.taken += intake.written
        finally:  # once a run, not once a message; a run killed before it finds its blocks in the inbox again
            if intake.changed:
                intake.seen.save()
            for path in intake.notes_done:  # recorded in mail-seen.json: the note has done its work
                path.unlink(missing_ok=True)
    return report


class _Intake:
    """Takes messages into one game's inbox, keeping ``mail-seen.json`` up to date."""

    def __init__(self, gd: GameDir, game_id: str, game: dict[str, Any], now: datetime) -> None:
        self.gd, self.game_id, self.now, self.game = gd, game_id, now, game
        self.inbox = gd.root / "inbox"
        gone = registry.departed(gd.root, game)  # their keys act for nothing, their addresses hear nothing
        self.emails = {h: str(p.get("email", "")).lower() for h, p in registry.players(game).items() if h not in gone}
        self.key_house = {e.fingerprint: e.house for e in registry.key_entries(game) if not e.revoked and e.house not in gone}
        self.addresses: dict[str, str] = {}  # a house's registered address, lower case -> the house (the first)
        for house, address in self.emails.items():
            if address and house != registry.MODERATOR and address != self.emails.get(registry.MODERATOR):
                self.addresses.setdefault(address, house)
        self.written_as = {h: str(p.get("email", "")) for h, p in registry.players(game).items()}  # as registered
        self.created = _when(str(game.get("game", {}).get("created", "")) if isinstance(game.get("game"), dict) else "")
        self._replier: Replier | None = None
        self.seen = _Seen(gd.root / SEEN_FILE)
        self.written: list[str] = []
        self.in_inbox: dict[str, str] = {}  # SHA-256 prefix of each block in the inbox -> its file name
        self.changed = False  # mail-seen.json is to be written
        self.outcomes: list[MessageOutcome] = []  # of the notes of messages too large to keep
        self.notes_done: list[Path] = []

    def refused_notes(self, root: Path) -> None:
        """Record each message ``maester deliver`` did not keep (over its size limit) as refused, once."""
        for path, note in spool.read_refused(root):
            key = f"deliver:{path.name.removesuffix('.json')}"
            self.notes_done.append(path)
            if key in self.seen.messages:
                continue
            sender, subject = str(note.get("from", "")), str(note.get("subject", ""))
            why = str(note.get("why", "it was over the size limit of maester deliver: not read"))
            entry = {"from": sender, "subject": subject, "date": str(note.get("date", "")), "answer": "",
                     "read": self.now.isoformat(timespec="seconds"), "status": "refused", "took": [], "why": why}
            self.seen.number(entry)
            self.seen.messages[key] = entry
            self.changed = True
            self.outcomes.append(MessageOutcome(key, "refused", sender, subject, [why]))

    def list_inbox(self) -> None:
        """Note the blocks in the inbox once (a listing per block made ingest quadratic in mail)."""
        try:
            names = os.listdir(self.inbox)
        except OSError:
            names = []
        for name in sorted(names):
            if name.endswith(".txt") and not name.startswith(".") and "-" in name:
                self.in_inbox.setdefault(name[:-4].rsplit("-", 1)[1], name)

    def _seen(self, raw: RawMessage, digest: str, key: str, entry: dict[str, Any] | None = None) -> None:
        """Record a message as read: under its key (with ``entry``), its digest and its Maildir name."""
        if entry is not None:
            if "why" in entry:
                self.seen.number(entry)
            self.seen.messages[key] = entry
        self.seen.raw[digest] = key
        if raw.name:
            self.seen.raw[raw.name] = key
        self.changed = True

    def take(self, raw: RawMessage) -> MessageOutcome:
        self.written = []
        if raw.known:
            return MessageOutcome(raw.label, "seen")
        if raw.data is None:
            note = "read again next time" if raw.retry else "not read"
            return MessageOutcome(raw.label, "retry" if raw.retry else "unreadable", lines=[f"{raw.problem}: {note}"])
        digest = "sha256:" + hashlib.sha256(raw.data).hexdigest()
        if (known := self.seen.raw.get(digest)) is not None or digest in self.seen.messages:
            if raw.name and raw.name not in self.seen.raw:
                self._seen(raw, digest, known or digest)
            return MessageOutcome(raw.label, "seen")  # recognised before any parsing
        try:
            found = scan_message(raw.data, rejoin_keys=self.key_house.keys())
        except Exception as e:  # never expected (scan_message guards itself); this message only
            found = MailScan("", "", "", None, refused=f"not a readable message ({type(e).__name__})")
        if found.refused:
            self._seen(raw, digest, digest, self._entry(found, "refused") | {"why": found.refused, "answer": ""})
            return MessageOutcome(raw.label, "refused", found.sender, found.subject,
                                  [f"{found.refused} (recorded: it is not read again)"])  # fmt: skip
        key = found.message_id or digest
        label = f"{raw.label} {found.message_id}".strip() if found.message_id else raw.label
        out = MessageOutcome(label, "seen", found.sender, found.subject)
        if key in self.seen.messages:
            self._seen(raw, digest, key)
            return out
        mine = [b for b in found.blocks if b.game == self.game_id]
        for b in mine:
            out.lines += self._take_block(b, found, key)
        unsealed = [u for u in found.unsealed if u.game == self.game_id]
        for u in (u for u in unsealed if not u.quoted):
            out.lines.append(f"not taken: {u.where}: a turn text with no seal ({u.first_line[:60]!r})")
        if quoted := [u for u in unsealed if u.quoted]:  # a reply quoting a report: its skeletons, folded
            out.lines.append(_quoted_note(quoted))
        out.lines += found.stray_seals
        games = {b.game for b in [*found.blocks, *found.unsealed] if b.game}
        out.lines += tell_houses(self.gd, self.game_id, self.key_house, found.unmatched, games, key,
                                 now=self.now)  # rulings 195, 327
        elsewhere = sorted({str(b.game) for b in found.blocks if b.game != self.game_id})
        if elsewhere:
            out.lines.append(f"left alone: sealed blocks for game {', '.join(elsewhere)}")
        if found.repeats:
            out.lines.append(f"the same turn appears {found.repeats} more time{'s' * (found.repeats > 1)} in this message")
        out.lines += [f"note: {n}" for n in found.notes]
        out.status = "taken" if self.written else ("nothing new" if mine else "ignored")
        if out.status == "ignored":
            out.lines.insert(0, "no sealed block for this game")
        entry = self._entry(found, out.status)
        self._not_taken(found, out, entry, bool(elsewhere) or any(u.game != self.game_id for u in found.unsealed))
        self._seen(raw, digest, key, entry)
        return out

    def _entry(self, found: MailScan, status: str) -> dict[str, Any]:
        return {"from": found.sender, "subject": found.subject, "date": found.date.isoformat() if found.date else "",
                "read": self.now.isoformat(timespec="seconds"), "status": status, "took": list(self.written)}  # fmt: skip

    def _not_taken(self, found: MailScan, out: MessageOutcome, entry: dict[str, Any], other_game: bool) -> None:
        """What of the mail was not taken, for the moderator's mail (``why``), and the answer to its sender
        (ruling 323): a reply to a registered player's address only, never to an automatic mail."""
        house = self.addresses.get(found.sender, "")
        keys = [fp for fp, h in self.key_house.items() if h == house]
        faults = faults_of(found, self.game_id, house or None, self.key_house, keys)
        out.old = self.created is not None and found.date is not None and found.date < self.created
        if not faults and (out.status != "ignored" or other_game):
            return  # taken, or another game's (ruling 147): nothing to tell
        answer = ""
        if faults and found.automatic:
            answer = f"not answered: an automatic mail ({found.automatic}: RFC 3834)"
        elif faults and not house:
            answer = "not answered: the sender is not a registered player's address (anyone can write any From)"
        elif faults and out.old:
            answer = "not answered: the mail is dated before the game began"
        elif faults:
            answer = self.replier().answer(house=house, address=self.written_as[house], message=entry_key(found, entry),
                                           faults=faults, date=found.date, message_id=found.message_id)  # fmt: skip
        if answer:
            out.lines.append(answer)
        entry["why"] = "; ".join(faults)[:400] if faults else "no turn for this game"
        entry["answer"] = answer
        entry["old"] = out.old

    def replier(self) -> Replier:
        if self._replier is None:
            self._replier = Replier.load(self.gd.root, self.game, self.game_id, self.now)
        return self._replier

    def _take_block(self, b: FoundBlock, found: MailScan, key: str) -> list[str]:
        claim = f"house {b.header.house}, round {b.header.round} {b.header.step}, seq {b.header.seq}" if b.header else \
            f"header {b.first_line[:50]!r}"  # fmt: skip
        earlier = self.seen.blocks.get(b.sha256)
        existing = self.in_inbox.get(b.sha256[:16])
        if earlier or existing:
            whence = f"from {earlier['message']}" if earlier else f"inbox/{existing}"
            return [f"already taken ({whence}): {claim} ({b.where})"]
        name = f"{found.date:%Y%m%dT%H%M%SZ}" if found.date else "undated"  # already in UTC
        name += f"-{b.sha256[:16]}.txt"
        meta = {"message_id": found.message_id, "from": found.sender, "subject": found.subject,
                "date": found.date.isoformat() if found.date else "", "where": b.where, "sha256": b.sha256,
                "ingested": self.now.isoformat(timespec="seconds")}  # fmt: skip
        fileio.atomic_write_bytes(self.inbox / name, b.data)
        fileio.atomic_write_text(self.inbox / f".{name}.meta.json", json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
        self.seen.blocks[b.sha256] = {"file": f"inbox/{name}", "message": key}
        self.in_inbox[b.sha256[:16]] = name
        self.written.append(name)
        lines = [f"took inbox/{name}: {claim} ({b.where}); {self._seal_words(b)}"]
        sealer = self.key_house.get(b.fingerprint, "") if b.fingerprint else ""
        if b.header and sealer and sealer != b.header.house:  # the key is at fault, not the address (ruling 300)
            lines.append(f"note: sealed with {registry.house_name(sealer)}'s key but claims "
                         f"{registry.house_name(b.header.house)}: the run refuses it and tells {registry.house_name(sealer)}")  # fmt: skip
        elif b.header and sealer and (sender_note := self._sender_note(b.header.house, found.sender)):
            lines.append(sender_note)
        return lines

    def _seal_words(self, b: FoundBlock) -> str:
        if not b.fingerprint:
            return b.seal + " (the adjudication will reject it)"
        house = self.key_house.get(b.fingerprint)
        return f"seal good, {registry.house_name(house)}'s key" if house else \
            f"{b.seal}, a key not registered in this game (the adjudication will reject it)"  # fmt: skip

    def _sender_note(self, house: str, sender: str) -> str:
        registered = self.emails.get(house, "")
        if not registered:
            return f"note: {registry.house_name(house)} has no registered address; sent from {sender or '(none)'}"
        if registered != sender:
            return (f"note: sent from {sender or '(no address)'}, not {registry.house_name(house)}'s registered "
                    f"address {registered}; the seal decides")  # fmt: skip
        return ""



def entry_key(found: MailScan, entry: dict[str, Any]) -> str:
    """What a reply names the message by in the log: its Message-ID, else its sender, date and subject."""
    return found.message_id or f"{entry['from']} {entry['date']} {entry['subject'][:80]}"


def _when(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _quoted_note(quoted: list[FoundBlock]) -> str:
    """One note for every quoted turn text without a seal (a quoted report holds its skeleton twice)."""
    spots = [u.where.rpartition(", lines ") for u in quoted]  # ("the body", ", lines ", "12-17")
    where = sorted({part for part, _, _ in spots})
    lines = ", ".join(span.split("-")[0] for _, _, span in spots[:6]) + (", ..." * (len(quoted) > 6))
    return (f"not taken: {len(quoted)} quoted turn text{'s' * (len(quoted) > 1)} with no seal in {', '.join(where)} "
            f"(line{'s' * (len(quoted) > 1)} {lines}): a reply quoting a report's skeleton or an earlier turn")  # fmt: skip
