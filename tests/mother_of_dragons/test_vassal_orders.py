"""Vassal orders in the Action phase (M041, M044-M049, M051-M053, M056, M068, M069), through the engine.

The three-player game of ``vassal_helpers``: turn order Baratheon, Lannister, Stark, then the vassals
Martell, Greyjoy, Tyrell, Arryn. Stark commands Tyrell and Arryn here unless a test says otherwise.
"""

from __future__ import annotations

from types import SimpleNamespace

from rules.helpers import at_action, combat, entry, of, phases, put, reasons, run  # noqa: F401
from rules.helpers import march as march_cmd
from rules.test_combat_harness import Assault, Battle, wired

from adjudicator.engine.events import DefaultUsed, OnlyOption
from adjudicator.engine.events.action import RaidResolved
from adjudicator.engine.events.combat import SupportDeclared
from adjudicator.engine.events.vassals import VassalMusterDeclined, VassalMustered, VassalRaidKept, VassalTokenPlaced
from adjudicator.engine.events.westeros import UnitsMustered
from adjudicator.engine.rules.consolidate import defense_muster_orders
from adjudicator.engine.rules.marches import destinations, family_entry_problem
from adjudicator.engine.rules.raids import target_problem
from adjudicator.engine.rules.strength import grant_value
from adjudicator.engine.rules.support import support_orders
from adjudicator.game.commands import Consolidate, MusterAction, Raid, Support, order_kinds
from adjudicator.game.state import Order
from mother_of_dragons.vassal_helpers import for_vassal, mod_game


def _game(**commanders: str):
    s = mod_game()
    s.commanders = commanders or {"tyrell": "stark", "arryn": "stark", "martell": "lannister", "greyjoy": "baratheon"}
    return at_action(s)


def _token(state, area):
    order = state.area(area).order
    return (order.house, order.token) if order else None


# --- M041: vassals resolve at their own place in turn order, the commander answering -----------


def test_M041_a_vassal_resolves_its_order_at_its_own_place_in_turn_order_its_commander_answering(phases, combat):
    s = _game()
    put(s, "lannisport", "stark", "footman", order="raid")
    put(s, "stoney_sept", "lannister", "footman", order="support+0")
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "baratheon", "footman", order="support+0")
    put(s, "searoad_marches", "martell", "footman", order="vassal_defense")
    step = run(s)
    assert [(r.kind, r.house, r.vassal) for r in step.requests] == [("raid", "stark", "")]
    step = run(step.state, entry("stark", Raid(origin="lannisport", targets=("stoney_sept",))))
    first = of(step.events, RaidResolved)
    req = step.requests[0]
    assert (req.kind, req.house, req.vassal) == ("raid", "stark", "tyrell")
    assert req.prompt.startswith("for Tyrell: ") and "(M047)" in req.prompt
    step = run(step.state, for_vassal("stark", "tyrell", Raid(origin="the_reach", targets=("blackwater",))))
    raids = first + of(step.events, RaidResolved)
    assert [(r.house, r.target) for r in raids] == [("stark", "stoney_sept"), ("tyrell", "blackwater")]


# --- the march token (M044, M045, M068, M069) -------------------------------------------------


def test_M044_a_vassal_never_marches_into_a_port_not_even_its_own(phases, combat):
    s = _game()
    put(s, "sunspear", "martell", "footman")
    put(s, "east_summer_sea", "martell", "ship", order="vassal_march")
    assert "port_of_sunspear" not in destinations(s, s.board(), "martell", "east_summer_sea")
    assert s.board().adjacent("east_summer_sea", "port_of_sunspear")  # its own port, next to its ships
    step = run(s, for_vassal("lannister", "martell", march_cmd("east_summer_sea", ("port_of_sunspear", "ship"))))
    assert any("never marches into a port" in r and "(M044, ruling 273)" in r for r in reasons(step, "lannister"))
    assert step.state.area("port_of_sunspear").units == []


def test_M045_a_vassal_never_marches_into_an_area_of_its_commander_or_a_fellow_vassal(phases, combat):
    s = _game()
    board = s.board()
    put(s, "the_reach", "tyrell", "footman", "knight", order="vassal_march")
    put(s, "blackwater", "stark", "footman")  # its commander
    s.area_mut("kingswood").power_token = "arryn"  # another vassal of Stark
    put(s, "searoad_marches", "lannister", "footman")  # another family: an attack is allowed
    assert "(M045, ruling 234)" in str(family_entry_problem(s, board, "tyrell", "blackwater"))
    assert "(M045, ruling 234)" in str(family_entry_problem(s, board, "tyrell", "kingswood"))
    assert family_entry_problem(s, board, "tyrell", "searoad_marches") is None
    assert {"blackwater", "kingswood"}.isdisjoint(destinations(s, board, "tyrell", "the_reach"))
    for dest in ("blackwater", "kingswood"):
        step = run(s, for_vassal("stark", "tyrell", march_cmd("the_reach", (dest, "footman"))))
        assert any("(M045, ruling 234)" in r for r in reasons(step, "stark")), dest


def test_M045_a_vassal_refused_an_area_of_its_family_is_told_which_house_holds_it_word_for_word(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", "knight", order="vassal_march")
    put(s, "blackwater", "stark", "footman")  # its commander, by its units
    s.area_mut("kingswood").power_token = "arryn"  # another vassal of Stark, by its power token
    told = {}
    for dest in ("blackwater", "kingswood"):
        step = run(s, for_vassal("stark", "tyrell", march_cmd("the_reach", (dest, "footman"))))
        told[dest] = reasons(step, "stark")
        assert step.state.area(dest).units == s.area(dest).units, "refused: nothing moved"
    rule = ("a vassal never marches into an area its commander or another vassal of the same commander "
            "controls (M045, ruling 234)")
    assert told == {"blackwater": [f"Blackwater is controlled by Stark: {rule}"],
                    "kingswood": [f"Kingswood is controlled by Arryn: {rule}"]}


def test_M068_a_vassal_leaving_a_land_area_empty_always_leaves_a_power_token(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", "knight", order="vassal_march")
    step = run(s, for_vassal("stark", "tyrell", march_cmd("the_reach", ("dornish_marches", "footman", "knight"))))
    assert step.state.area("the_reach").power_token == "tyrell"
    assert [(e.vassal, e.area) for e in of(step.events, VassalTokenPlaced)] == [("tyrell", "the_reach")]
    assert step.state.houses["tyrell"].power == 0 and step.state.houses["stark"].power == s.houses["stark"].power


def test_M068_the_commander_is_never_asked_whether_its_vassal_leaves_a_power_token(phases, combat):
    """Was "for Tyrell: resolve one of your march orders: which units go where, and whether to leave a
    power token", though a vassal's token is placed unasked (ruling 242)."""
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_march")
    (req,) = run(s).requests
    assert (req.house, req.vassal) == ("stark", "tyrell") and "whether to leave" not in req.prompt
    assert req.prompt.startswith("for Tyrell: resolve one of your march orders") and "unasked, M068" in req.prompt
    put(s, "winterfell", "stark", "footman", order="march+0")
    s.area_mut("the_reach").order = None
    (req,) = run(s).requests
    assert req.house == "stark" and not req.vassal and req.prompt.endswith("and whether to leave a power token")

def test_M030_a_vassal_decision_taken_unasked_is_told_to_its_commander_as_a_for_line(phases, combat):
    """Was "Stark had one legal answer, taken without asking: raid from Highgarden onto none." and
    "Default taken: march from The Reach: stay": a commander could not tell its own orders from its
    vassal's. The answer is now the line the commander would have written, ``for tyrell: ...``."""
    s = _game()
    put(s, "highgarden", "tyrell", "footman", order="vassal_raid_support")  # nothing to raid: one answer
    step = run(s)
    (only,) = [e for e in step.events if isinstance(e, OnlyOption)]
    assert (only.house, only.answer) == ("stark", "for tyrell: raid from Highgarden onto none")
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_march")
    step = run(s, deadline=True)
    (default,) = [e for e in step.events if isinstance(e, DefaultUsed)]
    assert default.house == "stark" and default.answer == "for tyrell: march from The Reach: stay"
    assert default.decision.startswith("for Tyrell: ")

def test_M068_not_in_its_home_area_nor_when_its_tokens_are_all_on_the_board(phases, combat):
    s = _game()
    put(s, "highgarden", "tyrell", "footman", order="vassal_march")
    step = run(s, for_vassal("stark", "tyrell", march_cmd("highgarden", ("dornish_marches", "footman"))))
    assert step.state.area("highgarden").power_token is None and not of(step.events, VassalTokenPlaced)
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_march")
    areas = [a.id for a in s.board().land_areas() if a.id not in ("the_reach", "dornish_marches", "highgarden")]
    for a in areas[:20]:  # ruling 242: all 20 of Tyrell's tokens lie on the board already
        s.area_mut(a).power_token = "tyrell"
    step = run(s, for_vassal("stark", "tyrell", march_cmd("the_reach", ("dornish_marches", "footman"))))
    assert step.state.area("the_reach").power_token is None and not of(step.events, VassalTokenPlaced)


def test_M069_a_commander_never_enters_an_area_its_vassal_controls(phases, combat):
    s = _game()
    board = s.board()
    put(s, "blackwater", "stark", "footman", "knight", order="march+0")
    s.area_mut("the_reach").power_token = "tyrell"
    put(s, "kings_landing", "arryn", "footman")
    put(s, "stoney_sept", "martell", "footman")  # Lannister's vassal: Stark may attack it
    for dest in ("the_reach", "kings_landing"):
        assert "(M069, ruling 243)" in str(family_entry_problem(s, board, "stark", dest))
        assert dest not in destinations(s, board, "stark", "blackwater")
        step = run(s, entry("stark", march_cmd("blackwater", (dest, "footman"))))
        assert any("never enters an area its vassal controls" in r for r in reasons(step, "stark")), dest
    assert family_entry_problem(s, board, "stark", "stoney_sept") is None


def test_M069_a_commander_refused_its_vassal_s_area_is_told_which_vassal_holds_it_word_for_word(phases, combat):
    s = _game()
    put(s, "blackwater", "stark", "footman", "knight", order="march+0")
    s.area_mut("the_reach").power_token = "tyrell"
    put(s, "kings_landing", "arryn", "footman")
    told = {}
    for dest in ("the_reach", "kings_landing"):
        step = run(s, entry("stark", march_cmd("blackwater", (dest, "footman"))))
        told[dest] = reasons(step, "stark")
    rule = "a commander never enters an area its vassal controls (M069, ruling 243)"
    assert told == {"the_reach": [f"The Reach is controlled by Tyrell, your vassal this round: {rule}"],
                    "kings_landing": [f"King's Landing is controlled by Arryn, your vassal this round: {rule}"]}


def test_M069_a_vassal_with_no_commander_is_no_one_s_family(phases, combat):
    s = _game(martell="lannister")
    s.area_mut("the_reach").power_token = "tyrell"
    assert family_entry_problem(s, s.board(), "stark", "the_reach") is None


# --- the Raid/Support token (M046-M049) -------------------------------------------------------


def test_M046_raid_support_raids_as_a_raid_order_and_is_then_removed(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "baratheon", "footman", order="consolidate")
    assert order_kinds("vassal_raid_support") == ("raid", "support")
    step = run(s, for_vassal("stark", "tyrell", Raid(origin="the_reach", targets=("blackwater",))))
    assert [(r.house, r.target, r.target_house) for r in of(step.events, RaidResolved)] == [
        ("tyrell", "blackwater", "baratheon")]
    assert step.state.area("the_reach").order is None and step.state.area("blackwater").order is None
    assert step.state.houses["tyrell"].power == 0  # a vassal collects nothing (M067)


def test_M047_a_commander_that_does_not_raid_keeps_the_token_as_a_support_order(phases, combat):
    s = _game()
    put(s, "lannisport", "lannister", "footman", order="march+0")  # its march waits: the round stops there
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "baratheon", "footman", order="consolidate")
    step = run(s, for_vassal("stark", "tyrell", Raid(origin="the_reach", targets=(None,))))
    assert _token(step.state, "the_reach") == ("tyrell", "vassal_support")
    assert order_kinds("vassal_support") == ("support",)
    assert [(e.vassal, e.area) for e in of(step.events, VassalRaidKept)] == [("tyrell", "the_reach")]
    assert "stays as a support order" in of(step.events, VassalRaidKept)[0].describe()
    assert not of(step.events, RaidResolved), "kept, it is not asked again as a raid (ruling 232)"
    assert _token(step.state, "blackwater") == ("baratheon", "consolidate")


def test_M047_the_commander_is_asked_to_raid_with_the_raid_support_order_or_keep_it_as_support(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "baratheon", "footman", order="consolidate")
    step = run(s)
    [asked] = [r for r in step.requests if r.kind == "raid"]
    assert (asked.house, asked.vassal) == ("stark", "tyrell")  # its commander answers for it
    assert asked.prompt == ("for Tyrell: raid with your Raid/Support order: name its target, or none to keep it as a "
                            "support order (M047)")


def test_M047_by_default_and_with_nothing_to_raid_the_token_stays_as_support(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "baratheon", "footman", order="consolidate")
    step = run(s, deadline=True)
    assert of(step.events, VassalRaidKept) and not of(step.events, RaidResolved)
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    step = run(s)  # nothing to raid: kept unasked
    assert of(step.events, VassalRaidKept) and not [r for r in step.requests if r.kind == "raid"]


def test_M047_an_enemy_raid_may_still_remove_the_kept_support_order(phases, combat):
    s = _game()
    board = s.board()
    put(s, "the_reach", "tyrell", "footman", order="vassal_support")
    put(s, "blackwater", "baratheon", "footman", order="raid")
    assert target_problem(s, board, "baratheon", "blackwater", "the_reach") is None


def _tyrell_may_support_at_the_reach(monkeypatch, defender: str):
    """Lannister's knight attacks ``defender``'s footman in The Reach; Tyrell's knight beside it in
    Highgarden keeps its Raid/Support as support. The battle and the support request it raises."""
    s = _game()
    put(s, "blackwater", "lannister", "knight", order="march+0")
    put(s, "the_reach", defender, "footman")
    put(s, "highgarden", "tyrell", "knight", order="vassal_support")
    battle = wired(monkeypatch, _ModBattle)(s, Assault("the_reach", "lannister", "blackwater", ("knight",)))
    battle.run()
    return battle, next(r for r in battle.requests() if r.kind == "support")


def test_M048_the_kept_token_supports_with_1_plus_its_units_as_the_commander_chooses(monkeypatch):
    battle, req = _tyrell_may_support_at_the_reach(monkeypatch, "baratheon")
    assert (req.house, req.vassal) == ("stark", "tyrell") and req.context["strength"] == {"attacker": 3, "defender": 3}
    battle.run([for_vassal("stark", "tyrell", Support(side="baratheon"))], deadline=True)
    declared = battle.of(SupportDeclared)
    assert [(d.supporter, d.side, d.strength) for d in declared] == [("tyrell", "baratheon", 3)]


def test_M048_grant_value_of_the_raid_support_token_is_its_units_and_1():
    s = _game()
    board = s.board()
    put(s, "highgarden", "tyrell", "footman", "knight", order="vassal_support")
    put(s, "the_reach", "baratheon", "footman")
    fight = SimpleNamespace(area="the_reach")  # all that the support order's reach and value read
    assert [(h, a) for h, a, _ in support_orders(s, board, fight)] == [("tyrell", "highgarden")]
    assert grant_value(s, board, fight, "tyrell", "highgarden", "vassal_support", "defender") == 1 + 2 + 1


def test_M048_a_commander_s_vassal_never_supports_against_its_commander(monkeypatch):
    battle, req = _tyrell_may_support_at_the_reach(monkeypatch, "stark")
    assert [o.side for o in req.options] == ["defender", "none"]
    battle.run([for_vassal("stark", "tyrell", Support(side="lannister"))])
    assert "a commander and the vassals it commands never support against one another (M048, ruling 234)" in \
        battle.unusable("stark")


def test_M049_a_commander_and_its_vassals_never_raid_one_another(phases, combat):
    s = _game()
    board = s.board()
    put(s, "the_reach", "tyrell", "footman", order="vassal_raid_support")
    put(s, "blackwater", "stark", "footman", order="raid")
    put(s, "kingswood", "arryn", "footman", order="vassal_raid_support")
    put(s, "searoad_marches", "martell", "footman", order="vassal_raid_support")
    for raider, origin, target in (("stark", "blackwater", "the_reach"), ("tyrell", "the_reach", "blackwater"),
                                   ("tyrell", "the_reach", "kingswood")):
        assert "(M049, ruling 234)" in str(target_problem(s, board, raider, origin, target))
    assert target_problem(s, board, "tyrell", "the_reach", "searoad_marches") is None  # Lannister's vassal
    step = run(s, entry("stark", Raid(origin="blackwater", targets=("the_reach",))))
    assert ("the order in The Reach is Tyrell's, of the same family this round: a commander and the vassals it "
            "commands never raid one another's orders (M049, ruling 234)") in reasons(step, "stark")


# --- the Defense 1/Muster token (M051-M053, M056) ---------------------------------------------


def _at_consolidate(state):
    state.step = "consolidate"
    return state


def test_M051_the_commander_may_muster_with_defense_muster_in_the_consolidate_step(phases, combat):
    s = _at_consolidate(_game())
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    step = run(s)
    req = step.requests[0]
    assert (req.kind, req.house, req.vassal) == ("consolidate", "stark", "tyrell")
    assert req.default == Consolidate(area="highgarden") and "(M051)" in req.prompt
    muster = (MusterAction(unit="knight"),)
    step = run(step.state, for_vassal("stark", "tyrell", Consolidate(area="highgarden", muster=muster)))
    assert of(step.events, VassalMustered) and of(step.events, UnitsMustered)[0].house == "tyrell"
    assert sorted(u.type for u in step.state.area("highgarden").units) == ["footman", "knight"]
    assert step.state.area("highgarden").order is None


def test_M051_declined_or_by_default_it_stays_a_defense_order(phases, combat):
    s = _at_consolidate(_game())
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    step = run(s, deadline=True)
    declined = of(step.events, VassalMusterDeclined)
    assert [(e.vassal, e.area) for e in declined] == [("tyrell", "highgarden")]
    assert "stays as a defense order" in declined[0].describe()
    s = _at_consolidate(_game())
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    put(s, "the_eyrie", "arryn", "footman", order="vassal_defense_muster")  # Arryn's turn comes after: it waits
    step = run(s, for_vassal("stark", "tyrell", Consolidate(area="highgarden")))
    assert _token(step.state, "highgarden") == ("tyrell", "vassal_defense_1")
    assert [(r.house, r.vassal) for r in step.requests] == [("stark", "arryn")]
    assert not of(step.events, UnitsMustered)


def test_M052_the_token_gives_no_stronghold_and_musters_with_the_area_s_own_points(phases, combat):
    s = _at_consolidate(_game())
    put(s, "dornish_marches", "tyrell", "footman", order="vassal_defense_muster")  # no castle
    assert defense_muster_orders(s, s.board(), "tyrell") == []
    step = run(s, for_vassal("stark", "tyrell", Consolidate(area="dornish_marches", muster=(MusterAction(unit="footman"),))))
    assert any("(M052)" in r for r in reasons(step, "stark"))
    assert step.state.area("dornish_marches").units[0].type == "footman" and len(step.state.area("dornish_marches").units) == 1
    s = _at_consolidate(_game())
    put(s, "the_reach", "tyrell", "footman", order="vassal_defense_muster")  # a castle: 1 point
    step = run(s, for_vassal("stark", "tyrell", Consolidate(area="the_reach", muster=(MusterAction(unit="knight"),))))
    assert any("it gives 1" in r and "(M051, ruling 272)" in r for r in reasons(step, "stark"))


def test_M053_defense_muster_in_a_port_has_no_effect(phases, combat):
    s = _at_consolidate(_game())
    put(s, "oldtown", "tyrell", "footman")
    put(s, "port_of_oldtown", "tyrell", "ship", order="vassal_defense_muster")
    assert defense_muster_orders(s, s.board(), "tyrell") == []
    step = run(s, for_vassal("stark", "tyrell", Consolidate(area="port_of_oldtown", muster=(MusterAction(unit="ship"),))))
    assert any("in a port" in r and "(M053, ruling 271)" in r for r in reasons(step, "stark"))
    assert not of(step.events, UnitsMustered)


def test_M056_defense_muster_resolves_in_the_consolidate_step_in_turn_order(phases, combat):
    s = _game()
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    put(s, "lannisport", "baratheon", "footman", order="consolidate*")
    put(s, "the_reach", "lannister", "footman", order="raid")
    step = run(s, entry("lannister", Raid(origin="the_reach", targets=(None,))))
    assert step.state.step == "consolidate" and _token(step.state, "highgarden") == ("tyrell", "vassal_defense_muster")
    assert [(r.kind, r.house) for r in step.requests] == [("consolidate", "baratheon")]
    step = run(step.state, entry("baratheon", Consolidate(area="lannisport")))
    assert [(r.kind, r.house, r.vassal) for r in step.requests] == [("consolidate", "stark", "tyrell")]


class _ModBattle(Battle):
    board = None  # the expansion's own map


def test_vassal_order_tokens_are_kept_apart_from_the_placeable_set():
    from adjudicator.game.commands import VASSAL_KEPT_TOKENS, VASSAL_ORDER_TOKENS

    assert set(VASSAL_KEPT_TOKENS.values()).isdisjoint(VASSAL_ORDER_TOKENS)
    assert Order("tyrell", "vassal_defense_1") != Order("tyrell", "vassal_defense_muster")


# --- maester check: the turn-file lines of these decisions ------------------------------------


def _checked(state, house, body):
    from adjudicator.folder.check import check_turn_file
    from adjudicator.turnfile.header import Header, format_header
    from adjudicator.turnfile.parser import parse_turn_file

    text = format_header(Header(state.game_id, house, state.round, state.phase, 1)) + "\n" + body
    return check_turn_file(parse_turn_file(text, variant=state.variant), state, house=house)


def test_maester_check_reads_and_judges_the_vassal_lines_of_the_action_phase(phases, combat):
    s = _game()
    put(s, "the_reach", "tyrell", "footman", order="vassal_march")
    put(s, "east_summer_sea", "martell", "ship", order="vassal_march")
    put(s, "sunspear", "martell", "footman")
    put(s, "blackwater", "stark", "footman", order="march+0")
    put(s, "highgarden", "tyrell", "footman", order="vassal_defense_muster")
    put(s, "port_of_oldtown", "tyrell", "ship", order="vassal_defense_muster")
    put(s, "oldtown", "tyrell", "footman")
    s.area_mut("kingswood").power_token = "arryn"
    state = run(s).state  # Baratheon's turn has nothing; the first march asked is Stark's
    tf = _checked(state, "stark", "march from Blackwater: footman -> Kingswood\n"
                                  "for tyrell: march from The Reach: footman -> Blackwater\n"
                                  "for tyrell: consolidate in Highgarden: muster knight\n"
                                  "for tyrell: consolidate in Port of Oldtown: muster ship\n")
    assert not [p for p in tf.problems if p.code.startswith("E1")], tf.problems  # every line is understood
    notices = [w.message for w in tf.warnings if w.code == "W401"]
    assert any("(M069, ruling 243)" in n for n in notices) and any("(M045, ruling 234)" in n for n in notices)
    assert any("(M053, ruling 271)" in p.message for p in tf.problems if p.code == "E420"), tf.problems
    tf = _checked(state, "lannister", "for martell: march from East Summer Sea: ship -> Port of Sunspear\n")
    assert any("(M044, ruling 273)" in p.message for p in tf.problems if p.code == "E420"), tf.problems


def test_ruling_273_a_vassal_s_ships_may_retreat_into_its_own_port():
    from adjudicator.engine.rules.retreat import why_not_area

    s = _game()
    put(s, "sunspear", "martell", "footman")
    put(s, "east_summer_sea", "martell", "ship")
    ctx = SimpleNamespace(state=s, board=s.board())
    fight = SimpleNamespace(defender="martell", area="east_summer_sea", origin="sea_of_dorne")
    assert why_not_area(ctx, fight, "port_of_sunspear") is None


def test_M069_a_commander_s_army_never_retreats_into_its_vassal_s_area():
    from adjudicator.engine.rules.retreat import why_not_area

    s = _game()
    put(s, "the_reach", "stark", "footman")
    s.area_mut("kingswood").power_token = "arryn"
    put(s, "highgarden", "tyrell", "footman")
    ctx = SimpleNamespace(state=s, board=s.board())
    fight = SimpleNamespace(defender="stark", area="the_reach", origin="blackwater")
    assert "(R216)" in str(why_not_area(ctx, fight, "kingswood"))
    assert "(R210)" in str(why_not_area(ctx, fight, "highgarden"))
    assert why_not_area(ctx, fight, "dornish_marches") is None


def test_the_map_labels_every_expansion_order_token_as_printed():
    """Was wrong: a vassal's March 0 drew as 'Ml_march' and its kept Raid/Support as 'Ssupport'."""
    import re

    from adjudicator.game.commands import ALL_ORDER_TOKENS, ORDER_TOKENS
    from adjudicator.reports.svgmap import _order_text

    labels = {t: _order_text(t) for t in ALL_ORDER_TOKENS if t not in ORDER_TOKENS}
    assert all(re.fullmatch(r"[A-Z]{1,2}(?:[+-]?\d)?(?:/[A-Z]\d?)?", text) for text in labels.values()), labels
    assert (labels["vassal_raid_support"], labels["vassal_support"], labels["vassal_defense_muster"]) == ("R/S1", "S1", "D1/M")
    assert _order_text("march+1") == "M+1" and _order_text("raid*") == "R"
