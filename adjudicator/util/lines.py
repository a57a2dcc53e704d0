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

__all__ = ["LINE_BREAK", "OTHER_BREAKS", "split_lines"]

LINE_BREAK = re.compile(r"\r\n|\r|\n")
# The characters str.splitlines also breaks at, and no reader here does.
OTHER_BREAKS = frozenset("\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at LF, CRLF and CR only (a final line end gives a last ``""``).

    >>> split_lines("one\\ntwo\\n")
    ['one', 'two', '']
    """
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")
