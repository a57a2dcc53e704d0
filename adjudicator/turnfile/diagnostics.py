"""What can be wrong with a turn file, and how it is told: error classes, stable codes, carets.

Problems are collected, never raised at the player: a :class:`TurnFileError` is a value in a
list (like a parse error in a chess game's ``errors``). Each one knows its file, line and column,
the line itself, what was expected in words, a suggestion, and a stable code such as ``E101``.

This module also reads the raw input (:func:`read_source`): size limits, encodings, NUL bytes,
control characters, look-alike characters, quoted-printable leftovers, mail quoting, seals and
comments are dealt with here, before any line is parsed.

>>> e = InvalidLine("E101", "unknown area 'Winterfel'", where=Where("stark.txt", 3, 1),
...                 line_text="Winterfel: march +1", end_column=10, suggestion="did you mean 'Winterfell'?")
>>> print(e)
stark.txt:3:1: E101 unknown area 'Winterfel'
>>> print(e.render())
stark.txt:3:1: error E101: unknown area 'Winterfel'
    Winterfel: march +1
    ^~~~~~~~~
    hint: did you mean 'Winterfell'?
"""

from __future__ import annotations

import quopri
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..game.commands import Where
from ..util.lines import split_lines
from ..util.suggest import close_matches
from .header import is_header_line
from .names import lookup

MAX_FILE_BYTES = 1_000_000  # a turn is a few kilobytes; anything this big is a mistake
MAX_LINE_CHARS = 1_000  # the longest real line (a march in four directions) is under 200
MAX_PROBLEMS = 100  # after this many, a file is junk: say so once and stop

# Stable codes: tests, docs and players refer to them. Never renumber; retire and add.
CODES: dict[str, str] = {
    # the file as a whole
    "E001": "file too large",
    "E002": "line too long",
    "E003": "not a text file",
    "E004": "control character",
    "E005": "too many problems",
    # names
    "E101": "unknown area",
    "E102": "unknown house",
    "E103": "unknown house card",
    "E104": "unknown card",
    "E106": "unknown unit type",
    "E107": "unknown track",
    "E108": "unknown order",
    "E110": "ambiguous name",
    "E111": "ambiguous order",
    # the shape of a line
    "E201": "line not understood",
    "E202": "unexpected character",
    "E203": "line ends too early",
    "E204": "unknown command word",
    "E205": "number out of range",
    "E206": "not a choice of this card",
    "E207": "card has no choice",
    "E208": "condition not allowed here",
    "E209": "wrong kind of name",
    "E210": "a line that cannot stand from round to round",
    # the header
    "E301": "malformed header",
    "E302": "second header",
    "E303": "header not first",
    "E304": "header for another game",
    "E305": "header for another house",
    "E306": "header for another step",
    "E307": "missing header",
    "E308": "sequence number already used",
    # legality against the game (maester check)
    "E401": "no units there",
    "E404": "too many special orders",
    "E405": "order token already used",
    "E406": "order banned this round",
    "E407": "not enough power",
    "E408": "card not in hand",
    "E409": "not yours",
    "E410": "wrong phase",
    "E411": "no such order there",
    "E412": "not allowed there",
    "E413": "not enough units",
    "E420": "answer refused by the rules",
    # internal
    "E900": "internal error",
}

WARNING_CODES: dict[str, str] = {
    "W101": "name read as a close match",
    "W201": "mail quoting removed",
    "W202": "quoted-printable decoded",
    "W203": "quoted line ignored",
    "W204": "text after the turn ignored",
    "W205": "line replaced by a later one",
    "W206": "not UTF-8",
    "W207": "earlier answers replaced",
    "W208": "a later line is used first",
    "W209": "a line a mail program may wrap",
    "W301": "no header",
    "W302": "for a step not open yet",
    "W401": "may be refused when it resolves",
    "W901": "engine unavailable",
    "W902": "checked against a published state",
    "W903": "an old published state",
}
# Notices about the check as a whole, true of every file checked that way: said once, after the result,
# so that a warning always means something about this file (issue 27: W902 on every offline check).
FOOTNOTES = frozenset({"W902"})


class TurnFileError(ValueError):
    """A problem with one line of a turn file (or with the whole file, at line 0).

    Subclasses say what kind: :class:`InvalidLine` (not understood), :class:`IllegalOrder`
    (understood, not allowed now), :class:`AmbiguousName` (several names fit).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        where: Where,
        line_text: str = "",
        end_column: int | None = None,
        expected: tuple[str, ...] = (),
        suggestion: str = "",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where
        self.line_text = line_text
        self.end_column = end_column
        self.expected = expected
        self.suggestion = suggestion

    def __str__(self) -> str:
        return f"{place(self.where)}: {self.code} {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, where={self.where})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))

    def render(self, severity: str = "error") -> str:
        """The problem with the line and a caret under the place, for a terminal or a mail."""
        return render(self.where, self.code, self.message, self.line_text, self.end_column, self.suggestion, severity)

    def to_dict(self) -> dict[str, object]:
        """A JSON/TOML-ready form for reports."""
        return {
            "class": type(self).__name__, "code": self.code, "message": self.message,
            "file": self.where.file, "line": self.where.line, "column": self.where.column,
            "text": self.line_text, "expected": list(self.expected), "suggestion": self.suggestion,
        }


class InvalidLine(TurnFileError):
    """A line that is not understood: bad syntax, an unknown name, an impossible number."""


class IllegalOrder(TurnFileError):
    """A line that is understood but not allowed now, with the rule's reason."""


class AmbiguousName(TurnFileError):
    """A name that fits several areas, cards or houses; the message lists them."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A warning: something was read generously or ignored, and the player should know."""

    code: str
    message: str
    where: Where
    line_text: str = ""

    def __str__(self) -> str:
        return f"{place(self.where)}: {self.code} {self.message}"

    def render(self) -> str:
        return render(self.where, self.code, self.message, self.line_text, None, "", "warning")


def place(where: Where) -> str:
    """``stark.txt:4:13``; just ``stark.txt`` for what concerns the whole file (line 0).

    >>> place(Where("stark.txt", 0)), place(Where("stark.txt", 4, 13))
    ('stark.txt', 'stark.txt:4:13')
    """
    return where.file if where.line <= 0 else str(where)


def render(
    where: Where, code: str, message: str, line_text: str, end_column: int | None, suggestion: str, severity: str
) -> str:
    """``file:line:col: error CODE: message``, the line, a caret, and a hint."""
    out = [f"{place(where)}: {severity} {code}: {message}"]
    if line_text:
        shown = line_text.replace("\t", " ")
        col = max(1, min(where.column, len(shown) + 1))
        width = max(1, (end_column or col + 1) - col)
        out.append("    " + shown)
        out.append("    " + " " * (col - 1) + "^" + "~" * (width - 1))
    if suggestion:
        out.append(f"    hint: {suggestion}")
    return "\n".join(out)


def words_for_expected(names: Iterable[str], describe: dict[str, str]) -> tuple[str, ...]:
    """Lark's expected terminal names as words a player understands, sorted, no duplicates.

    Unknown names fall back to a readable form of the terminal name, never ``__ANON``.
    """
    out: set[str] = set()
    for n in names:
        text = describe.get(n)
        if text is None:
            text = "'" + n.strip("_").lower().replace("_", " ") + "'" if not n.startswith("__") else "something else"
        out.add(text)
    return tuple(sorted(out, key=lambda w: (not w.startswith("'"), w)))


def join_expected(words: tuple[str, ...], limit: int = 8) -> str:
    """``':' or '->'``; long lists are cut with 'or another word'."""
    if not words:
        return "nothing more"
    shown = list(words[:limit])
    if len(words) > limit:
        shown.append("…")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


# --- syntax errors in words ----------------------------------------------------------------

# First words of the lines that do not start with a name (for "did you mean 'march'?").
COMMAND_WORDS: tuple[str, ...] = (
    "raven", "wildling", "raid", "march", "support", "refuse", "play", "use", "keep", "casualties",
    "retreat", "bid", "tie-break", "muster", "consolidate", "supply", "if", "against",
)


# The form of each kind of line, shown with a syntax error in it (docs/turn-files.md has them all).
LINE_FORMS: dict[str, str] = {
    "raven": "raven: swap AREA to ORDER | raven: look | raven: pass",
    "wildling": "wildling card: top | wildling card: bottom | wildling card: bottom if CARD, CARD",
    "raid": "raid from AREA onto AREA else none | raid from AREA: none",
    "march": "march from AREA: UNITS -> AREA; UNITS -> AREA; leave power | march from AREA: stay",
    "support": "support HOUSE (or attacker, defender, none) in AREA | support from AREA: HOUSE",
    "refuse": "refuse support from HOUSE",
    "play": "play CARD",
    "use": "use blade",
    "keep": "keep blade",
    "casualties": "casualties: UNITS",
    "retreat": "retreat to AREA else AREA; destroy UNITS",
    "bid": "bid TRACK NUMBER",
    "tie-break": "tie-break TRACK: HOUSE, HOUSE, ...",
    "muster": "muster in AREA: UNIT, ship to AREA, upgrade footman to knight | muster in AREA: none",
    "consolidate": "consolidate in AREA | consolidate in AREA: muster UNITS",
    "supply": "supply: destroy UNIT in AREA, UNIT in AREA",
    "if": "if attacked in AREA: ANSWER | if attacking AREA: ANSWER | if fighting in AREA: ANSWER",
    "against": "against HOUSE: ANSWER",
}
HEAD_FORM = "AREA: ORDER | CARD: CHOICE"


def syntax_problem(e: UnexpectedInput, text: str, words: dict[str, str]) -> tuple[Any, ...]:
    """A Lark syntax error as a problem tuple: the place, what was found, what was expected in words."""
    start = len(text) - len(text.lstrip()) + 1
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        expected = words_for_expected(e.expected, words)
        err = ("E203", "the line ends too early; expected " + join_expected(expected), len(text) + 1, len(text) + 2, expected)
    elif isinstance(e, UnexpectedCharacters):
        expected = words_for_expected(e.allowed or (), words)
        err = ("E202", f"unexpected character {text[e.column - 1]!r}; expected " + join_expected(expected),
               e.column, e.column + 1, expected)
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        shown = f"word {str(tok)!r}" if tok.type == "WORD" else f"number {tok}" if tok.type == "INT" else repr(str(tok))
        if tok.column == start:
            expected = ("a command word (" + ", ".join(COMMAND_WORDS) + ")", "a name followed by ':'")
        else:
            expected = words_for_expected(e.expected, words)
        err = ("E201", f"unexpected {shown}; expected " + join_expected(expected), tok.column, tok.end_column, expected)
    else:
        err = ("E201", "the line is not understood", start, start + 1, ())
    code, message, col, end, expected = err
    first = text.split()[0].lower().rstrip(":") if text.split() else ""
    hint = "the line reads: " + LINE_FORMS.get("tie-break" if first in ("tie", "tiebreak") else first, HEAD_FORM)
    return (InvalidLine, code, message, col or start, end or (col or start) + 1, hint, expected)


def command_word_hint(text: str) -> tuple[Any, ...] | None:
    """'marhc from Winterfell: ...' -> unknown command word 'marhc'; did you mean 'march'?"""
    first = text.split()[0].rstrip(":").lower() if text.split() else ""
    if not first.isalpha() or first in COMMAND_WORDS or first in ("game", "tie"):
        return None
    if lookup("area", first).id or lookup("area", first).candidates or lookup("card", first).id or lookup("card", first).candidates:
        return None
    close = close_matches(first, COMMAND_WORDS, n=1, cutoff=0.75)
    if not close:
        return None
    col = len(text) - len(text.lstrip()) + 1
    return (InvalidLine, "E204", f"unknown command word {first!r}; did you mean {close[0]!r}?", col, col + len(first),
            f"did you mean {close[0]!r}?", ())



# --- the header ---------------------------------------------------------------------------------

_HEADER_KEYS = ("game", "house", "round", "step", "seq")
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"))}  # fmt: skip
_HEADER_PARTS = re.compile(r"\s*[·|,]\s*")
_HEADER_COLON = re.compile(r"^\s*game\s*:", re.IGNORECASE)
_MAYBE_HEADER = re.compile(r"\s*game", re.IGNORECASE)  # what both header forms start with: one test for most lines


def looks_like_header(line: str) -> bool:
    """A header as players mistype it: ``Game: winter · House: Stark · ...`` (keywords with colons)."""
    return bool(_HEADER_COLON.match(line)) and "house" in line.lower()


def header_hint(line: str) -> str:
    """What is wrong with a malformed header line and, when it can be told, the line to write.

    >>> header_hint("Game: winter · House: Stark · Round: three · Westeros Phase · Seq: 2")
    "write 'game winter · house stark · round 3 · westeros · seq 2'"
    >>> header_hint("game winter · house stark · round 3 · westeros")
    "the header has no 'seq N' (your file's number for this step: 1, then 2...); it reads 'game ID · house H · round N · STEP · seq N'"
    """
    from .header import STEPS, HeaderError, format_header, read_header

    parts = [p for p in _HEADER_PARTS.split(line.strip()) if p]
    mended = []
    for part in parts:
        words = part.replace(":", " ").split()
        if not words:
            continue
        key = words[0].lower()
        if key == "sequence":
            key = "seq"
        if key in ("round", "seq") and len(words) > 1:
            words[1] = _NUMBER_WORDS.get(words[1].lower(), words[1])
        if key not in _HEADER_KEYS and key in STEPS:  # "Westeros Phase", "planning step"
            words = [key]
        mended.append(" ".join([key, *words[1:]] if key in _HEADER_KEYS else words))
    try:
        fixed = read_header(" · ".join(mended))
    except HeaderError:
        pass
    else:
        return f"write '{format_header(fixed)}'"
    given = {m.split()[0] for m in mended if m.split()}
    missing = [k for k in ("game", "house", "round", "seq") if k not in given]
    form = "it reads 'game ID · house H · round N · STEP · seq N'"
    if len(parts) == 1 and len(line.split()) > 2:
        return f"separate the five parts with '·', '|' or ','; {form}"
    if missing == ["seq"]:
        return f"the header has no 'seq N' (your file's number for this step: 1, then 2...); {form}"
    if missing:
        return f"the header has no {', '.join(repr(k + ' ...') for k in missing)}; {form}"
    if not any(m.lower() in STEPS for m in mended):
        return f"the step is one of {', '.join(STEPS)}; {form}"
    return form


# --- reading the raw input -------------------------------------------------------------------

# Characters that look like the ones the language uses, and what they stand for.
_LOOKALIKES = str.maketrans({
    **dict.fromkeys("‐‑‒–—―−﹘﹣－", "-"),
    **dict.fromkeys("→⟶➔➜➡⮕⇒⟹", "->"),
    **dict.fromkeys("‘’‚‛′´`", "'"),
    **dict.fromkeys("“”„″", '"'),
    **dict.fromkeys("∗⁎✱✲٭", "*"),
    **dict.fromkeys("•∙⋅・", "·"),
    **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\xad", ""),
    "\t": " ",
})
_LOOKALIKE = re.compile("[" + re.escape("".join(chr(c) for c in _LOOKALIKES)) + "]")
_QP = re.compile(r"=(?:[0-9A-F]{2}|\r?\n)")
_QUOTED = re.compile(r"^[ ]*>[ ]?")
_ARMOUR_BEGIN = "-----BEGIN SSH SIGNATURE-----"
_ARMOUR_END = "-----END SSH SIGNATURE-----"
_CONTINUES = (",", ";", ":", "->")
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # Cc and Cs, but \t \n \r \f
_NOT_CONTROL_BYTES = bytes(b for b in range(256) if not _CONTROL.match(chr(b)))
# ... and no form feed inside a line, nor U+2028/U+2029: a line ends only at CR or LF (adjudicator.util.lines)
_LINE_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One logical line: where it starts in the file and its cleaned text."""

    number: int
    text: str


@dataclass
class Source:
    """A turn file after cleaning: the lines to parse, the header lines, what went wrong."""

    filename: str
    lines: list[SourceLine] = field(default_factory=list)
    headers: list[SourceLine] = field(default_factory=list)
    problems: list[TurnFileError] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


def clean_line(text: str) -> str:
    """NFKC, look-alike dashes, arrows, quotes and stars mapped, double quotes dropped, tabs to spaces.

    >>> clean_line("Winterfell:\u00a0march\u2009+1\t")
    'Winterfell: march +1'
    >>> clean_line("march from KL: footman \u2192 Blackwater")
    'march from KL: footman -> Blackwater'
    >>> clean_line('raid from "Golden Sound" onto \u201cIronman\u2019s Bay\u201d')
    "raid from Golden Sound onto Ironman's Bay"
    """
    if not text.isascii() and not text.replace("·", "").isascii():  # the header's '·' is left as it is
        text = unicodedata.normalize("NFKC", text)
        if _LOOKALIKE.search(text):  # translate() looks every character up: ten times the search
            text = text.translate(_LOOKALIKES)
    elif "\t" in text or "`" in text:  # the table's only ASCII characters: most lines need no translation
        text = text.translate(_LOOKALIKES)
    return text.replace("=>", "->").replace('"', "").rstrip()


def read_source(data: str | bytes, filename: str = "<turn>") -> Source:
    """Clean a turn file and cut it into logical lines; never raises.

    A line ending in a backslash continues on the next line, and so does a line ending in ``,``
    ``;`` ``:`` or ``->`` when the next line is indented.
    """
    src = Source(filename)
    text = _decode(data, src)
    if text is None:
        return src
    turn, armour, seal = text.partition(_ARMOUR_BEGIN)  # a seal's base64 ends in '=': not quoted-printable
    if _QP.search(turn):
        turn = quopri.decodestring(turn.encode("utf-8", "surrogatepass")).decode("utf-8", "replace")
        text = turn + armour + seal
        src.notices.append(Notice("W202", "quoted-printable codes (=20, =3D, soft breaks) were decoded", Where(filename, 0)))
    raw = _unquote(_clean_lines(text), src)
    pending: list[tuple[int, str]] = []
    in_armour = after = False
    for number, line in enumerate(raw, 1):
        if line is None:  # quoted text in a partly quoted mail
            continue
        if in_armour or after or "--" in line:  # else it is neither the seal's armour nor the signature line
            stripped = line.strip()
            if stripped == _ARMOUR_BEGIN:
                in_armour = True
                continue
            if in_armour:
                in_armour = stripped != _ARMOUR_END
                after = not in_armour
                continue
            if after or stripped == "--":
                if stripped and stripped != "--":
                    src.notices.append(Notice("W204", "text after the seal or signature line was ignored", Where(filename, number)))
                    break
                after = True
                continue
        body = line.split("#", 1)[0].rstrip()
        if not body:  # blank, or a comment (rstrip leaves nothing of a line of blanks)
            continue
        if _MAYBE_HEADER.match(body) and (is_header_line(body) or looks_like_header(body)):
            src.headers.append(SourceLine(number, body))
            continue
        if pending and _joins(pending[-1][1], line):
            start, prev = pending.pop()
            pending.append((start, prev.rstrip("\\").rstrip() + " " + body.strip()))
        else:
            pending.append((number, body))
    for number, body in pending:
        # An ASCII line here holds no tab or line break, so printable means no control character at all.
        if len(body) <= MAX_LINE_CHARS and body.isascii() and body.isprintable():
            src.lines.append(SourceLine(number, body))
        else:
            _admit(SourceLine(number, body), src)
    return src


def _clean_lines(text: str) -> list[str]:
    """``clean_line`` of each line of ``text``: an ASCII line without a tab, backquote, double quote
    or ``=>`` needs only its end stripped, so when the text has none of those four, only its other
    lines (the header's '·', a player's accents) go through ``clean_line``."""
    lines = split_lines(text)
    if "\t" in text or "`" in text or '"' in text or "=>" in text:
        return [clean_line(t) for t in lines]
    return [t.rstrip() if t.isascii() else clean_line(t) for t in lines]


def _decode(data: str | bytes, src: Source) -> str | None:
    # a character is at most 4 bytes of UTF-8: most texts need not be encoded to be measured
    if isinstance(data, bytes) or len(data) <= MAX_FILE_BYTES // 4:
        size = len(data)
    else:
        size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        src.problems.append(InvalidLine(
            "E001", f"the file is {size:,} bytes; a turn file may be at most {MAX_FILE_BYTES:,} bytes", where=Where(src.filename, 0),
            suggestion="send only the turn itself, as plain text"))
        return None
    if isinstance(data, bytes):
        for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
            if data.startswith(bom):
                text = data.decode(codec, "replace")
                break
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                try:  # Windows' own encoding first: its curly quotes and dashes are what players type
                    text, codec = data.decode("cp1252"), "Windows-1252"
                except UnicodeDecodeError:
                    text, codec = data.decode("latin-1"), "Latin-1"
                src.notices.append(Notice("W206", f"the file is not UTF-8; it was read as {codec}", Where(src.filename, 0)))
    else:
        text = data
    text = text.lstrip("\ufeff")
    junk = _control_characters(text) + text.count("\ufffd")
    if "\x00" in text or (junk > 3 and junk * 10 > len(text)):
        what = "NUL bytes" if "\x00" in text else "binary data"
        src.problems.append(InvalidLine(
            "E003", f"the file contains {what}; it is not a plain-text turn file", where=Where(src.filename, 0),
            suggestion="save the turn as plain UTF-8 text"))
        return None
    return text


def _control_characters(text: str) -> int:
    """How many characters of ``text`` _CONTROL matches.

    A text of code points below 256 (ASCII and the header's '·') is counted as bytes, which is a
    twentieth of the regular expression's work; _CONTROL's characters there are single bytes too.
    """
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return len(_CONTROL.findall(text)) if _CONTROL.search(text) else 0
    return len(raw.translate(None, _NOT_CONTROL_BYTES))


def _unquote(lines: list[str], src: Source) -> list[str | None]:
    """Remove mail quoting when every line is quoted; otherwise skip the quoted lines."""
    if ">" not in {ln.lstrip(" ")[:1] for ln in lines}:  # no line is quoted (what _QUOTED matches)
        return list(lines)
    filled = [ln for ln in lines if ln.strip()]
    depth = 0
    while filled and all(_QUOTED.match(ln) for ln in filled):
        lines = [_QUOTED.sub("", ln, count=1) for ln in lines]
        filled = [ln for ln in lines if ln.strip()]
        depth += 1
    if depth:
        src.notices.append(Notice("W201", "the whole turn was quoted ('> '); the quoting was removed", Where(src.filename, 0)))
        return list(lines)
    out: list[str | None] = []
    for number, ln in enumerate(lines, 1):
        if _QUOTED.match(ln):
            if not out or out[-1] is not None:
                src.notices.append(Notice("W203", "quoted text ('> ...') was ignored", Where(src.filename, number), ln))
            out.append(None)
        else:
            out.append(ln)
    return out


def _joins(previous: str, line: str) -> bool:
    if previous.endswith("\\"):
        return True
    return line[:1] == " " and previous.rstrip().endswith(_CONTINUES)


def _admit(line: SourceLine, src: Source) -> None:
    if len(line.text) > MAX_LINE_CHARS:
        src.problems.append(InvalidLine(
            "E002", f"the line is {len(line.text):,} characters long; the limit is {MAX_LINE_CHARS:,}",
            where=Where(src.filename, line.number),
            line_text=line.text[:60] + "…", suggestion="split it into several lines"))
        return
    # An ASCII line here holds no tab or line break, so printable means no control character at all.
    bad = None if line.text.isascii() and line.text.isprintable() else _LINE_CONTROL.search(line.text)
    if bad:
        ch = bad.group()
        src.problems.append(InvalidLine(
            "E004", f"control character U+{ord(ch):04X} in the line", where=Where(src.filename, line.number, bad.start() + 1),
            line_text=line.text.translate({ord(ch): "?"})))
        return
    src.lines.append(line)
