"""Standing combat instructions (ruling 353): a combat answer that holds from round to round."""

from __future__ import annotations

from adjudicator.engine.core.context import SKIPPED, pool_entry
from adjudicator.engine.events import AnswerUnusable, AnswerUsed
from adjudicator.engine.events.combat import HouseCardsRevealed
from adjudicator.engine.machine import advance
from adjudicator.game.commands import CombatFilter, Command, March, Move, PlayCard, Standing, UnitSpec

from .helpers import phases  # noqa: F401
from .test_combat_harness import BOARD, position, say

POSITION = """
round = 3
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
kingswood = { units = ["baratheon knight", "baratheon footman"], order = "march+1" }
the_reach = { units = ["tyrell footman"], order = "defense+1" }
"""
DEFEND = PlayCard(card="margaery_tyrell", when=CombatFilter(role="defender", area="the_reach"))
ATTACK = March(origin="kingswood", moves=(Move(destination="the_reach", units=(UnitSpec("knight"), UnitSpec("footman"))),))


def _standing(house: str, cmd: Command, round: int = 1) -> dict:
    return pool_entry(id=f"{house}/{round}.planning/seq1/L9", house=house, round=round, command=Standing(command=cmd),
                      text="standing: if attacked in The Reach: play Margaery Tyrell")


def test_ruling_353_a_standing_combat_line_sent_rounds_ago_plays_its_card_and_stays(phases):
    state = position(POSITION)
    line = _standing("tyrell", DEFEND)
    step = advance(state, [line, *say("baratheon", ATTACK, PlayCard(card="ser_davos_seaworth"))], board=BOARD)
    assert [e.defender_card for e in step.events if isinstance(e, HouseCardsRevealed)] == ["margaery_tyrell"]
    assert any(isinstance(e, AnswerUsed) and line["id"] in e.ids and e.visible_to == "tyrell" for e in step.events)
    assert line["id"] in {a["id"] for a in step.state.answers if a.get("standing")}


def test_ruling_355_a_standing_combat_line_whose_card_is_discarded_is_skipped_and_the_card_asked(phases):
    state = position(POSITION)
    tyrell = state.houses["tyrell"]
    tyrell.hand.remove("margaery_tyrell")
    tyrell.discards.append("margaery_tyrell")
    line = _standing("tyrell", DEFEND)
    step = advance(state, [line, *say("baratheon", ATTACK, PlayCard(card="ser_davos_seaworth"))], board=BOARD)
    skipped = [e for e in step.events if isinstance(e, AnswerUnusable) and line["id"] in e.ids]
    assert skipped and skipped[0].reason.startswith(SKIPPED) and skipped[0].visible_to == "tyrell"
    assert [(r.kind, r.house) for r in step.requests] == [("house_card", "tyrell")]
    assert line["id"] in {a["id"] for a in step.state.answers if a.get("standing")}


def test_ruling_353_a_standing_combat_line_naming_an_opponent_plays_its_card_only_against_that_house(phases):
    """``if attacked by Baratheon: play ...`` fits a combat against Baratheon and no other."""
    state = position(POSITION)
    fits = _standing("tyrell", PlayCard(card="margaery_tyrell", when=CombatFilter(role="defender", opponent="baratheon")))
    step = advance(state, [fits, *say("baratheon", ATTACK, PlayCard(card="ser_davos_seaworth"))], board=BOARD)
    assert [e.defender_card for e in step.events if isinstance(e, HouseCardsRevealed)] == ["margaery_tyrell"]
    assert any(isinstance(e, AnswerUsed) and fits["id"] in e.ids for e in step.events)

    other = _standing("tyrell", PlayCard(card="margaery_tyrell", when=CombatFilter(role="defender", opponent="greyjoy")))
    step = advance(state, [other, *say("baratheon", ATTACK, PlayCard(card="ser_davos_seaworth"))], board=BOARD)
    assert not [e for e in step.events if isinstance(e, HouseCardsRevealed)], "Baratheon is not Greyjoy: no card yet"
    assert [(r.kind, r.house) for r in step.requests] == [("house_card", "tyrell")]
    assert other["id"] in {a["id"] for a in step.state.answers if a.get("standing")}, "kept for a combat it fits"
