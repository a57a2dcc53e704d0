"""M069 for every way units are placed (rulings 243, 284): a commander never puts a unit into an
area one of its vassals controls, by a loan, mustering (consolidate power, Westeros and wildling
cards), a Westeros IV card, or a vassal card. Marches and retreats have their own tests in
test_vassal_orders.py, dragons in test_dragon_family.py.

An area held by a vassal's power token alone is the case M069 adds: units of two houses never share
an area anyway.
"""

from __future__ import annotations

import pytest
from rules.helpers import answers, phases, put, reasons, run, units  # noqa: F401
from rules.test_combat_harness import Assault, play

from adjudicator.engine.core.bank import placement_problem
from adjudicator.engine.core.context import NeedAnswers
from adjudicator.engine.core.mustering import check_muster, mustering_areas, ship_places, westeros_mustering_areas
from adjudicator.engine.core.vassals import vassal_area_problem
from adjudicator.engine.events.bank import UnitsPlaced
from adjudicator.game.commands import CardChoice, IronBank, Located, MusterAction, Retreat, WesterosChoice
from adjudicator.game.state import GameState, Unit
from mother_of_dragons.bank_helpers import at_consolidate, bank_game
from mother_of_dragons.test_westeros_iv import T, resolve, tgame
from mother_of_dragons.vassal_battles import battle, fight, for_vassal, rig, vassal_plays  # noqa: F401

M069 = "(M069, ruling 243)"


def stark_commands_greyjoy_and_tyrell() -> GameState:
    """Stark buys a loan at consolidate power (a ship and its Iron Bank order in Bay of Ice, Winterfell
    and White Harbor its own); it commands Greyjoy (home Pyke, with its port) and Tyrell, whose power
    token alone holds Karhold."""
    s = at_consolidate(bank_game())
    s.commanders = {"greyjoy": "stark", "tyrell": "stark", "martell": "lannister", "arryn": "baratheon"}
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    put(s, "winterfell", "stark", "footman")
    put(s, "white_harbor", "stark", "footman")
    s.area_mut("karhold").power_token = "tyrell"
    s.houses["stark"].power, s.houses["stark"].supply = 20, 6
    return s


def buy(s: GameState, loan: str, *placed: Located):
    s.loan_slots = [loan, "", ""]
    return run(s, *answers("stark", IronBank(area="bay_of_ice", loan=loan, units=placed)))


def test_M069_a_loan_never_places_units_in_an_area_its_buyer_s_vassal_controls(phases):
    s = stark_commands_greyjoy_and_tyrell()
    board = s.board()
    put(s, "ironmans_bay", "greyjoy", "ship")
    for area, unit in (("karhold", "knight"), ("port_of_pyke", "ship"), ("ironmans_bay", "ship")):
        assert M069 in str(placement_problem(s, board, "stark", area, unit)), area
    step = buy(s, "vanguard_cavalry", Located(area="karhold", unit="knight", count=3))
    assert any("Karhold is controlled by Tyrell, your vassal this round" in r and M069 in r
               for r in reasons(step, "stark"))
    assert units(step.state, "karhold") == [] and step.state.houses["stark"].loans == []
    step = buy(s, "sea_raiders", Located(area="winterfell", unit="footman"), Located(area="port_of_pyke", unit="ship"),
               Located(area="bay_of_ice", unit="ship", count=2))
    assert any("Port of Pyke" in r and M069 in r for r in reasons(step, "stark"))
    t = buy(s, "vanguard_cavalry", Located(area="winterfell", unit="knight", count=3)).state  # its own areas: placed
    assert units(t, "winterfell") == ["footman", "knight", "knight", "knight"]


def test_M069_a_vassal_nobody_commands_is_no_one_s_family_for_a_loan(phases):
    s = stark_commands_greyjoy_and_tyrell()
    s.commanders = {}  # before the Planning phase's choices: the plain rule of ruling 219 refuses it
    why = str(placement_problem(s, s.board(), "stark", "karhold", "knight"))
    assert "you do not control Karhold" in why and "M069" not in why


def test_M069_a_commander_never_musters_in_its_vassal_s_castle_nor_ships_into_its_vassal_s_sea():
    s = stark_commands_greyjoy_and_tyrell()
    board = s.board()
    assert "pyke" not in mustering_areas(s, board, "stark") + westeros_mustering_areas(s, board, "stark")
    why = check_muster(s, board, "stark", "pyke", (MusterAction(unit="footman"),), 2)
    assert why is not None and "Pyke is controlled by Greyjoy, your vassal this round" in why and M069 in why
    put(s, "the_shivering_sea", "greyjoy", "ship")  # beside Winterfell, where Stark musters
    assert "the_shivering_sea" not in ship_places(s, board, "stark", "winterfell")
    why = check_muster(s, board, "stark", "winterfell", (MusterAction(unit="ship", to="the_shivering_sea"),), 2)
    assert why is not None and "The Shivering Sea" in why and M069 in why
    s.area_mut("the_shivering_sea").units = [Unit("lannister", "ship")]  # another family's ships: the plain rule (R075)
    why = check_muster(s, board, "stark", "winterfell", (MusterAction(unit="ship", to="the_shivering_sea"),), 2)
    assert why is not None and "holds enemy ships" in why and "M069" not in why


def test_M069_playing_with_fire_never_names_an_area_a_vassal_holds_by_its_power_token():
    """Ruling 284: a vassal's power token controls its area (004:1123), so the area is not the
    uncontrolled one Playing With Fire names: the Targaryen player cannot make a commander place a
    unit in its own vassal's area, nor any player in a vassal's."""
    s = tgame()
    vassal = next(v for v in s.vassals if v != T)
    s.commanders = {vassal: "stark"}
    s.area_mut("the_twins").power_token = vassal
    assert vassal_area_problem(s, s.board(), "stark", "the_twins") is not None
    with pytest.raises(NeedAnswers):  # refused, so the card asks again
        resolve(s, "playing_with_fire", WesterosChoice(card="playing_with_fire", option="stark+the_twins"))
    s.commanders = {}  # commanded by nobody: still its area, not an uncontrolled one
    with pytest.raises(NeedAnswers):
        resolve(s, "playing_with_fire", WesterosChoice(card="playing_with_fire", option="lannister+the_twins"))
    assert s.area("the_twins").units == []


def test_M069_fire_made_flesh_returns_no_dragon_to_pentos_while_targaryen_s_vassal_holds_it():
    s = tgame()
    vassal = next(v for v in s.vassals if v != T)
    s.commanders = {vassal: T}
    s.area_mut("norvos").units = [u for u in s.area("norvos").units if u.type != "dragon"]  # a dragon to bring back
    s.area_mut("pentos").units = [Unit(vassal, "footman")]
    s.area_mut("pentos").garrison = 0
    assert vassal_area_problem(s, s.board(), T, "pentos") is not None
    with pytest.raises(NeedAnswers):  # "muster" is not among its choices
        resolve(s, "fire_made_flesh", WesterosChoice(card="fire_made_flesh", option="muster"))
    assert s.area("pentos").units == [Unit(vassal, "footman")]


def test_M069_jon_connington_never_places_the_vassal_s_knight_in_its_commander_s_area(battle, monkeypatch):
    """Highgarden, Tyrell's home, is held by Lannister, its commander: the knight goes only where
    Tyrell's army retreated (M045 for the vassal, as M069 for the commander)."""
    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = fight("stark", "tyrell", area="the_reach", origin="blackwater", attack=("3 knights",),
                  areas='highgarden = { units = ["lannister footman"] }')
    b = battle(state, Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "catelyn_stark"), vassal_plays("tyrell", "jon_connington"),
          for_vassal("tyrell", Retreat(areas=("dornish_marches",))))
    assert b.requests()[0].context["choices"] == ["dornish_marches", "no"]
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", area="highgarden")))
    assert not b.done and b.units("highgarden", "tyrell") == []  # refused: asked again
    b.run(for_vassal("tyrell", CardChoice(card="jon_connington", area="dornish_marches")))
    assert b.done and [(e.house, e.area) for e in b.of(UnitsPlaced)] == [("tyrell", "dornish_marches")]

