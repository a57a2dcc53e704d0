"""Real-world shapes of mail carrying sealed turn files, and a game folder to ingest them into.

Each builder returns the bytes of one message as a mail program would deliver it: plain text,
multipart/alternative, an attachment, quoted-printable, base64, format=flowed, HTML only (in the
ways webmail and desktop programs write it), a reply quoting an earlier turn, a forwarded message.
"""

from __future__ import annotations

import base64
import html
import io
import mailbox
import re
import zipfile
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.folder import registry
from adjudicator.folder.gamedir import create_game
from adjudicator.seals import seal
from adjudicator.seals.keys import KeyPair, PublicKey

GAME = "mailgame"
HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 21] * 32)) for i, h in enumerate(HOUSES)}
EMAILS = {h: f"{h}@players.example" for h in HOUSES}
MODERATOR = KeyPair(Ed25519PrivateKey.from_private_bytes(bytes([77] * 32)),
                    PublicKey.from_key(Ed25519PrivateKey.from_private_bytes(bytes([77] * 32))))
MODERATOR_EMAIL = "moderator@maester.example"
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def make_game(root: Path, *, game_id: str = GAME) -> Path:
    """A 3-player game with each house's key and address registered, made the day before the players'
    mails of :data:`START` (mail dated before a game began is old mail, ruling 325)."""
    create_game(root, houses=HOUSES, game_id=game_id, seed="mail tests")
    made_before_start(root)
    for h in HOUSES:
        registry.register_key(root, h, PublicKey.from_key(KEYS[h]), email=EMAILS[h])
    return root


def made_before_start(root: Path) -> Path:
    """Date a new game's ``[game] created`` the day before :data:`START`, when the players' mails begin."""
    toml = (root / "game.toml").read_text(encoding="utf-8")
    created = (START - timedelta(days=1)).isoformat()
    (root / "game.toml").write_text(re.sub(r'(?m)^created = ".*"$', f'created = "{created}"', toml, count=1),
                                    encoding="utf-8")  # fmt: skip
    return root


def make_reported_game(root: Path) -> Path:
    """:func:`make_game`, the moderator's key and address registered, and step 0000's reports written."""
    from adjudicator.folder import batch

    make_game(root)
    registry.register_key(root, "moderator", MODERATOR.public, email=MODERATOR_EMAIL)
    batch.adjudicate(root)
    return root


def turn(house: str, seq: int, *lines: str, game: str = GAME, key: str | None = None) -> str:
    """A sealed turn: header, the lines, the seal (by ``key``'s house, default the house itself)."""
    text = f"game {game} · house {house} · round 1 · planning · seq {seq}\n" + "".join(f"{x}\n" for x in lines)
    return seal.sign(text, KEYS[key or house])


def inbox_text(sealed: str) -> bytes:
    """What the inbox file of a sealed turn holds: the normalised text and its seal."""
    return seal.normalise(sealed).encode("utf-8")


def _base(house_or_addr: str, subject: str, n: int, *, msgid: bool = True) -> EmailMessage:
    m = EmailMessage(policy=policy.default)
    sender = EMAILS.get(house_or_addr, house_or_addr)
    m["From"] = f"{house_or_addr.title()} Player <{sender}>"
    m["To"] = "Moderator <moderator@maester.example>"
    m["Subject"] = subject
    m["Date"] = format_datetime(START + timedelta(minutes=n))
    if msgid:
        m["Message-ID"] = make_msgid(idstring=f"shape{n}", domain="players.example")
    return m


# --- the shapes ---------------------------------------------------------------------------------


def plain(house: str, sealed: str, n: int = 1, *, before: str = "Here is my turn.\n\n", after: str = "\n-- \nNed\n",
          msgid: bool = True) -> bytes:  # fmt: skip
    m = _base(house, "my turn", n, msgid=msgid)
    m.set_content(before + sealed + after)
    return m.as_bytes()


def alternative(house: str, sealed: str, n: int = 2) -> bytes:
    """multipart/alternative: the text, and the same as HTML (as most mail programs send)."""
    m = _base(house, "turn (plain and html)", n)
    m.set_content("My orders:\n\n" + sealed)
    m.add_alternative(gmail_html("My orders:\n\n" + sealed), subtype="html")
    return m.as_bytes()


def attachment(house: str, sealed: str, n: int = 3, *, octet: bool = False) -> bytes:
    """The sealed file attached, as text/plain or as application/octet-stream."""
    m = _base(house, "turn attached", n)
    m.set_content("The sealed file is attached.\n")
    if octet:
        m.add_attachment(sealed.encode(), maintype="application", subtype="octet-stream", filename="turn.txt.sealed")
    else:
        m.add_attachment(sealed, subtype="plain", filename="turn.txt")
    return m.as_bytes()


def quoted_printable(house: str, sealed: str, n: int = 4) -> bytes:
    """Quoted-printable, with a line long enough to get soft line breaks."""
    m = _base(house, "turn (qp)", n)
    m.set_content("Voilà, mes ordres — " + "x" * 100 + "\n\n" + sealed, cte="quoted-printable")
    return m.as_bytes()


def base64_body(house: str, sealed: str, n: int = 5) -> bytes:
    m = _base(house, "turn (base64)", n)
    m.set_content("Orders below.\r\n\r\n" + sealed.replace("\n", "\r\n"), cte="base64")
    return m.as_bytes()


def flow(text: str, width: int, *, delsp: bool) -> str:
    """Wrap ``text`` as format=flowed does (RFC 3676), with space-stuffing."""
    out: list[str] = []
    for line in text.split("\n"):
        if delsp:  # break anywhere; the added space goes away when unwrapped
            chunks = [line[i : i + width] for i in range(0, len(line), width)] or [""]
            phys = [c + " " for c in chunks[:-1]] + [chunks[-1]]
        else:  # break only after a space, which stays
            phys, cur = [], ""
            for word in re.findall(r"\S+\s*", line) or [""]:
                if cur and len(cur) + len(word.rstrip()) > width:
                    phys.append(cur)
                    cur = ""
                cur += word
            phys.append(cur)
        out += [" " + p if p.startswith((" ", ">", "From ")) else p for p in phys]
    return "\r\n".join(out)


def flowed(house: str, sealed: str, n: int = 6, *, delsp: bool = True, width: int = 30) -> bytes:
    m = _base(house, f"turn (flowed, delsp={'yes' if delsp else 'no'})", n)
    params = {"format": "flowed", **({"delsp": "yes"} if delsp else {})}
    m.set_content(flow("A turn with a long line in it to be wrapped by my mail program.\n\n" + sealed, width, delsp=delsp),
                  params=params, cte="quoted-printable")  # fmt: skip
    return m.as_bytes()


def gmail_html(text: str) -> str:
    """HTML as webmail writes a pasted text: one <div> per line, <br> for blank ones, &nbsp; for runs of spaces."""
    rows = []
    for line in text.split("\n"):
        esc = html.escape(line).replace("  ", "&nbsp; ")
        rows.append(f"<div>{esc}</div>" if line else "<div><br></div>")
    return '<div dir="ltr">\n' + "\n".join(rows) + "\n</div>\n"


def outlook_html(text: str) -> str:
    """HTML as a desktop program writes it: a <p class=MsoNormal> per line, styles in <head>."""
    rows = [f"<p class=MsoNormal>{html.escape(line).replace('  ', ' &nbsp;') or '&nbsp;'}<o:p></o:p></p>"
            for line in text.split("\n")]
    return ("<html><head><style>p.MsoNormal {margin:0cm;} game over</style><title>game x</title></head>\n"
            "<body lang=EN-GB>\n<div class=WordSection1>\n" + "\n".join(rows) + "\n</div></body></html>\n")  # fmt: skip


def html_only(house: str, sealed: str, n: int = 7, *, style: str = "gmail") -> bytes:
    m = _base(house, f"turn (html only, {style})", n)
    body = (gmail_html if style == "gmail" else outlook_html)("Orders &amp; all:\n\n" + sealed)
    m.set_content(body, subtype="html", cte="quoted-printable")
    return m.as_bytes()


def reply_quoting(house: str, earlier: str, new: str | None, n: int = 8, *, depth: int = 1) -> bytes:
    """A reply: the new turn (if any) on top, the earlier mail quoted below with ``> ``."""
    m = _base(house, "Re: my turn", n)
    m["In-Reply-To"] = "<earlier@players.example>"
    quoted = "\n".join(("> " * depth + line).rstrip() for line in ("Here is my turn.\n\n" + earlier).split("\n"))
    m.set_content((new + "\n" if new else "Resending, see below.\n\n") + "On 1 March, you wrote:\n" + quoted + "\n")
    return m.as_bytes()


def html_reply(house: str, earlier: str, n: int = 9) -> bytes:
    """An HTML reply quoting an earlier turn in a <blockquote>."""
    m = _base(house, "Re: turn", n)
    m.set_content("<div>Did this arrive?</div><blockquote class=\"gmail_quote\">" + gmail_html(earlier)
                  + "</blockquote>", subtype="html")  # fmt: skip
    return m.as_bytes()


def forwarded(inner: bytes, n: int = 10) -> bytes:
    """A message forwarded as an attachment (message/rfc822)."""
    from email import message_from_bytes

    m = _base("moderator@maester.example", "Fwd: my turn", n)
    m.set_content("Forwarding a turn that reached me.\n")
    m.add_attachment(message_from_bytes(inner, policy=policy.default))
    return m.as_bytes()


def several(house: str, sealed: list[str], n: int = 11) -> bytes:
    m = _base(house, "several turns", n)
    m.set_content("\n\nand\n\n".join(sealed))
    return m.as_bytes()


def zipped(house: str, sealed: str, n: int = 12) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("turn.txt", sealed)
    m = _base(house, "turn zipped", n)
    m.set_content("Zipped, sorry.\n")
    m.add_attachment(buf.getvalue(), maintype="application", subtype="zip", filename="turn.zip")
    return m.as_bytes()


def huge(house: str, sealed_in_body: str, sealed_in_attachment: str, mb: int = 25, n: int = 13) -> bytes:
    """A body with one turn, and a ``mb`` MB text attachment holding another (built fast, by hand)."""
    filler = (sealed_in_attachment + "\n" + "x" * 76 + "\n" * 1).encode()
    blob = filler * (mb * 2**20 // len(filler) + 1)
    b64 = base64.encodebytes(blob)
    head = _base(house, "turn and a big file", n)
    fields = "".join(f"{k}: {v}\n" for k, v in head.items()).encode()
    out = fields + b'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BOUNDARY"\n\n'
    out += b"--BOUNDARY\nContent-Type: text/plain; charset=utf-8\n"
    out += b"Content-Transfer-Encoding: 8bit\n\n" + sealed_in_body.encode() + b"\n--BOUNDARY\n"
    out += b'Content-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename="big.txt"\n'
    out += b"Content-Transfer-Encoding: base64\n\n" + b64 + b"--BOUNDARY--\n"
    return out


def charset(house: str, sealed: str, name: str, n: int = 14, *, data: bytes | None = None) -> bytes:
    """A text part declaring the character set ``name`` over ``data`` (default: the turn in UTF-8)."""
    m = _base(house, f"turn in {name}", n)
    m.set_content("placeholder")
    payload = data if data is not None else sealed.encode("utf-8")
    raw = m.as_bytes().split(b"\n\n", 1)[0]
    raw = re.sub(rb"Content-Type: [^\n]*", f'Content-Type: text/plain; charset="{name}"'.encode(), raw)
    raw = re.sub(rb"Content-Transfer-Encoding: [^\n]*", b"Content-Transfer-Encoding: 8bit", raw)
    return raw + b"\n\n" + payload


def forged(sealed: str, n: int = 15) -> bytes:
    """Someone else's address in From, with a house's sealed turn."""
    return plain("mallory@evil.example", sealed, n)


# --- mailboxes ----------------------------------------------------------------------------------


def maildir(path: Path, messages: list[bytes], *, cur: int = 0) -> Path:
    """A Maildir with the messages in new/ (the first ``cur`` of them in cur/, read already)."""
    box = mailbox.Maildir(str(path), create=True)
    for i, raw in enumerate(messages):
        key = box.add(raw)  # the bytes as delivered
        # Python's names carry the microsecond unpadded (M8096 sorts after M24872), and a Maildir is
        # read in the order of its names: a leading number keeps the messages in the order given.
        name = f"{i:06d}.{key}"
        (path / "new" / key).rename(path / ("cur" if i < cur else "new") / (f"{name}:2,S" if i < cur else name))
    box.close()
    return path


def mbox(path: Path, messages: list[bytes]) -> Path:
    box = mailbox.mbox(str(path), create=True)
    for raw in messages:
        box.add(raw)
    box.flush()
    box.close()
    return path
