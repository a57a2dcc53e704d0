"""Shared pieces of the tests of A Dance with Dragons' house cards (tests/cards/test_adwd_*.py).

Every position deals the A Dance with Dragons decks (``[options] house_cards = "adwd"``); the card
tests fight real combats through the step machine, as the base cards' tests do.
"""

from __future__ import annotations

from typing import Any

from adjudicator.game.state import GameState

from .test_combat_harness import SIX, Assault, duel, play

ADWD = '[options]\nhouse_cards = "adwd"'


def adwd_duel(attacker: str, defender: str, **kw: Any) -> GameState:
    """:func:`duel` with the A Dance with Dragons decks."""
    return duel(attacker, defender, options=ADWD, **kw)


def check_adwd_icons(battle: Any, house: str, card: str, *, strength: int, swords: int, forts: int) -> None:
    """A card without text: its strength and swords when it attacks, its fortifications when it defends.

    The opponent plays a card whose text does nothing here (Margaery Tyrell away from home, or
    Quentyn Martell with an empty discard pile); a third house holds The Boneway and The Reach, so
    the loser's survivors retreat to Storm's End without a question.
    """
    from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved

    opponent, blank, sword_card, its_swords = (
        ("martell", "quentyn_martell", "big_man", 1) if house == "tyrell"
        else ("tyrell", "margaery_tyrell_adwd", "randyll_tarly_adwd", 2))
    third = next(h for h in SIX if h not in (house, opponent))
    blockers = f'the_boneway = ["{third} footman"]\nthe_reach = ["{third} footman"]'
    b = battle(adwd_duel(house, opponent, attack=("3 knights",), defend=("3 footmen",), areas=blockers),
               Assault("kingswood", house, "kings_landing", ("knight",) * 3))
    b.run(play(house, card), play(opponent, blank))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == house and (f"card:{card}", strength) in final.attacker_strength
    due = b.of(CasualtiesDue)
    assert [(d.swords, d.count) for d in due] == ([(swords, swords)] if swords else [])
    b = battle(adwd_duel(opponent, house, attack=("3 knights",), defend=("3 footmen",), areas=blockers),
               Assault("kingswood", opponent, "kings_landing", ("knight",) * 3))
    b.run(play(house, card), play(opponent, sword_card))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == opponent and (f"card:{card}", strength) in final.defender_strength
    due = b.of(CasualtiesDue)[0]
    assert (due.swords, due.fortifications, due.count) == (its_swords, forts, max(0, its_swords - forts))
    assert b.units("storms_end", house, routed=True) == ["footman"] * (3 - due.count)
