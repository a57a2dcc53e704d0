"""Loan answers no decision can use, refused as soon as the file arrives rather than left to expire
at the end of the round (ruling 161): units for unpaid interest (M109, M110) named by the wrong
house or for a house that owes nothing, and Spymaster's placing (ruling 225) from a house that
cannot be looking."""

from __future__ import annotations

from rules.helpers import entry, of, put

from adjudicator.engine.core.context import PoolEntry
from adjudicator.engine.events import AnswersExpired, AnswerUnusable
from adjudicator.engine.events.bank import InterestDue
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import iron_bank
from adjudicator.engine.rules.lapsed import lapsed
from adjudicator.folder.check import check_turn_file
from adjudicator.game.commands import InterestLosses, Located, SpymasterChoice
from adjudicator.game.state import GameState
from adjudicator.turnfile.parser import parse_turn_file
from mother_of_dragons.bank_helpers import at_consolidate, bank_game


def westeros_start(debtor_power: int = 1) -> tuple[GameState, str, str]:
    """Round 3 begins: a debtor with two loans and ``debtor_power``; who chooses its losses (M110)."""
    s = bank_game(bare=False)
    s.round, s.phase, s.step = 3, "westeros", ""
    blade = s.holder("fiefdoms")
    debtor = next(h for h in s.players() if h != blade)
    s.houses[debtor].loans, s.houses[debtor].power = ["customs_officer", "spymaster"], debtor_power
    return s, debtor, iron_bank.chooser(s, debtor)


def losses(s: GameState, debtor: str) -> InterestLosses:
    area, unit = next((a, u.type) for a, u in s.units_of(debtor))
    return InterestLosses(debtor=debtor, removals=(Located(area=area, unit=unit),))


def refusals(events: list[object], house: str) -> list[str]:
    return [e.reason for e in of(events, AnswerUnusable) if e.house == house]


def test_M110_interest_losses_named_by_a_house_that_does_not_choose_them_are_refused_at_once():
    s, debtor, who = westeros_start()
    other = next(h for h in s.players() if h not in (debtor, who))
    step = advance(s, [entry(other, losses(s, debtor), round=3)])
    [why] = refusals(step.events, other)
    assert f"only {who.title()}" in why and "M110" in why and "ruling 256" in why
    assert [(r.kind, r.house) for r in step.requests][:1] == [("interest", who)]  # the chooser is still asked
    assert not [a for a in step.state.answers if a["house"] == other]  # and the refused line is gone


def test_M109_interest_losses_for_a_house_that_holds_no_loan_are_refused_at_once():
    s, debtor, who = westeros_start()
    clean = next(h for h in s.players() if h != debtor and not s.houses[h].loans)
    step = advance(s, [entry(who, losses(s, clean), round=3)])
    [why] = refusals(step.events, who)
    assert f"{clean.title()} holds no loan" in why and "M109" in why


def test_M109_a_vassal_owes_no_interest():
    s, _, who = westeros_start()
    vassal = s.vassals[0]
    s.houses[vassal].loans = ["full_host"]  # taken while it was a player (ruling 262)
    step = advance(s, [entry(who, losses(s, vassal), round=3)])
    [why] = refusals(step.events, who)
    assert f"{vassal.title()} is a vassal" in why and "M067" in why


def test_M110_the_choosers_right_answer_is_still_taken():
    s, debtor, who = westeros_start()
    before = len(s.units_of(debtor))
    step = advance(s, [entry(who, losses(s, debtor), round=3)])
    assert not refusals(step.events, who) and len(step.state.units_of(debtor)) == before - 1


def test_M109_interest_losses_sent_after_interest_was_collected_are_not_needed():
    s, debtor, who = westeros_start(debtor_power=5)  # pays in full: nothing is asked, and the cards come next
    step = advance(s, [entry(who, losses(s, debtor), round=3)])
    expired = [e for e in of(step.events, AnswersExpired) if e.house == who]
    assert expired and "M109" in expired[0].reason and "first thing in the Westeros Phase" in expired[0].reason


def test_M103_no_interest_without_the_iron_bank():
    s, debtor, who = westeros_start()
    s.loan_slots, s.loan_deck = [], []
    s.houses[debtor].loans = []
    step = advance(s, [entry(who, losses(s, debtor), round=3)])
    [why] = refusals(step.events, who)
    assert "M103" in why and "ruling 205" in why


def test_M110_maester_check_tells_the_wrong_house_on_its_line():
    s, debtor, who = westeros_start()
    s.game_id = "doc"
    other = next(h for h in s.players() if h not in (debtor, who))
    area, unit = next((a, u.type) for a, u in s.units_of(debtor))
    text = f"game doc · house {other} · round 3 · westeros · seq 1\ninterest for {debtor}: destroy {unit} in {area}\n"
    checked = check_turn_file(parse_turn_file(text, variant=s.variant), s, house=other)
    [problem] = [str(p) for p in checked.problems]
    assert problem.startswith("<turn>:2:1:") and f"only {who.title()}" in problem and "M110" in problem


# --- Spymaster's placing, from a house that cannot be looking (ruling 225) ---------------------------


def test_ruling_225_a_spymaster_answer_no_decision_can_use_is_refused_at_once():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "lannisport", "lannister", "footman", order="consolidate")
    s.loan_slots = ["full_host", "customs_officer", "spymaster"]  # Spymaster face up: Stark may still buy it
    step = advance(s, [entry("stark", SpymasterChoice(top=(1, 2))), entry("lannister", SpymasterChoice(top=(2, 1)))])
    assert not refusals(step.events, "stark")
    [why] = refusals(step.events, "lannister")
    assert "no Iron Bank order left to buy Spymaster" in why and "M117" in why
    s.loan_slots = ["full_host", "customs_officer", ""]  # bought already, or not turned up this round
    step = advance(s, [entry("stark", SpymasterChoice(top=(1, 2)))])
    [why] = refusals(step.events, "stark")
    assert "Spymaster is not face up" in why and "ruling 225" in why


def test_ruling_254_a_spymaster_answer_sent_ahead_counts_the_loan_turned_up_as_the_round_begins():
    s = bank_game()
    s.round, s.phase, s.step = 3, "westeros", ""
    s.loan_slots, s.loan_deck = ["full_host", "customs_officer", "sea_raiders"], ["spymaster", "vanguard_cavalry"]
    assert lapsed(s, s.board(), PoolEntry.from_dict(entry("stark", SpymasterChoice(top=(1, 2)), round=3))) is None
    s.loan_deck = ["vanguard_cavalry", "spymaster"]  # still face down this round
    verdict = lapsed(s, s.board(), PoolEntry.from_dict(entry("stark", SpymasterChoice(top=(1, 2)), round=3)))
    assert verdict is not None and "not face up" in verdict[1]


# --- who chooses, and what the chooser may name (M110, ruling 256) ----------------------------------


def test_M110_ruling_256_the_next_player_on_fiefdoms_chooses_the_losses_of_the_blade_holder():
    """Stark holds the Blade and owes; Baratheon, next on Fiefdoms, chooses. A vassal placed between
    them is passed over (M065: a vassal never holds or passes on the Blade)."""
    s, _, _ = westeros_start()
    s.tracks["fiefdoms"] = ["stark", "greyjoy", "baratheon", "lannister", "tyrell", "martell", "arryn", "targaryen"]
    s.houses["stark"].loans, s.houses["stark"].power = ["customs_officer"], 0
    s.houses["lannister"].loans = []
    step = advance(s, [])
    assert [(r.kind, r.house, r.context["debtor"]) for r in step.requests] == [("interest", "baratheon", "stark")]


def test_M065_M110_a_vassal_first_on_fiefdoms_leaves_the_choice_to_the_highest_player():
    """Varys put the vassal Greyjoy first on Fiefdoms: the Blade, and the choice of Lannister's losses,
    stay with Stark, the highest player."""
    s, debtor, _ = westeros_start()
    s.tracks["fiefdoms"] = ["greyjoy", "stark", "baratheon", "lannister", "tyrell", "martell", "arryn", "targaryen"]
    step = advance(s, [])
    assert [(r.kind, r.house, r.context["debtor"]) for r in step.requests] == [("interest", "stark", debtor)]


def test_M067_a_vassal_holding_a_loan_pays_no_interest_and_loses_nothing():
    s, debtor, _ = westeros_start(debtor_power=5)  # the player pays in full
    vassal = s.vassals[0]
    s.houses[vassal].loans = ["full_host"]  # taken while it was a player (ruling 262)
    before = sorted((a, u.type) for a, u in s.units_of(vassal))
    step = advance(s, [])
    assert [(e.house, e.owed, e.paid) for e in of(step.events, InterestDue)] == [(debtor, 2, 2)]
    assert not [r for r in step.requests if r.kind == "interest"]
    assert sorted((a, u.type) for a, u in step.state.units_of(vassal)) == before


def test_M110_losses_naming_units_the_debtor_does_not_have_are_refused_and_the_chooser_asked_again():
    s, debtor, who = westeros_start()  # Lannister owes 2 with 1 power: 1 unit goes
    wrong = [InterestLosses(debtor=debtor, removals=(Located(area="lannisport", unit="siege_engine"),)),
             InterestLosses(debtor=debtor, removals=(Located(area="stoney_sept", unit="footman", count=2),)),
             InterestLosses(debtor=debtor, removals=(Located(area="winterfell", unit="footman"),))]
    told = []
    for cmd in wrong:  # one answer at a time: a newer answer of the house replaces an older one
        step = advance(s, [entry(who, cmd, round=3)])
        told += refusals(step.events, who)
        assert [(r.kind, r.house) for r in step.requests] == [("interest", who)]
    assert told == [
        "Lannister has 0 siege engine in Lannisport, not 1 (M110)",
        "Lannister is 1 power short: name exactly 1 of its units (M110)",
        "Lannister has 0 footman in Winterfell, not 1 (M110)",
    ]
    assert len(step.state.units_of(debtor)) == len(s.units_of(debtor))


def test_M110_two_removals_in_one_area_count_together():
    """Lannister has one footman in Lannisport: 'footman in Lannisport, footman in Lannisport' names two."""
    s, debtor, who = westeros_start(debtor_power=0)  # owes 2: 2 units go
    twice = InterestLosses(debtor=debtor, removals=(Located(area="lannisport", unit="footman"),) * 2)
    step = advance(s, [entry(who, twice, round=3)])
    assert refusals(step.events, who) == ["Lannister has 1 footman in Lannisport, not 2 (M110)"]
    right = InterestLosses(debtor=debtor, removals=(Located(area="lannisport", unit="footman"),
                                                    Located(area="lannisport", unit="knight")))
    step = advance(step.state, [entry(who, right, round=3)])
    assert not refusals(step.events, who)
    assert sorted(u.type for _, u in step.state.units_of(debtor)) == ["footman", "ship", "ship"]
