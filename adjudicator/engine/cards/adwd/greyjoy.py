"""House Greyjoy's A Dance with Dragons cards (Victarion Greyjoy, Asha Greyjoy and Ser Harras
Harlaw have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ..registry import (
    Bonus,
    CombatView,
    Effect,
    GainPower,
    LosePower,
    Me,
    Skip,
    StackDeck,
    choice,
    house_card,
    pick_or_no,
)

QARL_GAIN = 3


def euron_crows_eye_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """+1 combat strength if your opponent is above you on the Fiefdoms track."""
    opponent = view.house(me.opponent)
    if opponent and view.position("fiefdoms", opponent) < view.position("fiefdoms", me.house):
        yield Bonus(me.role, 1)


house_card("euron_crows_eye_adwd", euron_crows_eye_adwd, when="combat_strength")


def rodrik_the_reader(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may search one Westeros deck for a card, shuffle the rest and put the card
    face down on top of that deck."""
    if view.winner() != me.role:
        return
    options = [choice(me.card, westeros_card=c, deck=d) for d in (1, 2, 3, 4)
               for c in sorted(set(view.westeros_deck(d)))]
    if not options:
        yield Skip("every Westeros deck is empty")
        return
    # The deck's cards are hidden information (R267): its owner alone sees them, and its answer.
    picked = pick_or_no(view, me, "put a Westeros card on top of its deck ('CARD' or 'CARD, deck II'), or 'no'",
                        options, secret=True)
    if picked and picked.westeros_card and picked.deck:
        yield StackDeck(picked.deck, picked.westeros_card)
    else:
        yield Skip("declined")


house_card("rodrik_the_reader", rodrik_the_reader, when="after_victor_determined")


def qarl_the_maid(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you attack and lose, gain 3 power tokens."""
    if me.attacking and view.winner() == me.opponent:
        yield GainPower(QARL_GAIN)


house_card("qarl_the_maid", qarl_the_maid, when="after_victor_determined")


def aeron_damphair_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """Immediately you may discard any number of available power tokens: +1 strength for each."""
    power = view.power(me.house)
    if not power:
        yield Skip("no available power tokens")
        return
    picked = pick_or_no(view, me, f"discard power tokens for +1 strength each ('1' to '{power}'), or 'no'",
                        [choice(me.card, amount=n) for n in range(1, power + 1)])
    if picked and picked.amount:
        yield LosePower(me.house, picked.amount)
        yield Bonus(me.role, picked.amount)
    else:
        yield Skip("declined")


house_card("aeron_damphair_adwd", aeron_damphair_adwd, when="on_reveal_immediately")
