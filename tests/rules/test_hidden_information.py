"""Hidden information (R263-R267): what the events let each house see, and when.

Every test reads the events as a house or the public would, through
:func:`adjudicator.engine.events.visible`, and scans every string an event carries (its saved form, as
``report.json`` holds it). Requests are scanned too: their prompts are shown to everyone
(ruling 132), so a prompt must never carry a secret.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import Event, visible
from adjudicator.engine.events.action import (
    OrdersRevealed,
    WildlingCardPlaced,
    WildlingCardSeen,
)
from adjudicator.engine.events.combat import (
    HouseCardsRevealed,
    SupportDeclared,
    TidesDrawn,
    TidesRevealed,
)
from adjudicator.engine.events.westeros import BidsRevealed
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import (
    ORDER_TOKENS,
    AssignOrder,
    Bid,
    Raid,
    Raven,
    RavenKeep,
    Support,
    UseBlade,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

from .helpers import at_action, combat, entry, game, of, phases, put, run  # noqa: F401
from .test_combat_harness import battle, duel, everyone, play, say  # noqa: F401
from .test_combat_tides import tides

THREE = ["stark", "lannister", "baratheon"]  # turn order baratheon, lannister, stark
_ids = itertools.count()


def strings(events: Iterable[Event]) -> set[str]:
    """Every string value inside the saved form of the events."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    for e in events:
        walk(e.to_dict())
        out.add(e.describe())
    return out


def mentions(events: Iterable[Event], needle: str) -> bool:
    return any(needle in s for s in strings(events))


def prompts(step: Step) -> str:
    return " | ".join(r.prompt for r in step.requests)


def answer(house: str, command: Any, round: int = 2) -> dict[str, Any]:
    return pool_entry(id=f"h{next(_ids)}", house=house, round=round, command=command)


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def westeros_position(cards: tuple[str, str, str], *, threat: int = 0) -> GameState:
    s = new_game(THREE, seed="hidden")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


# --- R263: orders ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R263_placed_orders_stay_face_down_until_every_house_has_placed_its_own():
    s = game()
    s.phase = "planning"
    put(s, "winterfell", "stark", "footman")
    put(s, "lannisport", "lannister", "footman")
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="march+1")))
    assert [(r.kind, r.house, r.secret) for r in step.requests] == [("orders", "lannister", True)]
    for viewer in (None, "lannister"):
        assert not mentions(visible(step.events, viewer), "march+1"), viewer
    assert "march+1" not in prompts(step)
    step = run(step.state, entry("lannister", AssignOrder(area="lannisport", token="defense+1")))
    revealed = of(visible(step.events, None), OrdersRevealed)
    assert [set(r.orders) for r in revealed] == [{("winterfell", "stark", "march+1"), ("lannisport", "lannister", "defense+1")}]


@pytest.mark.usefixtures("phases", "combat")
def test_R263_unused_order_tokens_never_appear_in_a_public_event():
    s = game()
    s.phase = "planning"
    s.tracks["kings_court"] = ["stark", "lannister", "martell", "baratheon", "tyrell", "greyjoy"]  # Stark: the raven
    put(s, "winterfell", "stark", "footman")
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="march+0")))
    assert step.requests[0].kind == "raven" and "raid*" in step.requests[0].context["unused_tokens"]
    step = run(step.state, entry("stark", Raven(action="pass")), deadline=True)
    assert step.state.round == 2
    public_tokens = {t for t in ORDER_TOKENS if mentions(visible(step.events, None), t)}
    assert public_tokens == {"march+0"}, public_tokens


@pytest.mark.usefixtures("phases", "combat")
def test_R263_a_deadline_default_order_is_told_only_to_its_house_before_the_reveal():
    s = game()
    s.phase = "planning"
    put(s, "winterfell", "stark", "footman")
    put(s, "lannisport", "lannister", "footman")
    put(s, "pyke", "greyjoy", "footman")
    # Greyjoy answers nothing; at the deadline its default is taken, then all are revealed at once.
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="raid")),
               entry("lannister", AssignOrder(area="lannisport", token="consolidate")), deadline=True)
    names = [type(e).__name__ for e in visible(step.events, None)]
    defaults = [e for e in step.events if type(e).__name__ == "DefaultUsed" and e.house == "greyjoy"]
    assert defaults and all(e.visible_to == "greyjoy" for e in defaults)
    assert "DefaultUsed" not in names[: names.index("OrdersRevealed")]


# --- R264 / R265: power and bids -------------------------------------------------------------------


def test_R264_R265_bids_and_what_they_cost_stay_hidden_until_every_house_has_bid(westeros_only):
    s = westeros_position(("last_days_of_summer", "clash_of_kings", "web_of_lies"))
    step = advance(s, [answer("stark", Bid(track="iron_throne", amount=3)),
                       answer("lannister", Bid(track="iron_throne", amount=4))])
    assert [(r.kind, r.house, r.secret) for r in step.requests] == [("bid", "baratheon", True)]
    for viewer in (None, "baratheon", "lannister"):
        seen = visible(step.events, viewer)
        assert not of(seen, BidsRevealed) and not [e for e in of(seen, PowerChanged) if e.house == "stark"], viewer
    assert not mentions(visible(step.events, "lannister"), "amount=3")
    step = advance(step.state, [answer("baratheon", Bid(track="iron_throne", amount=1))])
    seen = visible(step.events, None)
    [revealed] = [e for e in of(seen, BidsRevealed) if e.track == "iron_throne"]
    assert dict(revealed.bids) == {"baratheon": 1, "lannister": 4, "stark": 3}
    paid = [(e.house, e.amount, e.power) for e in of(seen, PowerChanged)]
    assert ("stark", -3, 2) in paid and ("lannister", -4, 1) in paid, "after the reveal, power is public again"


def test_R265_a_refused_bid_is_told_only_to_the_house_that_made_it(westeros_only):
    s = westeros_position(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=6)
    step = advance(s, [answer("stark", Bid(track="wildlings", amount=9)),
                       answer("lannister", Bid(track="wildlings", amount=2))])
    refused = [e for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert [(e.house, e.visible_to) for e in refused] == [("stark", "stark")]
    for viewer in (None, "lannister", "baratheon"):
        assert not mentions(visible(step.events, viewer), "amount=9"), viewer
        assert not mentions(visible(step.events, viewer), "amount=2") or viewer == "lannister", viewer
    assert "9" not in prompts(step) and "amount" not in prompts(step)


# --- R266: no player acts with another's tokens ------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R266_a_house_cannot_resolve_another_houses_order():
    s = game()
    put(s, "winterfell", "stark", "footman", order="raid")
    put(s, "karhold", "lannister", "footman", order="support+0")
    put(s, "castle_black", "lannister", "knight", order="raid")
    s = at_action(s)
    step = run(s, entry("stark", Raid(origin="castle_black", targets=("winterfell",))))
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "lannister")], "Lannister still decides its raid"
    # refused on arrival (ruling 161): no decision of the round could ever use it
    assert [(e.reason, e.rule) for e in step.events if type(e).__name__ == "AnswerUnusable"] == [
        ("you have no raid order in Castle Black (never placed, or already removed) (R129, R140)", "R129")]
    assert not [a for a in step.state.answers if a["house"] == "stark"]
    step = run(step.state, entry("lannister", Raid(origin="castle_black", targets=(None,))))
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "stark")]
    assert step.state.area("winterfell").order is not None


def test_R266_a_house_cannot_declare_another_houses_support(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), areas="""
the_reach = { units = ["tyrell knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", Support(side="stark", combat_area="kingswood", origin="the_reach")))
    assert b.asked() == [("support", "tyrell")], "only Tyrell declares for its own order"
    b.run(say("tyrell", Support(side="lannister")))
    assert [(d.supporter, d.side) for d in b.of(SupportDeclared)] == [("tyrell", "lannister")]


def test_R266_a_house_card_of_another_house_cannot_be_played(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "tywin_lannister"))
    assert b.unusable("stark") == ["Tywin Lannister is a House card of Lannister, not one of yours (R192)"]
    assert ("house_card", "stark") in b.asked() and "tywin_lannister" in b.state.houses["lannister"].hand


# --- R267: house cards while chosen, the raven's look, the Tides of Battle, the decks --------------------


def test_R267_a_chosen_house_card_is_secret_until_both_are_revealed_then_public(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    step = b.run(play("stark", "eddard_stark"))
    assert b.asked() == [("house_card", "lannister")]
    for viewer in (None, "lannister"):
        assert not mentions(visible(step.events, viewer), "eddard_stark"), viewer
    assert "eddard" not in prompts(step).lower()
    assert "eddard_stark" in b.state.houses["stark"].hand, "nothing leaves the hand before the reveal (ruling 130)"
    step = b.run(play("lannister", "the_hound"))
    [shown] = of(visible(step.events, None), HouseCardsRevealed)
    assert (shown.attacker_card, shown.defender_card) == ("eddard_stark", "the_hound")
    assert "eddard_stark" not in b.state.houses["stark"].hand, "played: face up on the table"


@pytest.mark.usefixtures("phases", "combat")
def test_R267_what_the_raven_saw_is_known_only_to_its_holder():
    s = game()
    s.phase = "planning"
    holder = s.holder("kings_court")
    put(s, "winterfell", "stark", "footman")
    top = s.wildling_deck[0]
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="defense+1")), entry(holder, Raven(action="look")))
    assert [(e.house, e.card) for e in of(visible(step.events, holder), WildlingCardSeen)] == [(holder, top)]
    others = [h for h in s.houses_in_play if h != holder]
    for viewer in (None, *others):
        assert not mentions(visible(step.events, viewer), top), viewer
    assert top not in prompts(step) and top.replace("_", " ") not in prompts(step).lower()
    step = run(step.state, entry(holder, RavenKeep(choice="bottom")))
    [placed] = of(visible(step.events, None), WildlingCardPlaced)
    assert placed.where == "bottom" and not mentions(visible(step.events, None), top)


def test_R267_a_tides_card_is_seen_by_its_house_alone_until_both_are_revealed(battle):
    fiefdoms = ["stark", "baratheon", "lannister", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms,
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]',
                 options=tides(["three", "skull", "two"]))
    b = battle(state, everyone(state, "stark"))
    step = b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.asked() == [("blade", "stark")], "Stark decides on the Blade knowing only its own Tides card"
    assert [e.card for e in of(visible(step.events, "stark"), TidesDrawn)] == ["three"]
    assert not mentions(visible(step.events, "stark"), "skull") and not mentions(visible(step.events, None), "three")
    assert not of(visible(step.events, None), TidesRevealed)
    step = b.run(say("stark", UseBlade(use=False)))
    [shown] = of(visible(step.events, None), TidesRevealed)
    assert (shown.attacker_card, shown.defender_card) == ("three", "skull")


def test_R267_the_order_of_the_decks_is_never_published(westeros_only):
    s = westeros_position(("winter_is_coming", "last_days_of_summer", "web_of_lies"))
    hidden = {d: list(s.westeros_decks[d][1:]) for d in "123"}
    step = advance(s, [])
    seen = visible(step.events, None)
    drawn = {e.card for e in seen if type(e).__name__ == "WesterosCardRevealed"}
    shuffled = [e for e in seen if type(e).__name__ == "WesterosDeckShuffled"]
    assert shuffled and all(set(e.to_dict()) == {"type", "visible_to", "deck", "cause"} for e in shuffled)
    deck_one_after = step.state.westeros_decks["1"]
    assert deck_one_after and not any(c in strings(seen) for c in set(deck_one_after) - drawn)
    assert not any(c in strings(seen) for c in set(s.wildling_deck))
    assert not any(c in strings(seen) for d in "23" for c in set(hidden[d]) - drawn)


# --- the same, over whole games played by robots ---------------------------------------------------------------

PRIVATE_KINDS = ("WildlingCardSeen", "TidesDrawn", "AnswerUsed", "AnswerUnusable", "AnswersExpired")
SECRET_DECISIONS = ("orders", "bid", "house_card")


@pytest.mark.parametrize("players, seed, tides_of_battle", [(3, 7, True), (6, 11, False)])
def test_R263_R267_no_private_event_reaches_the_public_in_a_robot_game(players, seed, tides_of_battle):
    """Robots play a whole game; every step's public events are read as an outsider would."""
    import random

    from adjudicator.game.board import Board
    from adjudicator.robots.players import Robot, robot_key

    board = Board.classic()
    houses = list(board.setups[players].houses)
    state = new_game(houses, seed=f"hidden-{seed}", tides_of_battle=tides_of_battle, board=board)
    rng = random.Random(seed)
    robots = {h: Robot(h, robot_key(str(seed), h), random.Random(rng.random())) for h in houses}
    step = advance(state, board=board)
    seen: set[str] = set()
    stalled, last = 0, None
    for n in range(4000):
        if step.state.phase == "game_over":
            break
        for e in visible(step.events, None):
            kind = type(e).__name__
            seen.add(kind)
            assert kind not in PRIVATE_KINDS, (n, e)
            if kind in ("DefaultUsed", "OnlyOption"):
                assert not any(k in e.decision for k in ("assign one order", "assign your orders", "bid for",
                                                         "choose a House card")), (n, e)
        for r in step.requests:  # prompts are public (ruling 132): no card still face down in them
            named = [c.name for c in CARDS.wildling_cards.values() if c.name in r.prompt]
            assert not named or r.kind == "wildling_choice", (n, r.prompt)
        entries = [pool_entry(id=f"{h}/{n}/{i}", house=h, round=step.state.round, command=c)
                   for h, robot in robots.items() for i, c in enumerate(robot.commands(step.state, step.requests, board))]
        keys = sorted(r.key for r in step.requests)
        stalled, last = (stalled + 1 if keys == last else 0), keys
        step = advance(step.state, entries, deadline=stalled >= 3, board=board)  # a deadline only when stuck
    assert step.state.phase == "game_over"
    assert {"OrdersRevealed", "HouseCardsRevealed", "BidsRevealed"} <= seen, sorted(seen)
    assert ("TidesRevealed" in seen) == tides_of_battle
