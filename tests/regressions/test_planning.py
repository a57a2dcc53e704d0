"""Review of the Planning Phase (R112-R127): stars with the King's Court overlay, houses short of
tokens (R122) and the Messenger Raven (R125, R126).

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. 6-player King's Court at the start: Lannister 3 stars, Stark 3, Martell 2,
Baratheon 1, Tyrell 0, Greyjoy 0. Lannister holds the Messenger Raven.
"""

from __future__ import annotations

import pytest
from rules.helpers import BOARD, answers, entry, game, of, phases, put, run, unusable  # noqa: F401

from adjudicator.engine.events.action import OrdersPlaced, OrdersRevealed, OrderSwapped
from adjudicator.game.commands import AssignOrder, Raven
from adjudicator.reports.report import public_state
from adjudicator.reports.svgmap import board_summary, render_map

pytestmark = pytest.mark.usefixtures("phases")

RAVEN_PASS = Raven(action="pass")


def reasons(step, house):
    return [e.reason for e in unusable(step, house)]


# --- stars (R094, R095, R119) ---------------------------------------------------------------


def test_R095_three_players_the_overlay_gives_three_two_and_one_stars():
    """With three houses the overlay's first three places count: 3, 2, 1 stars (R095)."""
    s = game(["stark", "lannister", "baratheon"])
    assert s.kings_court_overlay and s.tracks["kings_court"] == ["lannister", "stark", "baratheon"]
    assert [s.stars(h, BOARD) for h in s.tracks["kings_court"]] == [3, 2, 1]
    put(s, "dragonstone", "baratheon", "footman")
    put(s, "kingswood", "baratheon", "footman")
    step = run(s, *answers("baratheon", AssignOrder(area="dragonstone", token="consolidate*"),
                           AssignOrder(area="kingswood", token="march+1")))
    # The newest line stands within the one star; the older special is refused (ruling 121).
    assert reasons(step, "baratheon") == ["your King's Court position allows 1 special order, placed by later lines in "
                                          "Kingswood (R119)"]


def test_R094_five_players_use_the_track_without_the_overlay():
    """Five houses play on the printed track: 3, 3, 2, 1, 0 stars (R094)."""
    s = game(["stark", "lannister", "greyjoy", "tyrell", "baratheon"])
    assert not s.kings_court_overlay
    assert [s.stars(h, BOARD) for h in s.tracks["kings_court"]] == [3, 3, 2, 1, 0]


# --- short of tokens (R122) -----------------------------------------------------------------


STARK_AREAS = ["winterfell", "castle_black", "karhold", "the_stony_shore", "white_harbor", "widows_watch",
               "moat_cailin", "greywater_watch", "flints_finger", "seagard", "the_twins", "the_fingers"]


def crowded():
    """Stark holds 12 areas with 8 tokens (no stars, defense banned); Lannister assigns first."""
    s = game()
    s.restrictions = ["defense"]
    s.tracks["kings_court"] = ["lannister", "martell", "baratheon", "greyjoy", "stark", "tyrell"]
    for a in STARK_AREAS:
        put(s, a, "stark", "footman")
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship")
    return s


LANNISTER = [AssignOrder(area="lannisport", token="support+1"), AssignOrder(area="port_of_lannisport", token="raid*")]


def test_R122_R124_orders_assigned_in_turn_order_stay_face_down_until_the_reveal():
    """While a later house assigns, the earlier houses' orders are face down: where, never what (R122, R124, R263).

    Was wrong: each house's orders were put on the board as soon as it had assigned them, so the
    public report, its JSON state and the map showed Lannister's tokens to everyone while Stark was
    still choosing his own.
    """
    step = run(crowded(), *answers("lannister", *LANNISTER))
    assert [r.house for r in step.requests] == ["stark"]
    assert [(e.house, e.areas) for e in of(step.events, OrdersPlaced)] == [("lannister", ("lannisport", "port_of_lannisport"))]
    shown = public_state(step.state, viewer="stark")["areas"]
    assert "order" not in shown["lannisport"] and "order" not in shown["port_of_lannisport"]
    assert not [line for line in board_summary(step.state, BOARD) if "support+1" in line or "raid*" in line]
    svg = render_map(step.state, viewer="stark", board=BOARD)
    assert "support+1" not in svg and "raid*" not in svg
    tokens = ["march-1", "march+0", "support+0", "support+0", "raid", "raid", "consolidate", "consolidate"]
    step = run(step.state, *answers("stark", *(AssignOrder(area=a, token=t) for a, t in zip(STARK_AREAS, tokens))),
               entry("lannister", RAVEN_PASS))
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert ("lannisport", "lannister", "support+1") in revealed and ("winterfell", "stark", "march-1") in revealed
    assert step.state.phase == "action"


ELEVEN = ["castle_black", "karhold", "the_stony_shore", "white_harbor", "widows_watch", "moat_cailin",
          "greywater_watch", "flints_finger", "seagard", "the_twins", "the_fingers"]


def test_R095_R122_with_the_overlay_the_fourth_place_has_no_star_and_eleven_areas_are_too_many():
    """Four houses: Greyjoy, fourth at court, has 10 tokens for 11 areas and is short; Stark, second, is not (R095, R122)."""
    s = game(["stark", "lannister", "greyjoy", "baratheon"])  # King's Court: Lannister, Stark, Baratheon, Greyjoy
    for area in ELEVEN:
        put(s, area, "greyjoy", "footman")
    put(s, "winterfell", "stark", "footman")
    step = run(s)
    # Iron Throne: Baratheon, Lannister, Stark, Greyjoy; only Stark and Greyjoy have units
    assert [(r.house, r.context["short"], r.context["orders_to_place"]) for r in step.requests] == [("stark", False, 1)]
    step = run(step.state, entry("stark", AssignOrder(area="winterfell", token="march+1")))
    assert [(r.house, r.context["short"], r.context["orders_to_place"]) for r in step.requests] == [("greyjoy", True, 10)]
    assert [e.house for e in of(step.events, OrdersPlaced)] == ["stark"]


# --- the Messenger Raven (R125, R126, ruling 3) -------------------------------------------------


def raven_position():
    """Lannister (3 stars) holds four areas; Stark one."""
    s = game()
    put(s, "winterfell", "stark", "footman")
    for area in ("lannisport", "stoney_sept", "searoad_marches", "riverrun"):
        put(s, area, "lannister", "footman")
    return s


def lannister_orders(*tokens):
    return answers("lannister", *(AssignOrder(area=a, token=t) for a, t in
                                  zip(("lannisport", "stoney_sept", "searoad_marches", "riverrun"), tokens)))


def test_ruling_3_a_raven_swap_of_one_special_for_another_at_the_cap_is_allowed():
    """At three specials, swapping a special for an unused special keeps three: allowed (R119, ruling 3)."""
    step = run(raven_position(), *answers("stark", AssignOrder(area="winterfell", token="defense+1")),
               *lannister_orders("march+1", "defense+2", "support+1", "raid"),
               entry("lannister", Raven(action="swap", area="stoney_sept", token="consolidate*")))
    assert [(e.area, e.old, e.new) for e in of(step.events, OrderSwapped)] == [("stoney_sept", "defense+2", "consolidate*")]
    assert step.state.raven_used


def test_R125_a_raven_swap_takes_a_token_of_which_a_copy_is_still_unused():
    """Two raids placed, one left: a plain raid may come in (R125); with both placed it may not."""
    step = run(raven_position(), *answers("stark", AssignOrder(area="winterfell", token="defense+1")),
               *lannister_orders("raid", "raid", "support+0", "consolidate"),
               entry("lannister", Raven(action="swap", area="searoad_marches", token="raid")))
    assert any("raid is not among your unused orders (R125)" in r for r in reasons(step, "lannister"))
    assert [r.kind for r in step.requests] == ["raven"]
    step = run(step.state, entry("lannister", Raven(action="swap", area="searoad_marches", token="consolidate")))
    assert [(e.area, e.old, e.new) for e in of(step.events, OrderSwapped)] == [("searoad_marches", "support+0", "consolidate")]
