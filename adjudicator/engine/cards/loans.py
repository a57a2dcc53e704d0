"""The Iron Bank's twelve loans (Mother of Dragons, section 9.7 of docs/rules-mother-of-dragons.md):
one small registered function each, resolved when the loan is bought (M104).

A loan's function reads the buyer's choices from the :class:`~adjudicator.game.commands.IronBank`
answer (``areas``, ``units``, ``option``), says why they cannot be used (a string ending with its
rule) or carries the effect out and returns ``None``. :func:`loan_problem` runs it on a copy of the
game to judge an answer; :func:`resolve_loan` runs it for real. :func:`first_choice` builds the
first legal answer in board order (the robots' and MD14's choice).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ...game.board import Board, HouseId
from ...game.cards import CARDS
from ...game.commands import Command, IronBank, Located, SpymasterChoice
from ...game.state import GameState, Segment
from ..core.bank import has_castle_only, improvement_tokens_left, place_improvement, place_unit, placement_problem
from ..core.common import after_control_change, destroy_units, gain_power
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.supply import move_supply
from ..events.bank import SpymasterDone, SpymasterLooked, UnitsNotPlaced

LoanFn = Callable[[Context, HouseId, IronBank], "str | None"]
LOANS: dict[str, LoanFn] = {}


def loan(card: str, fn: LoanFn) -> None:
    """Register a loan's ability under its card id (checked against the box's loans); called after
    the function, which stays plain so that ``make mutate`` mutates it (docs/testing.md)."""
    assert card in CARDS.loans, card
    LOANS[card] = fn


def _cause(card: str) -> str:
    return f"the loan {CARDS.loans[card].name}"


def _only(cmd: IronBank, *, areas: int = 0, units: bool = False, option: tuple[str, ...] = ()) -> str | None:
    """What the answer names that the loan does not ask for, or the areas it lacks."""
    name = CARDS.loans[cmd.loan or ""].name
    if len(cmd.areas) != areas:
        if areas == 0:
            return f"{name} names no area after its name (M104)"
        return f"{name} needs {areas} area{'s' if areas > 1 else ''} after its name: 'take {name.lower()} in AREA{', AREA' if areas > 1 else ''}' (M104)"
    if cmd.units and not units:
        return f"{name} places or destroys no units; name none (M104)"
    if option and cmd.option not in option:
        return f"{name} needs its choice after a colon: {' or '.join(option)} (M104)"
    if cmd.option and not option:
        return f"{name} takes no choice after a colon (M104)"
    return None


def _land(ctx: Context, area: str) -> str | None:
    if area not in ctx.board.areas or ctx.board.areas[area].kind != "land":
        return f"{area!r} is not a land area (M119)"
    return None


def _improve(ctx: Context, card: str, areas: tuple[str, ...], token: str) -> str | None:
    if len(set(areas)) != len(areas):
        return f"{CARDS.loans[card].name} needs different areas (M104)"
    for a in areas:
        if why := _land(ctx, a):
            return why
    for a in areas:
        place_improvement(ctx, a, token, _cause(card))
    return None


def customs_officer(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Take 10 power."""
    if why := _only(cmd):
        return why
    gain_power(ctx, house, 10, _cause("customs_officer"))
    return None


loan("customs_officer", customs_officer)


def expert_artificer(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """A crown improvement on any land area, then 8 power."""
    if (why := _only(cmd, areas=1)) or (why := _improve(ctx, "expert_artificer", cmd.areas, "+power")):
        return why
    gain_power(ctx, house, 8, _cause("expert_artificer"))
    return None


loan("expert_artificer", expert_artificer)


def loyal_maester(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """A barrel improvement on each of two different land areas."""
    return _only(cmd, areas=2) or _improve(ctx, "loyal_maester", cmd.areas, "+supply")


loan("loyal_maester", loyal_maester)


def savvy_steward(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """A barrel improvement on any land area, then the buyer's supply token up 1."""
    if (why := _only(cmd, areas=1)) or (why := _improve(ctx, "savvy_steward", cmd.areas, "+supply")):
        return why
    move_supply(ctx, house, ctx.state.houses[house].supply + 1, _cause("savvy_steward"))
    return None


loan("savvy_steward", savvy_steward)


def master_at_arms(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Two different castle areas (not strongholds, anyone's) become strongholds (ruling 219)."""
    if why := _only(cmd, areas=2):
        return why
    for a in cmd.areas:
        if a not in ctx.board.areas or not has_castle_only(ctx.state, ctx.board, a):
            return f"{ctx.board.areas[a].name if a in ctx.board.areas else repr(a)} has no castle to improve (a stronghold is not a castle) (ruling 219)"
    return _improve(ctx, "master_at_arms", cmd.areas, "+stronghold")


loan("master_at_arms", master_at_arms)


def pyromancer(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Degrade one castle, then put a crown or a barrel improvement on that area (ruling 219)."""
    if why := _only(cmd, areas=1, option=("crown", "barrel")):
        return why
    area = cmd.areas[0]
    if area not in ctx.board.areas or not has_castle_only(ctx.state, ctx.board, area):
        return f"{ctx.board.areas[area].name if area in ctx.board.areas else repr(area)} has no castle to degrade (ruling 219)"
    place_improvement(ctx, area, "-castle", _cause("pyromancer"))
    place_improvement(ctx, area, "+power" if cmd.option == "crown" else "+supply", _cause("pyromancer"))
    after_control_change(ctx)  # a castle less may matter to no one, but victory is read afresh
    return None


loan("pyromancer", pyromancer)


def _place_units(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Place the loan's units where the answer says, each where ruling 219 allows; a unit left out
    must fit nowhere."""
    card = cmd.loan or ""
    want = dict(CARDS.loans[card].units or {})
    if why := _only(cmd, units=True):
        return why
    name = CARDS.loans[card].name
    for loc in cmd.units:
        for _ in range(loc.count):
            if want.get(loc.unit, 0) <= 0:
                return f"{name} places {_units_word(CARDS.loans[card].units or {})}; not another {loc.unit.replace('_', ' ')} (M104)"
            if why := placement_problem(ctx.state, ctx.board, house, loc.area, loc.unit):
                return why
            want[loc.unit] -= 1
            place_unit(ctx, house, loc.area, loc.unit, _cause(card))
    for unit, n in want.items():
        if n > 0 and any(placement_problem(ctx.state, ctx.board, house, a, unit) is None for a in ctx.board.areas):
            return f"{name} still has {n} {unit.replace('_', ' ')} to place, and it fits somewhere: name where (ruling 219)"
    if left := tuple(unit for unit, n in want.items() for _ in range(n)):  # the buyer hears why it got fewer
        ctx.emit(UnitsNotPlaced(house=house, units=left, cause=_cause(card)))
    return None


def _units_word(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {u.replace('_', ' ')}" for u, n in units.items())


# Full Host (1 footman, 1 knight, 1 siege engine, 1 ship), Sea Raiders (1 footman, 3 ships), Siege
# Engineers (1 footman, 2 siege engines) and Vanguard Cavalry (3 knights) do nothing but place the
# units their card lists (ruling 219): one ability, read from the card, serves all four.
for _card in ("full_host", "sea_raiders", "siege_engineers", "vanguard_cavalry"):
    loan(_card, _place_units)


def the_faceless_men(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Destroy one knight in one area and one footman in another, of any house."""
    if why := _only(cmd, units=True):
        return why
    st = ctx.state
    named = {loc.unit: loc for loc in cmd.units}
    if len(named) != len(cmd.units) or any(loc.count != 1 for loc in cmd.units) or set(named) - {"knight", "footman"}:
        return "The Faceless Men destroy one knight and one footman: 'knight in AREA, footman in AREA' (M104)"
    if len(named) == 2 and named["knight"].area == named["footman"].area:
        return "The Faceless Men take the knight and the footman from two different areas (M104)"
    for loc in named.values():
        if not any(u.type == loc.unit for u in st.area(loc.area).units):
            return f"there is no {loc.unit} in {ctx.board.areas[loc.area].name if loc.area in ctx.board.areas else repr(loc.area)} (M104)"
    for unit in ("knight", "footman"):
        other = named.get("footman" if unit == "knight" else "knight")
        if unit not in named and any(u.type == unit for a, s in st.areas.items() if other is None or a != other.area
                                     for u in s.units):
            return f"The Faceless Men must destroy a {unit} too while one stands in another area: name it (M104)"
    for loc in named.values():
        victim = next(u for u in st.area(loc.area).units if u.type == loc.unit)
        destroy_units(ctx, loc.area, [victim], _cause("the_faceless_men"))
    after_control_change(ctx)
    return None


loan("the_faceless_men", the_faceless_men)


def spymaster(ctx: Context, house: HouseId, cmd: IronBank) -> str | None:
    """Look in secret at the top two cards of one Westeros deck, then put any of them at the bottom
    and the rest back on top, each group in the order the buyer gives (ruling 225)."""
    decks = sorted(ctx.state.westeros_decks)
    if why := _only(cmd, option=tuple(decks)):
        return why
    if ctx.segment.name == TRIAL:
        return None  # the look and the choice after it are the buyer's alone: nothing to judge now
    deck = ctx.state.westeros_decks[cmd.option or ""]
    top = tuple(deck[:2])
    ctx.emit(SpymasterLooked(house=house, deck=int(cmd.option or 0), cards=top, visible_to=house))
    if not top:
        return None
    req = Request(key=ctx.key("spymaster", house), kind="spymaster", house=house,
                  prompt=f"Spymaster: put the {len(top)} card{'s' if len(top) > 1 else ''} you saw on top or at the bottom",
                  context={"deck": int(cmd.option or 0), "cards": list(top)},
                  default=SpymasterChoice(top=tuple(range(1, len(top) + 1))))
    got: SpymasterChoice = ctx.ask(Ask(req, lambda c: spymaster_problem(len(top), c)))
    del deck[: len(top)]
    deck[:0] = [top[i - 1] for i in got.top]
    deck.extend(top[i - 1] for i in got.bottom)
    ctx.emit(SpymasterDone(house=house, deck=int(cmd.option or 0), bottom=len(got.bottom)))
    return None


loan("spymaster", spymaster)


def spymaster_problem(seen: int, cmd: Command) -> Verdict:
    """Why a Spymaster answer does not place each card seen exactly once, or ``None``."""
    if not isinstance(cmd, SpymasterChoice):
        return NOT_APPLICABLE
    if sorted(cmd.top + cmd.bottom) != list(range(1, seen + 1)):
        places = "the first card" if seen == 1 else "the first and the second card"
        return f"place {places} you saw, each once, on top or at the bottom (ruling 225)"
    return None


# --- judging and resolving --------------------------------------------------------------------


TRIAL = "loan trial"


def _trial(state: GameState, board: Board) -> Context:
    return Context(state.copy(), board, Segment(TRIAL, {}), [], False)


def loan_problem(state: GameState, board: Board, house: HouseId, cmd: IronBank) -> str | None:
    """Why the loan's choices in ``cmd`` cannot be carried out now, or ``None`` (on a copy of the game)."""
    fn = LOANS.get(cmd.loan or "")
    if fn is None:
        return f"{cmd.loan!r} is no loan of the Iron Bank (M104)"
    try:
        return fn(_trial(state, board), house, cmd)
    except Exception as exc:  # a GameOver on the copy: the choices are legal
        if type(exc).__name__ == "GameOver":
            return None
        raise


def resolve_loan(ctx: Context, house: HouseId, cmd: IronBank) -> None:
    """Carry the loan's effect out (its choices were judged legal just before)."""
    why = LOANS[cmd.loan or ""](ctx, house, cmd)
    assert why is None, why


def first_choice(state: GameState, board: Board, house: HouseId, area: str, card: str) -> IronBank | None:
    """The first legal answer taking ``card``, in board order, or ``None`` (the robots' choice)."""
    base = IronBank(area=area, loan=card)
    lands = [a for a, x in board.areas.items() if x.kind == "land"]
    tries: list[IronBank] = []
    if card in ("customs_officer",):
        tries = [base]
    elif card == "spymaster":
        tries = [IronBank(area=area, loan=card, option=d) for d in sorted(state.westeros_decks)]
    elif card in ("expert_artificer", "savvy_steward"):
        mine = [a for a in lands if state.controller(a, board) == house]
        tries = [IronBank(area=area, loan=card, areas=(a,)) for a in mine[:3]]
    elif card == "loyal_maester":
        mine = [a for a in lands if state.controller(a, board) == house]
        tries = [IronBank(area=area, loan=card, areas=p) for p in list(combinations(mine, 2))[:3]]
    elif card == "master_at_arms":
        castles = [a for a in lands if has_castle_only(state, board, a)]
        mine = [a for a in castles if state.controller(a, board) == house] + [a for a in castles if state.controller(a, board) != house]
        tries = [IronBank(area=area, loan=card, areas=tuple(mine[:2]))] if len(mine) >= 2 else []
    elif card == "pyromancer":
        castles = [a for a in lands if has_castle_only(state, board, a) and state.controller(a, board) != house]
        tries = [IronBank(area=area, loan=card, areas=(a,), option="crown") for a in castles[:1]]
    elif card == "the_faceless_men":
        tries = [_faceless_choice(state, house, area)]
    elif CARDS.loans[card].units:
        tries = [_units_choice(state, board, house, area, card)]
    if improvement_tokens_left(state, board) < 2 and card in ("loyal_maester", "master_at_arms", "pyromancer"):
        return None
    return next((t for t in tries if loan_problem(state, board, house, t) is None), None)


def _units_choice(state: GameState, board: Board, house: HouseId, area: str, card: str) -> IronBank:
    trial = state.copy()
    placed: list[Located] = []
    for unit, n in (CARDS.loans[card].units or {}).items():
        for _ in range(n):
            where = next((a for a in board.areas if placement_problem(trial, board, house, a, unit) is None), None)
            if where is None:
                break
            from ...game.state import Unit

            trial.area_mut(where).units.append(Unit(house, unit))
            placed.append(Located(area=where, unit=unit))
    return IronBank(area=area, loan=card, units=tuple(placed))


def _faceless_choice(state: GameState, house: HouseId, area: str) -> IronBank:
    """A knight and a footman of other houses (else of anyone), in two different areas."""
    def spots(unit: str) -> list[str]:
        found = [a for a, s in sorted(state.areas.items()) if any(u.type == unit for u in s.units)]
        return sorted(found, key=lambda a: state.occupant(a) == house)

    knights, footmen = spots("knight"), spots("footman")
    units: list[Located] = []
    if knights:
        units.append(Located(area=knights[0], unit="knight"))
    other = [a for a in footmen if not knights or a != knights[0]]
    if other:
        units.append(Located(area=other[0], unit="footman"))
    return IronBank(area=area, loan="the_faceless_men", units=tuple(units))
