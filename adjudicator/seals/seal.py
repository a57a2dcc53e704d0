"""Seals on turn files: OpenSSH ``SSHSIG`` signatures over a normalised text.

A sealed turn is the normalised turn text (header line first) followed by an armoured SSHSIG
signature made in the namespace ``maester-turn`` with an Ed25519 key::

    game demo · house stark · round 1 · planning · seq 1
    ...orders...
    -----BEGIN SSH SIGNATURE-----
    U1NIU0lH...
    -----END SSH SIGNATURE-----

The signature is the one ``ssh-keygen -Y sign -n maester-turn`` makes over the normalised text,
so players may seal with plain OpenSSH and the moderator may check with it. This module knows
nothing of the rules or of a game folder: it checks that a text was sealed, unchanged, by a key;
whose key that may be is :mod:`adjudicator.folder.registry`'s business.

>>> normalise("game demo · house stark · round 1 · planning · seq 1  \\r\\n\\r\\n")
'game demo · house stark · round 1 · planning · seq 1\\n'
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..turnfile.header import Header, HeaderError, is_header_line, read_header
from ..util.lines import split_lines
from . import sshsig
from .keys import PublicKey, SealError, UnsupportedKey, fingerprint, parse_public_key
from .sshsig import (
    BEGIN,
    END,
    HASH_ALGORITHMS,
    BadArmour,
    BadSignature,
    Signature,
    WrongNamespace,
    armour,
    read_armour,
)

__all__ = [
    "BEGIN",
    "END",
    "HASH_ALGORITHMS",
    "NAMESPACE",
    "BadArmour",
    "BadEncoding",
    "BadHeader",
    "BadSignature",
    "DoubledArmour",
    "Ignored",
    "NoSeal",
    "PublicKey",
    "Replayed",
    "RevokedKey",
    "Scan",
    "SealError",
    "Sealed",
    "SealedBlock",
    "Signature",
    "TruncatedArmour",
    "UnknownKey",
    "UnsupportedKey",
    "WrongGame",
    "WrongHouse",
    "WrongNamespace",
    "WrongStep",
    "armour",
    "check_turn_text",
    "decode",
    "fingerprint",
    "normalise",
    "parse_public_key",
    "read_armour",
    "scan",
    "seal_text",
    "sign",
    "split_sealed",
    "unnormalised_hint",
    "verify",
]  # fmt: skip

NAMESPACE = "maester-turn"
_QUOTE = re.compile(r"> ?")


# --- errors ---------------------------------------------------------------------------------


class TruncatedArmour(BadArmour):
    """A ``BEGIN SSH SIGNATURE`` line with no ``END`` line after it."""

    code = "armour-truncated"


class DoubledArmour(BadArmour):
    """Two ``BEGIN`` lines before an ``END``, or two seals on one turn text."""

    code = "armour-doubled"


class NoSeal(SealError):
    """A turn text without a seal, or a file without any sealed block."""

    code = "no-seal"


class BadHeader(SealError):
    """The sealed text does not start with a valid header line."""

    code = "bad-header"


class BadEncoding(SealError):
    """The file is not UTF-8 text."""

    code = "bad-encoding"


class UnknownKey(SealError):
    """Sealed by a key registered for no house."""

    code = "unknown-key"


class RevokedKey(UnknownKey):
    """Sealed by a key that was registered and later revoked."""

    code = "revoked-key"


class WrongHouse(SealError):
    """Sealed by one house's key for another house."""

    code = "wrong-house"


class WrongGame(SealError):
    """Sealed for another game."""

    code = "wrong-game"


class WrongStep(SealError):
    """Sealed for another round or step than the one now open."""

    code = "wrong-step"


class Replayed(SealError):
    """A sequence number not higher than one already accepted."""

    code = "replayed"


# --- normalisation --------------------------------------------------------------------------


def normalise(text: str) -> str:
    r"""The exact text a seal covers.

    Unicode NFC; CRLF and CR become LF; spaces and tabs at the end of every line are dropped;
    blank lines at the start and end are dropped; the text ends with exactly one newline
    (an empty text stays empty). Normalising twice changes nothing.

    >>> normalise("\n\n  march A -> B \t\r\nbid throne 3\r\r\n")
    '  march A -> B\nbid throne 3\n'
    >>> normalise("Cafe\u0301\n") == "Caf\u00e9\n"
    True
    """
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    lines = [line.rstrip(" \t") for line in split_lines(text)]
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return "\n".join(lines[start:end]) + "\n" if end > start else ""


def decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8, a leading byte-order mark dropped.

    :raises BadEncoding: when the bytes are not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BadEncoding(f"the file is not UTF-8 text (byte {e.start + 1} is {data[e.start]:#04x})") from None


# --- sealing and checking -------------------------------------------------------------------


def seal_text(text: str, key: Ed25519PrivateKey, *, namespace: str = NAMESPACE) -> str:
    """The armoured seal over ``normalise(text)``, without the text."""
    return sshsig.sign(normalise(text).encode("utf-8"), key, namespace)


def sign(text: str, key: Ed25519PrivateKey) -> str:
    r"""The sealed turn: the normalised text followed by its seal.

    >>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    >>> sealed = sign("game demo · house stark · round 1 · planning · seq 1  \r\nbid throne 3\r\n", key)
    >>> print("\n".join(sealed.splitlines()[:3]))
    game demo · house stark · round 1 · planning · seq 1
    bid throne 3
    -----BEGIN SSH SIGNATURE-----
    >>> block = split_sealed(sealed)[0].open()
    >>> block.header.seq, block.key.fingerprint
    (1, 'SHA256:tAXFyTXI8xtDaujAEcwJslAYc9/6FKcUkd2Lw0xDhPo')

    :raises BadHeader: when the text does not start with a valid header line.
    :raises BadArmour: when the text already carries a seal.
    """
    body = normalise(text)
    check_turn_text(body)
    return body + seal_text(body, key)


def check_turn_text(body: str) -> None:
    """Check that a normalised text can be sealed: header line first, no seal in it yet.

    :raises BadHeader: when the text does not start with a valid header line.
    :raises BadArmour: when the text already carries a seal.
    """
    first = body.split("\n", 1)[0]
    if not is_header_line(first):
        raise BadHeader(
            f"a turn to seal must start with its header line "
            f"('game ID · house H · round N · STEP · seq N'), not {first[:60]!r}"
        )
    try:
        read_header(first)
    except HeaderError as e:
        raise BadHeader(str(e)) from None
    if any(line.strip() in (BEGIN, END) for line in body.split("\n")):
        raise BadArmour("this text already carries a seal; seal the turn text alone")


def verify(text: str, armoured: str) -> Signature:
    """Check that ``armoured`` seals ``normalise(text)`` in the Maester namespace.

    Returns the signature, whose ``key`` says who sealed it.

    :raises BadArmour: for unreadable armour.
    :raises UnsupportedKey: for a non-Ed25519 signature.
    :raises WrongNamespace: for a signature made for another purpose.
    :raises BadSignature: when the text or the seal was changed.
    """
    return _check(normalise(text).encode("utf-8"), armoured)


def _check(message: bytes, armoured: str) -> Signature:
    return sshsig.verify(message, armoured, NAMESPACE)


def unnormalised_hint(text: str, armoured: str) -> str:
    r"""When a seal fails over the normalised text but holds over the text as it came (LF or CRLF line
    ends, blanks at line ends, blank lines before the seal), what to do; else ``""``.

    ``ssh-keygen -Y sign`` over a file that was not normalised first makes such a seal. It is still
    refused (the seal must cover what is archived, the normalised text), but the player is told why.
    It costs up to two more seal checks: callers ask it for the seals of registered keys only, so that
    a stranger's mail of many broken seals costs no more than before.

    >>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    >>> raw = "game demo · house stark · round 1 · planning · seq 1  \r\nbid throne 3\r\n"
    >>> unnormalised_hint(raw, sshsig.sign(raw.encode(), key, NAMESPACE))[:60]
    ': the seal covers the text as typed, with CRLF line ends and'
    """
    body = normalise(text)
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    for end, what in (("\n", "LF"), ("\r\n", "CRLF")):
        raw = end.join(lines) + end
        if raw == body:
            continue
        try:
            _check(raw.encode("utf-8"), armoured)
        except SealError:
            continue
        blanks = any(line != line.rstrip(" \t") for line in lines)
        return (f": the seal covers the text as typed, with {what} line ends{' and blanks at line ends' * blanks}, "
                "not its normalised form; normalise the file before sealing it with ssh-keygen (maester "
                "normalise FILE > FILE.norm, docs/seals.md), or seal it with maester sign")  # fmt: skip
    return ""


# --- finding sealed blocks in a file or a mail ----------------------------------------------


@dataclass(frozen=True, slots=True)
class SealedBlock:
    """One turn text and its seal, as found in a larger text. Line numbers count from 1."""

    first_line: int
    last_line: int
    text: str  # from the header line to the line before BEGIN, mail quoting removed
    armour: str  # from BEGIN to END, mail quoting removed
    error: SealError | None = None  # a structural fault found while splitting

    def open(self) -> Sealed:
        """Check this block's seal and read its header.

        :raises SealError: (a subclass naming the reason) when the block cannot be trusted.
        """
        if self.error is not None:
            raise self.error
        body = normalise(self.text)
        sig = _check(body.encode("utf-8"), self.armour)
        try:
            header = read_header(body.split("\n", 1)[0])
        except HeaderError as e:
            raise BadHeader(str(e)) from None
        return Sealed(header, sig.key, body)

    def own_text(self) -> str:
        """The block alone, as it is archived and put in an inbox: the normalised turn text and its armour.

        These are exactly the text and seal :meth:`open` checks, and :func:`scan` finds this one
        block in them again, whatever surrounded it (mail quoting, other blocks, garbage).
        """
        armour_lines = [line.strip() for line in self.armour.strip("\n").split("\n")] if self.armour else []
        return normalise(self.text) + "".join(f"{line}\n" for line in armour_lines)


@dataclass(frozen=True, slots=True)
class Sealed:
    """A block whose seal is good: the header it claims, the key that sealed it, the text."""

    header: Header
    key: PublicKey
    text: str


@dataclass(frozen=True, slots=True)
class Ignored:
    """Lines outside every sealed block (line numbers from 1, inclusive)."""

    first_line: int
    last_line: int
    reason: str


@dataclass(frozen=True, slots=True)
class Scan:
    blocks: list[SealedBlock] = field(default_factory=list)
    ignored: list[Ignored] = field(default_factory=list)


def split_sealed(text: str) -> list[SealedBlock]:
    """Every sealed block in ``text``; see :func:`scan` for the lines left out.

    >>> [b.first_line for b in split_sealed("hello\\n> game g · house stark · round 1 · planning · seq 1\\n")]
    [2]
    """
    return scan(text).blocks


def _is_header(line: str) -> bool:
    return line.lstrip()[:4].lower() == "game" and is_header_line(line)


def _depth(line: str) -> int:
    d, pos = 0, 0
    while (m := _QUOTE.match(line, pos)) is not None:
        d, pos = d + 1, m.end()
    return d


def _unquote(line: str, depth: int) -> str:
    pos = 0
    for _ in range(depth):
        m = _QUOTE.match(line, pos)
        if m is None:
            break
        pos = m.end()
    return line[pos:]


def scan(text: str) -> Scan:
    """Find each sealed block and each run of ignored lines.

    A block runs from a header line to the ``END SSH SIGNATURE`` line of the seal after it, and
    never past the next header line. Mail quoting (``> `` at the start of the lines, to the depth
    of the header line) is removed. A fault in one block (no seal, a truncated or doubled seal) is
    kept on that block; the others stand.
    """
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    n = len(lines)
    plain = [_unquote(line, _depth(line)) if line.startswith(">") else line for line in lines]
    heads = [i for i, line in enumerate(plain) if _is_header(line)] + [n]
    blocks: list[SealedBlock] = []
    covered = [False] * n
    for i, stop in itertools.pairwise(heads):
        depth = _depth(lines[i])
        window = lines[i:stop]
        block, used = _read_block([_unquote(line, depth) for line in window] if depth else window, i)
        blocks.append(block)
        covered[i : i + used] = [True] * used
    return Scan(blocks, _ignored(plain, covered, blocks))


def _read_block(inner: list[str], offset: int) -> tuple[SealedBlock, int]:
    """Read one block from ``inner``: unquoted lines from a header line to before the next one."""
    marks = [line.strip() for line in inner]
    n = len(inner)

    def make(end: int, begin: int | None, error: SealError | None) -> tuple[SealedBlock, int]:
        cut = begin if begin is not None else end
        text = "\n".join(inner[:cut]) + "\n"
        arm = "\n".join(inner[begin:end]) + "\n" if begin is not None else ""
        return SealedBlock(offset + 1, offset + end, text, arm, error), end

    where = f"the turn at line {offset + 1}"
    j = _next_mark(marks, 1)
    if j == n:
        while j > 1 and not marks[j - 1]:
            j -= 1
        return make(j, None, NoSeal(f"{where} has no seal"))
    if marks[j] == END:
        return make(j + 1, j, BadArmour(f"{where}: its seal has an END line but no BEGIN line"))
    k = _next_mark(marks, j + 1)
    if k == n:
        return make(n, j, TruncatedArmour(f"{where}: its seal has no END line (cut short?)"))
    if marks[k] == BEGIN:
        return make(min(_next_mark(marks, k + 1, END) + 1, n), j, DoubledArmour(f"{where}: its seal has two BEGIN lines"))
    after = k + 1
    while after < n and not marks[after]:
        after += 1
    if after < n and marks[after] == BEGIN:
        return make(min(_next_mark(marks, after + 1, END) + 1, n), j, DoubledArmour(f"{where} carries two seals"))
    return make(k + 1, j, None)


def _next_mark(marks: list[str], start: int, *wanted: str) -> int:
    """The index of the next armour line (of ``wanted``, default BEGIN or END) from ``start``; else the end."""
    wanted = wanted or (BEGIN, END)
    k = start
    while k < len(marks) and marks[k] not in wanted:
        k += 1
    return min(k, len(marks))


def _ignored(plain: list[str], covered: list[bool], blocks: list[SealedBlock]) -> list[Ignored]:
    out: list[Ignored] = []
    i, n = 0, len(plain)
    first_block = blocks[0].first_line - 1 if blocks else n
    last_block = blocks[-1].last_line - 1 if blocks else -1
    while i < n:
        if covered[i] or not plain[i].strip():
            i += 1
            continue
        j = i
        while j + 1 < n and not covered[j + 1]:
            j += 1
        while not plain[j].strip():
            j -= 1
        chunk = [line.strip() for line in plain[i : j + 1]]
        if BEGIN in chunk:
            reason = "a seal with no header line before it"
        elif not blocks:
            reason = "no sealed block in the file"
        elif j < first_block:
            reason = "text before the first sealed block"
        elif i > last_block:
            reason = "text after the last sealed block"
        else:
            reason = "text between sealed blocks"
        out.append(Ignored(i + 1, j + 1, reason))
        i = j + 1
    return out
