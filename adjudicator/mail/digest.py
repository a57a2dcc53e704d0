"""One mail to one reader with everything since their last mail: the digest (rulings 303, 310-311).

A house's mail says first what is asked of it and by when, then its one turn file to fill in
(the asked and the coming-up decisions), then the receipts of its files, then what happened in
every step since its last mail, then the board, the tracks and its hand as the latest step left
them (:mod:`adjudicator.mail.letter` writes the text, :mod:`adjudicator.mail.letterpage` the HTML
alternative, with the latest step's map as a picture attached by Content-ID). The public digest
(to a game list) and the moderator's hold the public reports the same way; the moderator's holds
also the receipts no house may be sent. With a key, the text is sealed by the moderator
(``maester-report`` namespace, ruling 146) and the seal travels beside it (ruling 312).

>>> from adjudicator.seals.keys import generate
>>> pair = generate()
>>> armour = seal_report("The report.\\n", pair.private)
>>> verify_report("The report.  \\r\\n", armour).key == pair.public
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..engine.events import kind_name
from ..folder import registry
from ..folder.schedule import show_span
from ..folder.stepreports import StepReports
from ..game.state import GameState
from ..reports.report import PHASE_NAMES, ReportError, join_html, page_style
from ..reports.sections import Section, html_sections, text_sections
from ..seals import seal, sshsig
from ..seals.keys import KeyPair
from ..util.packing import packed
from .mapimage import attach_map

REPORT_NAMESPACE = "maester-report"
MODERATOR, PUBLIC = registry.MODERATOR, "public"
_LABEL = re.compile(r"^(\d{4})-r(\d+)-(\w+)$")


# --- the moderator's seal over a report -----------------------------------------------------------


def seal_report(text: str, key: Ed25519PrivateKey) -> str:
    """The armoured seal over ``normalise(text)`` in the ``maester-report`` namespace."""
    return seal.seal_text(text, key, namespace=REPORT_NAMESPACE)


def verify_report(text: str, armoured: str) -> seal.Signature:
    """Check the moderator's seal over a report's text; returns the signature (its ``key`` says whose).

    :raises BadArmour: for unreadable armour.
    :raises WrongNamespace: for a seal made for anything but a report (a turn's seal, say).
    :raises BadSignature: when the text or the seal was changed.
    """
    try:
        return sshsig.verify(seal.normalise(text).encode("utf-8"), armoured, REPORT_NAMESPACE)
    except seal.BadSignature:
        raise seal.BadSignature("the seal does not match the report (the text or the seal was changed)") from None


# --- what one mail holds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """What every mail of one outbox run shares: the game, where it stands, who sends, the seal."""

    game_id: str
    number: int  # the latest step with complete reports
    label: str  # its report folder's name, "0007-r2-planning"
    round: int  # where that step left the game
    phase: str
    sender: str
    key: KeyPair | None  # the moderator's, to seal with
    now: datetime
    sealed_by: str = ""  # without the key: the fingerprint of the key that sealed (a mail rebuilt: ruling 318)

    @classmethod
    def at(cls, game_id: str, number: int, label: str, state: GameState, sender: str, key: KeyPair | None,
           now: datetime) -> Game:  # fmt: skip
        return cls(game_id, number, label, state.round, state.phase, sender, key, now)

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the moderator's key that seals the mails ("" when they are not sealed)."""
        return self.key.public.fingerprint if self.key is not None else self.sealed_by

    @property
    def title(self) -> str:
        phase = PHASE_NAMES.get(self.phase, self.phase)
        return f"game {self.game_id} · round {self.round} · {phase} · step {self.number:04d}"

    @property
    def where(self) -> str:
        """``r2 planning``: the round and step in a subject's few characters."""
        if self.phase in ("westeros", "planning", "action"):
            return f"r{self.round} {self.phase}"
        return self.phase.replace("_", " ")


@dataclass(frozen=True)
class StepPart:
    """One step of a digest: its reports as the reader sees them, cut into sections, and the
    receipts of the reader's files applied in it."""

    label: str
    public_text: tuple[Section, ...] = ()
    private_text: tuple[Section, ...] = ()  # a house's private part (none for the moderator and a list)
    page: tuple[Section, ...] = ()  # the HTML report as the reader sees it (a house's: joined to the public one)
    style: str = ""  # the page's stylesheet, its <style> block
    receipts: tuple[str, ...] = ()  # of the reader's files applied in this step
    private_json: bytes | None = None  # a house's private part as JSON (HOUSE.json: its answers' verdicts)
    public_events: tuple[tuple[str, str], ...] = ()  # (type, house) of the step's public events (report.json)
    private_events: tuple[tuple[str, str], ...] = ()  # those of the reader's own events (HOUSE.json)
    judged: int = 0  # 1 when the reader's report of the step judges answers of its own

    @property
    def number(self) -> int:
        return int(self.label[:4])

    def heading(self) -> str:
        """``step 0005 · round 2 · Westeros Phase``, read from the folder's name."""
        m = _LABEL.match(self.label)
        if m is None:
            return f"step {self.label}"
        return f"step {m[1]} · round {m[2]} · {PHASE_NAMES.get(m[3], m[3])}"


@dataclass(frozen=True)
class Asked:
    """One decision asked of a house now, with its due time (``None``: the moderator calls the deadline)."""

    key: str
    kind: str
    prompt: str
    secret: bool = False
    due: datetime | None = None

    def line(self) -> str:
        return f"{kind_name(self.kind)}: {self.prompt}" + (" (secret)" if self.secret else "")


@dataclass
class Digest:
    """One reader's mail: the steps since their last mail, the receipts not sent yet, the undone steps,
    and for a house what is asked of it now."""

    who: str  # a house, "moderator" or "public"
    steps: list[StepPart] = field(default_factory=list)
    notices: list[tuple[str, str]] = field(default_factory=list)  # (receipt path, text) of files not taken
    told_houses: list[str] = field(default_factory=list)  # moderator: receipts that went to houses, one line each
    untaken: list[str] = field(default_factory=list)  # moderator: the mails not taken since its last mail, a line each
    undone: list[dict[str, Any]] = field(default_factory=list)  # rollbacks that undid steps mailed before
    asked: list[Asked] = field(default_factory=list)  # a house's open requests, in the order of its report
    disorder: bool = False  # the house is in civil disorder: its defaults are taken at every run
    scheduled: bool = False  # the game has a schedule: the due times are dates

    @property
    def house(self) -> str | None:
        return None if self.who in (MODERATOR, PUBLIC) else self.who

    def empty(self) -> bool:
        return not (self.steps or self.notices or self.told_houses or self.untaken or self.undone)

    def text_name(self, game: Game) -> str:
        """The name a reader saves the text as, to check its seal: ``report-0007-stark.txt``."""
        return f"report-{game.number:04d}-{self.who}.txt"

    def seal_name(self, game: Game) -> str:
        """The name of the seal attached: ``report-0007-stark.txt.sig``, as ``ssh-keygen -Y sign`` names it."""
        return self.text_name(game) + ".sig"

    @property
    def latest(self) -> StepPart | None:
        return self.steps[-1] if self.steps else None


# --- times ------------------------------------------------------------------------------------------


def short_time(t: datetime) -> str:
    """``Thu 3 Dec 22:00 UTC``: a due time in a subject's few characters.

    >>> short_time(datetime(2026, 12, 3, 22, 0, tzinfo=UTC))
    'Thu 3 Dec 22:00 UTC'
    """
    t = t.astimezone(UTC)
    return f"{t:%a} {t.day} {t:%b %H:%M} UTC"


def long_time(t: datetime) -> str:
    """``Thu 3 Dec 2026 22:00 UTC``."""
    t = t.astimezone(UTC)
    return f"{t:%a} {t.day} {t:%b %Y %H:%M} UTC"


def left(due: datetime, now: datetime) -> str:
    """``1 d 8 h left`` or ``3 h overdue``."""
    return f"{show_span(due - now)} left" if now < due else f"{show_span(now - due)} overdue"


def due_words(d: Digest, now: datetime) -> str:
    """When the house's answers are due, for the heading of what is asked ("" when nothing is).

    >>> now = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)
    >>> due_words(Digest("stark", asked=[Asked("k", "orders", "p", due=now.replace(day=3))], scheduled=True), now)
    'due Thu 3 Dec 2026 22:00 UTC, 2 d left'
    """
    if not d.asked:
        return ""
    if d.disorder:
        return "in civil disorder: the next run takes your defaults"
    dues = [a.due for a in d.asked]
    if not d.scheduled or None in dues:
        return "no due time set: the moderator calls the deadline"
    if len(set(dues)) == 1:
        first = dues[0]
        assert first is not None
        return f"due {long_time(first)}, {left(first, now)}"
    return "due at different times (below)"


def due_lines(d: Digest, now: datetime) -> list[str]:
    """One line per decision when the house's decisions fall due at different times."""
    if due_words(d, now) != "due at different times (below)":
        return []
    return [f"{i}. due {long_time(a.due)}, {left(a.due, now)}" for i, a in enumerate(d.asked, 1) if a.due]


# --- the mail -------------------------------------------------------------------------------------


def subject(game: Game, d: Digest) -> str:
    """What the reader must do, in the first 40 characters: ``[winter] ORDERS DUE Thu 3 Dec 22:00 UTC ·
    r2 planning``, ``[winter] no action · r2 planning`` (ruling 311).

    >>> from adjudicator.game.setup import new_game
    >>> g = Game.at("winter", 7, "0007-r2-planning", new_game(["stark", "lannister", "baratheon"], seed="doc"),
    ...             "gm@example.org", None, datetime(2026, 12, 1, tzinfo=UTC))
    >>> subject(g, Digest("stark", asked=[Asked("k1", "orders", "p"), Asked("k2", "raven", "q")]))
    '[winter] ORDERS + MESSENGER RAVEN DUE · r1 planning'
    >>> subject(g, Digest("public"))
    '[winter] public report · r1 planning'
    """
    return f"[{game.game_id}] {_what(d)} · {game.where}"


def _what(d: Digest) -> str:
    if d.who == PUBLIC:
        return "public report"
    if d.who == MODERATOR:
        waiting = len(d.notices) + len(d.untaken)
        return f"moderator: {waiting} mail{'s' * (waiting != 1)} not taken" if waiting else "moderator"
    if not d.asked:
        return "no action"
    kinds = list(dict.fromkeys(kind_name(a.kind).upper() for a in d.asked))
    what = " + ".join(kinds[:2]) + (f" +{len(kinds) - 2}" if len(kinds) > 2 else "")
    dues = [a.due for a in d.asked if a.due is not None]
    if d.disorder:
        return f"{what} (civil disorder)"
    return f"{what} DUE {short_time(min(dues))}" if d.scheduled and dues else f"{what} DUE"


def map_cid(game: Game) -> str:
    """The Content-ID of the latest step's map picture: unique to the game and step."""
    return f"map-{game.number:04d}.{game.game_id}@maester"


def compose(game: Game, d: Digest, to: str, text: str, page: str, public_json: bytes | None,
            map_png: bytes | None, *, message_id: str | None = None, armour: str | None = None) -> EmailMessage:  # fmt: skip
    """One mail: the text, the HTML alternative with the map inside it (``map_png``, by Content-ID),
    the latest public game state (so that a player can run ``maester check`` offline), a house's
    private part as JSON of each step it carries (its answers' verdicts; one line a step), both
    compressed (ruling 316), and with a key the seal over the text (the text itself is not attached
    again: ruling 312). ``message_id`` and ``armour`` (the seal): those of a mail built before, to
    build it again (ruling 318; else a new Message-ID, and the seal made with the game's key)."""
    m = EmailMessage(policy=policy.default)
    m["From"] = formataddr((f"Maester ({game.game_id})", game.sender))
    m["To"] = formataddr((registry.house_name(d.who), to)) if d.house else to
    m["Subject"] = subject(game, d)
    m["Date"] = format_datetime(game.now)
    m["Message-ID"] = message_id or make_msgid(idstring=f"{game.label}.{d.who}", domain=game.sender.rpartition("@")[2] or None)
    m["Auto-Submitted"] = "auto-generated"  # no vacation replies (RFC 3834)
    m["X-Maester-Game"] = game.game_id
    m["X-Maester-Step"] = game.label
    m["X-Maester-Steps"] = " ".join(p.label for p in d.steps) or "none"
    m["X-Maester-House"] = d.who
    m.set_content(text, cte="quoted-printable")
    m.add_alternative(page, subtype="html", cte="quoted-printable")
    if map_png is not None:
        attach_map(m, map_png, map_cid(game))
    if public_json is not None:  # compressed, a quarter of the bytes (ruling 316)
        m.add_attachment(packed(public_json), maintype="application", subtype="gzip",
                         filename=f"{game.game_id}-{game.number:04d}.json.gz")  # fmt: skip
    private = [p for p in d.steps if p.private_json is not None] if d.house else []
    if private:  # one part for every step the mail carries: each step's HOUSE.json, a line each
        steps = f"{private[0].number:04d}" + (f"-{private[-1].number:04d}" if len(private) > 1 else "")
        lines = b"".join(p.private_json.rstrip(b"\n") + b"\n" for p in private if p.private_json is not None)
        m.add_attachment(packed(lines), maintype="application", subtype="gzip",
                         filename=f"{game.game_id}-{steps}-{d.who}.jsonl.gz")  # fmt: skip
    if armour is None and game.key is not None:
        armour = seal_report(text, game.key.private)
    if armour is not None:
        m.add_attachment(armour.encode("ascii"), maintype="application", subtype="octet-stream",
                         filename=d.seal_name(game))  # fmt: skip
    return m


def read_step(folder: StepReports, who: str, *, receipts: tuple[str, ...] = (), sections: bool = True) -> StepPart:
    """A step's reports for a reader, cut into sections (a house: its private part and the public
    report; the moderator and a list: the public report), with the events it tells; without
    ``sections``, the events and receipts only (enough to judge whether it is news).

    :raises OSError, UnicodeDecodeError, ValueError, ReportError: when the step's pages cannot be read.
    """
    events = _types(json.loads(folder.text("report.json")).get("events", []))
    house = who not in (MODERATOR, PUBLIC)
    try:
        private_json = folder.page(f"{who}.json") if house else None
    except FileNotFoundError:
        private_json = None  # a step reported before houses had one
    mine = _types(json.loads(private_json).get("events", [])) if private_json else ()
    part = StepPart(folder.name, receipts=receipts, private_json=private_json, public_events=events,
                    private_events=mine)  # fmt: skip
    if not sections:
        return part
    public_page = folder.text("public.html")
    public_text = tuple(text_sections(folder.text("public.txt")))
    if not house:
        return replace(part, public_text=public_text, page=_marked(folder, public_page), style=page_style(public_page))
    private_text = tuple(text_sections(folder.text(f"{who}.txt")))
    page = join_html(folder.text(f"{who}.html"), public_page)  # its own region of the map
    return replace(part, public_text=public_text, private_text=private_text, page=_marked(folder, page),
                   style=page_style(public_page), judged=sum(1 for sec in private_text if sec.name == "judged"))  # fmt: skip


def _marked(folder: StepReports, page: str) -> tuple[Section, ...]:
    found = tuple(html_sections(page))
    if not found:
        raise ReportError(f"{folder.where / folder.name / 'public.html'} has no <!-- section:... --> markers "
                          "(a template without them)")  # fmt: skip
    return found


def _types(events: Any) -> tuple[tuple[str, str], ...]:
    """Each event's type and the house it names (``""``: none), from a report's JSON."""
    if not isinstance(events, list):
        return ()
    return tuple((str(e.get("type", "")), str(e.get("house", ""))) for e in events if isinstance(e, dict))
