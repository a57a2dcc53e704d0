"""The card registry: every House card with a text has exactly one ability, at the right moment."""

from __future__ import annotations

import pytest

from adjudicator.engine.cards.registry import (
    ABILITIES,
    KEPT_AFTER_COMBAT,
    REMOVED_AFTER_COMBAT,
    WHEN,
    ability,
    house_card,
    kept,
    kept_after_combat,
    load,
    removal,
    removed_after_combat,
)
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


def test_a_card_registered_once_at_its_moment_gets_its_ability(monkeypatch):
    load()
    monkeypatch.delitem(ABILITIES, "catelyn_stark")  # put back after the test
    fn = lambda view, me: iter(())  # noqa: E731
    house_card("catelyn_stark", fn, when="combat_strength")
    assert ABILITIES["catelyn_stark"].fn is fn and ABILITIES["catelyn_stark"].when == "combat_strength"


@pytest.mark.parametrize(("register", "registered", "find", "card", "what"), [
    (removed_after_combat, REMOVED_AFTER_COMBAT, removal, "khal_drogo", "removal"),  # Mother of Dragons
    (kept_after_combat, KEPT_AFTER_COMBAT, kept, "reek", "return"),  # A Dance with Dragons
])
def test_a_card_leaving_the_game_or_going_back_to_the_hand_after_its_combat_is_registered_once(
        monkeypatch, register, registered, find, card, what):
    load()
    monkeypatch.delitem(registered, card)  # put back after the test
    fn = lambda view, me: True  # noqa: E731
    register(card, fn)
    assert find(card) is fn
    with pytest.raises(ValueError) as twice:
        register(card, fn)
    assert str(twice.value) == f"house card {card!r} unknown or its {what} registered twice"
    with pytest.raises(ValueError) as unknown:
        register("ned_stark", fn)
    assert str(unknown.value) == f"house card 'ned_stark' unknown or its {what} registered twice"
    assert find("ned_stark") is None


def test_cards_with_icons_only_have_no_ability():
    assert ability("eddard_stark") is None and ability(None) is None
    assert ability("catelyn_stark", "after_combat") is None and ability("catelyn_stark", "combat_strength") is not None
