"""The Tides of Battle deck (optional module, R268-R274): shuffling, drawing, discarding.

With ``options["tides_reshuffle_each_combat"]`` (the default) all 24 cards are shuffled into a
new deck before every combat's House cards are chosen; otherwise the deck made at setup is drawn
from the top and the discards are shuffled into a new deck when it runs out (ruling 44). Every
shuffle uses the game's seeded generator, so a replay draws the same cards.

>>> tides_card("skull").skull, tides_card("two").value
(True, 2)
"""

from __future__ import annotations

from ...game.cards import CARDS, TidesCard
from ...game.state import GameState


def tides_card(card: str) -> TidesCard:
    """The facts of one Tides of Battle card.

    :raises KeyError: for an unknown card id.
    """
    return CARDS.tides[card]


def reshuffles_each_combat(state: GameState) -> bool:
    return bool(state.options.get("tides_reshuffle_each_combat", True))


def prepare_for_combat(state: GameState) -> None:
    """Before the House cards are chosen: a fresh deck of all 24 cards, if the game says so."""
    from ...game.box_setup import draw_shuffle

    if reshuffles_each_combat(state):
        state.tides_deck = draw_shuffle(state, CARDS.tides_deck())
        state.tides_discards = []


def draw(state: GameState) -> str:
    """The top card of the deck; an empty deck is first rebuilt from the discards (ruling 44)."""
    from ...game.box_setup import draw_shuffle

    if not state.tides_deck:
        state.tides_deck = draw_shuffle(state, sorted(state.tides_discards) or CARDS.tides_deck())
        state.tides_discards = []
    return state.tides_deck.pop(0)


def discard(state: GameState, *cards: str) -> None:
    """Cards drawn in a combat go to the discard pile once they are done with."""
    state.tides_discards.extend(c for c in cards if c)
