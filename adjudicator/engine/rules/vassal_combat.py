"""Mother of Dragons: a vassal's combat, fought by its commander (M057-M062, rulings 235-241).

The commander takes every decision of the vassal's side (support it gives or refuses, the House
card, the Blade, casualties, retreat): those requests name the vassal and go to the commander,
who answers ``for tyrell: ...`` (M030). What differs from a player's combat is the card: the
commander draws 3 of the shared deck of 7 vassal cards, plays 1, and the other 2 are the vassal's
hand until the clean-up, when all 7 go back into the deck (M058, M061). The deck is shuffled
before each draw with the game's seeded generator, so a replay draws the same cards.

>>> from adjudicator.game.cards import CARDS
>>> free_vassal_cards({"tyrell": ["bronn", "varys", "syrio_forel"]}, [])
['beric_dondarrion', 'janos_slynt', 'jon_connington', 'jaqen_hghar']
"""

from __future__ import annotations

from ...game.box_setup import draw_shuffle
from ...game.cards import CARDS
from ..cards.registry import ROLES
from ..core.common import gain_power
from ..core.context import Context
from ..core.vassals import head
from ..events.vassals import CommanderRewarded, VassalCardsDrawn, VassalDeckShuffled, VassalHandShown
from .combat_state import Combat

VASSAL_HAND = 3  # M058: the commander draws three


def free_vassal_cards(hands: dict[str, list[str]], played: list[str]) -> list[str]:
    """The vassal cards still in the deck: those no vassal of this combat holds or played (ruling 235)."""
    taken = {c for cards in hands.values() for c in cards} | set(played)
    return [c for c in CARDS.vassal_deck() if c not in taken]


def draw_hands(ctx: Context, combat: Combat) -> None:
    """M058: each vassal side draws 3 from the shuffled deck, the attacker's first (ruling 235); the
    cards are its commander's secret while it chooses (ruling 236)."""
    st = ctx.state
    for role in ROLES:
        vassal = combat.house(role)
        if not vassal or not st.is_vassal(vassal) or vassal in combat.vassal_hands:
            continue
        deck = draw_shuffle(st, free_vassal_cards(combat.vassal_hands, []))
        drawn = sorted(deck[:VASSAL_HAND], key=lambda c: (-CARDS.house_cards[c].strength, c))
        combat.vassal_hands[vassal] = drawn
        ctx.emit(VassalCardsDrawn(vassal=vassal, commander=head(st, vassal), cards=tuple(drawn)))


def show_hands(ctx: Context, combat: Combat) -> None:
    """Ruling 236: once both cards are revealed, a vassal's other 2 cards are open, as any hand (R197)."""
    for role in ROLES:
        vassal = combat.house(role)
        if vassal and vassal in combat.vassal_hands:
            ctx.emit(VassalHandShown(vassal=vassal, area=combat.area, cards=tuple(combat.vassal_hands[vassal])))


def clean_up(ctx: Context, combat: Combat) -> None:
    """M061: every vassal card of the combat goes back into the one deck; M062: a vassal that won
    earns its commander 1 power (ruling 237: only for a combat won against a house)."""
    st = ctx.state
    for role in ROLES:
        vassal = combat.house(role)
        if not vassal or not st.is_vassal(vassal):
            continue
        combat.vassal_hands.pop(vassal, None)
        ctx.emit(VassalDeckShuffled(vassal=vassal))
    winner = combat.house(combat.winner) if combat.winner else None
    commander = st.commander(winner) if winner and st.is_vassal(winner) else None
    if winner and commander and not combat.neutral:
        ctx.emit(CommanderRewarded(vassal=winner, commander=commander))
        gain_power(ctx, commander, 1, f"{winner.title()}'s victory (M062)")
