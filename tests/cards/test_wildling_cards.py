"""One test or more per wildling card, for both outcomes, every choice, default and refusal.

Each attack comes from the Wildlings Attack card at strength 4. ``WATCH`` bids make Lannister the
highest bidder of a Night's Watch victory; ``WILDLINGS`` bids make Lannister the lowest bidder of a
wildling victory, Baratheon and Stark (turn order) taking the lesser penalty.

Starting units (3 players): Stark: Winterfell footman+knight, White Harbor footman, a ship in the
Shivering Sea. Lannister: Lannisport footman+knight, Stoney Sept footman, a ship in its port and one
in the Golden Sound. Baratheon: Dragonstone footman+knight, Kingswood footman, 2 ships in
Shipbreaker Bay. Tracks: Iron Throne B, L, S; Fiefdoms S, B, L; King's Court L, S, B.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.cards.wildlings import WILDLING_CARDS
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable, OnlyOption
from adjudicator.engine.events.westeros import (
    HouseCardsMoved,
    UnitsSwapped,
    WildlingAttackBegins,
    WildlingCardBuried,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import (
    Bid,
    Located,
    MusterAction,
    Reconcile,
    WildlingChoice,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
BOARD = Board.classic()
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def attack(card: str, *, second: str | None = None) -> GameState:
    """Round 2, Westeros phase: Supply, Last Days of Summer (threat 2 -> 4), Wildlings Attack at 4;
    ``card`` on top of the wildling deck, ``second`` just under it."""
    s = new_game(HOUSES, seed="wildling-cards")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 2
    for deck, c in enumerate(("supply", "last_days_of_summer", "wildlings_attack"), 1):
        s.westeros_decks[str(deck)].remove(c)
        s.westeros_decks[str(deck)].insert(0, c)
    for c in filter(None, (second, card)):
        s.wildling_deck.remove(c)
        s.wildling_deck.insert(0, c)
    return s


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"k{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bid(**amounts: int) -> list[dict]:
    return [answer(h, Bid(track="wildlings", amount=n)) for h, n in amounts.items()]


WATCH = dict(stark=0, lannister=4, baratheon=0)  # 4 against 4: the watch holds; lannister highest
WILDLINGS = dict(stark=1, lannister=0, baratheon=1)  # 2 against 4: lannister lowest


def choice(house: str, card: str, **kw: object) -> dict:
    return answer(house, WildlingChoice(card=card, **kw))  # type: ignore[arg-type]


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


def refusals(step: Step) -> list[str]:
    return [e.reason for e in step.events if isinstance(e, AnswerUnusable)]


def test_every_wildling_card_has_exactly_one_registered_function():
    assert sorted(WILDLING_CARDS) == sorted(CARDS.wildling_cards)
    assert all(e.card == c for c, e in WILDLING_CARDS.items())


# --- Silence at the Wall --------------------------------------------------------------------


@pytest.mark.parametrize("bids", [WATCH, WILDLINGS])
def test_silence_at_the_wall_nothing_happens(bids: dict[str, int]):
    s = attack("silence_at_the_wall")
    step = advance(s, bid(**bids))
    assert step.requests == []
    assert step.state.areas == s.areas and step.state.tracks == s.tracks
    assert {h: x.power for h, x in step.state.houses.items()} == {h: 5 - n for h, n in bids.items()}


# --- Preemptive Raid ------------------------------------------------------------------------


def test_preemptive_raid_watch_a_second_attack_of_6_without_the_highest_bidder():
    s = attack("preemptive_raid", second="silence_at_the_wall")
    first = advance(s, bid(**WATCH))
    assert sorted(r.house for r in first.requests) == ["baratheon", "stark"]
    step = advance(first.state, bid(stark=3, baratheon=3))
    begins = [(e.strength, e.houses) for e in first.events + step.events if isinstance(e, WildlingAttackBegins)]
    assert begins == [(4, ("baratheon", "lannister", "stark")), (6, ("baratheon", "stark"))]
    assert [e.card for e in step.events if isinstance(e, WildlingCardBuried)] == ["silence_at_the_wall", "preemptive_raid"]
    assert step.state.wildling_threat == 0
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 2, "lannister": 1, "baratheon": 2}


def test_preemptive_raid_wildlings_the_lowest_bidder_drops_two_places_on_its_best_track():
    s = attack("preemptive_raid")
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "preemptive_raid", track="kings_court")])
    assert step.state.tracks["kings_court"] == ["stark", "baratheon", "lannister"]
    assert step.state.holder("kings_court") == "stark"  # the raven changes hands


def test_preemptive_raid_wildlings_or_destroys_two_of_its_units():
    s = attack("preemptive_raid")
    kill = (Located(area="stoney_sept", unit="footman"), Located(area="the_golden_sound", unit="ship"))
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "preemptive_raid", units=kill)])
    assert kinds(step.state, "stoney_sept") == [] and kinds(step.state, "the_golden_sound") == []
    assert step.state.tracks == s.tracks


def test_preemptive_raid_a_track_that_is_not_the_highest_is_refused():
    step = advance(attack("preemptive_raid"), [*bid(**WILDLINGS), choice("lannister", "preemptive_raid", track="fiefdoms")])
    assert refusals(step) == ["your highest influence track is kings_court, not fiefdoms (R109)"]
    assert step.requests[0].kind == "wildling_choice"


def test_preemptive_raid_units_and_a_track_together_are_refused():
    kill = (Located(area="stoney_sept", unit="footman", count=2),)
    step = advance(attack("preemptive_raid"), [*bid(**WILDLINGS),
                                               choice("lannister", "preemptive_raid", units=kill, track="kings_court")])
    assert refusals(step) == ["choose either 2 units to destroy or the track to drop on, not both or neither (R109)"]


def test_ruling_67_with_fewer_than_two_units_the_lowest_bidder_drops_on_its_track():
    s = attack("preemptive_raid")
    for area in ("lannisport", "port_of_lannisport", "the_golden_sound"):
        s.area_mut(area).units = []
    s.tidy()
    step = advance(s, bid(**WILDLINGS))
    assert any(isinstance(e, OnlyOption) and e.house == "lannister" for e in step.events)
    assert step.state.tracks["kings_court"] == ["stark", "baratheon", "lannister"]


def test_ruling_67_a_tie_for_the_best_track_is_the_houses_choice_and_defaults_to_the_first():
    s = attack("preemptive_raid")
    s.tracks["fiefdoms"] = ["lannister", "stark", "baratheon"]
    step = advance(s, bid(**WILDLINGS))
    assert step.requests[0].context["tracks"] == ["fiefdoms", "kings_court"]
    step = advance(step.state, deadline=True)
    assert step.state.tracks["fiefdoms"] == ["stark", "baratheon", "lannister"]
    assert step.state.tracks["kings_court"] == ["lannister", "stark", "baratheon"]


# --- Crow Killers ---------------------------------------------------------------------------


def test_crow_killers_watch_up_to_two_footmen_become_knights():
    s = attack("crow_killers")
    swap = (Located(area="lannisport", unit="footman"), Located(area="stoney_sept", unit="footman"))
    step = advance(s, [*bid(**WATCH), choice("lannister", "crow_killers", units=swap)])
    assert kinds(step.state, "lannisport") == ["knight", "knight"] and kinds(step.state, "stoney_sept") == ["knight"]
    assert len([e for e in step.events if isinstance(e, UnitsSwapped)]) == 2


def test_crow_killers_watch_three_footmen_are_refused_and_the_default_declines():
    s = attack("crow_killers")
    put = s.area_mut("stoney_sept").units.append
    put(Unit("lannister", "footman"))
    swap = (Located(area="lannisport", unit="footman"), Located(area="stoney_sept", unit="footman", count=2))
    step = advance(s, [*bid(**WATCH), choice("lannister", "crow_killers", units=swap)])
    assert refusals(step) == ["name at most 2 units, not 3 (R109)"]
    step = advance(step.state, deadline=True)
    assert kinds(step.state, "stoney_sept") == ["footman", "footman"]


def test_crow_killers_wildlings_knights_become_footmen_lowest_all_others_two():
    s = attack("crow_killers")
    s.area_mut("lannisport").units.append(Unit("lannister", "knight"))
    step = advance(s, bid(**WILDLINGS))
    assert step.requests == []
    assert kinds(step.state, "lannisport") == ["footman"] * 3
    assert kinds(step.state, "winterfell") == ["footman", "footman"]
    assert kinds(step.state, "dragonstone") == ["footman", "footman"]


def test_crow_killers_wildlings_the_lesser_penalty_asks_which_two_of_more_knights():
    s = attack("crow_killers")
    s.area_mut("castle_black").units = [Unit("stark", "knight"), Unit("stark", "knight")]
    step = advance(s, bid(**WILDLINGS))
    assert [(r.house, r.context["knights"]) for r in step.requests] == [("stark", 2)]
    step = advance(step.state, [choice("stark", "crow_killers", units=(Located(area="castle_black", unit="knight", count=2),))])
    assert kinds(step.state, "castle_black") == ["footman", "footman"] and kinds(step.state, "winterfell") == ["footman", "knight"]


def test_ruling_69_knights_without_a_footman_left_are_destroyed_in_the_order_named():
    s = attack("crow_killers")
    for area in ("harrenhal", "the_twins", "riverrun", "seagard", "searoad_marches", "blackwater", "the_reach",
                 "crackclaw_point", "the_mountains_of_the_moon"):
        s.area_mut(area).units = [Unit("lannister", "footman")]  # nine footmen: one left in the box
    s.area_mut("lannisport").units = [Unit("lannister", "knight"), Unit("lannister", "knight")]
    s.area_mut("stoney_sept").units = [Unit("lannister", "knight")]
    step = advance(s, bid(**WILDLINGS))
    assert step.requests[0].context == {"card": "crow_killers", "role": "severe", "knights": 3, "footmen_available": 1}
    order = (Located(area="stoney_sept", unit="knight"), Located(area="lannisport", unit="knight", count=2))
    step = advance(step.state, [choice("lannister", "crow_killers", units=order)])
    assert kinds(step.state, "stoney_sept") == ["footman"] and kinds(step.state, "lannisport") == []


# --- Rattleshirt's Raiders ------------------------------------------------------------------


def test_rattleshirts_raiders_watch_the_highest_bidder_gains_a_supply_up_to_6():
    s = attack("rattleshirts_raiders")
    step = advance(s, bid(**WATCH))
    assert step.state.houses["lannister"].supply == 3  # 2 after Supply, then +1
    s = attack("rattleshirts_raiders")
    for area in ("riverrun", "seagard", "harrenhal", "the_twins", "searoad_marches"):
        s.area_mut(area).units = [Unit("lannister", "footman")]
    assert advance(s, bid(**WATCH)).state.houses["lannister"].supply == 6


def test_rattleshirts_raiders_wildlings_supply_down_two_and_one_then_reconcile():
    s = attack("rattleshirts_raiders")
    s.area_mut("castle_black").units = [Unit("stark", "footman"), Unit("stark", "footman")]
    step = advance(s, bid(**WILDLINGS))
    assert {h: x.supply for h, x in step.state.houses.items()} == {"stark": 0, "lannister": 0, "baratheon": 1}
    # stark at 0 allows (2, 2): winterfell 2 and castle black 2 fit; no one is over
    assert step.requests == []
    s.area_mut("white_harbor").units.append(Unit("stark", "footman"))
    step = advance(s, bid(**WILDLINGS))
    assert [(r.kind, r.house) for r in step.requests] == [("reconcile", "stark")]
    step = advance(step.state, [answer("stark", Reconcile(removals=(Located(area="white_harbor", unit="footman"),)))])
    assert kinds(step.state, "white_harbor") == ["footman"]


# --- Massing on the Milkwater ---------------------------------------------------------------


def test_massing_on_the_milkwater_watch_every_discard_back_to_hand():
    s = attack("massing_on_the_milkwater")
    hs = s.houses["lannister"]
    hs.discards = ["tywin_lannister", "the_hound"]
    hs.hand = [c for c in hs.hand if c not in hs.discards]
    step = advance(s, bid(**WATCH))
    assert sorted(step.state.houses["lannister"].hand) == sorted(CARDS.hand_of("lannister"))
    assert step.state.houses["lannister"].discards == []


def test_massing_on_the_milkwater_wildlings_lowest_discards_its_strongest_others_choose_one():
    s = attack("massing_on_the_milkwater")
    step = advance(s, [*bid(**WILDLINGS), choice("stark", "massing_on_the_milkwater", house_card="catelyn_stark")])
    assert step.state.houses["lannister"].discards == ["tywin_lannister"]
    assert [r.house for r in step.requests] == ["baratheon"]  # baratheon first in turn order: still to answer
    step = advance(step.state, deadline=True)
    assert step.state.houses["baratheon"].discards == ["patchface"]  # the default: its weakest card
    assert step.state.houses["stark"].discards == ["catelyn_stark"]


def test_massing_on_the_milkwater_lowest_discards_every_card_tied_for_strongest():
    s = attack("massing_on_the_milkwater")
    hs = s.houses["lannister"]
    hs.hand, hs.discards = ["ser_jaime_lannister", "the_hound", "tyrion_lannister"], []
    step = advance(s, bid(**WILDLINGS), deadline=True)
    assert step.state.houses["lannister"].hand == ["tyrion_lannister"]
    assert step.state.houses["lannister"].discards == ["ser_jaime_lannister", "the_hound"]


def test_ruling_68_an_emptied_hand_takes_back_the_earlier_discards():
    s = attack("massing_on_the_milkwater")
    hs = s.houses["lannister"]
    hs.hand = ["ser_jaime_lannister", "the_hound"]
    hs.discards = [c for c in CARDS.hand_of("lannister") if c not in hs.hand]
    step = advance(s, bid(**WILDLINGS), deadline=True)
    after = step.state.houses["lannister"]
    assert sorted(after.discards) == ["ser_jaime_lannister", "the_hound"] and len(after.hand) == 5
    assert [e.to for e in step.events if isinstance(e, HouseCardsMoved) and e.house == "lannister"] == ["discards", "hand"]


def test_massing_on_the_milkwater_a_card_not_in_hand_is_refused_and_one_card_is_kept():
    s = attack("massing_on_the_milkwater")
    s.houses["stark"].hand = ["eddard_stark"]
    s.houses["stark"].discards = [c for c in CARDS.hand_of("stark") if c != "eddard_stark"]
    step = advance(s, [*bid(**WILDLINGS), choice("baratheon", "massing_on_the_milkwater", house_card="eddard_stark")])
    assert refusals(step)[0].startswith("choose a house card in your hand")
    step = advance(step.state, deadline=True)
    assert step.state.houses["stark"].hand == ["eddard_stark"]


# --- A King Beyond the Wall -----------------------------------------------------------------


def test_a_king_beyond_the_wall_watch_the_highest_bidder_takes_the_top_of_a_track():
    s = attack("a_king_beyond_the_wall")
    s.blade_used = True
    step = advance(s, [*bid(**WATCH), choice("lannister", "a_king_beyond_the_wall", track="fiefdoms")])
    assert step.state.tracks["fiefdoms"] == ["lannister", "stark", "baratheon"]
    assert step.state.dominance()["valyrian_steel_blade"] == {"holder": "lannister", "used": True}


def test_a_king_beyond_the_wall_watch_defaults_to_no_move():
    s = attack("a_king_beyond_the_wall")
    step = advance(s, bid(**WATCH), deadline=True)
    assert step.state.tracks == s.tracks


def test_a_king_beyond_the_wall_wildlings_lowest_to_the_bottom_of_all_others_choose():
    s = attack("a_king_beyond_the_wall")
    step = advance(s, [*bid(**WILDLINGS),
                       choice("baratheon", "a_king_beyond_the_wall", track="kings_court"),
                       choice("stark", "a_king_beyond_the_wall", track="fiefdoms")])
    assert step.state.tracks == {"iron_throne": ["baratheon", "stark", "lannister"],
                                 "fiefdoms": ["baratheon", "lannister", "stark"],
                                 "kings_court": ["stark", "lannister", "baratheon"]}


def test_a_king_beyond_the_wall_the_iron_throne_track_is_no_choice_for_the_lesser_penalty():
    step = advance(attack("a_king_beyond_the_wall"),
                   [*bid(**WILDLINGS), choice("baratheon", "a_king_beyond_the_wall", track="iron_throne")])
    assert refusals(step) == ["choose fiefdoms or kings_court (R109)"]


def test_a_king_beyond_the_wall_the_default_is_the_track_where_the_house_stands_lower():
    step = advance(attack("a_king_beyond_the_wall"), bid(**WILDLINGS), deadline=True)
    # after lannister drops: fiefdoms S, B, L; king's court S, B, L. baratheon is 2nd on both:
    # fiefdoms; then stark is 1st on both: fiefdoms.
    assert step.state.tracks["fiefdoms"] == ["lannister", "baratheon", "stark"]
    assert step.state.tracks["kings_court"] == ["stark", "baratheon", "lannister"]


# --- Mammoth Riders -------------------------------------------------------------------------


def test_mammoth_riders_watch_one_discarded_card_back_to_hand():
    s = attack("mammoth_riders")
    hs = s.houses["lannister"]
    hs.hand.remove("tywin_lannister")
    hs.discards = ["tywin_lannister"]
    step = advance(s, [*bid(**WATCH), choice("lannister", "mammoth_riders", house_card="tywin_lannister")])
    assert "tywin_lannister" in step.state.houses["lannister"].hand and step.state.houses["lannister"].discards == []


def test_mammoth_riders_watch_a_card_not_discarded_is_refused():
    s = attack("mammoth_riders")
    s.houses["lannister"].hand.remove("the_hound")
    s.houses["lannister"].discards = ["the_hound"]
    step = advance(s, [*bid(**WATCH), choice("lannister", "mammoth_riders", house_card="tywin_lannister")])
    assert refusals(step) == ["choose one of your discards: the_hound (R109)"]


def test_mammoth_riders_watch_with_no_discards_nothing_is_asked():
    step = advance(attack("mammoth_riders"), bid(**WATCH))
    assert step.requests == []


def test_mammoth_riders_wildlings_lowest_destroys_3_others_2():
    s = attack("mammoth_riders")
    kill3 = (Located(area="stoney_sept", unit="footman"), Located(area="the_golden_sound", unit="ship"),
             Located(area="port_of_lannisport", unit="ship"))
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "mammoth_riders", units=kill3)])
    assert [(r.house, r.context["units_to_destroy"]) for r in step.requests] == [("baratheon", 2)]
    step = advance(step.state, deadline=True)
    assert kinds(step.state, "lannisport") == ["footman", "knight"]
    # baratheon by default: from its largest armies, cheapest first; stark the same
    assert kinds(step.state, "dragonstone") == ["knight"] and kinds(step.state, "shipbreaker_bay") == ["ship"]
    assert kinds(step.state, "winterfell") == ["knight"] and kinds(step.state, "the_shivering_sea") == []
    assert kinds(step.state, "white_harbor") == ["footman"]


def test_mammoth_riders_a_wrong_number_of_units_is_refused():
    kill = (Located(area="stoney_sept", unit="footman"),)
    step = advance(attack("mammoth_riders"), [*bid(**WILDLINGS), choice("lannister", "mammoth_riders", units=kill)])
    assert refusals(step) == ["name exactly 3 units, not 1 (R109)"]


def test_ruling_71_a_house_with_too_few_units_loses_them_all_unasked():
    s = attack("mammoth_riders")
    s.area_mut("white_harbor").units = []
    s.area_mut("the_shivering_sea").units = []
    s.tidy()
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "mammoth_riders", units=(
        Located(area="stoney_sept", unit="footman"), Located(area="the_golden_sound", unit="ship"),
        Located(area="port_of_lannisport", unit="ship"))), choice("baratheon", "mammoth_riders", units=(
            Located(area="kingswood", unit="footman"), Located(area="shipbreaker_bay", unit="ship")))])
    assert step.requests == [] and kinds(step.state, "winterfell") == []  # stark had exactly 2


# --- The Horde Descends ---------------------------------------------------------------------


def test_the_horde_descends_watch_musters_in_one_castle():
    s = attack("the_horde_descends")
    actions = (MusterAction(unit="knight", upgrade=True), MusterAction(unit="ship", to="the_golden_sound"))
    step = advance(s, [*bid(**WATCH), choice("lannister", "the_horde_descends", area="lannisport", muster=actions)])
    assert kinds(step.state, "lannisport") == ["knight", "knight"] and kinds(step.state, "the_golden_sound") == ["ship", "ship"]


def test_the_horde_descends_watch_an_illegal_muster_is_refused():
    actions = (MusterAction(unit="knight"), MusterAction(unit="footman"))
    step = advance(attack("the_horde_descends"),
                   [*bid(**WATCH), choice("lannister", "the_horde_descends", area="lannisport", muster=actions)])
    assert refusals(step) == ["mustering this in Lannisport costs 3 points; it gives 2 (R068, R069)"]
    step = advance(attack("the_horde_descends"),
                   [*bid(**WATCH), choice("lannister", "the_horde_descends", area="stoney_sept", muster=actions)])
    assert refusals(step) == ["Stoney Sept has no castle or stronghold to muster in (R068)"]


def test_the_horde_descends_wildlings_lowest_loses_2_units_in_one_castle_others_1():
    s = attack("the_horde_descends")
    step = advance(s, bid(**WILDLINGS))
    # Lannisport is lannister's one castle area with 2 units, and holds exactly 2: no choice.
    assert any(isinstance(e, OnlyOption) and e.house == "lannister" for e in step.events)
    assert kinds(step.state, "lannisport") == [] and kinds(step.state, "stoney_sept") == ["footman"]
    assert [(r.house, r.context["units_to_destroy"]) for r in step.requests] == [("baratheon", 1)]
    step = advance(step.state, deadline=True)
    assert kinds(step.state, "dragonstone") == ["knight"] and kinds(step.state, "winterfell") == ["knight"]


def test_the_horde_descends_two_castle_areas_units_from_both_are_refused():
    s = attack("the_horde_descends")
    s.area_mut("lannisport").units.append(Unit("lannister", "footman"))
    s.area_mut("harrenhal").units = [Unit("lannister", "footman"), Unit("lannister", "footman")]
    kill = (Located(area="lannisport", unit="footman"), Located(area="harrenhal", unit="footman"))
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "the_horde_descends", units=kill)])
    assert refusals(step) == ["the units must all be in one of harrenhal, lannisport (R109)"]


def test_ruling_70_with_no_castle_holding_two_units_the_lowest_bidder_loses_two_anywhere():
    s = attack("the_horde_descends")
    s.area_mut("lannisport").units = [Unit("lannister", "knight")]
    kill = (Located(area="stoney_sept", unit="footman"), Located(area="the_golden_sound", unit="ship"))
    step = advance(s, [*bid(**WILDLINGS), choice("lannister", "the_horde_descends", units=kill)], deadline=True)
    assert kinds(step.state, "stoney_sept") == [] and kinds(step.state, "lannisport") == ["knight"]


# --- Skinchanger Scout ----------------------------------------------------------------------


def test_skinchanger_scout_watch_the_highest_bidder_takes_back_its_bid():
    step = advance(attack("skinchanger_scout"), bid(**WATCH))
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 5, "lannister": 5, "baratheon": 5}


def test_skinchanger_scout_wildlings_lowest_loses_all_power_others_two():
    s = attack("skinchanger_scout")
    s.houses["stark"].power = 2  # 1 left after its bid: it loses what it has
    step = advance(s, bid(**WILDLINGS))
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 0, "lannister": 0, "baratheon": 2}


def test_a_king_beyond_the_wall_watch_a_house_first_everywhere_is_not_asked():
    s = attack("a_king_beyond_the_wall")
    s.tracks = {t: ["lannister", "stark", "baratheon"] for t in ("iron_throne", "fiefdoms", "kings_court")}
    step = advance(s, bid(**WATCH))
    assert step.requests == [] and any(isinstance(e, OnlyOption) and e.house == "lannister" for e in step.events)


def test_the_horde_descends_watch_defaults_to_mustering_nothing():
    s = attack("the_horde_descends")
    step = advance(s, bid(**WATCH), deadline=True)
    assert step.state.areas == s.areas


def test_ruling_79_after_preemptive_raids_second_attack_the_threat_is_0_and_both_cards_lie_at_the_bottom():
    """A Night's Watch victory at 10 draws Preemptive Raid; the second attack (6, Lannister left out)
    is lost and its card, Silence at the Wall, moves the threat back two spaces (10 -> 6) and is buried;
    then the first attack ends: the threat is reset to 0 and Preemptive Raid buried under it."""
    from adjudicator.engine.events.westeros import WildlingThreatMoved

    s = attack("preemptive_raid", second="silence_at_the_wall")
    s.wildling_threat = 8  # Last Days of Summer's icon: the Wildlings Attack card attacks at 10
    s.houses["lannister"].power = 10
    third = s.wildling_deck[2]
    step = advance(s, [*bid(stark=0, lannister=10, baratheon=0)])
    step = advance(step.state, bid(stark=0, baratheon=0))
    assert [(e.old, e.new) for e in step.events if isinstance(e, WildlingThreatMoved)] == [(10, 6), (6, 0)]
    assert step.state.wildling_threat == 0
    assert step.state.wildling_deck[-2:] == ["silence_at_the_wall", "preemptive_raid"]
    assert step.state.wildling_deck[0] == third
