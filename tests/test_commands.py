"""Commands survive the trip to TOML and back (they are stored in the answers pool)."""

from __future__ import annotations

import tomllib

import tomli_w

from adjudicator.game.commands import (
    CombatFilter,
    Muster,
    MusterAction,
    Raid,
    Retreat,
    Support,
    UnitSpec,
    from_dict,
    to_dict,
)


def roundtrip(cmd):
    return from_dict(tomllib.loads(tomli_w.dumps({"c": to_dict(cmd)}))["c"])


def test_support_none_keeps_its_empty_side():
    assert roundtrip(Support(side=None)) == Support(side=None)
    assert roundtrip(Support(side="stark", combat_area="winterfell")) == Support(side="stark", combat_area="winterfell")


def test_no_effect_inside_a_raid_preference_list():
    cmd = Raid(origin="bay_of_ice", targets=("castle_black", None))
    assert roundtrip(cmd) == cmd


def test_nested_values_and_filters():
    cmd = Retreat(areas=("karhold",), destroy=(UnitSpec("footman", 2),), when=CombatFilter(role="defender", area="winterfell"))
    assert roundtrip(cmd) == cmd
    m = Muster(area="lannisport", actions=(MusterAction(unit="ship", to="the_golden_sound"), MusterAction(unit="knight", upgrade=True)))
    assert roundtrip(m) == m
