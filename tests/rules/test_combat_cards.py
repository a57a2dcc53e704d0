"""The card registry: every House card with a text has exactly one ability, at the right moment."""

from __future__ import annotations

import pytest

from adjudicator.engine.cards.registry import ABILITIES, WHEN, ability, house_card, load
from adjudicator.game.cards import CARDS


def test_every_card_with_a_text_has_exactly_one_registered_ability():
    load()
    base = [CARDS.house_cards[c] for c in CARDS.of_set("base")]  # Mother of Dragons' cards: tests/mother_of_dragons
    with_text = {c.id for c in base if c.has_ability}
    assert {c for c in ABILITIES if CARDS.house_cards[c].set == "base"} == with_text
    assert len(with_text) == 24 and len(base) == 42


def test_each_ability_acts_at_the_moment_cards_toml_names():
    load()
    for card, found in ABILITIES.items():
        assert found.when == CARDS.house_cards[card].when and found.when in WHEN
        assert found.fn.__doc__, f"{card} needs a one-line summary"


def test_a_second_registration_or_a_wrong_moment_is_refused():
    load()
    with pytest.raises(ValueError, match="registered twice"):
        house_card("catelyn_stark", lambda view, me: iter(()), when="combat_strength")
    with pytest.raises(ValueError, match="cards.toml says"):
        house_card("eddard_stark", lambda view, me: iter(()), when="combat_strength")
    with pytest.raises(ValueError, match="unknown house card"):
        house_card("ned_stark", lambda view, me: iter(()), when="combat_strength")


def test_cards_with_icons_only_have_no_ability():
    assert ability("eddard_stark") is None and ability(None) is None
    assert ability("catelyn_stark", "after_combat") is None and ability("catelyn_stark", "combat_strength") is not None
