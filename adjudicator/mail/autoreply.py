"""Mail that must never be answered (RFC 3834): automatic replies, bounces, mailing lists, Maester's own.

A reply to an automatic mail is how mail loops begin: a vacation responder answering Maester's
answer, a bounce of it, a list handing it back. :func:`automatic` says why a message is one of
those, from its header alone (the header section is bounded by :mod:`adjudicator.mail.parse`):

* a null or daemon envelope sender (``Return-Path: <>``, ``MAILER-DAEMON``, or the mbox
  ``From MAILER-DAEMON ...`` line a local delivery writes first): a bounce;
* ``Auto-Submitted`` with any value but ``no`` (RFC 3834, section 5);
* ``Precedence: bulk``, ``list``, ``junk`` or ``auto_reply``;
* any ``List-*`` header (RFC 2369, RFC 2919): a mailing list's copy;
* the headers vacation programs and Exchange write (``X-Autoreply``, ``X-Autorespond``,
  ``X-Autoresponder``, ``X-Auto-Response-Suppress: All``/``OOF``/``AutoReply``);
* a delivery or read report (``multipart/report``);
* a sender address of a mail system (``mailer-daemon@``, ``postmaster@``, ``no-reply@`` ...);
* Maester's own mail (``X-Maester-Game``, ``X-Loop: maester``), come back.

>>> from email import message_from_bytes
>>> automatic(message_from_bytes(b"From: ned@example.org\\nAuto-Submitted: auto-replied\\n\\nAway.\\n"))
'Auto-Submitted: auto-replied'
>>> automatic(message_from_bytes(b"From: ned@example.org\\nAuto-Submitted: no\\n\\nMy turn.\\n"))
''
"""

from __future__ import annotations

import re
from email.message import Message

__all__ = ["automatic"]

_PRECEDENCE = ("bulk", "list", "junk", "auto_reply", "auto-reply")
_VACATION = ("x-autoreply", "x-autorespond", "x-autoresponder", "x-auto-reply", "x-mail-autoreply")
_SUPPRESS = re.compile(r"\b(all|oof|autoreply)\b", re.IGNORECASE)
_SYSTEM_SENDERS = re.compile(
    r"^(mailer-daemon|postmaster|mail-daemon|listserv|majordomo|no-?reply|do-?not-?reply|bounces?)([+-].*)?@",
    re.IGNORECASE)  # fmt: skip
_COMMENT = re.compile(r"\([^()]*\)")


def _value(text: str) -> str:
    """A header's value without comments, parameters and surrounding blanks, lower case."""
    return " ".join(_COMMENT.sub(" ", text).split(";", 1)[0].split()).lower()


def automatic(msg: Message) -> str:
    """Why ``msg`` must not be answered, in a few words naming the header (``""``: it may be).

    Reads only the message's own header section; never raises.
    """
    try:
        items = [(str(k).strip().lower(), " ".join(str(v).split())) for k, v in msg.raw_items()]
    except Exception:  # a header the library cannot give back as text: treat the mail as not to be answered
        return "a header that cannot be read"
    envelope = str(msg.get_unixfrom() or "").split()  # an mbox "From SENDER DATE" line, as local delivery writes it
    if len(envelope) > 1:
        items.insert(0, ("return-path", envelope[1]))
    for name, value in items:
        if name == "return-path":
            path = _value(value).strip("<> ")
            if not path or _SYSTEM_SENDERS.match(path + "@" if "@" not in path else path):
                return f"Return-Path: {value[:60]} (a bounce)"
        elif name == "auto-submitted" and _value(value) not in ("no", ""):
            return f"Auto-Submitted: {_value(value)[:40]}"
        elif name == "precedence" and _value(value) in _PRECEDENCE:
            return f"Precedence: {_value(value)}"
        elif name.startswith("list-"):
            return f"{name.title()}: a mailing list's mail"
        elif name in _VACATION and _value(value) not in ("no", "false", "0"):
            return f"{name.title()}: an automatic reply"
        elif name == "x-auto-response-suppress" and _SUPPRESS.search(value):
            return f"X-Auto-Response-Suppress: {value[:40]}"
        elif name == "content-type" and _value(value).startswith("multipart/report"):
            return "a delivery or read report (multipart/report)"
        elif name in ("x-maester-game", "x-maester-reply") or (name == "x-loop" and "maester" in value.lower()):
            return f"{name.title()}: Maester's own mail"
        elif name == "from":
            addresses = re.findall(r"[^\s<>\"',;:()]+@[^\s<>\"',;:()]+", value)
            if addresses and _SYSTEM_SENDERS.match(addresses[-1]):
                return f"From: {addresses[-1][:60]} (a mail system)"
    return ""
