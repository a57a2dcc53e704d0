"""Ruling 249: a dragon never flies into an area of its commander's family (M069, rulings 234, 243)."""

from __future__ import annotations

from rules.helpers import entry, of

from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.machine import advance
from adjudicator.engine.rules.marches import destinations, march_problem
from adjudicator.game.commands import March, Move, UnitSpec
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Order

T = "targaryen"


def flying_game() -> GameState:
    """Four players with Targaryen, whose dragon in Norvos holds a march order; Tyrell (a vassal)
    holds Highgarden, Greyjoy (another vassal) Pyke."""
    s = new_mod_game(["stark", "lannister", "arryn", T], seed="family")
    s.area_mut("norvos").order = Order(T, "march+0")
    assert s.controller("highgarden", s.board()) == "tyrell" and s.controller("pyke", s.board()) == "greyjoy"
    return s


def fly(dest: str) -> March:
    return March(origin="norvos", moves=(Move(destination=dest, units=(UnitSpec("dragon", 1),)),))


def test_ruling_249_a_dragon_never_flies_into_an_area_of_a_vassal_its_commander_commands():
    s = flying_game()
    s.commanders = {"tyrell": T, "greyjoy": "stark"}
    board = s.board()
    why = march_problem(s, board, T, fly("highgarden"))
    assert why is not None and "Tyrell, a vassal you command this round, controls it" in why and "ruling 249" in why and "M069" in why
    assert march_problem(s, board, T, fly("pyke")) is None  # another player's vassal: an attack as usual (M092)
    reach = destinations(s, board, T, "norvos")
    assert "highgarden" not in reach and "pyke" in reach and "winterfell" in reach


def test_ruling_249_a_vassal_nobody_commands_yet_is_nobodys_family():
    s = flying_game()
    s.commanders = {}
    assert march_problem(s, s.board(), T, fly("highgarden")) is None


def test_ruling_249_the_flight_is_refused_in_the_players_report_and_the_dragon_stays():
    s = flying_game()
    s.commanders = {"tyrell": T}
    s.phase, s.step = "action", "marches"
    step = advance(s, [entry(T, fly("highgarden"))])
    refused = of(step.events, AnswerUnusable)
    assert refused and refused[0].house == T and "ruling 249" in refused[0].reason
    assert [u.type for u in step.state.area("norvos").units if u.house == T] == ["dragon"]
    assert [r.kind for r in step.requests] == ["march"]
