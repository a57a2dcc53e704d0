"""What robots answering ahead send (robots/players.py, robots/standing_robot.py): lines that fit
the decisions they are meant for, so that the mail round trips of a round are the ones the rules
make (benchmarks/bench_roundtrips.py)."""

from __future__ import annotations

import random

from mother_of_dragons.test_westeros_iv import T, tgame
from rules.helpers import entry

from adjudicator.engine.core.context import pool_entry
from adjudicator.engine.rules.standing import standing_changes
from adjudicator.game.commands import (
    AssignOrder,
    Bid,
    DistributeBid,
    Reconcile,
    Standing,
    WesterosChoice,
    WildlingChoice,
)
from adjudicator.game.state import GameState, Unit
from adjudicator.robots.players import Robot, robot_key
from adjudicator.robots.standing_robot import every_round, once


def robot(house: str, seed: int = 1) -> Robot:
    return Robot(house, robot_key("t", house), random.Random(seed), chaos=0.0, ahead=True, careful=True,
                 standing=True)


def _stark_at_orders() -> GameState:
    s = tgame()
    s.phase = "planning"
    for st in s.areas.values():  # Stark's units are these only
        st.units = [u for u in st.units if u.house != "stark"]
    s.area_mut("winterfell").units = [Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "knight")]
    s.area_mut("white_harbor").units = [Unit("stark", "footman")]
    s.area_mut("karhold").units = [Unit("stark", "footman"), Unit("stark", "knight")]
    return s


def test_M100_a_targaryen_robot_gives_away_the_bid_it_sends_in_the_same_file():
    """A bid sent now replaces the standing one waiting (0 here): the distribution of the file is of
    the new bid, else Targaryen would be asked for it in another mail round."""
    s = tgame()
    s.westeros_revealed = ["supply", "clash_of_kings", "feast_for_crows", "empty_promises"]
    s.step = "card_1"
    s.houses[T].power = 6
    s.answers = [pool_entry(id=f"{T}/s{n}", house=T, round=1, command=Standing(command=Bid(track=t, amount=0)),
                            text="") for n, t in enumerate(("iron_throne", "fiefdoms", "kings_court"))]
    for seed in range(1, 6):
        sent = robot(T, seed).commands(s, [], s.board())
        bids = {c.track: c.amount for c in sent if isinstance(c, Bid) and c.track != "wildlings"}
        given = {c.track: sum(g.amount for g in c.gifts) for c in sent if isinstance(c, DistributeBid)}
        assert given == {t: n for t, n in bids.items() if n}, seed
    assert any(bids.values())


def test_ruling_360_a_robots_penalty_lines_name_units_its_orders_keep_in_place():
    s = _stark_at_orders()
    orders = [AssignOrder(area="winterfell", token="march"), AssignOrder(area="karhold", token="defense+1"),
              AssignOrder(area="white_harbor", token="consolidate")]
    lines = every_round(robot("stark"), s, s.board(), orders)
    penalties = [c for c in lines if isinstance(c, WildlingChoice) and c.units]
    named = {(c.card, sum(u.count for u in c.units)) for c in penalties}
    assert named == {("mammoth_riders", 3), ("mammoth_riders", 2), ("the_horde_descends", 1)}
    assert all(u.area != "winterfell" for c in penalties for u in c.units)  # its units there march away
    three = next(c for c in penalties if sum(u.count for u in c.units) == 3)
    assert sorted((u.area, u.unit, u.count) for u in three.units) == [
        ("karhold", "footman", 1), ("karhold", "knight", 1), ("white_harbor", "footman", 1)]


def test_ruling_360_a_robots_penalty_lines_all_stand_beside_its_declined_rewards():
    s = _stark_at_orders()
    bot = robot("stark")
    cmds = [*once(bot, s, s.board()), *every_round(bot, s, s.board(), [])]
    lines = [entry("stark", Standing(command=c)) for c in cmds]
    kept, events = standing_changes(s, s.board(), lines, {a["id"] for a in lines})
    assert len(kept) == len(lines) and not events


def test_M083_a_robot_names_its_part_of_the_deck_iv_cards_on_which_targaryen_names_a_player():
    s = tgame()
    cards = {c.card: c.option for c in once(robot("stark"), s, s.board()) if isinstance(c, WesterosChoice)}
    assert cards["playing_with_fire"] == "footman"
    first, second = cards["the_long_plan"].split("+")
    assert first != second and s.board().area(first).is_land and s.board().area(second).is_land
    assert "the_long_plan" not in {c.card for c in once(robot(T), s, s.board())
                                   if isinstance(c, WesterosChoice) and "+" in c.option}


def test_ruling_362_a_robots_supply_lines_fit_the_cuts_its_supply_may_take():
    from adjudicator.engine.core.supply import check_reconcile

    s = _stark_at_orders()
    s.area_mut("white_harbor").units = [Unit("stark", "footman"), Unit("stark", "footman")]
    s.houses["stark"].supply = 2  # armies of 3, 2 and 2 against limits of 3, 2, 2: one or two places less cut
    lines = [c for c in every_round(robot("stark"), s, s.board(), []) if isinstance(c, Reconcile)]
    fitting = set()
    for level in (1, 0):
        trial = s.trial_copy()
        trial.houses["stark"].supply = level
        fitting |= {i for i, c in enumerate(lines) if check_reconcile(trial, s.board(), "stark", c) is None}
    assert len(lines) == 2 and fitting == {0, 1}
    assert len({sum(r.count for r in c.removals) for c in lines}) == len(lines)  # one line per number (ruling 362)
