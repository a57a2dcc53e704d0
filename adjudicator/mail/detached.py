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

from dataclasses import dataclass

from ..seals import sshsig
from ..seals.seal import BEGIN, NAMESPACE, SealError

__all__ = ["DetachedSeal", "seal_of", "stray_note", "with_seal"]


@dataclass(frozen=True, slots=True)
class DetachedSeal:
    """A ``.sig`` attachment that holds a seal and nothing else."""

    name: str  # the attachment's file name, "turn.txt.sig"
    armour: str  # its text, from BEGIN to END
    namespace: str  # what the seal says it is for ("" when the seal cannot be read)

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
        namespace = sshsig.read_armour(armour).namespace
    except SealError:
        namespace = ""
    return DetachedSeal(filename, armour, namespace)


def with_seal(text: str, seal: DetachedSeal) -> str | None:
    """``text`` followed by the seal, as one sealed text; None when the seal is no turn's, or the text
    carries a seal of its own (one seal per turn)."""
    if seal.namespace != NAMESPACE or BEGIN in text:
        return None
    return text.rstrip("\r\n") + "\n" + seal.armour


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
