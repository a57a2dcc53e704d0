"""Shared pieces of the tests of A Dance with Dragons' house cards (tests/cards/test_adwd_*.py).

Every position deals the A Dance with Dragons decks (``[options] house_cards = "adwd"``); the card
tests fight real combats through the step machine, as the base cards' tests do.
"""

from __future__ import annotations

from typing import Any

from adjudicator.game.state import GameState

from .test_combat_harness import check_icons, duel

ADWD = '[options]\nhouse_cards = "adwd"'


def adwd_duel(attacker: str, defender: str, **kw: Any) -> GameState:
    """:func:`duel` with the A Dance with Dragons decks."""
    return duel(attacker, defender, options=ADWD, **kw)


# check_icons' opponents with these decks: Quentyn Martell for Tyrell, Margaery Tyrell for the rest.
ADWD_OPPONENTS = {"tyrell": ("martell", "quentyn_martell", "big_man", 1),
                  "*": ("tyrell", "margaery_tyrell_adwd", "randyll_tarly_adwd", 2)}


def check_adwd_icons(battle: Any, house: str, card: str, *, strength: int, swords: int, forts: int) -> None:
    """A card without text: its strength and swords when it attacks, its fortifications when it defends.

    The opponent plays a card whose text does nothing here (Margaery Tyrell away from home, or
    Quentyn Martell with an empty discard pile); a third house holds The Boneway and The Reach, so
    the loser's survivors retreat to Storm's End without a question.
    """
    check_icons(battle, house, card, strength=strength, swords=swords, forts=forts, opponents=ADWD_OPPONENTS,
                options=ADWD)
