"""Invariants of a game in progress, checked after every step by simulations and tests.

Each broken invariant is a readable sentence; an empty list means all is well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..game.board import Board
from ..game.cards import CARDS
from ..game.commands import SEA_ORDER_TOKENS
from ..game.state import GameState
from .core.braavos import BRAAVOS
from .core.common import within_supply
from .core.targaryen import PENTOS, TARGARYEN, has_won, in_play
from .events import AnswersExpired, AnswerUnusable, AnswerUsed, Event, StandingWithdrawn
from .rules.vassals import MAX_VASSAL_ORDERS

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
            if held != ([] if state.is_vassal(house) else sorted(CARDS.hand_of(house, state.card_sets()))):  # vassals have none (M010)
                problems.append(f"{house}'s house cards are not each exactly once in hand or discards: {held}")
    need = state.victory_target(board)
    if state.round > state.last_round():
        problems.append(f"round {state.round} is past the game's last, round {state.last_round()}")
    if state.box.has("objectives"):  # points win, once an Action Phase's steps are done; castles never (F045)
        for house in state.players():
            points = state.victory_points.get(house, 0)
            if points >= need and state.phase != "game_over" and "objective" not in pending_kinds:
                problems.append(f"{house} holds {points} points of objectives but the game goes on")
    else:
        for house in state.players():  # a vassal's castles win nothing (M070)
            if house != TARGARYEN and state.castles(house, board) >= need and state.phase != "game_over":
                problems.append(f"{house} holds {state.castles(house, board)} castles but the game goes on")
    if in_play(state):
        problems += _targaryen_problems(state, board, in_combat=bool(pending_kinds & _COMBAT_KINDS))
    if state.phase == "game_over" and state.winner not in state.houses_in_play:
        problems.append("the game is over without a winner in play")
    elif state.phase == "game_over" and state.winner and state.is_vassal(state.winner):  # M070
        problems.append(f"the vassal {state.winner} won the game (M070)")
    if state.vassals:
        problems += _vassal_problems(state, pending_kinds)
    if state.loan_slots:
        problems += _bank_problems(state, board, in_combat=bool(pending_kinds & _COMBAT_KINDS))
    return problems


def _vassal_problems(state: GameState, pending_kinds: set[object]) -> list[str]:
    """The vassals (M030-M040): commanded by a player from the moment the Planning phase's choices are
    made until the next Planning phase (a leaving player's vassals wait for it, ruling 262), and
    ordered with at most 2 tokens of their own set (M039, ruling 230)."""
    problems: list[str] = []
    if state.phase in ("planning", "action") and "vassal_choice" not in pending_kinds:
        free = sorted(set(state.vassals) - set(state.commanders))
        if free:
            problems.append(f"{', '.join(free)} commanded by no player in the {state.phase} phase (M030, M037)")
    for v in state.vassals:
        placed = state.orders_placed(v)
        if len(placed) > MAX_VASSAL_ORDERS:
            problems.append(f"the vassal {v} has {len(placed)} orders on the board; it takes at most "
                            f"{MAX_VASSAL_ORDERS} (M039)")
    return problems


def _bank_problems(state: GameState, board: Board, *, in_combat: bool) -> list[str]:
    """The Iron Bank (M104-M113): the twelve loans each once in the deck, a slot or a house's hand;
    no sea order stays on land once orders resolve (M116); the Braavos token with the player who
    controls Braavos, set aside while no player does (M111, M113, ruling 257; outside a combat)."""
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
    braavos = state.areas.get(BRAAVOS)
    if not in_combat and BRAAVOS in board.areas and not (braavos and braavos.neutral_force):
        owner = state.controller(BRAAVOS, board)
        due = owner if owner in state.players() else None
        if state.braavos_token != due:
            problems.append(f"the Braavos token is with {state.braavos_token}, but {due or 'no player'} controls "
                            "Braavos (M113, ruling 257)")
    elif braavos and braavos.neutral_force and state.braavos_token is not None:
        problems.append(f"{state.braavos_token} holds the Braavos token while its neutral force stands (M111)")
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
    rounds = board.constants["dragon_strength_token_rounds"]
    due = [r for r in state.dragon_tokens if r <= state.round]
    if due:
        problems.append(f"dragon strength tokens of rounds {due} still on the round track in round {state.round} (M090)")
    if state.dragon_strength(board) < sum(1 for r in rounds if r <= state.round):
        problems.append(f"dragons of strength {state.dragon_strength(board)} in round {state.round} (M089, M090)")
    dragons = sum(1 for _, u in state.units_of(TARGARYEN) if u.type == "dragon")
    if dragons > board.unit_limit("dragon", TARGARYEN) or any(
            u.type == "dragon" and h != TARGARYEN for h in state.houses_in_play for _, u in state.units_of(h)):
        problems.append(f"{dragons} Targaryen dragons on the board, or a dragon of another house (M087)")
    return problems


def check_change(before: GameState, after: GameState) -> list[str]:
    """Every broken invariant of one step, from the position before it to the one after, as sentences:
    what only ever moves one way (the round; Mother of Dragons' M081 loyalty, M090 dragon strength
    tokens, M104 loans kept for the game, cards removed from the game, M111 Braavos's neutral force,
    M124 vassals)."""
    problems: list[str] = []
    if after.round < before.round or after.houses_in_play != before.houses_in_play:
        problems.append(f"round {before.round} became round {after.round}, or the houses in play changed")
    # What follows is of Mother of Dragons' parts, which stay empty in a box without them.
    if after.loyalty_gained < before.loyalty_gained:
        problems.append(f"Targaryen's gained loyalty fell from {before.loyalty_gained} to {after.loyalty_gained} (M081)")
    if not set(after.dragon_tokens) <= set(before.dragon_tokens):
        problems.append(f"dragon strength tokens came back to the round track: {before.dragon_tokens} -> "
                        f"{after.dragon_tokens} (M090)")
    if not set(before.vassals) <= set(after.vassals) or TARGARYEN in after.vassals:
        problems.append(f"the vassals went from {before.vassals} to {after.vassals} (M124, M125)")
    for house, hs in before.houses.items():
        now = after.houses[house]
        if not set(hs.loans) <= set(now.loans):
            problems.append(f"{house} lost loans it keeps for the game: {hs.loans} -> {now.loans} (M104)")
        if not set(hs.removed) <= set(now.removed):
            problems.append(f"house cards of {house} came back into the game: {hs.removed} -> {now.removed}")
    for house, scored in before.objectives_scored.items():  # A Feast for Crows: face up for good (F043)
        if not set(scored) <= set(after.objectives_scored.get(house, [])):
            problems.append(f"{house}'s scored objectives went back: {scored} -> {after.objectives_scored.get(house)} (F043)")
    if before.loan_slots and not before.area(BRAAVOS).neutral_force and after.area(BRAAVOS).neutral_force:
        problems.append("the Braavos neutral force came back after its defeat (M111)")
    return problems


def judged_ids(events: Iterable[Event]) -> set[str]:
    """The pool ids of the answers these events give a verdict on (used, refused, not needed or withdrawn)."""
    return {i for e in events if isinstance(e, (AnswerUsed, AnswerUnusable, AnswersExpired, StandingWithdrawn))
            for i in e.ids}


def unjudged(sent: Mapping[str, int], judged: set[str], state: GameState) -> list[str]:
    """Every answer sent (``sent``: pool id -> its round) whose round is over, or whose game is,
    without a verdict among ``judged`` (ruling 160), as sentences. A standing instruction the game
    still holds outlives its round (ruling 353)."""
    standing = {a["id"] for a in state.answers if a.get("standing")}
    over = [i for i, r in sent.items() if (r < state.round or state.phase == "game_over") and i not in judged
            and i not in standing]
    return [f"answer {i} of round {sent[i]} ended its round without a verdict" for i in sorted(over)]


def unruled(events: Iterable[Event]) -> list[str]:
    """Every refusal without a rule id (ruling 162), as sentences."""
    return [f"a refusal names no rule: {e.reason!r}" for e in events if isinstance(e, AnswerUnusable) and not e.rule]
