"""Text for players within 80 columns: every receipt, summary and report line fits a terminal or a mail.

:func:`fold` is for text built line by line (receipts, ``maester show``); the report templates
wrap each paragraph with :func:`adjudicator.reports.templating.wrap`.
"""

from __future__ import annotations

import textwrap

WIDTH = 78  # within 80 columns in any mail client or terminal


def fold(text: str, width: int = WIDTH, hang: int = 4) -> str:
    """Every line of ``text`` within ``width`` columns: a longer one goes on under its own indent plus ``hang``.

    A caret line (only spaces, ``^`` and ``~``) and the line it points into are kept as they are,
    so that the caret stays under the column it marks.

    >>> print(fold("  - one two three four five six", width=19))
      - one two three
          four five six
    """
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        caret = line.strip() and set(line.strip()) <= set("^~")
        points = i + 1 < len(lines) and lines[i + 1].strip() and set(lines[i + 1].strip()) <= set("^~")
        if len(line) <= width or caret or points:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(line.strip(), width=width, initial_indent=lead, subsequent_indent=lead + " " * hang,
                             break_long_words=True, break_on_hyphens=False) or [line]  # fmt: skip
    return "\n".join(out)
