"""A Feast for Crows' Westeros deck I (F020-F026): one small registered function per card.

The deck replaces the base deck I in the scenario (its box's ``westeros_sets``); the base Westeros
phase resolves every card it does not know through the ``westeros_card`` hook point, which gives it
to :func:`resolve` here. Mustering is the base card with a wildling icon; Rally the Men musters in
castles only (ruling 405); The Burden of Power is the Iron Throne holder's choice; Famine lowers
every supply; the other three act on the objectives (engine/rules/objectives.py holds the steps of
the scenario, these cards only what they say).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...game.box_setup import draw_shuffle
from ...game.cards import CARDS
from ...game.commands import Command, ReturnObjective, TakeObjective, WesterosChoice
from ...game.hooks import register
from ...game.objective_cards import OBJECTIVES
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.mustering import ask_muster, muster, run_mustering, westeros_mustering_areas
from ..core.supply import move_supply, reconcile
from ..events.objectives import ObjectiveDrawn, ObjectivesDealt, VictoryPointsLost, objective_name
from ..events.westeros import WesterosChoiceMade, WildlingThreatMoved

AffcCard = Callable[[Context], None]
WESTEROS_AFFC: dict[str, AffcCard] = {}
BURDEN = "the_burden_of_power"
BURDEN_OPTIONS = ("muster", "wildlings")  # the holder's two choices; the deadline musters (ruling 413)


def affc_card(card: str, fn: AffcCard) -> None:
    """Register a card's text (called after the function, which stays plain so that it can be mutated)."""
    assert card not in WESTEROS_AFFC, card
    WESTEROS_AFFC[card] = fn


def resolve(ctx: Context, card: str) -> bool:
    """Resolve one of the deck's cards; False for a card that is not one of them."""
    fn = WESTEROS_AFFC.get(card)
    if fn is None:
        return False
    fn(ctx)
    return True


register("westeros_card", "objectives", resolve)


def _name(card: str) -> str:
    return next(c.name for c in CARDS.westeros if c.id == card)


# --- the cards -----------------------------------------------------------------------------------------


def mustering_affc(ctx: Context) -> None:
    """Mustering: as the base card (R067-R080); only its wildling icon differs (F021)."""
    run_mustering(ctx)


affc_card("mustering_affc", mustering_affc)


def rally_the_men(ctx: Context) -> None:
    """Rally the Men: every house in turn order musters in each castle it controls, one point each;
    a stronghold gives nothing (F022, ruling 405)."""
    for house in ctx.state.turn_order():
        areas = [a for a in westeros_mustering_areas(ctx.state, ctx.board, house)
                 if ctx.state.effective_area(a, ctx.board).fortification == "castle"]
        for i, area in enumerate(areas):
            cmd = ask_muster(ctx, house, area, 1, others=tuple(areas[i + 1:]), refuse_elsewhere=i == 0)
            muster(ctx, house, area, cmd.actions, 1)


affc_card("rally_the_men", rally_the_men)


def check_burden(cmd: Command) -> Verdict | object:
    if not isinstance(cmd, WesterosChoice) or cmd.card != BURDEN:
        return NOT_APPLICABLE
    if cmd.option not in BURDEN_OPTIONS:
        return f"{cmd.option!r} is not a choice of The Burden of Power: choose muster or wildlings (F023)"
    return None


def the_burden_of_power(ctx: Context) -> None:
    """The Burden of Power: the holder of the Iron Throne puts the wildling threat back to 0, or every
    house musters as with Mustering (F023)."""
    st = ctx.state
    holder = st.holder("iron_throne")
    req = Request(
        key=ctx.key("westeros_choice", holder), kind="westeros_choice", house=holder,
        prompt="choose how The Burden of Power resolves: muster, or the wildling threat back to 0",
        context={"card": BURDEN}, options=tuple(WesterosChoice(card=BURDEN, option=o) for o in BURDEN_OPTIONS),
        default=WesterosChoice(card=BURDEN, option="muster"),
    )
    cmd = ctx.ask(Ask(req, check_burden))
    assert isinstance(cmd, WesterosChoice)
    ctx.emit(WesterosChoiceMade(house=holder, card=BURDEN, option=cmd.option))
    if cmd.option == "muster":
        run_mustering(ctx)
    else:
        old, st.wildling_threat = st.wildling_threat, 0
        ctx.emit(WildlingThreatMoved(old=old, new=0, cause="The Burden of Power"))


affc_card(BURDEN, the_burden_of_power)


def famine(ctx: Context) -> None:
    """Famine: every house moves one space down the Supply track, then reconciles (F024)."""
    st = ctx.state
    for house in st.turn_order():
        move_supply(ctx, house, st.houses[house].supply - 1, "Famine")
    reconcile(ctx, st.turn_order())


affc_card("famine", famine)


def ironborn_raid(ctx: Context) -> None:
    """Ironborn Raid: every house with two or more scored objectives loses one point (F025, not below 0)."""
    st = ctx.state
    for house in st.turn_order():
        points = st.victory_points.get(house, 0)
        if len(st.objectives_scored.get(house, [])) >= 2 and points:
            st.victory_points[house] = points - 1
            ctx.emit(VictoryPointsLost(house=house, points=1, total=points - 1, cause="Ironborn Raid"))


affc_card("ironborn_raid", ironborn_raid)


def check_return(hand: list[str], card: str, cmd: Command) -> Verdict | object:
    if not isinstance(cmd, ReturnObjective):
        return NOT_APPLICABLE
    if cmd.objective not in hand:
        return f"{objective_name(cmd.objective)} is not an objective in your hand ({_name(card)}, F026)"
    return None


def _least_worth(house: str, hand: list[str]) -> str:
    """The objective of a hand worth least to its house, the last of them on a tie (ruling 414)."""
    return min(reversed(hand), key=lambda o: OBJECTIVES[o].points.get(house, 0))


def _return_asks(ctx: Context, card: str, prompt: str) -> list[tuple[str, Ask]]:
    """Each house with an objective gives one back, all at once, in secret; the deadline gives the
    one worth least to it (ruling 414)."""
    st = ctx.state
    asks = []
    for house in st.turn_order():
        hand = st.objectives.get(house, [])
        if not hand:
            continue
        least = _least_worth(house, hand)
        req = Request(key=ctx.key("objective_returned", house), kind="objective_returned", house=house,
                      prompt=prompt, secret=True, context={"card": card, "objectives": list(hand)},
                      options=tuple(ReturnObjective(objective=o) for o in hand),
                      default=ReturnObjective(objective=least))
        asks.append((house, Ask(req, partial(check_return, list(hand), card))))
    return asks


def new_information(ctx: Context) -> None:
    """New Information: each house in turn order draws one objective, then each shuffles one objective
    of its hand back into the deck (F026)."""
    st = ctx.state
    for house in st.turn_order():
        if st.objective_deck:
            drawn = st.objective_deck.pop(0)
            st.objectives.setdefault(house, []).append(drawn)
            ctx.emit(ObjectiveDrawn(house=house))
            ctx.emit(ObjectivesDealt(house=house, objectives=(drawn,), visible_to=house))
    asks = _return_asks(ctx, "new_information", "New Information: shuffle one objective of your hand back into the deck")
    for (house, _), cmd in zip(asks, ctx.ask_all([a for _, a in asks])):
        assert isinstance(cmd, ReturnObjective)
        st.objectives[house].remove(cmd.objective)
        st.objective_deck.append(cmd.objective)
    st.objective_deck = draw_shuffle(st, st.objective_deck)


affc_card("new_information", new_information)


def check_take(pool: list[str], cmd: Command) -> Verdict | object:
    if not isinstance(cmd, TakeObjective):
        return NOT_APPLICABLE
    if cmd.objective not in pool:
        return (f"{objective_name(cmd.objective)} is not in the pool of Shifting Ambitions "
                f"({', '.join(objective_name(o) for o in pool)}) (F027)")
    return None


def shifting_ambitions(ctx: Context) -> None:
    """Shifting Ambitions: each house puts one objective face down into a pool, which is shuffled and
    laid face up; in turn order each house that gave one takes one of them back (F027, ruling 414)."""
    st = ctx.state
    asks = _return_asks(ctx, "shifting_ambitions", "Shifting Ambitions: put one objective of your hand into the pool")
    given = {house: cmd.objective for (house, _), cmd in zip(asks, ctx.ask_all([a for _, a in asks]))}
    pool = draw_shuffle(st, sorted(given.values()))
    left, taken = list(pool), {}
    for house in given:  # every card stays in its hand until all are taken: a step never shows a card nowhere
        req = Request(key=ctx.key("objective_taken", house), kind="objective_taken", house=house,
                      prompt="Shifting Ambitions: take one objective of the pool: " + ", ".join(objective_name(o) for o in left),
                      context={"card": "shifting_ambitions", "pool": list(left)},
                      options=tuple(TakeObjective(objective=o) for o in left), default=TakeObjective(objective=left[0]))
        cmd = ctx.ask(Ask(req, partial(check_take, list(left))))
        assert isinstance(cmd, TakeObjective)
        left.remove(cmd.objective)
        taken[house] = cmd.objective
    for house, objective in given.items():
        st.objectives[house].remove(objective)
    for house, objective in taken.items():
        st.objectives[house].append(objective)
        ctx.emit(ObjectivesDealt(house=house, objectives=(objective,), visible_to=house))


affc_card("shifting_ambitions", shifting_ambitions)
