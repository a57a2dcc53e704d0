"""The HTML part of a reader's mail: the text part's order (:mod:`adjudicator.mail.letter`), made of
the sections of the steps' HTML reports, with the latest step's map shown by Content-ID.

Every look is a class of the reports' one stylesheet, which the mail's head carries; the earlier
steps' element ids get the step's number, so that no two elements of the mail share one.
"""

from __future__ import annotations

import re

from markupsafe import escape

from ..reports.report import drop_map, stylesheet, with_map_src
from ..reports.sections import Section
from .digest import Digest, Game, StepPart, due_lines, due_words
from .letter import NOW_LAST, NOW_PRIVATE, NOW_PUBLIC, has_news, receipt_in_mail, undone_lines, what_it_holds

_ID = re.compile(r'(\sid=")([^"]+)(")')
_FIRST_H3 = re.compile(r"^\s*<h3[^>]*>.*?</h3>\n?", re.S)


def _box(title: str, inner: str, kind: str = "sec") -> str:
    return f'<div class="{kind}"><h2>{escape(title)}</h2>{inner}</div>\n'


def _pre(text: str) -> str:
    return f'<pre class="mono">{escape(text.rstrip())}</pre>'


def _pick(sections: tuple[Section, ...], *names: str) -> str:
    return "".join(s.text for name in names for s in sections if s.name == name)


def letter_page(game: Game, d: Digest, now: StepPart | None, cid: str | None) -> str:
    """The HTML part; ``cid``: the Content-ID of the latest step's map picture (none: no map)."""
    style = (now.style if now is not None else "") or stylesheet()
    out = [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
           f"<title>Maester · {escape(game.title)}</title>\n{style}\n</head>\n"
           f'<body>\n<div class="top"><h1>Maester · {escape(game.title)}</h1>'
           f"<p>{escape(_intro(d))}</p></div>\n"
           '<div class="wrap">\n']  # fmt: skip
    if d.undone:
        out.append(_box("Undone by the moderator", _pre("\n".join(line.strip() for line in undone_lines(d)))))
    if d.house is not None and now is not None:
        out.append(_asked(game, d, now.page))
    out += _receipts(d)
    shown = [p for p in d.steps if has_news(p)]
    for i, part in enumerate(shown, 1):
        inner = _pick(part.page, "winner") + (_pick(part.page, "events") if part.public_events else "")
        mine = _pick(part.page, "only-you", "judged")
        if mine:
            inner += f'<div class="sec private">{mine}</div>\n'
        if part is not now:
            suffix = f"-{part.number:04d}"
            inner = _ID.sub(lambda m: f"{m[1]}{m[2]}{suffix}{m[3]}", inner)  # noqa: B023 (used at once)
        out.append(f'<h2 id="step-{part.number:04d}" class="step">{escape(part.heading())} '
                   f"<small>({i} of {len(shown)})</small></h2>\n{inner}")  # fmt: skip
    if shown and now is not None:  # the game as it stands, when a step told something
        shown_map = _pick(now.page, "map")
        shown_map = with_map_src(shown_map, f"cid:{cid}") if cid else drop_map(shown_map)
        out.append(f'<h2 id="now" class="step">The game now, after {escape(now.heading())}</h2>\n{shown_map}')
        out.append(_pick(now.page, *NOW_PUBLIC))
        hand = _pick(now.page, *NOW_PRIVATE)
        if hand:
            out.append(f'<div class="sec private">{hand}</div>\n')
        out.append(_pick(now.page, *NOW_LAST))
    return "".join(out) + "</div>\n</body>\n</html>\n"


def _intro(d: Digest) -> str:
    if d.house is None:
        return f"The public reports: {what_it_holds(d)}."
    return f"Private report for House {d.who.title()}: for your eyes only. This mail: {what_it_holds(d)}."


def _asked(game: Game, d: Digest, private: tuple[Section, ...]) -> str:
    when = due_words(d, game.now)
    title = "Asked of you now" + (f": {when}" if when else "")
    inner = "".join(f"<p>{escape(line)}</p>" for line in due_lines(d, game.now))
    inner += _FIRST_H3.sub("", _pick(private, "decisions"), count=1)
    inner += _pick(private, "turn-file", "coming-up", "waiting", "standing")
    return f'<div id="asked">{_box(title, inner, "sec private")}</div>\n'


def _receipts(d: Digest) -> list[str]:
    out = []
    if d.notices:
        title = "Your files not taken" if d.house else "Files no registered key sealed: for you only"
        out.append(_box(f"{title} ({len(d.notices)})", "".join(_pre(f"[{p}]\n{t}") for p, t in d.notices)))
    taken = [(part, r) for part in d.steps for r in part.receipts]
    if taken:
        out.append(_box(f"Your files taken ({len(taken)}): what was made of each",
                        "".join(_pre(f"[applied in step {part.number:04d}]\n{receipt_in_mail(r)}")
                                for part, r in taken)))  # fmt: skip
    if d.told_houses:
        out.append(_box("Receipts sent to houses", _pre("\n".join(d.told_houses))))
    if d.untaken:
        out.append(_box(f"Mails not taken ({len(d.untaken)})", _pre("\n".join(d.untaken))))
    return out
