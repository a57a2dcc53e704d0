"""Mother of Dragons' limits of a game state, checked by :meth:`GameState.check
<adjudicator.game.state.GameState.check>` at its ``state_problems`` hook point (game/hooks.py).

>>> from adjudicator.game.mod_setup import new_mod_game
>>> s = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="doc")
>>> problems(s, s.board())
[]
>>> s.loan_slots = s.loan_slots[:2]
>>> problems(s, s.board())
['the Iron Bank has 2 slots, not 3 (M105)']
"""

from __future__ import annotations

from .board import TRACKS, Board
from .hooks import register
from .mod_board import MOD
from .state import GameState


def problems(state: GameState, board: Board) -> list[str]:
    """The limits of an expansion's parts, each where the box has it: vassals hold no cards or power,
    Targaryen keeps position 8, the box's 20 loyalty, 15 improvement and 5 dragon strength tokens,
    each loan once (Mother of Dragons)."""
    problems: list[str] = []
    c = board.constants
    box = state.box
    targaryen = "targaryen" in state.houses_in_play
    if box.has("vassals"):
        for v in state.vassals:
            if v not in state.houses_in_play or v == "targaryen":
                problems.append(f"the vassal {v} is not a Westerosi house in play (M005, M075)")
            elif (hs := state.houses[v]).hand or hs.discards or hs.power:
                problems.append(f"the vassal {v} holds house cards or available power (M010, M025)")
        for vassal, commander in state.commanders.items():
            if vassal not in state.vassals or commander not in state.players():
                problems.append(f"{commander} commands {vassal}, but only a player commands a vassal (M030)")
        if len(state.vassal_sets) + len(state.commanders) > len(state.vassals) or len(state.vassal_sets) > 4:
            problems.append(f"{len(state.vassal_sets)} sets of vassal orders for {len(state.vassals)} vassals (M019, ruling 228)")
        if any(h not in state.players() for h in state.vassal_sets):
            problems.append("a set of vassal orders is held by a house that is not a player (M019)")
    if box.has("fixed_last") and targaryen and any(state.tracks[t][-1] != "targaryen" for t in TRACKS):
        problems.append("Targaryen is not in position 8 of every influence track (M097)")
    if box.has("dragons"):
        rounds = c["dragon_strength_token_rounds"] if targaryen else []
        if sorted(set(state.dragon_tokens)) != state.dragon_tokens or not set(state.dragon_tokens) <= set(rounds):
            problems.append(f"dragon strength tokens on rounds {state.dragon_tokens}; the round track has them on "
                            f"{rounds} at most, once each (M013)")
    if box.has("loyalty"):
        loyalty = sum(s.loyalty for s in state.areas.values())
        if (loyalty and not targaryen) or loyalty > c["loyalty_tokens_total"]:
            problems.append(f"{loyalty} loyalty tokens on the board; the box holds {c['loyalty_tokens_total']} "
                            "for Targaryen (M006, M079)")
        if any(s.loyalty and not board.areas[a].is_land for a, s in state.areas.items() if a in board.areas):
            problems.append("a loyalty token outside a land area (M083)")
    if box.has("iron_bank"):
        if sum(len(s.improvements) for s in state.areas.values()) > c["area_improvement_tokens"]:
            problems.append(f"more improvement tokens on the board than the box's {c['area_improvement_tokens']} (ruling 260)")
        loans = state.loan_deck + [x for x in state.loan_slots if x] + [x for h in state.houses.values() for x in h.loans]
        if len(loans) != len(set(loans)) or ((loans or state.loan_slots) and not targaryen):
            problems.append("a loan is in two places, or the Iron Bank is used without Targaryen (M006, M103)")
        if targaryen and len(state.loan_slots) != MOD.iron_bank["slots"]:
            problems.append(f"the Iron Bank has {len(state.loan_slots)} slots, not 3 (M105)")
        if state.braavos_token is not None and state.braavos_token not in state.players():
            problems.append(f"the Braavos token is held by {state.braavos_token}, not a player (M111, ruling 257)")
    if box.has("vassals") and (any(h not in state.players() or h == "targaryen" for h in state.leaving)
                               or len(set(state.leaving)) < len(state.leaving)):
        problems.append(f"the players leaving at the end of the round ({', '.join(state.leaving)}) are not each a "
                        "Westerosi player once (M124, M125)")
    if box.has("deck_iv") and not targaryen and ("4" in state.westeros_decks or state.loyalty_gained):
        problems.append("Westeros deck IV or loyalty gained in a game without Targaryen (M006)")
    return problems


register("state_problems", "vassals", problems)
