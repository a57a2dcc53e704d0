"""The rulings on marches and their combats (docs/rulings.md 18-20), through the real march code,
combat and step machine."""

from __future__ import annotations

from adjudicator.engine.events.combat import TrackMoved
from adjudicator.engine.machine import advance
from adjudicator.game.commands import CardChoice, March, Move, PlayCard, UnitSpec

from .helpers import phases  # noqa: F401
from .test_combat_harness import BOARD, position, say


def _march(origin: str, dest: str, *units: str) -> March:
    return March(origin=origin, moves=(Move(destination=dest, units=tuple(UnitSpec(u) for u in units)),))


DORAN = """
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[tracks]
iron_throne = ["martell", "stark", "lannister", "baratheon", "tyrell", "greyjoy"]
[areas]
the_boneway = { units = ["2 martell knights"], order = "march+0" }
kingswood = { units = ["stark footman"], order = "defense+1" }
winterfell = { units = ["stark footman"], order = "march+0" }
lannisport = { units = ["lannister footman"], order = "march+0" }
"""


def test_ruling_18_after_doran_moves_a_house_the_cycle_goes_on_in_the_new_turn_order(phases):
    """Martell marches first and, with Doran Martell, sends Stark to the bottom of the Iron Throne
    track: Lannister, now second, marches before Stark, who had not marched yet in this cycle."""
    step = advance(position(DORAN), [
        *say("martell", _march("the_boneway", "kingswood", "knight", "knight"), PlayCard(card="doran_martell"),
             CardChoice(card="doran_martell", track="iron_throne")),
        *say("stark", PlayCard(card="eddard_stark"))], board=BOARD)
    assert [(e.house, e.track) for e in step.events if isinstance(e, TrackMoved)] == [("stark", "iron_throne")]
    assert step.state.tracks["iron_throne"] == ["martell", "lannister", "baratheon", "tyrell", "greyjoy", "stark"]
    assert [(r.kind, r.house) for r in step.requests] == [("march", "lannister")]
    step = advance(step.state, say("lannister", _march("lannisport", "searoad_marches", "footman")), board=BOARD)
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]


def test_ruling_18_the_marching_house_sent_to_the_bottom_waits_for_the_next_cycle(phases):
    """Stark marches first and loses to Doran Martell, who sends it to the bottom of the Iron Throne
    track. The cycle goes on with the houses that have not marched (Martell, then Lannister); Stark's
    second march comes in the next cycle, last."""
    state = position("""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[tracks]
iron_throne = ["stark", "martell", "lannister", "baratheon", "tyrell", "greyjoy"]
[areas]
the_reach = { units = ["stark knight"], order = "march+0" }
castle_black = { units = ["stark knight"], order = "march+1" }
kingswood = { units = ["2 martell footmen"], order = "defense+1" }
sunspear = { units = ["martell footman"], order = "march+0" }
lannisport = { units = ["lannister footman"], order = "march+0" }
""")
    step = advance(state, [
        *say("stark", _march("the_reach", "kingswood", "knight"), PlayCard(card="catelyn_stark")),
        *say("martell", PlayCard(card="doran_martell"), CardChoice(card="doran_martell", track="iron_throne"))],
        board=BOARD)
    assert step.state.tracks["iron_throne"] == ["martell", "lannister", "baratheon", "tyrell", "greyjoy", "stark"]
    assert [(r.kind, r.house) for r in step.requests] == [("march", "martell")]
    step = advance(step.state, say("martell", _march("sunspear", "salt_shore", "footman")), board=BOARD)
    assert [(r.kind, r.house) for r in step.requests] == [("march", "lannister")]
    step = advance(step.state, say("lannister", _march("lannisport", "searoad_marches", "footman")), board=BOARD)
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]


HOME = """
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[tracks]
iron_throne = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
lannisport = { units = ["2 stark knights"], order = "march+0" }
port_of_lannisport = { units = ["stark ship"], order = "support+0" }
stoney_sept = { units = ["2 lannister footmen"], order = "defense+1" }
"""


def test_ruling_19_an_enemy_home_area_left_to_attack_reverts_before_the_combat_and_the_beaten_army_returns(phases):
    """Stark marches both knights out of Lannisport to attack Stoney Sept, leaving no power token:
    Lannisport is Lannister's again before the combat (R243, R247), so Stark's ship in its port goes
    (ruling 2). Beaten, the knights go back to Lannisport all the same (R208), routed, and hold it again."""
    from adjudicator.engine.core.common import ControlChanged, UnitsDestroyed
    from adjudicator.engine.events.action import AttackDeclared
    from adjudicator.engine.events.combat import AttackRepelled, CombatResolved

    step = advance(position(HOME), [
        *say("stark", _march("lannisport", "stoney_sept", "knight", "knight"), PlayCard(card="catelyn_stark")),
        *say("lannister", PlayCard(card="ser_jaime_lannister"))], board=BOARD)
    kinds = [type(e).__name__ for e in step.events]
    changes = [(e.area, e.old, e.new) for e in step.events if isinstance(e, ControlChanged)]
    assert changes == [("lannisport", "stark", "lannister"), ("lannisport", "lannister", "stark")]
    first_change = next(i for i, e in enumerate(step.events) if isinstance(e, ControlChanged))
    assert first_change < kinds.index("CombatStarted")
    lost = [(e.area, e.units) for e in step.events if isinstance(e, UnitsDestroyed)]
    assert lost[0] == ("port_of_lannisport", ("ship",)) and kinds.index("UnitsDestroyed") < kinds.index("CombatStarted")
    assert [e.winner for e in step.events if isinstance(e, CombatResolved)] == ["lannister"]
    assert [(e.area, e.routed) for e in step.events if isinstance(e, AttackRepelled)] == [("lannisport", True)]
    assert [e.area for e in step.events if isinstance(e, AttackDeclared)] == ["stoney_sept"]
    st = step.state
    assert [(u.house, u.type) for u in st.area("lannisport").units] == [("stark", "knight")]  # rallied at clean-up
    assert st.controller("lannisport", BOARD) == "stark" and st.area("port_of_lannisport").units == []


def test_ruling_19_the_home_house_that_gets_its_seventh_castle_back_wins_before_the_combat(phases):
    from adjudicator.engine.core.common import GameWon

    castles = ["riverrun", "harrenhal", "seagard", "crackclaw_point", "the_reach", "highgarden"]
    text = HOME + "\n".join(f'{a} = ["lannister footman"]' for a in castles) + "\n"
    step = advance(position(text), say("stark", _march("lannisport", "stoney_sept", "knight", "knight")), board=BOARD)
    won = [(e.winner, e.reason) for e in step.events if isinstance(e, GameWon)]
    assert won == [("lannister", "7 castles and strongholds")] and step.state.phase == "game_over"
    assert "CombatStarted" not in [type(e).__name__ for e in step.events]


def test_ruling_20_a_port_whose_land_area_a_march_takes_without_a_combat_may_be_captured(phases):
    """Lannister holds White Harbor by a lone power token, its ship in the port. Stark walks in: no
    combat, the token goes back to the pool (R154), and Stark may replace the ship with its own,
    as after a won attack (R246)."""
    from adjudicator.engine.events.combat import PortCaptured
    from adjudicator.game.commands import PortShips

    state = position("""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
winterfell = { units = ["stark footman"], order = "march+0" }
white_harbor = { power_token = "lannister" }
port_of_white_harbor = { units = ["lannister ship"], order = "support+0" }
""")
    step = advance(state, say("stark", _march("winterfell", "white_harbor", "footman")), board=BOARD)
    assert [(r.kind, r.house) for r in step.requests] == [("port_ships", "stark")]
    assert [o.count for o in step.requests[0].options] == [1, 0]
    step = advance(step.state, say("stark", PortShips(port="port_of_white_harbor", count=1)), board=BOARD)
    assert [(e.port, e.house, e.old_house, e.replaced) for e in step.events if isinstance(e, PortCaptured)] == [
        ("port_of_white_harbor", "stark", "lannister", 1)]
    assert [(u.house, u.type) for u in step.state.area("port_of_white_harbor").units] == [("stark", "ship")]
    assert step.state.area("port_of_white_harbor").order is None


def test_ruling_20_declining_the_capture_removes_the_enemy_ships(phases):
    state = position("""
houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
winterfell = { units = ["stark footman"], order = "march+0" }
port_of_white_harbor = ["2 lannister ships"]
""")
    from adjudicator.game.commands import PortShips

    step = advance(state, [*say("stark", _march("winterfell", "white_harbor", "footman"),
                                PortShips(port="port_of_white_harbor", count=0))], board=BOARD)
    assert step.state.area("port_of_white_harbor").units == [] and step.state.controller("white_harbor", BOARD) == "stark"
