"""The Iron Bank's twelve loans (section 9.7): one test per card, bought through the Iron Bank order."""

from __future__ import annotations

import pytest
from rules.helpers import answers, of, phases, put, reasons, run, units  # noqa: F401

from adjudicator.engine.cards.loans import LOANS, first_choice
from adjudicator.engine.events.bank import (
    ImprovementPlaced,
    SpymasterDone,
    SpymasterLooked,
    UnitsNotPlaced,
    UnitsPlaced,
)
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import IronBank, Located, SpymasterChoice
from adjudicator.game.state import GameState
from mother_of_dragons.bank_helpers import at_consolidate, bank_game

pytestmark = pytest.mark.usefixtures("phases")


def buying(loan: str, power: int = 20) -> GameState:
    """Stark, with a ship and its Iron Bank order in Bay of Ice, Winterfell and White Harbor, and
    ``loan`` in the left slot (cost 1)."""
    s = at_consolidate(bank_game())
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "winterfell", "stark", "footman")
    put(s, "white_harbor", "stark", "footman")
    s.loan_slots = [loan, "", ""]
    s.houses["stark"].power = power
    s.houses["stark"].supply = 6
    return s


def buy(s: GameState, **choices: object):
    loan = s.loan_slots[0]
    return run(s, *answers("stark", IronBank(area="bay_of_ice", loan=loan, **choices)))  # type: ignore[arg-type]


def test_every_loan_has_an_ability():
    assert set(LOANS) == set(CARDS.loans)


def test_customs_officer_takes_10_power():
    t = buy(buying("customs_officer", power=3)).state
    assert t.houses["stark"].power == 3 - 1 + 10 and t.houses["stark"].loans == ["customs_officer"]


def test_expert_artificer_puts_a_crown_then_takes_8_power():
    t = buy(buying("expert_artificer", power=3), areas=("white_harbor",)).state
    assert t.area("white_harbor").improvements == ["+power"] and t.houses["stark"].power == 3 - 1 + 8


def test_full_host_places_a_footman_a_knight_a_siege_engine_and_a_ship():
    s = buying("full_host")
    placed = (Located(area="winterfell", unit="knight"), Located(area="white_harbor", unit="siege_engine"),
              Located(area="bay_of_ice", unit="ship"))
    step = buy(s, units=placed)  # the footman fits somewhere: refused
    assert any("still has 1 footman" in r and "ruling 219" in r for r in reasons(step, "stark"))
    step = buy(s, units=(*placed, Located(area="karhold", unit="footman")))
    assert any("do not control Karhold" in r for r in reasons(step, "stark"))
    t = buy(s, units=(*placed, Located(area="winterfell", unit="footman"))).state
    assert units(t, "winterfell") == ["footman", "footman", "knight"] and units(t, "bay_of_ice") == ["ship", "ship"]
    assert units(t, "white_harbor") == ["footman", "siege_engine"]


def test_loyal_maester_puts_barrels_on_two_different_land_areas():
    s = buying("loyal_maester")
    assert any("different" in r for r in reasons(buy(s, areas=("winterfell", "winterfell")), "stark"))
    t = buy(s, areas=("winterfell", "the_reach")).state
    assert t.area("winterfell").improvements == ["+supply"] and t.area("the_reach").improvements == ["+supply"]


def test_master_at_arms_improves_two_castles_into_strongholds():
    s = buying("master_at_arms")
    assert any("no castle" in r for r in reasons(buy(s, areas=("winterfell", "white_harbor")), "stark"))  # a stronghold
    t = buy(s, areas=("white_harbor", "harrenhal")).state
    board = t.board()
    assert t.effective_area("white_harbor", board).fortification == "stronghold"
    assert t.effective_area("harrenhal", board).fortification == "stronghold"


def test_pyromancer_degrades_a_castle_and_adds_a_crown_or_a_barrel():
    s = buying("pyromancer")
    assert any("crown or barrel" in r for r in reasons(buy(s, areas=("harrenhal",)), "stark"))
    t = buy(s, areas=("harrenhal",), option="barrel").state
    assert t.area("harrenhal").improvements == ["-castle", "+supply"]
    assert not t.effective_area("harrenhal", t.board()).has_castle


def test_savvy_steward_puts_a_barrel_and_moves_supply_up_one():
    s = buying("savvy_steward")
    s.houses["stark"].supply = before = 3
    t = buy(s, areas=("winterfell",)).state
    assert t.area("winterfell").improvements == ["+supply"] and t.houses["stark"].supply == before + 1


def test_sea_raiders_places_a_footman_and_three_ships():
    s = buying("sea_raiders")
    t = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="bay_of_ice", unit="ship", count=2),
                      Located(area="port_of_winterfell", unit="ship"))).state
    assert units(t, "bay_of_ice") == ["ship"] * 3 and units(t, "port_of_winterfell") == ["ship"]
    step = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="sunset_sea", unit="ship", count=3)))
    assert any("none of yours" in r for r in reasons(step, "stark"))


def test_siege_engineers_places_a_footman_and_two_siege_engines():
    t = buy(buying("siege_engineers"), units=(Located(area="winterfell", unit="footman"),
                                             Located(area="winterfell", unit="siege_engine", count=2))).state
    assert units(t, "winterfell") == ["footman", "footman", "siege_engine", "siege_engine"]


def test_spymaster_shows_its_buyer_the_top_two_cards_of_a_westeros_deck_then_places_them():
    s = buying("spymaster")
    deck = list(s.westeros_decks["2"])
    step = buy(s, option="2")
    looked = of(step.events, SpymasterLooked)
    assert looked and looked[0].cards == tuple(deck[:2]) and looked[0].visible_to == "stark"
    req = next(r for r in step.requests if r.house == "stark")
    assert req.kind == "spymaster" and req.context == {"deck": 2, "cards": deck[:2]}
    bad = run(step.state, *answers("stark", SpymasterChoice(top=(1,))))
    assert any("ruling 225" in r for r in reasons(bad, "stark"))
    done = run(step.state, *answers("stark", SpymasterChoice(top=(2,), bottom=(1,))))
    assert done.state.westeros_decks["2"] == [deck[1], *deck[2:], deck[0]]
    assert of(done.events, SpymasterDone)[0].visible_to == "public"
    kept = run(step.state, deadline=True).state  # MD14's default: both back on top as they lay
    assert kept.westeros_decks["2"][: len(deck)] == deck


def test_the_faceless_men_destroy_a_knight_and_a_footman_in_two_areas():
    s = buying("the_faceless_men")
    put(s, "the_reach", "lannister", "knight")
    put(s, "dornish_marches", "baratheon", "footman")
    step = buy(s, units=(Located(area="the_reach", unit="knight"),))
    assert any("footman too" in r for r in reasons(step, "stark"))
    t = buy(s, units=(Located(area="the_reach", unit="knight"), Located(area="dornish_marches", unit="footman"))).state
    assert units(t, "the_reach") == [] and units(t, "dornish_marches") == []


def test_vanguard_cavalry_places_three_knights():
    t = buy(buying("vanguard_cavalry"), units=(Located(area="winterfell", unit="knight", count=2),
                                              Located(area="white_harbor", unit="knight"))).state
    assert units(t, "winterfell") == ["footman", "knight", "knight"]


def test_first_choice_gives_a_legal_answer_for_every_loan():
    for card in sorted(LOANS):
        s = buying(card)
        got = first_choice(s, s.board(), "stark", "bay_of_ice", card)
        assert got is not None, card
        assert buy(s, areas=got.areas, units=got.units, option=got.option).state.houses["stark"].loans == [card]


def test_ruling_219_a_loans_units_never_go_where_another_house_stands():
    s = buying("vanguard_cavalry")
    put(s, "the_reach", "lannister", "footman")
    step = buy(s, units=(Located(area="the_reach", unit="knight", count=3),))
    assert any("another house's units" in r and "ruling 219" in r for r in reasons(step, "stark"))
    assert units(step.state, "the_reach") == ["footman"] and step.state.houses["stark"].loans == []


def test_ruling_219_units_that_fit_nowhere_are_not_placed_and_the_buyer_is_told():
    """Was silent: a robot's Sea Raiders placed 1 footman and 2 ships, and no line said why the third
    ship was missing (it fitted nowhere within supply)."""
    s = buying("vanguard_cavalry")
    for area in ("karhold", "the_stony_shore", "castle_black", "widows_watch"):  # 4 of Stark's 5 knights
        put(s, area, "stark", "knight")
    step = buy(s, units=(Located(area="winterfell", unit="knight"),))
    assert units(step.state, "winterfell") == ["footman", "knight"]
    (left,) = of(step.events, UnitsNotPlaced)
    assert (left.house, left.units) == ("stark", ("knight", "knight"))
    assert left.describe() == ("Stark cannot place 2 knights (the loan Vanguard Cavalry): no area can take them now "
                               "(unit limits, supply or areas, ruling 219).")
    t = buy(buying("vanguard_cavalry"), units=(Located(area="winterfell", unit="knight", count=3),))
    assert not of(t.events, UnitsNotPlaced)  # all placed: nothing to tell


def test_M106_a_player_with_exactly_the_slots_cost_takes_the_loan():
    s = buying("customs_officer", power=7)
    s.loan_slots = ["", "", "customs_officer"]  # the right slot: 7 power
    t = run(s, *answers("stark", IronBank(area="bay_of_ice", loan="customs_officer"))).state
    assert t.houses["stark"].loans == ["customs_officer"] and t.houses["stark"].power == 0 + 10


def test_ruling_219_R250_a_loan_places_no_fourth_ship_in_a_port():
    s = buying("sea_raiders")
    put(s, "port_of_winterfell", "stark", "ship", "ship", "ship")
    step = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="bay_of_ice", unit="ship", count=2),
                         Located(area="port_of_winterfell", unit="ship")))
    assert any("Port of Winterfell already holds 3 ships" in r and "R250" in r for r in reasons(step, "stark"))
    assert units(step.state, "port_of_winterfell") == ["ship"] * 3 and step.state.houses["stark"].loans == []


def test_ruling_219_a_loan_never_places_a_dragon():
    assert not [c for c, loan in CARDS.loans.items() if "dragon" in (loan.units or {})]
    step = buy(buying("full_host"), units=(Located(area="winterfell", unit="dragon"),))
    assert any("Full Host places 1 footman, 1 knight, 1 siege engine, 1 ship; not another dragon" in r
               for r in reasons(step, "stark"))
    assert step.state.houses["stark"].loans == []


def test_ruling_260_the_box_holds_15_improvement_tokens_and_a_loans_improvement_is_lost_without_one():
    s = buying("expert_artificer", power=3)
    lands = [a for a, x in s.board().areas.items() if x.kind == "land" and a not in ("white_harbor", "winterfell")]
    for area in lands[:14]:
        s.area_mut(area).improvements.append("+supply")
    step = buy(s, areas=("white_harbor",))  # the 15th token
    t = step.state
    assert t.area("white_harbor").improvements == ["+power"] and t.houses["stark"].power == 3 - 1 + 8
    assert [e.describe() for e in of(step.events, ImprovementPlaced)] == [
        "White Harbor receives a power improvement (the loan Expert Artificer)."]
    s.area_mut(lands[14]).improvements.append("+supply")  # all 15 on the board
    t = buy(s, areas=("white_harbor",)).state
    assert t.area("white_harbor").improvements == [] and t.houses["stark"].power == 3 - 1 + 8
    assert t.houses["stark"].loans == ["expert_artificer"]


def siege_engineers_for_stark(**units: str) -> GameState:
    """Stark buys Siege Engineers (1 footman, 2 siege engines); ``units`` puts more Stark units."""
    s = buying("siege_engineers")
    for area, unit in units.items():
        put(s, area, "stark", *unit.split())
    return s


def test_ruling_219_a_loans_siege_engine_goes_on_land_and_the_buyer_hears_where_it_went():
    s = siege_engineers_for_stark()
    step = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="bay_of_ice", unit="siege_engine", count=2)))
    assert reasons(step, "stark") == ["a siege engine goes on land, not into Bay of Ice (ruling 219)"]
    step = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="winterfell", unit="siege_engine", count=2)))
    assert [e.describe() for e in of(step.events, UnitsPlaced)] == [
        "Stark places 1 footman in Winterfell (the loan Siege Engineers).",
        "Stark places 1 siege engine in Winterfell (the loan Siege Engineers).",
        "Stark places 1 siege engine in Winterfell (the loan Siege Engineers).",
    ]


def test_R011_a_loan_places_no_siege_engine_beyond_the_houses_two():
    s = siege_engineers_for_stark(karhold="siege_engine", the_stony_shore="siege_engine")
    step = buy(s, units=(Located(area="winterfell", unit="footman"), Located(area="white_harbor", unit="siege_engine")))
    assert reasons(step, "stark") == ["you have no siege engine left to place (R011)"]


def test_R238_a_loans_siege_engine_that_would_exceed_supply_is_refused():
    """Supply 0 allows two armies of 2: Winterfell's 2 footmen and White Harbor's footman and siege
    engine are two; a siege engine more in Winterfell would make it 3."""
    s = siege_engineers_for_stark(winterfell="footman", white_harbor="siege_engine")
    s.houses["stark"].supply = 0
    step = buy(s, units=(Located(area="winterfell", unit="siege_engine"),))
    assert reasons(step, "stark") == ["a siege engine more in Winterfell would exceed your supply (R238)"]
