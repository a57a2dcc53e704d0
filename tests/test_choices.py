"""A card's choice forms are stated once, in its cards.toml ``choice`` table, and every card whose
ability asks its player a choice has them (game/cards.py ChoiceForms)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adjudicator.engine import ahead
from adjudicator.engine.cards.registry import ABILITIES, load
from adjudicator.engine.cards.wildlings import WILDLING_CARDS
from adjudicator.engine.rules.westeros import CHOICES as WESTEROS_OPTIONS
from adjudicator.game.boxes import box_named, box_names
from adjudicator.game.cards import CARDS
from adjudicator.turnfile import names

ASKS = ("choose", "pick_or_no", "_ask", "ask")  # how an ability asks its player (registry.CombatView.choose ...)
TESTS = Path(__file__).parent


def _calls(fn: Callable[..., Any]) -> set[str]:
    """The names a function calls, and those its own module's helpers call, one level down."""
    module = inspect.getmodule(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
              for n in ast.walk(tree) if isinstance(n, ast.Call)}
    helpers = {getattr(module, c) for c in called if inspect.isfunction(getattr(module, c, None))}
    for h in helpers - {fn}:
        if inspect.getmodule(h) is module:
            called |= {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                       for n in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(h)))) if isinstance(n, ast.Call)}
    return called


def test_the_guard_sees_an_ability_that_asks():
    load()
    assert set(ASKS) & _calls(ABILITIES["tyrion_lannister"].fn)
    assert not set(ASKS) & _calls(ABILITIES["catelyn_stark"].fn)


def _dealt() -> set[str]:
    """The house cards some box deals (the alternate sets of M123 are in the catalogue only)."""
    sets = {s for name in box_names() for s in box_named(name).card_sets}
    return {c.id for c in CARDS.house_cards.values() if c.set in sets}


def test_every_dealt_house_card_that_asks_a_choice_has_its_turn_file_forms():
    load()
    asking = {card for card, a in ABILITIES.items() if set(ASKS) & _calls(a.fn)} & _dealt()
    missing = sorted(c for c in asking if f"house_card:{c}" not in CARDS.choices)
    assert asking and missing == [], "add a choice table to these cards in their cards.toml"


def test_every_wildling_card_that_asks_has_its_turn_file_forms():
    asking = {card for card, w in WILDLING_CARDS.items() if set(ASKS) & _calls(w.resolve)}
    known = {k.partition(":")[2] for k in CARDS.choices if k.startswith("wildling_card:")}
    # Wildling cards that ask a bid's winner or loser only for casualties or units use the common forms.
    assert known <= asking and known


def test_every_westeros_card_with_options_has_its_turn_file_forms():
    assert {f"westeros_card:{c}" for c in WESTEROS_OPTIONS} <= set(CARDS.choices)


def test_every_choice_names_a_card_and_forms_the_reader_knows():
    kinds = {"house_card": CARDS.house_cards, "wildling_card": CARDS.wildling_cards,
             "westeros_card": {c.id for c in CARDS.westeros}}
    for key, choice in CARDS.choices.items():
        kind, _, card = key.partition(":")
        assert card in kinds[kind], key
        assert choice.forms and set(choice.forms) <= set(names.FORM_EXAMPLES), key
        assert not choice.ahead or kind == "house_card", "only a house card's choice is answered ahead"


def test_the_reader_answering_ahead_and_the_printer_read_the_one_statement():
    assert names.CARD_CHOICES["house_card:tyrion_lannister"] == {"cancel", "nothing"}
    assert names.CARD_VERBS["patchface"] == "discard" and names.CARD_VERBS["mammoth_riders"] == "take_back"
    assert ahead.CARD_CHOICES["doran_martell"][-1] == {"track": "iron_throne"}
    assert ("house_card:lysa_arryn_mod", "keep") in names.UNCLEAR_CHOICES


def test_every_card_with_text_of_a_dealt_set_has_code_and_a_test():
    load()
    cards_tests = "\n".join(p.read_text("utf-8") for p in sorted((TESTS / "cards").glob("test_*.py")))
    for name in box_names():
        sets = box_named(name).card_sets
        dealt = [c for c in CARDS.house_cards.values() if c.set in sets and c.has_ability]
        assert [c.id for c in dealt if c.id not in ABILITIES] == [], f"{name}: cards without code"
        assert [c.id for c in dealt if c.id not in cards_tests] == [], f"{name}: cards without a test in tests/cards"
