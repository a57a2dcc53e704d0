"""The vassal order tokens and the vassals' limits that hold through the base rules' own code
(M043, M050, M054, M055, M065, M067)."""

from __future__ import annotations

from rules.helpers import put

from adjudicator.engine.core.common import gain_power
from adjudicator.engine.rules.raids import target_problem
from adjudicator.game.commands import order_bonus, order_kind, order_kinds
from adjudicator.game.state import Order
from mother_of_dragons.bank_helpers import ctx_for
from mother_of_dragons.vassal_helpers import mod_game


def test_M043_march_0_is_a_march_order_with_modifier_0():
    assert order_kind("vassal_march") == "march" and order_bonus("vassal_march") == 0


def test_M050_defense_1_muster_is_a_defense_order_giving_1_and_a_muster():
    assert order_kinds("vassal_defense_muster") == ("defense", "consolidate")
    assert order_kind("vassal_defense_muster") == "defense" and order_bonus("vassal_defense_muster") == 1


def test_M055_defense_3_gives_3():
    assert order_kind("vassal_defense") == "defense" and order_bonus("vassal_defense") == 3


def test_M054_defense_1_muster_falls_only_to_a_special_raid():
    s = mod_game()
    board = s.board()
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    put(s, "the_reach", "stark", "footman", order="raid")
    why = target_problem(s, board, "stark", "the_reach", "highgarden")
    assert why == "only a special raid may remove the Defense 1/Muster order in Highgarden, a defense order (M054, R136)"
    s.area_mut("the_reach").order = Order("stark", "raid*")
    assert target_problem(s, board, "stark", "the_reach", "highgarden") is None


def test_M065_a_vassal_highest_on_a_track_never_holds_its_dominance_token():
    s = mod_game()
    s.tracks["fiefdoms"] = ["tyrell", *[h for h in s.tracks["fiefdoms"] if h != "tyrell"]]
    assert s.tracks["fiefdoms"][0] == "tyrell"
    assert s.holder("fiefdoms") == next(h for h in s.tracks["fiefdoms"] if h not in s.vassals)


def test_M067_a_vassal_never_collects_power():
    s = mod_game()
    ctx = ctx_for(s)
    assert gain_power(ctx, "tyrell", 2, "consolidate power in Highgarden") == 0
    assert s.houses["tyrell"].power == 0
