"""Mother of Dragons' vassals in the public report: who commands which vassal this round, the sets
of vassal orders not given yet, and the open vassal deck (M030, M038, M059, ruling 267).

Everything here is public: the commands are announced (M038), the vassal deck may be looked at by
anyone (004:1199). What a commander decides for its vassal (its orders before the reveal, the three
cards drawn for a combat) is not read here: it lives in the answers pool and in events seen by the
commander only, and the report shows those only to the commander, as it does any house's secrets.

>>> from adjudicator.game.mod_setup import new_mod_game
>>> s = new_mod_game(["stark", "lannister", "baratheon"], seed="doc")
>>> s.commanders = {"tyrell": "stark"}
>>> view = vassals_view(s)["vassals"]
>>> [f"{v['name']}: {v['line']}" for v in view["houses"]][1:3], view["sets"]
(['Greyjoy: no commander yet', 'Tyrell: commanded by Stark'], 'Baratheon, Lannister, Stark, Baratheon')
>>> vassals_view(new_mod_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn"], seed="d"))
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

from ..game.cards import CARDS
from ..game.commands import Command, ForVassal
from ..game.commands import from_dict as command_from_dict
from ..game.state import GameState


def vassals_view(state: GameState) -> dict[str, Any]:
    """``{"vassals": ...}`` for the report templates; empty in a game without vassals (the base
    game's reports stay as they were)."""
    if not state.vassals:
        return {}
    order = [h for h in state.turn_order() if h in state.vassals]
    houses = [{"house": v, "name": v.title(), "commander": (c or "").title(),
               "line": f"commanded by {c.title()}" if c else "no commander yet"}
              for v in order for c in [state.commander(v)]]  # fmt: skip
    deck = [CARDS.house_cards[c] for c in CARDS.vassal_deck()]
    return {"vassals": {
        "houses": houses,
        "ids": list(state.vassals),
        "names": [v.title() for v in state.vassals],
        "sets": sets_in_order(state.vassal_sets),
        "deck": ", ".join(f"{c.name} {c.strength}" for c in deck),
        "deck_size": len(deck),
    }}



def sets_in_order(holders: list[str]) -> str:
    """The sets of vassal orders still to give, in the order they are given; a player giving two in
    a row is named once ("Lannister, Lannister" read as a mistake).

    >>> sets_in_order(["lannister", "lannister", "stark", "lannister"])
    'Lannister (2 sets), Stark, Lannister'
    """
    runs = [(h, len(list(group))) for h, group in groupby(holders)]
    return ", ".join(h.title() + (f" ({n} sets)" if n > 1 else "") for h, n in runs)


def as_commander(request: Mapping[str, Any], command: Mapping[str, Any]) -> Command:
    """An option or the default of a request as the house asked writes it: ``for tyrell: ...`` when
    the decision is a vassal's, taken by its commander (M030).

    >>> as_commander({"vassal": "tyrell"}, {"type": "Muster", "area": "highgarden"}).vassal
    'tyrell'
    """
    cmd = command_from_dict(dict(command))
    return ForVassal(vassal=str(request["vassal"]), command=cmd) if request.get("vassal") else cmd


def for_line(request: Mapping[str, Any], text: str) -> str:
    """A skeleton's line for a request, with ``for VASSAL:`` in front when it is a vassal's decision."""
    return f"for {request['vassal']}: {text}" if request.get("vassal") else text
