"""House Arryn's card abilities (Mother of Dragons): its own set and the *A Feast for Crows* set.

Bronze Yohn Royce (Mother of Dragons), Harry Hardyng, Nestor Royce, Lyn Corbray and Lothor Brune
have icons only. The cards that compare or take power never act against a vassal, which holds
none (ruling 212); a neutral force is no house, so they do not act against it either.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...game.cards import CARDS
from ...game.commands import order_kind
from .registry import (
    Bonus,
    CombatView,
    Effect,
    GainPower,
    Icons,
    KeepCard,
    LosePower,
    Me,
    RemoveFromGame,
    Skip,
    choice,
    house_card,
)

THE_EYRIE = "the_eyrie"
ANYA_POWER = 3
ALAYNE_COST = 2
LYSA_AFFC_POWER = 3


def _printed(card: str | None) -> int | None:
    return CARDS.house_cards[card].strength if card else None


def _power_opponent(view: CombatView, me: Me) -> str | None:
    """The opponent whose power a card may compare or take: a player house, never a vassal (ruling 212)."""
    opponent = view.house(me.opponent)
    return opponent if opponent and not view.is_vassal(opponent) else None


# --- the Mother of Dragons set (M122) ------------------------------------------------------------


def lysa_arryn_mod(view: CombatView, me: Me) -> Iterator[Effect]:
    """Defending with a Defense Order of yours in the embattled area and winning, you may take this
    card back into your hand instead of discarding it."""
    order = view.order(view.area)
    if not (me.defending and view.winner() == me.role and order and order.house == me.house
            and order_kind(order.token) == "defense"):
        return
    options = [choice(me.card, option="return"), choice(me.card, option="no")]
    picked = view.choose(me, "take Lysa Arryn back into your hand? ('return' or 'no')", options, default=options[-1])
    yield KeepCard() if picked.option == "return" else Skip("declined")


house_card("lysa_arryn_mod", lysa_arryn_mod, when="after_victor_determined")


def ser_vardis_egen(view: CombatView, me: Me) -> Iterator[Effect]:
    """If the opponent's card has a printed strength of 2 or less: +1 strength and two fortifications."""
    printed = _printed(view.card(me.opponent))
    if printed is not None and printed <= 2:
        yield Bonus(me.role, 1)
        yield Icons(fortifications=2)


house_card("ser_vardis_egen", ser_vardis_egen, when="combat_strength")


def godric_borrell(view: CombatView, me: Me) -> Iterator[Effect]:
    """Defending a sea area: +1 strength for each land area next to it that you control."""
    if me.defending and view.is_sea(view.area):
        held = [a for a in view.adjacent(view.area) if view.is_land(a) and view.controls(me.house, a)]
        if held:
            yield Bonus(me.role, len(held))


house_card("godric_borrell", godric_borrell, when="combat_strength")


def anya_waynwood(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you and every other player who supported you take 3 power each (a vassal holds
    no power and gains nothing, M067)."""
    if view.winner() != me.role:
        return
    yield GainPower(ANYA_POWER)
    for house in view.supporters(me.role):
        if house != me.house and not view.is_vassal(house):
            yield GainPower(ANYA_POWER, house=house)


house_card("anya_waynwood", anya_waynwood, when="after_victor_determined")


def robert_arryn(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you defended, you may remove Robert Arryn from the game, and with him the card of lowest
    printed strength in the opponent's discard pile (you pick among ties). A vassal has no discard
    pile, so against one (or an empty pile) only Robert goes (ruling 238)."""
    opponent = view.house(me.opponent)
    if not me.defending or opponent is None:
        return
    pile = list(view.discards(opponent))
    lowest = min((CARDS.house_cards[c].strength for c in pile), default=None)
    options = [choice(me.card, house_card=c) for c in sorted(c for c in pile if CARDS.house_cards[c].strength == lowest)]
    if not options:
        options = [choice(me.card, option="remove")]
    options.append(choice(me.card, option="no"))
    what = "name the opponent's card to remove with him" if pile else "'remove'"
    picked = view.choose(me, f"remove Robert Arryn from the game? ({what}, or 'no')", options, default=options[-1])
    if picked.option == "no":
        yield Skip("declined")
        return
    yield RemoveFromGame()
    if picked.house_card:
        yield RemoveFromGame(opponent, picked.house_card)


house_card("robert_arryn", robert_arryn, when="after_combat")


# --- the A Feast for Crows set (alternate game, M123) --------------------------------------------


def bronze_yohn_royce_affc(view: CombatView, me: Me) -> Iterator[Effect]:
    """+1 strength if you have more available power than the opponent (never a vassal, ruling 212)."""
    opponent = _power_opponent(view, me)
    if opponent and view.power(me.house) > view.power(opponent):
        yield Bonus(me.role, 1)


house_card("bronze_yohn_royce_affc", bronze_yohn_royce_affc, when="combat_strength")


def littlefinger(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you control The Eyrie after the combat, take power equal to twice the printed strength of
    the opponent's card."""
    printed = _printed(view.card(me.opponent))
    if not view.controls(me.house, THE_EYRIE):
        yield Skip("you do not control The Eyrie")
    elif printed:
        yield GainPower(2 * printed)
    else:
        yield Skip("the opponent's card has no printed strength")


house_card("littlefinger", littlefinger, when="after_combat")


def alayne_stone(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win and control The Eyrie (or have just won it), you may discard 2 power to make the
    opponent discard all its available power (never a vassal, ruling 212)."""
    opponent = _power_opponent(view, me)
    if view.winner() != me.role or opponent is None:
        return
    eyrie = view.controls(me.house, THE_EYRIE) or (view.area == THE_EYRIE and me.attacking)
    if not eyrie:
        yield Skip("you do not control The Eyrie")
    elif view.power(me.house) < ALAYNE_COST:
        yield Skip("needs 2 available power")
    elif not view.power(opponent):
        yield Skip(f"{opponent.title()} has no available power to discard")
    else:
        options = [choice(me.card, option="pay"), choice(me.card, option="no")]
        picked = view.choose(me, f"pay 2 power to make {opponent.title()} discard all of its own? ('pay' or 'no')",
                             options, default=options[-1])
        if picked.option == "pay":
            yield LosePower(me.house, ALAYNE_COST)
            yield LosePower(opponent, view.power(opponent))
        else:
            yield Skip("declined")


house_card("alayne_stone", alayne_stone, when="after_victor_determined")


def lysa_arryn_affc(view: CombatView, me: Me) -> Iterator[Effect]:
    """If the opponent has more available power than you, take 3 power (never against a vassal, ruling 212)."""
    opponent = _power_opponent(view, me)
    if opponent and view.power(opponent) > view.power(me.house):
        yield GainPower(LYSA_AFFC_POWER)


house_card("lysa_arryn_affc", lysa_arryn_affc, when="after_combat")
