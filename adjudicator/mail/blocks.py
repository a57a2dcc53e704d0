"""The sealed blocks of one mail message: each turn text found, with its seal or without one.

:func:`scan_message` parses a message (:mod:`adjudicator.mail.parse`), takes its texts
(:mod:`adjudicator.mail.textparts`), pairs an attachment with its detached ``.sig``
(:mod:`adjudicator.mail.detached`) and finds the blocks (header line … ``END SSH SIGNATURE``)
with :func:`adjudicator.seals.seal.scan`. A first look at each seal is taken; whether a turn
counts is decided later, when the batch run checks it.

>>> from email.message import EmailMessage
>>> m = EmailMessage()
>>> m["From"], m["Subject"] = "Ned <ned@example.org>", "my turn"
>>> m.set_content("hello\\n> game demo · house stark · round 1 · planning · seq 1\\n")
>>> found = scan_message(m.as_bytes())
>>> found.sender, found.subject, [u.game for u in found.unsealed]
('ned@example.org', 'my turn', ['demo'])
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime

from ..seals.seal import BadSignature, NoSeal, SealedBlock, SealError, normalise, scan, unnormalised_hint
from ..seals.wrapping import Rejoiner
from ..turnfile.header import Header, HeaderError, read_header
from ..util.lines import split_lines
from . import detached
from .autoreply import automatic
from .detached import MAX_STRAYS, DetachedSeal, candidates, seal_of, sealed_by, stray_note, untried_note, with_seal
from .parse import parse
from .textparts import TextPart, message_texts

__all__ = ["MAX_REJOINED", "FoundBlock", "MailScan", "scan_message"]

_GAME_WORD = re.compile(r"^\s*game\s+([^\s·|,]+)", re.IGNORECASE)


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
    automatic: str = ""  # why it must never be answered: an automatic reply, a bounce, a list (RFC 3834)


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
    found.automatic = automatic(parsed.root)
    parts, notes = message_texts(parsed.root)
    found.notes += parsed.notes + notes
    texts, strays = _pair_detached(parts)
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
            found.stray_seals.append(stray_note(stray, [t.filename for t in parts]))
            own = next((t.text for t in parts if t.filename.casefold() == stray.seals_name.casefold()), None)
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
