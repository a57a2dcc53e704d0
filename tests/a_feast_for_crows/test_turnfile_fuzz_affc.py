"""A Feast for Crows' own turn-file lines, generated: every objective line and every choice of its
deck I prints in the scenario's vocabulary and reads back as the same command (F042), as the base
game's lines do in tests/test_turnfile_fuzz.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.game import commands as C
from adjudicator.game.cards import CARDS
from adjudicator.game.objective_cards import objective_deck
from adjudicator.turnfile.names import CARD_CHOICES, vocabulary
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_turn_file

BOX = "a-feast-for-crows"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

objectives = st.sampled_from(sorted(objective_deck()))
AFFC_WESTEROS = {c.id for c in CARDS.westeros if c.set == "affc"}
affc_westeros_choices = st.sampled_from(sorted(
    (key.split(":")[1], option) for key, forms in CARD_CHOICES.items() if key.startswith("westeros_card")
    and key.split(":")[1] in AFFC_WESTEROS for option in forms)).map(lambda p: C.WesterosChoice(card=p[0], option=p[1]))

commands = st.one_of(
    st.builds(C.KeepObjectives, objectives=st.lists(objectives, min_size=3, max_size=3, unique=True).map(tuple)),
    st.builds(C.ScoreObjective, objective=st.none() | objectives),
    st.builds(C.ReturnObjective, objective=objectives),
    st.builds(C.TakeObjective, objective=objectives),
    affc_westeros_choices,
)


def test_F042_the_scenario_has_westeros_choices_to_generate():
    assert "the_burden_of_power" in AFFC_WESTEROS
    assert any(key == "westeros_card:the_burden_of_power" for key in CARD_CHOICES)


@FAST
@given(st.lists(commands, max_size=8))
def test_F042_a_printed_objective_turn_file_parses_back_to_its_commands(cmds: list[C.Command]) -> None:
    with vocabulary(BOX):
        text = format_turn_file(cmds)
    tf = parse_turn_file(text, variant=BOX)
    assert tf.commands == tuple(cmds) and not tf.problems, text
