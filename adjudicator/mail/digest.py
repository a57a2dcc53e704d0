"""One mail to one reader with everything since their last mail: the digest (ruling 303).

A house's mail holds, oldest first, every step's whole private report since its last mail (the
text part one section per step; the HTML part the same, with the latest step's map as a picture
attached by Content-ID), the receipts of its files applied in each step, the receipts of its files
not taken (ruling 300), and the public state JSON of the latest step. What is asked of the house
now and the turn file to fill in come first. The public digest (to a game list) holds the public
reports; the moderator's holds them too, with the receipts no house may be sent. With a key, the
text is sealed by the moderator (``maester-report`` namespace, ruling 146).

>>> from adjudicator.seals.keys import generate
>>> pair = generate()
>>> armour = seal_report("The report.\\n", pair.private)
>>> verify_report("The report.  \\r\\n", armour).key == pair.public
True
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from markupsafe import escape

from ..engine.events import kind_name
from ..folder import registry
from ..game.state import GameState
from ..reports.report import PHASE_NAMES, WIDTH, drop_map, page_style, skeleton, stylesheet, with_map_src
from ..seals import seal, sshsig
from ..seals.keys import KeyPair
from .mapimage import attach_map

REPORT_NAMESPACE = "maester-report"
ASKING_STEPS = ("westeros", "planning", "action")
MODERATOR, PUBLIC = registry.MODERATOR, "public"
STEP_RULE = "#" * WIDTH  # the line above and below each step's heading: a reader (or a test) splits there
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
    state: GameState  # its state: what is asked now
    sender: str
    key: KeyPair | None
    now: datetime

    @property
    def title(self) -> str:
        phase = PHASE_NAMES.get(self.state.phase, self.state.phase)
        return f"game {self.game_id} · round {self.state.round} · {phase} · step {self.number:04d}"


@dataclass(frozen=True)
class StepPart:
    """One step of a digest: its reports as the reader sees them, and the receipts of the reader's files."""

    label: str
    text: str  # the whole text report (a house's: its private part, then the public report)
    page: str  # the whole HTML report
    receipts: tuple[str, ...] = ()  # of the reader's files applied in this step
    private_json: bytes | None = None  # a house's private part as JSON (HOUSE.json: its answers' verdicts)

    @property
    def number(self) -> int:
        return int(self.label[:4])

    def heading(self) -> str:
        """``step 0005 · round 2 · Westeros Phase``, read from the folder's name."""
        m = _LABEL.match(self.label)
        if m is None:
            return f"step {self.label}"
        return f"step {m[1]} · round {m[2]} · {PHASE_NAMES.get(m[3], m[3])}"


@dataclass
class Digest:
    """One reader's mail: the steps since their last mail, the receipts not sent yet, the undone steps."""

    who: str  # a house, "moderator" or "public"
    steps: list[StepPart] = field(default_factory=list)
    notices: list[tuple[str, str]] = field(default_factory=list)  # (receipt path, text) of files not taken
    told_houses: list[str] = field(default_factory=list)  # moderator: receipts that went to houses, one line each
    undone: list[dict[str, Any]] = field(default_factory=list)  # rollbacks that undid steps mailed before
    untaken: list[str] = field(default_factory=list)  # moderator: the mails not taken since its last mail, a line each
    last_seq: int = 0  # a house's highest accepted seq for the open step (for its turn file)

    @property
    def house(self) -> str | None:
        return None if self.who in (MODERATOR, PUBLIC) else self.who

    def empty(self) -> bool:
        return not (self.steps or self.notices or self.told_houses or self.undone or self.untaken)

    def attachment(self, game: Game) -> str:
        """The name of the sealed copy of the text: ``report-0007-stark.txt``."""
        return f"report-{game.number:04d}-{self.who}.txt"


# --- the text part --------------------------------------------------------------------------------


def _wrap(text: str, first: str = "  ", rest: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [
        first.rstrip()]  # fmt: skip


def _mine(game: Game, house: str) -> list[dict[str, Any]]:
    return [r for r in game.state.pending if r.get("house") == house]


def _request_line(r: dict[str, Any]) -> str:
    return f"{kind_name(r['kind'])}: {r['prompt']}" + (" (secret)" if r.get("secret") else "")


def _skeleton(game: Game, house: str, mine: list[dict[str, Any]], last_seq: int) -> str:
    """The turn file to fill in ("" when nothing is asked, or the game is over)."""
    return skeleton(game.state, house, mine, last_seq=last_seq) if mine and game.state.phase in ASKING_STEPS else ""


def _what_it_holds(d: Digest) -> str:
    n = len(d.steps)
    if n == 0:
        return "no new step since your last mail: the receipts of files of yours not taken"
    if n == 1:
        return f"the report of step {d.steps[0].number:04d}"
    return f"the reports of the {n} steps since your last mail ({d.steps[0].number:04d} to {d.steps[-1].number:04d}), oldest first"


def _undone_lines(d: Digest) -> list[str]:
    out = []
    for u in d.undone:
        steps = f"step {u['to'] + 1:04d}" if u["through"] == u["to"] + 1 else f"steps {u['to'] + 1:04d} to {u['through']:04d}"
        out += _wrap(f"The moderator undid {steps}, mailed to you before (rolled back to step {u['to']:04d}: "
                     f"{u['reason']}). Their reports no longer stand; the steps that replace them are below.")  # fmt: skip
    return out


def digest_text(game: Game, d: Digest) -> str:
    """The text part: what is asked first, the files not taken, then one section per step, then the seal."""
    rule = "-" * WIDTH
    out = [f"MAESTER · {game.title}"]
    if d.who == PUBLIC:
        out += _wrap(f"The public reports: {_what_it_holds(d)}.", "", "")
    elif d.who == MODERATOR:
        out += _wrap(f"For the moderator: {_what_it_holds(d)}, the public reports; and the receipts no house "
                     "may be sent.", "", "")  # fmt: skip
    else:
        out += _wrap(f"Your mail, House {d.who.title()}: first what is asked of you, then {_what_it_holds(d)}.", "", "")
    if d.undone:
        out += ["", "UNDONE BY THE MODERATOR", *_undone_lines(d)]
    if d.house is not None:
        mine = _mine(game, d.house)
        out += ["", "ASKED OF YOU NOW"]
        for i, r in enumerate(mine, 1):
            out += _wrap(_request_line(r), f"{i:4d}. ", " " * 6)
        if mine:
            out += _wrap(f"The legal answers and the defaults are under YOUR DECISIONS in the report of step "
                         f"{game.number:04d} below.")  # fmt: skip
        else:
            out.append("  Nothing: no decision of yours is waiting.")
        if skel := _skeleton(game, d.house, mine, d.last_seq):
            out += ["", "YOUR TURN FILE: fill it in, seal it (maester sign) and mail it back",
                    rule, skel.rstrip("\n"), rule]  # fmt: skip
    if d.notices:
        what = "YOUR FILES NOT TAKEN" if d.house else "FILES NO REGISTERED KEY SEALED: for you only"
        out += ["", "=" * WIDTH, f"{what} ({len(d.notices)})", "=" * WIDTH]
        for path, text in d.notices:
            out += ["", f"[{path}]", text.rstrip("\n")]
    if d.told_houses:
        out += ["", "RECEIPTS SENT TO HOUSES (refused files whose seal a house's key made)"]
        out += [f"  {line}" for line in d.told_houses]
    if d.untaken:
        out += ["", "MAILS NOT TAKEN (sender, subject, date: why; the answer its sender got)"]
        out += [w for line in d.untaken for w in _wrap(line, "  ", "    ")]
    for i, part in enumerate(d.steps, 1):
        where = "the latest" if i == len(d.steps) else "an earlier step: what it asked may be answered already"
        out += ["", STEP_RULE, *_wrap(f"{part.heading().upper()} ({i} of {len(d.steps)} in this mail; {where})", "", ""),
                STEP_RULE, "", part.text.rstrip("\n")]  # fmt: skip
        if part.receipts:
            out += ["", "=" * WIDTH, "RECEIPTS: what was made of your files applied in this step", "=" * WIDTH]
            for receipt in part.receipts:
                out += ["", receipt.rstrip("\n")]
    if game.key is not None:
        out += ["", rule, *seal_paragraph(game.key.public.fingerprint, d.attachment(game))]
    return seal.normalise("\n".join(out))


def seal_paragraph(fingerprint: str, attachment: str) -> list[str]:
    """How to check the moderator's seal: the attachments, the allowed-signers file, the commands.

    Wrapped at spaces only, so that no name (``maester-report``, ``report-0012-stark.txt``) is
    cut at a hyphen, and every command is a line to copy as it is.
    """
    prose = (f"The attachment {attachment}.sig seals this text (namespace {REPORT_NAMESPACE}); "
             f"{attachment} is this text byte for byte. To check it, save both attachments, and once "
             "make the file moderator.allowed from the moderator's public key (moderator.pub, which "
             "the moderator gave you when the game began):")  # fmt: skip
    return ["Sealed by the moderator's key", f"  {fingerprint}.",
            *textwrap.wrap(prose, WIDTH, break_on_hyphens=False, break_long_words=False),
            f"  echo \"moderator namespaces=\\\"{REPORT_NAMESPACE}\\\" $(cat moderator.pub)\" \\",
            "    > moderator.allowed",
            f"  ssh-keygen -Y verify -f moderator.allowed -I moderator -n {REPORT_NAMESPACE} \\",
            f"    -s {attachment}.sig < {attachment}",
            *textwrap.wrap(f"It says Good \"{REPORT_NAMESPACE}\" signature for moderator. Or, with Maester "
                           "installed (this whole mail, saved as a file, checks too):", WIDTH,
                           break_on_hyphens=False, break_long_words=False),
            f"  maester verify-report --key moderator.pub {attachment}"]  # fmt: skip


# --- the HTML part --------------------------------------------------------------------------------

_ID = re.compile(r'(\sid=")([^"]+)(")')


def map_cid(game: Game) -> str:
    """The Content-ID of the latest step's map picture: unique to the game and step."""
    return f"map-{game.number:04d}.{game.game_id}@maester"


def _inside_body(page: str) -> str:
    """What a report page shows: the part between ``<body ...>`` and ``</body>`` (all of it if it has none)."""
    start = page.find("<body")
    end = page.rfind("</body>")
    if start < 0 or end < start:
        return page
    return page[page.index(">", start) + 1 : end]


def _box(title: str, inner: str) -> str:
    return f'<div class="sec"><h2>{escape(title)}</h2>{inner}</div>\n'


def _pre(text: str) -> str:
    return f'<pre class="mono">{escape(text.rstrip())}</pre>'


def digest_html(game: Game, d: Digest, cid: str | None) -> str:
    """The HTML part: the same as the text, each step's HTML report in its section; only the latest
    step shows the map (the picture attached as ``cid``; none: no map). The earlier steps' element
    ids get the step's number, so that no two elements share one. The reports' one stylesheet (taken
    from the latest step's page) is in the head: every look is a class of it."""
    style = (page_style(d.steps[-1].page) if d.steps else "") or stylesheet(game.state.board())
    head = [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Maester · {escape(game.title)}</title>\n{style}\n</head>\n"
            f'<body>\n<div class="top"><h1>Maester · {escape(game.title)}</h1>'
            f'<p>{escape(_what_it_holds(d))}</p></div>\n<div class="wrap">\n']  # fmt: skip
    if d.undone:
        head.append(_box("Undone by the moderator", _pre("\n".join(line.strip() for line in _undone_lines(d)))))
    if d.house is not None:
        mine = _mine(game, d.house)
        items = "".join(f"<li>{escape(_request_line(r))}</li>" for r in mine)
        asked = f"<ol>{items}</ol>" if mine else "<p>Nothing: no decision of yours is waiting.</p>"
        if skel := _skeleton(game, d.house, mine, d.last_seq):
            asked += "<p>Your turn file: fill it in, seal it (maester sign) and mail it back.</p>" + _pre(skel)
        head.append(f'<div id="asked">{_box("Asked of you now", asked)}</div>')
    if d.notices:
        title = "Your files not taken" if d.house else "Files no registered key sealed: for you only"
        head.append(_box(f"{title} ({len(d.notices)})", "".join(_pre(f"[{p}]\n{t}") for p, t in d.notices)))
    if d.told_houses:
        head.append(_box("Receipts sent to houses", _pre("\n".join(d.told_houses))))
    if d.untaken:
        head.append(_box("Mails not taken", _pre("\n".join(d.untaken))))
    head.append("</div>\n")
    for i, part in enumerate(d.steps, 1):
        latest = i == len(d.steps)
        page = with_map_src(part.page, f"cid:{cid}") if latest and cid else drop_map(part.page)
        inner = _inside_body(page)
        if not latest:
            suffix = f"-{part.number:04d}"
            inner = _ID.sub(lambda m: f"{m[1]}{m[2]}{suffix}{m[3]}", inner)  # noqa: B023 (used at once)
        head.append(f'<h2 id="step-{part.number:04d}" class="step">{escape(part.heading())} '
                    f"<small>({i} of {len(d.steps)})</small></h2>\n{inner}\n")  # fmt: skip
        if part.receipts:
            head.append('<div class="wrap">'
                        + _box("Receipts: what was made of your files applied in this step",
                               "".join(_pre(r) for r in part.receipts)) + "</div>\n")  # fmt: skip
    return "".join(head) + "</body>\n</html>\n"


# --- the mail -------------------------------------------------------------------------------------


def subject(game: Game, d: Digest) -> str:
    """``[winter] round 2 planning, steps 0005-0007: House Stark`` (short enough not to be folded)."""
    who = {MODERATOR: "moderator", PUBLIC: "public report"}.get(d.who, registry.house_name(d.who))
    if not d.steps:
        return f"[{game.game_id}] round {game.state.round} {game.state.phase}: receipts for {who}"
    first, last = d.steps[0].number, d.steps[-1].number
    steps = f"step {last:04d}" if first == last else f"steps {first:04d}-{last:04d}"
    return f"[{game.game_id}] round {game.state.round} {game.state.phase}, {steps}: {who}"


def compose(game: Game, d: Digest, to: str, text: str, page: str, public_json: bytes | None,
            map_png: bytes | None) -> EmailMessage:  # fmt: skip
    """One mail: the text, the HTML alternative with the map inside it (``map_png``, by Content-ID),
    the latest public game state (so that a player can run ``maester check`` offline), a house's
    private part as JSON for each step it carries (its answers' verdicts), and with a key the sealed
    text and its seal attached."""
    m = EmailMessage(policy=policy.default)
    m["From"] = formataddr((f"Maester ({game.game_id})", game.sender))
    m["To"] = formataddr((registry.house_name(d.who), to)) if d.house else to
    m["Subject"] = subject(game, d)
    m["Date"] = format_datetime(game.now)
    m["Message-ID"] = make_msgid(idstring=f"{game.label}.{d.who}", domain=game.sender.rpartition("@")[2] or None)
    m["Auto-Submitted"] = "auto-generated"  # no vacation replies (RFC 3834)
    m["X-Maester-Game"] = game.game_id
    m["X-Maester-Step"] = game.label
    m["X-Maester-Steps"] = " ".join(p.label for p in d.steps) or "none"
    m["X-Maester-House"] = d.who
    m.set_content(text, cte="quoted-printable")
    m.add_alternative(page, subtype="html", cte="quoted-printable")
    if map_png is not None:
        attach_map(m, map_png, map_cid(game))
    if public_json is not None:
        m.add_attachment(public_json, maintype="application", subtype="json",
                         filename=f"{game.game_id}-{game.number:04d}.json")  # fmt: skip
    for part in d.steps if d.house else []:
        if part.private_json is not None:
            m.add_attachment(part.private_json, maintype="application", subtype="json",
                             filename=f"{game.game_id}-{part.number:04d}-{d.who}.json")  # fmt: skip
    if game.key is not None:
        name = d.attachment(game)
        # application/octet-stream, not text/plain: mail programs show it as an attachment to save
        # and leave it out of a reply, which quotes the body (this same text) once. Base64: saved, it
        # is the signed bytes exactly.
        m.add_attachment(text.encode("utf-8"), maintype="application", subtype="octet-stream", filename=name)
        m.add_attachment(seal_report(text, game.key.private).encode("ascii"), maintype="application",
                         subtype="octet-stream", filename=name + ".sig")  # fmt: skip
    return m


def read_report(folder: Path, who: str) -> tuple[str, str]:
    """A step's whole text and HTML report for a reader (a house: its private part joined to the
    public report; the moderator and a list: the public report).

    :raises OSError, UnicodeDecodeError, ReportError: when the folder's files cannot be read.
    """
    from ..reports.report import join_html, join_text

    text = (folder / "public.txt").read_text(encoding="utf-8")
    page = (folder / "public.html").read_text(encoding="utf-8")
    if who in (MODERATOR, PUBLIC):
        return text, page
    return (join_text((folder / f"{who}.txt").read_text(encoding="utf-8"), text),
            join_html((folder / f"{who}.html").read_text(encoding="utf-8"), page))  # fmt: skip
