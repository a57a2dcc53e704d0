"""A Feast for Crows' objectives in play: the three kept of five before the first orders (F033), the
four steps after every Action Phase (F040-F044), the win at 7 points (F045) and the end of round 10
(F046). Registered at the box's hook points (game/hooks.py): ``planning_started`` and ``action_ended``.

Each house's hand is hidden (F032): the requests that show it are secret, its cards are told to it
alone. Every house is asked to score, whatever it holds, so that being asked says nothing of its
hand; all choose at once, in secret, against the position once the special objectives are scored,
and score in turn order (ruling 410).
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

from ...game.board import Board
from ...game.box_setup import draw_shuffle
from ...game.commands import Command, KeepObjectives, ScoreObjective
from ...game.hooks import register
from ...game.objectives_setup import KEPT
from ...game.state import GameState
from ..core.common import GameWon
from ..core.context import NOT_APPLICABLE, Ask, Context, GameOver, Request, Verdict
from ..core.supply import update_supply
from ..events.objectives import ObjectiveDrawn, ObjectiveScored, ObjectivesDealt, ObjectivesKept, objective_name
from .objective_conditions import OBJECTIVES, SPECIAL_OBJECTIVES, land_areas_controlled, met, objectives_met

SPECIAL_POINTS = 1  # a special objective scores 1 each time it is met (F041)


def points(state: GameState, house: str) -> int:
    return state.victory_points.get(house, 0)


def gain_points(ctx: Context, house: str, objective: str, gained: int) -> None:
    st = ctx.state
    st.victory_points[house] = points(st, house) + gained
    ctx.emit(ObjectiveScored(house=house, objective=objective, points=gained, total=st.victory_points[house]))


def worth(house: str, objective: str) -> int:
    return OBJECTIVES[objective].points.get(house, 0)


# --- before round 1: five dealt, three kept (F033) --------------------------------------------------


def check_keep(state: GameState, house: str, cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` keeps three objectives of the five the house was dealt."""
    if not isinstance(cmd, KeepObjectives):
        return NOT_APPLICABLE
    hand = state.objectives.get(house, [])
    kept = list(cmd.objectives)
    strangers = [o for o in kept if o not in hand]
    if strangers:
        return (f"{objective_name(strangers[0])} is not one of the objectives dealt to you "
                f"({', '.join(objective_name(o) for o in hand)}) (F033)")
    if len(set(kept)) != KEPT:
        return f"keep three different objectives of the five dealt to you, not {len(set(kept))} (F033)"
    return None


def best_three(state: GameState, house: str) -> tuple[str, ...]:
    """The deadline's choice: the three worth most to the house, the first dealt first on a tie (ruling 409)."""
    hand = state.objectives[house]
    ranked = sorted(hand, key=lambda o: (-worth(house, o), hand.index(o)))[:KEPT]
    return tuple(o for o in hand if o in ranked)


def keep_objectives(ctx: Context) -> None:
    """Before the first orders, each house keeps three of its five objectives and shuffles the others
    back into the deck; all choose at once (F033)."""
    st = ctx.state
    houses = [h for h in st.turn_order() if len(st.objectives.get(h, [])) > KEPT]
    if not houses:
        return
    asks = []
    for house in houses:
        hand = st.objectives[house]
        req = Request(
            key=ctx.key("objectives_kept", house), kind="objectives_kept", house=house,
            prompt="keep three of the five objectives dealt to you", secret=True,
            context={"objectives": list(hand)},
            options=tuple(KeepObjectives(objectives=c) for c in combinations(hand, KEPT)),
            default=KeepObjectives(objectives=best_three(st, house)),
        )
        asks.append(Ask(req, partial(check_keep, st, house)))
    for house, cmd in zip(houses, ctx.ask_all(asks)):
        assert isinstance(cmd, KeepObjectives)
        returned = [o for o in st.objectives[house] if o not in cmd.objectives]
        st.objectives[house] = [o for o in st.objectives[house] if o in cmd.objectives]
        st.objective_deck += returned
        ctx.emit(ObjectivesKept(house=house, returned=len(returned)))
        ctx.emit(ObjectivesDealt(house=house, objectives=tuple(st.objectives[house]), visible_to=house))
    st.objective_deck = draw_shuffle(st, st.objective_deck)


# --- after every Action Phase (F040-F046) ------------------------------------------------------------


def after_action(ctx: Context) -> None:
    """Supply, the special objectives, one objective each, the draw; then a win at 7, or the end."""
    st = ctx.state
    update_supply(ctx, st.turn_order(), "A Feast for Crows")  # F040: as the Supply card, armies reconciled
    for house in st.turn_order():  # F041
        if met(st, ctx.board, house, SPECIAL_OBJECTIVES[house]):
            gain_points(ctx, house, f"special_{house}", SPECIAL_POINTS)
    score_objectives(ctx)  # F042, F043
    draw_objectives(ctx)  # F044
    objective_victory(ctx)  # F045
    if st.round >= st.last_round():
        final_winner(ctx)  # F046


def check_score(state: GameState, board: Board, house: str, cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` scores an objective of the house's hand that it meets, or none (F042)."""
    if not isinstance(cmd, ScoreObjective):
        return NOT_APPLICABLE
    if cmd.objective is None:
        return None
    hand = state.objectives.get(house, [])
    if cmd.objective not in hand:
        return f"{objective_name(cmd.objective)} is not an objective in your hand (F042)"
    if not met(state, board, house, OBJECTIVES[cmd.objective]):
        card = OBJECTIVES[cmd.objective]
        return f"{card.name} is not met: {card.text[0].lower()}{card.text[1:-1]} (F042)"
    return None


def score_objectives(ctx: Context) -> None:
    """Each house may score one objective of its hand that it meets: all choose at once, then score in
    turn order; a scored card lies face up for good (F042, F043, ruling 410)."""
    st, board = ctx.state, ctx.board
    houses = [h for h in st.turn_order() if st.objectives.get(h)]
    asks = []
    for house in houses:
        can = objectives_met(st, board, house)
        best = max(can, key=lambda o: worth(house, o), default=None)
        req = Request(
            key=ctx.key("objective", house), kind="objective", house=house,
            prompt="score one objective of your hand that you meet, or none", secret=True,
            context={"objectives": list(st.objectives[house]), "met": can},
            options=(*(ScoreObjective(objective=o) for o in can), ScoreObjective(objective=None)),
            default=ScoreObjective(objective=best),
        )
        asks.append(Ask(req, partial(check_score, st, board, house)))
    for house, cmd in zip(houses, ctx.ask_all(asks)):
        assert isinstance(cmd, ScoreObjective)
        if cmd.objective is None:
            continue
        st.objectives[house].remove(cmd.objective)
        st.objectives_scored.setdefault(house, []).append(cmd.objective)
        gain_points(ctx, house, cmd.objective, worth(house, cmd.objective))
    ctx.settle("objective", houses, lambda c: isinstance(c, ScoreObjective),
               "a house scores one objective in each step after the Action Phase, and yours is chosen (F042)")


def draw_objectives(ctx: Context) -> None:
    """Each house holding fewer than three objectives draws one, in turn order; an empty deck gives
    nothing (F044, ruling 411)."""
    st = ctx.state
    for house in st.turn_order():
        hand = st.objectives.setdefault(house, [])
        if len(hand) < KEPT and st.objective_deck:
            card = st.objective_deck.pop(0)
            hand.append(card)
            ctx.emit(ObjectiveDrawn(house=house))
            ctx.emit(ObjectivesDealt(house=house, objectives=(card,), visible_to=house))


def objective_victory(ctx: Context) -> None:
    """After the draw, a house on 7 points or more wins: on a tie the most points, then more land
    areas controlled, then the higher place on the Iron Throne track (F045).

    :raises GameOver: when a house has won.
    """
    st, board = ctx.state, ctx.board
    need = st.victory_target(board)
    reached = [h for h in st.turn_order() if points(st, h) >= need]
    if not reached:
        return
    ranked = sorted(reached, key=lambda h: (-points(st, h), -land_areas_controlled(st, board, h),
                                            st.position("iron_throne", h)))
    win = ranked[0]
    reason = f"{points(st, win)} victory points of objectives"
    if len(reached) > 1:
        reason += (f", ahead of {', '.join(h.title() for h in ranked[1:])} by points, then land areas "
                   "controlled, then the Iron Throne track (F045)")
    _won(ctx, win, reason)


def final_winner(ctx: Context) -> None:
    """After the last round's objectives, the most points wins; a tie goes to the higher place on the
    Iron Throne track (F046, ruling 412).

    :raises GameOver: always.
    """
    st = ctx.state
    ranked = sorted(st.players(), key=lambda h: (-points(st, h), st.position("iron_throne", h)))
    win = ranked[0]
    tied = [h for h in ranked[1:] if points(st, h) == points(st, win)]
    reason = f"the most victory points ({points(st, win)}) at the end of round {st.round}"
    if tied:
        reason += f", tied with {', '.join(h.title() for h in tied)} and higher on the Iron Throne track (F046)"
    _won(ctx, win, reason)


def _won(ctx: Context, house: str, reason: str) -> None:
    st = ctx.state
    st.winner, st.phase = house, "game_over"
    ctx.emit(GameWon(winner=house, round=st.round, reason=reason))
    raise GameOver


register("planning_started", "objectives", keep_objectives)
register("action_ended", "objectives", after_action)
