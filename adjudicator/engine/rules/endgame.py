"""The end of the game after round 10 (R260-R262).

The house highest on the Victory track (castle and stronghold areas it controls; for Mother of
Dragons' Targaryen, loyalty tokens gained and Pentos, M076, ruling 247) wins. Ties are
broken, in this order, by more strongholds, a higher Supply position, more available power, and a
higher place on the Iron Throne track (R260); the Iron Throne holder breaks none of these (R261).
Seven castles end the game at once, at any moment: that is ``rules/common.check_victory`` (R262).
"""

from __future__ import annotations

from ...game.board import Board, HouseId
from ...game.state import GameState
from ..core.common import GameWon
from ..core.context import Context, GameOver
from ..events.westeros import FinalStandings

# Each criterion: how the reason names it, and how it reads a standing row.
_CRITERIA = (
    ("castles and strongholds", 1),
    ("strongholds", 2),
    ("position on the Supply track", 3),
    ("available power", 4),
    ("place on the Iron Throne track", 5),
)


def standings(state: GameState, board: Board) -> list[tuple[HouseId, int, int, int, int, int]]:
    """Every house as (house, castles, strongholds, supply, power, Iron Throne place), best first;
    Mother of Dragons' vassals cannot win or lose and are not ranked (M070).

    >>> from adjudicator.game.setup import new_game
    >>> standings(new_game(["stark", "lannister", "baratheon"], seed="doc"), Board.classic())[0]
    ('stark', 2, 1, 1, 5, 3)
    """
    rows = []
    for h in state.players():
        strongholds = sum(1 for a in state.land_areas(board)
                          if a.fortification == "stronghold" and state.controller(a.id, board) == h)
        rows.append((h, state.victory(h, board), strongholds, state.houses[h].supply,
                     state.houses[h].power, state.position("iron_throne", h)))
    return sorted(rows, key=_sort_key)


def _sort_key(row: tuple[HouseId, int, int, int, int, int]) -> tuple[int, ...]:
    _, castles, strongholds, supply, power, place = row
    return (-castles, -strongholds, -supply, -power, place)


def final_winner(ctx: Context) -> None:
    """Name the winner at the end of round 10 and end the game (R260, R261).

    :raises GameOver: always; the state records the winner and ``phase = "game_over"``.
    """
    st = ctx.state
    rows = standings(st, ctx.board)
    ctx.emit(FinalStandings(standings=tuple(rows)))
    winner = rows[0][0]
    st.winner = winner
    st.phase = "game_over"
    ctx.emit(GameWon(winner=winner, round=st.round, reason=_reason(rows)))
    raise GameOver


def _reason(rows: list[tuple[HouseId, int, int, int, int, int]]) -> str:
    """Which criterion settled the win, and the ties before it (rows are sorted best first)."""
    best, contenders = rows[0], rows
    tied_on: list[str] = []
    for name, i in _CRITERIA:
        level = [r for r in contenders if r[i] == best[i]]
        if len(level) == 1:
            if not tied_on and best[0] == "targaryen":  # its track counts loyalty tokens (ruling 247)
                return f"the highest place on the victory track ({best[1]}) at the end of round 10"
            if not tied_on:
                return f"the most castles and strongholds ({best[1]}) at the end of round 10"
            rivals = [r for r in contenders if r is not best]
            return (f"tied with {', '.join(r[0].title() for r in rivals)} on {', '.join(tied_on)}; "
                    f"decided by {name}: {best[i]} against {', '.join(str(r[i]) for r in rivals)} (R260)")
        tied_on.append(f"{name} ({best[i]})")
        contenders = level
    raise AssertionError("two houses share a place on the Iron Throne track")
