"""Westeros deck IV (Mother of Dragons, M082-M083, docs/rules-mother-of-dragons.md section 9.8).

Every card first puts a loyalty token on each area of its banner, in the card's order (M083, ruling
269); then its text resolves, one registered function per card. "Targaryen may discard N" is an
optional cost: Targaryen answers with the card's name and its choice (``empty promises: moat
cailin``), or ``nothing``, which is also the deadline default (MD12). Tokens land on areas Targaryen
controls are gained at once (M078): the card ends with the same checks as any change of control.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...game.cards import CARDS
from ...game.commands import Command, WesterosChoice
from ...game.state import Unit
from ..core.common import after_control_change, available_units, destroy_units, lose_power, within_supply
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.targaryen import PENTOS, TARGARYEN, place_loyalty
from ..events import area_name, card_name
from ..events.targaryen import DragonReturned, DragonStrengthGained, LoyaltyMoved
from ..events.westeros import WesterosChoiceMade

WesterosIV = Callable[[Context], None]
WESTEROS_IV: dict[str, WesterosIV] = {}
NOTHING = "nothing"


def westeros_iv(card: str) -> Callable[[WesterosIV], WesterosIV]:
    """Register the text of a deck IV card (after its banner)."""

    def register(fn: WesterosIV) -> WesterosIV:
        assert card not in WESTEROS_IV, card
        WESTEROS_IV[card] = fn
        return fn

    return register


def resolve(ctx: Context, card: str) -> None:
    """The banner's loyalty tokens, then the card's text, then the checks of M078 and M080 (M083)."""
    data = CARDS.westeros_card(4, card)
    for area in data.banner:
        place_loyalty(ctx, area, f"the banner of {data.name}")
    after_control_change(ctx)  # a banner token on an area Targaryen controls is gained at once (ruling 269)
    WESTEROS_IV[card](ctx)
    after_control_change(ctx)


# --- Targaryen's choice -----------------------------------------------------------------------------


def check_choice(card: str, options: Iterable[str], cmd: Command) -> Verdict:
    """``None`` when ``cmd`` is one of Targaryen's legal choices for ``card``."""
    if not isinstance(cmd, WesterosChoice) or cmd.card != card:
        return NOT_APPLICABLE
    legal = list(options)
    if cmd.option not in legal:
        return (f"{_option_text(cmd.option)!r} is not a choice of {card_name(card)} now: choose "
                f"{', '.join(_option_text(o) for o in legal)} (M083)")
    return None


def _option_text(option: str) -> str:
    if option.startswith("destroy "):
        return f"destroy dragon in {area_name(option.removeprefix('destroy '))}"
    return option if option in (NOTHING, "muster") else area_name(option)


def targaryen_choice(ctx: Context, card: str, options: list[str], prompt: str) -> str:
    """Ask Targaryen to choose among ``options`` (``nothing`` first, the default); returns the choice."""
    if options == [NOTHING]:
        return NOTHING
    req = Request(
        key=ctx.key("westeros_choice", TARGARYEN), kind="westeros_choice", house=TARGARYEN,
        prompt=prompt, context={"card": card},
        options=tuple(WesterosChoice(card=card, option=o) for o in options),
        default=WesterosChoice(card=card, option=NOTHING),
    )
    cmd = ctx.ask(Ask(req, lambda c: check_choice(card, options, c)))
    assert isinstance(cmd, WesterosChoice)
    ctx.emit(WesterosChoiceMade(house=TARGARYEN, card=card, option=cmd.option))
    return cmd.option


def _pay_for_one_area(ctx: Context, card: str) -> None:
    """"Targaryen may discard 1 power: one loyalty token on A or B" (Empty Promises and its kin)."""
    data = CARDS.westeros_card(4, card)
    cost = int((data.details or {}).get("cost", 1))
    areas: list[str] = list((data.details or {}).get("choice_areas", []))
    can_pay = ctx.state.houses[TARGARYEN].power >= cost
    choice = targaryen_choice(ctx, card, [NOTHING, *(areas if can_pay else [])],
                              f"{data.name}: discard {cost} power for a loyalty token on "
                              f"{' or '.join(area_name(a) for a in areas)}, or nothing")
    if choice != NOTHING:
        lose_power(ctx, TARGARYEN, cost, data.name)
        place_loyalty(ctx, choice, data.name)


@westeros_iv("empty_promises")
def empty_promises(ctx: Context) -> None:
    """May discard 1: a token on The Mountains of the Moon or Moat Cailin."""
    _pay_for_one_area(ctx, "empty_promises")


@westeros_iv("southron_ambitions")
def southron_ambitions(ctx: Context) -> None:
    """May discard 1: a token on Blackwater or The Boneway."""
    _pay_for_one_area(ctx, "southron_ambitions")


@westeros_iv("strongholds_of_resistance")
def strongholds_of_resistance(ctx: Context) -> None:
    """May discard 1: a token on Harrenhal or White Harbor."""
    _pay_for_one_area(ctx, "strongholds_of_resistance")


@westeros_iv("fire_made_flesh")
def fire_made_flesh(ctx: Context) -> None:
    """(a) destroy a dragon: a dragon strength token into the box now; (b) a destroyed dragon back
    in Pentos; (c) nothing (rulings 217, 218).

    Of (a)'s tokens Targaryen gets the one of the latest round still on the track: moving any other
    one would give the same +1 now and lose a later one (ruling 217 lets it pick; no pick is better).
    """
    st, board = ctx.state, ctx.board
    options = [NOTHING]
    if st.dragon_tokens:
        options += [f"destroy {a}" for a in sorted({a for a, u in st.units_of(TARGARYEN) if u.type == "dragon"})]
    if (st.controller(PENTOS, board) == TARGARYEN and available_units(st, board, TARGARYEN, "dragon") > 0
            and within_supply(st, board, TARGARYEN, {PENTOS: 1})):
        options.append("muster")
    choice = targaryen_choice(ctx, "fire_made_flesh", options,
                              "Fire Made Flesh: destroy a dragon for a dragon strength token now, put a destroyed "
                              "dragon back in Pentos, or nothing")
    if choice.startswith("destroy "):
        area = choice.removeprefix("destroy ")
        dragon = next(u for u in st.area(area).units if u.house == TARGARYEN and u.type == "dragon")
        destroy_units(ctx, area, [dragon], "Fire Made Flesh")
        token = st.dragon_tokens.pop()
        ctx.emit(DragonStrengthGained(round=token, strength=st.dragon_strength(board), cause="Fire Made Flesh"))
    elif choice == "muster":
        st.area_mut(PENTOS).units.append(Unit(TARGARYEN, "dragon"))
        ctx.emit(DragonReturned(area=PENTOS))


# --- the cards whose choices are not asked yet (docs/rules-mother-of-dragons.md, section 9.8) -----------


def _not_offered(card: str) -> WesterosIV:
    """A card whose optional, paid effect Maester cannot take by mail yet: Targaryen does not pay
    (the deadline default of MD12), so only the banner resolves."""

    def fn(ctx: Context) -> None:
        ctx.emit(WesterosChoiceMade(house=TARGARYEN, card=card, option=NOTHING))

    fn.__doc__ = f"{card_name(card)}: the banner only; Targaryen's paid option is not offered yet."
    return fn


for _card in ("domestic_disputes", "playing_with_fire", "the_long_plan", "watering_the_seed"):
    westeros_iv(_card)(_not_offered(_card))


def _spread(ctx: Context, order: list[str], card: str) -> None:
    """Each player in ``order`` moves one loyalty token to an adjacent land area when any can move
    (ruling 216): the first token in area order, to its first adjacent land area in board order
    (MD12's default; the players' own choice and Targaryen's paid cancel are not asked yet)."""
    st, board = ctx.state, ctx.board
    for house in order:
        moves = [(a, n) for a in sorted(a for a, s in st.areas.items() if s.loyalty)
                 for n in board.neighbours[a] if board.area(n).is_land]
        if not moves:
            return
        origin, dest = moves[0]
        st.area_mut(origin).loyalty -= 1
        st.area_mut(dest).loyalty += 1
        ctx.emit(LoyaltyMoved(house=house, origin=origin, destination=dest))
        after_control_change(ctx)  # moved into an area Targaryen controls: gained at once


@westeros_iv("scattering_dissent")
def scattering_dissent(ctx: Context) -> None:
    """In reverse turn order each player moves one loyalty token to an adjacent land area."""
    _spread(ctx, [h for h in ctx.state.turn_order() if h in ctx.state.players()][::-1], "scattering_dissent")


@westeros_iv("word_spreads_quickly")
def word_spreads_quickly(ctx: Context) -> None:
    """In turn order each player moves one loyalty token to an adjacent land area."""
    _spread(ctx, [h for h in ctx.state.turn_order() if h in ctx.state.players()], "word_spreads_quickly")
