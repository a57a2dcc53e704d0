"""The texts of one mail message: its parts decoded, flowed text unflowed, HTML mail read as text.

A turn file reaches us however a mail program sends it: the body, a text attachment,
quoted-printable or base64, ``format=flowed`` (RFC 3676), HTML only. :func:`message_texts` walks
a parsed message (:mod:`adjudicator.mail.parse`) and gives the text of every part a reader could
see, with where it was; a part that cannot be read is a note, never an error.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from email.message import Message
from html.parser import HTMLParser

from ..seals.seal import SealedBlock, SealError, scan
from .detached import DetachedSeal
from .parse import info, raw_size

__all__ = ["MAX_PART_BYTES", "TextPart", "html_to_text", "message_texts", "unflow"]

MAX_PART_BYTES = 5 * 1024 * 1024  # a part bigger than this, as it travels (encoded), is not read
_ZIP_TYPES = {"application/zip", "application/x-zip", "application/x-zip-compressed", "multipart/x-zip"}


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


def message_texts(root: Message) -> tuple[list[TextPart], list[str]]:
    """The text of every readable part of a message, in order, and a note for each part not read."""
    walk = _Walk()
    _collect(root, walk, top=True)
    return walk.texts, walk.notes
