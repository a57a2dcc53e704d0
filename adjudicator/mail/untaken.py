"""The moderator's list of every mail not taken: sender, subject, why, and what it was answered (ruling 325).

``maester ingest`` (and ``deliver``) records in ``mail-seen.json`` each message it read and did not
take (no turn of this game, a turn it could not take, beyond a bound, an automatic mail), with the
reason and the answer its sender got, numbered in the order read. The moderator's next mail lists
those after the last it listed (its ``outbox`` line keeps ``untaken:N`` among what it carries):

* one line each, for the first :data:`LISTED`; the others by sender, one line for them all;
* the mail dated before the game began (a first run over an old mailbox) as one line, counted.

A message that holds only another game's turns is that game's (ruling 147), and is not listed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["LISTED", "MARK", "listed_through", "untaken_since"]

LISTED = 40  # mails not taken named one by one in one moderator's mail
MARK = "untaken:"  # what a moderator's mail carries, in its outbox line: "untaken:N", the last listed
SEEN_FILE = "mail-seen.json"


def listed_through(carried: Iterable[str]) -> int:
    """The number of the last mail not taken that the moderator's mails sent so far listed (0: none).

    >>> listed_through(["refused/0001-x-stark.txt", "untaken:7", "untaken:12"])
    12
    """
    return max((int(c[len(MARK):]) for c in carried if c.startswith(MARK) and c[len(MARK):].isdigit()), default=0)


def _entries(root: Path) -> list[dict[str, Any]]:
    try:
        doc = json.loads((root / SEEN_FILE).read_text(encoding="utf-8"))
        messages = doc["messages"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return []  # a damaged record is said by the next ingest, which needs it
    return [e for e in messages.values() if isinstance(e, dict) and isinstance(e.get("n"), int)] \
        if isinstance(messages, dict) else []  # fmt: skip


def _line(e: dict[str, Any]) -> str:
    sender = str(e.get("from", "")) or "(no address)"
    subject = " ".join(str(e.get("subject", "")).split())[:60]
    when = str(e.get("date", "") or e.get("read", ""))[:16].replace("T", " ")
    answer = str(e.get("answer", ""))
    return f"{sender}, {subject!r}, {when or 'undated'}: {e.get('why', '')}" + (f" ({answer})" if answer else "")


def untaken_since(root: Path, through: int) -> tuple[list[str], int]:
    """The lines listing the mails not taken numbered after ``through``, and the last number listed.

    >>> untaken_since(Path("no-such-game"), 0)
    ([], 0)
    """
    todo = sorted((e for e in _entries(root) if e["n"] > through), key=lambda e: e["n"])
    if not todo:
        return [], through
    old = [e for e in todo if e.get("old") and e.get("why") == "no turn for this game"]
    rest = [e for e in todo if not (e.get("old") and e.get("why") == "no turn for this game")]
    lines = [_line(e) for e in rest[:LISTED]]
    if more := rest[LISTED:]:
        senders = Counter(str(e.get("from", "")) or "(no address)" for e in more)
        top = ", ".join(f"{n} from {s}" for s, n in senders.most_common(5))
        others = len(more) - sum(n for _, n in senders.most_common(5))
        lines.append(f"and {len(more)} more: {top}" + (f", {others} from others" if others else "")
                     + f" (each in {SEEN_FILE})")  # fmt: skip
    if old:
        lines.append(f"{len(old)} message{'s' * (len(old) != 1)} dated before the game began, with no turn for "
                     "this game (a mailbox read for the first time)")  # fmt: skip
    return lines, todo[-1]["n"]
