"""Gifts of power (M121, ruling 261): ``give N power to HOUSE``."""

from __future__ import annotations

import pytest
from rules.helpers import entry, game, of, phases, reasons, run  # noqa: F401

from adjudicator.engine.events.bank import PowerGiven
from adjudicator.game.commands import Give
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

pytestmark = pytest.mark.usefixtures("phases")


def mod_game():
    return new_mod_game(["stark", "lannister", "baratheon", "targaryen"], seed="gifts")


def test_M121_a_player_gives_available_power_to_another_player_at_once():
    s = mod_game()
    s.houses["stark"].power, s.houses["targaryen"].power = 7, 7
    step = run(s, entry("stark", Give(power=3, to="targaryen")))
    assert step.requests  # the planning phase waits for orders; the gift did not
    assert (step.state.houses["stark"].power, step.state.houses["targaryen"].power) == (4, 10)
    given = of(step.events, PowerGiven)
    assert given and given[0].visible_to == "public" and given[0].power == 3
    assert (s.houses["stark"].power, s.houses["targaryen"].power) == (7, 7)  # advance left its input alone
    again = run(step.state)  # the waiting step replays from its changed start
    assert again.state.houses["targaryen"].power == 10 and not of(again.events, PowerGiven)


def test_M121_ruling_261_no_gift_to_a_vassal_to_oneself_or_beyond_ones_power():
    s = mod_game()
    vassal = s.vassals[0]
    s.houses["stark"].power = 2
    step = run(s, entry("stark", Give(power=1, to=vassal)), entry("stark", Give(power=1, to="stark")),
               entry("stark", Give(power=5, to="lannister")))
    why = reasons(step, "stark")
    assert any("vassal" in r and "ruling 261" in r for r in why)
    assert any("another player" in r for r in why)
    assert any("not 5" in r and "M121" in r for r in why)
    assert step.state.houses["stark"].power == 2


def test_M121_ruling_261_only_what_the_receiver_can_take_leaves_the_giver():
    s = mod_game()
    s.houses["stark"].power, s.houses["lannister"].power = 5, 19
    step = run(s, entry("stark", Give(power=3, to="lannister")))
    assert (step.state.houses["stark"].power, step.state.houses["lannister"].power) == (4, 20)
    assert of(step.events, PowerGiven)[0].asked == 3


def test_M121_the_base_game_refuses_gifts():
    s = game()
    step = run(s, entry("stark", Give(power=1, to="lannister")))
    assert any("R266" in r for r in reasons(step, "stark"))


def test_M121_give_lines_read_and_print_back():
    tf = parse_turn_file("give 2 power to Targaryen\ngive 1 to stark\n", variant="mother-of-dragons")
    assert list(tf.commands) == [Give(power=2, to="targaryen"), Give(power=1, to="stark")]
    for c in tf.commands:
        assert list(parse_turn_file(format_command(c) + "\n", variant="mother-of-dragons").commands) == [c]
