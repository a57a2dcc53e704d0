"""A step's reports cut into their sections, so that a mail can put them in its own order.

The reports in the game folder read as a step's record: a house's private part (what only it sees,
its decisions, its turn file, its hand), then the public report (what happened, the board, the
tracks, the cards). A mail reads as a letter: what is asked first, the turn file, the receipts, what
happened in every step since the last mail, then the board and the hand of the latest step
(:mod:`adjudicator.mail.letter`). Both are made of the same sections, cut here:

* in a text report, a section starts at its heading, a line of the templates at column 0 after a
  blank line (:data:`TEXT_HEADINGS`; events, board lines and card texts are always indented);
* in an HTML page, at its marker ``<!-- section:NAME -->``, and it ends at the next marker or at
  ``<!-- section:end -->``.

Cut and joined again in their order, the sections give back the report exactly
(``tests/test_report_sections.py``).

>>> text = "TITLE\\n\\nWHAT HAPPENED\\n   1. Round 1 begins.\\n\\nTHE BOARD\\n  Winterfell: Stark\\n"
>>> [(s.name, s.text) for s in text_sections(text)]
[('title', 'TITLE\\n\\n'), ('events', 'WHAT HAPPENED\\n   1. Round 1 begins.\\n\\n'), ('board', 'THE BOARD\\n  Winterfell: Stark\\n')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# The first words of each heading of the text templates (private.txt.j2, report.txt.j2), and the
# section each begins. A heading is matched whole or followed by a space, "(" or ":".
TEXT_HEADINGS: dict[str, str] = {
    "ONLY YOU SEE THIS": "only-you",
    "YOUR ANSWERS JUDGED IN THIS STEP": "judged",
    "YOUR DECISIONS": "decisions",
    "COMING UP FOR YOU": "coming-up",
    "YOUR ANSWERS WAITING": "waiting",
    "YOUR STANDING INSTRUCTIONS": "standing",
    "YOUR TURN FILE": "turn-file",
    "YOUR HAND": "hand",
    "YOUR OBJECTIVES": "objectives",
    "DRAWN FOR": "vassal-hand",
    "YOUR DISCARDS": "discards",
    "*** House": "winner",
    "WHAT HAPPENED": "events",
    "NEEDED NEXT": "needed",
    "THE BOARD": "board",
    "HOUSES": "houses",
    "INFLUENCE TRACKS": "tracks",
    "VASSALS": "vassals",
    "OBJECTIVES": "objectives-scored",
    "WILDLINGS AND DECKS": "wildlings",
    "THE IRON BANK": "iron-bank",
    "HOUSE CARDS": "cards",
    "KEYS IN FORCE": "keys",
    "Seed commitment": "seed",  # the last lines of the public report, after a blank line
}
TITLE = "title"  # what comes before the first section: the report's title block
_MARKER = re.compile(r"<!-- section:([a-z-]+) -->\n?")
END = "end"


@dataclass(frozen=True)
class Section:
    """One section of a report: its name (``events``, ``hand``, ...) and its text, heading included."""

    name: str
    text: str


def _heading(line: str) -> str | None:
    if len(line) >= 10 and line == "=" * len(line):  # a report's title block: a house's whole report holds two
        return TITLE
    for words, name in TEXT_HEADINGS.items():
        if line.startswith(words) and (len(line) == len(words) or line[len(words)] in " (:"):
            return name
    return None


def text_sections(text: str) -> list[Section]:
    """A text report's sections in order; its title block (the text before the first heading) is ``title``.

    Each section keeps the blank lines that follow it, so that joined they are the report again.
    """
    out: list[Section] = []
    name, start, previous = TITLE, 0, ""
    at = 0
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\n")
        found = _heading(bare) if previous.strip() == "" and at > 0 else None
        if found is not None and not (found == name == TITLE):  # a title block may hold a blank line
            out.append(Section(name, text[start:at]))
            name, start = found, at
        previous = bare
        at += len(line)
    out.append(Section(name, text[start:]))
    return [s for s in out if s.text or s.name != TITLE]


def html_sections(page: str) -> list[Section]:
    """An HTML page's marked sections in order, each without its marker; what is outside them is left out."""
    out: list[Section] = []
    marks = list(_MARKER.finditer(page))
    for m, after in zip(marks, [*marks[1:], None]):
        if m[1] == END:
            continue
        out.append(Section(m[1], page[m.end() : after.start() if after else len(page)]))
    return out


def pick(sections: Iterable[Section], *names: str) -> str:
    """The text of the sections named, in the order of ``names`` (several of one name in their order).

    >>> pick([Section("a", "1\\n"), Section("b", "2\\n"), Section("a", "3\\n")], "a", "b")
    '1\\n3\\n2\\n'
    """
    found = list(sections)
    return "".join(s.text for name in names for s in found if s.name == name)


def trimmed(text: str) -> str:
    """A section's text without the blank lines after it (a mail puts exactly one between two)."""
    return text.rstrip("\n").rstrip() + "\n" if text.strip() else ""
