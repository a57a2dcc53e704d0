"""What the Iron Bank asks a house and tells it (M103-M110), word for word as its report shows it:
the request of an Iron Bank order with the loans it can afford, the refusals, and the events."""

from __future__ import annotations

import pytest
from rules.helpers import answers, of, phases, put, reasons, run  # noqa: F401

from adjudicator.engine.core.common import PowerChanged, UnitsDestroyed
from adjudicator.engine.core.context import NeedAnswers
from adjudicator.engine.events import OnlyOption
from adjudicator.engine.events.bank import LoansShifted, LoanTaken, NoLoanTaken
from adjudicator.engine.rules import iron_bank
from adjudicator.game.commands import Consolidate, IronBank, Located
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState
from mother_of_dragons.bank_helpers import at_consolidate, bank_game, ctx_for

pytestmark = pytest.mark.usefixtures("phases")


def stark_at_the_bank(power: int, *, consolidate: bool = False) -> GameState:
    """Stark's Iron Bank order in Bay of Ice (and a footman in Winterfell, with a consolidate power
    order there if asked); the slots hold Spymaster, Full Host and Customs Officer (1, 4 and 7)."""
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "winterfell", "stark", "footman", order="consolidate" if consolidate else None)
    s.houses["stark"].power = power
    return s


def asked(s: GameState):
    return next(r for r in run(s).requests if r.house == "stark")


def test_M104_M106_the_order_offers_no_loan_and_each_loan_the_house_can_pay_for_exactly_or_more():
    req = asked(stark_at_the_bank(4))  # exactly Full Host's 4
    assert (req.kind, req.key.rsplit(".", 2)[1:]) == ("consolidate", ["consolidate", "stark"])
    assert req.prompt == "resolve your Iron Bank order: take one face-up loan, or none"
    assert req.context == {"iron_bank_orders": ["bay_of_ice"], "loan_slots": ["spymaster", "full_host", "customs_officer"],
                           "loan_costs": [1, 4, 7]}
    assert [o.loan for o in req.options] == [None, "spymaster", "full_host"]  # Customs Officer costs 7
    assert req.default == IronBank(area="bay_of_ice")  # MD13: no loan


def test_M104_an_empty_slot_offers_nothing_and_the_loans_after_it_still_count():
    s = stark_at_the_bank(7)
    s.loan_slots = ["", "full_host", "customs_officer"]
    assert [o.loan for o in asked(s).options] == [None, "full_host", "customs_officer"]


def test_M104_MD13_an_iron_bank_order_left_unanswered_takes_no_loan():
    step = run(stark_at_the_bank(4), deadline=True)
    assert [e.describe() for e in of(step.events, NoLoanTaken)] == [
        "Stark resolves its Iron Bank order in Bay of Ice and takes no loan."]
    assert step.state.houses["stark"].loans == [] and step.state.area("bay_of_ice").order is None


def test_M104_an_order_that_can_take_no_loan_resolves_without_asking_but_two_such_orders_ask_which():
    step = run(stark_at_the_bank(0))
    assert not [r for r in step.requests if r.house == "stark"]
    assert [e.house for e in of(step.events, OnlyOption)] == ["stark"] and of(step.events, NoLoanTaken)
    s = stark_at_the_bank(0)
    put(s, "the_shivering_sea", "stark", "ship", order="iron_bank")
    req = asked(s)  # which order resolves first is the house's choice (ruling 259)
    assert req.context["iron_bank_orders"] == ["bay_of_ice", "the_shivering_sea"]
    assert [o.area for o in req.options] == ["bay_of_ice", "the_shivering_sea"]


def test_M117_consolidate_power_and_iron_bank_orders_are_one_choice_whose_default_consolidates():
    s = stark_at_the_bank(4, consolidate=True)
    req = asked(s)
    assert req.prompt == "resolve one of your consolidate power or Iron Bank orders"
    assert req.context == {"consolidate_orders": {"winterfell": "consolidate"}, "may_muster": {},
                           "iron_bank_orders": ["bay_of_ice"], "loan_slots": ["spymaster", "full_host", "customs_officer"]}
    assert req.options[:2] == (Consolidate(area="winterfell"), IronBank(area="bay_of_ice"))
    assert [o.loan for o in req.options[1:]] == [None, "spymaster", "full_host"]
    assert req.default == Consolidate(area="winterfell")


def test_M103_M104_M106_a_loan_refused_is_told_word_for_word():
    s = stark_at_the_bank(4)
    told = reasons(run(s, *answers("stark", IronBank(area="bay_of_ice", loan="vanguard_cavalry"))), "stark")
    assert told == ["Vanguard Cavalry is not face up in the Iron Bank (its slots hold Spymaster, Full Host, "
                    "Customs Officer) (M104)"]
    s.loan_slots = ["", "", ""]
    told = reasons(run(s, *answers("stark", IronBank(area="bay_of_ice", loan="spymaster", option="1"))), "stark")
    assert told == ['the only legal answer, "iron bank in Bay of Ice: no loan", was taken without asking; '
                    "Spymaster is not face up in the Iron Bank (its slots hold nothing) (M104)"]
    s = stark_at_the_bank(4)
    told = reasons(run(s, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer"))), "stark")
    assert told == ["Customs Officer in slot 3 costs 7 power and you have 4 (M106, M105)"]
    classic = at_consolidate(new_mod_game(["stark", "lannister", "baratheon", "tyrell"], seed="bank"))
    put(classic, "bay_of_ice", "stark", "ship", order="iron_bank")
    step = run(classic, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert reasons(step, "stark") == [
        'the only legal answer, "iron bank in Bay of Ice: no loan", was taken without asking; '
        "the Iron Bank is in play only with Targaryen; its order takes no loan here (M103, ruling 205)"]
    step = run(classic, *answers("stark", IronBank(area="bay_of_ice")))
    assert [e.describe() for e in of(step.events, NoLoanTaken)] == [
        "Stark resolves its Iron Bank order in Bay of Ice and takes no loan (the Iron Bank is not in play without "
        "Targaryen, ruling 205)."]


def test_M104_M105_a_loan_bought_names_its_slot_and_cost():
    step = run(stark_at_the_bank(9), *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert [e.describe() for e in of(step.events, LoanTaken)] == [
        "Stark resolves its Iron Bank order in Bay of Ice and takes the loan Customs Officer from slot 3 for 7 power."]


def test_M107_M108_the_shift_names_the_loan_going_under_the_deck():
    s = bank_game()
    ctx = ctx_for(s)
    iron_bank.shift_loans(ctx)
    assert [e.describe() for e in of(ctx.events, LoansShifted)] == [
        "The Iron Bank's loans move one slot left. Spymaster goes back under the loan deck. The slots now hold: "
        "Full Host, Customs Officer, Vanguard Cavalry."]


def test_M109_M110_interest_paid_and_units_lost_name_their_cause():
    s = bank_game()
    put(s, "winterfell", "stark", "footman", "knight")
    s.houses["stark"].loans, s.houses["stark"].power = ["customs_officer", "spymaster"], 1
    ctx = ctx_for(s, deadline=True)
    iron_bank.collect_interest(ctx)
    assert [e.describe() for e in of(ctx.events, PowerChanged) if e.house == "stark"] == [
        "Stark loses 1 power (interest to the Iron Bank); now 0."]
    assert [e.describe() for e in of(ctx.events, UnitsDestroyed)] == [
        "Stark loses 1 footman in Winterfell (unpaid interest to the Iron Bank, M110)."]


def test_M110_the_chooser_is_asked_for_the_debtors_units_by_name():
    s = bank_game()
    put(s, "winterfell", "stark", "footman", "knight")
    s.houses["stark"].loans, s.houses["stark"].power = ["customs_officer", "spymaster"], 0
    blade = iron_bank.chooser(s, "stark")
    with pytest.raises(NeedAnswers) as waiting:
        iron_bank.collect_interest(ctx_for(s))
    (req,) = waiting.value.requests
    assert (req.house, req.key.rsplit(".", 2)[1:]) == (blade, ["interest", blade])
    assert req.prompt == "destroy 2 of Stark's units for the interest it could not pay"
    assert req.context == {"debtor": "stark", "short": 2}
    assert req.default.removals == (Located(area="winterfell", unit="footman"), Located(area="winterfell", unit="knight"))
