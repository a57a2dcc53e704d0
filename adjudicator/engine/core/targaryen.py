"""House Targaryen's bookkeeping that every phase and card shares (Mother of Dragons, M076-M090).

Loyalty tokens are placed (M083, ruling 269) and gained (M078, ruling 246), Pentos gives and takes
its victory point and brings its garrison back (M084-M086, ruling 248), dragons grow stronger as the
round marker reaches their tokens (M090, ruling 274), and Targaryen wins on space 7 of the victory
track (M080). ``after_control_change`` (:mod:`.common`) runs :func:`settle` before it looks for a
winner, so a seventh token gained wins at once. Nothing here runs in a classic game or an expansion
game without Targaryen.
"""

from __future__ import annotations

from ...game.board import Board, HouseId
from ...game.commands import Command, DistributeBid, Gift
from ...game.hooks import register
from ...game.state import GameState
from ..events.targaryen import BidGiven, DragonStrengthGained, LoyaltyGained, LoyaltyPlaced, PentosGarrisonReturned
from .context import NOT_APPLICABLE, Ask, Context, Request, Verdict

TARGARYEN: HouseId = "targaryen"
PENTOS = "pentos"


def in_play(state: GameState) -> bool:
    """True when a player is Targaryen (M006, M075)."""
    return TARGARYEN in state.houses_in_play


def loyalty_left(state: GameState, board: Board) -> int:
    """Loyalty tokens in the supply: the box's 20 less those on the board (M079, ruling 269)."""
    return int(board.constants["loyalty_tokens_total"]) - sum(s.loyalty for s in state.areas.values())


def place_loyalty(ctx: Context, area: str, cause: str) -> bool:
    """Put one loyalty token from the supply on a land area (M083); none left, none placed (ruling 269).

    A token put on an area Targaryen controls is gained by the next :func:`settle` (ruling 269).
    """
    st, board = ctx.state, ctx.board
    assert board.area(area).is_land, area
    if loyalty_left(st, board) < 1:
        ctx.emit(LoyaltyPlaced(area=area, cause=cause, placed=False))
        return False
    st.area_mut(area).loyalty += 1
    ctx.emit(LoyaltyPlaced(area=area, cause=cause))
    return True


def gain_loyalty(ctx: Context) -> None:
    """Targaryen takes every loyalty token lying in an area it controls (M078, M079, M081).

    Gained tokens go back to the supply; ``loyalty_gained`` only ever grows (M081).
    """
    st, board = ctx.state, ctx.board
    for area in sorted(a for a, s in st.areas.items() if s.loyalty):
        if st.controller(area, board) != TARGARYEN:
            continue
        here = st.area_mut(area)
        count, here.loyalty = here.loyalty, 0
        st.loyalty_gained += count
        ctx.emit(LoyaltyGained(area=area, count=count, victory=st.victory(TARGARYEN, board)))


def return_pentos_garrison(ctx: Context) -> None:
    """Each time Targaryen controls Pentos without its garrison, the garrison goes back (M086, ruling 248).

    The victory point follows control by itself (:meth:`GameState.victory`, M084, M085).
    """
    st, board = ctx.state, ctx.board
    if st.controller(PENTOS, board) != TARGARYEN or st.area(PENTOS).garrison:
        return
    strength = board.houses[TARGARYEN].garrison_strength
    st.area_mut(PENTOS).garrison = strength
    ctx.emit(PentosGarrisonReturned(strength=strength))


def settle(ctx: Context) -> None:
    """What must follow any change of control or of loyalty tokens outside a combat (ruling 246)."""
    if in_play(ctx.state):
        gain_loyalty(ctx)
        return_pentos_garrison(ctx)


def has_won(state: GameState, board: Board) -> bool:
    """Targaryen stands on space 7 of the victory track or beyond (M080); castles never win for it (M076)."""
    if not in_play(state):
        return False
    return state.victory(TARGARYEN, board) >= int(board.constants["targaryen_loyalty_needed_to_win"])


def dragon_token_on_round(ctx: Context) -> None:
    """The round marker has moved: a dragon strength token on its new space goes into the box (M090, ruling 274)."""
    st = ctx.state
    if st.round in st.dragon_tokens:
        st.dragon_tokens.remove(st.round)
        ctx.emit(DragonStrengthGained(round=st.round, strength=st.dragon_strength(ctx.board)))


def victory_counted(state: GameState, board: Board) -> tuple[frozenset[HouseId], tuple[HouseId, str] | None]:
    """Castles never win for Targaryen (M076); it wins on space 7 of the victory track (M080): the
    houses castles never win for, and the winner with its reason, if any."""
    if not has_won(state, board):
        return frozenset({TARGARYEN}), None
    reason = f"space {state.victory(TARGARYEN, board)} of the victory track, by loyalty tokens and Pentos"
    return frozenset({TARGARYEN}), (TARGARYEN, reason)


register("round_advanced", "dragons", dragon_token_on_round)  # each time the round marker moves (ruling 274)
register("control_changed", "loyalty", settle)  # after any change of control, before the victory check (ruling 246)
register("victory_counted", "loyalty", victory_counted)  # M076, M080


# --- M100: Targaryen gives its bid away ---------------------------------------------------------------


def check_distribution(state: GameState, track: str, bid: int, cmd: Command) -> Verdict:
    """``None`` when ``cmd`` gives exactly Targaryen's bid to other houses in the game (M100, ruling 252)."""
    if not isinstance(cmd, DistributeBid) or cmd.track != track:
        return NOT_APPLICABLE
    given = sum(g.amount for g in cmd.gifts)
    strangers = sorted({g.house for g in cmd.gifts if g.house not in state.houses_in_play or g.house == TARGARYEN})
    if strangers:
        return (f"Targaryen gives its bid only to the other houses in the game, players or vassals, not "
                f"{', '.join(strangers)} (M100)")
    if len({g.house for g in cmd.gifts}) != len(cmd.gifts):
        return "name each house once, with all the power it receives (M100)"
    if given != bid:
        return f"Targaryen bid {bid} and must give away all of it, not {given} (M100, ruling 252)"
    return None


def distribute_bid(ctx: Context, track: str, bids: dict[HouseId, int], previous: list[HouseId]) -> dict[HouseId, int]:
    """After a track's bids are revealed, Targaryen gives the power it bid to other houses; each token
    adds 1 to its receiver's bid (M100, ruling 252). The default gives it all to the highest bidder,
    the first in the track's order among tied ones. Returns the bids that place the houses."""
    bid = bids.get(TARGARYEN, 0)
    if not bid:
        return bids
    others = [h for h in previous if h != TARGARYEN]
    top = min(others, key=lambda h: (-bids.get(h, 0), previous.index(h)))
    default = DistributeBid(track=track, gifts=(Gift(top, bid),))
    req = Request(
        key=ctx.key("distribute", TARGARYEN), kind="distribute", house=TARGARYEN,
        prompt=f"give away the {bid} power you bid: each adds to its receiver's bid ('distribute TRACK: N to HOUSE, ...')",
        context={"track": track, "bid": bid, "bids": dict(bids), "houses": others},
        default=default,
    )
    cmd = ctx.ask(Ask(req, lambda c: check_distribution(ctx.state, track, bid, c)))
    assert isinstance(cmd, DistributeBid)
    out = dict(bids)
    for g in cmd.gifts:
        out[g.house] = out.get(g.house, 0) + g.amount
    ctx.emit(BidGiven(track=track, gifts=tuple((g.house, g.amount) for g in cmd.gifts)))
    return out
