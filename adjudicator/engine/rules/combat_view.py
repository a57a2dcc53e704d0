"""The narrow view a House card gets of its combat (see :class:`adjudicator.engine.cards.registry.CombatView`),
and what the revealed cards' lasting texts do, read through it.

It reads the state and asks questions; it offers no way to change anything. The combat engine
applies what a card yields. A card may ask for the final strength, and the strength counts the
lasting texts of the cards: so the texts are read here, above the count (``strength.py``), which
is handed what they do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...game.board import Board
from ...game.cards import CARDS
from ...game.commands import CardChoice, Command
from ...game.state import Order, Unit
from ..cards.registry import ROLES, Effect, Fighter, Me, NoCasualties, Role, ability
from ..core.common import available_units, within_supply
from ..core.context import NOT_APPLICABLE, Ask, Context, Request
from .combat_state import Combat, fighters, hand, live_grants, matches
from .retreat import legal_retreats
from .strength import strength

DECLINE_WORDS = frozenset({"no", "keep", "pass", "none", "decline", "skip"})


class View:
    """A read-only window on one combat, handed to card abilities."""

    def __init__(self, ctx: Context, combat: Combat) -> None:
        self._ctx = ctx
        self._combat = combat
        self.area = combat.area
        self.origin = combat.origin
        self.march_token = combat.attack.march_token

    # --- reading --------------------------------------------------------------------------

    def house(self, role: Role) -> str | None:
        return self._combat.house(role)

    def card(self, role: Role) -> str | None:
        return self._combat.sides[role].card

    def fighters(self) -> Sequence[Fighter]:
        return tuple(fighters(self._ctx.state, self._combat))

    def supported(self, role: Role) -> bool:
        """Does anyone (itself or another house) support this side (card FAQ: any support counts)?"""
        return bool(live_grants(self._ctx.state, self._combat, role))

    def order(self, area: str) -> Order | None:
        return self._ctx.state.area(area).order

    def orders_of(self, house: str) -> Sequence[tuple[str, Order]]:
        return tuple((a, s.order) for a, s in sorted(self._ctx.state.areas.items()) if s.order and s.order.house == house)

    def adjacent(self, area: str) -> Sequence[str]:
        return tuple(sorted(self._ctx.board.neighbours[area]))

    def has_castle(self, area: str) -> bool:
        return self._ctx.state.effective_area(area, self._ctx.board).has_castle

    def hand(self, house: str) -> Sequence[str]:
        """A house's hand; a vassal's is the 2 vassal cards it drew and did not play (M058, ruling 238)."""
        return tuple(hand(self._ctx.state, self._combat, house))

    def playable(self, house: str) -> Sequence[str]:
        """The hand without the cards sent back by Tyrion Lannister in this combat (ruling 38)."""
        return tuple(c for c in self.hand(house) if c not in self._combat.cancelled)

    def discards(self, house: str) -> Sequence[str]:
        return tuple(self._ctx.state.houses[house].discards)

    def power(self, house: str) -> int:
        return self._ctx.state.houses[house].power

    def position(self, track: str, house: str) -> int:
        return self._ctx.state.position(track, house)

    def units_in(self, area: str) -> Sequence[Unit]:
        return tuple(Unit(u.house, u.type, u.routed) for u in self._ctx.state.area(area).units)

    def knights_available(self, house: str) -> int:
        return available_units(self._ctx.state, self._ctx.board, house, "knight")

    def winner(self) -> Role | None:
        return self._combat.winner

    def final_strength(self, role: Role) -> int:
        return strength(self._ctx, self._combat, role, passive_effects(self._ctx, self._combat)).total

    def is_land(self, area: str) -> bool:
        return self._ctx.board.area(area).is_land

    def retreat_losses(self) -> dict[str, int]:
        return legal_retreats(self._ctx, self._combat)

    def advanced(self) -> bool:
        return self._combat.advanced

    # --- Mother of Dragons -----------------------------------------------------------------

    def is_vassal(self, house: str) -> bool:
        return self._ctx.state.is_vassal(house)

    def is_sea(self, area: str) -> bool:
        return self._ctx.board.area(area).kind == "sea"

    def controls(self, house: str, area: str) -> bool:
        return self._ctx.state.controller(area, self._ctx.board) == house

    def supporters(self, role: Role) -> Sequence[str]:
        """Each house whose Support Order still counts for ``role``, once, in the order they were given."""
        return tuple(dict.fromkeys(g.supporter for g in live_grants(self._ctx.state, self._combat, role)))

    def retreated_to(self) -> str | None:
        return self._combat.retreated_to

    def home(self, house: str) -> str | None:
        return self._ctx.board.home_area(house)

    def fits_supply(self, house: str, area: str) -> bool:
        return within_supply(self._ctx.state, self._ctx.board, house, {area: 1})

    # --- A Dance with Dragons --------------------------------------------------------------

    def houses(self) -> Sequence[str]:
        return tuple(self._ctx.state.turn_order())

    def wildling_threat(self) -> int:
        return self._ctx.state.wildling_threat

    def wildling_attack_at(self) -> int:
        return int(self._ctx.board.constants["wildling_attack_at"])

    def units_of(self, house: str) -> Sequence[tuple[str, Unit]]:
        return tuple((a, Unit(u.house, u.type, u.routed)) for a, u in self._ctx.state.units_of(house))

    def power_token(self, area: str) -> str | None:
        return self._ctx.state.area(area).power_token

    def in_combat(self, area: str) -> bool:
        """Does any unit of this area take part: the embattled area, the origin, a supporting area?"""
        return area in (self.area, self.origin) or any(f.area == area for f in self.fighters())

    def westeros_deck(self, deck: int) -> Sequence[str]:
        return tuple(self._ctx.state.westeros_decks.get(str(deck), ()))

    # --- asking ---------------------------------------------------------------------------

    def choose(
        self, me: Me, prompt: str, options: Sequence[CardChoice], *, default: CardChoice, house: str | None = None,
        secret: bool = False,
    ) -> CardChoice:
        """Ask for one of ``options`` (a ``card_choice`` request); one option is taken unasked. A
        ``secret`` request's options and answer are told to the house asked alone."""
        ctx, combat = self._ctx, self._combat
        who = house or me.house
        name = CARDS.house_cards[me.card].name
        req = Request(
            key=ctx.key("card_choice", who), kind="card_choice", house=who, prompt=f"{name}: {prompt}",
            context={"card": me.card, "combat_area": combat.area, "choices": [_choice_text(o) for o in options]},
            options=tuple(options), default=default, secret=secret,
        )

        def check(cmd: Command) -> Any:
            if not isinstance(cmd, CardChoice) or cmd.card != me.card or not matches(cmd.when, combat, who):
                return NOT_APPLICABLE
            if _pick(cmd, options) is not None:
                return None
            listed = "; ".join(_choice_words(o, ctx.board) for o in options)
            return f"'{_choice_words(cmd, ctx.board)}' is not a choice {name} allows here; the choices are: {listed} (R193)"

        only = options[0] if len(options) == 1 else None
        cmd = ctx.ask(Ask(req, check, only=only))
        assert isinstance(cmd, CardChoice)
        picked = _pick(cmd, options)
        assert picked is not None
        return picked


# --- the lasting texts --------------------------------------------------------------------------


def passive_effects(ctx: Context, combat: Combat) -> dict[Role, list[tuple[str, Effect]]]:
    """What the revealed cards' lasting texts do now: ``(card, effect)`` per side that played them."""
    out: dict[Role, list[tuple[str, Effect]]] = {r: [] for r in ROLES}
    view = View(ctx, combat)
    for role in ROLES:
        side = combat.sides[role]
        if side.card in combat.ignored:
            continue  # the Queen of Thorns (A Dance with Dragons): its text is ignored
        for when in ("combat_strength", "casualties"):
            found = ability(side.card, when)
            if found and side.house and side.card:
                out[role] += [(side.card, e) for e in found.fn(view, Me(role, side.house, side.card))]
    return out


def no_casualties(ctx: Context, combat: Combat, role: Role) -> str:
    """The card that spares this side all casualties (The Blackfish), or ""."""
    for card, effect in passive_effects(ctx, combat)[role]:
        if isinstance(effect, NoCasualties):
            return card
    return ""


# --- reading an answer --------------------------------------------------------------------------


def _normal(c: CardChoice) -> tuple[object, ...]:
    option = c.option.lower() if c.option else None
    if option in DECLINE_WORDS:
        option = "no"
    if option is None and not (c.area or c.house_card or c.track or c.amount or c.westeros_card):
        option = "no"
    return option, c.area, c.house_card, c.track, c.amount or None, c.westeros_card


def _pick(cmd: CardChoice, options: Sequence[CardChoice]) -> CardChoice | None:
    """The option an answer names (``when`` and spelling of a refusal aside). A Westeros card named
    without its deck is the one option that card fits (Rodrik the Reader)."""
    want = _normal(cmd)
    fits = [o for o in options if _normal(o) == want and (cmd.deck is None or o.deck == cmd.deck)]
    return fits[0] if len(fits) == 1 or (fits and cmd.westeros_card is None) else None


def _choice_text(c: CardChoice) -> str:
    bits = [b for b in (c.option, c.area, c.house_card, c.track, c.westeros_card) if b]
    if c.amount:
        bits.append(str(c.amount))
    if c.deck:
        bits.append(f"deck {c.deck}")
    return " ".join(bits) if bits else "no"


def _choice_words(c: CardChoice, board: Board) -> str:
    """A choice as a player writes it: areas, cards and tracks by their names."""
    area = board.area(c.area).name if c.area in board.areas else c.area
    card = CARDS.house_cards[c.house_card].name if c.house_card in CARDS.house_cards else c.house_card
    track = c.track.replace("_", " ") if c.track else None
    bits = [b for b in (c.option, area, card, track) if b]
    if c.amount:
        bits.append(f"{c.amount} power")
    if c.westeros_card:
        found = [w.name for w in CARDS.westeros if w.id == c.westeros_card]
        bits.append((found[0] if found else c.westeros_card) + (f", deck {ROMAN.get(c.deck, c.deck)}" if c.deck else ""))
    return " ".join(bits) if bits else "no"


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
