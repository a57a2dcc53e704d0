"""Review of the 42 House cards against their printed texts (``data/cards.toml``) and R191-R198.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats are fought through the real step machine by the harness of
``tests/rules/test_combat_harness.py``: unless told otherwise a house that does not fight heads every
track, then the attacker, then the defender. ``BLOCKED`` puts a third house in The Boneway and The
Reach, so a defeated Kingswood army retreats to Storm's End unasked.
"""

from __future__ import annotations

from adjudicator.commands import CardChoice

from rules.test_combat_harness import battle, duel, everyone, play, say  # noqa: F401

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


# --- Baratheon --------------------------------------------------------------------------------------


def test_renly_baratheon_an_attacker_names_the_embattled_area_for_its_attacking_footman(battle):
    """Wrong before: an attacker's footmen were offered only under the area they marched from, so
    ``renly baratheon: upgrade footman in Kingswood`` (the turn-file guide's own example, written
    by a house that attacked the Kingswood) was refused. The area of the combat now names them too.
    """
    state = duel("baratheon", "lannister", attack=("2 footmen", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("lannister", "cersei_lannister"),
          say("baratheon", CardChoice(card="renly_baratheon", area="kingswood")))
    assert b.done, b.unusable()
    assert b.units("kingswood", "baratheon") == ["footman", "knight", "knight"]
    assert b.units("kings_landing") == []


# --- Greyjoy ----------------------------------------------------------------------------------------


def test_aeron_damphair_reports_the_power_paid_under_the_cards_name(battle):
    """Wrong before: the 2 power Aeron costs were reported as paid for "aeron damphair"."""
    from adjudicator.rules.common import PowerChanged

    state = duel("greyjoy", "lannister", attack=("2 footmen", "knight"), defend=("footman",), power={"greyjoy": 5},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("lannister", "cersei_lannister"),
          say("greyjoy", CardChoice(card="aeron_damphair", house_card="balon_greyjoy")))
    assert b.done
    paid = b.of(PowerChanged)
    assert [(p.house, p.amount, p.cause) for p in paid] == [("greyjoy", -2, "Aeron Damphair")]
    assert b.state.houses["greyjoy"].power == 3


def test_renly_baratheon_a_refused_choice_lists_the_choices_by_their_names(battle):
    """Wrong before: a refused card choice listed the legal ones by their ids ("kings_landing"),
    which is not how a player writes an area; now they read as the board names them."""
    state = duel("baratheon", "lannister", attack=("2 footmen", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("lannister", "cersei_lannister"),
          say("baratheon", CardChoice(card="renly_baratheon", area="the_reach")))
    assert b.unusable("baratheon") == [
        "'The Reach' is not a choice Renly Baratheon allows here; the choices are: "
        "Kingswood; King's Landing; no (R193)"]
