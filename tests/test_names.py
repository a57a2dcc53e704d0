"""Forgiving names: every printed name resolves to its id; aliases, prefixes, misspellings, ambiguity."""

from __future__ import annotations

import pytest

from adjudicator.game.board import HOUSES, Board
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import ORDER_TOKENS
from adjudicator.turnfile.names import (
    CARD_CHOICES,
    FORM_EXAMPLES,
    ORDER_TEXT,
    TRACK_NAMES,
    UNIT_NAMES,
    display_name,
    edit_distance,
    lookup,
    normalise,
    order_token,
)

BOARD = Board.classic()


@pytest.mark.parametrize("area", sorted(BOARD.areas))
def test_every_area_name_and_id_resolve_to_the_area(area: str) -> None:
    name = BOARD.area(area).name
    for text in (name, name.upper(), name.lower(), area, area.replace("_", " ")):
        m = lookup("area", text)
        assert (m.id, m.fuzzy) == (area, False), text


@pytest.mark.parametrize("card", CARDS.of_set("base"))
def test_every_house_card_name_resolves(card: str) -> None:
    name = CARDS.house_cards[card].name
    assert lookup("house_card", name).id == card
    assert lookup("card", name).id == f"house_card:{card}"


def test_every_westeros_and_wildling_card_name_resolves() -> None:
    for c in (c for c in CARDS.westeros if c.deck <= 3):  # deck IV is Mother of Dragons' (tests/mother_of_dragons)
        box = "a-feast-for-crows" if c.set == "affc" else "classic"  # its own deck I (F020)
        assert lookup("westeros_card", c.name, box).id == c.id
        assert lookup("card", c.name, box).id == f"westeros_card:{c.id}"
    for c in CARDS.wildling_cards.values():
        assert lookup("wildling_card", c.name).id == c.id
        assert lookup("card", c.name).id == f"wildling_card:{c.id}"


def test_houses_unit_types_and_tracks_resolve() -> None:
    for h in HOUSES:
        assert lookup("house", h.title()).id == h
        assert lookup("house", f"House {h}").id == h
    for unit, (singular, plural) in UNIT_NAMES.items():
        variant = "mother-of-dragons" if unit == "dragon" else None  # a dragon only in an expansion game
        assert lookup("unit", singular, variant).id == unit
        assert lookup("unit", plural, variant).id == unit
    for track, name in TRACK_NAMES.items():
        assert lookup("track", name).id == track


@pytest.mark.parametrize(("text", "unit"), [
    ("f", "footman"), ("footman", "footman"), ("footmen", "footman"), ("k", "knight"), ("knights", "knight"),
    ("s", "siege_engine"), ("siege", "siege_engine"), ("Siege Engines", "siege_engine"), ("ship", "ship"),
    ("ships", "ship"),
])
def test_unit_type_aliases(text: str, unit: str) -> None:
    assert lookup("unit", text).id == unit


def test_case_quotes_apostrophes_and_a_leading_the_do_not_matter() -> None:
    for text in ("KING'S LANDING", "king’s landing", "kings landing", "Kings-Landing", "the king's landing"):
        assert lookup("area", text).id == "kings_landing", text
    assert lookup("area", "Eyrie").id == "the_eyrie"
    assert lookup("westeros_card", "Dark Wings Dark Words").id == "dark_wings_dark_words"
    assert lookup("wildling_card", "king beyond the wall").id == "a_king_beyond_the_wall"


def test_listed_aliases() -> None:
    assert lookup("area", "KL").id == "kings_landing"
    assert lookup("area", "Redwyne Straits").id == "redwyne_straights"
    assert lookup("area", "Lannisport port").id == "port_of_lannisport"
    assert lookup("house_card", "ned").id == "eddard_stark"
    assert lookup("house_card", "jaime").id == "ser_jaime_lannister"  # a first name no other card has
    assert lookup("westeros_card", "Feast of Crows").id == "feast_for_crows"  # the 003 seed's spelling


def test_a_unique_prefix_of_three_letters_is_accepted_without_warning() -> None:
    m = lookup("area", "Harr")
    assert (m.id, m.fuzzy) == ("harrenhal", False)
    assert lookup("area", "lannis").id == "lannisport"  # not Port of Lannisport's alias "lannisport port"


def test_a_prefix_shorter_than_three_letters_is_not_read() -> None:
    assert lookup("area", "Wi").id is None


def test_an_ambiguous_prefix_lists_the_candidates() -> None:
    m = lookup("area", "Kings")
    assert m.id is None
    assert m.candidates == ("King's Landing", "Kingswood")


def test_a_misspelling_within_two_letters_is_accepted_with_a_warning() -> None:
    m = lookup("area", "Winterfall")
    assert (m.id, m.fuzzy, m.display) == ("winterfell", True, "Winterfell")
    assert lookup("house", "Lanister").id == "lannister"
    assert lookup("unit", "fotman").id == "footman"


def test_a_short_misspelling_is_accepted_only_one_letter_away() -> None:
    assert lookup("house", "stak").id == "stark"  # four letters: one edit
    assert lookup("unit", "shp").id is None  # three letters: too short to guess


def test_a_misspelling_further_away_is_refused_with_suggestions() -> None:
    m = lookup("area", "Riverlands")
    assert m.id is None and not m.candidates
    assert m.suggestions == ("Riverrun",)


def test_nothing_close_gives_no_suggestion() -> None:
    m = lookup("area", "Qarth")
    assert (m.id, m.candidates, m.suggestions) == (None, (), ())


def test_lookup_never_raises_for_odd_text() -> None:
    for text in ("", " ", "\u0000", "'", "the", "a", "-" * 50, "ﬁ" * 10):
        lookup("area", text)
        lookup("card", text)


def test_normalise() -> None:
    assert normalise("  The Kings’  LANDING ") == "kings landing"
    assert normalise("Dark Wings, Dark Words") == "dark wings dark words"
    assert normalise("A Throne of Blades") == "throne of blades"


def test_edit_distance_stops_early_past_the_limit() -> None:
    assert edit_distance("winterfell", "winterfall", 2) == 1
    assert edit_distance("kitten", "sitting", 2) == 3  # limit + 1
    assert edit_distance("abc", "abc", 0) == 0


def test_display_names_print_areas_and_cards_by_their_printed_names() -> None:
    assert display_name("area", "kings_landing") == "King's Landing"
    assert display_name("house_card", "euron_crows_eye") == "Euron Crow's Eye"
    assert display_name("unit", "siege_engine") == "siege engine"
    assert display_name("track", "kings_court") == "king's court"


@pytest.mark.parametrize(("kind", "modifier", "special", "token"), [
    ("march", -1, False, "march-1"), ("march", 0, False, "march+0"), ("march", 1, False, "march+1"),
    ("march", None, True, "march+1"), ("defense", None, False, "defense+1"), ("defense", None, True, "defense+2"),
    ("defense", 2, False, "defense+2"), ("support", None, False, "support+0"), ("support", 1, False, "support+1"),
    ("raid", None, False, "raid"), ("raid", None, True, "raid*"), ("consolidate", None, True, "consolidate*"),
])
def test_order_tokens(kind: str, modifier: int | None, special: bool, token: str) -> None:
    assert order_token(kind, modifier, special) == (token, "")


@pytest.mark.parametrize(("kind", "modifier", "special"), [
    ("march", 2, False), ("march", 0, True), ("defense", 0, False), ("support", -1, False), ("raid", 1, False),
])
def test_orders_that_do_not_exist_are_refused_with_a_reason(kind: str, modifier: int | None, special: bool) -> None:
    token, reason = order_token(kind, modifier, special)
    assert token is None and reason


def test_R112_every_order_token_has_a_printed_form() -> None:
    assert set(ORDER_TEXT) == set(ORDER_TOKENS)


def test_every_choice_form_has_an_example_and_every_choice_card_exists() -> None:
    for key, forms in CARD_CHOICES.items():
        kind, card = key.split(":")
        shown = display_name(kind, card)
        # deck IV: the expansion's; A Dance with Dragons' cards: a game dealing them (ruling 370)
        assert card in (lookup(kind, shown).id, lookup(kind, shown, "mother-of-dragons").id,
                        lookup(kind, shown, "classic+adwd").id, lookup(kind, shown, "mother-of-dragons+adwd").id,
                        lookup(kind, shown, "a-feast-for-crows").id)
        assert forms <= set(FORM_EXAMPLES)
