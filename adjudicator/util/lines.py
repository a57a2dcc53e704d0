"""What "a line" is, for every reader of a turn, a mail text, an archived file or the log.

A line ends at LF, CRLF or a lone CR, and nowhere else. Python's ``str.splitlines`` also ends a
line at form feed, vertical tab, U+001C-U+001E, NEL (U+0085), U+2028 and U+2029; a layer that
split with it would see other lines than the seal scanner, and a text could mean one thing to the
seal check and another to the archive or the parser (issue 13). So the seal scanner, the
normalisation a seal covers, intake, the archive, the header reader, the turn-file parser and the
log readers all split here; those other characters are ordinary characters inside a line.

>>> split_lines("a\\fb\\r\\nc\\u2028d\\re")
['a\\x0cb', 'c\\u2028d', 'e']
"""

from __future__ import annotations

import re

__all__ = ["LINE_BREAK", "OTHER_BREAKS", "WRAP_WIDTH", "long_lines", "long_lines_text", "split_lines"]

LINE_BREAK = re.compile(r"\r\n|\r|\n")
# The characters str.splitlines also breaks at, and no reader here does.
OTHER_BREAKS = frozenset("\v\f\x1c\x1d\x1e\x85\u2028\u2029")
# A line longer than this may be wrapped by a mail program (many wrap at 72 to 78): ``maester sign``
# and ``maester check`` warn of it (seals/wrapping.py undoes such a wrap). Here, not there, so that
# a player's check needs no cryptography.
WRAP_WIDTH = 72


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at LF, CRLF and CR only (a final line end gives a last ``""``).

    >>> split_lines("one\\ntwo\\n")
    ['one', 'two', '']
    """
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def long_lines(text: str, width: int = WRAP_WIDTH) -> list[tuple[int, int]]:
    """``(line number, length)`` of each line longer than ``width`` characters (blanks at its end not counted)."""
    return [(n, len(line.rstrip(" \t"))) for n, line in enumerate(split_lines(text), 1)
            if len(line.rstrip(" \t")) > width]  # fmt: skip


def long_lines_text(long: list[tuple[int, int]]) -> str:
    """``'line 3 is 126 characters long'``, or for several ``'lines 3, 9 are 126, 80 characters long'``.

    >>> long_lines_text([(3, 126), (9, 80)])
    'lines 3, 9 are 126, 80 characters long'
    """
    if len(long) == 1:
        return f"line {long[0][0]} is {long[0][1]} characters long"
    more = ", ..." if len(long) > 5 else ""
    return (f"lines {', '.join(str(n) for n, _ in long[:5])}{more} are "
            f"{', '.join(str(w) for _, w in long[:5])}{more} characters long")
