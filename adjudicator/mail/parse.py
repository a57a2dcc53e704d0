"""Reading one message a stranger sent, at a cost bounded before anything is parsed.

The standard library's mail parser, with its modern policy, parses a structured header again at
every access (a long ``Content-Type`` costs 23-35 µs a byte, about 12 times a part), decodes
encoded words at a cost quadratic in their number, recurses once per level of MIME nesting, and
lets a hostile charset raise out of the parser. So a message is parsed here with the ``compat32``
policy (headers kept as text, parsed only where this module asks) by a parser that bounds, before
the standard code looks at them:

* each part's header section (:data:`MAX_HEADER_BYTES`), each header this module reads
  (:data:`MAX_FIELD_BYTES`, :data:`MAX_PARAMS`) and the encoded words in it (:data:`MAX_ENCODED_WORDS`);
* the number of parts (:data:`MAX_PARTS`) and their nesting (:data:`MAX_DEPTH`).

A fault in the message's own header refuses the message; a fault in a part cuts that part (its
body is kept as opaque text and not read) and the rest of the message is read. Every header of a
part is read once, into a :class:`PartInfo`; every decoding is guarded.

>>> p = parse(b"From: Ned <ned@example.org>\\nSubject: =?utf-8?q?tour_=C3=A9t=C3=A9?=\\n\\nhello\\n")
>>> p.refused, p.sender, p.subject, info(p.root).ctype
('', 'ned@example.org', 'tour été', 'text/plain')
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.feedparser import BytesFeedParser
from email.header import decode_header
from email.message import Message
from email.utils import collapse_rfc2231_value, parseaddr, parsedate_to_datetime
from typing import Any

__all__ = [
    "MAX_DEPTH", "MAX_ENCODED_WORDS", "MAX_FIELD_BYTES", "MAX_HEADER_BYTES", "MAX_PARAMS", "MAX_PARTS",
    "Parsed", "PartInfo", "info", "parse", "raw_headers", "raw_size",
]  # fmt: skip

MAX_HEADER_BYTES = 128 * 1024  # one part's header section: far above any real one (long Received chains)
MAX_FIELD_BYTES = 4 * 1024  # one header this module reads (From, Subject, Content-Type, ...)
MAX_PARAMS = 32  # parameters of a Content-Type or Content-Disposition
MAX_ENCODED_WORDS = 100  # RFC 2047 encoded words in one part's headers
MAX_PARTS = 1000  # parts of one message, containers included
MAX_DEPTH = 20  # levels of nesting (multipart in multipart, forwarded messages)

_READ = ("from", "subject", "date", "message-id", "content-type", "content-disposition", "content-transfer-encoding")
_STRUCTURED = ("content-type", "content-disposition")
_FOLD = re.compile(r"\r?\n(?=[ \t])")


class _Refused(Exception):
    """The message's own header is beyond a bound: the message is not read."""


class _TooManyParts(Exception):
    """The parser met part :data:`MAX_PARTS` + 1: it stops, keeping the parts read so far."""


class _Part(Message):
    """A message or part as the bounded parser builds it: the header accessors the parser uses never raise."""

    def __init__(self, policy: Any = policy.compat32) -> None:
        super().__init__(policy)
        self.cut = ""  # why this part is not read (a bound it broke); its body is opaque text then

    def get_boundary(self, failobj: Any = None) -> Any:
        try:  # an RFC 2231 boundary in a charset that is no charset (a NUL in its name) raised ValueError
            return super().get_boundary(failobj)
        except (ValueError, LookupError, TypeError, UnicodeError):
            return failobj



class _Parser(BytesFeedParser):
    """The standard feed parser, with the bounds of this module checked where it builds each part.

    It hooks the parser's two per-part steps (``_new_message``, ``_parse_headers``), which the
    standard library has kept since Python 3.2; ``tests/regressions/test_mail_bounds.py`` fails
    at once should they change.
    """

    def __init__(self) -> None:
        super().__init__(_Part, policy=policy.compat32)
        self.parts = 0
        self.first: _Part | None = None
        self.cuts = 0

    def _new_message(self) -> None:
        if self.parts >= MAX_PARTS:
            raise _TooManyParts
        super()._new_message()  # type: ignore[misc]
        self.parts += 1
        if self.first is None:
            self.first = self._cur  # type: ignore[attr-defined]

    def _parse_headers(self, lines: list[str]) -> None:
        depth = len(self._msgstack)  # type: ignore[attr-defined]
        fault = _header_fault(lines) or (f"it is nested {depth} levels deep (the limit is {MAX_DEPTH})"
                                         if depth > MAX_DEPTH else "")  # fmt: skip
        if not fault:
            super()._parse_headers(lines)  # type: ignore[misc]
            return
        if depth == 1:
            raise _Refused(fault)
        cur: _Part = self._cur  # type: ignore[attr-defined]
        cur.cut = fault
        super()._parse_headers(["Content-Type: application/octet-stream\n"])  # type: ignore[misc]  # a leaf
        self.cuts += 1


def _header_fault(lines: list[str]) -> str:
    """What makes a part's header section too costly to read, in one pass over its lines (``""``: nothing)."""
    size = sum(len(line) for line in lines)
    if size > MAX_HEADER_BYTES:
        return f"its header is {size:,} bytes long (the limit is {MAX_HEADER_BYTES:,})"
    words = sum(line.count("=?") for line in lines)
    if words > MAX_ENCODED_WORDS:
        return f"its header holds {words:,} encoded words (the limit is {MAX_ENCODED_WORDS})"
    name, length, params = "", 0, 0
    for line in [*lines, "end:"]:
        if line[:1] in (" ", "\t"):
            length, params = length + len(line), params + line.count(";")
            continue
        if name in _READ and length > MAX_FIELD_BYTES:
            return f"its {name.title()} header is {length:,} bytes long (the limit is {MAX_FIELD_BYTES:,})"
        if name in _STRUCTURED and params > MAX_PARAMS:
            return f"its {name.title()} header has {params:,} parameters (the limit is {MAX_PARAMS})"
        name, length = line.split(":", 1)[0].strip().lower(), len(line)
        params = line.count(";")
    return ""


# --- what this module reads of a part ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartInfo:
    """The headers of one part, each read once: its type, parameters, disposition and file name."""

    ctype: str  # "text/plain": lower case, the RFC 2045 default when missing or malformed
    params: dict[str, str]  # Content-Type parameters (charset, format, delsp, name, ...), lower-case names
    disposition: str  # "attachment", "inline" or ""
    filename: str  # decoded; "" when none
    cut: str = ""  # why the part is not read ("": it is read)

    @property
    def maintype(self) -> str:
        return self.ctype.split("/", 1)[0]


def info(part: Message) -> PartInfo:
    """The :class:`PartInfo` of a part (read at the first call, kept for the next ones)."""
    known = getattr(part, "_maester_info", None)
    if isinstance(known, PartInfo):
        return known
    raw = raw_headers(part)
    value, params = _split_params(raw.get("content-type", ""))
    ctype = value.lower() if re.fullmatch(r"[!#-'*+.0-9A-Z^-~-]+/[!#-'*+.0-9A-Z^-~-]+", value or "x") else ""
    disposition, dparams = _split_params(raw.get("content-disposition", ""))
    name = dparams.get("filename") or params.get("name") or ""
    found = PartInfo(ctype or "text/plain", params, disposition.lower(), decoded(name)[:200],
                     getattr(part, "cut", ""))  # fmt: skip
    part._maester_info = found  # type: ignore[attr-defined]
    return found


def raw_size(part: Message) -> int:
    """The size of a part's body as it travelled (encoded), without decoding it (nor its charset)."""
    payload = part._payload  # type: ignore[attr-defined]  # get_payload() would decode by the charset
    return len(payload) if isinstance(payload, (str, bytes)) else 0


def raw_headers(part: Message) -> dict[str, str]:
    """The first value of each header this module reads, unfolded, 8-bit bytes read as UTF-8."""
    out: dict[str, str] = {}
    for name, value in part.raw_items():
        key = name.strip().lower()
        if key in _READ and key not in out:
            text = _FOLD.sub("", str(value)).strip()
            out[key] = text.encode("ascii", "surrogateescape").decode("utf-8", "replace") if not text.isascii() else text
    return out


def _split_params(value: str) -> tuple[str, dict[str, str]]:
    """``'text/plain; charset="utf-8"'`` as ``('text/plain', {'charset': 'utf-8'})``; RFC 2231 values joined."""
    if not value:
        return "", {}
    carrier = Message(policy.compat32)
    carrier["X"] = value
    params: dict[str, str] = {}
    try:
        for k, v in (carrier.get_params(header="x", failobj=[]) or [])[1:]:  # the first is the value itself
            try:
                text = collapse_rfc2231_value(v) if isinstance(v, tuple) else v
            except (LookupError, ValueError, TypeError, UnicodeError):  # a charset that is no charset
                text = v[2] if isinstance(v, tuple) else ""
            params.setdefault(str(k).strip().lower(), str(text))
    except (ValueError, TypeError, UnicodeError):
        pass
    return value.split(";", 1)[0].strip(), params


def decoded(value: str) -> str:
    """A header's text with its RFC 2047 encoded words decoded; one that will not decode stays as sent."""
    if "=?" not in value:
        return value
    try:
        chunks = decode_header(value)
    except Exception:  # the email package's errors on a malformed word are many
        return value
    out = []
    for chunk, charset in chunks:
        if isinstance(chunk, str):
            out.append(chunk)
            continue
        out.append(_text(chunk, charset or "ascii"))
    return "".join(out)


def _text(data: bytes, charset: str) -> str:
    try:
        codecs.lookup(charset)
        return data.decode(charset)
    except (LookupError, ValueError, TypeError, UnicodeError):  # UnicodeError: idna and others refuse "replace"
        return data.decode("utf-8", "replace")


# --- one message ---------------------------------------------------------------------------------


@dataclass
class Parsed:
    """One message as the bounded parser read it."""

    root: Message | None  # None when the message is refused
    refused: str = ""  # why the message is not read at all
    notes: list[str] = field(default_factory=list)  # bounds met on the way (parts left out)
    sender: str = ""
    subject: str = ""
    date: datetime | None = None
    message_id: str = ""


def parse(raw: bytes) -> Parsed:
    """Parse one message within the bounds of this module; never raises for any bytes."""
    parser = _Parser()
    try:
        parser.feed(raw)
        root: Message = parser.close()
    except _Refused as e:
        return Parsed(None, f"not read: {e}")
    except _TooManyParts:
        if parser.first is None:
            return Parsed(None, "not read: no part could be read")
        root = parser.first
        note = f"the message has more than {MAX_PARTS:,} parts: the parts after part {MAX_PARTS:,} were not read"
        out = Parsed(root, notes=[note])
        return _top(out, root)
    except RecursionError:  # cannot happen with MAX_DEPTH this low; a guard should the parser change
        return Parsed(None, "not read: its parts are nested too deep")
    except Exception as e:  # the parser's faults on hostile bytes: this message only
        return Parsed(None, f"not read: the message cannot be parsed ({type(e).__name__})")
    return _top(Parsed(root), root)


def _top(out: Parsed, root: Message) -> Parsed:
    raw = raw_headers(root)
    out.sender = _sender(" ".join(raw.get("from", "").split()))
    out.subject = " ".join(decoded(raw.get("subject", "")).split())[:300]
    out.date = _date(raw.get("date", ""))
    text = raw.get("message-id", "")
    m = re.search(r"<[^<>\s]+>", text)
    out.message_id = m.group(0)[:300] if m else " ".join(text.split())[:200]
    return out


def _sender(value: str) -> str:
    """The From address, lower case: the last ``<...>`` (a display name may hold anything), else the whole.

    >>> _sender('"Ned <ned@x.org>" Stark <ned@example.org>'), _sender("ned@example.org (Ned)")
    ('ned@example.org', 'ned@example.org')
    """
    bracketed: list[str] = re.findall(r"<([^<>]*)>", value)
    addr: str
    if bracketed:
        addr = bracketed[-1].strip()
    else:
        try:  # the standard parser recurses once per group: a From of a thousand groups exhausts the stack
            addr = str(parseaddr(value[:2000])[1])
        except (RecursionError, ValueError, IndexError):
            addr = ""
    return addr.lower()[:200]


def _date(text: str) -> datetime | None:
    """The date in UTC; an absurd one (year 9999 at a negative offset, 31 February) is no date."""
    if not text:
        return None
    try:
        when = parsedate_to_datetime(" ".join(text.split()))
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return when.astimezone(UTC)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
