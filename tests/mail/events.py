"""The event lines of a report or a mail, as the mail tests count them: every event line of every
step must reach every reader exactly once (the digest guarantee)."""

from __future__ import annotations

NOTHING = "  Nothing new happened in this step."  # a report's line, never a mail's


def event_lines(report: str) -> list[str]:
    """The lines of a text report, or of a mail, that tell events: WHAT HAPPENED and ONLY YOU SEE THIS."""
    out, keep = [], False
    for line in report.split("\n"):
        if line in ("WHAT HAPPENED", "ONLY YOU SEE THIS (each after the event of that number under WHAT HAPPENED;"):
            keep = True
            continue
        if not line.strip() or line.startswith("#"):
            keep = False
        if keep and line.strip() and not line.startswith("(0)") and line != NOTHING:
            out.append(line)
    return out
