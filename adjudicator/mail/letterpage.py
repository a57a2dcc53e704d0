"""The HTML part of a reader's mail: the text part's order (:mod:`adjudicator.mail.letter`), made of
the sections of the steps' HTML reports, with the latest step's map shown by Content-ID.

Styles stay on the elements (webmail drops ``<style>``); the earlier steps' element ids get the
step's number, so that no two elements of the mail share one.
"""

from __future__ import annotations

import re

from markupsafe import escape

from ..reports.report import drop_map, with_map_src
from ..reports.sections import Section
from .digest import Digest, Game, StepPart, due_lines, due_words
from .letter import NOW_LAST, NOW_PRIVATE, NOW_PUBLIC, has_news, undone_lines, what_it_holds

_BODY = "margin:0;padding:0;background:#f4f1ea;color:#222;font:15px/1.45 'DejaVu Sans',Verdana,Arial,sans-serif"
_WRAP = "max-width:1240px;margin:0 auto;padding:8px"
_BOX = "background:#ffffff;border:1px solid #cfc6b3;padding:6px 10px 10px;margin:0 0 10px"
_PRIVATE = _BOX + ";border-color:#b8860b;background:#fffaf0"
_H2 = "font-size:16px;margin:4px 0 6px;border-bottom:2px solid #e3dccb;padding-bottom:3px"
_PRE = "white-space:pre-wrap;font:13px/1.35 'DejaVu Sans Mono',Menlo,Consolas,monospace;margin:4px 0"
_STEP = "margin:18px 0 8px;padding:6px 12px;background:#2b2a28;color:#f4efe2;font-size:18px"
_ID = re.compile(r'(\sid=")([^"]+)(")')
_FIRST_H3 = re.compile(r"^\s*<h3[^>]*>.*?</h3>\n?", re.S)


def _box(title: str, inner: str, style: str = _BOX) -> str:
    return f'<div style="{style}"><h2 style="{_H2}">{escape(title)}</h2>{inner}</div>\n'


def _pre(text: str) -> str:
    return f'<pre style="{_PRE}">{escape(text.rstrip())}</pre>'


def _pick(sections: tuple[Section, ...], *names: str) -> str:
    return "".join(s.text for name in names for s in sections if s.name == name)


def letter_page(game: Game, d: Digest, now: StepPart | None, cid: str | None) -> str:
    """The HTML part; ``cid``: the Content-ID of the latest step's map picture (none: no map)."""
    out = [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
           f"<title>Maester · {escape(game.title)}</title>\n</head>\n"
           f'<body style="{_BODY}">\n<div style="background:#2b2a28;color:#f4efe2;padding:8px 12px">'
           f'<h1 style="margin:0;font-size:20px;line-height:1.25">Maester · {escape(game.title)}</h1>'
           f'<p style="margin:2px 0 0;color:#d9cfb8">{escape(_intro(d))}</p></div>\n'
           f'<div style="{_WRAP}">\n']  # fmt: skip
    if d.undone:
        out.append(_box("Undone by the moderator", _pre("\n".join(line.strip() for line in undone_lines(d)))))
    if d.house is not None and now is not None:
        out.append(_asked(game, d, now.private_page))
    out += _receipts(d)
    shown = [p for p in d.steps if has_news(p)]
    for i, part in enumerate(shown, 1):
        inner = _pick(part.public_page, "winner") + (_pick(part.public_page, "events") if part.public_events else "")
        mine = _pick(part.private_page, "only-you", "judged")
        if mine:
            inner += f'<div style="{_PRIVATE}">{mine}</div>\n'
        if part is not now:
            suffix = f"-{part.number:04d}"
            inner = _ID.sub(lambda m: f"{m[1]}{m[2]}{suffix}{m[3]}", inner)  # noqa: B023 (used at once)
        out.append(f'<h2 id="step-{part.number:04d}" style="{_STEP}">{escape(part.heading())} '
                   f"<small>({i} of {len(shown)})</small></h2>\n{inner}")  # fmt: skip
    if shown and now is not None:  # the game as it stands, when a step told something
        shown_map = _pick(now.public_page, "map")
        shown_map = with_map_src(shown_map, f"cid:{cid}") if cid else drop_map(shown_map)
        out.append(f'<h2 id="now" style="{_STEP}">The game now, after {escape(now.heading())}</h2>\n{shown_map}')
        out.append(_pick(now.public_page, *NOW_PUBLIC))
        hand = _pick(now.private_page, *NOW_PRIVATE)
        if hand:
            out.append(f'<div style="{_PRIVATE}">{hand}</div>\n')
        out.append(_pick(now.public_page, *NOW_LAST))
    return "".join(out) + "</div>\n</body>\n</html>\n"


def _intro(d: Digest) -> str:
    if d.house is None:
        return f"The public reports: {what_it_holds(d)}."
    return f"Private report for House {d.who.title()}: for your eyes only. This mail: {what_it_holds(d)}."


def _asked(game: Game, d: Digest, private: tuple[Section, ...]) -> str:
    when = due_words(d, game.now)
    title = "Asked of you now" + (f": {when}" if when else "")
    inner = "".join(f'<p style="margin:0">{escape(line)}</p>' for line in due_lines(d, game.now))
    inner += _FIRST_H3.sub("", _pick(private, "decisions"), count=1)
    inner += _pick(private, "turn-file", "coming-up", "waiting")
    return f'<div id="asked">{_box(title, inner, _PRIVATE)}</div>\n'


def _receipts(d: Digest) -> list[str]:
    out = []
    if d.notices:
        title = "Your files not taken" if d.house else "Files no registered key sealed: for you only"
        out.append(_box(f"{title} ({len(d.notices)})", "".join(_pre(f"[{p}]\n{t}") for p, t in d.notices)))
    taken = [(part, r) for part in d.steps for r in part.receipts]
    if taken:
        out.append(_box(f"Your files taken ({len(taken)}): what was made of each",
                        "".join(_pre(f"[applied in step {part.number:04d}]\n{r}") for part, r in taken)))  # fmt: skip
    if d.told_houses:
        out.append(_box("Receipts sent to houses", _pre("\n".join(d.told_houses))))
    if d.not_taken:
        out.append(_box(f"Mails not taken ({len(d.not_taken)})", _pre("\n".join(d.not_taken))))
    return out
