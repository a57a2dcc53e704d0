"""The Planning Phase: assigning orders (R112-R124) and the Messenger Raven (R125-R127).

6-player King's Court at the start: Lannister 3 stars, Stark 3, Martell 2, Baratheon 1,
Tyrell 0, Greyjoy 0. Lannister holds the Messenger Raven.
"""

from __future__ import annotations

import pytest

from adjudicator.engine.events import AnswerUsed, DefaultUsed
from adjudicator.engine.events.action import (
    OrdersPlaced,
    OrdersRevealed,
    OrdersWaiting,
    OrderSwapped,
    RavenNotUsed,
    WildlingCardPlaced,
    WildlingCardSeen,
)
from adjudicator.engine.rules.planning import default_orders, eligible_count
from adjudicator.game.commands import (
    ORDER_TOKENS,
    SPECIAL_TOKENS,
    AssignOrder,
    LeaveUnordered,
    March,
    Raven,
    RavenKeep,
)

from .helpers import (  # noqa: F401
    BOARD,
    answers,
    entry,
    game,
    of,
    phases,
    public,
    put,
    run,
    token,
    unusable,
)

pytestmark = pytest.mark.usefixtures("phases")

RAVEN_PASS = Raven(action="pass")


def small():
    """Stark: Winterfell (2) and the Shivering Sea; Lannister: Lannisport and its port; nobody else."""
    s = game()
    put(s, "winterfell", "stark", "footman", "knight")
    put(s, "the_shivering_sea", "stark", "ship")
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship")
    return s


STARK_OK = [AssignOrder(area="winterfell", token="march+1"), AssignOrder(area="the_shivering_sea", token="raid")]
LANN_OK = [AssignOrder(area="lannisport", token="defense+2"), AssignOrder(area="port_of_lannisport", token="consolidate")]
LANN_PLAIN = [AssignOrder(area="lannisport", token="support+0"), AssignOrder(area="port_of_lannisport", token="consolidate")]


def all_orders(stark=STARK_OK, lann=LANN_OK, raven=RAVEN_PASS):
    return [*answers("stark", *stark), *answers("lannister", *lann, raven)]


def test_R112_each_house_owns_fifteen_tokens_five_of_them_special():
    assert sum(ORDER_TOKENS.values()) == 15
    assert sum(n for t, n in ORDER_TOKENS.items() if t in SPECIAL_TOKENS) == 5


def test_R112_a_house_cannot_place_more_copies_of_a_token_than_it_owns():
    s = game()
    for area in ("winterfell", "white_harbor", "karhold"):
        put(s, area, "stark", "footman")
    step = run(s, *answers("stark", *(AssignOrder(area=a, token="defense+1") for a in ("winterfell", "white_harbor", "karhold"))))
    assert [r.house for r in step.requests] == ["stark"]
    # ruling 121: the newest lines stand within the copies; the oldest is refused and its area stays open
    why = [e.reason for e in unusable(step, "stark") if "winterfell" in e.answer]
    assert why == ["you own only 2 defense+1 orders, placed by later lines in Karhold, White Harbor (R112)"]
    assert step.requests[0].context["areas_open"] == ["winterfell"]
    assert token(step.state, "winterfell") is None


def test_R114_assign_then_reveal_then_raven():
    step = run(small(), *all_orders())
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("OrdersRevealed") < kinds.index("RavenNotUsed")
    assert step.state.phase == "action" and [r.kind for r in step.requests] == ["march"]


def test_R115_every_area_with_units_needs_exactly_one_order():
    step = run(small(), *answers("stark", STARK_OK[0]), *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert [r.house for r in step.requests] == ["stark"]
    (waiting,) = of(step.events, OrdersWaiting)
    assert waiting.open_areas == ("the_shivering_sea",) and "The Shivering Sea" in waiting.reason
    assert "(R121, R115)" in waiting.reason  # the decisive rule first (ruling 162)
    assert len(waiting.standing) == 1 and "winterfell" in waiting.standing[0] and waiting.visible_to == "stark"
    assert not unusable(step, "stark")  # the line sent stands: nothing of it is refused (ruling 121)
    assert not of(step.events, OrdersRevealed)


def test_R115_orders_are_secret_and_simultaneous():
    s = small()
    step = run(s, *answers("stark", *STARK_OK))
    assert {r.house for r in step.requests} == {"lannister"}
    assert all(r.secret for r in step.requests)
    # nothing public says what Stark ordered, and Stark may still change its mind
    assert not [e for e in public(step.events) if "march" in e.describe()]
    assert all(e.visible_to == "stark" for e in of(step.events, AnswerUsed))
    step = run(step.state, *answers("stark", AssignOrder(area="winterfell", token="defense+1")),
               *answers("lannister", *LANN_OK, RAVEN_PASS))
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert ("winterfell", "stark", "defense+1") in revealed


def test_R115_an_order_on_another_houses_area_is_refused_and_the_rest_stand():
    step = run(small(), *answers("stark", *STARK_OK, AssignOrder(area="lannisport", token="raid")),
               *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert any("not yours" in e.reason and "(R115)" in e.reason for e in unusable(step, "stark"))
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert ("lannisport", "lannister", "defense+2") in revealed
    assert ("winterfell", "stark", "march+1") in revealed


def test_R115_an_order_where_the_house_has_no_units_is_refused():
    step = run(small(), *answers("stark", *STARK_OK, AssignOrder(area="karhold", token="raid")),
               *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert any("no units in Karhold" in e.reason for e in unusable(step, "stark"))
    assert ("karhold", "stark", "raid") not in of(step.events, OrdersRevealed)[0].orders


def test_R115_two_lines_for_one_area_the_later_replaces_the_earlier():
    extra = AssignOrder(area="winterfell", token="support+0")
    step = run(small(), *answers("stark", *STARK_OK, extra), *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert any("an area takes one order (R115)" in e.reason for e in unusable(step, "stark"))
    assert ("winterfell", "stark", "support+0") in of(step.events, OrdersRevealed)[0].orders


def test_R116_a_port_with_ships_needs_an_order():
    step = run(small(), *answers("stark", *STARK_OK), *answers("lannister", LANN_OK[0], RAVEN_PASS))
    req = [r for r in step.requests if r.house == "lannister"][0]
    assert "port_of_lannisport" in req.context["areas"] and req.context["areas_open"] == ["port_of_lannisport"]
    assert any("Port of Lannisport" in e.reason for e in of(step.events, OrdersWaiting))


def test_R117_an_area_with_only_a_garrison_or_power_token_takes_no_order():
    s = small()
    s.area_mut("karhold").power_token = "stark"
    step = run(s, *answers("stark", *STARK_OK, AssignOrder(area="karhold", token="raid")),
               *answers("lannister", *LANN_OK, RAVEN_PASS, AssignOrder(area="winterfell", token="raid")))
    reasons = [e.reason for e in unusable(step)]
    assert any("Karhold" in r and "(R117)" in r for r in reasons)
    assert any("Winterfell" in r and "not yours" in r for r in reasons)  # Stark's units, Lannister's answer


def test_R118_consolidate_power_may_be_placed_at_sea():
    stark = [STARK_OK[0], AssignOrder(area="the_shivering_sea", token="consolidate")]
    step = run(small(), *all_orders(stark=stark))
    assert ("the_shivering_sea", "stark", "consolidate") in of(step.events, OrdersRevealed)[0].orders


def test_R094_R119_special_orders_are_capped_by_kings_court_stars():
    s = small()
    s.tracks["kings_court"] = ["lannister", "martell", "baratheon", "greyjoy", "stark", "tyrell"]  # stark: position 5
    step = run(s, *all_orders())
    assert "stark" in {r.house for r in step.requests}
    assert any("allows 0 special orders (R119)" in e.reason for e in unusable(step, "stark"))


def test_R057_R120_orders_banned_by_a_westeros_card_are_refused_and_the_ban_ends_with_planning():
    s = small()
    s.restrictions = ["march+1", "defense"]
    step = run(s, *all_orders())
    reasons = [e.reason for e in unusable(step)]
    assert any("march+1" in r and "(R120)" in r for r in reasons)
    assert any("defense+2" in r and "(R120)" in r for r in reasons)
    fixed = run(step.state, *answers("stark", AssignOrder(area="winterfell", token="march+0")),
                *answers("lannister", AssignOrder(area="lannisport", token="support+1")))
    assert fixed.state.phase == "action" and fixed.state.restrictions == []


def test_R121_nothing_is_revealed_before_every_area_has_its_order():
    step = run(small(), *answers("stark", *STARK_OK))
    assert not of(step.events, OrdersRevealed)
    assert step.state.phase == "planning"


def _crowded():
    """Stark holds 13 areas; with no special orders allowed and defense banned it has 8 tokens."""
    s = small()
    s.restrictions = ["defense"]
    s.tracks["kings_court"] = ["lannister", "martell", "baratheon", "greyjoy", "stark", "tyrell"]
    areas = ["castle_black", "karhold", "the_stony_shore", "white_harbor", "widows_watch", "moat_cailin",
             "greywater_watch", "flints_finger", "seagard", "the_twins", "the_fingers"]
    for a in areas:
        put(s, a, "stark", "footman")
    return s


def test_R122_a_house_short_of_tokens_makes_everyone_assign_in_turn_order():
    s = _crowded()
    assert eligible_count(s, BOARD, "stark") == 8
    step = run(s)
    # turn order: Baratheon, Lannister, Stark ...; Baratheon has no units, so Lannister goes first
    assert [r.house for r in step.requests] == ["lannister"]
    step = run(step.state, *answers("lannister", *LANN_PLAIN))
    assert [r.house for r in step.requests] == ["stark"]
    placed = of(step.events, OrdersPlaced)
    assert placed[0].house == "lannister" and set(placed[0].areas) == {"lannisport", "port_of_lannisport"}
    said = placed[0].describe().lower()
    assert "support" not in said and "consolidate" not in said  # where, never what
    assert step.requests[0].context["orders_to_place"] == 8 and step.requests[0].context["short"]


def test_R122_the_short_house_places_every_token_it_can_and_chooses_the_areas_left_empty():
    s = _crowded()
    tokens = ["march-1", "march+0", "support+0", "support+0", "raid", "raid", "consolidate", "consolidate"]
    areas = ["winterfell", "the_shivering_sea", "castle_black", "karhold", "white_harbor", "moat_cailin", "seagard", "the_twins"]
    too_few = answers("stark", *(AssignOrder(area=a, token=t) for a, t in zip(areas[:7], tokens[:7])))
    step = run(s, *answers("lannister", *LANN_PLAIN), *too_few)
    assert [r.house for r in step.requests] == ["stark"]
    assert any("must still place every order it can (8) (R122)" in e.reason for e in of(step.events, OrdersWaiting))
    step = run(step.state, entry("stark", AssignOrder(area="the_twins", token="consolidate")),
               entry("lannister", RAVEN_PASS))
    placed = [e for e in of(step.events, OrdersPlaced) if e.house == "stark"][0]
    assert set(placed.areas) == set(areas)
    assert set(placed.unordered) == {"the_stony_shore", "widows_watch", "greywater_watch", "flints_finger", "the_fingers"}


def test_R122_only_a_short_house_may_leave_an_area_without_an_order():
    step = run(small(), *answers("stark", STARK_OK[0], LeaveUnordered(area="the_shivering_sea")),
               *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert any("(R122, R121)" in e.reason for e in unusable(step, "stark"))
    assert [r.house for r in step.requests] == ["stark"]


def test_R123_all_orders_are_revealed_at_once_in_a_public_event():
    step = run(small(), *all_orders())
    revealed = of(step.events, OrdersRevealed)
    assert len(revealed) == 1 and revealed[0].visible_to == "public"
    assert set(revealed[0].orders) == {("winterfell", "stark", "march+1"), ("the_shivering_sea", "stark", "raid"),
                                       ("lannisport", "lannister", "defense+2"),
                                       ("port_of_lannisport", "lannister", "consolidate")}


def test_R124_what_a_house_answered_is_only_told_to_that_house():
    step = run(small(), *answers("stark", *STARK_OK, AssignOrder(area="karhold", token="raid")))
    for e in step.events:
        if type(e).__name__ in ("AnswerUsed", "AnswerUnusable"):
            assert e.visible_to == "stark"


def raven_game():
    return small()


def test_R125_raven_swap_replaces_an_order_with_an_unused_one_in_the_open():
    swap = Raven(action="swap", area="port_of_lannisport", token="raid")
    step = run(raven_game(), *all_orders(raven=swap))
    ev = of(step.events, OrderSwapped)
    assert ev and ev[0].visible_to == "public" and (ev[0].old, ev[0].new) == ("consolidate", "raid")
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("OrdersRevealed") < kinds.index("OrderSwapped")  # R127: after the reveal


def test_R125_raven_look_shows_the_card_only_to_the_holder_and_may_bury_it():
    s = raven_game()
    top = s.wildling_deck[0]
    step = run(s, *all_orders(raven=Raven(action="look")))
    seen = of(step.events, WildlingCardSeen)
    assert seen and seen[0].card == top and seen[0].visible_to == "lannister"
    assert not [e for e in public(step.events) if top in str(e.to_dict())]
    assert [r.kind for r in step.requests] == ["raven_wildling"]
    assert "card" not in step.requests[0].context  # the request may be seen in the state file
    step = run(step.state, entry("lannister", RavenKeep(choice="bottom")))
    assert step.state.wildling_deck[-1] == top
    assert of(step.events, WildlingCardPlaced)[0].where == "bottom"


def test_R125_raven_keep_on_top_leaves_the_deck_as_it_was():
    s = raven_game()
    deck = list(s.wildling_deck)
    step = run(s, *all_orders(raven=Raven(action="look")), entry("lannister", RavenKeep(choice="top")))
    assert step.state.wildling_deck == deck


def test_R125_using_the_raven_fades_it_until_clean_up():
    s = raven_game()
    step = run(s, *all_orders(raven=Raven(action="look")), entry("lannister", RavenKeep(choice="top")))
    assert [type(e).__name__ for e in step.events].count("WildlingCardPlaced") == 1
    assert step.state.phase == "action" and step.state.raven_used is True
    step = run(step.state, entry("stark", March(origin="winterfell")))
    assert step.state.round == 2 and step.state.raven_used is False  # clean-up refreshes it (R167)


def test_R125_only_the_holder_is_asked_and_the_default_is_to_pass():
    step = run(small(), *answers("stark", *STARK_OK), *answers("lannister", *LANN_OK))
    assert [(r.kind, r.house) for r in step.requests] == [("raven", "lannister")]
    assert step.requests[0].default == RAVEN_PASS
    step = run(step.state, deadline=True)
    assert of(step.events, RavenNotUsed)


def test_ruling_3_a_raven_swap_obeys_the_star_cap_and_the_westeros_bans():
    s = raven_game()
    put(s, "searoad_marches", "lannister", "footman")
    put(s, "stoney_sept", "lannister", "footman")
    s.restrictions = ["support"]
    lann = [AssignOrder(area="lannisport", token="defense+2"), AssignOrder(area="port_of_lannisport", token="raid*"),
            AssignOrder(area="searoad_marches", token="consolidate*"), AssignOrder(area="stoney_sept", token="raid")]
    over_cap = Raven(action="swap", area="stoney_sept", token="march+1")  # a 4th special; position 1 has 3 stars
    banned = Raven(action="swap", area="stoney_sept", token="support+0")
    step = run(s, *answers("stark", *STARK_OK), *answers("lannister", *lann, over_cap))
    assert any("(R126, R119, ruling 3)" in e.reason for e in unusable(step, "lannister"))
    assert [r.kind for r in step.requests] == ["raven"]
    step = run(step.state, entry("lannister", banned))
    assert any("support+0" in e.reason and "(R126, ruling 3)" in e.reason for e in unusable(step, "lannister"))
    assert [r.kind for r in step.requests] == ["raven"]
    step = run(step.state, entry("lannister", Raven(action="swap", area="stoney_sept", token="march+0")))
    assert of(step.events, OrderSwapped)[0].new == "march+0"


def test_R126_a_raven_swap_must_take_an_unused_token_of_the_holder():
    lann = [AssignOrder(area="lannisport", token="raid"), AssignOrder(area="port_of_lannisport", token="raid")]
    step = run(small(), *all_orders(lann=lann, raven=Raven(action="swap", area="lannisport", token="raid")))
    assert any("not among your unused orders (R125)" in e.reason for e in unusable(step, "lannister"))
    step = run(small(), *all_orders(raven=Raven(action="swap", area="winterfell", token="raid")))
    assert any("no order in Winterfell" in e.reason for e in unusable(step, "lannister"))


def test_deadline_default_orders_are_a_legal_filler_and_stay_secret():
    s = small()
    step = run(s, *answers("lannister", *LANN_OK), deadline=True)
    defaults = [e for e in of(step.events, DefaultUsed) if e.house == "stark"]
    assert defaults and defaults[0].visible_to == "stark"
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert ("winterfell", "stark", "defense+1") in revealed
    assert ("the_shivering_sea", "stark", "defense+1") in revealed


def test_default_orders_respect_bans_and_stars():
    s = _crowded()
    filler = default_orders(s, BOARD, "stark", ["winterfell", *(f"a{i}" for i in range(12))])
    placed = [p.token for p in filler if isinstance(p, AssignOrder)]
    assert len(placed) == 8 and not any(t.startswith("defense") or t in SPECIAL_TOKENS for t in placed)
    assert sum(isinstance(p, LeaveUnordered) for p in filler) == 5


def test_ruling_4_the_raven_is_used_after_the_reveal():
    step = run(small(), *all_orders(raven=Raven(action="look")), entry("lannister", RavenKeep(choice="top")))
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("OrdersRevealed") < kinds.index("WildlingCardSeen") < kinds.index("WildlingCardPlaced")


def test_ruling_9_orders_are_read_line_by_line_and_a_refused_line_leaves_the_others_standing():
    bad = AssignOrder(area="winterfell", token="march+2")  # no such token: refused, the earlier line stands
    step = run(small(), *answers("stark", *STARK_OK, bad), *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert any("there is no order token 'march+2'" in e.reason and e.reason.endswith("(R112)")
               for e in unusable(step, "stark"))
    assert ("winterfell", "stark", "march+1") in of(step.events, OrdersRevealed)[0].orders


def test_ruling_9_an_incomplete_set_waits_and_later_lines_complete_it():
    step = run(small(), *answers("stark", STARK_OK[0]), *answers("lannister", *LANN_OK, RAVEN_PASS))
    assert [r.house for r in step.requests] == ["stark"]
    step = run(step.state, entry("stark", STARK_OK[1]))
    assert set(of(step.events, OrdersRevealed)[0].orders) >= {("winterfell", "stark", "march+1"),
                                                               ("the_shivering_sea", "stark", "raid")}


def test_ruling_10_a_short_house_leaves_unnamed_areas_empty_once_every_token_is_placed():
    s = _crowded()
    tokens = ["march-1", "march+0", "support+0", "support+0", "raid", "raid", "consolidate", "consolidate"]
    areas = ["winterfell", "the_shivering_sea", "castle_black", "karhold", "white_harbor", "moat_cailin", "seagard", "the_twins"]
    step = run(s, *answers("lannister", *LANN_PLAIN, RAVEN_PASS),
               *answers("stark", *(AssignOrder(area=a, token=t) for a, t in zip(areas, tokens)),
                        LeaveUnordered(area="the_fingers")))
    placed = [e for e in of(step.events, OrdersPlaced) if e.house == "stark"][0]
    assert len(placed.areas) == 8 and len(placed.unordered) == 5
    assert [e.house for e in of(step.events, OrdersPlaced)] == ["lannister", "stark"]  # turn order


def test_ruling_121_an_older_no_order_line_beyond_the_areas_a_short_house_may_leave_is_refused():
    s = _crowded()  # Stark: 13 areas, 8 orders to place, so 5 areas may go without
    empty = ["the_stony_shore", "widows_watch", "greywater_watch", "flints_finger", "the_fingers", "seagard"]
    step = run(s, *answers("lannister", *LANN_PLAIN), *answers("stark", *(LeaveUnordered(area=a) for a in empty)))
    (refused,) = unusable(step, "stark")
    assert "the_stony_shore" in refused.answer and refused.rule == "R122"
    assert "may leave 5 areas without one" in refused.reason
    (waiting,) = [w for w in of(step.events, OrdersWaiting) if w.house == "stark"]
    assert len(waiting.standing) == 5 and "the_stony_shore" in waiting.open_areas
    (stark,) = step.requests
    assert sum(isinstance(c, LeaveUnordered) for c in stark.default) == 5  # type: ignore[union-attr]
    assert len(stark.uses) == 5  # the default completes the lines that stand and uses every one


def test_R113_each_token_has_its_kind_and_printed_number():
    from adjudicator.game.commands import order_bonus, order_kind

    table = {t: (order_kind(t), order_bonus(t)) for t in ORDER_TOKENS}
    assert table == {
        "march-1": ("march", -1), "march+0": ("march", 0), "march+1": ("march", 1),
        "defense+1": ("defense", 1), "defense+2": ("defense", 2),
        "support+0": ("support", 0), "support+1": ("support", 1),
        "raid": ("raid", 0), "raid*": ("raid", 0), "consolidate": ("consolidate", 0), "consolidate*": ("consolidate", 0),
    }


def test_R095_with_four_players_the_overlay_sets_the_stars():
    s = game(["stark", "lannister", "greyjoy", "baratheon"])  # King's Court: Lannister, Stark, Baratheon, Greyjoy
    assert s.kings_court_overlay
    assert [s.stars(h, BOARD) for h in s.tracks["kings_court"]] == [3, 2, 1, 0]
    put(s, "dragonstone", "baratheon", "footman")
    put(s, "kingswood", "baratheon", "footman")
    step = run(s, *answers("baratheon", AssignOrder(area="dragonstone", token="consolidate*"),
                           AssignOrder(area="kingswood", token="march+1")))
    assert [e.reason for e in unusable(step, "baratheon")] == [
        "your King's Court position allows 1 special order, placed by later lines in Kingswood (R119)"]


def test_R127_the_raven_swap_comes_after_the_reveal():
    swap = Raven(action="swap", area="port_of_lannisport", token="raid")
    step = run(raven_game(), *all_orders(raven=swap))
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert ("port_of_lannisport", "lannister", "consolidate") in revealed  # revealed as placed, then swapped
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("OrdersRevealed") < kinds.index("OrderSwapped")
