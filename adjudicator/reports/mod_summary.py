"""Mother of Dragons' lines of the state's summary (``maester show``): the vassals and their
commanders, the players leaving, the dragons' strength and the Iron Bank's slots.

Registered at the ``summary_lines`` hook point (game/hooks.py), which
:func:`~adjudicator.reports.show.summary` calls after the wildling threat.

>>> from adjudicator.game.mod_setup import new_mod_game
>>> s = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="doc")
>>> vassal_lines(s)[0]
'Vassals (*):  Tyrell (no commander yet), Baratheon (no commander yet), Martell'
>>> dragon_lines(s, s.board())[0]
'Dragons:      strength 0; tokens on rounds 2, 4, 6, 8, 10'
"""

from __future__ import annotations

from textwrap import wrap

from ..engine.events import house_name
from ..game.board import Board
from ..game.cards import CARDS
from ..game.hooks import register
from ..game.state import GameState
from ..util.columns import WIDTH


def vassal_lines(state: GameState, board: Board | None = None) -> list[str]:
    """Who commands each vassal this round (M030), and who leaves at its end (M124, ruling 276)."""
    out: list[str] = []
    if state.vassals:
        commanded = [f"{house_name(v)} ({f'commanded by {house_name(c)}' if (c := state.commander(v)) else 'no commander yet'})"
                     for v in state.vassals]  # fmt: skip
        out += wrap(", ".join(commanded), WIDTH, initial_indent=f"{'Vassals (*):':<14}", subsequent_indent=" " * 14)
    if state.leaving:  # maester leave (M124, ruling 276)
        out += wrap(f"{', '.join(house_name(h) for h in state.leaving)}'s player at the end of round {state.round}: a vassal "
                    f"from round {state.round + 1} (M124)", WIDTH, initial_indent=f"{'Leaving:':<14}",
                    subsequent_indent=" " * 14)  # fmt: skip
    return out


def dragon_lines(state: GameState, board: Board) -> list[str]:
    """With Targaryen: the dragons' strength and tokens (M089, M013), and the Iron Bank's slots (M105)."""
    if "targaryen" not in state.houses_in_play:
        return []
    return [
        f"{'Dragons:':<14}strength {state.dragon_strength(board)}; tokens on rounds "
        f"{', '.join(map(str, state.dragon_tokens)) or 'none'}",
        f"{'Iron Bank:':<14}" + "  ".join(f"{cost}: {CARDS.loans[x].name if x else '-'}" for cost, x in
                                          zip((1, 4, 7), state.loan_slots)) + f"  ({len(state.loan_deck)} in the deck)",
    ]


register("summary_lines", "vassals", vassal_lines)
register("summary_lines", "dragons", dragon_lines)
