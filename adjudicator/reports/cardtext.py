"""The whole text of a card, from the card data: the one place every report takes a card's text from.

A House card's text is its timing, its condition and its effect; a Westeros card's is its effect;
a wildling card's is what each bidder gets on either outcome. :func:`card_text` gives the line
every report prints for a card, ``[name · numbers] text``, so a player plans on the card as printed.

>>> print(card_text("stannis_baratheon"))
[Stannis Baratheon · 4] Combat strength, if your opponent is ahead of you (closer to position 1) on the Iron Throne track: Stannis counts +1 combat strength (5 instead of 4).
>>> print(card_text("westeros:3:web_of_lies"))
[Westeros III: Web of Lies · wildling icon] No Support Orders (normal or special) may be placed in the coming Planning Phase.
"""

from __future__ import annotations

from functools import lru_cache

from ..game.cards import CARDS, HouseCard, WildlingCard

# When a House card's text applies, in the order of a combat (cards.toml's `when`).
TIMING = {
    "on_reveal_cancel": "When revealed, before any other text",
    "on_reveal_immediately": "Immediately",
    "combat_strength": "Combat strength",
    "after_victor_determined": "Once the victor is known",
    "casualties": "Casualties",
    "retreat": "Retreat",
    "after_combat": "After combat",
}
DECK_NUMERALS = {1: "I", 2: "II", 3: "III", 4: "IV"}  # IV: Mother of Dragons (M082)
_BIDDERS = (("highest_bidder", "highest bidder"), ("lowest_bidder", "lowest bidder"),
            ("everyone_else", "everyone else"))  # fmt: skip
_NOTHING = "Nothing happens."


def card_ref(kind: str, card_id: str, deck: int | str | None = None) -> str:
    """The reference :func:`card_text` takes: ``robb_stark``, ``westeros:2:clash_of_kings``, ``wildling:crow_killers``."""
    if kind == "house":
        return card_id
    if kind == "westeros":
        return f"westeros:{deck}:{card_id}"
    return f"{kind}:{card_id}"


def card_text(ref: str) -> str:
    """``[name · numbers] text`` for a card reference (see :func:`card_ref`); an unknown card by its id.

    Every report of a step prints the houses' hands, so each card's text is worked out once per
    process (the card data is fixed once loaded); a reference that cannot be a key is worked out as
    it comes.

    >>> print(card_text("eddard_stark"))
    [Eddard Stark · 4 · 2 swords] No text.
    """
    try:
        return _card_text_once(ref)
    except TypeError:  # unhashable: not a reference any report makes
        return _card_text(ref)


@lru_cache(maxsize=4096, typed=True)
def _card_text_once(ref: str) -> str:
    return _card_text(ref)


def clear_caches() -> None:
    """Forget the cards' texts worked out so far."""
    _card_text_once.cache_clear()


def _card_text(ref: str) -> str:
    kind, _, rest = ref.rpartition(":") if ref.count(":") == 1 else ("", "", ref)
    if ref.startswith("westeros:"):
        _, deck, card_id = ref.split(":", 2)
        return _westeros(deck, card_id)
    if kind == "wildling":
        wild = CARDS.wildling_cards.get(rest)
        return f"[Wildling card: {wild.name}] {wildling_text(wild)}" if wild else f"[{rest}]"
    if kind == "tides":
        tide = CARDS.tides.get(rest)
        return f"[Tides of Battle: {_tides(rest)}]" if tide else f"[{rest}]"
    card = CARDS.house_cards.get(ref)
    if card is None:
        return f"[{ref.replace('_', ' ')}]"
    return f"[{card.name} · {card.strength}{''.join(f' · {i}' for i in icons(card))}] {house_card_text(card)}"


def icons(card: HouseCard) -> list[str]:
    """``["2 swords", "1 fortification"]``: the icons printed on a House card."""
    out = []
    if card.swords:
        out.append(f"{card.swords} sword{'s' if card.swords > 1 else ''}")
    if card.fortifications:
        out.append(f"{card.fortifications} fortification{'s' if card.fortifications > 1 else ''}")
    return out


def house_card_text(card: HouseCard) -> str:
    """Timing, condition and effect of a House card's text ("No text." for a card with icons only)."""
    if not card.has_ability or not card.ability:
        return "No text."
    cond = card.condition.strip()
    when = TIMING.get(card.when, card.when.replace("_", " ").capitalize())
    if cond and cond != "always":
        when += f", {cond}" if cond.startswith("always") else f", if {cond}"
    return f"{when}{' (you may decline)' if card.optional else ''}: {card.ability}"


def wildling_text(card: WildlingCard) -> str:
    """What each bidder gets when the Night's Watch holds and when the wildlings win.

    >>> from adjudicator.game.cards import CARDS
    >>> print(wildling_text(CARDS.wildling_cards["skinchanger_scout"]))
    Night's Watch victory: highest bidder: Gets back all the Power tokens it bid in this attack (they return to its available power instead of the pool). Wildling victory: lowest bidder: Discards all of its available Power tokens; everyone else, the highest bidder too: Discards 2 available Power tokens (or all it has, if fewer).
    """
    parts = []
    for outcome, title in (("nights_watch_victory", "Night's Watch victory"), ("wildling_victory", "Wildling victory")):
        texts = card.texts.get(outcome, {})
        highest_too = str(texts.get("highest_bidder", "")).startswith("Same as everyone else")
        said = []
        for key, who in _BIDDERS if outcome == "nights_watch_victory" else _BIDDERS[1:] + _BIDDERS[:1]:
            text = str(texts.get(key, "")).strip()
            if not text or text == _NOTHING or (key == "highest_bidder" and highest_too):
                continue
            said.append(f"{who}{', the highest bidder too' if key == 'everyone_else' and highest_too else ''}: "
                        f"{text.rstrip('.')}")
        parts.append(f"{title}: " + ("; ".join(said) if said else "nothing happens") + ".")
    return " ".join(parts)


def _westeros(deck: str, card_id: str) -> str:
    try:
        card = CARDS.westeros_card(int(deck), card_id)
    except (StopIteration, ValueError):
        return f"[Westeros {deck}: {card_id.replace('_', ' ')}]"
    icon = " · wildling icon" if card.wildling_icon else ""
    return f"[Westeros {DECK_NUMERALS.get(card.deck, deck)}: {card.name}{icon}] {card.effect}"


def _tides(card_id: str) -> str:
    t = CARDS.tides[card_id]
    parts = [f"+{t.value}" if t.value else "0"]
    parts += [f"{t.swords} sword{'s' if t.swords > 1 else ''}"] if t.swords else []
    parts += [f"{t.fortifications} fortification{'s' if t.fortifications > 1 else ''}"] if t.fortifications else []
    parts += ["skull"] if t.skull else []
    return ", ".join(parts)
