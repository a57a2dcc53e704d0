"""The working record of one combat, and the small helpers every combat step shares.

A :class:`Combat` lives only while :func:`adjudicator.engine.rules.combat.resolve_combat` runs; the
game state stays the only lasting record (the phase is replayed from its start on every
``advance``, so nothing here may depend on anything but the state and the decisions taken).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...game.commands import CombatFilter, Command, order_kind
from ...game.state import GameState, Unit
from ..cards.registry import ROLES, Fighter, Role, other
from ..core.context import Ask, Context
from ..core.vassals import head
from ..events import OnlyOption

NEUTRAL = "neutral"  # the "house" of a neutral force in a CombatResult
CHEAP_FIRST = ("footman", "ship", "siege_engine", "knight", "dragon")  # the default: cheapest units first (D26)


@dataclass
class Attack:
    """One attack, as the march code hands it over."""

    area: str  # the embattled area
    attacker: str  # house
    origin: str  # the area the attackers marched from (their March order is still there)
    units: list[Unit]  # the attacking units; they are still in `origin` while the combat resolves
    march_token: str  # e.g. "march+1"


@dataclass
class Grant:
    """Support given to one side by one Support Order; it counts while the order stays."""

    supporter: str
    area: str
    token: str


@dataclass
class Side:
    """One side of a combat: its house (None for a neutral force), card, support, tides, blade."""

    role: Role
    house: str | None
    card: str | None = None
    grants: list[Grant] = field(default_factory=list)
    tides: str | None = None
    blade: bool = False  # used the Blade for +1
    card_kept: bool = False  # the card went back to the hand (Roose Bolton) instead of the discards


@dataclass
class Combat:
    """Everything one combat has settled so far."""

    attack: Attack
    sides: dict[Role, Side]
    attacking: list[str]  # types of the attacking units still alive; they stay in the origin until they advance
    neutral: int = 0  # the neutral force's strength, 0 when a house defends
    garrison_only: bool = False
    resolved: set[str] = field(default_factory=set)  # cards whose text has been resolved (once each)
    cancelled: set[str] = field(default_factory=set)  # cards Tyrion Lannister sent back: not again this combat
    winner: Role | None = None
    forced_retreat: str | None = None  # Robb Stark's choice
    held: bool = False  # Arianne Martell: the attackers may not advance
    bonuses: list[tuple[Role, str, int]] = field(default_factory=list)  # strength a card's text added once (Viserys)
    advanced: bool = False
    controllers: dict[str, str | None] = field(default_factory=dict)  # control of land areas before
    # Mother of Dragons: a vassal's hand of vassal cards, drawn for this combat only (M058, M061), kept
    # here and not in the state, where a report would show it while its commander still chooses (ruling 236)
    vassal_hands: dict[str, list[str]] = field(default_factory=dict)
    printed: dict[str, int] = field(default_factory=dict)  # a card's printed strength set by a text (Bronn)
    retreated_to: str | None = None  # where the defeated defender's army went (Jon Connington)
    # A Dance with Dragons
    ignored: set[str] = field(default_factory=set)  # cards whose text the Queen of Thorns ignores
    icons: dict[str, tuple[int, int]] = field(default_factory=dict)  # a card's icons set by a text (Qyburn)

    @property
    def area(self) -> str:
        return self.attack.area

    @property
    def origin(self) -> str:
        return self.attack.origin

    @property
    def attacker(self) -> str:
        return self.attack.attacker

    @property
    def defender(self) -> str | None:
        return self.sides["defender"].house

    def house(self, role: Role) -> str | None:
        return self.sides[role].house

    def role_of(self, house: str) -> Role | None:
        for role in ROLES:
            if self.sides[role].house == house:
                return role
        return None

    def opponent_of(self, house: str) -> str | None:
        role = self.role_of(house)
        return self.sides[other(role)].house if role else None


def hand(state: GameState, combat: Combat, house: str) -> list[str]:
    """A combatant's hand as this combat sees it: a vassal's drawn vassal cards (M058), a player's
    own hand. The list itself: the combat code changes it in place."""
    if state.is_vassal(house):
        return combat.vassal_hands.setdefault(house, [])
    return state.houses[house].hand


def iron_throne_roles(state: GameState, combat: Combat) -> list[Role]:
    """The two sides in the current Iron Throne order (R194), neutral forces last."""
    order = state.turn_order()
    return sorted(ROLES, key=lambda r: order.index(h) if (h := combat.house(r)) in order else len(order))


def matches(when: CombatFilter | None, combat: Combat, house: str) -> bool:
    """Does a standing instruction's condition (``if attacked in Winterfell``) fit this combat?"""
    if when is None:
        return True
    role = combat.role_of(house)
    if when.role is not None and when.role != role:
        return False
    if when.area is not None and when.area != combat.area:
        return False
    return when.opponent is None or when.opponent == combat.opponent_of(house)


def fighters(state: GameState, combat: Combat) -> list[Fighter]:
    """Every unit taking part: the attackers (still in the origin), the defenders, the supporters.

    A Support Order counts only while it stays on the board (a card may remove it).
    """
    out = [Fighter(combat.attacker, t, combat.origin, "attacker", False, False) for t in combat.attacking]
    if combat.defender:
        out += [Fighter(u.house, u.type, combat.area, "defender", False, u.routed)
                for u in state.area(combat.area).units if u.house == combat.defender]
    for role in ROLES:
        for g in live_grants(state, combat, role):
            out += [Fighter(u.house, u.type, g.area, role, True, u.routed)
                    for u in state.area(g.area).units if u.house == g.supporter]
    return out


def live_grants(state: GameState, combat: Combat, role: Role) -> list[Grant]:
    """The support a side still has: grants whose Support Order is still in place."""
    out = []
    for g in combat.sides[role].grants:
        order = state.area(g.area).order
        if order and order.house == g.supporter and order.token == g.token and order_kind(order.token) == "support":
            out.append(g)
    return out


def units_text(types: list[str]) -> tuple[str, ...]:
    return tuple(sorted(types))


def pick_units(units: list[Unit], house: str, types: list[str]) -> list[Unit]:
    """The standing units of ``house`` matching ``types`` one for one (units of a type are alike)."""
    out: list[Unit] = []
    for t in types:
        free = [u for u in units if u.house == house and u.type == t and not u.routed]
        out.append(next(u for u in free if all(u is not x for x in out)))
    return out


def decide_now(ctx: Context, ask: Ask, fallback: Command) -> Command:
    """Take a decision from an answer already sent, or else at once take ``fallback``.

    For decisions a house makes only by standing instruction (refusing support; a Blade it may
    not use): they never hold up the combat. The decision is still recorded, so a replay of the
    phase takes the same one. The machine's "only option" path records it; its event is dropped
    on every run alike (first run and replay emit it the same way), because a fallback is not
    the one legal option.
    """
    cmd = ctx.ask(Ask(ask.request, ask.check, only=fallback, fallback=True))
    assert isinstance(cmd, Command)
    last = ctx.events[-1] if ctx.events else None
    req = ask.request  # a vassal's decision is put to its commander, its prompt naming the vassal (M030)
    if isinstance(last, OnlyOption) and last.decision.endswith(req.prompt) and last.house == head(ctx.state, req.house):
        ctx.events.pop()
    return cmd
