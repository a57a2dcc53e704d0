"""Every refusal carries its decisive rule (``AnswerUnusable.rule``), and it is the rule the
checklist gives for the situation (/work/shared/rules-checklist.md, quoted in the comment of
each row). One table: a situation, the rule expected, and how to bring the refusal about through
the real step machine; the sentence names the same rule first in its closing brackets.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import NeedAnswers, pool_entry
from adjudicator.engine.events import RULE_ID, AnswerUnusable, rule_of
from adjudicator.engine.events.action import OrdersWaiting
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import action, planning, westeros
from adjudicator.game.commands import (
    AssignOrder,
    Bid,
    Casualties,
    Command,
    Consolidate,
    LeaveUnordered,
    Located,
    March,
    Move,
    Muster,
    MusterAction,
    PlayCard,
    Raid,
    Raven,
    Reconcile,
    Retreat,
    Support,
    TieBreak,
    UnitSpec,
    UseBlade,
    WesterosChoice,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

from . import test_combat_harness as cs
from .helpers import game, put

_ids = itertools.count(1)
THREE = ["stark", "lannister", "baratheon"]  # Iron Throne B, L, S; Fiefdoms S, B, L; King's Court L, S, B


def line(house: str, cmd: Command, round: int = 1) -> dict[str, Any]:
    return pool_entry(id=f"{house}/r{next(_ids)}", house=house, round=round, command=cmd, text=f"{house}: {cmd!r}")


def _stop(ctx: Any) -> None:
    raise NeedAnswers([])


def refusals(monkeypatch: pytest.MonkeyPatch, state: GameState, target: dict[str, Any], *others: dict[str, Any],
             runners: dict[str, Any] | None = None, steps: int = 1, first: bool = False) -> list[AnswerUnusable]:
    """The refusals of ``target`` when it is sent after ``others`` (before them, ``first``), then
    ``steps - 1`` steps of defaults."""
    if runners is not None:
        monkeypatch.setattr(machine, "_runners", lambda: runners)
    step = advance(state, [target, *others] if first else [*others, target])
    events = list(step.events)
    for _ in range(steps - 1):
        step = advance(step.state, [], deadline=frozenset(r.key for r in step.requests))
        events += step.events
    return [e for e in events if isinstance(e, AnswerUnusable) and target["id"] in e.ids]


ACTION = {"planning": planning.run, "action": action.run, "westeros": _stop}
WESTEROS = {"westeros": westeros.run, "planning": _stop}


# --- positions ------------------------------------------------------------------------------------------


def three() -> GameState:
    """Round 1's Planning Phase of a three-player game: Stark holds Winterfell, White Harbor and
    The Shivering Sea."""
    return new_game(THREE, seed="rule-ids")


def orders(*lines: tuple[str, str]) -> list[dict[str, Any]]:
    return [line("stark", AssignOrder(area=a, token=t)) for a, t in lines]


STARK_REST = (("white_harbor", "support+0"), ("the_shivering_sea", "consolidate"))


def raven_time() -> GameState:
    """The three-player game with every house's orders placed: the raven holder (Lannister) is asked."""
    s = three()
    step = advance(s, [])
    return advance(step.state, [], deadline=frozenset(r.key for r in step.requests)).state


def acting(*units: tuple[str, str, tuple[str, ...], str | None]) -> GameState:
    """The Action Phase of a bare six-player board: ``(area, house, units, order)`` each."""
    s = game()
    for area, house, us, order in units:
        put(s, area, house, *us, order=order)
    s.phase = "action"
    return s


def westeros_round(cards: tuple[str, str, str], threat: int = 0) -> GameState:
    s = new_game(THREE, seed="rule-ids")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def mv(origin: str, *moves: tuple[str, tuple[str, ...]], leave_power: bool = False) -> March:
    return March(origin=origin, leave_power=leave_power,
                 moves=tuple(Move(destination=d, units=tuple(UnitSpec(u) for u in us)) for d, us in moves))


# --- the table ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    situation: str
    rule: str
    run: Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]


def _planning(target: Command, *others: dict[str, Any], prepare: Callable[[GameState], None] | None = None,
              house: str = "stark", first: bool = False) -> Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]:
    def go(mp: pytest.MonkeyPatch) -> list[AnswerUnusable]:
        s = three()
        if prepare:
            prepare(s)
        return refusals(mp, s, line(house, target), *others, first=first)
    return go


def _raven(target: Command, house: str = "lannister", prepare: Callable[[GameState], None] | None = None
           ) -> Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]:
    def go(mp: pytest.MonkeyPatch) -> list[AnswerUnusable]:
        s = three()
        if prepare:
            prepare(s)
        step = advance(s, [])
        s = advance(step.state, [], deadline=frozenset(r.key for r in step.requests)).state
        return refusals(mp, s, line(house, target))
    return go


def _action(state: Callable[[], GameState], house: str, target: Command
            ) -> Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]:
    return lambda mp: refusals(mp, state(), line(house, target), runners=ACTION)


def _westeros(state: Callable[[], GameState], house: str, target: Command, *others: dict[str, Any], steps: int = 1
              ) -> Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]:
    return lambda mp: refusals(mp, state(), line(house, target, round=2), *others, runners=WESTEROS, steps=steps)


def _battle(state: Callable[[], GameState], house: str, target: Command, *others: dict[str, Any],
            area: str = "kingswood", origin: str = "kings_landing", attacker: str = "lannister"
            ) -> Callable[[pytest.MonkeyPatch], list[AnswerUnusable]]:
    def go(mp: pytest.MonkeyPatch) -> list[AnswerUnusable]:
        s = state()
        b = cs.Battle(s, [cs.everyone(s, attacker, area=area, origin=origin)])
        mp.setattr(machine, "_runners", lambda: {"action": b.runner})
        (t,) = cs.say(house, target)
        b.run(list(others), [t], deadline=True)
        return [e for e in b.events if isinstance(e, AnswerUnusable) and t["id"] in e.ids]
    return go


def _ban_raids(s: GameState) -> None:
    s.restrictions = ["raid"]


def _power_token(s: GameState) -> None:
    s.area_mut("karhold").power_token = "stark"


def _duel(**kw: Any) -> Callable[[], GameState]:
    return lambda: cs.duel("lannister", "stark", **kw)


def _vs_neutral() -> GameState:
    return cs.position('houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]\n[areas]\n'
                       'kings_landing = { units = ["lannister knight", "lannister knight", "lannister knight"], '
                       'order = "march+0" }\nkingswood = { neutral_force = 1 }\n'
                       'the_reach = { units = ["tyrell footman"], order = "support+0" }\n')


def _routed() -> GameState:
    s = acting(("castle_black", "stark", ("footman",), "march+0"))
    put(s, "winterfell", "stark", "footman", "footman", order="march+0", routed=2)
    return s


def _impassable() -> GameState:
    s = acting(("winterfell", "stark", ("footman",), "march+0"))
    s.impassable = ["karhold"]
    return s


def _neutral_weak() -> GameState:
    s = acting(("winterfell", "stark", ("footman",), "march+0"))
    s.area_mut("karhold").neutral_force = 5
    return s


def _over_supply() -> GameState:
    s = acting(("winterfell", "stark", ("footman", "footman"), "march+0"),
               ("moat_cailin", "stark", ("footman", "footman"), None))
    s.houses["stark"].supply = 0
    return s


def _no_power() -> GameState:
    s = acting(("white_harbor", "stark", ("footman",), "march+0"))
    s.houses["stark"].power = 0
    return s


def _blade_used() -> GameState:
    s = cs.duel("lannister", "stark", fiefdoms=["lannister", "stark", "baratheon", "tyrell", "greyjoy", "martell"])
    s.blade_used = True
    return s


def _no_footman_in_winterfell() -> GameState:
    s = westeros_round(("mustering", "last_days_of_summer", "sea_of_storms"))
    s.area_mut("winterfell").units = [u for u in s.area("winterfell").units if u.type != "footman"]
    return s


def _over_supply_westeros() -> GameState:
    s = westeros_round(("supply", "last_days_of_summer", "sea_of_storms"))
    from adjudicator.game.state import Unit
    s.area_mut("the_twins").units = [Unit("stark", "footman") for _ in range(4)]
    s.area_mut("moat_cailin").units = [Unit("stark", "footman") for _ in range(3)]
    return s


CASES = [
    # R115 "Each player places exactly one Order face down on every area he controls that holds at least one of his units"
    Case("an order on an area without the house's units", "R115", _planning(AssignOrder(area="lannisport", token="raid"))),
    # R115 "... No area may have two"
    Case("two orders for one area", "R115", _planning(AssignOrder(area="winterfell", token="raid"),
                                                      *orders(("winterfell", "march+0"), *STARK_REST), first=True)),
    # R117 "An area held only by a Power token has no units and so gets no Order"
    Case("an order on an area with only a power token", "R117",
         _planning(AssignOrder(area="karhold", token="raid"), prepare=_power_token)),
    # R112 "Every House has the same 15 Order tokens" (there is no other token)
    Case("an order token that does not exist", "R112", _planning(AssignOrder(area="winterfell", token="march+5"))),
    # R120 "Orders banned by this round's Westeros cards may not be placed"
    Case("an order a Westeros card bans", "R120", _planning(AssignOrder(area="winterfell", token="raid"),
                                                            prepare=_ban_raids)),
    # R112 "... Raid: two regular and one Special" (a third regular raid)
    # (the older line is refused: the newest lines stand within the copies, ruling 121)
    Case("more copies of a token than the house owns", "R112",
         _planning(AssignOrder(area="the_shivering_sea", token="raid"),
                   *orders(("winterfell", "raid"), ("white_harbor", "raid")), first=True)),
    # R119 "A House may never place more Special Orders than its stars allow"
    Case("more special orders than the King's Court stars", "R119",
         _planning(AssignOrder(area="the_shivering_sea", token="support+1"),
                   *orders(("winterfell", "march+1"), ("white_harbor", "defense+2")), first=True)),
    # R122 "The player who is short ... may leave areas of his choice without one"
    Case("an area left unordered by a house not short of tokens", "R122",
         _planning(LeaveUnordered(area="winterfell"), *orders(*STARK_REST))),
    # R096 "The Messenger Raven: position 1 of King's Court holds it"
    Case("the raven used by a house that does not hold it", "R096", _planning(Raven(action="look"))),
    # R125 "swap one of his Orders on the board for one of his unused Orders"
    Case("a raven swap of an order the holder does not have", "R125",
         _raven(Raven(action="swap", area="winterfell", token="raid"))),
    # R125 "... for one of his unused Orders"
    Case("a raven swap for a token already on the board", "R125",
         _raven(Raven(action="swap", area="stoney_sept", token="defense+1"))),
    # R126 "A swapped-in Order should still obey ... this round's Westeros bans"
    Case("a raven swap for a banned token", "R126",
         _raven(Raven(action="swap", area="lannisport", token="raid"), prepare=_ban_raids)),
    # R130 "A Raid removes one adjacent enemy Support, Raid or Consolidate Power Order"
    Case("a raid on its own area", "R130", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("winterfell",)))),
    # R130 (adjacent)
    Case("a raid on an area not adjacent", "R130", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), "support+0"),
        ("riverrun", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("riverrun",)))),
    # R138 "Land areas linked by ship transport are not adjacent for raiding"
    Case("a raid across water the house's ships could carry", "R138", _action(lambda: acting(
        ("lannisport", "lannister", ("footman",), "raid"), ("the_golden_sound", "lannister", ("ship",), None),
        ("sunset_sea", "lannister", ("ship",), None), ("ironmans_bay", "lannister", ("ship",), None),
        ("seagard", "stark", ("footman",), "support+0"), ("stoney_sept", "stark", ("footman",), "support+0")),
        "lannister", Raid(origin="lannisport", targets=("seagard",)))),
    # R132 "A Raid on a land area can't raid a sea area"
    Case("a land raid on a sea area", "R132", _action(lambda: acting(
        ("white_harbor", "stark", ("footman",), "raid"), ("the_narrow_sea", "lannister", ("ship",), "support+0"),
        ("moat_cailin", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="white_harbor", targets=("the_narrow_sea",)))),
    # R137 "Ships in a port may raid only the connected/adjacent sea area, not land"
    Case("a raid from a port on land", "R137", _action(lambda: acting(
        ("port_of_white_harbor", "stark", ("ship",), "raid"), ("white_harbor", "stark", ("footman",), None),
        ("the_narrow_sea", "lannister", ("ship",), "support+0"), ("moat_cailin", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="port_of_white_harbor", targets=("white_harbor",)))),
    # R137 "Units in neighbouring land areas may not raid a port"
    Case("a raid from land on a port", "R137", _action(lambda: acting(
        ("white_harbor", "stark", ("footman",), "raid"), ("port_of_white_harbor", "stark", ("ship",), "support+0"),
        ("moat_cailin", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="white_harbor", targets=("port_of_white_harbor",)))),
    # R130 (an order to remove) — ruling 8: a target whose order is gone is not legal
    Case("a raid on an area with no order", "R130", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), None),
        ("castle_black", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("karhold",)))),
    # R130 (an enemy order)
    Case("a raid on the house's own order", "R130", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "stark", ("footman",), "support+0"),
        ("castle_black", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("karhold",)))),
    # R139 "regular Raids can't hit Defense Orders"
    Case("a normal raid on a defense order", "R139", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), "defense+1"),
        ("castle_black", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("karhold",)))),
    # R139 "March Orders can't be raided"
    Case("a raid on a march order", "R139", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), "march+0"),
        ("castle_black", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="winterfell", targets=("karhold",)))),
    # R129 "each player resolves one of his Raid Orders"
    Case("a raid from an area without the house's raid order", "R129", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "raid"), ("karhold", "lannister", ("footman",), "support+0")),
        "stark", Raid(origin="white_harbor", targets=(None,)))),
    # R141 "each player resolves one March Order"
    Case("a march from an area without the house's march order", "R141", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "march+0")),
        "stark", mv("white_harbor", ("moat_cailin", ("footman",))))),
    # R143 "Units may move together or split ... and/or stay"
    Case("a move into the march's own area", "R143", _action(lambda: acting(
        ("winterfell", "stark", ("footman", "footman"), "march+0")),
        "stark", mv("winterfell", ("winterfell", ("footman",))))),
    # R152 "Routed units can't move"
    Case("a march of routed units", "R152", _action(lambda: _routed(), "stark",
                                                    mv("winterfell", ("karhold", ("footman", "footman"))))),
    # R142 "He may move all, some or none of the units in that area"
    Case("a march of more units than the area holds", "R142", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "march+0")),
        "stark", mv("winterfell", ("karhold", ("footman", "footman"))))),
    # R235 "'~' tokens make their areas off-limits to everyone for the whole game"
    Case("a march into an impassable area", "R235", _action(lambda: _impassable(), "stark",
                                                            mv("winterfell", ("karhold", ("footman",))))),
    # R145 "Ships ... never land"
    Case("ships marching onto land", "R145", _action(lambda: acting(
        ("the_shivering_sea", "stark", ("ship",), "march+0")),
        "stark", mv("the_shivering_sea", ("karhold", ("ship",))))),
    # R144 "Units move only to adjacent areas, unless they use ship transport" (ships are never carried, R158)
    Case("ships marching to a sea not adjacent", "R144", _action(lambda: acting(
        ("the_shivering_sea", "stark", ("ship",), "march+0")),
        "stark", mv("the_shivering_sea", ("bay_of_ice", ("ship",))))),
    # R145 "Ships never enter a port that another player owns"
    Case("ships into a port of another house", "R145", _action(lambda: acting(
        ("the_narrow_sea", "stark", ("ship",), "march+0"), ("white_harbor", "lannister", ("footman",), None)),
        "stark", mv("the_narrow_sea", ("port_of_white_harbor", ("ship",))))),
    # R250 "Only Ships may be in a port; ... never more than 3"
    Case("a fourth ship into a port", "R250", _action(lambda: acting(
        ("the_narrow_sea", "stark", ("ship",), "march+0"), ("white_harbor", "stark", ("footman",), None),
        ("port_of_white_harbor", "stark", ("ship", "ship", "ship"), None)),
        "stark", mv("the_narrow_sea", ("port_of_white_harbor", ("ship",))))),
    # R145 "Footmen, Knights and Siege Engines never enter sea areas or ports"
    Case("a footman marching to sea", "R145", _action(lambda: acting(
        ("white_harbor", "stark", ("footman",), "march+0")),
        "stark", mv("white_harbor", ("the_narrow_sea", ("footman",))))),
    # R144 "Units move only to adjacent areas, unless they use ship transport"
    Case("a land march to an area neither adjacent nor linked by ships", "R144", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "march+0")),
        "stark", mv("winterfell", ("riverrun", ("footman",))))),
    # R146 "Per March Order, units may enter only one area that holds another House's units"
    Case("one march into two enemy areas", "R146", _action(lambda: acting(
        ("winterfell", "stark", ("footman", "footman"), "march+0"), ("karhold", "lannister", ("footman",), None),
        ("moat_cailin", "lannister", ("footman",), None)),
        "stark", mv("winterfell", ("karhold", ("footman",)), ("moat_cailin", ("footman",))))),
    # R231 "They may not try unless they have enough strength"
    Case("a march too weak for a neutral force", "R231", _action(lambda: _neutral_weak(), "stark",
                                                                 mv("winterfell", ("karhold", ("footman",))))),
    # R153 "Marching may not take a House over its supply limit"
    Case("a march over the supply limit", "R153", _action(lambda: _over_supply(), "stark",
                                                          mv("winterfell", ("moat_cailin", ("footman",))))),
    # R241 "Control can never be established over a sea area"
    Case("a power token left at sea", "R241", _action(lambda: acting(
        ("the_shivering_sea", "stark", ("ship",), "march+0")),
        "stark", mv("the_shivering_sea", ("the_narrow_sea", ("ship",)), leave_power=True))),
    # R241 "when all of a House's units leave a land area during a March, it may put ... a Power token there"
    Case("a power token left where units stay", "R241", _action(lambda: acting(
        ("winterfell", "stark", ("footman", "footman"), "march+0")),
        "stark", mv("winterfell", ("karhold", ("footman",)), leave_power=True))),
    # R244 "No available power means no establishing"
    Case("a power token without available power", "R244", _action(lambda: _no_power(), "stark",
                                                                   mv("white_harbor", ("moat_cailin", ("footman",)),
                                                                      leave_power=True))),
    # R165 "The Special Consolidate Power ... musters in its own area only" (a plain one never musters)
    Case("a plain consolidate power order mustering", "R165", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "consolidate"), ("karhold", "stark", ("footman",), "consolidate")),
        "stark", Consolidate(area="winterfell", muster=(MusterAction(unit="footman"),)))),
    # R161 "each player resolves one Consolidate Power Order"
    Case("a consolidate where the house has no such order", "R161", _action(lambda: acting(
        ("winterfell", "stark", ("footman",), "consolidate")),
        "stark", Consolidate(area="karhold"))),
    # R172 "ask for support from every area adjacent to the embattled area that holds a Support Order"
    Case("support from an area without the house's support order", "R172", _action(lambda: acting(
        ("the_reach", "stark", ("footman",), "support+0")),
        "stark", Support(side="stark", origin="highgarden"))),
    # R185 "Support comes only from areas adjacent to the embattled area"
    Case("support for a combat not next to the order", "R185", _action(lambda: acting(
        ("the_reach", "stark", ("footman",), "support+0")),
        "stark", Support(side="stark", origin="the_reach", combat_area="riverrun"))),
    # R181 "Footmen, Knights and Siege Engines never support a combat in a sea area"
    Case("land units supporting a combat at sea", "R181", _action(lambda: acting(
        ("white_harbor", "stark", ("footman",), "support+0")),
        "stark", Support(side="stark", origin="white_harbor", combat_area="the_narrow_sea"))),
    # R185 "Ships in a port support only combats in the adjacent sea, never on land"
    Case("ships in a port supporting a combat on land", "R185", _action(lambda: acting(
        ("port_of_white_harbor", "stark", ("ship",), "support+0"), ("white_harbor", "stark", ("footman",), None)),
        "stark", Support(side="stark", origin="port_of_white_harbor", combat_area="white_harbor"))),
    # R232 "no support for the Neutral Force"
    Case("support for a neutral force", "R232", _battle(_vs_neutral, "tyrell", Support(side="defender"))),
    # R184 "No one may support an opponent against his own units"
    Case("support for the opponent against the house's own units", "R184",
         _battle(_duel(areas='the_reach = { units = ["stark footman"], order = "support+0" }'), "stark",
                 Support(side="lannister"), *cs.play("lannister", "tywin_lannister"), *cs.play("stark", "eddard_stark"))),
    # R192 "Each House starts with 7 unique House cards" (its own)
    Case("another house's House card", "R192", _battle(_duel(), "stark", PlayCard(card="tywin_lannister"))),
    # R195 "A discarded card can't be played"
    Case("a House card in the discard pile", "R195",
         _battle(_duel(discards={"stark": ["eddard_stark"]}, hands={"stark": ["robb_stark", "catelyn_stark"]}), "stark",
                 PlayCard(card="eddard_stark"), *cs.play("lannister", "tywin_lannister"))),
    # R199 "if the attacker or the defender holds the Blade ... he may add +1"
    Case("the Blade used by a house that does not hold it", "R199",
         _battle(_duel(), "stark", UseBlade(use=True), *cs.play("lannister", "tywin_lannister"),
                 *cs.play("stark", "eddard_stark"))),
    # R093 "The Blade may be used once per round"
    Case("the Blade used again in its round", "R093",
         _battle(_blade_used, "lannister", UseBlade(use=True))),
    # R203 "one unit per Sword on the victor's card, minus one per Fortification"
    Case("a number of casualties other than due", "R203",
         _battle(_duel(defend=("2 footmen", "knight")), "stark", Casualties(units=(UnitSpec("footman", 2),)),
                 *cs.play("lannister", "ser_jaime_lannister"), *cs.play("stark", "catelyn_stark"))),
    # R205 "Supporting units are never casualties"
    Case("supporting units chosen as casualties", "R205",
         _battle(_duel(defend=("footman", "footman"),
                       areas='the_reach = { units = ["stark knight"], order = "support+0" }'),
                 "stark", Casualties(units=(UnitSpec("knight"),)), *cs.say("stark", Support(side="stark")),
                 *cs.play("lannister", "ser_jaime_lannister"), *cs.play("stark", "catelyn_stark"))),
    # R212 "never to the area the attackers came from, even if it is empty"
    Case("a retreat to the attackers' area", "R212",
         _battle(_duel(defend=("2 footmen",)), "stark", Retreat(areas=("kings_landing",)),
                 *cs.play("lannister", "ser_jaime_lannister"), *cs.play("stark", "catelyn_stark"))),
    # R210 "to one adjacent area that is empty ... or friendly"
    Case("a retreat into enemy units", "R210",
         _battle(_duel(defend=("2 footmen",), areas='the_reach = ["tyrell footman"]'), "stark",
                 Retreat(areas=("the_reach",)), *cs.play("lannister", "ser_jaime_lannister"),
                 *cs.play("stark", "catelyn_stark"))),
    # R215 "Footmen and Knights never retreat to a sea area or a port"
    Case("a footman retreating to sea", "R215",
         _battle(_duel(defend=("2 footmen",)), "stark", Retreat(areas=("blackwater_bay",)),
                 *cs.play("lannister", "ser_jaime_lannister"), *cs.play("stark", "catelyn_stark"))),
    # R216 "never into an area with an enemy Power token"
    Case("a retreat onto an enemy power token", "R216",
         _battle(_duel(defend=("2 footmen",), areas='the_reach = { power_token = "tyrell" }'), "stark",
                 Retreat(areas=("the_reach",)), *cs.play("lannister", "ser_jaime_lannister"),
                 *cs.play("stark", "catelyn_stark"))),
    # R082 "bids in secret any number of his available power tokens"
    Case("a bid beyond the available power", "R082",
         _westeros(lambda: westeros_round(("last_days_of_summer", "clash_of_kings", "sea_of_storms")), "stark",
                   Bid(track="iron_throne", amount=99))),
    # R101 "everyone hides his available power and bids in secret"
    Case("a wildling bid beyond the available power", "R101",
         _westeros(lambda: westeros_round(("last_days_of_summer", "last_days_of_summer", "wildlings_attack")), "stark",
                   Bid(track="wildlings", amount=99))),
    # R085 "the old holder breaks ties on the Iron Throne track itself"
    Case("a tie-break on the Iron Throne track from another house", "R085",
         _westeros(lambda: westeros_round(("last_days_of_summer", "clash_of_kings", "sea_of_storms")), "stark",
                   TieBreak(order=tuple(THREE)), *[line(h, Bid(track="iron_throne", amount=0), round=2) for h in THREE])),
    # R084 "he places the tied Houses on the highest free positions in the order he chooses" (every tied house)
    Case("a tie-break order leaving out a tied house", "R084",
         _westeros(lambda: westeros_round(("last_days_of_summer", "clash_of_kings", "sea_of_storms")), "baratheon",
                   TieBreak(order=("stark",)), *[line(h, Bid(track="iron_throne", amount=0), round=2) for h in THREE])),
    # R044 "A Throne of Blades: the Iron Throne holder chooses"
    Case("a Throne of Blades choice from another house", "R044",
         _westeros(lambda: westeros_round(("a_throne_of_blades", "last_days_of_summer", "sea_of_storms")), "stark",
                   WesterosChoice(card="a_throne_of_blades", option="muster"), steps=2)),
    # R056 "Put to the Sword: the Valyrian Steel Blade holder chooses (a) ..., (b) ..., or (c) nothing"
    Case("a choice Put to the Sword does not offer", "R056",
         _westeros(lambda: westeros_round(("last_days_of_summer", "last_days_of_summer", "put_to_the_sword")), "stark",
                   WesterosChoice(card="put_to_the_sword", option="no raid"))),
    # R068 "An area without either [castle or stronghold] musters nothing"
    Case("a muster in an area with no castle", "R068",
         _westeros(lambda: westeros_round(("mustering", "last_days_of_summer", "sea_of_storms")), "stark",
                   Muster(area="karhold", actions=(MusterAction(unit="footman"),)), steps=6)),
    # R071 "a Footman already in the mustering area is replaced by a Knight or Siege Engine"
    Case("an upgrade with no footman to replace", "R071",
         _westeros(lambda: _no_footman_in_winterfell(), "stark",
                   Muster(area="winterfell", actions=(MusterAction(unit="knight", upgrade=True),)), steps=6)),
    # R060 "a House over its limits removes units at once until it complies" (units it has)
    Case("a supply removal naming units the house does not have", "R060",
         _westeros(lambda: _over_supply_westeros(), "stark",
                   Reconcile(removals=(Located("riverrun", "knight", 5),)))),
]


@pytest.mark.parametrize("case", CASES, ids=[c.situation for c in CASES])
def test_ruling_162_every_refusal_names_the_rule_the_checklist_gives(case: Case, monkeypatch: pytest.MonkeyPatch):
    found = case.run(monkeypatch)
    assert found, f"no refusal for: {case.situation}"
    for e in found:
        assert e.rule == case.rule, (case.situation, e.reason)
        assert rule_of(e.reason) == e.rule, "the sentence names the same rule first"
        assert e.describe().endswith(f"{e.reason}.")


def test_R121_an_area_left_without_an_order_refuses_nothing_and_the_waiting_note_names_R121_first():
    """R121 "Before the reveal, every area with units must have an Order": the line sent stands
    and waits for the others (ruling 121); the note on the open areas names R121 first."""
    target = line("stark", AssignOrder(area="winterfell", token="raid"))
    step = advance(three(), [target])
    assert not [e for e in step.events if isinstance(e, AnswerUnusable) and target["id"] in e.ids]
    (waiting,) = [e for e in step.events if isinstance(e, OrdersWaiting) and e.house == "stark"]
    assert rule_of(waiting.reason) == "R121" and "no order yet for" in waiting.reason


def test_the_table_covers_at_least_forty_situations():
    assert len(CASES) >= 40 and len({c.situation for c in CASES}) == len(CASES)
    assert all(RULE_ID.fullmatch(c.rule) for c in CASES)


def test_every_refusal_of_a_robot_game_carries_its_rule():
    """Robots that often err (``chaos``): every refusal of whole games names a rule."""
    from adjudicator.robots import simulate as sim

    seen: list[AnswerUnusable] = []
    real = sim.advance

    def watching(*args: Any, **kwargs: Any) -> Any:
        step = real(*args, **kwargs)
        seen.extend(e for e in step.events if isinstance(e, AnswerUnusable))
        return step

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(sim, "advance", watching)
    try:
        for players, seed in ((4, 21), (5, 22)):
            assert sim.simulate(players, seed, text=False, chaos=0.6, rounds=3).problems == []
    finally:
        monkeypatch.undo()
    assert len(seen) > 20
    assert [e.reason for e in seen if not RULE_ID.fullmatch(e.rule)] == []
