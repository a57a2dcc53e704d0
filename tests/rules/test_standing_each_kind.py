"""Each kind of standing instruction, on a position: used when it fits, skipped with a word in its
house's receipt when it stops fitting, and the decision then asked as usual (rulings 353, 355).

Withdrawn, replaced and never in a public report are tested for every kind in
``tests/rules/test_standing_kinds.py``; musters in ``tests/rules/test_standing.py`` (rulings 355,
357) and combat answers in ``tests/rules/test_standing_combat.py``. A kind that cannot be skipped
in practice says why in its test's docstring.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from adjudicator.engine.core.context import SKIPPED, Context, NeedAnswers, PoolEntry, Request, pool_entry
from adjudicator.engine.events import AnswerUnusable, AnswerUsed
from adjudicator.engine.events.common import UnitsDestroyed
from adjudicator.engine.events.targaryen import LoyaltyMoved
from adjudicator.engine.events.westeros import BidsRevealed, WesterosChoiceMade
from adjudicator.engine.machine import advance
from adjudicator.engine.rules.westeros import resolve_card
from adjudicator.game.commands import (
    Bid,
    Command,
    CommandVassal,
    InterestLosses,
    Located,
    Reconcile,
    Standing,
    TieBreak,
    WesterosChoice,
    WildlingChoice,
)
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Segment, Unit
from rules.helpers import of, westeros_phase_only
from rules.helpers import westeros_round as at_westeros

THREE = ["stark", "lannister", "baratheon"]
_ids = itertools.count(1)


def standing(house: str, cmd: Command, round: int = 1) -> dict[str, Any]:
    return pool_entry(id=f"{house}/s{next(_ids)}", house=house, round=round, command=Standing(command=cmd),
                      text=f"standing: {house} line {next(_ids)}")


@pytest.fixture
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    westeros_phase_only(monkeypatch)


def westeros_round(cards: tuple[str, str, str], *, threat: int = 0, wildling: str | None = None) -> GameState:
    """Round 2's Westeros Phase of a three-player game with ``cards`` on top of decks I-III."""
    return at_westeros(THREE, cards, seed="each-kind", threat=threat, wildling=wildling)


def only(house: str, kind: str):  # type: ignore[no-untyped-def]
    """A deadline for every decision but ``house``'s of ``kind``."""
    return lambda r: not (r.house == house and r.kind == kind)


def used(events: list[Any], line: dict[str, Any]) -> bool:
    return any(isinstance(e, AnswerUsed) and line["id"] in e.ids for e in events)


def skipped(events: list[Any], line: dict[str, Any], house: str) -> list[AnswerUnusable]:
    found = [e for e in events if isinstance(e, AnswerUnusable) and line["id"] in e.ids]
    assert found and all(e.reason.startswith(SKIPPED) and e.visible_to == house for e in found), found
    return found


def held(state: GameState, line: dict[str, Any]) -> bool:
    return line["id"] in {a["id"] for a in state.answers if a.get("standing")}


def asked(requests: list[Request], house: str, kind: str) -> bool:
    return any(r.house == house and r.kind == kind for r in requests)


# --- the Westeros choice of a dominance token's holder -----------------------------------------


def test_ruling_355_a_dominance_cards_standing_choice_is_never_skipped(westeros_only: None) -> None:
    """Used: ``tests/rules/test_standing.py::test_ruling_353_a_standing_westeros_choice_decides_...``.
    It cannot be skipped in practice: each of the three cards offers its holder the same three
    choices whatever the board (R044, R047, R056), and a line of another house waits for the token
    (it neither fits nor is skipped). Here the holder's line is used on a board where the choice it
    names does nothing at all, and stays."""
    s = westeros_round(("last_days_of_summer", "last_days_of_summer", "put_to_the_sword"))
    holder = s.holder("fiefdoms")
    for st in s.areas.values():  # nobody has a unit: "no defense" forbids what nobody could do
        st.units.clear()
    line = standing(holder, WesterosChoice(card="put_to_the_sword", option="no defense"))
    step = advance(s, [line], deadline=only(holder, "westeros_choice"))
    assert [e.option for e in of(step.events, WesterosChoiceMade)] == ["no defense"]
    assert used(step.events, line) and held(step.state, line)


# --- supply reconciliations ----------------------------------------------------------------------


def _over_supply(moat_cailin: int, karhold: int = 0) -> GameState:
    """Stark over its supply limits after Supply: armies of 4 in The Twins, ``moat_cailin`` in Moat
    Cailin, ``karhold`` in Karhold and 2 in Winterfell against limits of 3 and 2."""
    s = westeros_round(("supply", "last_days_of_summer", "sea_of_storms"))
    s.area_mut("the_twins").units = [Unit("stark", "footman") for _ in range(4)]
    s.area_mut("moat_cailin").units = [Unit("stark", "footman") for _ in range(moat_cailin)]
    s.area_mut("karhold").units = [Unit("stark", "footman") for _ in range(karhold)]
    return s


CUT = Reconcile(removals=(Located("the_twins", "footman"), Located("moat_cailin", "footman", 2)))


def test_ruling_353_a_standing_supply_line_that_fits_decides_the_cut(westeros_only: None) -> None:
    line = standing("stark", CUT)
    step = advance(_over_supply(3), [line], deadline=only("stark", "reconcile"))
    assert used(step.events, line) and held(step.state, line) and not asked(step.requests, "stark", "reconcile")
    stark = lambda a: sum(1 for u in step.state.area(a).units if u.house == "stark")  # noqa: E731
    assert (stark("the_twins"), stark("moat_cailin"), stark("winterfell")) == (3, 1, 2)


def test_ruling_355_a_standing_supply_line_naming_units_no_longer_there_is_skipped(westeros_only: None) -> None:
    line = standing("stark", CUT)
    step = advance(_over_supply(1, karhold=2), [line], deadline=only("stark", "reconcile"))  # one in Moat Cailin
    skipped(step.events, line, "stark")
    assert asked(step.requests, "stark", "reconcile") and held(step.state, line)


# --- wildling bids and penalties -----------------------------------------------------------------


def _attack(stark_power: int) -> GameState:
    """Wildlings Attack in deck III with the threat at 6 and Mammoth Riders on top of the wildling deck."""
    s = westeros_round(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=6,
                       wildling="mammoth_riders")
    s.houses["stark"].power = stark_power
    return s


def test_ruling_353_a_standing_wildling_bid_is_bid(westeros_only: None) -> None:
    line = standing("stark", Bid(track="wildlings", amount=2))
    step = advance(_attack(3), [line], deadline=only("stark", "bid"))
    assert used(step.events, line) and held(step.state, line)
    revealed = [e for e in of(step.events, BidsRevealed) if e.track == "wildlings"]
    assert revealed and dict(revealed[0].bids)["stark"] == 2


def test_ruling_355_a_standing_wildling_bid_over_the_available_power_is_skipped_and_the_bid_asked(
        westeros_only: None) -> None:
    line = standing("stark", Bid(track="wildlings", amount=2))
    step = advance(_attack(1), [line], deadline=only("stark", "bid"))
    skipped(step.events, line, "stark")
    assert asked(step.requests, "stark", "bid") and held(step.state, line)


def _penalty(lines: list[dict[str, Any]], moat_cailin: int) -> Any:
    """Stark bids 2, the others 0: the wildlings (6) win, and Stark, not the lowest, destroys 2 units."""
    s = _attack(3)
    s.area_mut("moat_cailin").units = [Unit("stark", "footman") for _ in range(moat_cailin)]
    bid = standing("stark", Bid(track="wildlings", amount=2))
    return advance(s, [bid, *lines], deadline=only("stark", "wildling_choice"))


LOSSES = WildlingChoice(card="mammoth_riders", units=(Located("moat_cailin", "footman", 2),))


def test_ruling_353_a_standing_wildling_penalty_names_the_units_lost(westeros_only: None) -> None:
    line = standing("stark", LOSSES)
    step = _penalty([line], moat_cailin=2)
    assert used(step.events, line) and held(step.state, line)
    lost = [e for e in of(step.events, UnitsDestroyed) if e.house == "stark"]
    assert lost and {e.area for e in lost} == {"moat_cailin"} and not step.state.area("moat_cailin").units


def test_ruling_355_a_standing_wildling_penalty_whose_units_are_gone_is_skipped_and_asked(westeros_only: None) -> None:
    line = standing("stark", LOSSES)
    step = _penalty([line], moat_cailin=0)
    skipped(step.events, line, "stark")
    assert asked(step.requests, "stark", "wildling_choice") and held(step.state, line)


# --- tie-breaks ----------------------------------------------------------------------------------


def test_ruling_355_a_standing_tie_break_that_leaves_out_a_tied_house_is_skipped(westeros_only: None) -> None:
    """Everyone bids 0 against the wildlings: a tie of all three for the lowest bid. The Iron Throne's
    standing order naming only two of them does not fit it: skipped, and the tie-break asked."""
    s = _attack(0)
    holder = s.holder("iron_throne")
    short = standing(holder, TieBreak(order=tuple(h for h in THREE if h != "stark")))
    step = advance(s, [short], deadline=lambda r: r.kind != "tie_break")
    skipped(step.events, short, holder)
    assert asked(step.requests, holder, "tie_break") and held(step.state, short)
    full = standing(holder, TieBreak(order=tuple(THREE)))
    step = advance(s, [full], deadline=lambda r: r.kind != "tie_break")
    assert used(step.events, full) and not asked(step.requests, holder, "tie_break")


# --- interest (Mother of Dragons) ----------------------------------------------------------------


def _debt() -> tuple[GameState, str, str]:
    """Round 3 begins: a debtor with two loans and no power owes 2; the chooser of its losses (M110)."""
    from mother_of_dragons.bank_helpers import bank_game

    from adjudicator.engine.rules import iron_bank

    s = bank_game(bare=False)
    s.round, s.phase, s.step = 3, "westeros", ""
    blade = s.holder("fiefdoms")
    debtor = next(h for h in s.players() if h != blade)
    s.houses[debtor].loans, s.houses[debtor].power = ["customs_officer", "spymaster"], 0
    return s, debtor, iron_bank.chooser(s, debtor)


def _two_units(s: GameState, debtor: str) -> InterestLosses:
    pairs = [(a, u.type) for a, u in s.units_of(debtor)][:2]
    return InterestLosses(debtor=debtor, removals=tuple(Located(a, t) for a, t in pairs))


def test_ruling_353_a_standing_interest_line_chooses_the_debtors_losses(westeros_only: None) -> None:
    s, debtor, who = _debt()
    line = standing(who, _two_units(s, debtor), round=3)
    step = advance(s, [line], deadline=only(who, "interest"))
    assert used(step.events, line) and held(step.state, line) and not asked(step.requests, who, "interest")


def test_ruling_355_a_standing_interest_line_naming_units_gone_is_skipped_and_asked(westeros_only: None) -> None:
    s, debtor, who = _debt()
    losses = _two_units(s, debtor)
    line = standing(who, losses, round=3)
    for r in losses.removals:  # the debtor lost those units since the line was sent
        st = s.area_mut(r.area)
        st.units = [u for u in st.units if not (u.house == debtor and u.type == r.unit)]
    step = advance(s, [line], deadline=only(who, "interest"))
    skipped(step.events, line, who)
    assert asked(step.requests, who, "interest") and held(step.state, line)


# --- vassal choices (Mother of Dragons) ----------------------------------------------------------


def test_ruling_353_ruling_355_a_standing_vassal_choice_is_used_and_skipped_when_the_vassal_is_taken() -> None:
    """Three players, four vassals: Baratheon holds two sets and chooses first, then Lannister; Stark,
    the last, takes every vassal left without choosing (M033, M034, M037)."""
    from mother_of_dragons.vassal_helpers import mod_game

    def planning(baratheon_takes: str) -> tuple[Any, dict[str, Any]]:
        takes = pool_entry(id=f"baratheon/{baratheon_takes}", house="baratheon", round=1,
                           command=CommandVassal(vassal=baratheon_takes), text=f"command {baratheon_takes}")
        line = standing("lannister", CommandVassal(vassal="greyjoy"))
        return advance(mod_game(), [takes, line], deadline=lambda r: r.house != "lannister"), line

    step, line = planning("tyrell")
    assert step.state.commanders.get("greyjoy") == "lannister" and used(step.events, line) and held(step.state, line)
    step, line = planning("greyjoy")  # taken before Lannister's turn
    skipped(step.events, line, "lannister")
    assert asked(step.requests, "lannister", "vassal_choice") and held(step.state, line)


# --- loyalty-token moves (Mother of Dragons' deck IV) ---------------------------------------------


def _dissent(*lines: dict[str, Any]) -> tuple[Context, list[Request]]:
    """Scattering Dissent resolved, every decision but Stark's by its default; what Stark is asked."""
    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="iv")
    s.round, s.phase = 2, "westeros"
    ctx = Context(s, s.board(), Segment("westeros", {}), [PoolEntry.from_dict(a) for a in lines],
                  lambda r: r.house != "stark")
    try:
        resolve_card(ctx, 4, "scattering_dissent")  # its banner puts a token on Karhold first
    except NeedAnswers as waiting:
        return ctx, list(waiting.requests)
    return ctx, []


def test_ruling_353_a_standing_loyalty_move_moves_the_token() -> None:
    line = standing("stark", WesterosChoice(card="scattering_dissent", option="karhold+winterfell"), round=2)
    ctx, waiting = _dissent(line)
    moves = [m for m in of(ctx.events, LoyaltyMoved) if m.house == "stark"]
    assert [(m.origin, m.destination) for m in moves] == [("karhold", "winterfell")]
    assert used(ctx.events, line) and not asked(waiting, "stark", "westeros_choice")


def test_ruling_355_a_standing_loyalty_move_from_an_area_without_a_token_is_skipped_and_asked() -> None:
    line = standing("stark", WesterosChoice(card="scattering_dissent", option="the_twins+riverrun"), round=2)
    ctx, waiting = _dissent(line)
    skipped([*ctx.events, *ctx.transient], line, "stark")
    assert asked(waiting, "stark", "westeros_choice")
    assert not [m for m in of(ctx.events, LoyaltyMoved) if m.house == "stark"]


# --- a wildling card's severe and lesser penalties: a line for each number of units (ruling 360) ----


THREE_LOST = WildlingChoice(card="mammoth_riders", units=(Located("moat_cailin", "footman", 3),))
TWO_LOST = WildlingChoice(card="mammoth_riders", units=(Located("moat_cailin", "footman", 2),))


def test_ruling_360_a_severe_and_a_lesser_penalty_line_of_one_card_stand_side_by_side(westeros_only: None) -> None:
    severe, lesser = standing("stark", THREE_LOST), standing("stark", TWO_LOST)
    step = _penalty([severe, lesser], moat_cailin=3)  # Stark bids 2, not the lowest: it loses 2 units
    assert used(step.events, lesser) and not used(step.events, severe)
    assert held(step.state, severe) and held(step.state, lesser)
    assert sum(1 for u in step.state.area("moat_cailin").units if u.house == "stark") == 1


def test_ruling_360_the_lowest_bidder_loses_what_its_severe_penalty_line_names(westeros_only: None) -> None:
    s = _attack(3)
    s.area_mut("moat_cailin").units = [Unit("stark", "footman") for _ in range(3)]
    bids = [standing(h, Bid(track="wildlings", amount=1)) for h in ("lannister", "baratheon")]
    severe, lesser = standing("stark", THREE_LOST), standing("stark", TWO_LOST)
    step = advance(s, [*bids, severe, lesser], deadline=only("stark", "wildling_choice"))  # Stark bids 0: lowest
    assert used(step.events, severe) and not used(step.events, lesser)
    assert not step.state.area("moat_cailin").units and not asked(step.requests, "stark", "wildling_choice")


def test_ruling_360_a_penalty_line_replaces_only_the_line_naming_as_many_units() -> None:
    from adjudicator.engine.rules.standing import standing_changes

    s = at_westeros(THREE, ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), seed="each-kind")
    decline = standing("stark", WildlingChoice(card="mammoth_riders"))
    severe, lesser = standing("stark", THREE_LOST), standing("stark", TWO_LOST)
    newer = standing("stark", WildlingChoice(card="mammoth_riders", units=(Located("winterfell", "footman", 2),)))
    lines = [decline, severe, lesser, newer]
    kept, _ = standing_changes(s, s.board(), lines, {a["id"] for a in lines})
    assert [a["id"] for a in kept] == [decline["id"], severe["id"], newer["id"]]


# --- supply: a line for each number of units a cut asks for (ruling 362) ------------------------------


def test_ruling_362_supply_lines_naming_different_numbers_of_units_stand_side_by_side(westeros_only: None) -> None:
    one = standing("stark", Reconcile(removals=(Located("the_twins", "footman"),)))
    three = standing("stark", CUT)
    step = advance(_over_supply(3), [three, one], deadline=only("stark", "reconcile"))  # 3 to destroy
    assert used(step.events, three) and not used(step.events, one)
    assert held(step.state, one) and held(step.state, three) and not asked(step.requests, "stark", "reconcile")


def test_ruling_362_a_supply_line_replaces_only_the_line_naming_as_many_units() -> None:
    from adjudicator.engine.rules.standing import standing_changes

    s = at_westeros(THREE, ("supply", "last_days_of_summer", "sea_of_storms"), seed="each-kind")
    one = standing("stark", Reconcile(removals=(Located("the_twins", "footman"),)))
    three = standing("stark", CUT)
    other_one = standing("stark", Reconcile(removals=(Located("winterfell", "footman"),)))
    lines = [one, three, other_one]
    kept, _ = standing_changes(s, s.board(), lines, {a["id"] for a in lines})
    assert [a["id"] for a in kept] == [three["id"], other_one["id"]]
