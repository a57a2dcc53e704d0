"""Mother of Dragons in a position file: the keys an expansion position adds (``docs/positions.md``).

A position names its expansion (``expansion = "mother-of-dragons"``) and its players' houses; every
other Westerosi house is a vassal (M005). Beside the base keys it may give ``loans`` in a house's
table, ``loyalty`` and ``improvements`` in an area's entry, Westeros deck IV in ``[decks]``, and the
table ``[mother_of_dragons]`` for the rest:

======================  =========================================================================
``commanders``          vassal = the player commanding it this round (M030)
``vassal_sets``         who holds each set of vassal orders not yet spent choosing (M019, M033)
``dragon_tokens``       the round spaces still holding a dragon strength token (M013)
``loyalty_gained``      loyalty tokens Targaryen has gained (M076)
``loan_deck``           the Iron Bank's face-down loans, top first (M024)
``loan_slots``          the three slots, cost 1, 4 and 7; ``""`` is an empty slot (M105)
``braavos_token``       the player keeping the Braavos token (M111)
``leaving``             players leaving at the end of this round (``maester leave``, M124)
======================  =========================================================================
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import CARDS
from .state import GameState
from .validation import IMPROVEMENT_TOKENS

if TYPE_CHECKING:  # the reader is position.py's; only its typed getters are used here
    from .position import _Reader

MOD_TABLE = "mother_of_dragons"
MOD_HOUSE_KEYS = ("loans", "removed")
MOD_AREA_KEYS = ("loyalty", "improvements")
MOD_KEYS = ("commanders", "vassal_sets", "dragon_tokens", "loyalty_gained", "loan_deck", "loan_slots", "braavos_token",
            "leaving")


def read_expansion(r: _Reader, data: dict[str, Any], state: GameState) -> None:
    """Read the expansion's keys into ``state`` (set up by the expansion's setup already).

    :raises PositionError: (through ``r.fail``) naming the key at fault.
    """
    for h, d in r.get(data, "house", "", dict, {}).items():
        if isinstance(d, dict) and "loans" in d:
            state.houses[h].loans = _loans(r, r.str_list(d, "loans", f"house.{h}.", []) or [], f"house.{h}.loans")
        if isinstance(d, dict) and "removed" in d:
            _removed(r, state, h, r.str_list(d, "removed", f"house.{h}.", []) or [])
    for area_id, entry in r.get(data, "areas", "", dict, {}).items():
        if not isinstance(entry, dict):
            continue
        st = state.area_mut(area_id)
        st.loyalty = r.get(entry, "loyalty", f"areas.{area_id}.", int, st.loyalty)
        if st.loyalty < 0:
            r.fail(f"areas.{area_id}.loyalty", "cannot be negative")
        if st.loyalty and not r.board.area(area_id).is_land:
            r.fail(f"areas.{area_id}.loyalty", "loyalty tokens lie on land areas only (M083)")
        tokens = r.str_list(entry, "improvements", f"areas.{area_id}.", st.improvements) or []
        for t in tokens:
            if t not in IMPROVEMENT_TOKENS:
                r.fail(f"areas.{area_id}.improvements", f"unknown token {t!r}; the tokens are {', '.join(IMPROVEMENT_TOKENS)}")
        st.improvements = list(tokens)
    table = r.get(data, MOD_TABLE, "", dict, {})
    r.known_keys(table, MOD_KEYS, f"{MOD_TABLE}.")
    path = f"{MOD_TABLE}."
    commanders = r.get(table, "commanders", path, dict, state.commanders)
    for vassal, commander in commanders.items():
        if vassal not in state.vassals:
            r.fail(f"{path}commanders.{vassal}", f"{vassal!r} is not a vassal in this game ({', '.join(state.vassals)})")
        if commander not in state.players():
            r.fail(f"{path}commanders.{vassal}", f"{commander!r} is not a player in this game")
    state.commanders = dict(commanders)
    state.vassal_sets = r.str_list(table, "vassal_sets", path, state.vassal_sets) or []
    for h in state.vassal_sets:
        if h not in state.players():
            r.fail(f"{path}vassal_sets", f"{h!r} is not a player in this game")
    tokens = r.get(table, "dragon_tokens", path, list, state.dragon_tokens)
    if any(isinstance(t, bool) or not isinstance(t, int) for t in tokens):
        r.fail(f"{path}dragon_tokens", "expected a list of round numbers")
    state.dragon_tokens = sorted(tokens)
    state.loyalty_gained = r.get(table, "loyalty_gained", path, int, state.loyalty_gained)
    if state.loyalty_gained < 0:
        r.fail(f"{path}loyalty_gained", "cannot be negative")
    # Loans a house holds, or a slot given, leave the setup's deck and slots unless those are given too.
    slots = r.str_list(table, "loan_slots", path, None)
    if slots is not None:
        state.loan_slots = [s if not s else _loans(r, [s], f"{path}loan_slots")[0] for s in slots]
    taken = {x for h in state.houses.values() for x in h.loans}
    if slots is None:
        state.loan_slots = ["" if s in taken else s for s in state.loan_slots]
    taken |= set(state.loan_slots)
    state.loan_deck = [x for x in state.loan_deck if x not in taken]
    state.loan_deck = _loans(r, r.str_list(table, "loan_deck", path, state.loan_deck) or [], f"{path}loan_deck")
    token = r.get(table, "braavos_token", path, str, state.braavos_token or "")
    if token and token not in state.players():
        r.fail(f"{path}braavos_token", f"{token!r} is not a player in this game (ruling 257)")
    state.braavos_token = token or None
    state.leaving = r.str_list(table, "leaving", path, state.leaving) or []
    for h in state.leaving:
        if h not in state.players() or h == "targaryen" or state.leaving.count(h) > 1:
            r.fail(f"{path}leaving", f"{h!r} is not a Westerosi player in this game, named once (M124, M125)")
    held = state.loan_deck + [s for s in state.loan_slots if s] + [x for h in state.houses.values() for x in h.loans]
    twice = [loan for loan, n in Counter(held).items() if n > 1]
    if twice:
        r.fail(MOD_TABLE, f"the loan {twice[0]!r} is in two places (the deck, a slot or a house's loans)")


def _removed(r: _Reader, state: GameState, house: str, cards: list[str]) -> None:
    """House cards removed from the game (Khal Drogo, Viserys, Illyrio...): out of the hand, never in the discards."""
    hs = state.houses[house]
    for card in cards:
        if card not in CARDS.hand_of(house, state.card_sets()) or cards.count(card) > 1:
            r.fail(f"house.{house}.removed", f"{card!r} is not a house card of {house}, named once")
        if card in hs.discards:
            r.fail(f"house.{house}.removed", f"{card!r} is removed from the game, so not in the discards too")
    hs.hand = [c for c in hs.hand if c not in cards]
    hs.removed = list(cards)


def _loans(r: _Reader, loans: list[str], key: str) -> list[str]:
    for loan in loans:
        if loan not in CARDS.loans:
            r.fail(key, f"{loan!r} is not a loan of the Iron Bank; the loans are {', '.join(CARDS.loan_deck())}")
    return loans


def dump_expansion(state: GameState) -> dict[str, Any]:
    """The ``[mother_of_dragons]`` table of a state, every key written."""
    out: dict[str, Any] = {
        "commanders": dict(state.commanders),
        "vassal_sets": list(state.vassal_sets),
        "dragon_tokens": list(state.dragon_tokens),
        "loyalty_gained": state.loyalty_gained,
        "loan_deck": list(state.loan_deck),
        "loan_slots": list(state.loan_slots),
    }
    out |= {"braavos_token": state.braavos_token} if state.braavos_token else {}
    return out | {"leaving": list(state.leaving)} if state.leaving else out
