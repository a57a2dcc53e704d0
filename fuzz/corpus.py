"""What the fuzzer feeds Maester: the real files of the checkout, mutated, and turn lines made from the game's own words.

Every input is a pure function of a ``random.Random``: the runner seeds one per input from
(seed, target, index), so any input can be made again from its index alone.

Corpora, read once per process: the sample game's turn files and sealed files, the sample turn
files for every decision, the examples in the docs (```turn and ```toml blocks), and, for the mail,
every message shape of ``tests/mail/shapes.py``. Mutations work on bytes, lines and numbers; the
tokens they insert are those that broke readers before: huge and long numbers, deep brackets,
NUL and control characters, look-alike letters, mail quoting, seal armour lines.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Numbers that sit on or past a bound somewhere: unit counts, bids, ports, rounds, int limits.
NUMBERS = ["0", "1", "2", "3", "4", "9", "10", "11", "20", "99", "100", "255", "256", "1000", "65536",
           "2147483648", "9223372036854775808", "99999999999", "-1", "+1", "00000000000000000002",
           "9" * 300, "9" * 990, "1" * 4301]  # fmt: skip
TOKENS = [
    b"\x00", b"\r", b"\r\n", b"\n\n\n", b"\t", b"\x0b", b"\x1b[2J", b"\xff", b"\xfe\xff", b"\xef\xbb\xbf", b"\xc3",
    "\u00a0".encode(), "\u200b".encode(), "\u202e".encode(), "\u0301".encode(), "\u00b7".encode(), "\u2192".encode(),
    "\u2014".encode(), "\u2019".encode(), "\u0410".encode(), "\u0399".encode(), "\ufeff".encode(), "\U0001f600".encode(),
    b"> ", b">> ", b"> > ", b"#", b":", b"::", b",", b";", b"->", b"*", b"+", b"-", b"|", b"=", b'"', b"'", b"\\",
    b"[", b"]", b"{", b"}", b"[" * 40, b"[" * 600, b"{a=" * 40, b"a." * 40, b"a." * 3000,
    b"-----BEGIN SSH SIGNATURE-----\n", b"-----END SSH SIGNATURE-----\n", b"U1NIU0lH",
    "game g · house stark · round 1 · planning · seq 1\n".encode(),
    b" none", b" and ", b" else ", b" to ", b" in ", b" against ", b" if attacked ", b"muster in ", b"upgrade ",
    b"x" * 1200, b" " * 500, b"nan", b"inf", b"true", b"1e999", b"0x10", b"1_000",
]


# --- the corpora ----------------------------------------------------------------------------------


def _read_all(paths: list[Path]) -> list[bytes]:
    return [p.read_bytes() for p in sorted(paths) if p.is_file()]


def _doc_blocks(kind: str) -> list[bytes]:
    out: list[bytes] = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        out += [m.group(1).encode() for m in re.finditer(rf"```{kind}\n(.*?)```", text, flags=re.S)]
    return out


@cache
def turn_files() -> list[bytes]:
    """Every turn file of the checkout, unsealed and sealed, and the docs' examples."""
    samples = ROOT / "samples"
    files = _read_all(list((samples / "turnfiles").glob("*.txt")) + list((samples / "game" / "turns").rglob("*.txt"))
                      + list((samples / "game" / "sealed").rglob("*.txt")))  # fmt: skip
    return files + _doc_blocks("turn")


@cache
def sealed_files() -> list[bytes]:
    """The sample game's sealed files (demo keys), and the docs' seal examples."""
    return _read_all(list((ROOT / "samples" / "game" / "sealed").rglob("*.txt"))) + _doc_blocks("text")


@cache
def positions() -> list[bytes]:
    """The docs' positions, and every step of the sample game written as a position (with [engine] records)."""
    from adjudicator.game.position_dump import dump_position

    return _doc_blocks("toml") + [dump_position(state).encode() for state in sample_states()]


@cache
def sample_states() -> list:  # type: ignore[type-arg]
    """The state after each step of a few robot games (engine only, no files): varied, mid-phase positions."""
    from adjudicator.robots.simulate import simulate

    states = []
    for players, seed in ((3, 1), (4, 2), (5, 3), (6, 4)):
        simulate(players, seed, rounds=4, text=False, chaos=0.2, on_step=lambda s: states.append(s.copy()))
    return states


@cache
def mail_messages() -> list[bytes]:
    """One message of every shape a mail program sends, each carrying a sealed turn."""
    import sys

    sys.path.insert(0, str(ROOT))
    from tests.mail import shapes

    # The same bytes in every process, so that an input is made again from its index: the MIME
    # boundaries come from the global random source, the message ids from the clock and the pid.
    random.seed(22)
    ids = iter(range(1, 1000))
    shapes.make_msgid = lambda idstring=None, domain=None: f"<{next(ids)}.{idstring}@{domain}>"  # type: ignore[attr-defined]
    sealed = shapes.turn("stark", 1, "Winterfell: defense +1", "White Harbor: march +0")
    other = shapes.turn("lannister", 1, "Lannisport: defense +1")
    out = [
        shapes.plain("stark", sealed), shapes.alternative("stark", sealed), shapes.attachment("stark", sealed),
        shapes.attachment("stark", sealed, octet=True), shapes.quoted_printable("stark", sealed),
        shapes.base64_body("stark", sealed), shapes.flowed("stark", sealed),
        shapes.html_only("stark", sealed), shapes.html_only("stark", sealed, style="outlook"),
        shapes.reply_quoting("stark", sealed, other), shapes.html_reply("stark", sealed),
        shapes.forwarded(shapes.plain("stark", sealed)), shapes.several("stark", [sealed, other]),
        _zipped(sealed), shapes.charset("stark", sealed, "latin-1"), shapes.forged(sealed),
    ]  # fmt: skip
    return out


# --- mutations ------------------------------------------------------------------------------------


def _span(rng: random.Random, n: int) -> tuple[int, int]:
    start = rng.randrange(n + 1)
    return start, min(n, start + rng.choice((1, 2, 4, 8, 16, 64, 256)))


def mutate(data: bytes, rng: random.Random, pool: list[bytes], *, steps: int | None = None) -> bytes:
    """``data`` changed by 1 to 6 random edits: bytes, lines, numbers, tokens, pieces of other inputs."""
    buf = bytearray(data)
    for _ in range(steps if steps is not None else rng.choice((1, 1, 2, 2, 3, 4, 6))):
        n, op = len(buf), rng.randrange(13)
        if op == 0 and n:  # flip a bit
            i = rng.randrange(n)
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1 and n:  # set a byte
            buf[rng.randrange(n)] = rng.choice(b"\x00\x01\n\r\t >#:,;*+-|=[]{}\"'\\\xff\xc2\xb7\x7f09")
        elif op in (2, 3):  # insert a token
            i = rng.randrange(n + 1)
            buf[i:i] = rng.choice(TOKENS)
        elif op == 4 and n:  # delete a piece
            a, b = _span(rng, n)
            del buf[a:b]
        elif op == 5 and n:  # repeat a piece
            a, b = _span(rng, n)
            buf[b:b] = bytes(buf[a:b]) * rng.choice((1, 2, 10, 100, 1000))
        elif op == 6 and pool:  # splice in a piece of another input
            other = rng.choice(pool)
            if other:
                a, b = _span(rng, len(other))
                i = rng.randrange(n + 1)
                buf[i:i] = other[a:b]
        elif op in (7, 8):  # replace a number
            runs = [m.span() for m in re.finditer(rb"\d+", bytes(buf))]
            a, b = rng.choice(runs) if runs else (rng.randrange(n + 1),) * 2
            buf[a:b] = rng.choice(NUMBERS).encode()
        elif op == 9:  # whole lines: drop, double, swap
            lines = bytes(buf).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            choice = rng.randrange(3)
            if choice == 0:
                del lines[i]
            elif choice == 1:
                lines.insert(i, lines[j])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            buf = bytearray(b"\n".join(lines))
        elif op == 10:  # quote, or unquote, every line as a mail reply does
            text = bytes(buf)
            buf = bytearray(re.sub(rb"(?m)^> ?", b"", text) if rng.random() < 0.3 else re.sub(rb"(?m)^", b"> ", text))
        elif op == 11:  # line endings
            buf = bytearray(bytes(buf).replace(b"\n", rng.choice((b"\r\n", b"\r", b"\n\n", b"\x85"))))
        elif op == 12 and n:  # cut short
            del buf[rng.randrange(n):]
    return bytes(buf)


# --- turn lines made from the game's words --------------------------------------------------------


@cache
def _words() -> dict[str, list[str]]:
    from adjudicator.game.board import HOUSES, UNIT_TYPES, Board
    from adjudicator.game.cards import CARDS
    from adjudicator.turnfile.names import display_name

    board = Board.classic()
    return {
        "area": [a.name for a in board.areas.values()],
        "port": [a.name for a in board.areas.values() if a.is_port],
        "house": list(HOUSES),
        "card": [c.name for c in CARDS.house_cards.values()],
        "wildling": [display_name("wildling_card", c) for c in CARDS.wildling_cards],
        "westeros": sorted({display_name("westeros_card", c.id) for c in CARDS.westeros}),
        "unit": [u.replace("_", " ") for u in UNIT_TYPES] + ["footmen", "knights", "ships", "siege engines"],
        "order": ["march -1", "march +0", "march +1", "march+1", "defense +1", "defence +2", "support", "support +1",
                  "raid", "raid*", "consolidate power", "cp*", "special march", "march"],
        "track": ["iron throne", "fiefdoms", "king's court", "kings court", "wildlings"],
    }  # fmt: skip


def _name(rng: random.Random, kind: str) -> str:
    word = rng.choice(_words()[kind])
    roll = rng.random()
    if roll < 0.1 and len(word) > 3:  # a typo
        i = rng.randrange(len(word) - 1)
        word = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    elif roll < 0.15:
        word = word.upper()
    elif roll < 0.2:
        word = word.replace("a", "\u0430").replace("o", "\u03bf")  # Cyrillic a, Greek omicron
    return word


def _num(rng: random.Random) -> str:
    return rng.choice(NUMBERS) if rng.random() < 0.3 else str(rng.randrange(12))


def _units(rng: random.Random) -> str:
    sep = rng.choice((", ", " and ", ","))
    return sep.join(f"{_num(rng) + ' ' if rng.random() < 0.7 else ''}{_name(rng, 'unit')}"
                    for _ in range(rng.choice((1, 1, 2, 3, 40))))  # fmt: skip


_LINES: list[Callable[[random.Random], str]] = [
    lambda r: f"{_name(r, 'area')}: {_name(r, 'order')}",
    lambda r: f"{_name(r, 'area')}: no order",
    lambda r: f"march from {_name(r, 'area')}: {_units(r)} -> {_name(r, 'area')}"
              + (f"; {_units(r)} -> {_name(r, 'area')}" if r.random() < 0.5 else "") + ("; leave power" if r.random() < 0.3 else ""),
    lambda r: f"raid from {_name(r, 'area')} onto {_name(r, 'area')} else " + r.choice(["none", _name(r, "area")]),
    lambda r: f"support {_name(r, 'house')} in {_name(r, 'area')}",
    lambda r: f"support from {_name(r, 'area')}: " + r.choice(["attacker", "defender", "none", _name(r, "house")]),
    lambda r: f"muster in {_name(r, 'area')}: {_units(r)}" + (f", ship to {_name(r, 'area')}" if r.random() < 0.3 else ""),
    lambda r: f"muster in {_name(r, 'area')}: upgrade footman to {_name(r, 'unit')}",
    lambda r: f"consolidate in {_name(r, 'area')}: muster {_units(r)}",
    lambda r: f"{_name(r, 'wildling')}: muster in {_name(r, 'area')}: {_units(r)}",
    lambda r: f"{_name(r, 'wildling')}: destroy {_num(r)} {_name(r, 'unit')} in {_name(r, 'area')}",
    lambda r: f"{_name(r, 'westeros')}: " + r.choice(["muster", "supply", "nothing", "no march +1", "no defense"]),
    lambda r: f"bid {_name(r, 'track')} {_num(r)}",
    lambda r: f"tie-break {_name(r, 'track')}: " + ", ".join(_name(r, "house") for _ in range(r.randrange(1, 8))),
    lambda r: f"play {_name(r, 'card')}",
    lambda r: f"if attacked in {_name(r, 'area')} against {_name(r, 'house')}: play {_name(r, 'card')}",
    lambda r: f"casualties: {_units(r)}",
    lambda r: f"retreat to {_name(r, 'area')} else {_name(r, 'area')}; destroy {_units(r)}",
    lambda r: f"supply: destroy {_num(r)} {_name(r, 'unit')} in {_name(r, 'area')}",
    lambda r: f"{_name(r, 'port')}: take over {_num(r)} ships",
    lambda r: f"{_name(r, 'card')}: " + r.choice(["cancel", "no", f"discard {_name(r, 'card')}", f"remove order in {_name(r, 'area')}",
                                                   f"upgrade footman in {_name(r, 'area')}", _name(r, "track")]),
    lambda r: f"raven: swap {_name(r, 'area')} to {_name(r, 'order')}",
    lambda r: r.choice(["raven: look", "raven: pass", "wildling card: top", "wildling card: bottom", "use blade", "keep blade"]),
]


def turn_lines(rng: random.Random, n: int) -> str:
    """``n`` turn-file lines built from real names, orders and numbers (some misspelt, some huge)."""
    return "\n".join(rng.choice(_LINES)(rng) for _ in range(n)) + "\n"


def _zipped(sealed: str) -> bytes:
    """A turn in a zip attachment, the zip dated once for all (shapes.zipped dates it now)."""
    import io
    import zipfile
    from email.message import EmailMessage

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("turn.txt", date_time=(2026, 3, 1, 18, 0, 0)), sealed)
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "stark@players.example", "moderator@maester.example", "turn zipped"
    m.set_content("Zipped, sorry.\n")
    m.add_attachment(buf.getvalue(), maintype="application", subtype="zip", filename="turn.zip")
    return m.as_bytes()
