"""The words closest to a misspelt one, for the "did you mean" of an error message.

``difflib`` is imported when a message asks for a suggestion, not by every run that might write
one: most runs write none, and the import is 4 M instructions of a command's start-up (issue 31).

>>> close_matches("winterfel", ["winterfell", "white harbor"], n=1)
['winterfell']
"""

from __future__ import annotations

from collections.abc import Iterable


def close_matches(word: str, choices: Iterable[str], *, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` of ``choices`` at least ``cutoff`` alike to ``word``, the closest first
    (``difflib.get_close_matches``)."""
    import difflib

    return difflib.get_close_matches(word, list(choices), n=n, cutoff=cutoff)
