"""Verdicts in the reports (ruling 160): the private report's section, the JSON answers, HOUSE.json.

A verdict is the house's own business: its answers may be secret, so they appear in its private
report only, never in the public report or another house's.
"""

from __future__ import annotations

import json

from adjudicator.engine.core.context import pool_entry
from adjudicator.engine.events import AnswersExpired, AnswerUnusable, AnswerUsed
from adjudicator.game.commands import Bid
from adjudicator.game.setup import new_game
from adjudicator.reports.report import render_report
from adjudicator.reports.verdicts import answer_verdicts, private_json

HOUSES = ["stark", "lannister", "baratheon"]
BLADE = "the Valyrian Steel Blade has already been used this round (R093)"


def position():
    state = new_game(HOUSES, seed="verdict-reports")
    state.answers = [pool_entry(id="stark/1.planning/seq2/L4", house="stark", round=1,
                                command=Bid(track="fiefdoms", amount=2), text="bid fiefdoms 2")]
    events = [
        AnswerUsed(house="stark", decision="bid for the Iron Throne track", answer="bid iron throne 1",
                   ids=("stark/1.planning/seq1/L2",)),
        AnswerUnusable(house="stark", answer="use blade", reason=BLADE, ids=("stark/1.planning/seq1/L3",)),
        AnswersExpired(house="stark", answers=("tie-break: stark, lannister",), ids=("stark/1.planning/seq1/L5",)),
        AnswerUnusable(house="lannister", answer="bid fiefdoms 9", reason="a bid of 9 is more than your 5 (R082)",
                       ids=("lannister/1.planning/seq1/L2",)),
    ]
    return state, events


def test_ruling_160_each_answer_of_the_house_with_its_status_and_rule_and_no_other_houses():
    state, events = position()
    got = {v["id"]: (v["status"], v["rule"], v["held"]) for v in answer_verdicts(state, events, "stark")}
    assert got == {"stark/1.planning/seq1/L2": ("used", "", False),
                   "stark/1.planning/seq1/L3": ("refused", "R093", False),
                   "stark/1.planning/seq1/L5": ("expired", "ruling 160", False),
                   "stark/1.planning/seq2/L4": ("waiting", "", True)}
    assert [v["id"] for v in answer_verdicts(state, events, "lannister")] == ["lannister/1.planning/seq1/L2"]


def test_ruling_160_a_refusal_then_the_end_of_the_round_stays_a_refusal():
    state, _ = position()
    events = [AnswerUnusable(house="stark", answer="use blade", reason=BLADE, ids=("stark/x",)),
              AnswersExpired(house="stark", answers=("use blade",), ids=("stark/x",))]
    (v,) = [v for v in answer_verdicts(state, events, "stark") if v["id"] == "stark/x"]
    assert (v["status"], v["rule"]) == ("refused", "R093")


def test_ruling_160_the_private_report_lists_the_verdicts_and_the_public_report_none():
    state, events = position()
    text = render_report(state, events, viewer="stark")
    section = " ".join(text.split("YOUR ANSWERS JUDGED IN THIS STEP")[1].split("YOUR DECISIONS")[0].split())
    assert "use blade: refused: the Valyrian Steel Blade has already been used this round" in section
    assert "(R093)" in section and "from seq 1, line 3, of round 1 planning" in section
    assert "tie-break: stark, lannister: not needed" in section and "ruling 160" in section
    assert "bid iron throne 1: used" in section and "bid fiefdoms 2" not in section  # waiting: its own section
    html = render_report(state, events, viewer="stark", fmt="html")
    assert "Your answers judged in this step" in html and "(R093)" in html
    for viewer in (None, "lannister"):
        for fmt in ("text", "html", "json"):
            page = render_report(state, events, viewer=viewer, fmt=fmt)
            assert "use blade" not in page and "tie-break: stark" not in page, (viewer, fmt)


def test_ruling_160_the_json_reports_carry_the_answers_of_their_own_house_only():
    state, events = position()
    mine = json.loads(render_report(state, events, viewer="stark", fmt="json"))
    assert {a["id"]: a["status"] for a in mine["answers"]} == {
        "stark/1.planning/seq1/L2": "used", "stark/1.planning/seq1/L3": "refused",
        "stark/1.planning/seq1/L5": "expired", "stark/1.planning/seq2/L4": "waiting"}
    assert "answers" not in json.loads(render_report(state, events, fmt="json"))
    part = json.loads(private_json(state, events, "lannister", [{"house": "stark", "kind": "bid"},
                                                               {"house": "lannister", "kind": "bid"}]))
    assert part["format"] == "maester-private-report" and part["viewer"] == "lannister"
    assert [a["rule"] for a in part["answers"]] == ["R082"]
    assert [e["house"] for e in part["events"]] == ["lannister"] and part["requests"] == [
        {"house": "lannister", "kind": "bid"}]


def test_ruling_162_the_refusal_s_rule_is_the_first_of_its_closing_brackets():
    e = AnswerUnusable(house="stark", answer="use blade", reason="only a special raid may remove it (R139, R136)")
    assert e.rule == "R139" and e.describe().endswith("(R139, R136).")
    named = AnswerUnusable(house="stark", answer="x", reason="too late (ruling 8)", rule="R130")
    assert named.reason == "too late (R130, ruling 8)", "a rule given is named first in the sentence"
    assert AnswerUnusable(house="stark", answer="x", reason="no rule here").rule == ""
