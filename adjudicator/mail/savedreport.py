"""A report mail as a player saved it: which texts to check the moderator's seal over, and the seal.

``maester verify-report FILE`` is given one of three things, and each is read here as it must be:

* ``report-NNNN-HOUSE.txt``: the mail's text saved byte for byte (mails of older Maesters also
  carried it as an attachment of that name);
* the mail's text as a mail program saved it (mutt: ``v``, then ``s`` on the text part): the text,
  decoded; line ends and blanks at line ends do not matter, the seal covers the normalised text;
* the whole mail as saved (an ``.eml`` file, mutt's ``s`` on a message, a web mail's "show
  original"): its text part is found and decoded as a mail program shows it (quoted-printable or
  base64, its character set, ``format=flowed`` undone), and its ``.sig`` attachment is the seal.

A text copied from a mail's raw source can still hold quoted-printable (``=C2=B7``, ``=`` at line
ends): when the text as it is does not verify, it is tried decoded. Every reading is only a
candidate: the answer is good only when the seal verifies over exactly the text read, so no
reading makes a text pass that the moderator did not seal.

>>> saved = read_saved(b"MIME-Version: 1.0\\nContent-Type: text/plain; charset=utf-8\\n"
...                    b"Content-Transfer-Encoding: quoted-printable\\n\\ncaf=C3=A9\\n")
>>> [(c.how, c.text) for c in saved.texts], saved.seal
([('the text of the mail', 'café\\n')], None)
"""

from __future__ import annotations

import binascii
import quopri
import re
from dataclasses import dataclass, field
from email.message import Message

from ..seals.seal import BEGIN, decode
from .parse import info, parse
from .textparts import unflow

__all__ = ["Reading", "SavedReport", "read_saved"]

_HEADER_LINE = re.compile(rb"(From |[!-9;-~]+:)")  # a mail's first line: mbox's From line, or a header field
_MIME = re.compile(rb"^(mime-version|content-type):", re.IGNORECASE | re.MULTILINE)  # a MIME mail says so
_QP = re.compile(r"=(\r?\n|[0-9A-F]{2})")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read the file: the text to check, and how it was read (said in the answer)."""

    how: str
    text: str


@dataclass
class SavedReport:
    texts: list[Reading] = field(default_factory=list)  # the readings to try, the likeliest first
    seal: str | None = None  # the armour of a whole mail's .sig attachment, if it has one
    mail: bool = False  # the file is a whole mail


def read_saved(data: bytes) -> SavedReport:
    """The readings of a saved report file (see the module's doc); a mail is read within the bounds of
    :mod:`adjudicator.mail.parse`.

    :raises BadEncoding: for a file that is neither a mail nor UTF-8 text.
    """
    head = re.split(rb"\r?\n\r?\n", data[:200_000], maxsplit=1)[0]
    if _HEADER_LINE.match(data) and len(head) < len(data) and _MIME.search(head):
        saved = _from_mail(data)
        if saved.mail:
            return saved
    text = decode(data)
    out = SavedReport([Reading("the file", text)])
    if _QP.search(text):
        try:
            decoded = quopri.decodestring(text.replace("\r\n", "\n").encode("utf-8")).decode("utf-8")
        except (UnicodeDecodeError, binascii.Error, ValueError):
            decoded = text
        if decoded != text:
            out.texts.append(Reading("the file read as quoted-printable (copied from a mail's source?)", decoded))
    return out


def _from_mail(data: bytes) -> SavedReport:
    parsed = parse(data)
    out = SavedReport()
    if parsed.root is None:
        return out  # not read as a mail: read as text
    out.mail = True
    body: Message | None = None
    for part in _leaves(parsed.root):
        p = info(part)
        if p.filename.casefold().endswith(".sig") and out.seal is None:
            raw = part.get_payload(decode=True)
            armour = raw.decode("ascii", "replace") if isinstance(raw, bytes) else ""
            if armour.lstrip().startswith(BEGIN):
                out.seal = armour
        elif body is None and p.ctype == "text/plain" and p.disposition != "attachment" and not p.filename:
            body = part
    if body is not None:
        out.texts.append(Reading("the text of the mail", _decoded(body)))
    return out


def _leaves(part: Message) -> list[Message]:
    """The parts that are not containers, in order (nesting is bounded by the parser)."""
    payload = part.get_payload()
    if not part.is_multipart() or not isinstance(payload, list):
        return [part]
    return [leaf for child in payload if isinstance(child, Message) for leaf in _leaves(child)]


def _decoded(part: Message) -> str:
    """A text part as a mail program shows it: transfer encoding and character set undone, flowed lines joined."""
    p = info(part)
    raw = part.get_payload(decode=True)
    data = raw if isinstance(raw, bytes) else b""
    charset = p.params.get("charset", "").strip().lower() or "utf-8"
    try:
        text = data.decode(charset if charset not in ("us-ascii", "ascii") else "utf-8")
    except (LookupError, UnicodeError, ValueError):
        text = data.decode("utf-8", "replace")  # a seal over text read wrongly fails: the answer says so
    if p.params.get("format", "").lower() == "flowed":
        text = unflow(text, delsp=p.params.get("delsp", "").lower() == "yes")
    return text
