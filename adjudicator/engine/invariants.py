"""Invariants of a game in progress, checked after every step by simulations and tests.

Each broken invariant is a readable sentence; an empty list means all is well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..game.board import Board
from ..game.cards import CARDS
from ..game.commands import SEA_ORDER_TOKENS
from ..game.state import GameState
from .core.common import within_supply
from .core.targaryen import PENTOS, TARGARYEN, has_won, in_play
from .events import AnswersExpired, AnswerUnusable, AnswerUsed, Event

# While these are open, a combat is under way and its house cards are on the table.
_COMBAT_KINDS = frozenset({"house_card", "blade", "casualties", "retreat", "card_choice", "support",
                           "refuse_support", "port_ships"})


def check_invariants(state: GameState, board: Board | None = None) -> list[str]:
    """Every broken invariant of a saved state (a step boundary), as sentences."""
    board = board or state.board()
    problems = list(state.check(board))  # box limits, one order per area with units, tracks, power
    pending_kinds = {p.get("kind") for p in state.pending}
    if state.phase != "game_over" and not state.pending:
        problems.append(f"the game is stuck: round {state.round} {state.phase} with no open request")
    if state.phase not in ("action", "game_over"):  # a game won mid-action ends before the clean-up
        routed = [a for a, s in state.areas.items() if any(u.routed for u in s.units)]
        if routed:
            problems.append(f"routed units outside the action phase in {', '.join(sorted(routed))}")
    # Mid-combat the attackers still stand in the area they marched from (docs/engine.md), and a
    # losing attacker sheds any excess there before it is routed (Q9); so supply is judged
    # outside combats and reconciliations only.
    if "reconcile" not in pending_kinds and not pending_kinds & _COMBAT_KINDS:
        for house in state.houses_in_play:
            if not within_supply(state, board, house):
                problems.append(f"{house}'s armies exceed its supply level {state.houses[house].supply}")
    if not pending_kinds & _COMBAT_KINDS:
        for house in state.houses_in_play:
            hs = state.houses[house]
            held = sorted(hs.hand + hs.discards + hs.removed)  # removed from the game: Mother of Dragons' cards
            if held != ([] if state.is_vassal(house) else sorted(CARDS.hand_of(house))):  # vassals have none (M010)
                problems.append(f"{house}'s house cards are not each exactly once in hand or discards: {held}")
    need = board.constants["castles_needed_to_win"]
    for house in state.houses_in_play:
        if house != TARGARYEN and state.castles(house, board) >= need and state.phase != "game_over":
            problems.append(f"{house} holds {state.castles(house, board)} castles but the game goes on")
    if in_play(state):
        problems += _targaryen_problems(state, board, in_combat=bool(pending_kinds & _COMBAT_KINDS))
    if state.phase == "game_over" and state.winner not in state.houses_in_play:
        problems.append("the game is over without a winner in play")
    if state.loan_slots:
        problems += _bank_problems(state, board)
    return problems


def _bank_problems(state: GameState, board: Board) -> list[str]:
    """The Iron Bank (M104-M113): the twelve loans each once in the deck, a slot or a house's hand;
    no sea order stays on land once orders resolve (M116)."""
    problems: list[str] = []
    loans = state.loan_deck + [x for x in state.loan_slots if x] + [x for h in state.houses.values() for x in h.loans]
    if sorted(loans) != sorted(CARDS.loans):
        problems.append(f"the Iron Bank's loans are not each exactly once in its deck, slots and houses: {sorted(loans)}")
    if state.phase == "action":
        on_land = [a for a, s in state.areas.items() if s.order and s.order.token in SEA_ORDER_TOKENS
                   and board.areas[a].kind == "land"]
        if on_land:
            problems.append(f"sea orders left on land during the action phase in {', '.join(sorted(on_land))} (M116)")
    if state.braavos_token is not None and state.braavos_token in state.vassals:
        problems.append("a vassal keeps the Braavos token (ruling 257)")
    return problems


def _targaryen_problems(state: GameState, board: Board, *, in_combat: bool) -> list[str]:
    """House Targaryen's invariants (M076-M090): tokens gained as soon as it controls their area
    (outside a combat), Pentos garrisoned while it holds it, a win on space 7, dragons within the box."""
    problems = []
    if not in_combat:
        held = sorted(a for a, s in state.areas.items() if s.loyalty and state.controller(a, board) == TARGARYEN)
        if held:
            problems.append(f"loyalty tokens lie in {', '.join(held)}, which Targaryen controls, ungained (M078)")
        if state.controller(PENTOS, board) == TARGARYEN and not state.area(PENTOS).garrison:
            problems.append("Targaryen controls Pentos without its garrison (M086)")
    if has_won(state, board) and state.phase != "game_over":
        problems.append(f"Targaryen stands on space {state.victory(TARGARYEN, board)} of the victory track but "
                        "the game goes on (M080)")
    dragons = sum(1 for _, u in state.units_of(TARGARYEN) if u.type == "dragon")
    if dragons > board.unit_limit("dragon", TARGARYEN) or any(
            u.type == "dragon" and h != TARGARYEN for h in state.houses_in_play for _, u in state.units_of(h)):
        problems.append(f"{dragons} Targaryen dragons on the board, or a dragon of another house (M087)")
    return problems


def judged_ids(events: Iterable[Event]) -> set[str]:
    """The pool ids of the answers these events give a verdict on (used, refused or not needed)."""
    return {i for e in events if isinstance(e, (AnswerUsed, AnswerUnusable, AnswersExpired)) for i in e.ids}


def unjudged(sent: Mapping[str, int], judged: set[str], state: GameState) -> list[str]:
    """Every answer sent (``sent``: pool id -> its round) whose round is over, or whose game is,
    without a verdict among ``judged`` (ruling 160), as sentences."""
    over = [i for i, r in sent.items() if (r < state.round or state.phase == "game_over") and i not in judged]
    return [f"answer {i} of round {sent[i]} ended its round without a verdict" for i in sorted(over)]


def unruled(events: Iterable[Event]) -> list[str]:
    """Every refusal without a rule id (ruling 162), as sentences."""
    return [f"a refusal names no rule: {e.reason!r}" for e in events if isinstance(e, AnswerUnusable) and not e.rule]
