"""The Iron Bank of Braavos (Mother of Dragons, M103-M113, M117-M118).

- The Iron Bank order resolves in the Resolve Consolidate Power step, as one of the orders a house
  may choose on its turn of the cycle (ruling 259): ``iron bank in AREA: take LOAN ...`` buys the
  loan in a slot, paying the slot's cost (M104-M106, M112), or ``...: no loan`` (ruling 255).
- At the start of every round but the first the loans move one slot left (M107, M108, ruling 254);
  then, first thing in the Westeros phase, every house pays 1 power per loan it holds, and the
  Valyrian Steel Blade holder destroys a unit of a debtor for each power it is short (M109, M110,
  ruling 256, ruling 274).

The loans' own abilities are ``engine/cards/loans.py``; what both share is ``engine/core/bank.py``.
"""

from __future__ import annotations

from collections import Counter

from ...game.board import Board, HouseId
from ...game.cards import CARDS
from ...game.commands import Command, InterestLosses, IronBank, Located
from ...game.hooks import register
from ...game.state import GameState
from ..cards.loans import first_choice, loan_problem, resolve_loan
from ..core.bank import bank_in_play, loan_cost
from ..core.braavos import sync_braavos
from ..core.common import after_control_change, destroy_units, lose_power
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..events.bank import InterestDue, LoansShifted, LoanTaken, NoLoanTaken
from .planning import in_board_order

# Which units the deadline default destroys first for unpaid interest (ruling 256).
CHEAPEST_FIRST = ("footman", "ship", "siege_engine", "knight", "dragon")


def _name(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)


def iron_bank_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas holding the house's Iron Bank order (one token, M114), in board order."""
    return in_board_order(board, [a for a, st in state.areas.items()
                                  if st.order and st.order.house == house and st.order.token == "iron_bank"])


# --- buying a loan (M104-M106, M112, M117) -----------------------------------------------------


def no_order_problem(state: GameState, board: Board, house: HouseId, area: str) -> str | None:
    """Why ``house`` has no Iron Bank order in ``area`` to resolve, or ``None``: an answer naming
    another house's order, or one raided or removed, is refused as soon as it arrives too (ruling 161)."""
    if area not in board.areas:
        return f"there is no area {area!r}, so no Iron Bank order there (M117)"
    order = state.area(area).order
    if not order or order.house != house or order.token != "iron_bank":
        return f"you have no Iron Bank order in {_name(board, area)} (never placed, removed or raided) (M117, M116, M118)"
    return None


def iron_bank_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why an ``IronBank`` answer cannot be used now, or ``None``."""
    if not isinstance(cmd, IronBank):
        return NOT_APPLICABLE
    if why := no_order_problem(state, board, house, cmd.area):
        return why
    if cmd.loan is None:
        return None
    if not bank_in_play(state):
        return "the Iron Bank is in play only with Targaryen; its order takes no loan here (M103, ruling 205)"
    name = CARDS.loans[cmd.loan].name if cmd.loan in CARDS.loans else repr(cmd.loan)
    if cmd.loan not in state.loan_slots:
        shown = ", ".join(CARDS.loans[s].name for s in state.loan_slots if s) or "nothing"
        return f"{name} is not face up in the Iron Bank (its slots hold {shown}) (M104)"
    slot = state.loan_slots.index(cmd.loan)
    cost = loan_cost(state, board, house, slot)
    if state.houses[house].power < cost:
        return f"{name} in slot {slot + 1} costs {cost} power and you have {state.houses[house].power} (M106, M105)"
    trial = state.copy()
    trial.houses[house].power -= cost
    return loan_problem(trial, board, house, cmd)


def loan_options(state: GameState, board: Board, house: HouseId, area: str) -> list[IronBank]:
    """Legal answers for the order in ``area``: no loan, then each loan it can take with the first
    legal choices in board order."""
    out = [IronBank(area=area)]
    if not bank_in_play(state):
        return out
    for slot, card in enumerate(state.loan_slots):
        if not card or state.houses[house].power < loan_cost(state, board, house, slot):
            continue
        trial = state.copy()
        trial.houses[house].power -= loan_cost(state, board, house, slot)
        got = first_choice(trial, board, house, area, card)
        if got is not None:
            out.append(got)
    return out


def with_iron_bank(ctx: Context, house: HouseId, banks: list[str], base: Ask | None) -> Ask:
    """The house's turn of the consolidate power cycle when it holds Iron Bank orders: the
    consolidate power answers of ``base`` (if it holds such orders too) or an Iron Bank answer."""
    st, board = ctx.state, ctx.board
    options = [o for a in banks for o in loan_options(st, board, house, a)]
    default = IronBank(area=banks[0])  # MD13: no loan
    if base is not None:
        req = base.request
        request = Request(
            key=req.key, kind=req.kind, house=house,
            prompt="resolve one of your consolidate power or Iron Bank orders",
            context={**req.context, "iron_bank_orders": banks, "loan_slots": list(st.loan_slots)},
            options=(*req.options, *options), default=req.default,
        )

        def check(c: Command) -> Verdict:
            return iron_bank_problem(st, board, house, c) if isinstance(c, IronBank) else base.check(c)

        return Ask(request, check)
    request = Request(
        key=ctx.key("consolidate", house), kind="consolidate", house=house,
        prompt="resolve your Iron Bank order: take one face-up loan, or none",
        context={"iron_bank_orders": banks, "loan_slots": list(st.loan_slots),
                 "loan_costs": [loan_cost(st, board, house, i) for i in range(len(st.loan_slots))]},
        options=tuple(options), default=default,
    )
    only = options[0] if len(options) == 1 and len(banks) == 1 else None
    return Ask(request, lambda c: iron_bank_problem(st, board, house, c), only=only)


def resolve_iron_bank(ctx: Context, house: HouseId, cmd: IronBank) -> None:
    """M104: pay the slot's cost, take the loan face down, resolve its effect; the order goes."""
    st, board = ctx.state, ctx.board
    st.area_mut(cmd.area).order = None
    if cmd.loan is None:
        reason = "" if bank_in_play(st) else "the Iron Bank is not in play without Targaryen, ruling 205"
        ctx.emit(NoLoanTaken(house=house, area=cmd.area, reason=reason))
        return
    slot = st.loan_slots.index(cmd.loan)
    cost = loan_cost(st, board, house, slot)
    st.loan_slots[slot] = ""
    st.houses[house].loans.append(cmd.loan)
    ctx.emit(LoanTaken(house=house, area=cmd.area, loan=cmd.loan, slot=slot + 1, cost=cost))
    if cost:
        lose_power(ctx, house, cost, f"the loan {CARDS.loans[cmd.loan].name}")
    resolve_loan(ctx, house, cmd)


# --- the start of a round: the slots, then interest (M107-M110, ruling 274) --------------------


def start_of_round(ctx: Context) -> None:
    """Shift the loans, then collect interest (rounds 2 to 10, at the start of the Westeros phase)."""
    if not bank_in_play(ctx.state):
        return
    shift_loans(ctx)
    collect_interest(ctx)


def shift_loans(ctx: Context) -> None:
    """M107, M108 (ruling 254): every slot moves one left, the leftmost loan under the deck, the top
    loan of the deck face up into the rightmost slot (an empty deck leaves it empty)."""
    st = ctx.state
    leaving, rest = st.loan_slots[0], st.loan_slots[1:]
    if leaving:
        st.loan_deck.append(leaving)
    new = st.loan_deck.pop(0) if st.loan_deck else ""
    st.loan_slots = [*rest, new]
    ctx.emit(LoansShifted(slots=tuple(st.loan_slots), returned=leaving))


def chooser(state: GameState, debtor: HouseId) -> HouseId:
    """M110: who destroys a debtor's units: the Blade holder, or the next highest player on the
    Fiefdoms track when the debtor holds the Blade (ruling 256)."""
    players = [h for h in state.tracks["fiefdoms"] if not state.is_vassal(h)]
    blade = players[0]
    return blade if blade != debtor else players[1]


def collect_interest(ctx: Context) -> None:
    """M109, M110: in turn order each house pays 1 power per loan; for each power short, units go."""
    st = ctx.state
    for house in st.turn_order():
        owed = len(st.houses[house].loans)
        if not owed or st.is_vassal(house):
            continue
        paid = min(owed, st.houses[house].power)
        ctx.emit(InterestDue(house=house, owed=owed, paid=paid))
        if paid:
            lose_power(ctx, house, paid, "interest to the Iron Bank")
        short = min(owed - paid, len(st.units_of(house)))
        if short:
            removals = ctx.ask(_losses_ask(ctx, house, short))
            _destroy(ctx, house, removals.removals)


def interest_problem(state: GameState, board: Board, debtor: HouseId, short: int, cmd: Command) -> Verdict:
    """Why an ``InterestLosses`` answer cannot be used for ``debtor`` now, or ``None``."""
    if not isinstance(cmd, InterestLosses) or cmd.debtor != debtor:
        return NOT_APPLICABLE
    named = sum(r.count for r in cmd.removals)
    if named != short:
        return f"{debtor.title()} is {short} power short: name exactly {short} of its units (M110)"
    need: Counter[tuple[str, str]] = Counter()
    for r in cmd.removals:
        need[(r.area, r.unit)] += r.count
    for (area, unit), n in need.items():
        have = sum(1 for u in state.area(area).units if u.house == debtor and u.type == unit)
        if have < n:
            return f"{debtor.title()} has {have} {unit.replace('_', ' ')} in {_name(board, area)}, not {n} (M110)"
    return None


def default_losses(state: GameState, board: Board, debtor: HouseId, short: int) -> InterestLosses:
    """Ruling 256's default: the cheapest units first, in board order."""
    units = state.units_of(debtor)
    order = in_board_order(board, {a for a, _ in units})
    picks: list[Located] = []
    for unit in CHEAPEST_FIRST:
        for area in order:
            for u in state.area(area).units:
                if len(picks) < short and u.house == debtor and u.type == unit:
                    picks.append(Located(area=area, unit=unit))
    return InterestLosses(debtor=debtor, removals=tuple(picks))


def _losses_ask(ctx: Context, debtor: HouseId, short: int) -> Ask:
    st, board = ctx.state, ctx.board
    who = chooser(st, debtor)
    default = default_losses(st, board, debtor, short)
    req = Request(
        key=ctx.key("interest", who), kind="interest", house=who,
        prompt=f"destroy {short} of {debtor.title()}'s units for the interest it could not pay",
        context={"debtor": debtor, "short": short}, default=default,
    )
    return Ask(req, lambda c: interest_problem(st, board, debtor, short, c))


def _destroy(ctx: Context, debtor: HouseId, removals: tuple[Located, ...]) -> None:
    st = ctx.state
    for r in removals:
        victims = [u for u in st.area(r.area).units if u.house == debtor and u.type == r.unit][: r.count]
        destroy_units(ctx, r.area, victims, "unpaid interest to the Iron Bank (M110)")
    after_control_change(ctx)
    sync_braavos(ctx)


register("round_start", "iron_bank", start_of_round)  # at the start of each Westeros phase (ruling 274)
