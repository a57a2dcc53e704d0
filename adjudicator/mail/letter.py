"""The text part of a reader's mail, in the order a reader acts on it (ruling 310).

1. what is asked of the house now and by when (UTC, and the time left), with the legal answers
   and the defaults;
2. its one turn file, ready to fill in: the decisions asked and those coming up (ruling 124);
3. the receipts of its files, taken or not;
4. what happened in each step since its last mail, oldest first: the public events, what only the
   house saw, its answers judged (a step with nothing for the reader is left out);
5. the game as the latest step left it: who is asked next, the board, the houses, the tracks, the
   decks and cards, the house's hand;
6. the moderator's seal and how to check it.

Every part is a section of a report in the game folder, cut by :mod:`adjudicator.reports.sections`
and put in this order, so the mail says exactly what the reports say, once. The moderator's and a
game list's mails hold the public parts the same way.
"""

from __future__ import annotations

import textwrap

from ..reports.report import WIDTH
from ..reports.sections import Section, pick, trimmed
from ..seals import seal
from .digest import MODERATOR, PUBLIC, REPORT_NAMESPACE, Digest, Game, StepPart, due_lines, due_words

STEP_MARK = "## "  # begins each step's heading, one line (ruling 319): a reader (or a test) splits there
BOX_RULE = "=" * WIDTH
# What the latest step shows of the game as it stands, after the steps' events (its order).
NOW_PUBLIC = ("needed", "board", "houses", "tracks", "vassals", "wildlings", "iron-bank", "cards")
NOW_PRIVATE = ("hand", "vassal-hand", "discards")
NOW_LAST = ("keys", "seed")
ASKED_HEADING = "ASKED OF YOU NOW"
GAME_NOW = "THE GAME NOW"


def heading_line(title: str) -> str:
    """A step's heading as one line, filled to the width with ``#`` (ruling 319: a rule above and one
    below it were two lines more a step in a digest of forty).

    >>> heading_line("STEP 0005 · ROUND 2 · WESTEROS PHASE (1 of 3)")[:52]
    '## STEP 0005 · ROUND 2 · WESTEROS PHASE (1 of 3) ###'
    """
    line = f"{STEP_MARK}{title} "
    return line + "#" * max(2, WIDTH - len(line))


def wrap(text: str, first: str = "  ", rest: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [
        first.rstrip()]  # fmt: skip


def lines_of(text: str) -> list[str]:
    """A section's lines, without the blank lines after it."""
    return trimmed(text).rstrip("\n").split("\n") if text.strip() else []


def what_it_holds(d: Digest) -> str:
    n = len(d.steps)
    if n == 0:
        return "no new step since your last mail"
    if n == 1:
        return f"step {d.steps[0].number:04d}"
    return f"steps {d.steps[0].number:04d} to {d.steps[-1].number:04d}, since your last mail"


def undone_lines(d: Digest) -> list[str]:
    out = []
    for u in d.undone:
        steps = f"step {u['to'] + 1:04d}" if u["through"] == u["to"] + 1 else f"steps {u['to'] + 1:04d} to {u['through']:04d}"
        out += wrap(f"The moderator undid {steps}, mailed to you before (rolled back to step {u['to']:04d}: "
                    f"{u['reason']}). Their reports no longer stand; the steps that replace them are below.")  # fmt: skip
    return out


ASKED_THEN = ("\n\nAsked of you now:", "\n\nNothing is asked of you now")  # a receipt's last paragraph


def receipt_in_mail(receipt: str) -> str:
    """A receipt of a file taken, as a mail carries it: without its last paragraph, what was asked of
    the house when the file was applied, which the mail's first section says as it stands now (ruling
    315; the receipt in the game folder keeps it)."""
    cut = max(receipt.rfind(head) for head in ASKED_THEN)
    return receipt[:cut] + "\n" if cut > 0 else receipt


def has_news(part: StepPart) -> bool:
    """Whether a step tells the reader anything: a public event, one of its own, an answer judged."""
    return bool(part.public_events or part.private_events or part.judged)


def letter_text(game: Game, d: Digest, now: StepPart | None) -> str:
    """The text part. ``now``: the latest step's reports as the reader sees them (what is asked now,
    the turn file, the board and hand come from it), whether or not this mail carries that step."""
    out = [f"MAESTER · {game.title}", *_intro(d)]
    if d.undone:
        out += ["", "UNDONE BY THE MODERATOR", *undone_lines(d)]
    if d.house is not None and now is not None:
        out += _asked(game, d, now.private_text)
    out += _receipts(d)
    shown = [p for p in d.steps if has_news(p)]
    for i, part in enumerate(shown, 1):
        out += ["", heading_line(f"{part.heading().upper()} ({i} of {len(shown)})"), *_step(part)]
    if shown and now is not None:  # the game as it stands, when a step told something
        out += ["", heading_line(f"{GAME_NOW}, AFTER {now.heading().upper()}")]
        out += _sections(now.public_text, NOW_PUBLIC) + _sections(now.private_text, NOW_PRIVATE)
        out += _sections(now.public_text, NOW_LAST)
    if game.fingerprint:
        out += ["", "-" * WIDTH, *seal_paragraph(game.fingerprint, d.text_name(game))]
    return seal.normalise("\n".join(out))


def _intro(d: Digest) -> list[str]:
    if d.who == PUBLIC:
        return wrap(f"The public reports: {what_it_holds(d)}.", "", "")
    if d.who == MODERATOR:
        return wrap(f"For the moderator: the public reports ({what_it_holds(d)}), and the mail no house may "
                    "be sent.", "", "")  # fmt: skip
    return wrap(f"PRIVATE report for House {d.who.title()}: for your eyes only. This mail: {what_it_holds(d)}. "
                "What is asked of you comes first.", "", "")  # fmt: skip


def _sections(sections: tuple[Section, ...], names: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for name in names:
        for s in sections:
            if s.name == name and s.text.strip():
                out += ["", *lines_of(s.text)]
    return out


def _asked(game: Game, d: Digest, private: tuple[Section, ...]) -> list[str]:
    """What is asked and by when, the legal answers and defaults, the one turn file, what comes up."""
    decisions = lines_of(pick(private, "decisions"))
    when = due_words(d, game.now)
    out = ["", ASKED_HEADING + (f": {when}" if when else "")]
    out += [f"  {line}" for line in due_lines(d, game.now)]
    out += decisions[1:]  # the report's YOUR DECISIONS, its heading replaced by the one above
    return out + _sections(private, ("turn-file", "coming-up", "waiting", "standing"))


def _receipts(d: Digest) -> list[str]:
    out: list[str] = []
    if d.notices:
        what = "YOUR FILES NOT TAKEN" if d.house else "FILES NO REGISTERED KEY SEALED: for you only"
        out += ["", BOX_RULE, f"{what} ({len(d.notices)})", BOX_RULE]
        for path, text in d.notices:
            out += ["", f"[{path}]", text.rstrip("\n")]
    taken = [(part, r) for part in d.steps for r in part.receipts]
    if taken:
        out += ["", BOX_RULE, f"YOUR FILES TAKEN ({len(taken)}): what was made of each", BOX_RULE]
        for part, receipt in taken:
            out += ["", f"[applied in step {part.number:04d}]", receipt_in_mail(receipt).rstrip("\n")]
    if d.told_houses:
        out += ["", "RECEIPTS SENT TO HOUSES (refused files whose seal a house's key made)"]
        out += [f"  {line}" for line in d.told_houses]
    if d.untaken:
        out += ["", "MAILS NOT TAKEN (sender, subject, date: why; the answer its sender got)"]
        out += [w for line in d.untaken for w in wrap(line, "  ", "    ")]
    return out


def _step(part: StepPart) -> list[str]:
    """One step's events: the public ones, then what only the reader saw, then its answers judged."""
    out = _sections(part.public_text, ("winner",))
    if part.public_events:
        out += _sections(part.public_text, ("events",))
    return out + _sections(part.private_text, ("only-you", "judged"))


def seal_paragraph(fingerprint: str, name: str) -> list[str]:
    """How to check the moderator's seal: save the text and the seal, make the allowed-signers file, run.

    Wrapped at spaces only, so that no name (``maester-report``, ``report-0012-stark.txt``) is
    cut at a hyphen, and every command is a line to copy as it is.
    """
    prose = (f"The attachment {name}.sig seals this text (namespace {REPORT_NAMESPACE}). To check it, save "
             f"this text as {name} (in mutt: v, then s on the text part) and the attachment beside it, and "
             "once make the file moderator.allowed from the moderator's public key (moderator.pub, which "
             "the moderator gave you when the game began):")  # fmt: skip
    return ["Sealed by the moderator's key", f"  {fingerprint}.",
            *textwrap.wrap(prose, WIDTH, break_on_hyphens=False, break_long_words=False),
            f"  echo \"moderator namespaces=\\\"{REPORT_NAMESPACE}\\\" $(cat moderator.pub)\" \\",
            "    > moderator.allowed",
            f"  ssh-keygen -Y verify -f moderator.allowed -I moderator -n {REPORT_NAMESPACE} \\",
            f"    -s {name}.sig < {name}",
            *textwrap.wrap(f"It says Good \"{REPORT_NAMESPACE}\" signature for moderator. Or, with Maester "
                           "installed (this whole mail, saved as a file, checks too):", WIDTH,
                           break_on_hyphens=False, break_long_words=False),
            f"  maester verify-report --key moderator.pub {name}"]  # fmt: skip
