"""Westeros deck IV (Mother of Dragons, M082-M083, docs/rules-mother-of-dragons.md section 9.8).

Every card first puts a loyalty token on each area of its banner, in the card's order (M083, ruling
269); then its text resolves, one registered function per card. "Targaryen may discard N" is an
optional cost: Targaryen answers with the card's name and its choice (``empty promises: moat
cailin``), or ``nothing``, which is also the deadline default (MD12). Tokens land on areas Targaryen
controls are gained at once (M078): the card ends with the same checks as any change of control.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from ...game.board import Board
from ...game.cards import CARDS
from ...game.commands import CANCEL_MOVES, MOVE_ELSE, Command, WesterosChoice, cancels_moves
from ...game.mod_board import MOD, mod_board
from ...game.state import GameState, Unit
from ..core.common import after_control_change, available_units, destroy_units, lose_power, within_supply
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.targaryen import PENTOS, TARGARYEN, place_loyalty
from ..events import area_name, card_name
from ..events.bank import UnitsPlaced
from ..events.targaryen import DragonReturned, DragonStrengthGained, LoyaltyMoved
from ..events.westeros import WesterosChoiceMade

WesterosIV = Callable[[Context], None]
WESTEROS_IV: dict[str, WesterosIV] = {}
NOTHING = "nothing"
# Targaryen's choices of a card as the position stands, "nothing" first: read by the card's text and by
# what comes up for Targaryen before the card resolves (engine/ahead_mod.py, ruling 298).
TargaryenOptions = Callable[[GameState, Board], list[str]]
TARGARYEN_OPTIONS: dict[str, TargaryenOptions] = {}


def options_of(card: str, fn: TargaryenOptions) -> None:
    """Register how Targaryen's choices of a card are found (called after the function)."""
    TARGARYEN_OPTIONS[card] = fn


def westeros_iv(card: str, fn: WesterosIV) -> None:
    """Register the text of a deck IV card (after its banner); called after the function, which
    stays plain so that ``make mutate`` mutates it (docs/testing.md)."""
    assert card not in WESTEROS_IV, card
    WESTEROS_IV[card] = fn


def resolve(ctx: Context, card: str) -> None:
    """The banner's loyalty tokens, then the card's text, then the checks of M078 and M080 (M083)."""
    data = CARDS.westeros_card(4, card)
    for area in data.banner:
        place_loyalty(ctx, area, f"the banner of {data.name}")
    after_control_change(ctx)  # a banner token on an area Targaryen controls is gained at once (ruling 269)
    WESTEROS_IV[card](ctx)
    after_control_change(ctx)


# --- Targaryen's choice -----------------------------------------------------------------------------


def in_order(order: Iterable[str]) -> Callable[[str], str]:
    """Names of a choice put in a fixed order, so that ``tyrell, stark`` is the option ``stark+tyrell``."""
    rank = {name: i for i, name in enumerate(order)}
    return lambda option: "+".join(sorted(option.split("+"), key=lambda n: rank.get(n, len(rank))))


def check_choice(card: str, options: Iterable[str], cmd: Command, normal: Callable[[str], str] = str,
                 words_only: bool = False) -> Verdict:
    """``None`` when ``cmd`` is one of Targaryen's legal choices for ``card``; with ``words_only`` a
    move (``FROM, TO``) is another decision's answer."""
    if not isinstance(cmd, WesterosChoice) or cmd.card != card or (words_only and "+" in cmd.option):
        return NOT_APPLICABLE
    legal = list(options)
    if normal(cmd.option) not in legal:
        return (f"{_option_text(cmd.option)!r} is not a choice of {card_name(card)} now: choose "
                f"{', '.join(_option_text(o) for o in legal)} (M083)")
    return None


def _option_text(option: str) -> str:
    if option.startswith("destroy "):
        return f"destroy dragon in {area_name(option.removeprefix('destroy '))}"
    if option in (NOTHING, "muster"):
        return option
    areas = mod_board(essos=True).areas  # to tell an area from a house or unit (the map is built once, when first asked)
    return ", ".join(area_name(p) if p in areas else p.replace("_", " ") for p in option.split("+"))


def targaryen_choice(ctx: Context, card: str, options: list[str], prompt: str,
                     normal: Callable[[str], str] = str, words_only: bool = False) -> str:
    """Ask Targaryen to choose among ``options`` (``nothing`` first, the default); returns the choice,
    put in the options' form by ``normal``."""
    if options == [NOTHING]:
        return NOTHING
    req = Request(
        key=ctx.key("westeros_choice", TARGARYEN), kind="westeros_choice", house=TARGARYEN,
        prompt=prompt, context={"card": card},
        options=tuple(WesterosChoice(card=card, option=o) for o in options),
        default=WesterosChoice(card=card, option=NOTHING),
    )
    cmd = ctx.ask(Ask(req, lambda c: check_choice(card, options, c, normal, words_only)))
    assert isinstance(cmd, WesterosChoice)
    option = normal(cmd.option)
    ctx.emit(WesterosChoiceMade(house=TARGARYEN, card=card, option=option))
    return option


def _one_area_options(card: str) -> TargaryenOptions:
    def options(state: GameState, board: Board) -> list[str]:
        data = CARDS.westeros_card(4, card)
        areas: list[str] = list((data.details or {}).get("choice_areas", []))
        return [NOTHING, *(areas if state.houses[TARGARYEN].power >= int((data.details or {}).get("cost", 1)) else [])]
    return options


def _pay_for_one_area(ctx: Context, card: str) -> None:
    """"Targaryen may discard 1 power: one loyalty token on A or B" (Empty Promises and its kin)."""
    data = CARDS.westeros_card(4, card)
    cost = int((data.details or {}).get("cost", 1))
    areas: list[str] = list((data.details or {}).get("choice_areas", []))
    choice = targaryen_choice(ctx, card, _one_area_options(card)(ctx.state, ctx.board),
                              f"{data.name}: discard {cost} power for a loyalty token on "
                              f"{' or '.join(area_name(a) for a in areas)}, or nothing")
    if choice != NOTHING:
        lose_power(ctx, TARGARYEN, cost, data.name)
        place_loyalty(ctx, choice, data.name)


for _card in ("empty_promises", "southron_ambitions", "strongholds_of_resistance"):
    TARGARYEN_OPTIONS[_card] = _one_area_options(_card)


def empty_promises(ctx: Context) -> None:
    """May discard 1: a token on The Mountains of the Moon or Moat Cailin."""
    _pay_for_one_area(ctx, "empty_promises")


westeros_iv("empty_promises", empty_promises)


def southron_ambitions(ctx: Context) -> None:
    """May discard 1: a token on Blackwater or The Boneway."""
    _pay_for_one_area(ctx, "southron_ambitions")


westeros_iv("southron_ambitions", southron_ambitions)


def strongholds_of_resistance(ctx: Context) -> None:
    """May discard 1: a token on Harrenhal or White Harbor."""
    _pay_for_one_area(ctx, "strongholds_of_resistance")


westeros_iv("strongholds_of_resistance", strongholds_of_resistance)


def fire_made_flesh(ctx: Context) -> None:
    """(a) destroy a dragon: a dragon strength token into the box now; (b) a destroyed dragon back
    in Pentos; (c) nothing (rulings 217, 218).

    Of (a)'s tokens Targaryen gets the one of the latest round still on the track: moving any other
    one would give the same +1 now and lose a later one (ruling 217 lets it pick; no pick is better).
    """
    st, board = ctx.state, ctx.board
    choice = targaryen_choice(ctx, "fire_made_flesh", _fire_options(st, board),
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


westeros_iv("fire_made_flesh", fire_made_flesh)


def _fire_options(st: GameState, board: Board) -> list[str]:
    options = [NOTHING]
    if st.dragon_tokens:
        options += [f"destroy {a}" for a in sorted({a for a, u in st.units_of(TARGARYEN) if u.type == "dragon"})]
    if (st.controller(PENTOS, board) == TARGARYEN and available_units(st, board, TARGARYEN, "dragon") > 0
            and within_supply(st, board, TARGARYEN, {PENTOS: 1})):
        options.append("muster")
    return options


options_of("fire_made_flesh", _fire_options)


# --- the cards that name houses and areas ---------------------------------------------------------------


def _pay(ctx: Context, card: str) -> int:
    return _cost(card)


def _cost(card: str) -> int:
    return int((CARDS.westeros_card(4, card).details or {}).get("cost", 1))


def _uncontrolled(state: GameState, board: Board, area: str) -> bool:
    """No units, power token, garrison or neutral force, and no house's home: nobody's (Playing With Fire)."""
    st = state.area(area)
    return not (st.units or st.power_token or st.garrison or st.neutral_force) and state.controller(area, board) is None


def _disputes_options(st: GameState, board: Board) -> list[str]:
    others = [h for h in st.houses_in_play if h != TARGARYEN]
    options = [NOTHING]
    if st.houses[TARGARYEN].power >= _cost("domestic_disputes"):
        options += ["+".join(c) for n in range(1, 5) for c in combinations(others, n)]
    return options


options_of("domestic_disputes", _disputes_options)


def domestic_disputes(ctx: Context) -> None:
    """May discard 1: a loyalty token on the home area of each of up to 4 other houses (ruling 215)."""
    st = ctx.state
    others = [h for h in st.houses_in_play if h != TARGARYEN]
    choice = targaryen_choice(ctx, "domestic_disputes", _disputes_options(st, ctx.board),
                              "Domestic Disputes: discard 1 power to name up to 4 other houses, a loyalty token on "
                              "each one's home area, or nothing", in_order(others))
    if choice == NOTHING:
        return
    lose_power(ctx, TARGARYEN, _pay(ctx, "domestic_disputes"), "Domestic Disputes")
    for house in choice.split("+"):
        place_loyalty(ctx, ctx.board.houses[house].home_area, "Domestic Disputes")


westeros_iv("domestic_disputes", domestic_disputes)


def _watering_options(st: GameState, board: Board) -> list[str]:
    rivers = [a for a in MOD.rivers if st.controller(a, board) != TARGARYEN]
    options = [NOTHING]
    if st.houses[TARGARYEN].power >= st.victory(TARGARYEN, board):
        options += ["+".join(pair) for pair in combinations(rivers, 2)]
    return options


options_of("watering_the_seed", _watering_options)


def watering_the_seed(ctx: Context) -> None:
    """May discard power equal to its victory-track position: a loyalty token on each of two different
    land areas beside a river that Targaryen does not control (ruling 210)."""
    st, board = ctx.state, ctx.board
    cost = st.victory(TARGARYEN, board)
    rivers = [a for a in MOD.rivers if st.controller(a, board) != TARGARYEN]
    choice = targaryen_choice(ctx, "watering_the_seed", _watering_options(st, board),
                              f"Watering the Seed: discard {cost} power for a loyalty token on each of two river "
                              "areas you do not control, or nothing", in_order(rivers))
    if choice == NOTHING:
        return
    lose_power(ctx, TARGARYEN, cost, "Watering the Seed")
    for area in choice.split("+"):
        place_loyalty(ctx, area, "Watering the Seed")


westeros_iv("watering_the_seed", watering_the_seed)


def _long_plan_options(st: GameState, board: Board) -> list[str]:
    players = [h for h in st.players() if h != TARGARYEN]
    return [NOTHING, *(players if st.houses[TARGARYEN].power >= _cost("the_long_plan") else [])]


options_of("the_long_plan", _long_plan_options)


def the_long_plan(ctx: Context) -> None:
    """May discard 1 to name another player, who puts a loyalty token on each of two different land
    areas of its choice (ruling 215)."""
    st, board = ctx.state, ctx.board
    choice = targaryen_choice(ctx, "the_long_plan", _long_plan_options(st, board),
                              "The Long Plan: discard 1 power to name another player, who places two loyalty "
                              "tokens, or nothing")
    if choice == NOTHING:
        return
    lose_power(ctx, TARGARYEN, _pay(ctx, "the_long_plan"), "The Long Plan")
    land = [a.id for a in board.land_areas()]
    picked = player_choice(ctx, "the_long_plan", choice, lambda o: _two_areas(o, land), f"{land[0]}+{land[1]}",
                           "The Long Plan: name two different land areas, a loyalty token on each")
    for area in picked.split("+"):
        place_loyalty(ctx, area, "The Long Plan")


westeros_iv("the_long_plan", the_long_plan)


def _two_areas(option: str, land: list[str]) -> str | None:
    parts = option.split("+")
    if len(parts) != 2 or parts[0] == parts[1] or any(p not in land for p in parts):
        return "name two different land areas (The Long Plan, ruling 215)"
    return None


def _fire_play_options(st: GameState, board: Board) -> list[str]:
    players = [h for h in st.players() if h != TARGARYEN]
    areas = [a.id for a in board.land_areas() if _uncontrolled(st, board, a.id)]
    options = [NOTHING]
    if st.houses[TARGARYEN].power >= _cost("playing_with_fire"):
        options += [f"{a}+{h}" for a in areas for h in players]
    return options


options_of("playing_with_fire", _fire_play_options)


def playing_with_fire(ctx: Context) -> None:
    """May discard 1 to name an uncontrolled land area and another player: a loyalty token there, and
    that player must place one of its available land units there (ruling 215)."""
    st, board = ctx.state, ctx.board
    players = [h for h in st.players() if h != TARGARYEN]
    areas = [a.id for a in board.land_areas() if _uncontrolled(st, board, a.id)]
    choice = targaryen_choice(ctx, "playing_with_fire", _fire_play_options(st, board),
                              "Playing With Fire: discard 1 power to name an uncontrolled land area and another "
                              "player (a loyalty token there, and a unit of that player's), or nothing",
                              in_order([*areas, *players]))
    if choice == NOTHING:
        return
    area, house = choice.split("+")
    lose_power(ctx, TARGARYEN, _pay(ctx, "playing_with_fire"), "Playing With Fire")
    place_loyalty(ctx, area, "Playing With Fire")
    units = [u for u in ("footman", "knight", "siege_engine")
             if available_units(st, board, house, u) > 0 and within_supply(st, board, house, {area: 1})]
    if not units:
        return
    unit = player_choice(ctx, "playing_with_fire", house, lambda o: None if o in units else
                         f"place one of your available land units: {', '.join(units)} (Playing With Fire)",
                         units[0], f"Playing With Fire: place one of your land units in {area_name(area)}",
                         options=units)
    st.area_mut(area).units.append(Unit(house, unit))
    ctx.emit(UnitsPlaced(house=house, area=area, units=(unit,), cause="Playing With Fire"))


westeros_iv("playing_with_fire", playing_with_fire)


def player_choice(ctx: Context, card: str, house: str, check: Callable[[str], str | None], default: str,
                  prompt: str, options: list[str] | None = None, moves_only: bool = False,
                  made: Callable[[str], str] = str) -> str:
    """Ask a player a deck IV card names (The Long Plan, Playing With Fire) for its part; ``made``
    gives the choice made from the answer (the first legal move of a line with fall-backs)."""
    req = Request(
        key=ctx.key("westeros_choice", house), kind="westeros_choice", house=house, prompt=prompt,
        context={"card": card}, options=tuple(WesterosChoice(card=card, option=o) for o in options or ()),
        default=WesterosChoice(card=card, option=default),
    )

    def verdict(cmd: Command) -> Verdict:
        if not isinstance(cmd, WesterosChoice) or cmd.card != card or (moves_only and (
                "+" not in cmd.option or cancels_moves(cmd))):
            return NOT_APPLICABLE  # Targaryen's "cancel" or "nothing" is for its own decision
        why = check(cmd.option)
        return None if why is None else f"{why} (M083)"

    cmd = ctx.ask(Ask(req, verdict))
    assert isinstance(cmd, WesterosChoice)
    option = made(cmd.option)
    ctx.emit(WesterosChoiceMade(house=house, card=card, option=option))
    return option


def _spread(ctx: Context, order: list[str], card: str) -> None:
    """Each player in ``order`` moves one loyalty token of its choice to an adjacent land area when any
    can move; Targaryen may cancel each other player's move as it is made, paying the card's price
    (ruling 216). A move is answered ``CARD: FROM, TO``; the default is the first token in area order
    to its first adjacent land area. A cancel is answered ``CARD: cancel`` (default ``nothing``)."""
    st, board = ctx.state, ctx.board
    price = int((CARDS.westeros_card(4, card).details or {}).get("cost_to_cancel_each_move", 1))
    for house in order:
        moves = [f"{a}+{n}" for a in sorted(a for a, s in st.areas.items() if s.loyalty)
                 for n in sorted(board.neighbours[a]) if board.area(n).is_land]  # sorted: a set's order varies
        if not moves:
            return
        legal = frozenset(moves)

        def first_legal(option: str, legal: frozenset[str] = legal) -> str | None:
            return next((m for m in option.split(MOVE_ELSE) if m in legal), None)  # fall-backs in order (ruling 295)

        move = player_choice(ctx, card, house, lambda o: None if first_legal(o) else
                             "move one loyalty token to an adjacent land area: name where it lies and where it goes",
                             moves[0], f"{card_name(card)}: move one loyalty token to an adjacent land area "
                             "('FROM, TO')", options=moves, moves_only=True, made=lambda o: first_legal(o) or o)
        origin, dest = move.split("+")
        st.area_mut(origin).loyalty -= 1
        st.area_mut(dest).loyalty += 1
        cancelled = False
        # A token moved into an area Targaryen controls is gained at once (M078): no cancel is asked.
        gained = st.controller(dest, board) == TARGARYEN
        if house != TARGARYEN and not gained and st.houses[TARGARYEN].power >= price:
            cancelled = _cancel(ctx, card, house, f"{card_name(card)}: pay {price} power to put back "
                                f"{house.title()}'s move from {area_name(origin)} to {area_name(dest)} ('cancel'), "
                                "or nothing")
        if cancelled:
            lose_power(ctx, TARGARYEN, price, card_name(card))
            st.area_mut(dest).loyalty -= 1
            st.area_mut(origin).loyalty += 1
        ctx.emit(LoyaltyMoved(house=house, origin=origin, destination=dest, cancelled=cancelled))
        after_control_change(ctx)  # moved into an area Targaryen controls: gained at once


def _cancel(ctx: Context, card: str, mover: str, prompt: str) -> bool:
    """Whether Targaryen cancels ``mover``'s move: ``cancel`` or ``nothing`` for this move, or its
    standing ``cancel HOUSE, ...`` for every move of the card, sent ahead (ruling 295)."""
    options = [NOTHING, "cancel"]
    req = Request(
        key=ctx.key("westeros_choice", TARGARYEN), kind="westeros_choice", house=TARGARYEN, prompt=prompt,
        context={"card": card, "mover": mover},
        options=tuple(WesterosChoice(card=card, option=o) for o in options),
        default=WesterosChoice(card=card, option=NOTHING),
    )

    def verdict(cmd: Command) -> Verdict:
        if isinstance(cmd, WesterosChoice) and cmd.card == card and cancels_moves(cmd):
            return None
        return check_choice(card, options, cmd, words_only=True)

    cmd = ctx.ask(Ask(req, verdict))
    assert isinstance(cmd, WesterosChoice)
    named = cmd.option.removeprefix(CANCEL_MOVES).split("+") if cancels_moves(cmd) else ()
    option = "cancel" if cmd.option == "cancel" or mover in named else NOTHING
    ctx.emit(WesterosChoiceMade(house=TARGARYEN, card=card, option=option))
    return option == "cancel"


def scattering_dissent(ctx: Context) -> None:
    """In reverse turn order each player moves one loyalty token to an adjacent land area."""
    _spread(ctx, [h for h in ctx.state.turn_order() if h in ctx.state.players()][::-1], "scattering_dissent")


westeros_iv("scattering_dissent", scattering_dissent)


def word_spreads_quickly(ctx: Context) -> None:
    """In turn order each player moves one loyalty token to an adjacent land area."""
    _spread(ctx, [h for h in ctx.state.turn_order() if h in ctx.state.players()], "word_spreads_quickly")


westeros_iv("word_spreads_quickly", word_spreads_quickly)
