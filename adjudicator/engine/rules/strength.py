"""Combat strength and combat icons, with every source named (R171, R174, R187-R200).

Strength is always counted afresh from the state: a card that destroys a footman or removes a
Support Order changes the next count by itself (R200: "initial strength recalculated").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...game.board import Board
from ...game.cards import CARDS
from ...game.commands import order_bonus, order_kind
from ...game.state import GameState
from ..cards.registry import (
    ROLES,
    Bonus,
    Effect,
    Fighter,
    FinalStrength,
    Icons,
    LowerPrinted,
    PrintedStrength,
    Role,
    UnitValue,
)
from ..cards.tides import tides_card
from ..core.common import UNIT_STRENGTH
from ..core.context import Context
from .combat_state import Combat, fighters, live_grants

UNIT_ORDER = ("footman", "knight", "ship", "siege_engine", "dragon")  # dragon: Mother of Dragons (M088)


# What the revealed cards' lasting texts do now, per side: ``(card, effect)`` pairs.
Effects = Mapping[Role, Sequence[tuple[str, Effect]]]


@dataclass(frozen=True)
class Strength:
    """One side's total and its sources as ``(source, amount)`` pairs."""

    total: int
    parts: tuple[tuple[str, int], ...]


def base_value(f: Fighter, castle: bool, dragon: int) -> int:
    """A unit's printed strength here: routed 0; a siege engine 4 only against a castle (R187, R236);
    a dragon (Mother of Dragons) ``dragon``, the dragon strength tokens in the box (M089)."""
    if f.routed:
        return 0
    if f.type == "siege_engine":
        return 4 if f.side == "attacker" and castle else 0
    if f.type == "dragon":
        return dragon
    return UNIT_STRENGTH[f.type]


def grant_value(state: GameState, board: Board, combat: Combat, supporter: str, area: str, token: str, role: Role) -> int:
    """What one Support Order would give a side before any card: its units, plus 1 if special (R174)."""
    castle = state.effective_area(combat.area, board).has_castle
    units = [u for u in state.area(area).units if u.house == supporter]
    dragon = state.dragon_strength(board)
    total = sum(base_value(Fighter(u.house, u.type, area, role, True, u.routed), castle, dragon) for u in units)
    return total + order_bonus(token)


def strength(ctx: Context, combat: Combat, role: Role, cards: Effects | None) -> Strength:
    """A side's combat strength now, never below 0 (R188, R200).

    ``cards`` is what the revealed cards' lasting texts do now (``combat_view.passive_effects``), or
    None for the strength without the House cards (the initial strength announced, R187).
    """
    st, board = ctx.state, ctx.board
    side = combat.sides[role]
    castle = st.effective_area(combat.area, board).has_castle
    dragon = st.dragon_strength(board)
    with_cards = cards is not None
    effects: Effects = cards if cards is not None else {r: [] for r in ROLES}
    rules = [(card, e) for r in ROLES for card, e in effects[r] if isinstance(e, UnitValue)]
    parts: list[tuple[str, int]] = []
    ability_total: dict[str, int] = defaultdict(int)

    def value(f: Fighter) -> int:
        base = base_value(f, castle, dragon)
        found = [(e.value, card) for card, e in rules if e.applies(f)] if not f.routed else []
        if not found:
            return base
        v, card = min(found)  # a card's 0 wins over another's doubling (ruling 33)
        ability_total[card] += v - base
        return base

    mine = [f for f in fighters(st, combat) if f.side == role]
    for unit in UNIT_ORDER:
        own = [f for f in mine if not f.supporting and f.type == unit]
        if own:
            parts.append((f"units:{unit}", sum(value(f) for f in own)))
    if role == "attacker" and order_bonus(combat.attack.march_token):
        parts.append(("march", order_bonus(combat.attack.march_token)))
    order = st.area(combat.area).order
    if role == "defender" and order and order.house == side.house and order_kind(order.token) == "defense":
        parts.append(("defense", order_bonus(order.token)))
    for g in live_grants(st, combat, role):
        units = [f for f in mine if f.supporting and f.area == g.area]
        parts.append((f"support:{g.supporter}:{g.area}", sum(value(f) for f in units) + order_bonus(g.token)))
    garrison = st.area(combat.area).garrison
    if role == "defender" and garrison and st.garrison_owner(combat.area, board) == side.house:
        parts.append(("garrison", garrison))
    if with_cards and side.card:
        printed = CARDS.house_cards[side.card].strength
        for _, e in [*effects[role], *effects[_other(role)]]:
            if isinstance(e, PrintedStrength) and e.side == role:
                printed = e.value
        printed = combat.printed.get(side.card, printed)  # set once by a text (Bronn, Qyburn)
        for _, e in effects[role]:
            if isinstance(e, LowerPrinted) and e.side == role:
                printed = max(0, printed - e.amount)  # Doran Martell's loss stops at 0 (ruling 378)
        parts.append((f"card:{side.card}", printed))
    for r in ROLES:
        for card, e in effects[r]:
            if isinstance(e, Bonus) and e.side == role:
                ability_total[card] += e.amount
    for side_of, card, amount in combat.bonuses if with_cards else ():  # added once by a text (Viserys)
        if side_of == role:
            ability_total[card] += amount
    parts += [(f"ability:{card}", n) for card, n in sorted(ability_total.items()) if n]
    if side.blade:
        parts.append(("blade", 1))
    if with_cards and side.tides:
        parts.append((f"tides:{side.tides}", tides_card(side.tides).value))
    finals = [(e.value, card) for r in ROLES for card, e in effects[r] if isinstance(e, FinalStrength) and e.side == role]
    if finals:  # Mance Rayder, Margaery Tyrell: the final strength is set; the lower of two wins (ruling 377)
        final, setter = min(finals)
        parts.append((f"final:{setter}", final - sum(n for _, n in parts)))
    return Strength(max(0, sum(n for _, n in parts)), tuple(parts))


def icons(combat: Combat, role: Role, cards: Effects) -> tuple[int, int]:
    """``(swords, fortifications)`` of a side: its card, the card's text (``cards``, as for
    :func:`strength`), its Tides card (R198, R271)."""
    side = combat.sides[role]
    swords = forts = 0
    if side.card:
        c = CARDS.house_cards[side.card]
        swords, forts = combat.icons.get(side.card, (c.swords, c.fortifications))  # Qyburn's copied icons
        for _, e in cards[role]:
            if isinstance(e, Icons):
                swords += e.swords
                forts += e.fortifications
    if side.tides:
        t = tides_card(side.tides)
        swords += t.swords
        forts += t.fortifications
    return swords, forts


def _other(role: Role) -> Role:
    return "defender" if role == "attacker" else "attacker"
