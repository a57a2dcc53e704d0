"""An event as a report shows it: its sentence, its breakdown tables, the cards it turns face up."""

from __future__ import annotations

import sys
from dataclasses import fields
from typing import Any

from ..engine.events import AnswerUsed, DefaultUsed, Event, OnlyOption
from ..game.board import ALL_HOUSES
from .cardtext import card_ref
from .words import WIDTH, clean

# The cards an event shows face up: (card kind, the fields naming them). Their whole text follows
# the event's sentence.
_SHOWN_CARDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "HouseCardsRevealed": ("house", ("attacker_card", "defender_card")),
    "HouseCardChosen": ("house", ("card",)),
    "WesterosCardRevealed": ("westeros", ("card",)),
    "WildlingCardRevealed": ("wildling", ("card",)),
    "WildlingCardSeen": ("wildling", ("card",)),
    "TidesRevealed": ("tides", ("attacker_card", "defender_card")),
    "TidesDrawn": ("tides", ("card",)),
}


def shown_cards(e: Event) -> list[str]:
    """References (:func:`adjudicator.reports.cardtext.card_ref`) of the cards an event turns face up."""
    kind, names = _SHOWN_CARDS.get(type(e).__name__, ("", ()))
    refs = []
    for name in names:
        card = getattr(e, name, "")
        if isinstance(card, str) and card:
            refs.append(card_ref(kind, card, getattr(e, "deck", None)))
    return list(dict.fromkeys(refs))

def event_view(e: Event, *, private: bool = False) -> dict[str, Any]:
    """An event's sentence and, for every breakdown it carries, a small table.

    A breakdown is a field holding ``(source, amount)`` pairs (a combat's strength, the bids of
    a track) or a dict of amounts. ``<side>_strength`` tables are titled with the house on that
    side and get a total row when the event has ``<side>_total``.
    """
    tables = []
    for f in fields(e):
        value = getattr(e, f.name)
        rows = _pairs(value)
        if rows is None:
            continue
        side = f.name.removesuffix("_strength")
        title = f.name.replace("_", " ").capitalize()
        house = getattr(e, side, None) if side != f.name else None
        if isinstance(house, str):
            title = f"{house.title() if house else 'Neutral force'} ({side})"
        table_rows = [{"label": _source_text(e, str(k)), "amount": v} for k, v in rows]
        total = getattr(e, f"{side}_total", None) if side != f.name else None
        tables.append({"title": title, "rows": table_rows, "total": total})
    return {"type": type(e).__name__, "text": clean(sentence(e)), "private": private, "tables": tables,
            "table_lines": table_lines(tables), "cards": shown_cards(e)}  # fmt: skip


def sentence(e: Event) -> str:
    """The event's sentence; the step machine's own records are worded here for the reader.

    >>> sentence(AnswerUsed(house="stark", decision="resolve one of your raid orders",
    ...                     answer="raid from Winterfell: none"))
    'Your answer "raid from Winterfell: none" was taken for: resolve one of your raid orders.'
    >>> from adjudicator.engine.events.action import OrdersRevealed
    >>> sentence(OrdersRevealed(orders=(("winterfell", "stark", "march+1"), ("pyke", "greyjoy", "raid"),
    ...                                 ("white_harbor", "stark", "defense+2"))))
    'Orders revealed. Stark: March +1 in Winterfell, Defense +2 in White Harbor. Greyjoy: Raid in Pyke.'
    """
    if isinstance(e, AnswerUsed) and e.visible_to == e.house:
        return f'Your answer "{e.answer}" was taken for: {e.decision}.'
    if isinstance(e, OnlyOption):
        return f"{e.house.title()} had one legal answer, taken without asking: {e.answer}."
    if isinstance(e, DefaultUsed):
        return f"{e.house.title()} did not answer by the deadline: {e.decision}. Default taken: {e.answer}."
    return e.describe()


def table_lines(tables: list[dict[str, Any]], *, indent: int = 6, width: int = WIDTH) -> list[str]:
    """Breakdown tables as text: two side by side when they fit, else one after the other."""
    blocks = [_table_block(t) for t in tables]
    if len(blocks) == 2 and all(len(line) <= (width - indent - 4) // 2 for b in blocks for line in b):
        left, right = blocks
        col = max(len(line) for line in left) + 4
        rows = max(len(left), len(right))
        left += [""] * (rows - len(left))
        right += [""] * (rows - len(right))
        return [(" " * indent + a.ljust(col) + b).rstrip() for a, b in zip(left, right)]
    return [(" " * indent + line).rstrip() for b in blocks for line in b]


def _table_block(t: dict[str, Any]) -> list[str]:
    rows = [(r["label"], str(r["amount"])) for r in t["rows"]]
    if t["total"] is not None:
        rows.append(("total", str(t["total"])))
    label_w = min(max(len(a) for a, _ in rows), WIDTH - 16)
    num_w = max(len(b) for _, b in rows)
    lines = [t["title"]]
    for label, amount in rows:
        short = label if len(label) <= label_w else label[: label_w - 1] + "…"
        lines.append(f"  {short.ljust(label_w, '.')}..{amount.rjust(num_w)}")
    return lines


def _pairs(value: Any) -> list[tuple[Any, Any]] | None:
    if isinstance(value, dict) and value and all(_is_amount(v) for v in value.values()):
        return sorted(value.items())
    if isinstance(value, (tuple, list)) and value and all(
        isinstance(p, (tuple, list)) and len(p) == 2 and isinstance(p[0], str) and _is_amount(p[1]) for p in value
    ):
        return [(p[0], p[1]) for p in value]
    return None


def _is_amount(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _source_text(e: Event, source: str) -> str:
    """Words for a breakdown's row: the event module's ``source_text`` if it has one."""
    if source in ALL_HOUSES:  # Arryn and Targaryen bid too
        return source.title()
    describe = getattr(sys.modules.get(type(e).__module__), "source_text", None)
    if callable(describe):
        return clean(str(describe(source)))
    return clean(source.replace("_", " ").replace(":", ": "))

