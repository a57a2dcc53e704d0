"""A Dance with Dragons: the checklist's rules (docs/rules-a-dance-with-dragons.md), one test each,
and the card data against the facts it was copied from."""

from __future__ import annotations

from collections import Counter

from adjudicator.engine.cards.registry import ABILITIES, kept, load
from adjudicator.game.cards import CARDS, HOUSE_DECKS
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.position import load_position
from adjudicator.game.position_dump import dump_position
from adjudicator.game.setup import new_game
from adjudicator.robots.simulate import simulate
from adjudicator.turnfile.names import CARD_CHOICES, lookup

SIX = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
ADWD = CARDS.of_set("adwd")


def test_the_42_cards_are_seven_a_house_with_the_facts_numbers():
    assert len(ADWD) == 42 and Counter(CARDS.house_cards[c].house for c in ADWD) == dict.fromkeys(SIX, 7)
    # every deck's printed strengths, as the sources give them: 4, 3, 2, 2, 1, 1, 0
    for h in SIX:
        assert sorted((CARDS.house_cards[c].strength for c in CARDS.hand_of(h, HOUSE_DECKS["adwd"])), reverse=True) == [4, 3, 2, 2, 1, 1, 0]
    rows = {c: (CARDS.house_cards[c].strength, CARDS.house_cards[c].swords, CARDS.house_cards[c].fortifications)
            for c in ADWD}
    assert rows["roose_bolton_adwd"] == (4, 1, 0) and rows["ser_jaime_lannister_adwd"] == (4, 1, 1)
    assert rows["victarion_greyjoy_adwd"] == (3, 2, 0) and rows["areo_hotah_adwd"] == (3, 0, 2)
    assert rows["nymeria_sand_adwd"] == (0, 1, 1) and rows["mace_tyrell_adwd"] == (4, 1, 1)
    assert rows["ser_davos_seaworth_adwd"] == (1, 1, 1) and rows["randyll_tarly_adwd"] == (3, 2, 0)


def test_every_adwd_card_with_a_text_has_its_ability_and_each_choice_its_answers():
    load()
    with_text = {c for c in ADWD if CARDS.house_cards[c].has_ability}
    assert {c for c in ABILITIES if CARDS.house_cards[c].set == "adwd"} == with_text and len(with_text) == 20
    assert kept("reek") is not None
    optional = {c for c in with_text if CARDS.house_cards[c].optional}
    assert optional == {c.removeprefix("house_card:") for c in CARD_CHOICES if c.removeprefix("house_card:") in ADWD}


def test_DD01_the_deck_is_a_table_setting_that_a_base_game_never_shows():
    base = new_game(SIX, seed="dd")
    assert "house_cards" not in base.options and "house_cards" not in dump_position(base)
    dance = new_game(SIX, seed="dd", house_cards="adwd")
    again = load_position(dump_position(dance))
    assert again.house_deck() == "adwd" and again.houses["stark"].hand == dance.houses["stark"].hand


def test_DD02_each_base_house_holds_its_seven_adwd_cards_stark_the_boltons():
    s = new_game(SIX, seed="dd", house_cards="adwd")
    assert {c for h in SIX for c in s.houses[h].hand} == set(ADWD)
    assert "ramsay_bolton" in s.houses["stark"].hand and "reek" in s.houses["stark"].hand


def test_DD03_in_mother_of_dragons_the_setting_is_the_alternate_set():
    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="dd", house_cards="adwd")
    assert set(s.houses["arryn"].hand) == set(CARDS.of_set("arryn_affc"))
    assert set(s.houses["targaryen"].hand) == set(CARDS.of_set("targaryen_b"))
    assert HOUSE_DECKS["adwd"] == {"adwd", "arryn_affc", "targaryen_b"}


def test_DD04_a_card_is_named_by_its_printed_name_in_the_games_deck():
    for card in ADWD:
        name = CARDS.house_cards[card].name
        assert lookup("house_card", name, "classic+adwd").id == card, name


def test_DD05_every_choice_of_the_deck_has_written_answers():
    for card in ADWD:
        if CARDS.house_cards[card].optional:
            assert f"house_card:{card}" in CARD_CHOICES, card


def test_DD06_robot_games_deal_the_decks_with_every_invariant_kept():
    hands: list[set[str]] = []
    r = simulate(4, 3, text=False, house_cards="adwd", rounds=3,
                 on_step=lambda s: hands.append({c for h in s.players() for c in s.houses[h].hand + s.houses[h].discards}))
    assert r.problems == [] and hands and all(held <= set(ADWD) for held in hands)


def test_DD07_every_report_of_a_game_dealing_the_decks_says_so_in_its_header():
    from adjudicator.reports.report import render_report

    dance = new_game(SIX, seed="dd", house_cards="adwd")
    for fmt in ("text", "html"):
        for viewer in (None, "stark"):
            report = render_report(dance, [], viewer=viewer, fmt=fmt)
            said = report.replace("&#39;", "'").find("Played with A Dance with Dragons' house cards")
            ends = report.find("Public report: the same" if viewer is None else "or your eyes only")
            assert said > 0 and (viewer is not None or said < ends), (fmt, viewer)
            assert "Played with" not in render_report(new_game(SIX, seed="dd"), [], viewer=viewer, fmt=fmt)
    text = render_report(dance, [])
    assert max(len(line) for line in text.splitlines()) <= 80
