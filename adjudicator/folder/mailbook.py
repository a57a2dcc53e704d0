"""What the log says was mailed to whom: the record ``maester outbox`` writes and reads (ruling 303).

Two kinds of lines:

``outbox``
    a set of mails written: ``folder`` (``outbox/NNNN``) and ``mails``, each with ``file``, ``to``
    (a house, ``moderator`` or ``public``), ``address``, ``steps`` (the step numbers whose reports
    it carries), ``notices`` (the receipts of refused files it carries), ``sha256`` (of the
    ``.eml``), ``source`` (a hash of what it was made from), ``recipe`` (the SHA-256 of its recipe,
    ``READER.recipe.json``: ruling 318) and ``map_scale`` (the map's, when it has one: ruling 317).
    The latest mail written for a
    recipient is its mail to send; an earlier one not sent is superseded.
``reply``
    one reply to a mail that could not be taken written (``file``: ``outbox/replies/NAME.eml``;
    ruling 323); only its file is this book's business: a reply written and not logged was never
    made, and the next command removes it.
``mailed``
    one mail sent: ``file``, ``sha256``, ``to`` (the addresses the server took), ``server``,
    ``time``. Written just after the server took it, so a run killed while sending sends, at the
    next run, exactly the mails not recorded yet.

The records of the mails written and sent grow with every step: they are kept as rows beside the
log (:class:`adjudicator.folder.ledger_index.KeptRecords`), asked for one at a time, so that a run
holds only those it reads and what it needs of the others is here in small: which were written and
not sent yet (``unsent``) and each recipient's latest mail sent (``last_sent``).

A rollback undoes steps that may have been mailed: each recipient's mark goes back to the step
rolled back to, the rollback is kept to be told in its next mail, and a mail written but not sent
that carries an undone step is not sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ledger_index import KeptRecords, MailRow, Rows

RECIPIENTS_NOT_HOUSES = ("moderator", "public")


@dataclass
class MailBook:
    """The mails written and sent, read from the log (kept by :class:`adjudicator.folder.ledger.Ledger`)."""

    written: KeptRecords = field(default_factory=lambda: KeptRecords("written"))  # "outbox/NNNN/x.eml" -> its record
    current: dict[str, str] = field(default_factory=dict)  # recipient -> its latest mail written
    mailed: KeptRecords = field(default_factory=lambda: KeptRecords("mailed"))  # file -> its mailed line
    through: dict[str, int] = field(default_factory=dict)  # recipient -> the last step its mails carried
    delivered: dict[str, set[str]] = field(default_factory=dict)  # recipient -> receipts its mails carried
    undone: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # recipient -> rollbacks to tell
    lines: int = 0  # outbox and mailed lines read (none: a game mailed by an older Maester, or never)
    replies: set[str] = field(default_factory=set)  # "outbox/replies/NAME.eml" of every reply line
    last_folder: str = ""  # the folder of the latest outbox line ("outbox/NNNN"): the one a killed run may not have finished
    unsent: set[str] = field(default_factory=set)  # the mails written and not sent (current or superseded)
    last_sent: dict[str, str] = field(default_factory=dict)  # recipient -> its mail sent that was written last

    def take(self, e: dict[str, Any]) -> None:
        """Read one ``outbox``, ``reply`` or ``mailed`` line (others are not this book's business)."""
        action = e.get("action")
        if action == "reply":
            self.replies.add(str(e.get("file", "")))
            return
        if action == "outbox":
            for who, n in e.get("legacy_through", {}).items():  # mails of an older Maester, from outbox/*/sent.json
                self.through[str(who)] = max(self.through.get(str(who), -1), int(n))
            folder = str(e["folder"])
            for m in e["mails"]:
                path = f"{folder}/{m['file']}"
                self.written.put(path, dict(m) | {"path": path})
                self.current[str(m["to"])] = path
                if path not in self.mailed:
                    self.unsent.add(path)
            self.last_folder = folder
            self.lines += 1
        elif action == "mailed":
            path = str(e["file"])
            self.mailed.put(path, e)
            self.unsent.discard(path)
            self.lines += 1
            rec = self.written.get(path)
            if rec is None:
                return
            who = str(rec["to"])
            last = self.last_sent.get(who)
            if last is None or self.written.position(path) >= self.written.position(last):
                self.last_sent[who] = path
            steps = [int(n) for n in rec.get("steps", [])]
            if steps:
                self.through[who] = max(self.through.get(who, -1), *steps)
            self.delivered.setdefault(who, set()).update(str(n) for n in rec.get("notices", []))
            self.undone.pop(who, None)

    def rolled_back(self, e: dict[str, Any]) -> None:
        """A rollback to step ``e["to"]``: what was mailed of later steps no longer stands."""
        to = int(e["to"])
        for who, last in list(self.through.items()):
            if last > to:
                self.undone.setdefault(who, []).append({"to": to, "through": last, "reason": str(e.get("reason", "")),
                                                        "time": str(e.get("time", ""))})  # fmt: skip
                self.through[who] = to
        for who, path in list(self.current.items()):
            if path not in self.unsent:
                continue
            rec = self.written.get(path, {})
            if any(int(n) > to for n in rec.get("steps", [])):
                del self.current[who]  # it carries an undone step: never sent

    def pending(self, who: str) -> dict[str, Any] | None:
        """The mail written for ``who`` and not sent yet, if any."""
        path = self.current.get(who)
        return self.written[path] if path is not None and path in self.unsent else None

    def queue(self) -> list[dict[str, Any]]:
        """Every mail to send, in the order written."""
        todo = sorted((p for p in self.current.values() if p in self.unsent), key=self.written.position)
        return [self.written[p] for p in todo]

    def last_told(self, who: str) -> dict[str, Any] | None:
        """The record of the mail sent to ``who`` that was written last (``None``: none sent)."""
        path = self.last_sent.get(who)
        return None if path is None else self.written[path]

    def sent_since_kept(self) -> list[str]:
        """The mails whose ``mailed`` line was read since the kept rows (every one without them)."""
        return [key for key, _, _ in self.mailed.unsaved()]

    # --- kept as rows (:mod:`adjudicator.folder.ledger_index`) ---

    def unsaved(self) -> list[MailRow]:
        """The records read since the kept rows, as rows to add to them."""
        return [(r.kind, key, at, rec) for r in (self.written, self.mailed) for key, at, rec in r.unsaved()]

    def attach(self, rows: Rows) -> None:
        """Read on from ``rows``, which hold every record read so far."""
        self.written.attach(rows)
        self.mailed.attach(rows)

    def whole(self, kept: dict[str, list[tuple[str, int, dict[str, Any]]]] | None = None) -> None:
        """Hold every record in memory (``kept``: the rows' records by kind, when read already)."""
        for r in (self.written, self.mailed):
            r.whole(None if kept is None else kept.get(r.kind, []))

    def copy(self) -> MailBook:
        return MailBook(
            self.written.copy(), dict(self.current), self.mailed.copy(), dict(self.through),
            {k: set(v) for k, v in self.delivered.items()}, {k: list(v) for k, v in self.undone.items()},
            self.lines, set(self.replies), self.last_folder, set(self.unsent), dict(self.last_sent),
        )  # fmt: skip
