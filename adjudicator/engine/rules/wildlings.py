"""The wildlings: the threat track and the attack (R098-R111).

An attack runs the rulebook's steps: its strength is the threat (or a card's number), every house
taking part bids in secret, the bids are revealed and paid to the pool, the Night's Watch wins
when the total reaches the strength. The top wildling card is drawn and resolved: its reward goes
to the highest bidder, or its severe penalty to the lowest bidder and the lesser one to every other
house in turn order; ties are ordered by the Iron Throne holder. Then the threat moves (to 0, or
back two spaces) and the card goes to the bottom of the deck (ruling 66 gives this order).

>>> from adjudicator.game.board import Board
>>> [space for space in Board.classic().constants["wildling_track"]]
[0, 2, 4, 6, 8, 10, 12]
"""

from __future__ import annotations

from ...game.board import HouseId
from ...game.commands import WildlingChoice
from ..cards.wildlings import WILDLING_CARDS, Outcome
from ..core.bidding import break_tie, secret_bids
from ..core.context import Context
from ..events import card_name
from ..events.westeros import (
    WildlingAttackBegins,
    WildlingAttackResolved,
    WildlingBidderNamed,
    WildlingCardBuried,
    WildlingCardRevealed,
    WildlingThreatMoved,
)

SPACE = 2  # one wildling icon moves the token one space: 2 strength


def threat_top(ctx: Context) -> int:
    """The last space of the wildling track (12), where the wildlings attack at once (R039)."""
    return int(ctx.board.constants["wildling_attack_at"])


def advance_threat(ctx: Context, icons: int, cause: str) -> None:
    """Move the threat one space per icon; at 12 the wildlings attack at once, surplus lost (R039)."""
    if icons <= 0:
        return
    st = ctx.state
    old = st.wildling_threat
    st.wildling_threat = min(threat_top(ctx), old + SPACE * icons)
    ctx.emit(WildlingThreatMoved(old=old, new=st.wildling_threat, cause=cause))
    if st.wildling_threat >= threat_top(ctx):
        attack(ctx)


def attack(ctx: Context, strength: int | None = None, excluded: frozenset[HouseId] = frozenset()) -> None:
    """Resolve one wildling attack (R100-R108); ``strength`` defaults to the threat."""
    st = ctx.state
    strength = st.wildling_threat if strength is None else strength
    # Mother of Dragons: vassals take no part against the wildlings (M066).
    houses = [h for h in st.turn_order() if h not in excluded and not st.is_vassal(h)]
    ctx.emit(WildlingAttackBegins(strength=strength, houses=tuple(houses)))
    bids = secret_bids(ctx, "wildlings", houses)
    total = sum(bids.values())
    won = total >= strength
    ctx.emit(WildlingAttackResolved(strength=strength, total=total, nights_watch_won=won))
    card = st.wildling_deck.pop(0)
    ctx.emit(WildlingCardRevealed(card=card, nights_watch_won=won))  # seen before any tie is broken
    effect = WILDLING_CARDS[card]
    highest = lowest = None
    if effect.needs_rank and won:
        highest = _extreme(ctx, bids, highest=True)
        ctx.emit(WildlingBidderNamed(house=highest, role="highest"))
    elif effect.needs_rank:
        lowest = _extreme(ctx, bids, highest=False)
        ctx.emit(WildlingBidderNamed(house=lowest, role="lowest"))
    outcome = Outcome(
        card=card, strength=strength, nights_watch_won=won, bids=tuple(bids.items()),
        highest=highest, lowest=lowest, attack=lambda s, ex: attack(ctx, s, ex),
    )
    effect.resolve(ctx, outcome)
    # Choices for this card that no one was asked for, or that were not used, are settled with it.
    ctx.settle("wildling_choice", list(st.houses_in_play),
               lambda c: isinstance(c, WildlingChoice) and c.card == card,
               f"{card_name(card)} has resolved, and this choice was not asked of your house or did not fit (R106)")
    _move_threat_after(ctx, won)
    st.wildling_deck.append(card)
    ctx.emit(WildlingCardBuried(card=card))


def _extreme(ctx: Context, bids: dict[HouseId, int], *, highest: bool) -> HouseId:
    """The highest or the lowest bidder; a tie is ordered by the Iron Throne holder (R107)."""
    target = max(bids.values()) if highest else min(bids.values())
    tied = [h for h in ctx.state.turn_order() if bids.get(h) == target]
    if len(tied) == 1:
        return tied[0]
    says = ("order the houses tied for the highest bid against the wildlings: the first named is the "
            "highest bidder and takes the reward") if highest else (
            "order the houses tied for the lowest bid against the wildlings: the last named is the "
            "lowest bidder and takes the severe penalty")
    order = break_tie(ctx, "wildlings", tied, ctx.state.turn_order(), prompt=says)
    return order[0] if highest else order[-1]


def _move_threat_after(ctx: Context, nights_watch_won: bool) -> None:
    """Step 5: the Night's Watch resets the threat to 0; a wildling victory moves it back two spaces (R104)."""
    st = ctx.state
    old = st.wildling_threat
    back = ctx.board.constants["wildling_loss_move_back_spaces"] * SPACE
    st.wildling_threat = ctx.board.constants["wildling_win_reset_to"] if nights_watch_won else max(0, old - back)
    ctx.emit(WildlingThreatMoved(old=old, new=st.wildling_threat, cause="after the wildling attack"))
