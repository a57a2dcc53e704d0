"""Mail in: find the sealed turn files in a Maildir or an mbox and drop each into a game's inbox.

``maester ingest GAME_DIR --maildir DIR`` (or ``--mbox FILE``) reads every message not read
before, takes each sealed block (header line … ``END SSH SIGNATURE``) of this game from it and
writes it to ``GAME_DIR/inbox/`` as a file of its own, for ``maester adjudicate``. A block is
found wherever mail puts it: the body, a text attachment, quoted-printable or base64, flowed
text (RFC 3676), HTML-only mail, a reply's ``> `` quoting, a forwarded message, a file and its
detached ``.sig`` (:mod:`adjudicator.mail.detached`). Blocks are found by
:func:`adjudicator.seals.seal.scan`; this module only gets the texts out of the mail.

Nothing here decides whether a turn counts: the seal does, when the batch run checks it. A sender
address that is not the player's is reported, no more. A ``.sig`` that sealed nothing is told to
the house whose registered key it names (:mod:`adjudicator.mail.strays`, ruling 195). See
``docs/moderating.md``.

>>> from email.message import EmailMessage
>>> m = EmailMessage()
>>> m["From"], m["Subject"] = "Ned <ned@example.org>", "my turn"
>>> m.set_content("hello\\n> game demo · house stark · round 1 · planning · seq 1\\n")
>>> found = scan_message(m.as_bytes())
>>> found.sender, found.subject, [u.game for u in found.unsealed]
('ned@example.org', 'my turn', ['demo'])
"""

from __future__ import annotations

import codecs
import fcntl
import hashlib
import json
import mailbox as std_mailbox  # the standard library's: absolute imports never see this module
import os
import re
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from email.message import Message
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..folder import registry
from ..folder.gamedir import GameDir, GameDirError
from ..seals.seal import BadSignature, NoSeal, SealedBlock, SealError, normalise, scan, unnormalised_hint
from ..seals.wrapping import Rejoiner
from ..turnfile.header import Header, HeaderError, read_header
from ..util import fileio
from ..util.lines import split_lines
from . import detached
from .detached import MAX_STRAYS, DetachedSeal, candidates, seal_of, sealed_by, stray_note, untried_note, with_seal
from .parse import info, parse, raw_size
from .strays import tell_houses

__all__ = [
    "MAX_PART_BYTES", "SEEN_FILE", "FoundBlock", "IngestReport", "MailError", "MailScan", "MessageOutcome",
    "html_to_text", "ingest_into_inbox", "scan_message", "unflow",
]  # fmt: skip

MAX_PART_BYTES = 5 * 1024 * 1024  # a part bigger than this, as it travels (encoded), is not read
SEEN_FILE = "mail-seen.json"
LOCK_WAIT = 10.0  # seconds to wait for a mail program's lock on an mbox
_GAME_WORD = re.compile(r"^\s*game\s+([^\s·|,]+)", re.IGNORECASE)
_ZIP_TYPES = {"application/zip", "application/x-zip", "application/x-zip-compressed", "multipart/x-zip"}


class MailError(GameDirError):
    """A mailbox or game folder that cannot be read as asked (exit status 2)."""


# --- getting the texts out of one message ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextPart:
    """The text of one part of a message, decoded, unflowed, or taken from its HTML."""

    where: str  # "the body", "attachment 'turn.txt'", "part 3 (text/html)"
    text: str
    filename: str = ""  # an attachment's file name
    paired: DetachedSeal | None = None  # the seal of the attachment NAME.sig beside it, joined to its text


def unflow(text: str, *, delsp: bool = False) -> str:
    r"""Undo ``format=flowed`` soft line breaks (RFC 3676): a line ending in a space goes on.

    Space-stuffing is removed; quoting (``>``) is kept, one ``> `` a level; a change of quote
    depth ends a paragraph; the signature line ``-- `` is never joined.

    >>> unflow("march from Winterfell: \r\nfootman -> Karhold\r\n> quoted \r\n>  stuffed\r\n")
    'march from Winterfell: footman -> Karhold\n> quoted  stuffed\n'
    >>> unflow("U1NIU0lH \r\nAAAA\r\n", delsp=True)
    'U1NIU0lHAAAA\n'
    """
    out: list[str] = []
    depth_now, joined = 0, None  # the paragraph being joined, and its quote depth
    for line in re.split(r"\r\n|\r|\n", text.removesuffix("\r\n").removesuffix("\n")):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body.removeprefix(" ")  # space-stuffing
        soft = body.endswith(" ") and body != "-- "
        if joined is not None and depth != depth_now:
            out.append(_quoted(depth_now, joined))
            joined = None
        if soft and delsp:
            body = body[:-1]
        joined, depth_now = (joined or "") + body, depth
        if not soft:
            out.append(_quoted(depth, joined))
            joined = None
    if joined is not None:
        out.append(_quoted(depth_now, joined))
    return "\n".join(out) + "\n"


def _quoted(depth: int, text: str) -> str:
    return ">" * depth + " " + text if depth else text


class _HtmlText(HTMLParser):
    """The text a reader sees in an HTML mail: line breaks at ``<br>`` and at block elements."""

    BLOCKS = frozenset(["address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tr", "ul"])  # fmt: skip
    HIDDEN = frozenset({"head", "script", "style", "title", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.hidden = 0
        self.pre = 0

    def _break(self, *, always: bool = False) -> None:
        if always or self.lines[-1]:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self._break(always=True)
        elif tag in self.BLOCKS:
            self._break()
            self.pre += tag == "pre"
        elif tag in ("td", "th") and self.lines[-1] and not self.lines[-1].endswith(" "):
            self.lines[-1] += " "

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self.pre = max(0, self.pre - (tag == "pre"))
            self._break()

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            first, *rest = data.split("\n")
            self.lines[-1] += first
            self.lines += rest
            return
        text = re.sub(r"[ \t\r\n\f]+", " ", data)  # HTML collapses white space (not &nbsp;)
        if not self.lines[-1] or self.lines[-1].endswith(" "):
            text = text.lstrip(" ")
        self.lines[-1] += text


def html_to_text(html: str) -> str:
    """The text of an HTML mail, one line per ``<br>``, paragraph or ``<div>``; entities decoded.

    >>> html_to_text("<div>game demo &middot; house stark<br>march A -&gt; B</div><div><br></div><p>end</p>")
    'game demo · house stark\\nmarch A -> B\\n\\nend\\n'
    """
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    lines = [line.replace("\xa0", " ") for line in parser.lines]
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def _where(part: Message, n: int, top: bool) -> str:
    p = info(part)
    if p.cut:
        return f"part {n}"
    if p.filename:
        return f"attachment {p.filename!r}"
    first_text = n == 1 and p.maintype == "text" and p.disposition != "attachment"
    return "the body" if top or first_text else f"part {n} ({p.ctype})"


def _decode(part: Message, where: str, notes: list[str]) -> str:
    data = part.get_payload(decode=True)
    data = data if isinstance(data, bytes) else b""
    charset = info(part).params.get("charset", "").strip().lower()
    if charset in ("", "us-ascii", "ascii"):
        charset = "utf-8"  # undeclared 8-bit text is UTF-8 far more often than anything else
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        notes.append(f"{where}: unknown character set {charset[:40]!r}: read as UTF-8")
        charset = "utf-8"
    try:
        text = data.decode(charset)
    except (UnicodeError, ValueError, LookupError):  # LookupError: a codec that is not a text encoding
        notes.append(f"{where}: not valid {charset} text: the bad bytes were replaced (a seal over them fails)")
        try:
            text = data.decode(charset, "replace")
        except (UnicodeError, ValueError, LookupError):  # idna and others refuse "replace"
            text = data.decode("utf-8", "replace")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # UTF-7 and others can decode to lone surrogates, which no file can hold
        note = f"{where}: not valid {charset} text: the bad bytes were replaced (a seal over them fails)"
        if note not in notes:
            notes.append(note)
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text.lstrip("\ufeff")


def _part_text(part: Message, where: str, notes: list[str]) -> str | None:
    p = info(part)
    if p.ctype == "text/html":
        return html_to_text(_decode(part, where, notes))
    if p.maintype == "text":
        text = _decode(part, where, notes)
        if p.params.get("format", "").lower() == "flowed":
            text = unflow(text, delsp=p.params.get("delsp", "").lower() == "yes")
        return text
    if p.maintype == "application":
        data = part.get_payload(decode=True)
        if isinstance(data, bytes) and b"\0" not in data:
            try:
                return data.decode("utf-8-sig")
            except UnicodeDecodeError:
                pass
    if p.filename or p.disposition == "attachment":
        notes.append(f"{where} ({p.ctype}) is not text: not read")
    return None


@dataclass
class _Walk:
    texts: list[TextPart] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parts: int = 0


def _collect(part: Message, walk: _Walk, *, top: bool = False) -> None:
    if part.is_multipart():
        payload = part.get_payload()
        children = [c for c in payload if isinstance(c, Message)] if isinstance(payload, list) else []
        if info(part).ctype == "multipart/alternative":
            _alternatives(children, walk)
        else:
            for child in children:
                _collect(child, walk)
        return
    walk.parts += 1
    where = f"part {walk.parts}"
    try:  # every step of a part inside the guard: one bad part is noted and skipped, the others are read
        where = _where(part, walk.parts, top)
        text = _leaf_text(part, where, walk.notes)
    except Exception as e:  # the email package's errors on hostile parts are many
        walk.notes.append(f"{where} could not be decoded ({type(e).__name__}): not read")
        return
    if text is not None:
        walk.texts.append(TextPart(where, text, info(part).filename))


def _leaf_text(part: Message, where: str, notes: list[str]) -> str | None:
    p = info(part)
    if p.cut:
        notes.append(f"{where}: {p.cut}: not read")
        return None
    if p.maintype == "multipart":  # its boundary could not be read: the parser kept its body as text
        notes.append(f"{where}: a multipart part whose boundary cannot be read: read as plain text")
        return _decode(part, where, notes)
    size = raw_size(part)
    if size > MAX_PART_BYTES:
        notes.append(f"{where} is {size / 2**20:.1f} MB as sent, over the {MAX_PART_BYTES // 2**20} MB limit: not read")
        return None
    if p.ctype in _ZIP_TYPES or p.filename.lower().endswith(".zip"):
        notes.append(f"{where} is a zip archive: not opened (turn files must come as text)")
        return None
    return _part_text(part, where, notes)


def _alternatives(children: list[Message], walk: _Walk) -> None:
    """The alternatives say the same thing: read the one holding the most good seals, plain text first."""
    ranked = sorted(children, key=lambda c: info(c).ctype != "text/plain")
    best: _Walk | None = None
    best_score = -1
    for child in ranked:
        w = _Walk(parts=walk.parts)
        _collect(child, w)
        blocks = [b for t in w.texts for b in scan(t.text).blocks]
        score = 2 * sum(_opens(b) for b in blocks) + bool(blocks)
        if score > best_score:
            best, best_score = w, score
        walk.parts = w.parts
    if best is not None:
        walk.texts += best.texts
        walk.notes += best.notes


def _opens(block: SealedBlock) -> bool:
    try:
        block.open()
        return True
    except SealError:
        return False


# --- the sealed blocks of one message -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FoundBlock:
    """One turn text found in a message: with its seal, as it goes into the inbox; or without one."""

    where: str  # "the body, lines 3-14"
    game: str | None  # the game its header line names (even when the rest of the header is bad)
    header: Header | None  # what the header claims; nothing is checked yet
    data: bytes = b""  # the normalised turn text and its seal: the inbox file (empty: no seal)
    sha256: str = ""
    seal: str = ""  # what the seal says at a first look: "good, key SHA256:..." or the fault
    fingerprint: str = ""  # of the sealing key, when the seal is good
    first_line: str = ""
    quoted: bool = False  # its header line is quoted ('> '): a reply quoting a report or an earlier turn


@dataclass
class MailScan:
    """What one message holds: sealed blocks (each once), unsealed turn texts, parts not read."""

    message_id: str
    sender: str  # the From address, lower case
    subject: str
    date: datetime | None
    blocks: list[FoundBlock] = field(default_factory=list)
    unsealed: list[FoundBlock] = field(default_factory=list)
    repeats: int = 0  # blocks seen twice in this message (a quoted copy, an attachment and the body)
    stray_seals: list[str] = field(default_factory=list)  # why each .sig attachment sealed no turn
    unmatched: list[detached.Unmatched] = field(default_factory=list)  # those in the turn namespace naming a key (ruling 195)
    notes: list[str] = field(default_factory=list)
    refused: str = ""  # why the message was not read at all (beyond a bound of adjudicator.mail.parse)


def scan_message(raw: bytes, *, rejoin_keys: Collection[str] = ()) -> MailScan:
    """Every sealed block of one message (each once), its unsealed turn texts, and what was not read.

    An attachment ``X.sig`` holding a seal seals the attachment ``X`` beside it; one that matches
    no attachment seals the turn text of the message it verifies over, if any (``stray_seals`` says
    why the others sealed nothing, ``unmatched`` which of them are turn seals naming a key). A block
    sealed by a key of ``rejoin_keys`` (fingerprints) whose seal fails is tried again with the lines
    a mail program may have wrapped joined (:func:`adjudicator.seals.wrapping.rejoined`), in at most
    :data:`MAX_REJOINED` blocks a message.

    Never raises for any bytes: the message is parsed within the bounds of :mod:`adjudicator.mail.parse`
    (a message beyond them is ``refused``); a part that cannot be decoded is noted and skipped.
    """
    parsed = parse(raw)
    found = MailScan(parsed.message_id, parsed.sender, parsed.subject, parsed.date, refused=parsed.refused)
    if parsed.root is None:
        return found
    walk = _Walk()
    _collect(parsed.root, walk, top=True)
    found.notes += parsed.notes + walk.notes
    texts, strays = _pair_detached(walk.texts)
    rejoin = Rejoiner(frozenset(rejoin_keys), MAX_REJOINED)
    seen: set[str] = set()
    unsealed: list[tuple[SealedBlock, FoundBlock, TextPart]] = []

    def add(fb: FoundBlock) -> None:
        if fb.sha256 in seen:
            found.repeats += 1
        else:
            seen.add(fb.sha256)
            found.blocks.append(fb)

    for part in texts:
        lines: list[str] | None = None
        for block in scan(part.text).blocks:
            fb = _found(block, part.where, rejoin)
            if fb.data:
                add(fb)
                if part.paired and not fb.fingerprint and "[bad-signature]" in fb.seal:  # X.sig fails over X
                    detached.keep(found.unmatched, detached.unmatched(part.paired, "not-verified", fb.game, fb.seal))
                continue
            lines = lines if lines is not None else split_lines(part.text)
            fb = replace(fb, quoted=lines[block.first_line - 1].startswith(">"))
            unsealed.append((block, fb, part))
    texts_tried = candidates([b for b, _, _ in unsealed]) if strays else []
    sealed_now: set[int] = set()
    for stray in strays[:MAX_STRAYS]:  # a .sig with no attachment of its name: the seal decides which turn it seals
        match = sealed_by(stray, texts_tried)
        if match is None:
            found.stray_seals.append(stray_note(stray, [t.filename for t in walk.texts]))
            own = next((t.text for t in walk.texts if t.filename.casefold() == stray.seals_name.casefold()), None)
            if own is None or not detached.verifies_over(stray, own):  # beside a file sealed already and over it: harmless
                detached.keep(found.unmatched, detached.unmatched(stray, "no-file" if own is None else "not-verified"))
            continue
        texts_tried = [c for c in texts_tried if c.index != match.index]
        sealed_now.add(match.index)
        add(_found(match.block, f"{unsealed[match.index][2].where} with the seal of attachment {stray.name!r}"))
    if strays[MAX_STRAYS:]:
        found.stray_seals.append(untried_note(strays[MAX_STRAYS:]))
    found.unsealed = [fb for i, (_, fb, _) in enumerate(unsealed) if i not in sealed_now]
    return found


MAX_REJOINED = 4  # blocks of one message tried with wrapped lines joined again (each up to 63 seal checks)


def _pair_detached(texts: list[TextPart]) -> tuple[list[TextPart], list[DetachedSeal]]:
    """The texts with each attachment ``X`` followed by the seal of an attachment ``X.sig`` (as
    ``cat X X.sig``), and the ``.sig`` attachments that matched no attachment."""
    seals = {s.name.casefold(): s for t in texts if (s := seal_of(t.filename, t.text)) is not None}
    if not seals:
        return texts, []
    out: list[TextPart] = []
    used: set[str] = set()
    for t in texts:
        if t.filename.casefold() in seals:
            continue
        sig = seals.get(t.filename.casefold() + ".sig") if t.filename else None
        joined = with_seal(t.text, sig) if sig is not None else None
        if sig is not None and joined is not None:
            out.append(TextPart(f"{t.where} with its seal {sig.name!r}", joined, t.filename, sig))
            used.add(sig.name.casefold())
        else:
            out.append(t)
    return out, [s for key, s in seals.items() if key not in used]


def _found(block: SealedBlock, where: str, rejoin: Rejoiner | None = None) -> FoundBlock:
    body = normalise(block.text)
    first = body.split("\n", 1)[0]
    m = _GAME_WORD.match(first)
    try:
        header: Header | None = read_header(first)
    except HeaderError:
        header = None
    at = f"{where}, lines {block.first_line}-{block.last_line}"
    game = header.game if header else (m.group(1) if m else None)
    if isinstance(block.error, NoSeal) or not block.armour:
        return FoundBlock(at, game, header, first_line=first)
    try:
        fp = block.open().key.fingerprint
        verdict = f"seal good, key {fp}"
    except BadSignature as e:
        registered = rejoin is not None and rejoin.registered(block)
        fp, verdict = "", f"seal fails [{e.code}]: {e}{unnormalised_hint(block.text, block.armour) if registered else ''}"
        again = rejoin.attempt(block) if rejoin is not None and registered else None
        if again is not None:  # the seal holds over exactly this text: it is the one taken
            block, joined = again
            fp = block.open().key.fingerprint
            verdict = f"seal good, key {fp}"
            at += f" (line{'s' * (len(joined) > 1)} {', '.join(str(block.first_line + j - 1) for j in joined)} " \
                  "joined to the next: a mail program had wrapped them)"  # fmt: skip
    except SealError as e:
        fp, verdict = "", f"seal fails [{e.code}]: {e}"
    data = block.own_text().encode("utf-8")
    return FoundBlock(at, game, header, data, hashlib.sha256(data).hexdigest(), verdict, fp, first)


def _quoted_note(quoted: list[FoundBlock]) -> str:
    """One note for every quoted turn text without a seal (a quoted report holds its skeleton twice)."""
    spots = [u.where.rpartition(", lines ") for u in quoted]  # ("the body", ", lines ", "12-17")
    where = sorted({part for part, _, _ in spots})
    lines = ", ".join(span.split("-")[0] for _, _, span in spots[:6]) + (", ..." * (len(quoted) > 6))
    return (f"not taken: {len(quoted)} quoted turn text{'s' * (len(quoted) > 1)} with no seal in {', '.join(where)} "
            f"(line{'s' * (len(quoted) > 1)} {lines}): a reply quoting a report's skeleton or an earlier turn")  # fmt: skip


# --- reading a Maildir or an mbox ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Raw:
    label: str
    data: bytes | None
    problem: str = ""
    retry: bool = False  # a transient problem: the message is read again next time
    name: str = ""  # "maildir:<unique name>": known before the bytes are read
    known: bool = False  # read before, by that name: not read again


def _maildir(path: Path, known: Callable[[str], bool]) -> Iterator[_Raw]:
    """Messages in ``new/`` and ``cur/`` (never ``tmp/``, where mail is still being written).

    A message whose unique name is ``known`` is not read at all (its name does not change when a
    mail program moves it from ``new/`` to ``cur/`` or marks it read).
    """
    if not ((path / "new").is_dir() and (path / "cur").is_dir()):
        raise MailError(f"{path} is not a Maildir: it has no new/ and cur/ folders")
    box = std_mailbox.Maildir(str(path), factory=None, create=False)
    try:
        keys = sorted(box.keys())
    except OSError as e:
        raise MailError(f"cannot list {path}: {e.strerror}") from None
    for key in keys:
        name = f"maildir:{key}"
        if known(name):
            yield _Raw(key, None, name=name, known=True)
            continue
        try:
            yield _Raw(key, box.get_bytes(key), name=name)
        except (KeyError, FileNotFoundError):
            yield _Raw(key, None, "vanished while being read (moved or deleted)", retry=True)
        except OSError as e:
            yield _Raw(key, None, f"cannot be read: {e.strerror}")


def _mbox(path: Path, lock_wait: float) -> Iterator[_Raw]:
    """Messages of an mbox, read under a shared lock so that a delivery in progress is not cut."""
    if path.is_dir():
        raise MailError(f"{path} is a folder: give a Maildir with --maildir")
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        raise MailError(f"cannot open {path}: {e.strerror}") from None
    try:
        start = os.read(fd, 5)
        if start and start != b"From ":
            raise MailError(f"{path} is not an mbox: it does not start with a 'From ' line")
        _shared_lock(fd, path, lock_wait)
        box = std_mailbox.mbox(str(path), factory=None, create=False)
        for n, key in enumerate(box.keys(), 1):
            yield _Raw(f"message {n}", box.get_bytes(key))
    finally:
        os.close(fd)  # releases the locks


def _shared_lock(fd: int, path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    for lock in (lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),
                 lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)):  # fmt: skip
        while True:
            try:
                lock()
                break
            except OSError:
                if time.monotonic() >= deadline:
                    raise MailError(f"{path} is locked by another program (mail being delivered?); try again") from None
                time.sleep(0.05)


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
        for o in self.outcomes:
            if o.status != "seen":
                out.append(f"  {o.title()}")
                out += [f"    {line}" for line in o.lines]
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
    gd = GameDir.open(game_dir)
    game = registry.read_game(gd.root)
    source = f"Maildir {maildir}" if maildir is not None else f"mbox {mbox}"
    intake = _Intake(gd, registry.game_id(game), game, now or datetime.now(UTC))
    report = IngestReport(intake.game_id, source)
    with gd.lock(timeout=10):
        intake.seen = _Seen.read(gd.root)
        intake.list_inbox()
        known = intake.seen.raw.__contains__
        messages = _maildir(Path(maildir), known) if maildir is not None else _mbox(Path(mbox or ""), lock_wait)
        try:
            for raw in messages:
                outcome = intake.take(raw)
                report.outcomes.append(outcome)
                report.taken += intake.written
        finally:  # once a run, not once a message; a run killed before it finds its blocks in the inbox again
            if intake.changed:
                intake.seen.save()
    return report


class _Intake:
    """Takes messages into one game's inbox, keeping ``mail-seen.json`` up to date."""

    def __init__(self, gd: GameDir, game_id: str, game: dict[str, Any], now: datetime) -> None:
        self.gd, self.game_id, self.now = gd, game_id, now
        self.inbox = gd.root / "inbox"
        self.emails = {h: str(p.get("email", "")).lower() for h, p in registry.players(game).items()}
        self.key_house = {e.fingerprint: e.house for e in registry.key_entries(game) if not e.revoked}
        self.seen = _Seen(gd.root / SEEN_FILE)
        self.written: list[str] = []
        self.in_inbox: dict[str, str] = {}  # SHA-256 prefix of each block in the inbox -> its file name
        self.changed = False  # mail-seen.json is to be written

    def list_inbox(self) -> None:
        """Note the blocks in the inbox once (a listing per block made ingest quadratic in mail)."""
        try:
            names = os.listdir(self.inbox)
        except OSError:
            names = []
        for name in sorted(names):
            if name.endswith(".txt") and not name.startswith(".") and "-" in name:
                self.in_inbox.setdefault(name[:-4].rsplit("-", 1)[1], name)

    def _seen(self, raw: _Raw, digest: str, key: str, entry: dict[str, Any] | None = None) -> None:
        """Record a message as read: under its key (with ``entry``), its digest and its Maildir name."""
        if entry is not None:
            self.seen.messages[key] = entry
        self.seen.raw[digest] = key
        if raw.name:
            self.seen.raw[raw.name] = key
        self.changed = True

    def take(self, raw: _Raw) -> MessageOutcome:
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
            self._seen(raw, digest, digest, self._entry(found, "refused"))
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
        out.lines += tell_houses(self.gd, self.game_id, self.key_house, found.unmatched, games, key)  # ruling 195
        elsewhere = sorted({str(b.game) for b in found.blocks if b.game != self.game_id})
        if elsewhere:
            out.lines.append(f"left alone: sealed blocks for game {', '.join(elsewhere)}")
        if found.repeats:
            out.lines.append(f"the same turn appears {found.repeats} more time{'s' * (found.repeats > 1)} in this message")
        out.lines += [f"note: {n}" for n in found.notes]
        out.status = "taken" if self.written else ("nothing new" if mine else "ignored")
        if out.status == "ignored":
            out.lines.insert(0, "no sealed block for this game")
        self._seen(raw, digest, key, self._entry(found, out.status))
        return out

    def _entry(self, found: MailScan, status: str) -> dict[str, Any]:
        return {"from": found.sender, "subject": found.subject, "date": found.date.isoformat() if found.date else "",
                "read": self.now.isoformat(timespec="seconds"), "status": status, "took": list(self.written)}  # fmt: skip

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
