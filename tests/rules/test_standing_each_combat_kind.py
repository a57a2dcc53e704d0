"""Each kind of standing combat answer, and Targaryen's distribution: used when it fits a decision of a
later round, skipped with a word in its house's receipt when it does not (and the decision asked as
usual), and kept (rulings 353, 355). Withdrawn, replaced and never in a public report:
``tests/rules/test_standing_kinds.py``. House cards: ``tests/rules/test_standing_combat.py``.

Each line here was sent in round 1 and meets its decision in round 3. A kind that cannot be skipped
says why in its test's docstring.
"""

from __future__ import annotations

import itertools
from typing import Any

from adjudicator.engine.core.context import SKIPPED, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable, AnswerUsed
from adjudicator.engine.events.combat import BladeUsed, CombatResolved, PortCaptured, Retreated, SupportRefused
from adjudicator.engine.machine import advance
from adjudicator.game.commands import (
    CardChoice,
    Casualties,
    CombatFilter,
    Command,
    DistributeBid,
    Gift,
    March,
    Move,
    PlayCard,
    PortShips,
    RefuseSupport,
    Retreat,
    Standing,
    Support,
    UnitSpec,
    UseBlade,
)
from adjudicator.game.state import GameState

from .helpers import phases  # noqa: F401
from .test_combat_harness import BOARD, position, say

_ids = itertools.count(1)


def standing(house: str, cmd: Command) -> dict[str, Any]:
    n = next(_ids)
    return pool_entry(id=f"{house}/1.planning/seq{n}/L1", house=house, round=1, command=Standing(command=cmd),
                      text=f"standing: {house} line {n}")


def used(events: list[Any], line: dict[str, Any]) -> bool:
    return any(isinstance(e, AnswerUsed) and line["id"] in e.ids for e in events)


def skipped(events: list[Any], line: dict[str, Any], house: str) -> bool:
    found = [e for e in events if isinstance(e, AnswerUnusable) and line["id"] in e.ids]
    return bool(found) and all(e.reason.startswith(SKIPPED) and e.visible_to == house for e in found)


def held(state: GameState, line: dict[str, Any]) -> bool:
    return line["id"] in {a["id"] for a in state.answers if a.get("standing")}


DEFENDING = CombatFilter(role="defender", area="kingswood")
ATTACK = March(origin="kings_landing", moves=(Move(destination="kingswood", units=(UnitSpec("knight", 2),)),))


def attack(defenders: str, stark_card: str, lannister_card: str, *answers: dict[str, Any], areas: str = "",
           tracks: str = "") -> Step:
    """Round 3: Stark's two knights march from King's Landing on Lannister's ``defenders`` in Kingswood."""
    text = f"""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
round = 3
{tracks}
[areas]
kings_landing = {{ units = ["stark knight", "stark knight"], order = "march+0" }}
kingswood = {{ units = {defenders} }}
{areas}
"""
    cards = [*say("stark", ATTACK, PlayCard(card=stark_card)), *say("lannister", PlayCard(card=lannister_card))]
    return advance(position(text), [*cards, *answers], board=BOARD)


def asked(step: Step, kind: str, house: str) -> bool:
    return (kind, house) in [(r.kind, r.house) for r in step.requests]


# --- retreats ----------------------------------------------------------------------------------

TWO_FOOTMEN = '["lannister footman", "lannister footman"]'  # Eddard's 2 swords against The Hound's 2 towers


def test_ruling_353_a_standing_retreat_takes_the_beaten_army_where_it_says(phases):
    line = standing("lannister", Retreat(areas=("the_reach",), when=DEFENDING))
    step = attack(TWO_FOOTMEN, "eddard_stark", "the_hound", line)
    assert [e.to_area for e in step.events if isinstance(e, Retreated)] == ["the_reach"]
    assert used(step.events, line) and held(step.state, line)


def test_ruling_355_a_standing_retreat_to_an_area_now_held_by_another_house_is_skipped_and_asked(phases):
    line = standing("lannister", Retreat(areas=("the_reach",), when=DEFENDING))
    step = attack(TWO_FOOTMEN, "eddard_stark", "the_hound", line, areas='the_reach = ["tyrell footman"]')
    assert skipped(step.events, line, "lannister") and asked(step, "retreat", "lannister") and held(step.state, line)


# --- casualties ----------------------------------------------------------------------------------

TWO_KINDS = '["lannister footman", "lannister knight"]'  # Greatjon Umber's sword: one casualty, of a kind chosen


def test_ruling_353_a_standing_casualties_line_names_the_units_lost(phases):
    line = standing("lannister", Casualties(units=(UnitSpec("footman"),), when=DEFENDING))
    step = attack(TWO_KINDS, "greatjon_umber", "cersei_lannister", line)
    assert used(step.events, line) and held(step.state, line) and not asked(step, "casualties", "lannister")
    assert [u.type for u in step.state.area("kingswood").units if u.house == "lannister"] == ["knight"]


def test_ruling_355_a_standing_casualties_line_naming_units_not_in_the_combat_is_skipped_and_asked(phases):
    line = standing("lannister", Casualties(units=(UnitSpec("siege_engine"),), when=DEFENDING))
    step = attack(TWO_KINDS, "greatjon_umber", "cersei_lannister", line)
    assert skipped(step.events, line, "lannister") and asked(step, "casualties", "lannister") and held(step.state, line)


# --- Robb Stark's retreat, a house card's choice ---------------------------------------------------


def test_ruling_353_a_standing_card_choice_decides_when_its_card_is_played(phases):
    line = standing("stark", CardChoice(card="robb_stark", area="the_boneway"))
    step = attack('["lannister footman"]', "robb_stark", "the_hound", line)
    assert [e.to_area for e in step.events if isinstance(e, Retreated)] == ["the_boneway"]
    assert used(step.events, line) and held(step.state, line)


def test_ruling_355_a_standing_card_choice_the_combat_does_not_allow_is_skipped_and_asked(phases):
    line = standing("stark", CardChoice(card="robb_stark", area="winterfell"))  # far from Kingswood
    step = attack('["lannister footman"]', "robb_stark", "the_hound", line)
    assert skipped(step.events, line, "stark") and asked(step, "card_choice", "stark") and held(step.state, line)


# --- support ---------------------------------------------------------------------------------------


def test_ruling_353_a_standing_support_joins_the_combat_it_fits(phases):
    line = standing("tyrell", Support(side="stark"))
    step = attack('["lannister footman"]', "eddard_stark", "the_hound", line,
                  areas='the_reach = { units = ["tyrell footman"], order = "support+0" }')
    assert used(step.events, line) and held(step.state, line) and not asked(step, "support", "tyrell")
    resolved = [e for e in step.events if isinstance(e, CombatResolved)]
    assert "support:tyrell:the_reach" in dict(resolved[0].attacker_strength)


def test_ruling_355_a_standing_support_for_its_houses_opponent_is_skipped_and_asked(phases):
    """Lannister's support order in The Reach is next to Kingswood, where Lannister itself is
    attacked: its standing "support stark" cannot be used against its own units (R184)."""
    line = standing("lannister", Support(side="stark"))
    step = attack('["lannister footman"]', "eddard_stark", "the_hound", line,
                  areas='the_reach = { units = ["lannister footman"], order = "support+0" }')
    assert skipped(step.events, line, "lannister") and asked(step, "support", "lannister") and held(step.state, line)


def test_ruling_353_a_standing_refusal_of_support_refuses_it(phases):
    """Never skipped: a refusal names a supporter, and fits every combat of its house that house
    supports it in (R180); in any other it waits, neither used nor skipped."""
    line = standing("stark", RefuseSupport(supporter="tyrell"))
    step = attack('["lannister footman"]', "eddard_stark", "the_hound", line, *say("tyrell", Support(side="stark")),
                  areas='the_reach = { units = ["tyrell footman"], order = "support+0" }')
    assert [(e.house, e.supporter) for e in step.events if isinstance(e, SupportRefused)] == [("stark", "tyrell")]
    assert used(step.events, line) and held(step.state, line)


# --- the Valyrian Steel Blade ---------------------------------------------------------------------


def test_ruling_353_a_standing_use_blade_uses_it_in_its_houses_combat(phases):
    """Never skipped: the Blade is asked only of its holder while it is unused this round (R093,
    R199); otherwise the decision is taken without asking and a standing line waits for another."""
    line = standing("stark", UseBlade(use=True))
    step = attack('["lannister footman"]', "eddard_stark", "the_hound", line,
                  tracks='[tracks]\nfiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]')
    assert [e.house for e in step.events if isinstance(e, BladeUsed)] == ["stark"]
    assert used(step.events, line) and held(step.state, line)


# --- taking over ships in a port (R246) ---------------------------------------------------------------


PORT = """
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
round = 3
[areas]
winterfell = { units = ["stark footman"], order = "march+0" }
white_harbor = { power_token = "lannister" }
port_of_white_harbor = { units = ["lannister ship"], order = "support+0" }
"""
MARCH = March(origin="winterfell", moves=(Move(destination="white_harbor", units=(UnitSpec("footman"),)),))


def test_ruling_353_a_standing_take_over_of_ships_takes_them(phases):
    line = standing("stark", PortShips(port="port_of_white_harbor", count=1))
    step = advance(position(PORT), [line, *say("stark", MARCH)], board=BOARD)
    assert [(e.port, e.replaced) for e in step.events if isinstance(e, PortCaptured)] == [("port_of_white_harbor", 1)]
    assert used(step.events, line) and held(step.state, line)


def test_ruling_355_a_standing_take_over_of_more_ships_than_the_port_holds_is_skipped_and_asked(phases):
    line = standing("stark", PortShips(port="port_of_white_harbor", count=2))
    step = advance(position(PORT), [line, *say("stark", MARCH)], board=BOARD)
    assert skipped(step.events, line, "stark") and held(step.state, line)
    assert [(r.kind, r.house) for r in step.requests] == [("port_ships", "stark")]


# --- Targaryen's distribution of its bid (Mother of Dragons, M100) ---------------------------------


def _bidding(line: dict[str, Any], bid: int) -> tuple[list[Any], list[Any]]:
    """Fiefdoms bid for, Targaryen bidding ``bid``: the events, and the requests left open."""
    from mother_of_dragons import test_targaryen as targ

    from adjudicator.engine.core.bidding import bid_for_track
    from adjudicator.engine.core.context import Context, PoolEntry
    from adjudicator.game.state import Segment
    from rules.helpers import entry

    s = targ.tgame()
    s.round = 3
    pool = [PoolEntry.from_dict(entry(h, c, round=3)) for h, c in targ.fiefdom_bids(bid)] + [PoolEntry.from_dict(line)]
    ctx = Context(s, s.board(), Segment("westeros", {}), pool, lambda r: r.kind != "distribute")
    try:
        bid_for_track(ctx, "fiefdoms")
    except NeedAnswers as waiting:
        return [*ctx.events, *ctx.transient], list(waiting.requests)
    return ctx.events, []


GIVE_4 = DistributeBid(track="fiefdoms", gifts=(Gift("stark", 2), Gift("lannister", 2)))


def test_ruling_353_a_standing_distribution_gives_the_bid_away() -> None:
    from mother_of_dragons.test_westeros_iv import T

    line = standing(T, GIVE_4)
    events, waiting = _bidding(line, 4)
    assert used(events, line) and waiting == []


def test_ruling_355_a_standing_distribution_of_another_amount_than_the_bid_is_skipped_and_asked() -> None:
    from mother_of_dragons.test_westeros_iv import T

    line = standing(T, GIVE_4)
    events, waiting = _bidding(line, 3)
    assert skipped(events, line, T) and [(r.house, r.kind) for r in waiting] == [(T, "distribute")]
