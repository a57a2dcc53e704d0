"""The box description (adjudicator/game/boxes.py): what each box has, read from its box.toml, and
the seam's guard: no module outside a box's own tests a box's name."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from adjudicator.game import state as state_module
from adjudicator.game.board import HOUSES
from adjudicator.game.boxes import DEFAULT_BOX, FEATURES, Box, UnknownBox, box_named, box_names
from adjudicator.game.cards import STANDARD_SETS, VASSAL
from adjudicator.game.mod_board import MOD_HOUSES
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"

# A box's own modules: the only ones that may name a box (its description, its setup's registration).
BOX_OWN_MODULES = {"game/boxes.py", "game/variants.py"}


def test_the_boxes_are_known_the_base_game_first():
    assert box_names() == ("classic", "a-dance-with-dragons", "a-feast-for-crows", "mother-of-dragons")
    assert box_names()[0] == DEFAULT_BOX


def test_the_base_games_box_has_its_houses_decks_and_no_feature():
    box = box_named("classic")
    assert box.houses == HOUSES and box.card_sets == {"base"} and box.westeros_decks == (1, 2, 3)
    assert box.features == frozenset() and not box.expansion and box.schema_version == 1 and box.rounds == 10


def test_mother_of_dragons_box_matches_its_rules_data():
    box = box_named("mother-of-dragons")
    assert box.houses == MOD_HOUSES and box.card_sets == STANDARD_SETS | {VASSAL}  # M122, M058
    assert box.westeros_decks == (1, 2, 3, 4) and box.expansion and box.schema_version == 3  # its table (ruling 341)
    assert {"vassals", "sea_orders", "iron_bank", "deck_iv", "dragons", "loyalty", "fixed_last", "gifts"} == box.features


def test_M009_the_side_board_joins_the_map_only_with_its_house():
    box = box_named("mother-of-dragons")
    assert box.board(["stark", "targaryen"]).map == "with_essos"
    assert box.board(["stark", "arryn", "tyrell"]).map == "westeros_mod"
    assert box_named("classic").board(["stark"]).map == "classic"


def test_an_unknown_box_is_refused_with_the_known_ones():
    known = "classic, a-dance-with-dragons, a-feast-for-crows, mother-of-dragons"
    with pytest.raises(UnknownBox, match=f"unknown variant 'chess' \\(known: {known}\\)"):
        box_named("chess")


def test_a_misspelt_feature_is_a_bug_not_a_box_without_it():
    with pytest.raises(AssertionError):
        box_named("classic").has("vasals")
    assert set(box_named("mother-of-dragons").features) <= set(FEATURES)


def test_a_state_knows_its_box():
    classic = new_game(["stark", "lannister", "baratheon"], seed="box")
    mod = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="box")
    assert classic.box is box_named("classic") and mod.box is box_named("mother-of-dragons")
    assert GameState().box.name == DEFAULT_BOX  # a state that names no box is the base game's
    assert GameState.from_toml(classic.to_toml()).box == classic.box


def _without(monkeypatch: pytest.MonkeyPatch, feature: str) -> None:
    """Play Mother of Dragons' state as a box without one feature (every rule asks the box)."""
    real = box_named("mother-of-dragons")
    fake: Box = dataclasses.replace(real, features=real.features - {feature})
    monkeypatch.setattr(state_module, "box_named", lambda name: fake)


def test_a_box_without_sea_orders_gives_its_players_none(monkeypatch: pytest.MonkeyPatch):
    state = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="box")
    with_sea = state.order_tokens("stark")
    assert sum(with_sea.values()) == 18  # the base 15 and three sea orders (R112, M114)
    _without(monkeypatch, "sea_orders")
    assert set(with_sea) - set(state.order_tokens("stark")) == {"sea_march", "sea_support", "iron_bank"}


def test_a_box_without_the_iron_bank_writes_no_loans(monkeypatch: pytest.MonkeyPatch):
    state = new_mod_game(["stark", "lannister", "greyjoy", "targaryen"], seed="box")
    assert "loan_deck" in state.to_dict()[state.box.state_table]
    _without(monkeypatch, "iron_bank")
    d = state.to_dict()[state.box.state_table]
    assert "loan_deck" not in d and "loan_slots" not in d and "vassals" in d


# --- the seam's guard ---------------------------------------------------------------------

def _name_tests(text: str) -> list[str]:
    names = "|".join(re.escape(n) for n in box_names())
    quoted = rf"[\"']({names})[\"']"
    patterns = [
        rf"(==|!=|\bin\b)\s*[\(\[{{]?\s*{quoted}",  # x == "classic", x in ("classic", ...)
        rf"{quoted}\s*(==|!=|\bin\b|\bnot in\b)",  # "classic" == x
        r"\b(CLASSIC|MOTHER_OF_DRAGONS)\b",  # the name constants there were before boxes
        r"(==|!=)\s*DEFAULT_BOX\b|\bDEFAULT_BOX\s*(==|!=)",
    ]
    return [line.strip() for line in text.splitlines()
            if not line.lstrip().startswith("#") and any(re.search(p, line) for p in patterns)]


def test_the_guard_finds_a_name_test():
    assert _name_tests('    if state.variant != "classic":\n') and _name_tests("if v == CLASSIC:\n")
    assert _name_tests("if box in ('mother-of-dragons',):\n") and _name_tests("x = DEFAULT_BOX == y\n")
    assert not _name_tests('    state = variant(expansion or DEFAULT_BOX)\n    if state.box.has("vassals"):\n')


def test_no_module_outside_a_boxs_own_tests_a_boxs_name():
    found = {
        str(p.relative_to(PACKAGE)): hits
        for p in sorted(PACKAGE.rglob("*.py"))
        if str(p.relative_to(PACKAGE)) not in BOX_OWN_MODULES and (hits := _name_tests(p.read_text("utf-8")))
    }
    assert found == {}, "ask the box what it has (state.box.has(feature)), not what it is called"


# --- hook points (game/hooks.py) ---------------------------------------------------------------

def test_a_hook_point_gives_a_box_the_functions_of_its_features_only():
    from adjudicator.engine import ahead_mod
    from adjudicator.game.hooks import hooked

    assert hooked("decisions_ahead", box_named("mother-of-dragons")) == [ahead_mod.decisions]
    assert hooked("decisions_ahead", box_named("classic")) == []


def test_a_hook_registered_at_an_unknown_point_or_feature_or_twice_is_refused():
    from adjudicator.engine import ahead_mod
    from adjudicator.game.hooks import register

    with pytest.raises(ValueError, match="unknown hook point"):
        register("decisions_later", "vassals", ahead_mod.decisions)
    with pytest.raises(ValueError, match="unknown hook point 'decisions_ahead' or feature 'vasals'"):
        register("decisions_ahead", "vasals", ahead_mod.decisions)
    with pytest.raises(ValueError, match="registered twice"):
        register("decisions_ahead", "vassals", ahead_mod.decisions)


def test_a_hook_points_caller_never_imports_the_modules_registered_there():
    import re

    from test_layout import graph, modules

    callers: dict[str, set[str]] = {}  # hook point -> the modules that call it
    for name, path in modules().items():
        for point in re.findall(r'hooked\("(\w+)"', path.read_text("utf-8")):
            callers.setdefault(point, set()).add(name)
    edges = graph()
    for box in map(box_named, box_names()):
        for point, registering in box.hooks.items():
            assert callers.get(point), f"no module calls the hook point {point}"
            assert {c for c in callers[point] if edges[c] & set(registering)} == set(), point
