"""Mother of Dragons' own parts of a game state: its table of the state file, and its limits.

The box's ``state_table`` (``[mother_of_dragons]``, box.toml) holds the vassals and their
commanders, the dragon strength tokens, Targaryen's loyalty gained, the Iron Bank and the players
leaving; a house's loans and removed cards, an area's loyalty and improvement tokens and deck IV
lie where the base game's house, area and deck tables hold the like (ruling 341). Each part is
written, read back and checked here, at the ``state_written``, ``state_read`` and ``state_checked``
hook points (game/hooks.py), for the feature it belongs to; :meth:`GameState.check
<adjudicator.game.state.GameState.check>` asks :func:`problems` at ``state_problems``.

>>> from adjudicator.game.mod_setup import new_mod_game
>>> s = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="doc")
>>> s.to_dict()["mother_of_dragons"]["loan_slots"] == s.loan_slots
True
>>> problems(s, s.board())
[]
>>> s.loan_slots = s.loan_slots[:2]
>>> problems(s, s.board())
['the Iron Bank has 2 slots, not 3 (M105)']
"""

from __future__ import annotations

from typing import Any

from .board import TRACKS, Board
from .cards import CARDS
from .hooks import register
from .mod_board import MOD
from .state import GameState
from .validation import Shape, is_int


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


# --- its table of the state file: written, read back, checked ---------------------------------
# Registered in the order a state written before the table (schema version 2) held them at its top
# level, which a game begun so keeps writing (ruling 341).


def vassals_written(state: GameState) -> dict[str, Any]:
    return {"vassals": list(state.vassals), "commanders": dict(state.commanders), "vassal_sets": list(state.vassal_sets)}


def dragons_written(state: GameState) -> dict[str, Any]:
    return {"dragon_tokens": list(state.dragon_tokens)}


def loyalty_written(state: GameState) -> dict[str, Any]:
    return {"loyalty_gained": state.loyalty_gained}


def iron_bank_written(state: GameState) -> dict[str, Any]:
    bank: dict[str, Any] = {"loan_deck": list(state.loan_deck), "loan_slots": list(state.loan_slots)}
    return bank | ({"braavos_token": state.braavos_token} if state.braavos_token else {})


def leaving_written(state: GameState) -> dict[str, Any]:
    return {"leaving": list(state.leaving)} if state.leaving else {}


for _write, _feature in ((vassals_written, "vassals"), (dragons_written, "dragons"), (loyalty_written, "loyalty"),
                         (iron_bank_written, "iron_bank"), (leaving_written, "vassals")):  # fmt: skip
    register("state_written", _feature, _write)


def vassals_read(state: GameState, table: dict[str, Any]) -> None:
    state.vassals = list(table.get("vassals", []))
    state.commanders = dict(table.get("commanders", {}))
    state.vassal_sets = list(table.get("vassal_sets", []))
    state.leaving = list(table.get("leaving", []))


def dragons_read(state: GameState, table: dict[str, Any]) -> None:
    state.dragon_tokens = list(table.get("dragon_tokens", []))


def loyalty_read(state: GameState, table: dict[str, Any]) -> None:
    state.loyalty_gained = table.get("loyalty_gained", 0)


def iron_bank_read(state: GameState, table: dict[str, Any]) -> None:
    state.loan_deck = list(table.get("loan_deck", []))
    state.loan_slots = list(table.get("loan_slots", []))
    state.braavos_token = table.get("braavos_token")


for _read, _feature in ((vassals_read, "vassals"), (dragons_read, "dragons"), (loyalty_read, "loyalty"),
                        (iron_bank_read, "iron_bank")):  # fmt: skip
    register("state_read", _feature, _read)


def vassals_checked(sh: Shape, table: dict[str, Any], path: str, in_play: list[str], board: Board) -> None:
    """The vassals and their commanders, the sets of vassal orders, the players leaving (M005, M019,
    M030, M124)."""
    vassals = sh.names(table, "vassals", path, [h for h in in_play if h != "targaryen"], "a Westerosi house in play")
    players = [h for h in in_play if h not in vassals]
    for vassal, commander in sh.table(table, "commanders", path).items():
        if vassal not in vassals:
            sh.fail(f"{path}commanders.{vassal}", "not a vassal")
        if commander not in players:
            sh.fail(f"{path}commanders.{vassal}", f"{sh.show(commander)} is not a player house")
    sh.names(table, "vassal_sets", path, players, "a player house")
    sh.names(table, "leaving", path, [h for h in players if h != "targaryen"], "a Westerosi player house (M124, M125)")


def dragons_checked(sh: Shape, table: dict[str, Any], path: str, in_play: list[str], board: Board) -> None:
    for r in sh.get(table, "dragon_tokens", path, list, []):
        if not is_int(r) or not 1 <= r <= board.constants["rounds"]:
            sh.fail(f"{path}dragon_tokens", f"{sh.show(r)} is not a round of the round track (1 to 10)")


def loyalty_checked(sh: Shape, table: dict[str, Any], path: str, in_play: list[str], board: Board) -> None:
    sh.number(table, "loyalty_gained", path, 0)


def iron_bank_checked(sh: Shape, table: dict[str, Any], path: str, in_play: list[str], board: Board) -> None:
    sh.names(table, "loan_deck", path, CARDS.loans, "a loan of the Iron Bank")
    sh.names(table, "loan_slots", path, [*CARDS.loans, ""], "a loan of the Iron Bank or \"\" (an empty slot)")
    vassals = table.get("vassals", [])
    players = [h for h in in_play if not (isinstance(vassals, list) and h in vassals)]
    token = sh.get(table, "braavos_token", path, str, None)
    if token is not None and token not in players:
        sh.fail(f"{path}braavos_token", f"{sh.show(token)} is not a player house")


for _check, _feature in ((vassals_checked, "vassals"), (dragons_checked, "dragons"), (loyalty_checked, "loyalty"),
                         (iron_bank_checked, "iron_bank")):  # fmt: skip
    register("state_checked", _feature, _check)
