"""Every answer gets a verdict (rulings 160, 161): one test per decision kind of docs/decisions.md.

Each test sends answers, plays the round out with the documented defaults for whatever else is
asked, and checks that every answer sent got a verdict in its house's events before the round
ended (used, refused with the rule, or not needed), and the verdict the case calls for: at once
when no decision left in the round could use the answer, otherwise when the decision it was aimed
at is taken (by another house, or by the engine without asking) or the round ends.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from adjudicator.engine.core.context import Step, pool_entry
from adjudicator.engine.events import AnswersExpired, AnswerUnusable, AnswerUsed, Event, OnlyOption
from adjudicator.engine.invariants import judged_ids
from adjudicator.engine.machine import advance
from adjudicator.game.commands import (
    AssignOrder,
    Bid,
    CardChoice,
    Casualties,
    CombatFilter,
    Command,
    Consolidate,
    Located,
    March,
    Muster,
    MusterAction,
    PortShips,
    Raid,
    Raven,
    RavenKeep,
    Reconcile,
    RefuseSupport,
    Retreat,
    Support,
    TieBreak,
    UnitSpec,
    UseBlade,
    WesterosChoice,
    WildlingChoice,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.reports.verdicts import answer_verdicts

from . import test_combat_harness as cs
from .helpers import at_action, game, phases, put  # noqa: F401
from .test_combat_harness import battle, duel, everyone  # noqa: F401

_ids = itertools.count(1)


def say(house: str, cmd: Command, *, round: int = 1) -> dict[str, Any]:
    n = next(_ids)
    return pool_entry(id=f"{house}/v{n}", house=house, round=round, command=cmd, text=f"{house} answer {n}")


class Round:
    """A round played out: the answers sent, every step's events, and each answer's verdicts."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.round = state.round
        self.sent: list[dict[str, Any]] = []
        self.events: list[Event] = []
        self.step: Step | None = None

    def send(self, *answers: dict[str, Any]) -> Round:
        """One step with these answers (no defaults)."""
        self.sent += answers
        self.step = advance(self.state, list(answers))
        self.state = self.step.state
        self.events += self.step.events
        return self

    def finish(self) -> Round:
        """Defaults for every open request, step after step, until the round (or the game) is over."""
        while self.state.round == self.round and self.state.phase != "game_over":
            keys = frozenset(p["key"] for p in self.state.pending)
            self.step = advance(self.state, [], deadline=keys)
            self.state = self.step.state
            self.events += self.step.events
        unjudged = {a["id"] for a in self.sent} - judged_ids(self.events)
        assert not unjudged, f"answers that ended their round without a verdict: {sorted(unjudged)}"
        return self

    def verdicts(self, answer: dict[str, Any]) -> list[tuple[str, str]]:
        """``(status, rule)`` of every verdict the answer got, in order, as its house saw them."""
        out = []
        for e in self.events:
            if answer["id"] not in getattr(e, "ids", ()) or e.visible_to != answer["house"]:
                continue
            status = {AnswerUsed: "used", AnswerUnusable: "refused", AnswersExpired: "expired"}[type(e)]
            out.append((status, getattr(e, "rule", "")))
        return out

    def final(self, answer: dict[str, Any]) -> tuple[str, str]:
        """``(status, rule)`` as the house's report gives it over the whole round."""
        (v,) = [v for v in answer_verdicts(self.state, self.events, answer["house"]) if v["id"] == answer["id"]]
        return v["status"], v["rule"]

    def reason(self, answer: dict[str, Any]) -> str:
        """The reason of the answer's last refusal or expiry."""
        found = [e.reason for e in self.events if answer["id"] in getattr(e, "ids", ()) and getattr(e, "reason", "")]
        return found[-1] if found else ""


def refused_at_once(r: Round, answer: dict[str, Any], rule: str) -> None:
    """Refused in the very step that brought it, and no longer held."""
    assert r.step is not None
    mine = [e for e in r.step.events if isinstance(e, AnswerUnusable) and answer["id"] in e.ids]
    assert [e.rule for e in mine] == [rule], r.verdicts(answer)
    assert answer["id"] not in {a["id"] for a in r.state.answers}


def round2(cards: tuple[str, str, str], houses: Iterable[str] = ("stark", "lannister", "baratheon"),
           threat: int = 0) -> GameState:
    """Round 2's Westeros phase of a new game with ``cards`` on top of decks I-III."""
    s = new_game(list(houses), seed="verdicts")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


QUIET = ("last_days_of_summer", "last_days_of_summer", "sea_of_storms")  # asks nothing


# --- planning ---------------------------------------------------------------------------------------


def test_ruling_160_an_order_replaced_by_a_later_line_is_refused_and_the_orders_used():
    s = new_game(["stark", "lannister", "baratheon"], seed="verdicts")
    early = say("stark", AssignOrder(area="winterfell", token="march+0"))
    late = say("stark", AssignOrder(area="winterfell", token="defense+1"))
    rest = [say("stark", AssignOrder(area=a, token=t)) for a, t in (("white_harbor", "raid"),
                                                                     ("the_shivering_sea", "support+0"))]
    r = Round(s).send(early, late, *rest).finish()
    assert r.final(early) == ("refused", "R115") and "replaced by a later line" in r.reason(early)
    assert [r.final(a)[0] for a in (late, *rest)] == ["used"] * 3


def test_ruling_121_a_line_of_orders_standing_at_the_deadline_is_used_by_the_default_that_completes_it():
    s = new_game(["stark", "lannister", "baratheon"], seed="verdicts")
    alone = say("stark", AssignOrder(area="winterfell", token="march+0"))
    r = Round(s).send(alone)
    assert r.verdicts(alone) == [], "it stands and waits for the other areas' lines: no verdict yet"
    r.finish()
    assert r.verdicts(alone) == [("used", "")] and r.final(alone) == ("used", "")
    assert r.state.round > 1 or r.state.phase == "game_over"



def test_ruling_161_an_order_sent_after_the_houses_placed_theirs_is_refused_on_arrival():
    s = new_game(["stark", "lannister", "baratheon"], seed="verdicts")
    r = Round(s).send()
    r.state = advance(r.state, [], deadline=frozenset(p["key"] for p in r.state.pending)).state  # orders placed
    assert r.state.phase in ("planning", "action")
    stray = say("stark", AssignOrder(area="winterfell", token="raid"))
    r.send(stray)
    rule = "R115" if r.state.phase == "planning" else "R033"
    assert r.verdicts(stray)[0][1] == rule
    r.finish()


def test_R096_a_raven_answer_from_a_house_without_the_raven_is_refused_on_arrival():
    s = new_game(["stark", "lannister", "baratheon"], seed="verdicts")
    assert s.holder("kings_court") == "lannister"
    swap = say("stark", Raven(action="look"))
    r = Round(s).send(swap)
    refused_at_once(r, swap, "R096")
    r.finish()


def test_ruling_161_where_to_put_the_wildling_card_is_not_needed_when_the_raven_passed():
    s = new_game(["stark", "lannister", "baratheon"], seed="verdicts")
    passing, keep = say("lannister", Raven(action="pass")), say("lannister", RavenKeep(choice="bottom"))
    r = Round(s).send(passing, keep).finish()
    assert r.verdicts(passing) == [("used", "")]
    assert r.verdicts(keep) == [("expired", "R033")], "the Planning Phase ended without asking it"


# --- the action phase: orders -------------------------------------------------------------------------


@pytest.mark.usefixtures("phases")
def test_R129_a_raid_from_an_area_without_a_raid_order_is_refused_on_arrival():
    s = game()
    put(s, "winterfell", "stark", "footman", order="raid")
    put(s, "karhold", "lannister", "footman", order="support+0")
    stray = say("stark", Raid(origin="white_harbor", targets=(None,)))
    r = Round(at_action(s)).send(stray)
    refused_at_once(r, stray, "R129")
    r.finish()


@pytest.mark.usefixtures("phases")
def test_ruling_14_a_raid_taken_without_asking_refuses_the_answer_saying_so():
    s = game()
    put(s, "winterfell", "stark", "footman", order="raid")  # nothing to raid next to it
    wrong = say("stark", Raid(origin="winterfell", targets=("karhold",)))
    r = Round(at_action(s)).send(wrong).finish()
    assert r.verdicts(wrong)[0] == ("refused", "R130") and r.final(wrong) == ("refused", "R130")
    assert r.reason(wrong).startswith('the only legal answer, "raid from Winterfell')
    assert any(isinstance(e, OnlyOption) and e.house == "stark" for e in r.events)


@pytest.mark.usefixtures("phases")
def test_R141_a_march_sent_after_the_house_resolved_its_last_march_is_refused_on_arrival():
    s = game()
    put(s, "winterfell", "stark", "footman", order="march+0")
    put(s, "sunspear", "martell", "footman", order="march+0")  # Martell marches after Stark: a step to wait
    first = say("stark", March(origin="winterfell"))
    r = Round(at_action(s)).send(first)
    late = say("stark", March(origin="winterfell"))
    r.send(late)
    assert r.verdicts(first) == [("used", "")]
    refused_at_once(r, late, "R141")
    r.finish()


@pytest.mark.usefixtures("phases")
def test_R152_a_march_of_routed_units_is_taken_without_asking_and_a_move_is_refused_saying_so():
    s = game()
    put(s, "winterfell", "stark", "footman", order="march+0", routed=1)
    move = say("stark", March(origin="winterfell", moves=()))
    r = Round(at_action(s)).send(move).finish()
    assert r.final(move) == ("used", ""), "the one legal answer, sent: used"


@pytest.mark.usefixtures("phases")
def test_R161_a_consolidate_without_an_order_there_is_refused_and_a_muster_taken_unasked_says_why():
    s = game()
    put(s, "winterfell", "stark", "footman", order="consolidate")
    stray = say("stark", Consolidate(area="karhold"))
    muster = say("stark", Consolidate(area="winterfell", muster=(MusterAction(unit="footman"),)))
    r = Round(at_action(s)).send(stray, muster)
    refused_at_once(r, stray, "R161")
    r.finish()
    assert r.final(muster) == ("refused", "R165")
    assert r.reason(muster).startswith('the only legal answer, "consolidate in Winterfell"')


# --- combat -------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("phases")
@pytest.mark.parametrize(("support", "rule"), [
    (Support(side="stark", origin="bay_of_ice", combat_area="castle_black"), "R172"),  # no support order there
    (Support(side="stark", origin="the_shivering_sea", combat_area="moat_cailin"), "R185"),  # not next to it
    (Support(side="stark", origin="white_harbor", combat_area="the_narrow_sea"), "R181"),  # land units, a sea
    (Support(side="stark", origin="port_of_white_harbor", combat_area="white_harbor"), "R185"),  # a port, on land
])
def test_R172_R181_R185_a_support_answer_naming_an_order_that_cannot_support_the_combat_is_refused_on_arrival(
        support: Support, rule: str):
    s = game()
    put(s, "the_shivering_sea", "stark", "ship", order="support+0")
    put(s, "white_harbor", "stark", "footman", order="support+0")
    put(s, "port_of_white_harbor", "stark", "ship", order="support+0")
    answer = say("stark", support)
    r = Round(at_action(s)).send(answer)
    refused_at_once(r, answer, rule)
    r.finish()


@pytest.mark.usefixtures("phases")
def test_ruling_160_a_standing_support_used_is_not_reported_again_and_one_never_needed_expires():
    s = game()
    put(s, "kings_landing", "baratheon", "footman", "knight", order="march+0")
    put(s, "kingswood", "tyrell", "footman")
    put(s, "the_reach", "stark", "footman", order="support+0")
    put(s, "winterfell", "lannister", "footman", order="support+0")
    used = say("stark", Support(side="baratheon"))
    idle = say("lannister", Support(side="lannister"))
    refuse = say("tyrell", RefuseSupport(supporter="greyjoy"))
    attack = say("baratheon", March(origin="kings_landing", moves=(
        _move("kingswood", "footman", "knight"),)))
    r = Round(at_action(s)).send(used, idle, refuse, attack).finish()
    assert r.verdicts(used) == [("used", "")], "used, then dropped at the round's end without a second verdict"
    assert r.verdicts(idle) == [("expired", "ruling 160")]
    assert r.verdicts(refuse) == [("expired", "ruling 160")]


def _move(dest: str, *units: str) -> Any:
    from adjudicator.game.commands import Move

    return Move(destination=dest, units=tuple(UnitSpec(u) for u in units))


# --- combat (the combat harness: the attacks fought in one action phase, then the game ends) ---------


def judged_in(b: Any, *answers: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each answer's ``(status, rule)`` over the battle; every answer sent must have one."""
    out = {}
    for a in answers:
        (v,) = [v for v in answer_verdicts(b.state, b.events, a["house"]) if v["id"] == a["id"]]
        out[a["id"]] = (v["status"], v["rule"])
    assert {a["id"] for a in answers} <= judged_ids(b.events), "an answer ended the game without a verdict"
    return out


def test_R212_a_retreat_against_the_only_legal_one_is_refused_naming_it(battle):
    """The issue's own case: "not used: the only legal retreat was The Twins, R212"."""
    state = duel("lannister", "stark", attack=("2 knights",), defend=("2 footmen",), area="the_fingers",
                 origin="the_mountains_of_the_moon")
    b = battle(state, everyone(state, "lannister", area="the_fingers", origin="the_mountains_of_the_moon"))
    (back,) = cs.say("stark", Retreat(areas=("the_mountains_of_the_moon",)))
    b.run(cs.play("lannister", "ser_jaime_lannister"), cs.play("stark", "catelyn_stark"), [back])
    assert b.done and judged_in(b, back)[back["id"]] == ("refused", "R212")
    (reason,) = b.unusable("stark")
    assert reason == ('the only legal answer, "retreat to The Twins", was taken without asking; The Mountains of '
                      "the Moon is the area the attackers marched from (R212)")


def test_R214_a_retreat_answer_meets_a_combat_with_no_legal_retreat_and_is_told_so(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("2 footmen",), area="the_fingers",
                 origin="the_mountains_of_the_moon", areas='the_twins = ["baratheon footman"]')
    b = battle(state, everyone(state, "lannister", area="the_fingers", origin="the_mountains_of_the_moon"))
    (here,) = cs.say("stark", Retreat(areas=("the_twins",), when=CombatFilter(area="the_fingers")))
    b.run(cs.play("lannister", "ser_jaime_lannister"), cs.play("stark", "catelyn_stark"), [here])
    assert b.done and judged_in(b, here)[here["id"]] == ("refused", "R214")
    assert here["id"] in b.state.segment.used if b.state.segment else True


def test_R203_a_casualty_answer_meets_a_combat_where_none_is_due_and_is_told_so(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"))
    b = battle(state, everyone(state, "lannister"))
    (loss,) = cs.say("stark", Casualties(units=(UnitSpec("footman"),)))
    b.run(cs.play("lannister", "ser_kevan_lannister"), cs.play("stark", "catelyn_stark"), [loss], deadline=True)
    assert b.done and judged_in(b, loss)[loss["id"]] == ("refused", "R203")


def test_R093_a_late_use_blade_after_the_blade_was_used_is_refused_on_arrival(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("footman", "knight"),
                 fiefdoms=["lannister", "stark", "baratheon", "tyrell", "greyjoy", "martell"])
    b = battle(state, everyone(state, "lannister"))
    (first,) = cs.say("lannister", UseBlade(use=True))
    b.run(cs.play("lannister", "ser_jaime_lannister"), cs.play("stark", "catelyn_stark"), [first])
    assert b.state.blade_used and b.asked() == [("casualties", "stark")], "paused after the Blade was used"
    (late,) = cs.say("lannister", UseBlade(use=True))
    b.run([late])
    assert [e.rule for e in b.step.events if isinstance(e, AnswerUnusable) and late["id"] in e.ids] == ["R093"]
    b.run(cs.say("stark", Casualties(units=(UnitSpec("footman"),))), deadline=True)
    assert b.done and judged_in(b, first, late) == {first["id"]: ("used", ""), late["id"]: ("refused", "R093")}


def test_R192_R195_a_house_card_not_its_own_is_refused_on_arrival_and_one_discarded_when_taken_unasked(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",),
                 hands={"stark": ["eddard_stark"]},
                 discards={"stark": ["robb_stark", "greatjon_umber", "roose_bolton", "ser_rodrick_cassel",
                                     "the_blackfish", "catelyn_stark"]})
    b = battle(state, everyone(state, "lannister"))
    (theirs,) = cs.play("stark", "tywin_lannister")
    b.run([theirs])
    assert [e.rule for e in b.step.events if isinstance(e, AnswerUnusable) and theirs["id"] in e.ids] == ["R192"]
    (gone,) = cs.play("stark", "catelyn_stark")
    b.run([gone], cs.play("lannister", "cersei_lannister"))
    assert judged_in(b, gone)[gone["id"]] == ("refused", "R195")
    assert any(r.startswith('the only legal answer, "play Eddard Stark"') for r in b.unusable("stark"))


def test_ruling_160_a_card_choice_and_a_refusal_of_support_never_needed_are_not_needed(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "lannister"))
    (choice,) = cs.say("lannister", CardChoice(card="tyrion_lannister", option="cancel"))
    (refuse,) = cs.say("stark", RefuseSupport(supporter="greyjoy"))
    b.run(cs.play("lannister", "ser_jaime_lannister"), cs.play("stark", "catelyn_stark"), [choice, refuse],
          cs.say("stark", Retreat(areas=("kings_landing",))), deadline=True)
    assert b.done
    assert judged_in(b, choice, refuse) == {choice["id"]: ("expired", "ruling 160"),
                                            refuse["id"]: ("expired", "ruling 160")}


def _white_harbor_taken_with_no_ship_left(battle: Any) -> tuple[Any, dict[str, Any]]:
    """Lannister, its six ships all at sea, takes White Harbor and answers to take its port's ship."""
    fleet = "\n".join(f'{sea} = ["lannister ship"]' for sea in ("the_golden_sound", "sunset_sea", "ironmans_bay",
                                                                "west_summer_sea", "redwyne_straights", "sea_of_dorne"))
    state = duel("lannister", "stark", attack=("3 knights",), defend=("footman",), area="white_harbor",
                 origin="moat_cailin", areas=fleet + '\nport_of_white_harbor = ["stark ship"]')
    b = battle(state, everyone(state, "lannister", area="white_harbor", origin="moat_cailin"))
    (take,) = cs.say("lannister", PortShips(port="port_of_white_harbor", count=1))
    b.run(cs.play("lannister", "ser_gregor_clegane"), cs.play("stark", "catelyn_stark"), [take], deadline=True)
    return b, take


def test_R246_a_port_answer_meets_a_capture_with_no_ship_to_place_and_is_told_so(battle):
    b, take = _white_harbor_taken_with_no_ship_left(battle)
    assert b.done and judged_in(b, take)[take["id"]] == ("refused", "R246")


def test_R246_the_house_with_no_ship_to_place_is_told_why_word_for_word(battle):
    b, _ = _white_harbor_taken_with_no_ship_left(battle)
    assert b.unusable("lannister") == ["you had no ship to place in Port of White Harbor: none left in your supply, "
                                       "or none the supply limit allowed (R246)"]


# --- the Westeros phase (round 2 of a three-player game, played out with the defaults) ----------------


def test_ruling_73_a_westeros_choice_from_a_house_without_the_token_is_refused_when_the_holder_chooses():
    s = round2(("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    holder = s.holder("iron_throne")
    other = next(h for h in s.houses_in_play if h != holder)
    stray = say(other, WesterosChoice(card="a_throne_of_blades", option="muster"), round=2)
    chosen = say(holder, WesterosChoice(card="a_throne_of_blades", option="nothing"), round=2)
    r = Round(s).send(stray, chosen).finish()
    assert r.final(stray) == ("refused", "R044") and r.final(chosen) == ("used", "")


def test_R082_R033_a_bid_beyond_the_power_is_refused_and_a_bid_after_the_westeros_phase_is_not_needed():
    s = round2(("last_days_of_summer", "clash_of_kings", "sea_of_storms"))
    greedy = say("stark", Bid(track="iron_throne", amount=99), round=2)
    r = Round(s).send(greedy)
    assert r.verdicts(greedy) == [("refused", "R082")], "told while the bid is open"
    r.state = advance(r.state, [], deadline=frozenset(p["key"] for p in r.state.pending)).state
    while r.state.phase == "westeros":
        r.state = advance(r.state, [], deadline=frozenset(p["key"] for p in r.state.pending)).state
    late = say("stark", Bid(track="fiefdoms", amount=1), round=2)
    r.send(late)
    assert [(type(e).__name__, e.rule) for e in r.step.events if late["id"] in getattr(e, "ids", ())] == [
        ("AnswersExpired", "R033")]
    r.finish()


def test_R084_a_tie_break_from_a_house_not_breaking_the_tie_is_refused_and_then_not_needed():
    s = round2(("last_days_of_summer", "clash_of_kings", "sea_of_storms"))
    holder = s.holder("iron_throne")
    other = next(h for h in s.houses_in_play if h != holder)
    stray = say(other, TieBreak(order=tuple(s.houses_in_play)), round=2)
    ties = [say(h, Bid(track=t, amount=0), round=2) for h in s.houses_in_play
            for t in ("iron_throne", "fiefdoms", "kings_court")]
    r = Round(s).send(stray, *ties)
    assert r.verdicts(stray)[0] == ("refused", "R085"), "the Iron Throne track's tie: the holder before the bids"
    r.finish()
    assert ("refused", "R084") in r.verdicts(stray), ("the Fiefdoms or King's Court tie", r.verdicts(stray))
    assert r.final(stray) == ("refused", "R084"), "the tie-break's last word: refused, not just not needed"
    assert r.verdicts(stray)[-1] == ("refused", "R084"), "refused already: dropped with its phase, not told again"
    assert stray["id"] not in {a["id"] for a in r.state.answers}


def test_R060_R067_a_supply_removal_and_a_muster_no_decision_asked_for_are_not_needed():
    s = round2(QUIET)
    removal = say("stark", Reconcile(removals=(Located("winterfell", "footman"),)), round=2)
    muster = say("stark", Muster(area="lannisport", actions=(MusterAction(unit="footman"),)), round=2)
    r = Round(s).send(removal, muster).finish()
    assert r.final(removal) == ("expired", "R033") and r.final(muster) == ("expired", "R033")


def test_R106_a_wildling_choice_the_card_did_not_ask_of_the_house_is_refused_when_the_card_resolves():
    s = round2(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=10)
    s.wildling_deck.remove("crow_killers")
    s.wildling_deck.insert(0, "crow_killers")
    nothing = [say(h, Bid(track="wildlings", amount=0), round=2) for h in s.houses_in_play]
    stray = say("stark", WildlingChoice(card="crow_killers", units=(Located("winterfell", "footman"),)), round=2)
    other = say("stark", WildlingChoice(card="mammoth_riders", units=(Located("winterfell", "footman"),)), round=2)
    r = Round(s).send(*nothing, stray, other).finish()
    assert r.final(stray) == ("refused", "R106") and "Crow Killers has resolved" in r.reason(stray)
    assert r.final(other) == ("expired", "R033"), "a card not drawn this round: not needed"


# --- whole games ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (6, 12)])
def test_ruling_160_no_answer_of_a_robot_game_ends_its_round_without_a_verdict(players: int, seed: int):
    """Robots that often send stray answers (support, bids beyond their power, raids from nowhere,
    tie-breaks, the Blade, the Raven, other houses' cards): the simulation checks after every step
    that each answer whose round is over had a verdict (``engine.invariants.unjudged``)."""
    from adjudicator.robots.simulate import simulate

    result = simulate(players, seed, text=False, chaos=0.6, rounds=4, tides_of_battle=seed % 2 == 0)
    assert result.problems == []
    assert result.round > 4 or result.winner
