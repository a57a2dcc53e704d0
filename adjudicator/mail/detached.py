"""Turns sealed with a detached seal: ``turn.txt`` and ``turn.txt.sig`` attached to one mail.

``ssh-keygen -Y sign -n maester-turn -f KEY turn.txt`` writes the seal to ``turn.txt.sig`` beside
the file, and attaching both is the natural thing to do. Such a pair is read as the file followed
by its seal (what ``cat turn.txt turn.txt.sig`` gives, the way ``docs/seals.md`` seals with
OpenSSH), and from then on it is a sealed block like any other: the seal decides, and what goes
into the inbox is the block's own normalised text and its seal.

>>> seal_of("turn.txt.sig", "-----BEGIN SSH SIGNATURE-----\\nU1NI\\n-----END SSH SIGNATURE-----\\n").name
'turn.txt.sig'
>>> seal_of("turn.txt", "game g · house stark · ...") is None
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..seals import sshsig
from ..seals.seal import BEGIN, NAMESPACE, SealedBlock, SealError, normalise, scan
from ..util.lines import split_lines

__all__ = ["MAX_STRAYS", "MAX_TEXTS", "MAX_TEXT_CHARS", "Candidate", "DetachedSeal", "Unmatched", "candidates", "keep",
           "seal_of", "sealed_by", "stray_note", "unmatched", "untried_note", "verifies_over", "with_seal"]  # fmt: skip

# A .sig with no attachment of its name is tried on the turn texts of its mail: each try is a seal
# check over a text, so what one mail can cost is bounded (a hostile mail of 999 such .sig files and
# megabytes of turn headers took minutes); real mail has one .sig and a turn of a few kilobytes.
MAX_STRAYS = 4  # such .sig attachments tried in one mail; the others are named, not tried
MAX_TEXTS = 8  # unsealed turn texts of one mail they are tried on, and places each text may end
MAX_TEXT_CHARS = 64 * 1024  # a longer text is not tried (a turn is a few kilobytes)


@dataclass(frozen=True, slots=True)
class DetachedSeal:
    """A ``.sig`` attachment that holds a seal and nothing else."""

    name: str  # the attachment's file name, "turn.txt.sig"
    armour: str  # its text, from BEGIN to END
    namespace: str  # what the seal says it is for ("" when the seal cannot be read)
    fingerprint: str = ""  # of the key the seal names ("" when the seal cannot be read); nothing checked

    @property
    def seals_name(self) -> str:
        """The name of the file it seals, as ``ssh-keygen -Y sign`` names it (``turn.txt``)."""
        return self.name[: -len(".sig")]


def seal_of(filename: str, text: str) -> DetachedSeal | None:
    """The detached seal an attachment named ``*.sig`` holds; None for any other part."""
    if not filename.casefold().endswith(".sig") or not text.lstrip().startswith(BEGIN):
        return None
    armour = text.strip() + "\n"
    try:
        sig = sshsig.read_armour(armour)
    except SealError:
        return DetachedSeal(filename, armour, "")
    return DetachedSeal(filename, armour, sig.namespace, sig.key.fingerprint)


def with_seal(text: str, seal: DetachedSeal) -> str | None:
    """``text`` followed by the seal, as one sealed text; None when the seal is no turn's, or the text
    carries a seal of its own (one seal per turn)."""
    if seal.namespace != NAMESPACE or BEGIN in text:
        return None
    return text.rstrip("\r\n") + "\n" + seal.armour


@dataclass(frozen=True, slots=True)
class Candidate:
    """A turn text a ``.sig`` may seal: an unsealed text of the mail, up to one of the places it may end."""

    index: int  # which of the unsealed texts given to :func:`candidates`
    block: SealedBlock  # the text up to that end, without a seal
    message: bytes  # what a seal over it covers: its normalised text in UTF-8, made once for every .sig


def candidates(blocks: Sequence[SealedBlock]) -> list[Candidate]:
    """Where each of the first :data:`MAX_TEXTS` unsealed turn texts may end: before each blank line (the
    text after it, a mail signature say, is no part of the turn) or at its last line, at most
    :data:`MAX_TEXTS` ends a text; a text longer than :data:`MAX_TEXT_CHARS` is left out."""
    out: list[Candidate] = []
    for index, block in enumerate(blocks[:MAX_TEXTS]):
        if len(block.text) > MAX_TEXT_CHARS:
            continue
        lines = split_lines(block.text)
        ends = [i for i in range(1, len(lines)) if not lines[i].strip() and lines[i - 1].strip()] + [len(lines)]
        for end in ends[:MAX_TEXTS]:
            text = "\n".join(lines[:end]) + "\n"
            out.append(Candidate(index, SealedBlock(block.first_line, block.first_line + end - 1, text, ""),
                                 normalise(text).encode("utf-8")))  # fmt: skip
    return out


def sealed_by(seal: DetachedSeal, texts: Sequence[Candidate]) -> Candidate | None:
    """The first of ``texts`` that ``seal`` is a good turn seal over (its header read), with the seal; else None."""
    if seal.namespace != NAMESPACE:
        return None
    for c in texts:
        try:
            sshsig.verify(c.message, seal.armour, NAMESPACE)
        except SealError:
            continue
        block = replace(c.block, armour=seal.armour)
        try:
            block.open()  # the header too: a text whose first line is no header line is no turn
        except SealError:
            continue
        return replace(c, block=block)
    return None


def untried_note(seals: Sequence[DetachedSeal]) -> str:
    """The one note for the ``.sig`` attachments beyond :data:`MAX_STRAYS` in one mail."""
    names = ", ".join(repr(s.name) for s in seals[:3]) + (", ..." if len(seals) > 3 else "")
    return (f"not taken: {len(seals)} more .sig attachment{'s' * (len(seals) > 1)} with no file of "
            f"{'their' if len(seals) > 1 else 'its'} name ({names}): not tried, at most {MAX_STRAYS} in one mail "
            "(attach each turn file beside its .sig)")  # fmt: skip


def stray_note(seal: DetachedSeal, names: list[str]) -> str:
    """Why a ``.sig`` attachment sealed no turn of its mail: what the player can do about it."""
    where = f"attachment {seal.name!r}"
    if not seal.namespace:
        return f"not taken: {where}: its seal cannot be read (damaged on the way?): send the turn sealed again"
    if seal.namespace != NAMESPACE:
        return (f"not taken: {where}: a seal in the namespace {seal.namespace!r}, not a turn's ({NAMESPACE}; "
                f"ssh-keygen -Y sign -n {NAMESPACE})")  # fmt: skip
    if seal.seals_name.casefold() in (n.casefold() for n in names):
        return (f"not taken: {where}: {seal.seals_name!r} beside it carries a seal of its own or no turn "
                "header line, and the seal matches no turn text in the mail")  # fmt: skip
    return (f"not taken: {where}: a seal that matches no turn in this mail (attach the turn file it seals, "
            f"{seal.seals_name!r}, beside it)")  # fmt: skip


# --- a turn seal that sealed nothing: told to the house whose key it names (ruling 195) ------------


@dataclass(frozen=True, slots=True)
class Unmatched:
    """A ``.sig`` of a mail, in the turn namespace and naming a key, that sealed no turn of it.

    Nothing about it is proved: anyone can write a seal naming any public key. It says which key
    the seal names (so that the game can tell that key's house, ruling 195) and why it sealed nothing.
    """

    name: str  # the .sig attachment's file name
    sha256: str  # of its armour: the same seal in two mails is one
    fingerprint: str  # of the key it names
    why: str  # "no-file": no attachment of the name it seals; "not-verified": that attachment's text fails it
    seals_name: str  # the name of the file it is for ("turn.txt")
    game: str | None = None  # the game the attachment of that name names in its header, if any
    hint: str = ""  # what the seal check said ("seal fails [bad-signature]: ...", with a hint for CRLF)


def unmatched(seal: DetachedSeal, why: str, game: str | None = None, hint: str = "") -> Unmatched | None:
    """An :class:`Unmatched` for a turn seal that names a key; None for any other (unreadable, another
    namespace): such a seal is named to the moderator only."""
    if seal.namespace != NAMESPACE or not seal.fingerprint:
        return None
    sha = hashlib.sha256(seal.armour.encode("utf-8")).hexdigest()
    return Unmatched(seal.name, sha, seal.fingerprint, why, seal.seals_name, game, hint)


def keep(found: list[Unmatched], u: Unmatched | None) -> None:
    """Add ``u`` to the unmatched seals of one mail: each once, at most :data:`MAX_STRAYS` a mail."""
    if u is not None and len(found) < MAX_STRAYS and u.sha256 not in {x.sha256 for x in found}:
        found.append(u)


def verifies_over(seal: DetachedSeal, text: str) -> bool:
    """Whether ``seal`` is a good turn seal over the turn text of ``text`` (its first block, without
    that block's own seal): a ``.sig`` beside a file that carries a seal of its own."""
    blocks = scan(text).blocks
    if seal.namespace != NAMESPACE or not blocks or len(blocks[0].text) > MAX_TEXT_CHARS:
        return False
    try:
        sshsig.verify(normalise(blocks[0].text).encode("utf-8"), seal.armour, NAMESPACE)
    except SealError:
        return False
    return True
