"""Combats with vassals on the expansion's map, for the vassal combat and vassal card tests.

Stark, Lannister, Arryn and Baratheon play; Greyjoy, Tyrell and Martell are vassals. Lannister
commands Tyrell and Greyjoy, Arryn commands Martell. Baratheon, taking no part, heads the tracks
and holds the Blade unless a test says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules.test_combat_harness import Assault, Battle, duel, say, wired

from adjudicator.game.commands import Command, ForVassal, PlayCard
from adjudicator.game.state import GameState

MOD = 'expansion = "mother-of-dragons"'
PLAYERS = ["stark", "lannister", "arryn", "baratheon"]
COMMANDERS = {"tyrell": "lannister", "greyjoy": "lannister", "martell": "arryn"}
HOUSES = ["baratheon", "stark", "lannister", "arryn", "tyrell", "greyjoy", "martell"]
# The other side of the table, with Targaryen: Stark, Lannister and Arryn are vassals
PLAYERS_B = ["greyjoy", "tyrell", "martell", "baratheon", "targaryen"]
COMMANDERS_B = {"stark": "greyjoy", "lannister": "tyrell", "arryn": "martell"}
HOUSES_B = ["baratheon", "greyjoy", "tyrell", "martell", "stark", "lannister", "arryn", "targaryen"]


class ModBattle(Battle):
    """The harness's battle, advanced on the game's own map (the expansion's)."""

    board = None


@pytest.fixture
def battle(monkeypatch: pytest.MonkeyPatch):
    return wired(monkeypatch, ModBattle)


def fight(attacker: str, defender: str, *, area: str, origin: str, first: str = "baratheon", areas: str = "",
          side_b: bool = False, **kw: Any) -> GameState:
    """A combat between ``attacker`` and ``defender``; ``first`` heads the tracks (and holds the Blade),
    then the attacker, then the defender (Targaryen stays last, M097). ``side_b``: the players of
    ``PLAYERS_B``."""
    players, commanders, houses = (PLAYERS_B, COMMANDERS_B, HOUSES_B) if side_b else (PLAYERS, COMMANDERS, HOUSES)
    order = [first, *[h for h in (attacker, defender) if h != first]]
    order = [h for h in order if h != "targaryen"] + [h for h in houses if h not in order and h != "targaryen"]
    order += ["targaryen"] if side_b else []
    listed = ", ".join(f'{v} = "{c}"' for v, c in commanders.items())
    table = f"[mother_of_dragons]\ncommanders = {{ {listed} }}\nvassal_sets = []"
    return duel(attacker, defender, area=area, origin=origin, houses=players, options=MOD, iron_throne=order,
                fiefdoms=order, areas=f"{areas}\n{table}", **kw)


def stark_attacks_the_reach(**kw: Any) -> GameState:
    """Stark marches from Blackwater into The Reach, held by the vassal Tyrell."""
    kw.setdefault("attack", ("knight",))
    kw.setdefault("defend", ("footman",))
    return fight("stark", "tyrell", area="the_reach", origin="blackwater", **kw)


ON_THE_REACH = Assault("the_reach", "stark", "blackwater", ("knight",))


def for_vassal(vassal: str, *cmds: Command) -> list[dict[str, Any]]:
    """Lines ``for VASSAL: ...`` from the vassal's commander."""
    commander = {**COMMANDERS, **COMMANDERS_B}[vassal]
    return say(commander, *(ForVassal(vassal=vassal, command=c) for c in cmds))


def vassal_plays(vassal: str, card: str) -> list[dict[str, Any]]:
    return for_vassal(vassal, PlayCard(card=card))


def drawn(b: Battle, vassal: str = "tyrell") -> tuple[str, ...]:
    """The cards drawn for a vassal, read from the commander's private event (M058)."""
    from adjudicator.engine.events.vassals import VassalCardsDrawn

    return next(e.cards for e in b.of(VassalCardsDrawn) if e.vassal == vassal)


QUIET = ("janos_slynt", "varys", "syrio_forel")  # cards that ask nothing in these tests' combats


def quiet(b: Battle, vassal: str = "tyrell") -> str:
    """A card drawn for the vassal whose text asks nothing here (the draw is fixed by the game's seed)."""
    found = [c for c in drawn(b, vassal) if c in QUIET]
    assert found, f"the seed drew {drawn(b, vassal)} for {vassal}: choose another seed for this test"
    return found[0]


def rig(monkeypatch: pytest.MonkeyPatch, *hands: tuple[str, ...]) -> None:
    """Stack the vassal deck: the first draw of a combat gives ``hands[0]``, a second vassal's draw
    ``hands[1]`` (ruling 235). Every replay of the step draws the same, as the seeded shuffle does."""
    from adjudicator.engine.rules import vassal_combat

    def stacked(state: GameState, items: list[str]) -> list[str]:
        state.rng_counter += 1
        hand = hands[0] if len(items) == 7 else hands[1]
        assert set(hand) <= set(items), f"{hand} are not all in the deck {items}"
        return [*hand, *[c for c in items if c not in hand]]

    monkeypatch.setattr(vassal_combat, "draw_shuffle", stacked)
