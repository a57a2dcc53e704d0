"""Each of A Feast for Crows' 28 objectives and 4 special objectives: met, and not met (F031-F059;
rulings 406-408)."""

from __future__ import annotations

import pytest

from adjudicator.engine.rules.objective_conditions import OBJECTIVES, SPECIAL_OBJECTIVES, met
from adjudicator.game.state import GameState

from .helpers import cleared, put, setup, token


def meets(state: GameState, house: str, objective: str) -> bool:
    card = SPECIAL_OBJECTIVES[objective.removeprefix("special_")] if objective.startswith("special_") \
        else OBJECTIVES[objective]
    return met(state, state.board(), house, card)


def test_every_objective_has_its_test_here():
    import pathlib

    text = pathlib.Path(__file__).read_text("utf-8")
    missing = [o for o in [*OBJECTIVES, *(f"special_{h}" for h in SPECIAL_OBJECTIVES)] if f"def test_{o}_" not in text]
    assert missing == []


def test_F031_a_condition_is_registered_under_one_name_once():
    from adjudicator.engine.rules.objective_conditions import CONDITIONS, condition

    before = dict(CONDITIONS)
    with pytest.raises(AssertionError, match="control_all"):
        condition("control_all", lambda state, board, house, o: True)
    assert before == CONDITIONS  # the first registration stands


# --- one area or several, controlled ---------------------------------------------------------------


@pytest.mark.parametrize(("objective", "areas"), [
    ("stop_the_storm", ["storms_end"]), ("arbor_gold", ["the_arbor"]), ("take_the_black", ["castle_black"]),
    ("hold_court", ["kings_landing"]), ("pull_the_weeds", ["searoad_marches", "blackwater", "the_reach"]),
    ("a_firm_grip", ["crackclaw_point", "kingswood"]), ("protect_the_neck", ["seagard", "greywater_watch", "flints_finger"]),
    ("a_mountainous_task", ["the_eyrie"]), ("a_riper_fruit", ["winterfell"]),
])
def test_an_objective_of_areas_needs_every_one(objective, areas):
    state = cleared()
    assert not meets(state, "lannister", objective)
    for a in areas[:-1]:
        put(state, "lannister", a)
    assert not meets(state, "lannister", objective)  # all but one
    token(state, "lannister", areas[-1])  # a Power token controls as units do
    assert meets(state, "lannister", objective) and not meets(state, "stark", objective)
    assert OBJECTIVES[objective].areas == tuple(areas)


def test_stop_the_storm_is_worth_3_to_stark_and_nothing_to_baratheon():
    state = put(cleared(), "stark", "storms_end")
    assert meets(state, "stark", "stop_the_storm") and OBJECTIVES["stop_the_storm"].points == {
        "arryn": 1, "baratheon": 0, "lannister": 1, "stark": 3}


def test_arbor_gold_control_of_the_arbor():
    state = cleared()
    assert not meets(state, "arryn", "arbor_gold")
    assert meets(put(state, "arryn", "the_arbor"), "arryn", "arbor_gold") and OBJECTIVES["arbor_gold"].points["arryn"] == 4


def test_take_the_black_control_of_castle_black():
    assert meets(put(cleared(), "baratheon", "castle_black"), "baratheon", "take_the_black")
    assert not meets(cleared(), "stark", "take_the_black")


def test_hold_court_at_the_start_is_lannisters():
    state = setup()
    assert meets(state, "lannister", "hold_court") and not meets(state, "baratheon", "hold_court")
    assert OBJECTIVES["hold_court"].points["stark"] == 4


def test_pull_the_weeds_three_areas_of_the_reach():
    state = setup()
    assert not meets(state, "lannister", "pull_the_weeds")  # Searoad Marches and Blackwater, not The Reach
    assert meets(put(state, "lannister", "the_reach"), "lannister", "pull_the_weeds")


def test_a_firm_grip_crackclaw_point_and_kingswood():
    state = setup()
    assert not meets(state, "baratheon", "a_firm_grip")  # Kingswood only
    assert meets(put(state, "baratheon", "crackclaw_point"), "baratheon", "a_firm_grip")


def test_protect_the_neck_seagard_greywater_watch_and_flints_finger():
    state = setup()
    put(state, "stark", "greywater_watch")
    assert not meets(state, "stark", "protect_the_neck")
    assert meets(put(state, "stark", "flints_finger"), "stark", "protect_the_neck")


def test_a_mountainous_task_the_eyrie_which_arryn_holds_at_the_start():
    state = setup()
    assert meets(state, "arryn", "a_mountainous_task") and OBJECTIVES["a_mountainous_task"].points["arryn"] == 0
    state.area_mut("the_eyrie").units = []
    put(state, "lannister", "the_eyrie", "knight")
    assert meets(state, "lannister", "a_mountainous_task") and not meets(state, "arryn", "a_mountainous_task")


def test_a_riper_fruit_winterfell():
    state = setup()
    assert meets(state, "stark", "a_riper_fruit")  # its home, with its units
    state.area_mut("winterfell").units = []
    assert meets(state, "stark", "a_riper_fruit")  # an empty home area stays its house's (R247)
    put(state, "arryn", "winterfell")
    assert meets(state, "arryn", "a_riper_fruit") and not meets(state, "stark", "a_riper_fruit")


# --- counts against each other house --------------------------------------------------------------


def test_cavalry_charge_all_five_knights():
    state = cleared()
    put(state, "stark", "winterfell", "knight", 4)
    assert not meets(state, "stark", "cavalry_charge")
    put(state, "stark", "the_neck", "knight")
    assert meets(state, "stark", "cavalry_charge") and not meets(state, "arryn", "cavalry_charge")


def test_backdoor_politics_every_other_house_higher_on_the_victory_track():
    state = cleared()
    assert not meets(state, "stark", "backdoor_politics")  # all on 0: nobody is higher
    state.victory_points = {"stark": 1, "lannister": 2, "baratheon": 2, "arryn": 2}
    assert meets(state, "stark", "backdoor_politics")
    state.victory_points["arryn"] = 1
    assert not meets(state, "stark", "backdoor_politics")  # a tie is not higher


def test_home_invasion_another_houses_home_area():
    state = setup()
    assert not meets(state, "stark", "home_invasion")
    put(state, "stark", "dragonstone")  # beside Baratheon's footman: a test, not a combat
    state.area_mut("dragonstone").units = [u for u in state.area("dragonstone").units if u.house == "stark"]
    assert meets(state, "stark", "home_invasion")
    assert not meets(put(cleared(), "stark", "winterfell"), "stark", "home_invasion")  # its own home is no invasion


def test_land_grab_more_land_areas_than_any_other_house():
    state = cleared()
    put(state, "baratheon", "kingswood")
    put(state, "lannister", "harrenhal")
    assert not meets(state, "baratheon", "land_grab")  # each home area counts: 2 each
    put(state, "baratheon", "crackclaw_point")
    assert meets(state, "baratheon", "land_grab") and OBJECTIVES["land_grab"].points["baratheon"] == 2


def test_extend_your_reach_more_sea_areas():
    state = cleared()
    put(state, "arryn", "the_narrow_sea", "ship")
    assert meets(state, "arryn", "extend_your_reach")
    put(state, "stark", "the_shivering_sea", "ship")
    assert not meets(state, "arryn", "extend_your_reach")  # a tie (ruling 406)


def test_naval_superiority_more_ships():
    state = cleared()
    put(state, "lannister", "the_golden_sound", "ship", 2)
    put(state, "baratheon", "shipbreaker_bay", "ship", 2)
    assert not meets(state, "lannister", "naval_superiority")
    put(state, "lannister", "port_of_lannisport", "ship")  # a ship in a port counts
    assert meets(state, "lannister", "naval_superiority")


def test_mercantile_ventures_more_ports():
    state = cleared()  # each home with its port: Winterfell, Lannisport, Dragonstone; the Eyrie has none
    assert not meets(state, "stark", "mercantile_ventures")
    put(state, "stark", "white_harbor")
    assert meets(state, "stark", "mercantile_ventures")  # its land area's controller holds a port (ruling 407)


def test_a_stalwart_position_more_strongholds():
    state = cleared()
    assert not meets(state, "lannister", "a_stalwart_position")  # one home stronghold each but Arryn's castle
    put(state, "lannister", "kings_landing")
    assert meets(state, "lannister", "a_stalwart_position")


def test_friendly_confines_more_castles_not_strongholds():
    state = cleared()
    assert meets(state, "arryn", "friendly_confines")  # the Eyrie is a castle; the others' homes are strongholds
    put(state, "stark", "white_harbor")
    assert not meets(state, "arryn", "friendly_confines")
    put(state, "stark", "winterfell")
    assert not meets(state, "stark", "friendly_confines")  # a stronghold is no castle here (ruling 408)


def test_spreading_the_wealth_more_power_tokens_on_the_board():
    state = setup()
    assert meets(state, "lannister", "spreading_the_wealth") and not meets(state, "stark", "spreading_the_wealth")
    token(state, "stark", "the_neck", "widows_watch", "karhold", "the_stony_shore")
    assert not meets(state, "lannister", "spreading_the_wealth")  # 4 against 4


# --- the rest ---------------------------------------------------------------------------------------


def test_the_throne_the_blade_and_the_raven_follow_their_tracks():
    state = setup()  # Iron Throne Baratheon, Fiefdoms Stark, King's Court Arryn
    assert meets(state, "baratheon", "the_throne") and meets(state, "stark", "the_blade")
    assert meets(state, "arryn", "the_raven") and not meets(state, "arryn", "the_throne")


def test_the_throne_the_iron_throne():
    state = setup()
    state.tracks["iron_throne"] = ["stark", "lannister", "arryn", "baratheon"]
    assert meets(state, "stark", "the_throne") and not meets(state, "baratheon", "the_throne")


def test_the_blade_the_valyrian_steel_blade():
    state = setup()
    assert not meets(state, "lannister", "the_blade")
    state.tracks["fiefdoms"] = ["lannister", "arryn", "baratheon", "stark"]
    assert meets(state, "lannister", "the_blade") and OBJECTIVES["the_blade"].points["stark"] == 0


def test_the_raven_the_messenger_raven():
    state = setup()
    state.tracks["kings_court"] = ["stark", "lannister", "baratheon", "arryn"]
    assert meets(state, "stark", "the_raven") and not meets(state, "arryn", "the_raven")


def test_support_the_crown_three_in_crackclaw_point_none_in_kings_landing():
    state = cleared()
    put(state, "stark", "crackclaw_point", "footman", 2)
    assert not meets(state, "stark", "support_the_crown")
    put(state, "stark", "crackclaw_point", "knight")
    assert meets(state, "stark", "support_the_crown")
    put(state, "stark", "kings_landing")
    assert not meets(state, "stark", "support_the_crown")


def test_crossing_guard_both_ends_of_one_bridge():
    state = cleared()
    put(state, "arryn", "the_mountains_of_the_moon")
    put(state, "arryn", "seagard")
    assert not meets(state, "arryn", "crossing_guard")  # an end of each bridge
    put(state, "arryn", "the_twins")
    assert meets(state, "arryn", "crossing_guard")
    other = put(put(cleared(), "stark", "the_mountains_of_the_moon"), "stark", "crackclaw_point")
    assert meets(other, "stark", "crossing_guard")


def test_ample_harvest_supply_5_or_6():
    state = setup()
    assert meets(state, "lannister", "ample_harvest") and not meets(state, "arryn", "ample_harvest")
    state.houses["arryn"].supply = 6
    assert meets(state, "arryn", "ample_harvest")
    state.houses["lannister"].supply = 4
    assert not meets(state, "lannister", "ample_harvest")


def test_nothing_but_ghosts_alone_in_harrenhal():
    state = cleared()
    put(state, "lannister", "harrenhal")
    assert meets(state, "lannister", "nothing_but_ghosts")
    put(state, "lannister", "harrenhal")
    assert not meets(state, "lannister", "nothing_but_ghosts")  # two
    state = put(put(cleared(), "lannister", "harrenhal"), "lannister", "stoney_sept")
    assert not meets(state, "lannister", "nothing_but_ghosts")  # one beside it
    state = put(put(cleared(), "lannister", "harrenhal"), "stark", "stoney_sept")
    assert meets(state, "lannister", "nothing_but_ghosts")  # another house's beside it does not matter


def test_the_final_hour_one_house_card_in_hand():
    state = setup()
    assert not meets(state, "stark", "the_final_hour")
    state.houses["stark"].hand = state.houses["stark"].hand[:1]
    assert meets(state, "stark", "the_final_hour")
    state.houses["stark"].hand = []
    assert not meets(state, "stark", "the_final_hour")


def test_the_peoples_chosen_four_areas_with_a_crown():
    state = cleared()
    token(state, "baratheon", "kingswood", "kings_landing")  # crowns with Dragonstone: 3
    assert not meets(state, "baratheon", "the_peoples_chosen")
    put(state, "baratheon", "harrenhal")
    assert meets(state, "baratheon", "the_peoples_chosen")


# --- special objectives (F031) ----------------------------------------------------------------------


def test_special_arryn_more_available_power_and_the_eyrie():
    state = setup()
    assert not meets(state, "arryn", "special_arryn")  # 5 each
    state.houses["arryn"].power = 6
    assert meets(state, "arryn", "special_arryn")
    state.houses["stark"].power = 6
    assert not meets(state, "arryn", "special_arryn")
    state.houses["stark"].power = 2
    state.area_mut("the_eyrie").units = []
    put(state, "lannister", "the_eyrie")
    assert not meets(state, "arryn", "special_arryn")


def test_special_baratheon_dragonstone_and_kings_landing():
    state = setup()
    assert not meets(state, "baratheon", "special_baratheon")
    state.area_mut("kings_landing").units, state.area_mut("kings_landing").power_token = [], None
    put(state, "baratheon", "kings_landing")
    assert meets(state, "baratheon", "special_baratheon")


def test_special_lannister_lannisport_and_kings_landing():
    state = setup()
    assert meets(state, "lannister", "special_lannister")
    state.area_mut("kings_landing").units, state.area_mut("kings_landing").power_token = [], None
    assert not meets(state, "lannister", "special_lannister")


def test_special_stark_winterfell_and_five_castles():
    state = setup()
    assert not meets(state, "stark", "special_stark")  # Winterfell, White Harbor, Moat Cailin, Seagard: 4
    put(state, "stark", "the_twins")
    state.area_mut("the_twins").units = [u for u in state.area("the_twins").units if u.house == "stark"]
    assert not meets(state, "stark", "special_stark")  # The Twins is no castle
    put(state, "stark", "riverrun")
    assert meets(state, "stark", "special_stark")
    state.area_mut("winterfell").units = []
    put(state, "arryn", "winterfell")
    assert not meets(state, "stark", "special_stark")
