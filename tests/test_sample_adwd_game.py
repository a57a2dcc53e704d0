"""The A Dance with Dragons sample game (samples/adwd-game), beside the base and Mother of Dragons
ones: replayed from scratch with the real rules, parser and reports, every report compared byte for byte.

After a deliberate change, rebuild ``samples/adwd-game/expected/`` with
``python samples/game/make_sample.py --sample samples/adwd-game --approve`` and read the difference before committing it.
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

SAMPLE = sample_dir("adwd-game")
EXPECTED = SAMPLE / "expected"


played = sample_played("adwd-game", "adwd-sample")


def test_adwd_sample_reports_and_receipts_match_the_approved_copies(played):
    root, _ = played
    assert_matches_approved(root, EXPECTED)


def test_adwd_sample_is_the_scenario_of_six_houses_six_rounds_and_its_own_cards(played):
    root, results = played
    game, _ = sample_plan(SAMPLE)
    assert game["expansion"] == "a-dance-with-dragons"
    assert tomllib.loads((root / "game.toml").read_text())["game"]["expansion"] == "a-dance-with-dragons"
    state = tomllib.loads((root / "state.toml").read_text())
    assert state["variant"] == "a-dance-with-dragons" and len(state["houses_in_play"]) == 6
    assert all(r.exit_status == 0 for r in results), "every sample file is accepted"
    for report in reports_of(root).glob("[0-9]*/*.txt"):
        assert "A Dance with Dragons: six players, six rounds" in report.read_text(), report


def test_adwd_sample_plays_two_whole_rounds_and_round_twos_westeros_phase(played):
    root, results = played
    steps = [s for r in results for s in r.steps]
    for part in ("-r1-action", "-r2-westeros", "-r2-action"):
        assert any(part in s for s in steps), part
    assert steps[-1].endswith("-r3-westeros")
    events = _events(root)
    assert [e["card"] for e in events if e["type"] == "WesterosChoiceMade"] == ["dark_wings_dark_words"]
    assert [e["bids"] for e in events if e["type"] == "BidsRevealed"] == [
        [["lannister", 0], ["tyrell", 0], ["greyjoy", 0], ["stark", 3], ["baratheon", 1], ["martell", 0]]]
    assert any(e["type"] == "WildlingAttackResolved" and e["nights_watch_won"] for e in events)


def test_adwd_sample_shows_margaery_tyrell_and_euron_crows_eye_at_highgarden(played):
    events = _events(played[0])
    highgarden = next(e for e in events if e["type"] == "CombatResolved" and e["area"] == "highgarden")
    assert (highgarden["attacker_card"], highgarden["defender_card"]) == ("euron_crows_eye_adwd", "margaery_tyrell_adwd")
    assert highgarden["attacker_total"] == 2 and highgarden["winner"] == "tyrell", "Margaery: the attacker's final is 2"
    assert ["card:euron_crows_eye_adwd", 4] in highgarden["attacker_strength"], "no +1: Tyrell is below on Fiefdoms"


def test_adwd_sample_shows_stannis_baratheon_and_ramsay_bolton_at_winterfell(played):
    events = _events(played[0])
    removed = [(e["area"], e["house"], e["token"]) for e in events
               if e["type"] == "CombatOrderRemoved" and e["cause"] == "Stannis Baratheon"]  # fmt: skip
    assert removed == [("white_harbor", "stark", "support+0")], "unsupported Stannis removes Stark's support"
    winterfell = next(e for e in events if e["type"] == "CombatResolved" and e["area"] == "winterfell")
    assert (winterfell["attacker_card"], winterfell["defender_card"]) == ("stannis_baratheon_adwd", "ramsay_bolton")
    assert ["ability:ramsay_bolton", 1] in winterfell["defender_strength"] and winterfell["winner"] == "stark"
    lost = [e["units"] for e in events if e["type"] == "UnitsDestroyed" and e["area"] == "winterfell"]
    assert lost == [["footman", "footman", "knight"]], "Ramsay's three swords"


def test_adwd_sample_answers_ser_ilyn_payne_and_reek_ahead_in_the_action_files(played):
    events = _events(played[0])
    crackclaw = next(e for e in events if e["type"] == "CombatResolved" and e["area"] == "crackclaw_point")
    assert (crackclaw["attacker_card"], crackclaw["winner"]) == ("ser_ilyn_payne", "lannister")
    destroyed = [(e["area"], e["house"], e["units"]) for e in events if e["type"] == "UnitsDestroyed"]
    assert ("the_reach", "tyrell", ["footman"]) in destroyed, "Ser Ilyn Payne's footman outside the combat"
    shore = next(e for e in events if e["type"] == "CombatResolved" and e["area"] == "the_stony_shore")
    assert (shore["attacker_card"], shore["defender_card"], shore["winner"]) == ("reek", "asha_greyjoy_adwd", "greyjoy")
    returned = [e["cards"] for e in events if e["type"] == "HandReturned" and e["house"] == "stark"]
    assert returned == [["ramsay_bolton"], ["reek"]], "Reek brings Ramsay back, then comes back himself"
    lines = [ln for p in (SAMPLE / "turns").rglob("*.txt") for ln in p.read_text().splitlines()]
    assert "ser ilyn payne: destroy footman in The Reach" in lines and "reek: return" in lines


def test_DD14_the_sample_game_replays_byte_for_byte(played, capsys: pytest.CaptureFixture[str]):
    assert_replays_byte_for_byte(played[0], capsys)


def test_adwd_sample_run_again_changes_nothing(played):
    assert_second_run_changes_nothing(played[0])
