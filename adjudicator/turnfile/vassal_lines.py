"""The turn-file lines of Mother of Dragons' vassals (M030-M039), mixed into the parser's line builder.

``command tyrell`` / ``command none`` (a set holder's choice), ``for tyrell: LINE`` (a commander's
answer for its vassal) and the four vassal tokens after an area's name (``vassal march``,
``vassal raid/support``, ``vassal defense/muster``, ``vassal defense 3``).
"""

from __future__ import annotations

from typing import Any

from lark import Token

from ..game import commands as C
from .linebuild import NO_ONE, LineContext, Name
from .names import vassal_order_token


class VassalLines:
    """The transformer callbacks of the vassal lines (the parser's ``_Lines`` inherits them)."""

    def vassal_order_line(self, ch: list[Any]) -> Any:
        c = _ctx()
        return c.done(vassal_order(c, ch[0], ch[1]))

    def rhs_word_order(self, ch: list[Any]) -> Any:
        """``sea march``, ``sea support``: a word before an order's own keyword (M114, an expansion
        line like the others here)."""
        return ("option", _name(f"{ch[0]} {ch[1]}", ch[0].column, ch[1].end_column))

    def muster_word(self, ch: list[Any]) -> Any:
        return Token("MUSTER", "muster")

    def vassal_token(self, ch: list[Any]) -> Any:
        words = [t for t in ch if t.type not in ("INT", "MODIFIER")]
        nums = [int(t) for t in ch if t.type in ("INT", "MODIFIER")]
        toks = [t for t in ch if t.column]
        text = "vassal " + " ".join(str(t) for t in ch)
        return ("vassal_order", tuple(str(w).lower() for w in words), nums[0] if nums else None,
                _name(text, toks[0].column if toks else 1, toks[-1].end_column if toks else 2))

    def command_vassal(self, ch: list[Any]) -> Any:
        """``command tyrell else martell else none``: the first pick still free is taken (ruling 296)."""
        c = _ctx()
        picks = [None if n.text == NO_ONE else c.name("house", n) for n in ch]
        for i, n in enumerate(ch):
            if i and n.text != NO_ONE and picks[i] is not None and picks[i] in picks[:i]:
                c.error("E206", f"{n.text!r} is named twice; name each vassal once (ruling 296)", n)
            if n.text == NO_ONE and i < len(ch) - 1:
                c.error("E206", "'none' passes the set on: it goes last, as nothing after it is read (ruling 296)", n)
        if c.errors:
            return c.done(C.PlayCard(card=""))
        return c.done(C.CommandVassal(vassal=picks[0], otherwise=tuple(picks[1:]) or None))

    def for_line(self, ch: list[Any]) -> Any:
        c = _ctx()
        vassal = c.name("house", ch[0])
        inner = ch[1]
        c.errors.extend(inner.errors)
        c.warnings.extend(inner.warnings)
        if c.errors or inner.command is None:
            return type(inner)(None, c.errors, c.warnings)
        return c.done(C.ForVassal(vassal=vassal, command=inner.command))


def vassal_order(c: Any, head: Any, token_part: tuple[Any, ...]) -> C.AssignOrder:
    """``AREA: vassal march``: the order of a vassal's own token (M039); a token it has not is refused."""
    _, words, number, at = token_part
    token, reason = vassal_order_token(words, number)
    if token is None:
        c.error("E108", f"{at.text!r} is not an order: {reason}", at)
    return C.AssignOrder(area=c.name("area", head), token=token or "")


def _ctx() -> LineContext:
    return LineContext()


def _name(text: str, col: int, end: int) -> Name:
    return Name(text, col, end)
