"""Turn reports: content, hidden information, 80 columns, escaping, JSON, templates, skeletons."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from adjudicator.engine.core.common import PowerChanged, UnitsDestroyed
from adjudicator.engine.core.context import Request, pool_entry
from adjudicator.engine.events import (
    PUBLIC,
    AnswerUnusable,
    Event,
    PhaseStarted,
    from_dict,
    visible,
)
from adjudicator.engine.events.action import WildlingCardSeen
from adjudicator.engine.events.combat import CombatResolved, CombatStarted
from adjudicator.game.board import Board
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import Bid, CardChoice, Raid
from adjudicator.game.setup import new_game
from adjudicator.game.state import Order, Segment, Unit
from adjudicator.reports.report import (
    ReportError,
    command_text,
    event_view,
    open_combats,
    public_state,
    render_report,
    render_step_map,
    seed_commitment,
    skeleton,
)
from adjudicator.turnfile.header import Header, read_header
from adjudicator.util.resources import ResourceMissing, resource_dir

BOARD = Board.classic()
FORMATS = ("text", "html", "json")


@dataclass(frozen=True, slots=True, kw_only=True)
class SampleBattle(Event):
    """A stand-in for a combat event: two strength breakdowns with totals."""

    area: str
    attacker: str
    defender: str
    attacker_strength: tuple[tuple[str, int], ...]
    defender_strength: tuple[tuple[str, int], ...]
    attacker_total: int
    defender_total: int

    def describe(self) -> str:
        return f"Battle in {self.area}: {self.attacker_total} against {self.defender_total}."


@dataclass(frozen=True, slots=True, kw_only=True)
class SampleBids(Event):
    """A stand-in for a bid reveal: amounts by house."""

    track: str
    bids: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        return f"Bids for {self.track}."


def _game(houses=("stark", "lannister", "baratheon"), seed="seed-for-tests"):
    state = new_game(list(houses), seed=seed, game_id="demo")
    state.area_mut("winterfell").order = Order("stark", "march+1")
    state.area_mut("lannisport").order = Order("lannister", "defense+2")
    state.area_mut("blackwater").power_token = "lannister"
    return state


def _requests():
    return [
        Request(key="r1.action.1.raid.stark", kind="raid", house="stark", prompt="resolve one of your raid orders",
                context={"raid_orders": ["winterfell"]},
                options=(Raid(origin="winterfell", targets=("karhold",)), Raid(origin="winterfell", targets=())),
                default=Raid(origin="winterfell", targets=())),
        Request(key="r1.action.2.card_choice.lannister", kind="card_choice", house="lannister",
                prompt="choose for Tyrion Lannister", context={"note": "MARKER-CONTEXT"}, secret=True,
                options=(CardChoice(card="tyrion_lannister", option="MARKER-OPTION"),),
                default=CardChoice(card="tyrion_lannister", option="MARKER-DEFAULT")),
    ]  # fmt: skip


def _all(state, events, viewer, **kw):
    return {fmt: render_report(state, events, viewer=viewer, fmt=fmt, **kw) for fmt in FORMATS}


# --- what the public report shows -----------------------------------------------------------------


def test_public_report_shows_board_tracks_and_supply():
    text = render_report(_game(), [PhaseStarted(round=1, phase="planning")])
    assert "Round 1: the Planning Phase begins." in text
    assert "Winterfell: Stark; 1 footman, 1 knight; March +1 order; garrison 2" in text
    assert "Blackwater: Lannister; power token of Lannister" in text
    assert "King's Landing: neutral force 5" in text  # three players: the 5 side (ruling 101)
    assert "Baratheon holds the Iron Throne." in text
    assert "Stark holds the Valyrian Steel Blade (unused)." in text
    assert "Wildling threat: 2 of 12." in text
    assert "Westeros deck 1: 10 cards left." in text
    assert "Impassable in this game:" in text


def test_public_report_counts_castles_with_state_castles():
    state = _game()
    text = render_report(state, [])
    stark_row = next(line for line in text.splitlines() if line.startswith("  Stark "))
    # Stark holds Winterfell and White Harbor at setup: 2 castles; supply 1 allows armies of 3 and 2.
    assert stark_row.split() == ["Stark", "5", "0", "1", "3,2", str(state.castles("stark", BOARD)), "3", "1", "2", "2"]
    assert state.castles("stark", BOARD) == 2


def test_public_report_lists_who_must_answer_without_options():
    text = render_report(_game(), [], requests=_requests())
    assert "Stark         raid: resolve one of your raid orders" in text
    assert "Lannister     card choice: choose for Tyrion Lannister (secret)" in text
    assert RAID_KARHOLD not in text  # Stark's options are Stark's business


def test_requests_default_to_the_pending_list_of_the_state():
    state = _game()
    state.pending = [r.to_dict() for r in _requests()]
    assert render_report(state, []) == render_report(state, [], requests=_requests())


def test_fingerprints_in_force_are_listed():
    text = render_report(_game(), [], fingerprints={"stark": ["SHA256:abc123"], "lannister": []})
    assert "KEYS IN FORCE\n  Stark       SHA256:abc123" in text


def test_waiting_requests_are_listed_in_turn_order():
    text = render_report(_game(), [], requests=list(reversed(_requests())))
    # Iron Throne order in three players: Baratheon, Lannister, Stark.
    assert text.index("Lannister     card choice") < text.index("Stark         raid")


# --- what a private report adds ---------------------------------------------------------------------


def test_private_report_shows_hand_with_card_text_and_discards():
    state = _game()
    state.houses["stark"].hand.remove("eddard_stark")
    state.houses["stark"].discards.append("eddard_stark")
    text = render_report(state, [], viewer="stark")
    assert "YOUR HAND" in text
    assert "Catelyn Stark" in text and "Defense Order is doubled" in text.replace("\n      ", " ")
    assert "YOUR DISCARDS\n  [Eddard Stark · 4 · 2 swords] No text.\n" in text


RAID_KARHOLD = command_text(Raid(origin="winterfell", targets=("karhold",)))
RAID_NONE = command_text(Raid(origin="winterfell", targets=()))


def test_options_are_printed_as_turn_file_lines():
    pytest.importorskip("adjudicator.turnfile.parser")
    assert RAID_KARHOLD == "raid from Winterfell onto Karhold"
    assert RAID_NONE.startswith("raid from Winterfell")


def test_private_report_lists_every_legal_option_and_the_default():
    text = render_report(_game(), [], viewer="stark", requests=_requests())
    assert f"- {RAID_KARHOLD}\n" in text
    assert f"- {RAID_NONE}\n" in text
    assert f"Default at the deadline:\n        {RAID_NONE}\n" in text
    assert "raid orders: Winterfell" in text
    assert "MARKER-OPTION" not in text  # Lannister's options stay Lannister's


def test_private_report_has_a_turn_file_skeleton_whose_header_reads_back():
    text = render_report(_game(), [], viewer="stark", requests=_requests(), last_seqs={"stark": 2})
    start = text.index("game demo · house stark")
    header = read_header(text[start:].splitlines()[0])
    assert header == Header("demo", "stark", 1, "planning", 3)
    assert f"# raid: resolve one of your raid orders\n# {RAID_NONE}\n" in text


def test_skeleton_has_one_template_per_request_of_that_house_only():
    state = _game()
    text = skeleton(state, "lannister", _requests())
    lines = text.splitlines()
    assert read_header(lines[0]) == Header("demo", "lannister", 1, "planning", 1)
    assert len(lines) == 3 and lines[1] == "# card choice: choose for Tyrion Lannister"
    assert lines[2].startswith("# ") and "MARKER-DEFAULT" in lines[2]  # the default, in the printer's words
    assert "raid" not in text


def test_skeleton_template_for_a_request_without_options_or_default():
    req = {"key": "k", "kind": "muster", "house": "stark", "prompt": "muster in Winterfell", "options": []}
    assert skeleton(_game(), "stark", [req]).splitlines()[1:] == ["# muster: muster in Winterfell", "# muster in AREA: UNITS"]


def test_private_report_without_requests_says_so_and_has_no_skeleton():
    text = render_report(_game(), [], viewer="baratheon", requests=_requests())
    assert "None: nothing is asked of you now." in text
    assert "YOUR TURN FILE" not in text


# --- hidden information ------------------------------------------------------------------------


def _secret_position():
    """A position and step full of secrets: private events, a pool, a segment, decks, a seed."""
    state = _game(seed="MARKER-SEED")
    state.answers = [pool_entry(id="p1", house="lannister", round=1, command=Bid(track="iron_throne", amount=7),
                                text="bid iron throne 7 MARKER-POOL")]  # fmt: skip
    state.segment = Segment(name="action", start={"note": "MARKER-SEGMENT"}, decisions={"k": {"value": "MARKER-DECISION"}})
    events = [
        PhaseStarted(round=1, phase="action"),
        AnswerUnusable(house="stark", answer="raid from MARKER-ANSWER", reason="no raid order there MARKER-REASON"),
        WildlingCardSeen(house="stark", card="crow_killers"),
        PowerChanged(house="lannister", amount=2, cause="MARKER-LANNISTER-ONLY", power=7, visible_to="lannister"),
        UnitsDestroyed(house="stark", area="winterfell", units=("footman",), cause="a public loss"),
    ]
    return state, events


STARK_PRIVATE = ("MARKER-ANSWER", "MARKER-REASON", "Crow Killers")
NEVER_SHOWN = ("MARKER-SEED", "MARKER-POOL", "MARKER-SEGMENT", "MARKER-DECISION")
LANNISTER_SECRETS = ("MARKER-LANNISTER-ONLY", "MARKER-OPTION", "MARKER-DEFAULT", "MARKER-CONTEXT")


def test_hidden_information_public_report_shows_no_private_fact():
    state, events = _secret_position()
    for fmt, out in _all(state, events, None, requests=_requests()).items():
        for secret in STARK_PRIVATE + NEVER_SHOWN + LANNISTER_SECRETS:
            assert secret not in out, (fmt, secret)
        for card in CARDS.wildling_cards.values():  # neither the card seen nor the deck's order
            assert card.id not in out and card.name not in out, (fmt, card.id)
        assert "Stark loses 1 footman in Winterfell (a public loss)." in out or fmt == "json"


def test_hidden_information_private_report_shows_its_own_facts_only():
    state, events = _secret_position()
    for fmt, out in _all(state, events, "stark", requests=_requests()).items():
        for fact in ("MARKER-ANSWER", "MARKER-REASON"):
            assert fact in out, (fmt, fact)
        assert ("Crow Killers" in out) if fmt != "json" else ("crow_killers" in out)
        for secret in NEVER_SHOWN + LANNISTER_SECRETS:
            assert secret not in out, (fmt, secret)
    lannister = render_report(state, events, viewer="lannister", requests=_requests())
    assert "MARKER-LANNISTER-ONLY" in lannister and "MARKER-OPTION" in lannister
    assert "MARKER-ANSWER" not in lannister


def test_hidden_information_no_deck_order_in_any_report():
    state, events = _secret_position()
    for viewer in (None, "stark"):
        for fmt, out in _all(state, events, viewer).items():
            for deck in state.westeros_decks.values():
                for card_id in set(deck) - {"supply", "mustering"}:  # those two ids are also plain words
                    assert card_id not in out, (viewer, fmt, card_id)
            assert state.tides_deck == [] or json.dumps(state.tides_deck) not in out


def test_json_state_keeps_sizes_of_decks_and_a_seed_commitment_only():
    state, events = _secret_position()
    doc = json.loads(render_report(state, events, fmt="json", requests=_requests()))
    st = doc["state"]
    assert "segment" not in st and "answers" not in st
    assert st["rng"] == {"commitment": seed_commitment(state)}
    assert st["decks"]["westeros_left"] == {"1": 10, "2": 10, "3": 10}
    assert st["decks"]["wildling_left"] == 9
    by_house = {p["house"]: p for p in st["pending"]}
    assert set(by_house["lannister"]) == {"key", "kind", "house", "prompt", "secret"}
    assert set(by_house["stark"]) == {"key", "kind", "house", "prompt", "secret"}


def test_json_private_state_keeps_own_request_options():
    state, events = _secret_position()
    doc = json.loads(render_report(state, events, viewer="stark", fmt="json", requests=_requests()))
    mine = next(p for p in doc["state"]["pending"] if p["house"] == "stark")
    assert mine["options"] == [{"type": "Raid", "origin": "winterfell", "targets": ["karhold"]},
                               {"type": "Raid", "origin": "winterfell", "targets": []}]  # fmt: skip
    assert mine["default"] == {"type": "Raid", "origin": "winterfell", "targets": []}


def test_json_events_round_trip_and_are_filtered():
    state, events = _secret_position()
    doc = json.loads(render_report(state, events, viewer="stark", fmt="json"))
    assert [from_dict(d) for d in doc["events"]] == visible(events, "stark")
    public = json.loads(render_report(state, events, fmt="json"))
    assert all(d["visible_to"] == PUBLIC for d in public["events"])
    assert [from_dict(d) for d in public["events"]] == [e for e in events if e.is_public()]


def test_public_state_keeps_hands_and_discards_open():
    state = _game()
    state.houses["lannister"].discards = ["tywin_lannister"]
    d = public_state(state, viewer=None)
    assert d["houses"]["lannister"]["discards"] == ["tywin_lannister"]
    assert d["houses"]["stark"]["hand"] == state.houses["stark"].hand


# --- rulings ---------------------------------------------------------------------------------------


def test_ruling_130_hands_and_discards_are_public():
    state = _game()
    state.houses["stark"].hand.remove("robb_stark")
    state.houses["stark"].discards.append("robb_stark")
    text = render_report(state, [])
    assert "HOUSE CARDS with their strength (open information, R197)" in text
    cards = text[text.index("HOUSE CARDS"):].splitlines()
    stark = cards.index("  Stark       Eddard Stark 4, Greatjon Umber 2, Roose Bolton 2, Ser Rodrick")
    assert cards[stark + 1:stark + 3] == ["              Cassel 1, The Blackfish 1, Catelyn Stark 0",
                                          "              discarded: Robb Stark 3"]


def test_ruling_131_available_power_is_public():
    state = _game()
    state.houses["stark"].power = 11
    row = next(line for line in render_report(state, []).splitlines() if line.startswith("  Stark "))
    assert row.split()[1] == "11"


def test_ruling_132_prompts_are_public_options_are_not():
    text = render_report(_game(), [], requests=_requests())
    assert "choose for Tyrion Lannister" in text
    assert "MARKER-OPTION" not in text and "MARKER-DEFAULT" not in text and "MARKER-CONTEXT" not in text


def test_ruling_133_seed_committed_during_the_game_and_revealed_at_its_end():
    state = _game(seed="MARKER-SEED")
    text = render_report(state, [])
    assert seed_commitment(state) in text.replace("\n  ", "") and "MARKER-SEED" not in text
    state.phase, state.winner = "game_over", "stark"
    for fmt, out in _all(state, [], None).items():
        assert "MARKER-SEED" in out, fmt
    assert "House Stark has won the game." in render_report(state, [])


def test_ruling_134_westeros_cards_drawn_are_listed_by_name():
    state = _game()
    card = state.westeros_decks["1"].pop(0)
    state.westeros_discards["1"].append(card)
    text = render_report(state, [])
    assert f"Westeros deck 1: 9 cards left; drawn: {CARDS.westeros_card(1, card).name}." in text


# --- form: columns, escaping, determinism, tables -----------------------------------------------------


def _busy_game():
    state = new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="busy", game_id="a-very-long-game-identifier-2026")
    state.area_mut("the_reach").units += [Unit("tyrell", "footman"), Unit("tyrell", "siege_engine", routed=True)]
    state.area_mut("the_reach").order = Order("tyrell", "consolidate*")
    events = [
        AnswerUnusable(house="stark", answer="x" * 120 + " " + "long-word-" * 15, reason="because " * 30),
        SampleBattle(area="the_reach", attacker="stark", defender="tyrell",
                     attacker_strength=(("support of Lannister from Stoney Sept and a very long way", 1),) * 3,
                     defender_strength=(("units: footman", 1),), attacker_total=3, defender_total=1),
        UnitsDestroyed(house="tyrell", area="the_mountains_of_the_moon", units=("footman",) * 9, cause="a very long cause " * 6),
    ]  # fmt: skip
    return state, events


@pytest.mark.parametrize("viewer", [None, "stark", "tyrell"])
def test_text_report_stays_within_80_columns(viewer):
    state, events = _busy_game()
    text = render_report(state, events, viewer=viewer, requests=_requests(), fingerprints={"stark": ["SHA256:" + "A" * 43]})
    too_wide = [line for line in text.splitlines() if len(line) > 80]
    assert too_wide == []


def test_html_escapes_player_text():
    state = _game()
    state.game_id = "demo"
    events = [AnswerUnusable(house="stark", answer="<script>alert('x')</script>", reason="<b>bold</b> & more")]
    html = render_report(state, events, viewer="stark", fmt="html")
    assert "<script>alert" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(" in html and "&amp; more" in html


def test_text_report_removes_control_characters_from_player_text():
    events = [AnswerUnusable(house="stark", answer="a\x1b[2J\nMARKER forged line\rb", reason="r")]
    text = render_report(_game(), events, viewer="stark")
    assert "\x1b" not in text and "\r" not in text
    assert not any(line.startswith("MARKER forged") for line in text.splitlines())


def test_reports_are_deterministic_and_accept_event_dicts():
    state, events = _secret_position()
    for viewer in (None, "stark"):
        for fmt in FORMATS:
            once = render_report(state, events, viewer=viewer, fmt=fmt, requests=_requests())
            again = render_report(state.copy(), [e.to_dict() for e in events], viewer=viewer, fmt=fmt,
                                  requests=[r.to_dict() for r in _requests()])  # fmt: skip
            assert once == again, (viewer, fmt)


def test_breakdown_fields_render_as_tables_with_house_titles_and_totals():
    event = SampleBattle(area="the_reach", attacker="stark", defender="tyrell",
                         attacker_strength=(("units:knight", 2), ("march", 1)), defender_strength=(("garrison", 2),),
                         attacker_total=3, defender_total=2)  # fmt: skip
    view = event_view(event)
    assert [t["title"] for t in view["tables"]] == ["Stark (attacker)", "Tyrell (defender)"]
    assert view["tables"][0]["total"] == 3
    text = render_report(_game(), [event])
    assert ("      Stark (attacker)      Tyrell (defender)\n"
            "        units: knight..2      garrison..2\n"
            "        march..........1      total.....2\n"
            "        total..........3\n") in text  # fmt: skip
    html = render_report(_game(), [event], fmt="html")
    assert ">Stark (attacker)</caption>" in html and '<th align="right">3</th>' in html


def test_bid_reveals_render_as_a_table_by_house():
    event = SampleBids(track="iron_throne", bids=(("stark", 3), ("lannister", 0)))
    view = event_view(event)
    assert view["tables"] == [{"title": "Bids", "rows": [{"label": "Stark", "amount": 3}, {"label": "Lannister", "amount": 0}],
                               "total": None}]  # fmt: skip
    assert "Stark......3" in render_report(_game(), [event])


def test_real_combat_event_renders_its_breakdown():
    combat = pytest.importorskip("adjudicator.engine.events.combat")
    event = combat.CombatResolved(area="kingswood", attacker="tyrell", defender="lannister", winner="lannister",
                                  attacker_total=4, defender_total=4, tie_broken=True,
                                  attacker_strength=(("units:knight", 2), ("card:alester_florent", 1)),
                                  defender_strength=(("units:footman", 2), ("card:ser_jaime_lannister", 2)))  # fmt: skip
    text = render_report(new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon"], seed="x"), [event])
    assert "Tyrell (attacker)" in text and "Lannister (defender)" in text and "Ser Jaime Lannister" in text


def test_html_report_shows_the_map_as_an_image():
    html = render_report(_game(), [], fmt="html")
    assert "<svg" not in html and '<img id="map" src="map.svg"' in html  # webmail drops inline SVG


def _combat_ended_in_the_step():
    return CombatResolved(area="moat_cailin", attacker="greyjoy", defender="stark", winner="stark", attacker_total=1,
                          defender_total=2, attacker_strength=(("units:footman", 1),),
                          defender_strength=(("units:footman", 2),))  # fmt: skip


def test_the_map_marks_an_area_embattled_while_its_combat_is_open():
    state = _game()
    asked = Request(key="r1.action.1.support.baratheon", kind="support", house="baratheon",
                    prompt="declare your support", context={"combat_area": "moat_cailin", "support_area": "the_twins"})
    state.pending = [asked.to_dict()]
    svg = render_step_map(state, [CombatStarted(area="moat_cailin", attacker="greyjoy", defender="stark",
                                                origin="greywater_watch", units=("footman",))])  # fmt: skip
    assert 'id="a-winterfell"' in svg and '<use href="#a-moat_cailin" fill="none" stroke="#d00000"' in svg
    assert svg.count('stroke="#d00000" stroke-width="5"') == 1


def test_the_map_no_longer_marks_an_area_once_its_combat_is_over():
    """The step's events tell of a combat fought to its end: nothing open names its area, so it is
    not drawn embattled (it was, from the step's combat events, even after the combat)."""
    state = _game()
    state.pending = [Request(key="r1.action.2.march.stark", kind="march", house="stark", prompt="resolve a march",
                             context={"march_orders": {"winterfell": "march+0"}}).to_dict()]  # fmt: skip
    svg = render_step_map(state, [CombatStarted(area="moat_cailin", attacker="greyjoy", defender="stark",
                                                origin="greywater_watch", units=("footman",)),
                                  _combat_ended_in_the_step()])  # fmt: skip
    assert 'stroke="#d00000" stroke-width="5"' not in svg
    assert open_combats(state) == []


# --- refusals and templates ----------------------------------------------------------------------


def test_unknown_format_is_refused():
    with pytest.raises(ReportError, match="unknown report format 'pdf'"):
        render_report(_game(), [], fmt="pdf")


def test_viewer_not_in_the_game_is_refused():
    with pytest.raises(ReportError, match="house 'martell' is not in this game"):
        render_report(_game(), [], viewer="martell")


def test_templates_override_one_template_and_keep_the_others(tmp_path):
    (tmp_path / "report.txt.j2").write_text("custom {{ game_id }} round {{ round }}\n", encoding="utf-8")
    assert render_report(_game(), [], templates_dir=tmp_path) == "custom demo round 1\n"
    html = render_report(_game(), [], fmt="html", templates_dir=tmp_path)
    assert html.startswith("<!DOCTYPE html>") and '<img id="map"' in html


def test_templates_are_strict_about_unknown_names(tmp_path):
    (tmp_path / "report.txt.j2").write_text("{{ no_such_value }}\n", encoding="utf-8")
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        render_report(_game(), [], templates_dir=tmp_path)


def test_resource_dir_finds_the_templates():
    folder = resource_dir("templates")
    assert (folder / "report.txt.j2").is_file() and (folder / "report.html.j2").is_file()
    with pytest.raises(ResourceMissing):
        resource_dir("no-such-folder")


@pytest.mark.parametrize("houses", [
    ("stark", "lannister", "baratheon"),
    ("stark", "lannister", "greyjoy", "baratheon"),
    ("stark", "lannister", "greyjoy", "tyrell", "baratheon"),
    ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"),
])  # fmt: skip
def test_every_player_count_renders_in_every_format(houses):
    import xml.etree.ElementTree as ET

    state = new_game(list(houses), seed="counts")
    for viewer in (None, houses[-1]):
        out = _all(state, [PhaseStarted(round=1, phase="planning")], viewer)
        assert all(len(line) <= 80 for line in out["text"].splitlines())
        ET.fromstring(render_step_map(state, []))  # the step's map is well-formed XML
        assert '<img id="map" src="map.svg"' in out["html"]
        assert json.loads(out["json"])["state"]["houses_in_play"] == list(houses)


def test_skeleton_writes_every_part_of_a_composite_default():
    from adjudicator.game.commands import AssignOrder

    orders = Request(key="r1.planning.1.orders.stark", kind="orders", house="stark", prompt="place your orders",
                     secret=True, default=(AssignOrder(area="winterfell", token="defense+1"),
                                           AssignOrder(area="white_harbor", token="consolidate")))  # fmt: skip
    lines = skeleton(_game(), "stark", [orders]).splitlines()
    assert lines[1] == "# orders: place your orders"
    assert lines[2:] == [f"# {command_text(AssignOrder(area='winterfell', token='defense+1'))}",
                         f"# {command_text(AssignOrder(area='white_harbor', token='consolidate'))}"]  # fmt: skip
    public = render_report(_game(), [], requests=[orders])
    assert "defense+1" not in public.split("NEEDED NEXT")[1].split("THE BOARD")[0]


def test_resource_dir_prefers_the_folder_inside_an_installed_package(tmp_path, monkeypatch):
    import adjudicator.util.resources as res

    (tmp_path / "templates").mkdir()
    monkeypatch.setattr(res, "package_files", lambda package: tmp_path)
    assert res.resource_dir("templates") == tmp_path / "templates"


def test_package_files_are_its_folder_and_through_its_loader_when_it_is_in_a_zip(tmp_path, monkeypatch):
    import zipfile
    from pathlib import Path

    from adjudicator.util.resources import package_files

    game = package_files("adjudicator.game")
    assert isinstance(game, Path) and game.joinpath("data", "board.toml").is_file()  # a folder: read as one
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_package/__init__.py", "")
        z.writestr("zipped_package/data/one.txt", "inside the zip")
    monkeypatch.syspath_prepend(str(archive))
    files = package_files("zipped_package")
    assert not isinstance(files, Path)  # no folder on the disk: the zip's own reader
    assert files.joinpath("data", "one.txt").read_text("utf-8") == "inside the zip"
