"""Words every report shares: the width of a text report, player text made safe, ids as a player reads them."""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any

from ..game.board import ALL_HOUSES
from ..turnfile.names import ORDER_TEXT, display_name

WIDTH = 78  # text reports wrap here: within 80 columns in any mail client
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}


def clean(text: str) -> str:
    """Player text made safe for a mail: control characters and line breaks become spaces.

    >>> clean("raid\\x1b[2J from\\nPyke")
    'raid [2J from Pyke'
    """
    text = str(text)
    if text.isprintable():  # nearly always: the text as it is (a report cleans ~100,000 strings a game)
        return text
    return "".join(ch if ch.isprintable() else " " for ch in text)


def context_text(v: Any) -> str:
    """A request's context in the words of the game: printed names, order tokens as written, yes/no.

    >>> context_text({"the_shivering_sea": "support+1", "winterfell": ["march+0", True]})
    'The Shivering Sea: support +1; Winterfell: march +0, yes'
    >>> context_text({})
    'none'
    >>> context_text({"bids": {"arryn": 0, "targaryen": 1}, "houses": ["arryn", "stark"]})
    'bids: Arryn: 0; Targaryen: 1; houses: Arryn, Stark'
    """
    if isinstance(v, dict):
        return "; ".join(f"{word(str(k))}: {context_text(x)}" for k, x in sorted(v.items())) or "none"
    if isinstance(v, (list, tuple)):
        return ", ".join(context_text(x) for x in v) or "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return clean(word(v) if isinstance(v, str) else str(v))


def word(ident: str) -> str:
    """An id as a player reads it: ``kings_landing`` -> ``King's Landing``, ``march+1`` -> ``march +1``."""
    if ident in ORDER_TEXT:
        return ORDER_TEXT[ident]
    if ident in ALL_HOUSES:  # Arryn and Targaryen too (Mother of Dragons)
        return ident.title()
    if ident in TRACK_NAMES:
        return TRACK_NAMES[ident]
    for kind in ("area", "house_card", "westeros_card", "wildling_card", "unit"):
        name = display_name(kind, ident)
        if name != ident:
            return name
    return ident.replace("_", " ")



def comment_lines(text: str, width: int = WIDTH) -> list[str]:
    """``text`` wrapped as a turn file's comment: ``"#   "`` before each line after the first, no word
    broken. The same prompts come back for every house and step, so each wrapping is remembered."""
    return list(_comment_lines(text, width))


@lru_cache(maxsize=4096)
def _comment_lines(text: str, width: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, width, subsequent_indent="#   ", break_long_words=False, break_on_hyphens=False))


def clear_caches() -> None:
    """Forget the comments wrapped so far."""
    _comment_lines.cache_clear()
