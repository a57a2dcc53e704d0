"""Answering ahead the expansion's decisions (rulings 295-298): deck IV's loyalty-token moves and
Targaryen's cancels, the choice of vassals, the orders of the vassals a house commands, Targaryen's
deck IV choices and distributions, the Iron Bank's loans."""

from __future__ import annotations

import pytest
from rules.helpers import entry, of, reasons

from adjudicator.engine.ahead import upcoming
from adjudicator.engine.core.context import NeedAnswers
from adjudicator.engine.events import AnswerUsed
from adjudicator.engine.events.targaryen import LoyaltyMoved
from adjudicator.engine.events.vassals import VassalCommanded
from adjudicator.engine.machine import advance
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import CommandVassal, DistributeBid, Gift, Raid, Support, WesterosChoice
from adjudicator.game.state import Order, Unit
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command
from mother_of_dragons.test_westeros_iv import T, resolve, tgame
from mother_of_dragons.vassal_helpers import for_vassal, mod_game

HEADER = "game g · house {house} · round 2 · westeros · seq 1\n"


def parsed(line: str, house: str = T) -> tuple[list[object], list[str]]:
    tf = parse_turn_file(HEADER.format(house=house) + line + "\n", variant="mother-of-dragons")
    return list(tf.commands), [p.message for p in tf.problems]


# --- ruling 295: the loyalty-token moves and Targaryen's cancels ----------------------------------------


def test_M083_ruling_295_cancel_houses_is_a_line_that_prints_and_parses_back():
    cmds, problems = parsed("Scattering Dissent: cancel Stark, Lannister")
    assert problems == [] and cmds == [WesterosChoice(card="scattering_dissent", option="cancel:stark+lannister")]
    assert parsed(format_command(cmds[0]))[0] == cmds
    none, _ = parsed("word spreads quickly: cancel none")
    assert none == [WesterosChoice(card="word_spreads_quickly", option="cancel:")]
    assert format_command(none[0]) == "Word Spreads Quickly: cancel none"
    assert parsed("scattering dissent: cancel")[0] == [WesterosChoice(card="scattering_dissent", option="cancel")]


def test_M083_ruling_295_cancel_of_an_unknown_house_or_on_another_card_is_explained():
    cmds, problems = parsed("scattering dissent: cancel Winterfell")
    assert cmds == [] and problems and "house" in problems[0].lower()
    cmds, problems = parsed("empty promises: cancel stark")
    assert cmds == [] and problems


def test_M083_ruling_295_targaryens_standing_cancels_answer_every_move_of_the_card():
    s = tgame()
    movers = [h for h in s.turn_order() if h in s.players()]
    power = s.houses[T].power
    ctx = resolve(s, "word_spreads_quickly", WesterosChoice(card="word_spreads_quickly", option=f"cancel:{movers[0]}"),
                  deadline=True)
    moves = {m.house: m.cancelled for m in of(ctx.events, LoyaltyMoved)}
    assert moves[movers[0]] is True and not any(c for h, c in moves.items() if h != movers[0])
    price = int((CARDS.westeros_card(4, "word_spreads_quickly").details or {}).get("cost_to_cancel_each_move", 1))
    assert s.houses[T].power == power - price
    used = of(ctx.events, AnswerUsed)
    assert sum(1 for e in used if e.house == T) == len([h for h in movers if h != T])  # one line, every move


def _first_mover_sends(option: str):
    """Word Spreads Quickly with a token in Karhold, the first house in turn order having sent ``option`` ahead:
    that house, the resolution, and the move it made."""
    s = tgame()
    first = [h for h in s.turn_order() if h in s.players()][0]
    s.area_mut("karhold").loyalty = 1
    line = WesterosChoice(card="word_spreads_quickly", option=option)
    ctx = resolve(s, "word_spreads_quickly", deadline=True, answers_of={first: [line]})
    return first, ctx, [m for m in of(ctx.events, LoyaltyMoved) if m.house == first][0]


def test_M083_ruling_295_a_move_sent_ahead_is_used_at_its_turn():
    _, _, got = _first_mover_sends("karhold+winterfell")
    assert (got.origin, got.destination) == ("karhold", "winterfell")


def test_M083_ruling_295_a_move_with_fall_backs_prints_and_parses_back_and_only_fits_the_two_cards():
    cmds, problems = parsed("scattering dissent: Karhold, Winterfell else The Twins, Riverrun", house="stark")
    assert problems == [] and cmds == [WesterosChoice(card="scattering_dissent",
                                                      option="karhold+winterfell|the_twins+riverrun")]
    assert format_command(cmds[0]) == "Scattering Dissent: Karhold, Winterfell else The Twins, Riverrun"
    _, problems = parsed("empty promises: Karhold, Winterfell else The Twins, Riverrun")
    assert problems and "FROM, TO else FROM, TO" in problems[0] and "Empty Promises" in problems[0]
    _, problems = parsed("scattering dissent: Karhold, Winterfell else The Twins", house="stark")
    assert problems and "expected ','" in problems[0]  # a fall-back names where the token lies and where it goes


def test_M083_ruling_295_the_first_legal_move_of_a_line_is_made_and_only_it_is_public():
    from adjudicator.engine.events.westeros import WesterosChoiceMade

    first, ctx, got = _first_mover_sends("moat_cailin+the_twins|karhold+winterfell|karhold+the_last_hearth")
    assert (got.origin, got.destination) == ("karhold", "winterfell")  # Moat Cailin holds no token
    made = [e.option for e in of(ctx.events, WesterosChoiceMade) if e.house == first]
    assert made == ["karhold+winterfell"]  # the fall-backs not taken stay the player's own


def test_M083_ruling_295_a_move_no_longer_possible_is_refused_and_asked():
    s = tgame()
    first = [h for h in s.turn_order() if h in s.players()][0]
    stale = WesterosChoice(card="word_spreads_quickly", option="karhold+winterfell")  # no token in Karhold
    with pytest.raises(NeedAnswers) as asked:
        resolve(s, "word_spreads_quickly", answers_of={first: [stale]})
    assert asked.value.requests[0].house == first


def test_M083_ruling_295_coming_up_lists_each_players_move_and_targaryens_cancels():
    s = tgame()
    s.westeros_revealed = ["supply", "mustering", "clash_of_kings", "scattering_dissent"]
    s.step = "card_1"
    for house in s.players():
        found = {u.request.context.get("part") for u in upcoming(s, house, [])
                 if u.request.context.get("card") == "scattering_dissent"}
        assert found == ({"move", "cancel"} if house == T else {"move"})
    cancels = next(u for u in upcoming(s, T, []) if u.request.context.get("part") == "cancel")
    assert cancels.lines[0] == "Scattering Dissent: cancel HOUSE, HOUSE"
    sent = [entry(T, WesterosChoice(card="scattering_dissent", option="cancel:stark"), round=2)]
    s.answers = sent
    assert not [u for u in upcoming(s, T, []) if u.request.context.get("part") == "cancel"]  # answered


# --- ruling 296: "command tyrell else martell else none" ---------------------------------------------


def test_M034_ruling_296_a_list_of_vassals_prints_and_parses_back():
    cmds, problems = parsed("command tyrell else martell else none", house="stark")
    assert problems == [] and cmds == [CommandVassal(vassal="tyrell", otherwise=("martell", None))]
    assert format_command(cmds[0]) == "command tyrell else martell else none"
    assert parsed("command none", house="stark")[0] == [CommandVassal(vassal=None)]
    _, twice = parsed("command tyrell else tyrell", house="stark")
    _, early = parsed("command none else tyrell", house="stark")
    assert twice and "twice" in twice[0] and early and "last" in early[0]


def test_M034_ruling_296_the_first_vassal_still_free_is_taken():
    s = mod_game()  # three players: Baratheon holds two sets, then Lannister
    step = advance(s, [entry("baratheon", CommandVassal(vassal="tyrell")),
                       entry("lannister", CommandVassal(vassal="tyrell", otherwise=("martell", None)))])
    step = advance(step.state, [entry("baratheon", CommandVassal(vassal="arryn"))])
    assert step.state.commanders.get("martell") == "lannister"
    assert ("martell", "lannister") in [(e.vassal, e.commander) for e in of(step.events, VassalCommanded)]


def test_M034_ruling_296_a_list_with_no_vassal_free_is_refused_and_asked():
    s = mod_game()
    step = advance(s, [entry("baratheon", CommandVassal(vassal="tyrell")),
                       entry("baratheon", CommandVassal(vassal="arryn")),
                       entry("lannister", CommandVassal(vassal="tyrell", otherwise=("arryn",)))])
    assert any("none of Tyrell, Arryn is free" in r and "ruling 296" in r for r in reasons(step, "lannister"))
    assert [(r.house, r.kind) for r in step.requests] == [("lannister", "vassal_choice")]


def test_M034_ruling_296_coming_up_offers_the_choice_to_the_players_below_the_holder():
    s = mod_game()
    step = advance(s, [])
    order = [h for h in s.turn_order() if h in s.players()]
    assert step.requests[0].house == order[0]
    lists = {h: [u for u in upcoming(step.state, h, step.requests) if u.request.kind == "vassal_choice"]
             for h in order}
    assert lists[order[0]] == [] and lists[order[-1]] == []  # asked now; the last takes the rest (M037)
    assert lists[order[1]][0].lines == ("command VASSAL else VASSAL else none",)


# --- ruling 297: the orders of the vassals a house commands ----------------------------------------------


def test_M073_ruling_297_a_vassals_muster_comes_up_for_its_commander_in_its_home_area():
    s = mod_game()
    s.round, s.phase, s.step = 2, "westeros", "card_1"
    s.westeros_revealed = ["mustering", "clash_of_kings", "feast_for_crows"]
    s.commanders = {"tyrell": "stark"}
    found = [u for u in upcoming(s, "stark", []) if u.request.vassal == "tyrell"]
    assert [(u.request.kind, u.request.context.get("area"), u.request.house) for u in found] == [
        ("muster", "highgarden", "stark")]
    assert not [u for u in upcoming(s, "lannister", []) if u.request.vassal]


def test_M047_ruling_297_a_vassals_raid_comes_up_for_its_commander_and_is_used():
    s = mod_game()
    s.phase, s.round = "action", 2
    s.commanders = {"tyrell": "stark"}
    s.area_mut("highgarden").units = [Unit("tyrell", "footman")]
    s.area_mut("highgarden").order = Order("tyrell", "vassal_raid_support")
    s.area_mut("oldtown").units = [Unit("lannister", "footman")]
    s.area_mut("oldtown").order = Order("lannister", "consolidate")
    found = [u for u in upcoming(s, "stark", []) if u.request.vassal == "tyrell"]
    # its raid, and whom it supports if it does not raid (M047, M048)
    assert [u.request.kind for u in found] == ["raid", "support"] and found[0].request.house == "stark"
    assert "for Tyrell" in found[0].request.prompt
    assert not [u for u in upcoming(s, "lannister", []) if u.request.vassal]  # only its commander sees them
    sent = [for_vassal("stark", "tyrell", Raid(origin="highgarden", targets=("oldtown",))),
            for_vassal("stark", "tyrell", Support(side="stark", origin="highgarden"))]
    s.answers = sent
    assert not [u for u in upcoming(s, "stark", []) if u.request.vassal == "tyrell"]  # answered already


def test_M034_ruling_296_robots_answering_ahead_are_asked_a_vassal_choice_at_most_once_a_round():
    from collections import Counter

    from adjudicator.robots.simulate import simulate

    result = simulate(7, 1, text=False, chaos=0.0, ahead=True, expansion="mother-of-dragons", rounds=3)
    assert not result.problems
    asked = Counter(rnd for rnd, _, kinds in result.mail_rounds if "vassal_choice" in kinds)
    assert asked and max(asked.values()) == 1  # the first holder at most; the others answered ahead


# --- ruling 298: Targaryen's deck IV choices and distributions, the Iron Bank's loans ------------------


def test_M083_ruling_298_targaryens_choice_of_a_later_deck_iv_card_comes_up_with_its_choices_now():
    s = tgame()
    s.westeros_revealed = ["supply", "mustering", "clash_of_kings", "fire_made_flesh"]
    s.step = "card_1"
    found = [u for u in upcoming(s, T, []) if u.request.context.get("card") == "fire_made_flesh"]
    assert len(found) == 1
    options = [o.option for o in found[0].request.options]
    assert options[0] == "nothing" and "muster" not in options  # every dragon is on the board
    assert not [u for u in upcoming(s, "stark", []) if u.request.context.get("card") == "fire_made_flesh"]


def test_M083_ruling_298_a_choice_the_position_no_longer_allows_is_refused_and_asked():
    s = tgame()  # three dragons on the board: none to bring back to Pentos
    with pytest.raises(NeedAnswers):
        resolve(s, "fire_made_flesh", WesterosChoice(card="fire_made_flesh", option="muster"))


def test_M100_ruling_298_a_distribution_sent_ahead_that_does_not_give_exactly_the_bid_is_refused_and_asked():
    from mother_of_dragons import test_targaryen as targ

    s = targ.tgame()
    s.round = 2
    short = DistributeBid(track="fiefdoms", gifts=(Gift("stark", 2), Gift("lannister", 1)))
    with pytest.raises(NeedAnswers) as waiting:
        targ.bidding(s, *targ.fiefdom_bids(4), (T, short))
    assert [(r.house, r.kind) for r in waiting.value.requests] == [(T, "distribute")]


def test_M100_ruling_298_the_distributions_come_up_for_targaryen_with_a_clash_of_kings_to_come():
    s = tgame()
    s.westeros_revealed = ["supply", "clash_of_kings", "feast_for_crows", "empty_promises"]
    s.step = "card_1"
    tracks = [u.request.context["track"] for u in upcoming(s, T, []) if u.request.kind == "distribute"]
    assert tracks == ["iron_throne", "fiefdoms", "kings_court"]
    assert not [u for u in upcoming(s, "stark", []) if u.request.kind == "distribute"]
    s.answers = [entry(T, DistributeBid(track="fiefdoms", gifts=(Gift("stark", 1),)), round=2)]
    tracks = [u.request.context["track"] for u in upcoming(s, T, []) if u.request.kind == "distribute"]
    assert tracks == ["iron_throne", "kings_court"]  # answered already


def test_M110_ruling_298_a_later_debtors_losses_come_up_for_its_chooser_while_an_earlier_one_is_asked():
    from rules.helpers import put

    from adjudicator.engine.core.context import Request
    from adjudicator.engine.rules.iron_bank import chooser
    from mother_of_dragons.bank_helpers import bank_game

    s = bank_game()
    s.round, s.phase = 2, "westeros"
    order = [h for h in s.turn_order() if h in s.players()]
    first, later = order[0], order[-1]
    for debtor, area in ((first, "winterfell"), (later, "lannisport")):
        s.houses[debtor].loans, s.houses[debtor].power = ["spymaster"], 0
        put(s, area, debtor, "footman")
    asked = [Request(key="r2.westeros.1.interest.x", kind="interest", house=chooser(s, first),
                     prompt="", context={"debtor": first, "short": 1})]
    who = chooser(s, later)
    found = [u for u in upcoming(s, who, asked) if u.request.kind == "interest"]
    assert [(u.request.context["debtor"], u.request.context["short"]) for u in found] == [(later, 1)]
    assert not [u for h in order if h != who for u in upcoming(s, h, asked) if u.request.kind == "interest"
                and u.request.context.get("debtor") == later]


def test_M104_ruling_298_an_iron_bank_order_comes_up_with_its_loans_and_a_stale_one_is_refused():
    from rules.helpers import put, run

    from adjudicator.game.commands import IronBank
    from mother_of_dragons.bank_helpers import at_consolidate, bank_game

    s = bank_game()
    put(s, "bay_of_ice", "stark", "ship", order="iron_bank")
    s.houses["stark"].power = 9
    s.phase = "action"
    found = [u for u in upcoming(s, "stark", []) if u.request.context.get("iron_bank_orders")]
    assert [u.request.context["origin"] for u in found] == ["bay_of_ice"]
    assert IronBank(area="bay_of_ice") == found[0].request.options[0]
    assert {o.loan for o in found[0].request.options[1:]} <= {"spymaster", "full_host", "customs_officer"}
    at_consolidate(s)
    s.loan_slots = ["spymaster", "full_host", ""]  # taken by another house before Stark's turn
    step = run(s, entry("stark", IronBank(area="bay_of_ice", loan="customs_officer")))
    assert any("not face up" in r and "M104" in r for r in reasons(step, "stark"))
    assert [(r.house, r.kind) for r in step.requests] == [("stark", "consolidate")]


def test_M030_ruling_297_a_commanders_coming_up_list_holds_its_vassals_support_and_retreats():
    """Was missing: the commander saw its vassal's raid coming up, but not whom the Raid/Support token
    supports when it does not raid (M047, M048), nor where the vassal's army retreats from an area it
    may be attacked in: those decisions came as mails of their own."""
    s = mod_game()
    s.phase, s.round = "action", 2
    s.commanders = {"tyrell": "stark"}
    s.area_mut("highgarden").units = [Unit("tyrell", "footman")]
    s.area_mut("highgarden").order = Order("tyrell", "vassal_raid_support")
    s.area_mut("oldtown").units = [Unit("tyrell", "footman"), Unit("tyrell", "knight")]
    s.area_mut("dornish_marches").units = [Unit("lannister", "footman")]
    s.area_mut("dornish_marches").order = Order("lannister", "march+0")
    found = [u for u in upcoming(s, "stark", []) if u.request.vassal == "tyrell"]
    assert [(u.request.kind, u.request.context.get("origin") or u.request.context.get("combat_area"))
            for u in found] == [("raid", "highgarden"), ("support", "highgarden"), ("retreat", "highgarden"),
                                ("retreat", "oldtown")]
    retreat = next(u for u in found if u.request.kind == "retreat" and u.request.context["combat_area"] == "oldtown")
    assert retreat.request.house == "stark" and retreat.why.startswith("Tyrell may be attacked in Oldtown")
    support = next(u for u in found if u.request.kind == "support")
    assert support.lines[0].startswith("for tyrell: support from Highgarden:")
    assert not [u for u in upcoming(s, "lannister", []) if u.request.vassal == "tyrell"]


# --- ruling 361: a vassal's card and its commander's Blade, answered ahead --------------------------


def test_M058_ruling_361_a_vassals_card_may_be_answered_ahead_as_a_choice_over_the_vassal_deck():
    from adjudicator.engine.ahead import own_orders
    from adjudicator.engine.ahead_mod import vassal_combat
    from mother_of_dragons.vassal_battles import COMMANDERS, stark_attacks_the_reach

    s = stark_attacks_the_reach()  # Stark's march from Blackwater may reach The Reach, Tyrell's
    commander = COMMANDERS["tyrell"]
    orders = own_orders(s, commander, None, "tyrell")
    found = {u.request.kind: u.request for u in vassal_combat(s, s.board(), commander, "tyrell", orders)}
    assert found["house_card"].house == "tyrell"
    assert [o.card for o in found["house_card"].options] == list(CARDS.vassal_deck())
    assert ("blade" in found) == (s.holder("fiefdoms") == commander)
    s.tracks["fiefdoms"] = [commander, *(h for h in s.tracks["fiefdoms"] if h != commander)]  # it holds the Blade
    assert "blade" in {u.request.kind for u in vassal_combat(s, s.board(), commander, "tyrell", orders)}
    s.area_mut("blackwater").order = None  # no march left that may reach the vassal
    assert vassal_combat(s, s.board(), commander, "tyrell", own_orders(s, commander, None, "tyrell")) == []
