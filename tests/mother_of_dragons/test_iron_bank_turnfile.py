"""The Iron Bank's lines in a turn file: sea orders, buying a loan, interest (M104, M110, M114).

Printed commands parse back to themselves in the expansion's vocabulary; a classic game knows none
of these names.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.game.cards import CARDS
from adjudicator.game.commands import AssignOrder, Give, InterestLosses, IronBank, Located, SpymasterChoice
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

MOD = "mother-of-dragons"
areas = st.sampled_from(["winterfell", "bay_of_ice", "braavos", "the_reach", "port_of_winterfell", "sea_of_dorne"])
located = st.builds(Located, area=areas, unit=st.sampled_from(["footman", "knight", "ship", "siege_engine"]),
                    count=st.integers(1, 3))
loans = st.sampled_from(sorted(CARDS.loans))
iron_bank = st.one_of(
    st.builds(IronBank, area=areas),
    st.builds(IronBank, area=areas, loan=loans),
    st.builds(IronBank, area=areas, loan=loans, areas=st.lists(areas, min_size=1, max_size=2).map(tuple)),
    st.builds(IronBank, area=areas, loan=loans, units=st.lists(located, min_size=1, max_size=4).map(tuple)),
    st.builds(IronBank, area=areas, loan=loans, areas=st.lists(areas, max_size=1).map(tuple),
              option=st.sampled_from(["crown", "barrel", "1", "2", "3", "4"])),
)
commands = st.one_of(
    iron_bank,
    st.builds(InterestLosses, debtor=st.sampled_from(["stark", "arryn", "targaryen"]),
              removals=st.lists(located, max_size=3).map(tuple)),
    st.builds(AssignOrder, area=areas, token=st.sampled_from(["sea_march", "sea_support", "iron_bank"])),
    st.builds(SpymasterChoice, top=st.lists(st.sampled_from([1, 2]), max_size=2).map(tuple),
              bottom=st.lists(st.sampled_from([1, 2]), min_size=1, max_size=2).map(tuple)),
    st.builds(SpymasterChoice, top=st.lists(st.sampled_from([1, 2]), min_size=1, max_size=2).map(tuple)),
    st.builds(Give, power=st.integers(1, 20), to=st.sampled_from(["stark", "arryn", "targaryen"])),
)


@settings(max_examples=150, deadline=None)
@given(commands)
def test_M104_M110_M114_printed_iron_bank_lines_parse_back_to_themselves(cmd):
    text = format_command(cmd)
    tf = parse_turn_file(text + "\n", variant=MOD)
    assert not tf.problems and list(tf.commands) == [cmd], text


def test_M114_sea_orders_are_written_after_an_areas_name():
    tf = parse_turn_file("Bay of Ice: sea march\nThe Narrow Sea: Sea Support\nSunset Sea: iron bank order\n",
                         variant=MOD)
    assert [c.token for c in tf.commands] == ["sea_march", "sea_support", "iron_bank"]  # type: ignore[attr-defined]


def test_M104_loan_lines_with_their_choices():
    text = ("iron bank in Bay of Ice: take Loyal Maester in Winterfell, The Reach\n"
            "iron bank in Bay of Ice: take pyromancer in Harrenhal: barrel\n"
            "iron bank in Bay of Ice: take spymaster: deck 3\n"
            "iron bank in Bay of Ice: no loan\n")
    tf = parse_turn_file(text, variant=MOD)
    assert not tf.problems
    assert list(tf.commands) == [
        IronBank(area="bay_of_ice", loan="loyal_maester", areas=("winterfell", "the_reach")),
        IronBank(area="bay_of_ice", loan="pyromancer", areas=("harrenhal",), option="barrel"),
        IronBank(area="bay_of_ice", loan="spymaster", option="3"),
        IronBank(area="bay_of_ice"),
    ]


def test_M104_a_bad_loan_choice_is_refused_with_what_would_do():
    tf = parse_turn_file("iron bank in Bay of Ice: take pyromancer in Harrenhal: fire\n", variant=MOD)
    assert not tf.commands and "crown" in str(tf.problems[0]) and "deck N" in str(tf.problems[0])


def test_M114_a_classic_game_knows_no_sea_orders_or_loans():
    tf = parse_turn_file("Bay of Ice: iron bank\niron bank in Bay of Ice: take customs officer\n")
    assert not tf.commands and [p.code for p in tf.problems] == ["E108", "E104"]


def test_the_guides_mother_of_dragons_examples_parse():
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "turn-files.md").read_text("utf-8")
    blocks = re.findall(r"```turn-mod\n(.*?)```", guide, re.DOTALL)
    assert len(blocks) >= 3
    for body in blocks:
        tf = parse_turn_file(body, variant=MOD)
        assert not tf.problems and tf.commands, [p.render() for p in tf.problems]
