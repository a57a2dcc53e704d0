"""Vassals across rounds and in the Westeros phase (M030, M031, M063, M064, M066, M070-M074;
rulings 244, 245, 266): who decides for a vassal, its bids, its supply, its mustering, its victory.

Three players (Stark, Lannister, Baratheon) and four vassals (Greyjoy, Tyrell, Martell, Arryn) on a
bare board at the start of round 2's Westeros phase; the Planning phase that follows is a stop, so
that the commands of round 1 are still in force (M031).
"""

from __future__ import annotations

import itertools
import random

import pytest
from rules.helpers import of, put

from adjudicator.engine import machine
from adjudicator.engine.core.bidding import bid_for_track
from adjudicator.engine.core.common import check_victory
from adjudicator.engine.core.context import Context, GameOver, NeedAnswers, PoolEntry, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable, AnswerUsed, DefaultUsed
from adjudicator.engine.events.westeros import (
    FinalStandings,
    InfluenceTrackChanged,
    SupplyTrackMoved,
    WildlingAttackBegins,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import planning, westeros
from adjudicator.engine.rules.endgame import standings
from adjudicator.folder.check import check_turn_file
from adjudicator.game.commands import (
    Bid,
    Command,
    DistributeBid,
    ForVassal,
    Gift,
    Located,
    Muster,
    MusterAction,
    Reconcile,
)
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Segment, Unit
from adjudicator.robots.players import Robot, robot_key
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command
from mother_of_dragons.vassal_helpers import mod_game

_ids = itertools.count()
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def at_westeros(cards: tuple[str, str, str], *, commanders: dict[str, str] | None = None, threat: int = 0) -> GameState:
    """Round 2's Westeros phase with ``cards`` on top of decks I-III and round 1's commands."""
    s = mod_game(seed="vassal-westeros")
    s.round, s.phase, s.step, s.wildling_threat = 2, "westeros", "", threat
    s.vassal_sets = []
    s.commanders = {"tyrell": "stark", "greyjoy": "lannister", "martell": "baratheon", "arryn": "baratheon"} \
        if commanders is None else commanders
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def answer(house: str, command: Command, vassal: str = "") -> dict:
    cmd = ForVassal(vassal=vassal, command=command) if vassal else command
    return pool_entry(id=f"vw{next(_ids)}", house=house, round=2, command=cmd, text=f"line {next(_ids)}")


def muster(area: str, *units: str) -> Muster:
    return Muster(area=area, actions=tuple(MusterAction(unit=u) for u in units))


def play(state: GameState, lines: list[dict] | None = None, vassals: tuple[str, ...] = ("tyrell",)) -> Step:
    """Advance; every decision but those of ``vassals`` (the players' own mustering, the other
    vassals') takes its default."""
    return advance(state, lines or [], deadline=lambda r: r.vassal not in vassals)


def requests_of(step: Step, kind: str) -> list:
    return [r for r in step.requests if r.kind == kind]


MUSTERING = ("mustering", "last_days_of_summer", "sea_of_storms")


# --- who decides (M030, M031, ruling 244) ----------------------------------------------------------


def test_M030_the_commander_makes_its_vassals_decision_with_for_lines_and_gets_the_verdicts():
    s = at_westeros(MUSTERING)
    put(s, "highgarden", "tyrell", "footman")
    step = play(s)
    (req,) = [r for r in requests_of(step, "muster") if r.vassal == "tyrell"]
    assert req.house == "stark" and req.prompt.startswith("for Tyrell: muster in Highgarden")
    # Stark's own line is Stark's, not Tyrell's; a line for Tyrell that cannot be mustered is refused to Stark.
    lines = [answer("stark", muster("highgarden", "knight")), answer("stark", muster("highgarden", "ship", "knight"), "tyrell")]
    step = play(step.state, lines)
    assert [r for r in requests_of(step, "muster") if r.vassal == "tyrell"]
    refused = of(step.events, AnswerUnusable)
    assert refused and all(e.house == "stark" and e.visible_to == "stark" for e in refused)
    step = play(step.state, [answer("stark", muster("highgarden", "knight"), "tyrell")])
    assert sorted(u.type for u in step.state.area("highgarden").units) == ["footman", "knight"]
    assert all(u.house == "tyrell" for u in step.state.area("highgarden").units)
    used = [e for e in of(step.events, AnswerUsed) if e.house == "stark"]
    assert used and used[0].visible_to == "stark"


def test_M031_ruling_244_last_rounds_commander_decides_in_the_westeros_phase_until_planning():
    s = at_westeros(MUSTERING, commanders={"tyrell": "lannister", "greyjoy": "stark", "martell": "stark",
                                        "arryn": "baratheon"})
    put(s, "highgarden", "tyrell", "footman")
    step = play(s)
    (req,) = [r for r in requests_of(step, "muster") if r.vassal == "tyrell"]
    assert req.house == "lannister"
    step = play(step.state, [answer("lannister", muster("highgarden", "footman"), "tyrell")])
    assert step.state.phase == "planning" and step.state.commanders["tyrell"] == "lannister"


def test_M031_the_commands_end_only_when_the_next_planning_phase_begins(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": planning.run})
    s = at_westeros(("last_days_of_summer", "last_days_of_summer", "sea_of_storms"))
    step = advance(s, [])
    assert step.state.phase == "planning" and step.state.commanders == {}
    assert requests_of(step, "vassal_choice")


def test_M031_ruling_244_a_vassal_nobody_commands_takes_the_default_unasked():
    s = at_westeros(MUSTERING, commanders={})
    put(s, "highgarden", "tyrell", "footman")
    step = play(s)
    assert not [r for r in step.requests if r.vassal == "tyrell" or r.house == "tyrell"]
    assert [e for e in of(step.events, DefaultUsed) if e.house == "tyrell"]
    assert [u.type for u in step.state.area("highgarden").units] == ["footman"]  # the default musters nothing


# --- the influence tracks (M063, M064, ruling 266) -------------------------------------------------


def _clash() -> GameState:
    return at_westeros(("last_days_of_summer", "clash_of_kings", "sea_of_storms"))


def test_M063_vassals_keep_their_places_and_fall_below_every_positive_bid():
    s = _clash()
    bids = [answer(h, Bid(track=t, amount=1)) for h in ("stark", "lannister", "baratheon") for t in TRACKS]
    step = advance(s, bids, deadline=lambda r: r.kind == "tie_break")
    assert not [r for r in step.requests if r.vassal]  # nobody is asked to bid for a vassal
    for track in TRACKS:
        order = step.state.tracks[track]
        assert sorted(order) == sorted(s.houses_in_play)  # every vassal keeps a place
        assert set(order[:3]) == {"stark", "lannister", "baratheon"} and set(order[3:]) == set(s.vassals)
    assert len(of(step.events, InfluenceTrackChanged)) == 3


def test_M064_ruling_266_a_vassals_0_bid_ties_with_a_players_0_and_the_throne_orders_them():
    s = _clash()
    bids = [answer(h, Bid(track=t, amount=0 if h == "stark" else 1))
            for h in ("stark", "lannister", "baratheon") for t in TRACKS]
    step = advance(s, bids)
    (tie,) = requests_of(step, "tie_break")
    assert tie.house == s.holder("iron_throne")
    assert "stark" in tie.context["tied"] and set(s.vassals) <= set(tie.context["tied"])


def test_M064_only_power_targaryen_gives_raises_a_vassals_bid():
    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="vassal-bids")
    s.round = 2
    bids = [("stark", Bid(track="fiefdoms", amount=1)), ("lannister", Bid(track="fiefdoms", amount=2)),
            ("arryn", Bid(track="fiefdoms", amount=0)), ("targaryen", Bid(track="fiefdoms", amount=3)),
            ("targaryen", DistributeBid(track="fiefdoms", gifts=(Gift("tyrell", 3),)))]
    ctx = Context(s, s.board(), Segment("westeros", {}), [PoolEntry.from_dict(answer(h, c)) for h, c in bids], True)
    s.commanders = {"tyrell": "stark"}
    bid_for_track(ctx, "fiefdoms")
    assert s.tracks["fiefdoms"][0] == "tyrell"  # 0 + 3 from Targaryen beats Lannister's 2
    assert s.holder("fiefdoms") == "lannister"  # the highest player holds the Blade (M065)


# --- wildlings (M066) -------------------------------------------------------------------------------


def test_M066_vassals_never_bid_against_the_wildlings_nor_are_highest_or_lowest():
    s = at_westeros(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=4)
    s.wildling_deck.remove("rattleshirts_raiders")
    s.wildling_deck.insert(0, "rattleshirts_raiders")
    s.houses["tyrell"].supply = 3
    put(s, "highgarden", "tyrell", "footman", "footman")
    bids = [answer(h, Bid(track="wildlings", amount=n)) for h, n in (("stark", 0), ("lannister", 1), ("baratheon", 2))]
    step = advance(s, bids)
    (begun,) = of(step.events, WildlingAttackBegins)
    assert set(begun.houses) == {"stark", "lannister", "baratheon"}
    assert not [r for r in step.requests if r.kind == "bid" and r.vassal]
    moved = [e.house for e in of(step.events, SupplyTrackMoved) if e.cause == "Rattleshirt's Raiders"]
    assert moved and not set(moved) & set(s.vassals)
    assert step.state.houses["tyrell"].supply == 3


# --- victory (M070) ---------------------------------------------------------------------------------


def test_M070_seven_castles_held_by_a_vassal_win_nothing():
    s = mod_game(seed="vassal-victory")
    board = s.board()
    castles = [a.id for a in board.land_areas() if a.has_castle][:7]
    for a in castles:
        s.area_mut(a).units = [Unit("tyrell", "footman")]
        s.area_mut(a).garrison = None
    s.tidy()
    assert s.castles("tyrell", board) >= 7
    check_victory(Context(s, board, Segment("action", {}), [], False))  # no GameOver
    assert s.winner is None and s.phase != "game_over"
    s.area_mut(castles[0]).units = [Unit("stark", "footman")]
    others = [a.id for a in board.land_areas() if a.has_castle and a.id not in castles][:6]
    for a in others:
        s.area_mut(a).units = [Unit("stark", "footman")]
    with pytest.raises(GameOver):
        check_victory(Context(s, board, Segment("action", {}), [], False))


def test_M070_vassals_are_not_ranked_at_the_end_and_cannot_win_it():
    s = at_westeros(("last_days_of_summer", "last_days_of_summer", "sea_of_storms"))
    s.round = 11
    board = s.board()
    for a in [a.id for a in board.land_areas() if a.has_castle][:5]:
        s.area_mut(a).units = [Unit("martell", "footman")]
    ranked = [row[0] for row in standings(s, board)]
    assert sorted(ranked) == ["baratheon", "lannister", "stark"]
    step = advance(s, [])
    assert step.state.winner in ("stark", "lannister", "baratheon")
    (final,) = of(step.events, FinalStandings)
    assert {row[0] for row in final.standings} == {"stark", "lannister", "baratheon"}


# --- supply (M071, M072) ----------------------------------------------------------------------------


SUPPLY = ("supply", "last_days_of_summer", "sea_of_storms")


def test_M071_ruling_265_a_vassal_moves_its_supply_token_by_the_barrels_it_controls():
    s = at_westeros(SUPPLY)
    put(s, "highgarden", "tyrell", "footman")  # two barrels
    put(s, "dornish_marches", "tyrell", "footman")  # one more
    step = advance(s, [])
    moved = [(e.old, e.new) for e in of(step.events, SupplyTrackMoved) if e.house == "tyrell"]
    barrels = sum(s.board().area(a).supply for a in ("highgarden", "dornish_marches"))
    assert moved == [(4, barrels)] and step.state.houses["tyrell"].supply == barrels


def test_M072_ruling_244_a_vassal_over_its_supply_loses_the_units_its_commander_chooses():
    s = at_westeros(SUPPLY)
    put(s, "highgarden", "stark", "footman")  # Three Towers' barrel only: supply 1, armies (3, 2) at most
    put(s, "oldtown", "tyrell", "footman", "knight", "footman")
    put(s, "the_reach", "tyrell", "footman", "footman")
    put(s, "three_towers", "tyrell", "footman", "footman")
    step = advance(s, [])
    (req,) = requests_of(step, "reconcile")
    assert (req.house, req.vassal, req.context["units_to_destroy"]) == ("stark", "tyrell", 1)
    wrong = answer("stark", Reconcile(removals=(Located(area="winterfell", unit="footman"),)), "tyrell")
    step = advance(step.state, [wrong])
    assert any("(R060)" in e.reason and e.house == "stark" for e in of(step.events, AnswerUnusable))
    step = advance(step.state, [answer("stark", Reconcile(removals=(Located(area="the_reach", unit="footman"),)), "tyrell")])
    assert not requests_of(step, "reconcile")
    assert [u.type for u in step.state.area("the_reach").units] == ["footman"]
    assert len(step.state.area("three_towers").units) == 2 and len(step.state.area("oldtown").units) == 3


def test_M072_at_the_deadline_the_commanders_silence_takes_the_default_cut_told_to_everyone():
    s = at_westeros(SUPPLY)
    put(s, "highgarden", "stark", "footman")
    put(s, "oldtown", "tyrell", "footman", "knight", "footman")
    put(s, "the_reach", "tyrell", "footman", "footman")
    put(s, "three_towers", "tyrell", "footman", "footman")
    step = advance(s, [])
    (req,) = requests_of(step, "reconcile")
    assert req.default == Reconcile(removals=(Located(area="three_towers", unit="footman"),))
    step = advance(step.state, [], deadline=True)
    assert [len(step.state.area(a).units) for a in ("oldtown", "the_reach", "three_towers")] == [3, 2, 1]
    (told,) = [e for e in of(step.events, DefaultUsed) if e.house == "stark"]
    assert told.visible_to == "public" and "for Tyrell" in told.decision


def test_M072_ruling_244_with_no_commander_the_default_cut_is_taken_unasked():
    s = at_westeros(SUPPLY, commanders={})
    put(s, "highgarden", "stark", "footman")
    put(s, "oldtown", "tyrell", "footman", "knight", "footman")
    put(s, "the_reach", "tyrell", "footman", "footman")
    put(s, "three_towers", "tyrell", "footman", "footman")
    step = advance(s, [])
    assert not requests_of(step, "reconcile")
    assert [len(step.state.area(a).units) for a in ("oldtown", "the_reach", "three_towers")] == [3, 2, 1]
    assert [e for e in of(step.events, DefaultUsed) if e.house == "tyrell"]


# --- Westeros cards (M073, M074, ruling 245) --------------------------------------------------------


def test_M073_a_westeros_card_affects_a_vassal_and_its_commander_chooses_for_it():
    s = at_westeros(MUSTERING)
    put(s, "highgarden", "tyrell", "footman")
    put(s, "pyke", "greyjoy", "footman")
    step = play(s, vassals=("tyrell", "greyjoy"))
    asked = {(r.house, r.vassal) for r in requests_of(step, "muster")}
    assert ("stark", "tyrell") in asked or ("lannister", "greyjoy") in asked  # asked in turn order
    lines = [answer("stark", muster("highgarden", "footman"), "tyrell"),
             answer("lannister", Muster(area="pyke", actions=(MusterAction(unit="ship", to="ironmans_bay"),)), "greyjoy")]
    step = play(step.state, lines, ("tyrell", "greyjoy"))
    assert [u.type for u in step.state.area("highgarden").units if u.house == "tyrell"] == ["footman", "footman"]
    assert [u.house for u in step.state.area("pyke").units] == ["greyjoy"]
    assert [(u.house, u.type) for u in step.state.area("ironmans_bay").units] == [("greyjoy", "ship")]


def test_M074_ruling_245_westeros_mustering_only_in_the_home_area_it_controls():
    s = at_westeros(MUSTERING)
    put(s, "highgarden", "tyrell", "footman")
    put(s, "oldtown", "tyrell", "footman")  # a stronghold of its own, but not its home area
    step = play(s)
    asked = [r.prompt for r in step.requests if r.vassal == "tyrell"]
    assert len(asked) == 1 and "Highgarden" in asked[0] and "Oldtown" not in asked[0]
    step = play(step.state, [answer("stark", muster("oldtown", "footman"), "tyrell")])
    assert any("Oldtown" in e.reason for e in of(step.events, AnswerUnusable) if e.house == "stark")


def test_M074_ruling_245_a_vassal_without_its_home_area_musters_nothing():
    s = at_westeros(MUSTERING)
    put(s, "oldtown", "tyrell", "footman")
    put(s, "highgarden", "stark", "footman")
    step = play(s)
    assert not [r for r in step.requests if r.vassal == "tyrell"]
    assert [u.type for u in step.state.area("oldtown").units] == ["footman"]


def test_M074_maester_check_reads_a_commanders_mustering_for_its_vassal():
    s = at_westeros(MUSTERING)
    s.game_id = "vw"
    put(s, "highgarden", "tyrell", "footman")
    step = play(s)
    state = step.state
    head = "game vw · house stark · round 2 · westeros · seq 1\n"
    ok = check_turn_file(parse_turn_file(head + "for tyrell: muster in Highgarden: knight\n", variant=state.variant), state)
    assert ok.problems == () or not [p for p in ok.problems if p.where.line == 2], ok.problems
    bad = check_turn_file(parse_turn_file(head + "for tyrell: muster in Oldtown: footman\n", variant=state.variant), state)
    assert [p for p in bad.problems if p.where.line == 2]


def test_M073_robots_answer_a_vassals_westeros_decisions_for_it_in_a_turn_file_line():
    s = at_westeros(MUSTERING)
    put(s, "highgarden", "tyrell", "footman")
    step = play(s)
    req = next(r for r in step.requests if r.vassal == "tyrell")
    robot = Robot("stark", robot_key("vassal", "stark"), random.Random(3), chaos=0.0, careful=True)
    (cmd,) = robot.commands(step.state, step.requests, s.board())
    assert isinstance(cmd, ForVassal) and cmd.vassal == "tyrell" and isinstance(cmd.command, Muster)
    line = format_command(cmd)
    assert line.startswith("for tyrell: muster in Highgarden")
    (parsed,) = parse_turn_file(f"game vw · house stark · round 2 · westeros · seq 1\n{line}\n",
                                variant=s.variant).commands
    assert parsed == cmd
    step = play(step.state, [answer("stark", cmd.command, "tyrell")])
    assert req.key not in {r.key for r in step.requests}
    assert [e for e in of(step.events, AnswerUsed) if e.house == "stark"]


def test_M064_M066_maester_check_refuses_a_bid_for_a_vassal_and_for_lines_not_the_houses_to_send():
    s = at_westeros(("last_days_of_summer", "clash_of_kings", "sea_of_storms"))
    s.game_id = "vw"
    state = play(s).state
    head = "game vw · house stark · round 2 · westeros · seq 1\n"
    body = ("for tyrell: bid iron throne 1\n"  # line 2: a vassal never bids
            "for stark: bid fiefdoms 1\n"  # line 3: Stark is no vassal
            "for greyjoy: supply: none\n"  # line 4: Lannister commands Greyjoy (M031)
            "bid iron throne 1\n")
    tf = check_turn_file(parse_turn_file(head + body, variant=state.variant), state)
    why = {p.where.line: str(p) for p in tf.problems}
    assert "(M064, M066)" in why[2] and "bids 0" in why[2]
    assert "Stark is not a vassal" in why[3] and "(M030)" in why[3]
    assert "commanded by Lannister" in why[4] and "(M030, M031)" in why[4]
    assert 5 not in why
