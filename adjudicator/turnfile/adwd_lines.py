"""The answers of A Dance with Dragons' house cards that no other card asks for (ruling 380).

``Aeron Damphair: 3`` (power tokens paid), ``Qyburn: Roose Bolton`` (a card named alone),
``Ser Ilyn Payne: destroy footman in Winterfell`` (one footman, by its area) and ``Rodrik the
Reader: Winter is Coming, deck II`` (a Westeros card, with its deck where two decks hold it). The
parser's line builder inherits :class:`DanceLines`; :func:`adwd_form` reads a choice's form.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from .names import OPTION_WORDS, normalise

# A deck as a player names it after a Westeros card: "deck II", "deck 2", "II", "two".
DECK_WORDS = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "1": 1, "2": 2, "3": 3, "4": 4,
              "one": 1, "two": 2, "three": 3, "four": 4}
MAX_AMOUNT = 20  # a house never holds more power tokens


class DanceLines:
    """The transformer callbacks of the answers only A Dance with Dragons' cards give."""

    def rhs_amount(self, ch: list[Any]) -> Any:
        """``3`` or ``3 power``: a number of power tokens."""
        return ("amount", ch[0])


def adwd_form(c: Any, rhs: tuple[Any, ...], allowed: frozenset[str]) -> tuple[str, dict[str, Any]] | None:
    """The form of an A Dance with Dragons card's answer, and its fields; ``None`` for any other."""
    if rhs[0] == "amount":
        tok: Token = rhs[1]
        if "amount" not in allowed:
            return f"?{tok}", {}
        return "amount", {"amount": c.count(tok, 1, MAX_AMOUNT, "a number of power tokens")}
    if rhs[0] == "destroy" and "destroy_one" in allowed:
        return "destroy_one", _one_footman(c, rhs[1][1])
    if rhs[0] == "names" and "westeros" in allowed and len(rhs[1]) == 2:
        card, deck = rhs[1]
        return "westeros", {"westeros_card": c.name("westeros_card", card), "deck": _deck(c, deck)}
    if rhs[0] != "option" or normalise(rhs[1].text) in OPTION_WORDS:
        return None
    if "westeros" in allowed:
        return "westeros", {"westeros_card": c.name("westeros_card", rhs[1])}
    if "card" in allowed:
        return "card", {"house_card": c.name("house_card", rhs[1])}
    return None


def _one_footman(c: Any, locs: list[tuple[Any, ...]]) -> dict[str, Any]:
    """``destroy footman in AREA``: exactly one footman, named by its area."""
    _, count, unit, area = locs[0]
    if len(locs) != 1 or (count is not None and str(count) != "1") or c.name("unit", unit) not in ("footman", None):
        c.error("E206", "Ser Ilyn Payne destroys one footman: write 'destroy footman in AREA'", unit)
    return {"area": c.name("area", area)}


def _deck(c: Any, name: Any) -> int | None:
    words = normalise(name.text).split()
    word = words[-1] if words and (len(words) == 1 or words[0] == "deck") and len(words) <= 2 else ""
    if word not in DECK_WORDS:
        c.error("E206", f"{name.text!r} is not a Westeros deck: write 'deck I', 'deck II', 'deck III' or 'deck IV'", name)
        return None
    return DECK_WORDS[word]
