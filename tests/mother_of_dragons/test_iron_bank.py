"""The Iron Bank of Braavos and the base rules the expansion changes (M103-M120): one test per rule.

The loans' own abilities are tested one per card in ``test_loans.py``.
"""

from __future__ import annotations

import pytest
from rules.helpers import answers, at_action, entry, march, of, phases, put, reasons, run, units  # noqa: F401

from adjudicator.engine.core.bank import loan_cost
from adjudicator.engine.core.braavos import sync_braavos
from adjudicator.engine.core.common import supply_count
from adjudicator.engine.core.context import NeedAnswers
from adjudicator.engine.events.action import RaidResolved
from adjudicator.engine.events.bank import (
    BraavosTokenTaken,
    InterestDue,
    LoanTaken,
    NoLoanTaken,
    SeaOrdersRemoved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import iron_bank
from adjudicator.game.commands import (
    AssignOrder,
    Consolidate,
    InterestLosses,
    IronBank,
    Located,
    March,
    Move,
    Raid,
    Raven,
    UnitSpec,
)
from adjudicator.game.mod_setup import new_mod_game
from mother_of_dragons.bank_helpers import at_consolidate, bank_game, ctx_for

pytestmark = pytest.mark.usefixtures("phases")


# --- 5. the Iron Bank ------------------------------------------------------------------------------


def test_M103_the_iron_bank_is_in_play_only_with_targaryen():
    s = new_mod_game(["stark", "lannister", "baratheon", "tyrell"], seed="bank")
    assert s.loan_slots == [] and s.loan_deck == []
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    at_consolidate(s)
    step = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert any("M103" in r for r in reasons(step, "stark"))
    step = run(s, *answers("stark", IronBank(area="bay_of_ice")))
    assert of(step.events, NoLoanTaken) and step.state.area("bay_of_ice").order is None  # ruling 205


def test_M104_resolving_the_iron_bank_order_buys_a_face_up_loan_and_keeps_it():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    s.houses["stark"].power = 9
    step = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    t = step.state
    assert of(step.events, LoanTaken)[0].cost == 7
    assert t.houses["stark"].loans == ["customs_officer"] and t.loan_slots == ["spymaster", "full_host", ""]
    assert t.houses["stark"].power == 9 - 7 + 10 and t.area("bay_of_ice").order is None


def test_M104_ruling_255_the_order_may_resolve_without_a_loan():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    step = run(s, *answers("stark", IronBank(area="bay_of_ice")))
    assert of(step.events, NoLoanTaken) and step.state.houses["stark"].loans == []
    assert step.state.loan_slots == ["spymaster", "full_host", "customs_officer"]


def test_M104_a_loan_not_face_up_is_refused():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    s.houses["stark"].power = 20
    step = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="vanguard_cavalry")))
    assert any("not face up" in r and "M104" in r for r in reasons(step, "stark"))


def test_M105_the_slots_cost_1_4_and_7_from_left_to_right():
    s = bank_game()
    board = s.board()
    assert [loan_cost(s, board, "stark", i) for i in range(3)] == [1, 4, 7]


def test_M106_a_player_without_enough_power_cannot_take_the_loan():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    s.houses["stark"].power = 6
    step = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert any("M106" in r and "costs 7" in r for r in reasons(step, "stark"))
    assert step.state.houses["stark"].loans == []


def test_M107_each_round_the_loans_move_one_slot_left_and_the_top_loan_fills_the_right():
    s = bank_game()
    s.loan_slots = ["", "full_host", "customs_officer"]
    iron_bank.shift_loans(ctx_for(s))
    assert s.loan_slots == ["full_host", "customs_officer", "vanguard_cavalry"] and s.loan_deck == ["sea_raiders"]


def test_M108_the_leftmost_loan_goes_face_down_under_the_deck():
    s = bank_game()
    iron_bank.shift_loans(ctx_for(s))
    assert s.loan_slots == ["full_host", "customs_officer", "vanguard_cavalry"]
    assert s.loan_deck == ["sea_raiders", "spymaster"]


def test_M107_ruling_254_an_empty_deck_leaves_the_right_slot_empty():
    s = bank_game()
    s.loan_deck = []
    iron_bank.shift_loans(ctx_for(s))
    assert s.loan_slots == ["full_host", "customs_officer", "spymaster"]  # the leftmost came back under and up
    s.loan_slots, s.loan_deck = ["", "full_host", ""], []
    iron_bank.shift_loans(ctx_for(s))
    assert s.loan_slots == ["full_host", "", ""]


def test_M109_each_player_pays_one_power_per_loan_at_the_start_of_the_westeros_phase():
    s = bank_game(bare=False)
    s.houses["stark"].loans = ["customs_officer", "spymaster"]
    s.houses["lannister"].loans = ["full_host"]
    s.houses["stark"].power, s.houses["lannister"].power = 5, 3
    ctx = ctx_for(s)
    iron_bank.collect_interest(ctx)
    assert (s.houses["stark"].power, s.houses["lannister"].power) == (3, 2)
    assert [(e.house, e.owed, e.paid) for e in of(ctx.events, InterestDue)] == \
        [(h, len(s.houses[h].loans), len(s.houses[h].loans)) for h in s.turn_order() if s.houses[h].loans]


def test_M110_the_blade_holder_destroys_a_unit_of_the_debtor_per_power_short():
    s = bank_game(bare=False)
    blade = s.holder("fiefdoms")
    debtor = next(h for h in s.players() if h != blade)
    s.houses[debtor].loans = ["customs_officer", "spymaster"]
    s.houses[debtor].power = 1
    before = len(s.units_of(debtor))
    ctx = ctx_for(s)
    with pytest.raises(NeedAnswers) as asked:
        iron_bank.collect_interest(ctx)
    req = asked.value.requests[0]
    assert req.house == blade and req.kind == "interest" and req.context == {"debtor": debtor, "short": 1}
    area, unit = next((a, u.type) for a, u in s.units_of(debtor))
    s2 = bank_game(bare=False)
    s2.houses[debtor].loans, s2.houses[debtor].power = ["customs_officer", "spymaster"], 1
    wrong = InterestLosses(debtor=debtor, removals=(Located(area=area, unit=unit, count=2),))
    right = InterestLosses(debtor=debtor, removals=(Located(area=area, unit=unit),))
    ctx = ctx_for(s2, entry(blade, wrong), entry(blade, right))
    iron_bank.collect_interest(ctx)
    assert len(s2.units_of(debtor)) == before - 1 and s2.houses[debtor].power == 0


def test_M110_ruling_256_when_the_debtor_holds_the_blade_the_next_player_on_fiefdoms_chooses():
    s = bank_game(bare=False)
    players = [h for h in s.tracks["fiefdoms"] if not s.is_vassal(h)]
    assert iron_bank.chooser(s, players[0]) == players[1]
    assert iron_bank.chooser(s, players[2]) == players[0]


def test_M110_ruling_256_the_default_takes_the_cheapest_units_first():
    s = bank_game()
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "bay_of_ice", "stark", "ship")
    s.houses["stark"].loans, s.houses["stark"].power = ["a", "b"], 0
    losses = iron_bank.default_losses(s, s.board(), "stark", 2)
    assert [(r.area, r.unit) for r in losses.removals] == [("winterfell", "footman"), ("bay_of_ice", "ship")]
    ctx = ctx_for(s, deadline=True)
    iron_bank.collect_interest(ctx)
    assert units(s, "winterfell") == ["knight"] and units(s, "bay_of_ice") == []


def test_M111_the_first_player_to_defeat_braavos_keeps_its_token():
    s = bank_game()
    assert s.area("braavos").neutral_force == 5 and s.braavos_token is None
    s.area_mut("braavos").neutral_force = None  # defeated by Stark's march
    put(s, "braavos", "stark", "footman")
    ctx = ctx_for(s)
    sync_braavos(ctx)
    assert s.braavos_token == "stark" and of(ctx.events, BraavosTokenTaken)[0].house == "stark"
    s.area_mut("braavos").units.clear()  # Stark marches on: no player controls Braavos, the token is set aside (M113)
    sync_braavos(ctx)
    assert s.braavos_token is None


def test_M113_a_march_into_braavos_takes_the_token_at_once_and_one_leaving_it_empty_sets_it_aside():
    s = at_action(bank_game())
    s.step = "marches"
    s.area_mut("braavos").neutral_force = None  # defeated in an earlier round
    put(s, "braavosian_coastlands", "lannister", "footman", order="march+0")
    step = run(s, *answers("lannister", march("braavosian_coastlands", ("braavos", "footman"))))
    assert step.state.braavos_token == "lannister"
    assert [e.house for e in of(step.events, BraavosTokenTaken)] == ["lannister"]
    s = at_action(step.state)  # the next round's march out of Braavos
    s.step, s.segment = "marches", None
    put(s, "braavos", "lannister", order="march+0")
    step = run(s, entry("lannister", march("braavos", ("norvos", "footman")), round=s.round))
    assert units(step.state, "norvos") == ["footman"] and step.state.braavos_token is None
    assert [e.house for e in of(step.events, BraavosTokenTaken)] == [""]  # set aside (ruling 257)


def test_M112_the_braavos_token_takes_1_off_a_loans_cost_never_below_0_and_not_off_interest():
    s = bank_game()
    s.braavos_token = "stark"
    board = s.board()
    assert [loan_cost(s, board, "stark", i) for i in range(3)] == [0, 3, 6]
    assert [loan_cost(s, board, "lannister", i) for i in range(3)] == [1, 4, 7]
    s.houses["stark"].loans, s.houses["stark"].power = ["customs_officer"], 4
    iron_bank.collect_interest(ctx_for(s))
    assert s.houses["stark"].power == 3


def test_M113_a_player_taking_braavos_takes_the_token_a_vassal_sets_it_aside():
    s = bank_game(["stark", "lannister", "baratheon", "targaryen"])
    s.area_mut("braavos").neutral_force = None
    s.braavos_token = "stark"
    put(s, "braavos", "lannister", "footman")
    sync_braavos(ctx_for(s))
    assert s.braavos_token == "lannister"
    vassal = s.vassals[0]
    s.area_mut("braavos").units.clear()
    put(s, "braavos", vassal, "footman")
    sync_braavos(ctx_for(s))
    assert s.braavos_token is None  # ruling 257


def test_M113_ruling_257_the_token_set_aside_is_reported_with_no_house_taking_it():
    s = bank_game(["stark", "lannister", "baratheon", "targaryen"])
    s.area_mut("braavos").neutral_force = None
    s.braavos_token = "stark"
    put(s, "braavos", s.vassals[0], "footman")  # a vassal takes Braavos: the token is set aside
    ctx = ctx_for(s)
    sync_braavos(ctx)
    [taken] = of(ctx.events, BraavosTokenTaken)
    assert taken.describe() == "The Braavos token is set aside until a player controls Braavos (ruling 257)."


# --- 6. base rules changed -------------------------------------------------------------------------


def test_M114_a_player_places_sea_orders_beside_its_15_orders_but_not_two_of_one():
    s = bank_game()
    for sea in ("bay_of_ice", "the_shivering_sea", "the_narrow_sea"):
        put(s, sea, "stark", "ship")
    put(s, "winterfell", "stark", "footman")
    orders = [AssignOrder(area="bay_of_ice", token="iron_bank"), AssignOrder(area="the_shivering_sea", token="sea_march"),
              AssignOrder(area="the_narrow_sea", token="sea_support"), AssignOrder(area="winterfell", token="defense+1")]
    step = advance(s, answers("stark", *orders), deadline=lambda r: r.kind == "vassal_choice")  # vassals: M032-M038
    placed = {a: o.token for a, o in ((a, st.order) for a, st in step.state.areas.items()) if o and o.house == "stark"}
    if not placed:  # the other houses have no units: Stark's orders are revealed at once
        pytest.fail(f"orders not placed: {reasons(step, 'stark')}")
    assert placed["bay_of_ice"] == "iron_bank" and placed["the_shivering_sea"] == "sea_march"
    s2 = bank_game()
    put(s2, "bay_of_ice", "stark", "ship")
    put(s2, "the_shivering_sea", "stark", "ship")
    step = advance(s2, answers("stark", AssignOrder(area="bay_of_ice", token="iron_bank"),
                               AssignOrder(area="the_shivering_sea", token="iron_bank")),
                   deadline=lambda r: r.kind == "vassal_choice")
    assert any("own only 1" in r and "M114" in r for r in reasons(step, "stark"))


def test_M114_a_classic_game_has_no_sea_orders():
    from rules.helpers import game

    s = game()
    put(s, "bay_of_ice", "stark", "ship")
    step = run(s, *answers("stark", AssignOrder(area="bay_of_ice", token="iron_bank")))
    assert any("no order token 'iron_bank'" in r and "R112" in r for r in reasons(step, "stark"))


def test_M115_a_sea_march_at_sea_is_a_march_order():
    s = at_action(bank_game())
    s.step = "marches"
    put(s, "bay_of_ice", "stark", "ship", order="sea_march")
    step = run(s, *answers("stark", March(origin="bay_of_ice", moves=(Move(units=(UnitSpec("ship"),),
                                                                         destination="sunset_sea"),))))
    assert units(step.state, "sunset_sea", "stark") == ["ship"]


def test_M116_sea_orders_on_land_are_removed_after_the_raven():
    s = bank_game()
    put(s, "winterfell", "stark", "footman")
    put(s, "bay_of_ice", "stark", "ship")
    holder = s.holder("kings_court")
    step = advance(s, [*answers("stark", AssignOrder(area="winterfell", token="sea_support"),
                                AssignOrder(area="bay_of_ice", token="iron_bank")),
                       entry(holder, Raven(action="pass"))], deadline=lambda r: r.kind == "vassal_choice")
    removed = of(step.events, SeaOrdersRemoved)
    assert removed and removed[0].orders == (("winterfell", "stark", "sea_support"),)
    assert step.state.area("winterfell").order is None
    assert step.state.area("bay_of_ice").order is None or step.state.phase == "action"


def test_M117_the_iron_bank_order_resolves_in_the_consolidate_power_cycle_as_the_house_chooses():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "winterfell", "stark", "footman", order="consolidate")
    s.houses["stark"].power = 1
    step = run(s)
    req = next(r for r in step.requests if r.house == "stark")
    assert req.kind == "consolidate" and "Iron Bank" in req.prompt
    assert IronBank(area="bay_of_ice") in req.options and Consolidate(area="winterfell") in req.options
    step = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="spymaster", option="1"),
                           Consolidate(area="winterfell")))
    t = step.state
    assert t.houses["stark"].loans == ["spymaster"] and t.area("winterfell").order is None


def test_M118_the_iron_bank_order_can_be_raided_but_gives_no_power():
    s = at_action(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "sunset_sea", "lannister", "ship", order="raid")
    s.houses["lannister"].power = 3
    step = run(s, *answers("lannister", Raid(origin="sunset_sea", targets=("bay_of_ice",))))
    assert of(step.events, RaidResolved)[0].target_token == "iron_bank"
    assert step.state.area("bay_of_ice").order is None and step.state.houses["lannister"].power == 3


def test_M119_an_improvement_makes_an_area_count_the_icon_for_good():
    s = bank_game()
    put(s, "winterfell", "stark", "footman")
    board = s.board()
    before = supply_count(s, board, "stark")
    s.area_mut("winterfell").improvements = ["+supply"]
    assert supply_count(s, board, "stark") == before + 1
    s.area_mut("seagard").improvements = ["+stronghold"]
    assert s.effective_area("seagard", board).fortification == "stronghold"


def test_M120_a_degradation_makes_an_area_lose_its_printed_icon():
    s = bank_game()
    board = s.board()
    put(s, "white_harbor", "stark", "footman")
    assert s.castles("stark", board) == 2  # Winterfell by its home shield, White Harbor by its footman
    s.area_mut("white_harbor").improvements = ["-castle"]
    assert s.castles("stark", board) == 1 and not s.effective_area("white_harbor", board).has_castle


def test_M115_ruling_207_westeros_bans_touch_a_sea_order_as_the_order_it_names():
    from adjudicator.engine.rules.planning import is_banned

    assert is_banned("sea_support", ["support"]) and is_banned("sea_march", ["march"])
    assert not is_banned("sea_march", ["march+1"])  # Rains of Autumn bans only March +1
    assert not is_banned("iron_bank", ["consolidate"])  # Feast for Crows leaves the Iron Bank order


def test_M117_an_answer_for_another_houses_iron_bank_order_is_refused():
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "sunset_sea", "lannister", "ship")
    s.houses["lannister"].power = 20
    step = run(s, *answers("lannister", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert any("no Iron Bank order in Bay of Ice" in r and "M117" in r for r in reasons(step, "lannister"))
    assert step.state.loan_slots[2] == "customs_officer" and step.state.houses["lannister"].loans == []
