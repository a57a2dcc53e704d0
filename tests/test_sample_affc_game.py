"""The A Feast for Crows sample game (samples/affc-game), beside the base, Mother of Dragons and A Dance
with Dragons ones: replayed from scratch with the real rules, parser and reports, every report compared
byte for byte.

After a deliberate change, rebuild ``samples/affc-game/expected/`` with
``python samples/game/make_sample.py --sample samples/affc-game --approve`` and read the difference before committing it.
"""

from __future__ import annotations

import tomllib

import pytest
from clikit import reports_of
from test_sample_game import (
    _events,
    assert_matches_approved,
    assert_replays_byte_for_byte,
    assert_second_run_changes_nothing,
    sample_played,
)

from adjudicator.robots.demo import sample_dir, sample_plan

SAMPLE = sample_dir("affc-game")
EXPECTED = SAMPLE / "expected"


played = sample_played("affc-game", "affc-sample")


def test_affc_sample_reports_and_receipts_match_the_approved_copies(played):
    root, _ = played
    assert_matches_approved(root, EXPECTED)


def test_affc_sample_is_the_scenario_of_four_houses_with_arryn(played):
    root, results = played
    game, _ = sample_plan(SAMPLE)
    assert game["expansion"] == "a-feast-for-crows"
    assert tomllib.loads((root / "game.toml").read_text())["game"]["expansion"] == "a-feast-for-crows"
    state = tomllib.loads((root / "state.toml").read_text())
    assert state["variant"] == "a-feast-for-crows"
    assert sorted(state["houses_in_play"]) == ["arryn", "baratheon", "lannister", "stark"]
    assert all(r.exit_status == 0 for r in results), "every sample file is accepted"
    for report in reports_of(root).glob("[0-9]*/*.txt"):
        assert "A Feast for Crows: four players, objectives to 7 points, ten rounds" in report.read_text(), report


def test_affc_sample_plays_round_one_and_round_two_and_stops_at_round_three_s_westeros(played):
    _, results = played
    steps = [s for r in results for s in r.steps]
    for part in ("-r1-action", "-r2-westeros", "-r2-planning", "-r2-action"):
        assert any(part in s for s in steps), part
    assert steps[-1].endswith("-r3-westeros")


def test_affc_sample_keeps_three_objectives_a_house_before_the_first_orders(played):
    events = _events(played[0])
    kept = [(e["house"], e["returned"]) for e in events if e["type"] == "ObjectivesKept"]
    assert kept == [("baratheon", 2), ("lannister", 2), ("arryn", 2), ("stark", 2)]
    lines = [ln for p in (SAMPLE / "turns" / "01-r1-planning").glob("*.txt") for ln in p.read_text().splitlines()]
    assert "keep objectives: The Throne, Crossing Guard, Hold Court" in lines


def test_affc_sample_scores_objectives_after_the_action_phase(played):
    events = _events(played[0])
    scored = [(e["house"], e["objective"], e["total"]) for e in events if e["type"] == "ObjectiveScored"]
    assert scored == [
        ("lannister", "special_lannister", 1), ("arryn", "special_arryn", 1),
        ("arryn", "crossing_guard", 2), ("stark", "take_the_black", 1),
        ("arryn", "special_arryn", 3), ("lannister", "special_lannister", 2), ("arryn", "the_throne", 4),
    ]
    drawn = [e["house"] for e in events if e["type"] == "ObjectiveDrawn"]
    assert drawn == ["arryn", "stark", "arryn"], "a house that scored one draws back to three (F044)"


def test_affc_sample_s_hands_of_objectives_stay_out_of_the_public_reports(played):
    root, _ = played
    for folder in sorted(reports_of(root).glob("[0-9]*")):
        assert "Hold Court" not in (folder / "public.txt").read_text(), folder  # kept by Arryn, never scored
        assert "Hold Court" in (folder / "arryn.txt").read_text(), folder
        for house in ("stark", "lannister", "baratheon"):
            assert "Hold Court" not in (folder / f"{house}.txt").read_text(), (folder, house)


def test_affc_sample_draws_deck_one_of_the_scenario(played):
    events = _events(played[0])
    deck_one = [e["card"] for e in events if e["type"] == "WesterosCardRevealed" and e["deck"] == 1]
    assert deck_one == ["the_burden_of_power", "rally_the_men"]
    choices = [(e["card"], e["house"], e["option"]) for e in events if e["type"] == "WesterosChoiceMade"]
    assert ("the_burden_of_power", "baratheon", "wildlings") in choices, "the Iron Throne's choice (F023)"
    threat = [(e["old"], e["new"]) for e in events
              if e["type"] == "WildlingThreatMoved" and e["cause"] == "The Burden of Power"]  # fmt: skip
    assert threat == [(2, 0)]


def test_affc_sample_shows_littlefinger_paying_arryn_at_the_twins(played):
    events = _events(played[0])
    twins = next(e for e in events if e["type"] == "CombatResolved" and e["area"] == "the_twins")
    assert (twins["attacker_card"], twins["defender_card"], twins["winner"]) == ("eddard_stark", "littlefinger", "stark")
    paid = [e["amount"] for e in events if e["type"] == "PowerChanged" and e["cause"] == "Littlefinger"]
    assert paid == [8], "twice Eddard Stark's printed 4, the Eyrie still Arryn's"


def test_affc_sample_bids_name_arryn_as_every_house(played):
    root, _ = played
    text = next(reports_of(root).glob("0003-*")).joinpath("public.txt").read_text()
    assert "Arryn......6" in text and "arryn......" not in text


def test_affc_sample_replays_byte_for_byte(played, capsys: pytest.CaptureFixture[str]):
    assert_replays_byte_for_byte(played[0], capsys)


def test_affc_sample_run_again_changes_nothing(played):
    assert_second_run_changes_nothing(played[0])
