"""Combat steps 3 and 4: House cards chosen and revealed, their texts, the Blade, Tides of Battle.

Card texts resolve in the rulebook's order (R194): "cancel" texts first, then "immediately"
texts, each set in the current Iron Throne order; "win/lose" texts once the victor is known;
"after combat" texts at the very end. A card's text resolves at most once per combat. Every
effect a card yields is applied here, where it is checked and reported.
"""

from __future__ import annotations

from typing import Any

from ...game.box_setup import draw_shuffle
from ...game.cards import CARDS
from ...game.commands import Command, PlayCard, UseBlade
from ...game.state import Order, Unit
from ..cards import tides
from ..cards.registry import (
    ROLES,
    Bonus,
    CancelCard,
    ChooseRetreat,
    CopyCard,
    DestroyFootman,
    DestroyUnit,
    DiscardFromHand,
    Effect,
    GainPower,
    HoldAttackers,
    IgnoreText,
    KeepCard,
    LosePower,
    Me,
    MoveMarchOrder,
    MoveToBottom,
    MoveToTop,
    MoveUp,
    MoveWildlings,
    PlaceUnit,
    PrintedStrength,
    RandomCard,
    RemoveFromGame,
    RemoveOrder,
    ReturnToHand,
    Role,
    Skip,
    StackDeck,
    SwapCard,
    TakeBackDiscards,
    TakeOverSupport,
    Upgrade,
    ability,
    kept,
    other,
    removal,
)
from ..core.bidding import move_on_track
from ..core.common import destroy_units, gain_power, lose_power
from ..core.context import NOT_APPLICABLE, Ask, Context, Request
from ..core.vassals import head
from ..events.bank import UnitsPlaced
from ..events.combat import (
    BladeUsed,
    CardAbility,
    CombatOrderRemoved,
    HandReturned,
    HouseCardChosen,
    HouseCardsRevealed,
    TidesDrawn,
    TidesRevealed,
    TrackMoved,
)
from ..events.vassals import VassalRaised
from . import dance_with_dragons, vassal_combat
from .combat_state import Combat, decide_now, hand, iron_throne_roles, matches
from .combat_view import View, no_casualties
from .standing_fit import house_card_problem

REVEAL_STAGES = ("on_reveal_cancel", "on_reveal_immediately")


# --- choosing and revealing (R191, R192, R195) ---------------------------------------------------


def choose_cards(ctx: Context, combat: Combat) -> None:
    """Both combatants choose a card in secret; the two are revealed together (R191). A vassal's
    commander first draws its 3 vassal cards (M058)."""
    vassal_combat.draw_hands(ctx, combat)
    roles = [r for r in ROLES if combat.house(r) and hand(ctx.state, combat, str(combat.house(r)))]
    picks = ctx.ask_all([card_ask(ctx, combat, r) for r in roles])
    for role, cmd in zip(roles, picks):
        assert isinstance(cmd, PlayCard)
        _play(ctx, combat, role, cmd.card)
    ctx.emit(HouseCardsRevealed(
        area=combat.area, attacker=combat.attacker, attacker_card=combat.sides["attacker"].card or "",
        defender=combat.defender or "", defender_card=combat.sides["defender"].card or ""))
    vassal_combat.show_hands(ctx, combat)


def card_ask(ctx: Context, combat: Combat, role: Role, *, exclude: tuple[str, ...] = (), secret: bool = True) -> Ask:
    """The ``house_card`` decision of one side; ``exclude`` is a card it may not choose again."""
    house = str(combat.house(role))
    hs = ctx.state.houses[house]
    cards = [c for c in hand(ctx.state, combat, house) if c not in exclude]
    weakest = min(cards, key=lambda c: (CARDS.house_cards[c].strength, c))  # a vassal's too (ruling 236)
    opponent = combat.house(other(role)) or "a neutral force"
    drawn = " drawn from the vassal deck" if ctx.state.is_vassal(house) else ""
    req = Request(
        key=ctx.key("house_card", house), kind="house_card", house=house,
        prompt=(f"choose a House card{drawn} for the combat in {ctx.board.area(combat.area).name} "
                f"({role}, against {opponent.title()})"),
        context={"combat_area": combat.area, "role": role, "opponent": opponent, "hand": cards},
        options=tuple(PlayCard(card=c) for c in cards), default=PlayCard(card=weakest), secret=secret,
    )

    def check(cmd: Command) -> Any:
        if not isinstance(cmd, PlayCard) or not matches(cmd.when, combat, house):
            return NOT_APPLICABLE
        if cmd.card in cards:
            return None
        card = CARDS.house_cards.get(cmd.card)
        if cmd.card in exclude:
            name = card.name if card else cmd.card
            return f"{name} was sent back by Tyrion Lannister: choose a different card (Tyrion Lannister)"
        if ctx.state.is_vassal(house):
            return _not_drawn(house, cmd.card, cards)
        if cmd.card in hs.discards:
            return f"{card.name if card else cmd.card} is in your discard pile, not in your hand (R195)"
        # another house's, a vassal card, another deck's (M058, M007 in Mother of Dragons); else not in hand
        return house_card_problem(ctx.state, house, cmd.card) or f"{card.name if card else cmd.card} is not in your hand (R195)"

    return Ask(req, check, only=req.options[0] if len(cards) == 1 else None)


def _not_drawn(vassal: str, card_id: str, cards: list[str]) -> str:
    """Why a vassal cannot play a card: only the vassal cards drawn for this combat may be (M058)."""
    card = CARDS.house_cards.get(card_id)
    name = card.name if card else repr(card_id)
    drawn = ", ".join(CARDS.house_cards[c].name for c in cards)
    if card is None or card.set != "vassal":
        return f"{name} is not a vassal house card; {vassal.title()} plays one of the cards drawn for it: {drawn} (M058)"
    return f"{name} was not drawn for {vassal.title()} in this combat; play one of {drawn} (M058)"


def _play(ctx: Context, combat: Combat, role: Role, card: str) -> None:
    hand(ctx.state, combat, str(combat.house(role))).remove(card)
    combat.sides[role].card = card


def _hand_order(house: str, cards: list[str]) -> list[str]:
    """A hand as :meth:`CardData.hand_of` orders it: strongest first, then by id (any set's cards)."""
    return sorted(cards, key=lambda c: (-CARDS.house_cards[c].strength, c))


# --- resolving the texts -------------------------------------------------------------------------


def resolve_reveal(ctx: Context, combat: Combat) -> None:
    """The "cancel" texts, then the "immediately" texts, each in Iron Throne order (R194)."""
    for stage in REVEAL_STAGES:
        while True:
            stages = REVEAL_STAGES[: REVEAL_STAGES.index(stage) + 1]
            due = [r for r in iron_throne_roles(ctx.state, combat) if _due(combat, r, stages)]
            if not due:
                break
            run_card(ctx, combat, due[0])


def run_stage(ctx: Context, combat: Combat, stage: str) -> None:
    """Resolve every played card with a text of this timing, in Iron Throne order (R194)."""
    for role in iron_throne_roles(ctx.state, combat):
        if _due(combat, role, (stage,)):
            run_card(ctx, combat, role)


def _due(combat: Combat, role: Role, stages: tuple[str, ...]) -> bool:
    card = combat.sides[role].card
    found = ability(card)
    return bool(card and found and found.when in stages and card not in combat.resolved and card not in combat.ignored)


def run_card(ctx: Context, combat: Combat, role: Role) -> None:
    """Resolve one card's text once: ask what it asks, apply what it yields."""
    side = combat.sides[role]
    assert side.card and side.house
    card = side.card
    combat.resolved.add(card)
    found = ability(card)
    assert found is not None
    me = Me(role, side.house, card)
    for effect in list(found.fn(View(ctx, combat), me)):
        apply(ctx, combat, me, effect)


def apply(ctx: Context, combat: Combat, me: Me, effect: Effect) -> None:
    """Carry out one effect a card yielded, and report it."""
    st = ctx.state
    hs = st.houses[me.house]

    def said(text: str) -> None:
        ctx.emit(CardAbility(house=me.house, card=me.card, area=combat.area, effect=text))

    if isinstance(effect, Skip):
        said(f"no effect ({effect.reason})")
    elif isinstance(effect, CancelCard):
        _cancel(ctx, combat, me, effect.side)
    elif isinstance(effect, SwapCard):
        lose_power(ctx, me.house, effect.cost, CARDS.house_cards[me.card].name)
        hs.discards.append(me.card)
        _play(ctx, combat, me.role, effect.card)
        ctx.emit(HouseCardChosen(house=me.house, card=effect.card, area=combat.area, cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, DestroyFootman):
        _destroy_footman(ctx, combat, me, effect.side)
    elif isinstance(effect, RemoveOrder):
        order = st.area(effect.area).order
        assert order is not None
        st.area_mut(effect.area).order = None
        ctx.emit(CombatOrderRemoved(house=order.house, area=effect.area, token=order.token,
                                    cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, MoveToBottom):
        track = st.tracks[effect.track]
        move_on_track(st, effect.track, effect.house, len(track))  # below Targaryen's place only (M097)
        ctx.emit(TrackMoved(house=effect.house, track=effect.track, order=tuple(track),
                            cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, GainPower):
        gain_power(ctx, effect.house or me.house, effect.amount, CARDS.house_cards[me.card].name)
    elif isinstance(effect, TakeBackDiscards):
        back = [*hs.discards, me.card]
        hs.hand = _hand_order(me.house, hs.hand + back)
        hs.discards = []
        combat.sides[me.role].card_kept = True
        ctx.emit(HandReturned(house=me.house, cards=tuple(back), cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, Upgrade):
        _upgrade(ctx, combat, me, effect.area)
        said(f"a footman in {ctx.board.area(effect.area).name} becomes a knight")
    elif isinstance(effect, ChooseRetreat):
        combat.forced_retreat = effect.area
        said(f"the defeated army must retreat to {ctx.board.area(effect.area).name}")
    elif isinstance(effect, HoldAttackers):
        combat.held = True
        said(f"the attackers may not enter {ctx.board.area(combat.area).name}")
    elif isinstance(effect, MoveMarchOrder):
        st.area_mut(combat.area).order = Order(me.house, combat.attack.march_token)
        said(f"the {combat.attack.march_token} order moves into {ctx.board.area(combat.area).name}")
    elif isinstance(effect, DiscardFromHand):
        _discard_from_hand(ctx, me, effect.house, effect.card)
    elif isinstance(effect, Bonus):  # strength a text adds once (Viserys), counted from now on
        combat.bonuses.append((effect.side, me.card, effect.amount))
        said(f"+{effect.amount} strength to {str(combat.house(effect.side)).title()}")
    elif isinstance(effect, ReturnToHand):
        hs.discards.remove(effect.card)
        hs.hand = _hand_order(me.house, [*hs.hand, effect.card])
        ctx.emit(HandReturned(house=me.house, cards=(effect.card,), cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, LosePower):
        lose_power(ctx, effect.house, effect.amount, CARDS.house_cards[me.card].name)
    elif isinstance(effect, RemoveFromGame):
        owner, card = effect.house or me.house, effect.card or me.card
        _remove_from_game(ctx, owner, card)
        whose = "" if owner == me.house else f"{owner.title()}'s "
        said(f"{whose}{CARDS.house_cards[card].name} is removed from the game")
    elif isinstance(effect, KeepCard):
        hs.hand = _hand_order(me.house, [*hs.hand, me.card])
        combat.sides[me.role].card_kept = True
        ctx.emit(HandReturned(house=me.house, cards=(me.card,), cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, PrintedStrength):  # set once by a text (Bronn), counted from now on
        card = str(combat.sides[effect.side].card)
        combat.printed[card] = effect.value
        said(f"{CARDS.house_cards[card].name}'s strength becomes {effect.value}")
    elif isinstance(effect, RandomCard):
        _random_card(ctx, combat, me, effect.side)
    elif isinstance(effect, PlaceUnit):
        st.area_mut(effect.area).units.append(Unit(effect.house, effect.unit))
        ctx.emit(UnitsPlaced(house=effect.house, area=effect.area, units=(effect.unit,),
                             cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, MoveToTop):
        move_on_track(st, effect.track, effect.house, 1)
        ctx.emit(VassalRaised(house=effect.house, track=effect.track, order=tuple(st.tracks[effect.track]),
                              cause=CARDS.house_cards[me.card].name))
    elif isinstance(effect, (IgnoreText, TakeOverSupport, CopyCard, DestroyUnit, MoveWildlings, MoveUp, StackDeck)):
        dance_with_dragons.apply(ctx, combat, me, effect)
    else:  # a passive effect: counted by strength.py whenever strength is counted
        raise AssertionError(f"{me.card} yielded {effect!r} at the wrong moment")


def _cancel(ctx: Context, combat: Combat, me: Me, role: Role) -> None:
    """Tyrion: the card goes back to the hand; its owner openly picks another, or fights with none."""
    side = combat.sides[role]
    house = str(side.house)
    cards = hand(ctx.state, combat, house)
    cancelled = str(side.card)
    combat.cancelled.add(cancelled)
    cards[:] = _hand_order(house, [*cards, cancelled])
    side.card = None
    ctx.emit(CardAbility(house=me.house, card=me.card, area=combat.area,
                         effect=f"{CARDS.house_cards[cancelled].name} goes back to {house.title()}'s hand"))
    if not [c for c in cards if c != cancelled]:
        ctx.emit(HouseCardChosen(house=house, card="", area=combat.area, cause="Tyrion Lannister"))
        return
    cmd = ctx.ask(card_ask(ctx, combat, role, exclude=(cancelled,), secret=False))
    assert isinstance(cmd, PlayCard)
    _play(ctx, combat, role, cmd.card)
    ctx.emit(HouseCardChosen(house=house, card=cmd.card, area=combat.area, cause="Tyrion Lannister"))


def _random_card(ctx: Context, combat: Combat, me: Me, role: Role) -> None:
    """Jaqen H'ghar: the card goes back to the hand, and one picked at random from the whole hand,
    that card included, is played instead (ruling 280)."""
    side = combat.sides[role]
    house = str(side.house)
    cards = hand(ctx.state, combat, house)
    returned = str(side.card)
    cards[:] = _hand_order(house, [*cards, returned])
    side.card = None
    picked = draw_shuffle(ctx.state, list(cards))[0]
    _play(ctx, combat, role, picked)
    ctx.emit(CardAbility(house=me.house, card=me.card, area=combat.area,
                         effect=f"{CARDS.house_cards[returned].name} goes back to {house.title()}'s hand, and "
                                f"{CARDS.house_cards[picked].name} is picked from it at random"))
    ctx.emit(HouseCardChosen(house=house, card=picked, area=combat.area, cause=CARDS.house_cards[me.card].name))


def _destroy_footman(ctx: Context, combat: Combat, me: Me, role: Role) -> None:
    """Mace Tyrell: one attacking or defending footman, a standing one first (ruling 36)."""
    house = str(combat.house(role))
    blocker = no_casualties(ctx, combat, role)
    if blocker:
        ctx.emit(CardAbility(house=me.house, card=me.card, area=combat.area,
                             effect=f"no effect: {CARDS.house_cards[blocker].name} spares {house.title()}'s units"))
        return
    if role == "attacker":
        combat.attacking.remove("footman")
        area = combat.origin
        units = [u for u in ctx.state.area(area).units if u.type == "footman" and not u.routed][:1]
    else:
        area = combat.area
        footmen = [u for u in ctx.state.area(area).units if u.type == "footman" and u.house == house]
        units = sorted(footmen, key=lambda u: u.routed)[:1]
    destroy_units(ctx, area, units, f"{CARDS.house_cards[me.card].name}", in_combat=True)


def _upgrade(ctx: Context, combat: Combat, me: Me, area: str) -> None:
    """Renly: one of the house's footmen in the combat there becomes a knight from its supply.

    An attacker's footmen stand in the area they marched from until they advance: the embattled
    area names them as well.
    """
    if me.role == "attacker" and area == combat.area:
        area = combat.origin
    units = ctx.state.area_mut(area).units
    unit = next(u for u in units if u.house == me.house and u.type == "footman" and not u.routed)
    unit.type = "knight"
    if area == combat.origin and me.role == "attacker" and "footman" in combat.attacking:
        combat.attacking.remove("footman")
        combat.attacking.append("knight")


def _discard_from_hand(ctx: Context, me: Me, house: str, card: str) -> None:
    """Patchface: the card leaves the hand; an emptied hand takes the other discards back (ruling 39)."""
    hs = ctx.state.houses[house]
    hs.hand.remove(card)
    hs.discards.append(card)
    ctx.emit(CardAbility(house=me.house, card=me.card, area="",
                         effect=f"{house.title()} discards {CARDS.house_cards[card].name} from its hand"))
    if not hs.hand:
        refill_hand(ctx, house, keep=card, cause="Patchface emptied the hand")


def _remove_from_game(ctx: Context, house: str, card: str) -> None:
    """A card already discarded at the combat's clean-up leaves the game (Illyrio Mopatis, Robert Arryn)."""
    hs = ctx.state.houses[house]
    if card in hs.discards:
        hs.discards.remove(card)
    elif card in hs.hand:
        hs.hand.remove(card)
    hs.removed.append(card)


def refill_hand(ctx: Context, house: str, *, keep: str | None, cause: str) -> None:
    """An empty hand takes back every discarded card but the last one (R196)."""
    hs = ctx.state.houses[house]
    back = [c for c in hs.discards if c != keep]
    hs.hand = _hand_order(house, back)
    hs.discards = [keep] if keep else []
    ctx.emit(HandReturned(house=house, cards=tuple(back), cause=cause))


# --- step 4: the Valyrian Steel Blade and Tides of Battle (R199, R268-R273) ----------------------


def blade_and_tides(ctx: Context, combat: Combat) -> None:
    """Without Tides of Battle the Blade may add +1; with it, the Blade may redraw (Q4, ruling 43)."""
    if ctx.state.options.get("tides_of_battle"):
        _tides(ctx, combat)
    else:
        for role in iron_throne_roles(ctx.state, combat):
            if _blade_decision(ctx, combat, role, "+1"):
                combat.sides[role].blade = True


def _tides(ctx: Context, combat: Combat) -> None:
    st = ctx.state
    for role in ROLES:
        side = combat.sides[role]
        side.tides = tides.draw(st)
        ctx.emit(TidesDrawn(house=str(side.house), card=side.tides, visible_to=head(st, str(side.house))))
    for role in iron_throne_roles(st, combat):
        side = combat.sides[role]
        if _blade_decision(ctx, combat, role, "redraw"):
            tides.discard(st, str(side.tides))
            side.tides = tides.draw(st)
            ctx.emit(TidesDrawn(house=str(side.house), card=side.tides, redraw=True,
                                visible_to=head(st, str(side.house))))
    ctx.emit(TidesRevealed(area=combat.area, attacker=combat.attacker, attacker_card=str(combat.sides["attacker"].tides),
                           defender=str(combat.defender), defender_card=str(combat.sides["defender"].tides)))


def _blade_decision(ctx: Context, combat: Combat, role: Role, effect: str) -> bool:
    """Ask the Blade's holder, if it is this side's and unused; refuse anyone else's "use blade".

    A vassal's commander may use it for the vassal (M060), as the round's one use (ruling 239).
    """
    st = ctx.state
    house = str(combat.house(role))
    holder = st.holder("fiefdoms")
    owner = head(st, house)  # a vassal fights with its commander's Blade
    usable = holder == owner and not st.blade_used
    whose = f"{house.title()}'s" if owner != house else "your"
    what = (f"add +1 to {whose} combat strength" if effect == "+1"
            else f"discard {whose} Tides of Battle card and draw another")
    req = Request(
        key=ctx.key("blade", house), kind="blade", house=house,
        prompt=(f"use the Valyrian Steel Blade in {ctx.board.area(combat.area).name} to {what}? "
                "('use blade' or 'keep blade')"),
        context={"combat_area": combat.area, "effect": effect}, options=(UseBlade(use=True), UseBlade(use=False)),
        default=UseBlade(use=False),
    )

    def check(cmd: Command) -> Any:
        if not isinstance(cmd, UseBlade) or not matches(cmd.when, combat, house):
            return NOT_APPLICABLE
        if cmd.use and holder != owner and owner != house:
            return (f"only the holder of the Valyrian Steel Blade may use it for {house.title()}, and {holder.title()} "
                    f"holds it, not {owner.title()} (M060, R199)")
        if cmd.use and holder != owner:
            return f"only the holder of the Valyrian Steel Blade may use it, and {holder.title()} holds it (R199)"
        if cmd.use and st.blade_used:
            return "the Valyrian Steel Blade has already been used this round (R093)"
        return None

    ask = Ask(req, check)
    cmd = ctx.ask(ask) if usable else decide_now(ctx, ask, UseBlade(use=False))
    assert isinstance(cmd, UseBlade)
    if not (cmd.use and usable):
        return False
    st.blade_used = True
    ctx.emit(BladeUsed(house=owner, area=combat.area, effect=effect, vassal=house if house != owner else ""))
    return True


def discard_played(ctx: Context, combat: Combat) -> list[str]:
    """Both played cards to their discard piles; an emptied hand comes back but for the last card (R195, R196)."""
    discarded = []
    for role in ROLES:
        side = combat.sides[role]
        if not side.house or not side.card or side.card_kept or ctx.state.is_vassal(side.house):
            continue  # a vassal's card goes back into the vassal deck (M061)
        hs = ctx.state.houses[side.house]
        heard = side.card not in combat.ignored  # the Queen of Thorns silences these texts too
        back = kept(side.card) if heard else None
        if back is not None and back(View(ctx, combat), Me(role, side.house, side.card)):
            hs.hand = _hand_order(side.house, [*hs.hand, side.card])  # Reek (A Dance with Dragons)
            ctx.emit(HandReturned(house=side.house, cards=(side.card,), cause=CARDS.house_cards[side.card].name))
            continue
        leaves = removal(side.card) if heard else None
        if leaves is not None and leaves(View(ctx, combat), Me(role, side.house, side.card)):
            hs.removed.append(side.card)  # Mother of Dragons: out of the game, never back in the hand
            ctx.emit(CardAbility(house=side.house, card=side.card, area=combat.area,
                                 effect=f"{CARDS.house_cards[side.card].name} is removed from the game"))
            continue
        hs.discards.append(side.card)
        discarded.append(side.card)
    for role in ROLES:
        side = combat.sides[role]
        if side.house and not ctx.state.is_vassal(side.house) and not ctx.state.houses[side.house].hand:
            # The last card stays discarded, unless it left the game (Mother of Dragons): then it is no discard.
            keep = side.card if side.card in ctx.state.houses[side.house].discards else None
            refill_hand(ctx, side.house, keep=keep, cause="the last House card was played (R196)")
    tides.discard(ctx.state, *(combat.sides[r].tides or "" for r in ROLES))
    return discarded
