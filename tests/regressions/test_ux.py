"""Regressions found by playing a four-player game by hand: turn files, checks, receipts, reports.

Each test names the rule or ruling it covers and says in its docstring what was wrong.
"""

from __future__ import annotations

from adjudicator.board import Board
from adjudicator.check import check_turn_file
from adjudicator.setup import new_game
from adjudicator.state import GameState, Order
from adjudicator.turnfile import TurnFile, parse_turn_file

BOARD = Board.classic()
FOUR = ["stark", "lannister", "greyjoy", "baratheon"]


def fresh() -> GameState:
    """A fresh four-player game, round 1 planning."""
    return new_game(FOUR, seed="ux-tests", game_id="winter")


def header(house: str, state: GameState, seq: int = 1) -> str:
    return f"game winter · house {house} · round {state.round} · {state.phase} · seq {seq}\n"


def check(body: str, state: GameState, house: str, *, engine: bool = False) -> TurnFile:
    return check_turn_file(parse_turn_file(header(house, state) + body), state, engine=engine)


def codes(tf: TurnFile) -> list[tuple[int, str]]:
    return [(p.where.line, p.code) for p in tf.problems]


def revealed(state: GameState, orders: dict[str, tuple[str, str]]) -> GameState:
    """The state after the reveal: ``orders`` maps an area to (house, token)."""
    for area, (house, token) in orders.items():
        state.areas[area].order = Order(house, token)
    return state


LANNISTER_ORDERS = {"lannisport": ("lannister", "march+1"), "stoney_sept": ("lannister", "support+0"),
                    "the_golden_sound": ("lannister", "raid*"), "port_of_lannisport": ("lannister", "consolidate")}


# --- maester check ------------------------------------------------------------------------------


def test_R125_raven_swap_checked_against_the_revealed_orders() -> None:
    """After the reveal, ``raven: swap Stoney Sept to ...`` was refused with "you have no order in
    Stoney Sept": the check looked for the orders in the file itself, which holds none by then."""
    state = revealed(fresh(), LANNISTER_ORDERS)
    assert codes(check("raven: swap Stoney Sept to defense +1\n", state, "lannister")) == []
    assert codes(check("raven: swap Kingswood to defense +1\n", state, "lannister")) == [(2, "E411")]
