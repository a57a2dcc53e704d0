"""Combat step 1: the call for support (R172-R186, R232).

Every Support Order next to the embattled area declares, in turn order, for the attacker, the
defender or no one; each declaration is one ``support`` decision, open to the houses declaring
after it. Then each combatant may turn down support offered by another house (R180) — only by a
standing ``refuse support from ...`` instruction, so that support never holds up a combat.
"""

from __future__ import annotations

from typing import Any

from ...game.board import HOUSES, Board
from ...game.commands import Command, RefuseSupport, Support, order_kind
from ...game.state import GameState
from ..cards.registry import ROLES, Role
from ..core.context import NOT_APPLICABLE, Ask, Context, Request
from ..core.vassals import same_family
from ..events.combat import SupportDeclared, SupportRefused
from .combat_state import Combat, Grant, decide_now, matches
from .gifts import gifts_at_support
from .strength import grant_value

# "Support no one". A command's ``None`` fields are left out of its saved form, and Support.side
# has no default, so a recorded ``side=None`` could not be read back: the engine's own "none"
# options say it with this word instead, and both forms are accepted as answers.
NO_ONE = "none"


def can_support(board: Board, support_area: str, combat_area: str) -> bool:
    """May units in ``support_area`` support a combat in ``combat_area`` at all (R181, R185, R254)?"""
    if not board.adjacent(support_area, combat_area):
        return False  # ship transport never makes areas adjacent for support (R158)
    s, c = board.area(support_area), board.area(combat_area)
    if s.is_port:
        return c.is_sea  # a port's ships support only a combat in its own sea
    if c.is_sea:
        return s.is_sea  # footmen, knights and siege engines never support a sea combat
    return True


def support_orders(state: GameState, board: Board, combat: Combat) -> list[tuple[str, str, str]]:
    """``(house, area, token)`` of every Support Order that may support this combat, in turn order."""
    found = []
    for area in sorted(board.neighbours[combat.area]):
        order = state.area(area).order
        if order and order_kind(order.token) == "support" and can_support(board, area, combat.area):
            found.append((order.house, area, order.token))
    turn = state.turn_order()
    return sorted(found, key=lambda f: (turn.index(f[0]) if f[0] in turn else len(turn), f[1]))


def call_for_support(ctx: Context, combat: Combat) -> None:
    """Every adjacent Support Order declares in turn order; then refusals (R173, R176, R180)."""
    for house, area, token in support_orders(ctx.state, ctx.board, combat):
        role = _declare(ctx, combat, house, area, token)
        amount = grant_value(ctx.state, ctx.board, combat, house, area, token, role) if role else 0
        if role:
            combat.sides[role].grants.append(Grant(house, area, token))
        ctx.emit(SupportDeclared(supporter=house, area=area, combat_area=combat.area,
                                 side=(combat.house(role) or "") if role else "", strength=amount))
    for role in ROLES:
        _refusals(ctx, combat, role)


def _declare(ctx: Context, combat: Combat, house: str, area: str, token: str) -> Role | None:
    """One Support Order's declaration: the side it supports, or None."""
    st, board = ctx.state, ctx.board
    combatant = combat.role_of(house)
    roles: list[Role] = [combatant] if combatant else ["attacker"] if combat.neutral else list(ROLES)
    roles = [r for r in roles if not _against_family(st, combat, house, r)]  # Mother of Dragons (ruling 234)
    options = tuple(Support(side=r, combat_area=combat.area, origin=area) for r in roles)
    options += (Support(side=NO_ONE, combat_area=combat.area, origin=area),)
    defender = combat.defender or "the neutral force"
    req = Request(
        key=ctx.key("support", house), kind="support", house=house,
        prompt=(f"support from {board.area(area).name} in the combat in {board.area(combat.area).name} "
                f"({combat.attacker.title()} attacks {defender.title()}): attacker, defender or none"),
        context={"combat_area": combat.area, "support_area": area, "attacker": combat.attacker,
                 "defender": combat.defender or "neutral",
                 "strength": {r: grant_value(st, board, combat, house, area, token, r) for r in roles}},
        options=options, default=options[-1],
    )

    def check(cmd: Command) -> Any:
        if not isinstance(cmd, Support):
            return NOT_APPLICABLE
        if (cmd.combat_area and cmd.combat_area != combat.area) or (cmd.origin and cmd.origin != area):
            return NOT_APPLICABLE
        if cmd.side in (None, NO_ONE):
            return None
        role = _role(combat, cmd.side)
        if role is None:
            if cmd.side in HOUSES:
                return NOT_APPLICABLE
            return f"unknown side {cmd.side!r}: name a house, attacker, defender or none (R173)"
        if role == "defender" and combat.neutral:
            return "a neutral force never receives support; only the attacker may be supported (R232)"
        if combatant and role != combatant:
            return "no house may support its opponent against its own units (R184)"
        if _against_family(st, combat, house, role):
            return ("a commander and the vassals it commands never support against one another "
                    "(M048, ruling 234)")
        return None

    gifts_at_support(ctx, req.key)  # Mother of Dragons: gifts waiting are made now (ruling 261)
    only = options[0] if len(options) == 1 else None
    cmd = ctx.ask(Ask(req, check, only=only))
    assert isinstance(cmd, Support)
    return _role(combat, cmd.side) if cmd.side not in (None, NO_ONE) else None


def _against_family(state: GameState, combat: Combat, house: str, role: Role) -> bool:
    """Whether supporting ``role`` means supporting against the supporter's own family (ruling 234)."""
    other = combat.house("defender" if role == "attacker" else "attacker")
    return other is not None and same_family(state, house, other)


def _role(combat: Combat, side: str) -> Role | None:
    if side in ROLES:
        return "attacker" if side == "attacker" else "defender"
    return combat.role_of(side)


def _refusals(ctx: Context, combat: Combat, role: Role) -> None:
    """The combatant keeps or turns down each other house's support (R180; default keep)."""
    house = combat.house(role)
    if house is None:
        return
    for grant in list(combat.sides[role].grants):
        if grant.supporter == house:
            continue
        req = Request(
            key=ctx.key("refuse_support", house), kind="refuse_support", house=house,
            prompt=f"the support of {grant.supporter.title()} from {ctx.board.area(grant.area).name} in "
                   f"{ctx.board.area(combat.area).name}",
            context={"combat_area": combat.area, "supporter": grant.supporter, "support_area": grant.area},
            options=(RefuseSupport(supporter=grant.supporter),),
        )

        def check(cmd: Command, g: Grant = grant, h: str = house) -> Any:
            if not isinstance(cmd, RefuseSupport) or cmd.supporter != g.supporter or not matches(cmd.when, combat, h):
                return NOT_APPLICABLE
            return None

        keep = Support(side=role, combat_area=combat.area, origin=grant.area)
        cmd = decide_now(ctx, Ask(req, check), keep)
        if isinstance(cmd, RefuseSupport):
            combat.sides[role].grants.remove(grant)
            ctx.emit(SupportRefused(house=house, supporter=grant.supporter, area=grant.area, combat_area=combat.area))
