"""Mother of Dragons: a refusal cites the expansion's own rule where it has one (ruling 359).

Ruling 162 makes the first rule in a refusal's closing brackets its decisive one
(``AnswerUnusable.rule``). In an expansion game, where a situation is the expansion's (a vassal, a
dragon, Targaryen's cards, a vassal card), that rule is the expansion's M-rule, not the base rule it
builds on: a player looks it up in the expansion's rules. One table, through the real step machine;
then the static checks of ``maester check``, whose messages carry the same ids.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable, rule_of
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.folder.check import check_turn_file
from adjudicator.game.commands import (
    Bid,
    Command,
    DistributeBid,
    ForVassal,
    Muster,
    MusterAction,
    PlayCard,
    Standing,
    TieBreak,
    WesterosChoice,
    WildlingChoice,
)
from adjudicator.game.state import GameState
from adjudicator.game.variants import variant
from adjudicator.robots.simulate import sim_houses
from adjudicator.turnfile.names import vocabulary_of
from adjudicator.turnfile.parser import parse_turn_file

MOD = "mother-of-dragons"
_ids = itertools.count(1)


def _game() -> GameState:
    """A seven-player expansion game: Arryn a vassal, Targaryen a player."""
    return variant(MOD).setup(sim_houses(7, MOD), seed="rule-ids-mod", game_id="g")


def _mustering() -> GameState:
    """Round 2's Westeros Phase with Mustering on top of deck I."""
    s = _game()
    s.round, s.phase, s.step = 2, "westeros", ""
    for deck, card in enumerate(("mustering", "last_days_of_summer", "sea_of_storms"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def _line(house: str, cmd: Command, round: int = 1) -> dict[str, Any]:
    return pool_entry(id=f"{house}/m{next(_ids)}", house=house, round=round, command=cmd, text=f"{house}: {cmd!r}")


def _stop(ctx: Any) -> None:
    raise NeedAnswers([])


@dataclass(frozen=True)
class Case:
    situation: str
    rule: str
    state: Callable[[], GameState]
    house: str
    command: Command
    westeros: bool = False  # run the Westeros Phase (its musters) with every other decision defaulted


CASES = [
    # M058 "A vassal's house card comes from the shared deck of 7 vassal house cards"
    Case("a player's line playing a vassal card", "M058", _game, "stark", PlayCard(card="syrio_forel")),
    Case("a vassal's line playing a player's card", "M058", _game, "stark",
         ForVassal(vassal="arryn", command=PlayCard(card="catelyn_stark"))),
    # M007 "Each player takes its house's ... 7 house cards" (the base game's R192)
    Case("a player's line playing another player's card", "M007", _game, "stark", PlayCard(card="daenerys_targaryen")),
    # M065 "A vassal never holds a dominance token"
    Case("a vassal's choice for A Throne of Blades", "M065", _game, "stark",
         ForVassal(vassal="arryn", command=WesterosChoice(card="a_throne_of_blades", option="muster"))),
    Case("a vassal's standing tie-break", "M065", _game, "stark",
         Standing(command=ForVassal(vassal="arryn", command=TieBreak(order=("stark", "lannister"))))),
    # M064 "A vassal always bids 0"; M066 "Vassals do not bid against the wildlings, gain and lose nothing"
    Case("a vassal's bid", "M064", _game, "stark",
         ForVassal(vassal="arryn", command=Bid(track="iron_throne", amount=1))),
    Case("a vassal's wildling card choice", "M066", _game, "stark",
         ForVassal(vassal="arryn", command=WildlingChoice(card="a_king_beyond_the_wall", track="fiefdoms"))),
    # M087 "dragons can never be mustered" (the base game's R069 lists what can)
    Case("a muster of a dragon", "M087", _mustering, "targaryen",
         Muster(area="pentos", actions=(MusterAction(unit="dragon"),)), westeros=True),
    Case("a standing muster of a dragon", "M087", _game, "targaryen",
         Standing(command=Muster(area="pentos", actions=(MusterAction(unit="dragon"),)))),
    # M074 "Mustering granted by a Westeros card happens for a vassal only in its home area"
    Case("a vassal's standing muster away from home", "M074", _game, "stark",
         Standing(command=ForVassal(vassal="arryn", command=Muster(area="winterfell",
                                                                     actions=(MusterAction(unit="footman"),))))),
    # M100 "Targaryen gives the power it bid to other players and vassals"
    Case("a distribution of another house's bid", "M100", _game, "stark",
         Standing(command=DistributeBid(track="fiefdoms", gifts=()))),
]


def _refusals(case: Case, monkeypatch: pytest.MonkeyPatch) -> list[AnswerUnusable]:
    state = case.state()
    target = _line(case.house, case.command, round=state.round)
    if case.westeros:
        monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})
        step = advance(state, [target], deadline=lambda r: r.house != case.house or r.kind != "muster")
    else:
        step = advance(state, [target])
    return [e for e in step.events if isinstance(e, AnswerUnusable) and target["id"] in e.ids]


@pytest.mark.parametrize("case", CASES, ids=[c.situation for c in CASES])
def test_ruling_359_an_expansion_refusal_names_the_expansions_own_rule_first(case: Case,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    found = _refusals(case, monkeypatch)
    assert found, f"no refusal for: {case.situation}"
    for e in found:
        assert e.rule == case.rule, (case.situation, e.reason)
        assert rule_of(e.reason) == case.rule


# maester check's own messages (E409): the holder of a dominance token is the highest player on its
# track, not always its first house, in a game with vassals (M065).
STATIC = {
    "use blade": "R199, M065",
    "raven swap The Eyrie defense+1": "R125, M065",
    "tie-break: stark, lannister": "R084, R091, M065",
}


@pytest.mark.parametrize("body", sorted(STATIC))
def test_ruling_359_maester_check_names_M065_for_a_dominance_token_in_a_game_with_vassals(body: str) -> None:
    state = _game()
    outsider = next(h for h in state.players() if all(state.holder(t) != h for t in state.tracks))
    tf = parse_turn_file(f"game g · house {outsider} · round 1 · planning · seq 1\n{body}\n",
                         variant=vocabulary_of(state))
    found = [p.message for p in check_turn_file(tf, state, engine=False).problems]
    assert any(m.endswith(f"({STATIC[body]})") and "the highest player on the" in m for m in found), found


def test_ruling_359_the_base_game_keeps_the_base_rules() -> None:
    """The same lines in a base game cite the base rules alone."""
    from adjudicator.game.setup import new_game

    state = new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"], seed="rule-ids-mod",
                     game_id="g")
    outsider = next(h for h in state.players() if all(state.holder(t) != h for t in state.tracks))
    tf = parse_turn_file(f"game g · house {outsider} · round 1 · planning · seq 1\nuse blade\n")
    found = [p.message for p in check_turn_file(tf, state, engine=False).problems]
    assert any(m.endswith("(R199)") and "first on the Fiefdoms track" in m for m in found), found
    step = advance(state, [_line("stark", PlayCard(card="tywin_lannister"))])
    assert [e.rule for e in step.events if isinstance(e, AnswerUnusable)] == ["R192"]
