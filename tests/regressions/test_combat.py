"""Review of combat (R169-R237, R268-R273): support, strength, the victor, casualties, retreats, clean-up.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats are fought through the real step machine by the harness of
``tests/rules/test_combat_harness.py``: unless told otherwise a house that does not fight heads every
track, then the attacker, then the defender.
"""

from __future__ import annotations

from adjudicator.commands import Casualties, CardChoice, PlayCard, Retreat, Support, UnitSpec
from adjudicator.events.combat import (
    AttackerAdvanced,
    AttackRepelled,
    CasualtiesDue,
    CombatResolved,
    PortCaptured,
    Retreated,
)
from adjudicator.rules.common import UnitsDestroyed

from rules.test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401


# --- retreats and supply (R209-R219) ---------------------------------------------------------------


def test_R213_routed_units_left_behind_do_not_count_against_the_supply_of_a_retreat(battle):
    """Wrong before: the supply check of a retreat counted the defender's routed units as if they
    stayed in the embattled area, though they are destroyed there (R219). Robb Stark's owner, who
    sees the retreat areas before the routed units go, was shown The Reach as an area costing the
    whole army and so had no choice to make.

    Lannister (supply 1: armies of 3 and 2) defends the Kingswood with a footman and two routed
    footmen and has two footmen in Storm's End and one in The Reach. After the retreat the routed
    footmen are gone, so the footman may go to either area within supply.
    """
    state = duel("stark", "lannister", attack=("2 knights",), defend=(),
                 areas='kingswood = ["lannister footman", "2 lannister footmen routed"]\n'
                       'storms_end = ["2 lannister footmen"]\nthe_reach = ["lannister footman"]\n'
                       'the_boneway = ["tyrell knight"]\n')
    state.houses["lannister"].supply = 1
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"))
    assert b.asked() == [("card_choice", "stark")], "Robb Stark's owner has two areas to choose from"
    assert [o.area or o.option for o in b.requests()[0].options] == ["storms_end", "the_reach", "no"]
    b.run(say("stark", CardChoice(card="robb_stark", area="the_reach")))
    assert b.done
    assert b.of(Retreated)[0].to_area == "the_reach"
    assert b.units("the_reach", "lannister") == ["footman", "footman"]
