"""Lines a mail program may wrap: warning of them before sealing, and undoing the wrap after.

A mail program that wraps long lines when it sends (at 72 characters, say) without marking the
breaks as soft (``format=flowed``, RFC 3676) changes the text, and the seal over it fails.
:func:`long_lines` finds the lines at risk, so that ``maester sign`` and ``maester check`` can warn;
:func:`rejoined` tries the other way round: join again lines that look wrapped, and keep the
result only when the seal then holds over it.

Nothing here widens what a seal proves. A re-joined block is kept only when its seal verifies over
exactly its new text, so the text is one its key's holder sealed; the block's own text
(:meth:`SealedBlock.own_text`) is what goes into the inbox and the archive, and the batch run
checks that seal again, as for any other block.

>>> long_lines("game g · house stark · round 1 · planning · seq 1\\n" + "x" * 80 + "\\n")
[(2, 80)]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..util.lines import WRAP_WIDTH, long_lines, long_lines_text, split_lines
from . import sshsig
from .seal import BEGIN, END, NAMESPACE, SealedBlock, SealError, normalise

__all__ = ["MAX_BREAKS", "MAX_JOIN_CHARS", "WRAP_WIDTH", "Rejoiner", "long_lines", "long_lines_text", "rejoined"]

MAX_BREAKS = 6  # lines that may end at a wrap tried in one block: at most 2**6 - 1 texts checked
MAX_JOIN_CHARS = 32 * 1024  # a longer block is not tried: each try checks the seal over all of it (a turn is
# a few kilobytes; a forged seal under megabytes of short lines cost a mail run most of a minute)
_NARROWEST, _WIDEST = 60, 80  # the wrap widths considered: a break is plausible only for one of them


def _may_be_wrapped(line: str, following: str) -> bool:
    """Whether a program wrapping at some width from 60 to 80 could have ended ``line`` before ``following``."""
    line, following = line.rstrip(" \t"), following.strip(" \t")
    if not line or not following or line.strip() in (BEGIN, END) or following in (BEGIN, END):
        return False
    return len(line) <= _WIDEST and len(line) + 1 + len(following.split()[0]) > _NARROWEST


def _join(lines: list[str], breaks: tuple[int, ...]) -> str:
    """``lines`` with each line whose index is in ``breaks`` joined to the next by one space."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if i - 1 in breaks:
            out[-1] = out[-1].rstrip(" \t") + " " + line.lstrip(" \t")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def rejoined(block: SealedBlock) -> tuple[SealedBlock, tuple[int, ...]] | None:
    """The block with the lines a mail program wrapped joined again, when its seal then holds; else None.

    Returns the new block and the line numbers (in the block's text, from 1) joined to the line after
    them. Tried only for a block whose seal is in the turn namespace and fails over the text as it
    came; the lines after the header that could end at a wrap (:func:`_may_be_wrapped`) are joined
    in every combination, fewest joins first, up to :data:`MAX_BREAKS` of them (a block with more is
    not tried), in a block of at most :data:`MAX_JOIN_CHARS` characters. The first text the seal
    verifies over is the one: it is exactly what the key's holder sealed.
    """
    if block.error is not None or not block.armour or len(block.text) > MAX_JOIN_CHARS:
        return None
    lines = split_lines(block.text)
    if lines and lines[-1] == "":
        lines.pop()
    breaks = [i for i in range(1, len(lines) - 1) if _may_be_wrapped(lines[i], lines[i + 1])]
    if not breaks or len(breaks) > MAX_BREAKS:
        return None
    try:
        if sshsig.read_armour(block.armour).namespace != NAMESPACE:
            return None
    except SealError:
        return None
    for size in range(1, len(breaks) + 1):
        for chosen in itertools.combinations(breaks, size):
            text = _join(lines, chosen)
            try:
                sshsig.verify(normalise(text).encode("utf-8"), block.armour, NAMESPACE)
            except SealError:
                continue
            return SealedBlock(block.first_line, block.last_line, text, block.armour), tuple(i + 1 for i in chosen)
    return None


@dataclass
class Rejoiner:
    """Who may have wrapped lines joined again, and how often: blocks sealed by one of ``keys``
    (fingerprints: the keys registered in a game, never a stranger's), ``left`` more blocks."""

    keys: frozenset[str]
    left: int

    def registered(self, block: SealedBlock) -> bool:
        """Whether the block's seal is by one of the keys."""
        try:
            return bool(self.keys) and sshsig.read_armour(block.armour).key.fingerprint in self.keys
        except SealError:
            return False

    def attempt(self, block: SealedBlock) -> tuple[SealedBlock, tuple[int, ...]] | None:
        """:func:`rejoined` for a block sealed by one of the keys, while blocks are left; else None."""
        if self.left <= 0 or not self.registered(block):
            return None
        self.left -= 1
        return rejoined(block)
