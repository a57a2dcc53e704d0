"""Bidding: the influence tracks (Clash of Kings, R081-R089), wildling bids, ties, track shifts.

Bids are secret and simultaneous (``ctx.ask_all``): nothing is recorded until every house has
bid, and the public :class:`BidsRevealed` event comes only after that. Every tie outside combat
is ordered by the Iron Throne holder (R084, R091, R107); for the Iron Throne track itself that is
the holder from before the bidding (R085), because the track is rewritten only after its ties are
broken.

A tie-break order lists houses from the one treated as the higher bidder to the one treated as
the lower (ruling 65): the first of the tied houses named takes the better position, or counts as
the highest bidder against the wildlings; the last counts as the lowest.

>>> from adjudicator.game.setup import new_game
>>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> move_on_track(s, "fiefdoms", "baratheon", 1)
>>> s.tracks["fiefdoms"]
['baratheon', 'stark', 'lannister']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, cast

from ...game.board import TRACKS, HouseId
from ...game.commands import Bid, Command, TieBreak
from ...game.state import GameState
from ..events import AnswerUnusable
from ..events.westeros import (
    TRACK_NAMES,
    BidsRevealed,
    InfluenceTrackChanged,
    TieBroken,
)
from .common import lose_power
from .context import (
    NOT_APPLICABLE,
    Ask,
    Context,
    NeedAnswers,
    PoolEntry,
    Request,
    Verdict,
)
from .targaryen import distribute_bid

BidTrack = Literal["iron_throne", "fiefdoms", "kings_court", "wildlings"]
FIXED_LAST = "targaryen"  # Mother of Dragons: never moves from position 8 of any influence track (M097)

# The rule that governs each kind of bid (for the reasons given when a bid is refused).
_BID_RULE = {"iron_throne": "R082", "fiefdoms": "R082", "kings_court": "R082", "wildlings": "R101"}


# --- checks ---------------------------------------------------------------------------------


def check_bid(state: GameState, house: HouseId, track: str, cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` is a legal bid of ``house`` for ``track``, else why not.

    >>> from adjudicator.game.setup import new_game
    >>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
    >>> check_bid(s, "stark", "fiefdoms", Bid(track="fiefdoms", amount=6))
    'a bid of 6 is more than your 5 available power (R082)'
    """
    if not isinstance(cmd, Bid) or cmd.track != track:
        return NOT_APPLICABLE
    rule = _BID_RULE[track]
    if cmd.amount < 0:
        return f"a bid cannot be negative ({rule})"
    power = state.houses[house].power
    if cmd.amount > power:
        return f"a bid of {cmd.amount} is more than your {power} available power ({rule})"
    return None


def check_tie_break(state: GameState, context: str, tied: list[HouseId], cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` orders every tied house, names only houses in play, each once.

    >>> from adjudicator.game.setup import new_game
    >>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
    >>> check_tie_break(s, "fiefdoms", ["stark", "lannister"], TieBreak(order=("stark",)))
    'the tie-break order must name lannister, tied here (R084)'
    """
    if not isinstance(cmd, TieBreak) or cmd.context not in (None, context):
        return NOT_APPLICABLE
    rule = "R107" if context == "wildlings" else "R084"
    unknown = [h for h in cmd.order if h not in state.houses_in_play]
    if unknown:
        return f"the tie-break order names {', '.join(unknown)}, not a house in this game ({rule})"
    twice = sorted({h for h in cmd.order if cmd.order.count(h) > 1})
    if twice:
        return f"the tie-break order names {', '.join(twice)} more than once ({rule})"
    missing = [h for h in tied if h not in cmd.order]
    if missing:
        return f"the tie-break order must name {', '.join(missing)}, tied here ({rule})"
    return None


def not_the_tie_breaker(holder: HouseId, context: str) -> str:
    """Why a tie-break order of a house other than ``holder`` is not used for a tie of ``context``."""
    if context == "iron_throne":
        return (f"{holder.title()} held the Iron Throne before this bidding and breaks the ties on its own track "
                "(R085)")
    rule = "R107" if context == "wildlings" else "R084"
    return f"{holder.title()} holds the Iron Throne and breaks this tie ({rule})"


# --- secret bids and ties -------------------------------------------------------------------


def secret_bids(ctx: Context, track: str, houses: list[HouseId]) -> dict[HouseId, int]:
    """Ask every house for its bid at once; reveal them publicly; pay them to the pool (R086, R105).

    Returns the bids in the order of ``houses``.
    """
    st = ctx.state
    asks = []
    skipped: dict[HouseId, list[PoolEntry]] = {}
    bid_track = cast(BidTrack, track)
    for house in houses:
        power = st.houses[house].power
        req = Request(
            key=ctx.key("bid", house), kind="bid", house=house,
            prompt=f"bid for the {TRACK_NAMES[track]}",
            context={"track": track, "available_power": power},
            default=Bid(track=bid_track, amount=0), secret=True,
        )
        check = (lambda h: lambda c: check_bid(st, h, track, c))(house)
        if track == "wildlings":
            check, skipped[house] = _in_written_order(ctx, house, check)
        asks.append(Ask(req, check, only=Bid(track=bid_track, amount=0) if power == 0 else None))
    # Bids written before the one read, which the house cannot pay, are refused with the reason
    # and used up with the decision; recorded with it, so that a replay tells the same story.
    fresh = [a.request for a in asks if a.request.key not in ctx.segment.decisions and skipped.get(a.request.house)]
    refusals = {r.key: [AnswerUnusable(house=r.house, answer=e.text, reason=str(check_bid(st, r.house, track, e.command)),
                                       ids=(e.id,), visible_to=r.house) for e in skipped[r.house]] for r in fresh}  # fmt: skip
    try:
        cmds = ctx.ask_all(asks)
    except NeedAnswers:
        ctx.transient.extend(e for r in fresh for e in refusals[r.key])
        raise
    for r in fresh:
        ctx.emit(*refusals[r.key])
        ctx.segment.decisions[r.key]["events"].extend(e.to_dict() for e in refusals[r.key])
        ctx.segment.used.extend(e.id for e in skipped[r.house])
    bids = {h: c.amount for h, c in zip(houses, cmds)}
    ctx.emit(BidsRevealed(track=track, bids=tuple(bids.items())))
    for house, amount in bids.items():
        if amount:
            lose_power(ctx, house, amount, f"bid for the {TRACK_NAMES[track]}")
    return bids


def _in_written_order(ctx: Context, house: HouseId, check: Callable[[Command], Verdict | object]
                      ) -> tuple[Callable[[Command], Verdict | object], list[PoolEntry]]:
    """Read a house's wildling bids in the order written (ruling 78).

    Two attacks may come in one phase (R041) and ask the same question: the first bid the house
    can pay answers this attack, the later ones are left for the next. Returns the check that
    accepts only that bid, and the bids written before it (which the house cannot pay).
    """
    mine = [e for e in ctx.entries(house, "bid") if isinstance(e.command, Bid) and e.command.track == "wildlings"]
    first = next((i for i, e in enumerate(mine) if check(e.command) is None), None)
    if first is None:
        return check, []
    chosen = mine[first].command
    return (lambda c: None if c == chosen else NOT_APPLICABLE), mine[:first]


def break_tie(ctx: Context, context: str, tied: list[HouseId], default: list[HouseId], *,
              prompt: str | None = None) -> list[HouseId]:
    """The Iron Throne holder's order of the tied houses, higher bidder first (R084, R107).

    ``default`` (the deadline default) is an order of every house; the answer is read from a
    standing :class:`TieBreak` order when the holder has given one for this context or for all.
    ``prompt`` says what the order decides, when it is not a place on a track.
    """
    st = ctx.state
    holder = st.holder("iron_throne")
    req = Request(
        key=ctx.key("tie_break", holder), kind="tie_break", house=holder,
        prompt=prompt or f"order the houses tied in the bidding for the {TRACK_NAMES[context]}: "
                         "the first named takes the better place",
        context={"tie": context, "tied": list(tied)},
        default=TieBreak(order=tuple(default), context=context),
    )
    # Tie-break orders of the other houses meant for this tie are refused; being standing, they
    # stay for a later tie their house may break (the Iron Throne may change hands on its track).
    strays = [e for h in st.houses_in_play if h != holder for e in ctx.entries(h, "tie_break")
              if isinstance(e.command, TieBreak) and e.command.context in (None, context)]
    cmd = ctx.ask_refusing(Ask(req, lambda c: check_tie_break(st, context, tied, c)), strays,
                           lambda e: not_the_tie_breaker(holder, context), use_up=False)
    assert isinstance(cmd, TieBreak)
    order = sorted(tied, key=cmd.order.index)
    ctx.emit(TieBroken(house=holder, context=context, order=tuple(order)))
    return order


def rank(ctx: Context, context: str, bids: dict[HouseId, int], default: list[HouseId]) -> list[HouseId]:
    """Houses from the highest bid to the lowest, ties ordered by the Iron Throne holder (R083, R084).

    All tied groups are settled by one tie-break decision.
    """
    by_bid = sorted(bids, key=lambda h: (-bids[h], default.index(h)))
    tied = [h for h in by_bid if sum(1 for o in bids.values() if o == bids[h]) > 1]
    if not tied:
        return by_bid
    order = break_tie(ctx, context, tied, default)
    return sorted(by_bid, key=lambda h: (-bids[h], order.index(h) if h in order else 0))


# --- the influence tracks -------------------------------------------------------------------


def bid_on_tracks(ctx: Context) -> None:
    """Clash of Kings: bid for the three tracks, one at a time, in track order (R081)."""
    for track in TRACKS:
        bid_for_track(ctx, track)


def bid_for_track(ctx: Context, track: str) -> None:
    """Bid for one influence track, place the houses, give position 1 its token (R082-R087)."""
    st = ctx.state
    previous = list(st.tracks[track])
    # Mother of Dragons: a vassal bids 0 unasked (M064); Targaryen bids but keeps position 8 (M097).
    bids = secret_bids(ctx, track, [h for h in st.turn_order() if not st.is_vassal(h)])
    bids |= dict.fromkeys(st.vassals, 0)
    if FIXED_LAST in bids and st.box.has("fixed_last"):
        bids = distribute_bid(ctx, track, bids, previous)  # Targaryen gives its bid away (M100)
    fixed = [h for h in previous if h == FIXED_LAST and st.box.has("fixed_last")]
    # The old Iron Throne holder still breaks ties on the Iron Throne track (R085): the track
    # is replaced only now.
    ranked = rank(ctx, track, {h: b for h, b in bids.items() if h not in fixed}, [h for h in previous if h not in fixed])
    st.tracks[track] = ranked + fixed
    ctx.emit(InfluenceTrackChanged(track=track, order=tuple(st.tracks[track]), cause="bidding"))


def move_on_track(state: GameState, track: str, house: HouseId, position: int) -> None:
    """Move a house to ``position`` (1 = top) of a track; the others shift to make room (R097).

    The dominance token goes to the new position 1 in its current state: its used flag
    (``state.blade_used``, ``state.raven_used``) belongs to the token, not to a house.

    :raises ValueError: for a position outside the track (a bug in the caller).
    """
    order = state.tracks[track]
    if not 1 <= position <= len(order):
        raise ValueError(f"position {position} is not on the {track} track of {len(order)} houses")
    if FIXED_LAST in order and state.box.has("fixed_last"):  # Targaryen holds position 8 all game (M097)
        if house == FIXED_LAST:
            return
        position = min(position, len(order) - 1)
    order.remove(house)
    order.insert(position - 1, house)


def shift_on_track(ctx: Context, track: str, house: HouseId, position: int, cause: str) -> None:
    """:func:`move_on_track`, with the public event saying so (nothing when nothing moves)."""
    before = list(ctx.state.tracks[track])
    move_on_track(ctx.state, track, house, position)
    if ctx.state.tracks[track] == before:
        return
    ctx.emit(InfluenceTrackChanged(track=track, order=tuple(ctx.state.tracks[track]), cause=cause))


def best_tracks(state: GameState, house: HouseId) -> list[str]:
    """The tracks on which the house stands highest (several when its best position ties)."""
    best = min(state.position(t, house) for t in TRACKS)
    return [t for t in TRACKS if state.position(t, house) == best]
