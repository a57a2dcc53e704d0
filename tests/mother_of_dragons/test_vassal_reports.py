"""Vassals in the reports and on the map (M030, M038, M039, M058, ruling 267): who commands which
vassal, the vassal markers, their supply and places on the tracks, the open vassal deck, and what
stays hidden (a vassal's orders until the reveal, the cards drawn for its combat)."""

from __future__ import annotations

import re

import pytest
from clikit import reports_of
from rules.helpers import entry, put
from test_public_reports import _public_only

from adjudicator.engine.core.context import Request
from adjudicator.engine.events import AnswerUsed
from adjudicator.engine.events.vassals import VassalCardsDrawn, VassalCommanded
from adjudicator.engine.machine import advance
from adjudicator.game.commands import AssignOrder, CommandVassal, ForVassal, Muster, MusterAction, PlayCard
from adjudicator.game.setup import new_game
from adjudicator.reports import report
from adjudicator.reports.report import render_report, render_reports
from adjudicator.reports.svgmap import render_map
from adjudicator.robots.simulate import simulate
from adjudicator.turnfile.parser import parse_turn_file
from mother_of_dragons.vassal_helpers import for_vassal, mod_game

PASS_ALL = [entry(h, CommandVassal(vassal=None)) for h in ("baratheon", "baratheon", "lannister", "lannister",
                                                           "lannister", "lannister")]  # fmt: skip


def _commanded():
    """Round 1's Planning phase: every vassal commanded by Stark (the others passed, M037); Tyrell
    has units in Highgarden and Oldtown; Stark's orders are not in yet."""
    s = mod_game(seed="vassal-reports")
    put(s, "highgarden", "tyrell", "footman", "knight")
    put(s, "oldtown", "tyrell", "footman")
    put(s, "winterfell", "stark", "footman")
    step = advance(s, PASS_ALL)
    assert set(step.state.commanders.values()) == {"stark"}
    return step


def test_M038_the_public_report_says_who_commands_which_vassal_and_marks_the_vassals():
    step = _commanded()
    s = step.state
    s.commanders["greyjoy"] = "lannister"
    del s.commanders["arryn"]
    text = render_report(s, step.events, viewer=None, fmt="text")
    section = text[text.index("\nVASSALS"):text.index("\nWILDLINGS AND DECKS")]
    assert "  Tyrell      commanded by Stark\n" in section
    assert "  Greyjoy     commanded by Lannister\n" in section
    assert "  Arryn       no commander yet\n" in section
    assert "cannot win" in section and "(M030, M031, M070)" in section
    assert re.search(r"\n  Tyrell\* +0 +0 +4 ", text)  # its power, tokens and supply in the houses table
    throne = text[text.index("  Iron Throne   "):].split("\n")[0]
    assert "Baratheon, Lannister, Stark, " in throne and "Martell*" in throne  # the vassals' places on the track
    assert "  Tyrell      (a vassal: it draws from the vassal deck)" in text
    html = render_report(s, step.events, viewer=None, fmt="html")
    assert '<strong>Tyrell</strong>: commanded by Stark</p>' in html and "Tyrell<span" in html
    assert "Stark commands Tyrell this round, as the last player on the Iron Throne track must." in " ".join(text.split())


def test_ruling_267_the_vassal_deck_is_shown_in_every_public_report():
    step = _commanded()
    deck = "Bronn 4, Beric Dondarrion 3, Janos Slynt 2, Jon Connington 2, Jaqen H'ghar 1, Syrio Forel 1, Varys 0"
    text = render_report(step.state, step.events, viewer=None, fmt="text")
    assert deck in " ".join(text.split())
    html = render_report(step.state, step.events, viewer=None, fmt="html")
    assert deck.replace("'", "&#39;") in html


def test_M030_the_map_draws_vassal_areas_units_and_track_places_dashed_and_names_the_commanders():
    step = _commanded()
    svg = render_map(step.state)
    assert re.search(r'<use href="#a-highgarden" fill="[^"]+" stroke="[^"]+" stroke-width="3" stroke-dasharray="7 4"/>', svg)
    assert re.search(r'<use href="#a-winterfell" fill="[^"]+" stroke="[^"]+" stroke-width="3"/>', svg)
    assert svg.count('stroke-dasharray="2 1.5"') == 3  # Tyrell's footman and knight in Highgarden, its footman in Oldtown
    assert "Tyrell: Stark" in svg and "Greyjoy: Stark" in svg
    assert svg.count('stroke-dasharray="3 2"') == 3 * len(step.state.vassals)  # each vassal on each influence track
    base = render_map(new_game(["stark", "lannister", "baratheon"], seed="vassal-reports"))
    assert not [d for d in ("7 4", "2 1.5", "3 2", "5 3") if f'stroke-dasharray="{d}"' in base]
    assert "Vassals" not in base


def test_M039_the_public_report_never_shows_a_vassals_orders_before_the_reveal():
    step = _commanded()
    secret = for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="vassal_march"))
    step = advance(step.state, [secret])
    assert any(r.vassal == "tyrell" for r in step.requests) is False  # answered, waiting for the others
    assert step.state.area("highgarden").order is None
    pages = render_reports(step.state, step.events, viewers=[None, "stark", "lannister"], formats=["text", "html", "json"])
    for (viewer, fmt), page in pages.items():
        shown = secret["text"] in page or "vassal march" in page.lower() or "vassal_march" in page
        assert shown == (viewer == "stark"), (viewer, fmt)


def test_M058_the_public_report_never_shows_the_cards_drawn_for_a_vassal():
    step = _commanded()
    drawn = VassalCardsDrawn(vassal="tyrell", commander="stark", cards=("bronn", "varys", "syrio_forel"))
    events = [VassalCommanded(vassal="tyrell", commander="stark"), drawn]
    pages = render_reports(step.state, events, viewers=[None, "stark", "lannister"], formats=["text", "html", "json"])
    for (viewer, fmt), page in pages.items():
        assert ("you draw Bronn" in page or '"bronn","varys"' in page) == (viewer == "stark"), (viewer, fmt)


@pytest.mark.parametrize("players,seed", [(4, 41)])
def test_M030_public_reports_of_a_robot_expansion_game_with_vassals_depend_on_public_facts_only(monkeypatch, players, seed,
                                                                                                tmp_path):  # fmt: skip
    """As tests/test_public_reports.py for the base game: each public report of an expansion game
    with vassals, rendered again from a state stripped of every secret (the answers pool, the
    vassals' orders not revealed yet, the commanders' private events), is the same."""
    real = report.render_reports
    checked = {"text": 0, "html": 0}
    secret_vassal_answers = 0

    def spy(state, events, **kw):
        nonlocal secret_vassal_answers
        out = real(state, events, **kw)
        secret_vassal_answers += sum(1 for e in events if isinstance(e, AnswerUsed) and e.answer.startswith("for ")
                                     and not e.is_public())  # a commander's lines for its vassal, seen by it alone
        for (viewer, fmt), page in out.items():
            if viewer is not None or fmt not in checked:
                continue
            st, evs, reqs = _public_only(state, events, kw.get("requests"))
            again = real(st, evs, **{**kw, "viewers": [None], "formats": [fmt], "requests": reqs})[(None, fmt)]
            assert again == page, f"the public {fmt} report of round {state.round} {state.phase} shows a secret"
            assert "VASSALS" in page or 'id="vassals"' in page
            checked[fmt] += 1
        return out

    monkeypatch.setattr(report, "render_reports", spy)
    result = simulate(players, seed, rounds=2, chaos=0.1, expansion="mother-of-dragons", targaryen=False,
                      out=tmp_path / "g")  # fmt: skip
    assert result.problems == []
    reports_of(tmp_path / "g")  # every step's pages rendered from its record, through the spy
    assert min(checked.values()) >= 5, checked
    assert secret_vassal_answers > 0, "the commanders must have sent lines for their vassals"


def test_M030_the_commanders_report_writes_its_vassals_options_default_and_skeleton_as_for_lines():
    step = _commanded()
    s = step.state
    muster = Request(key="r2.westeros.1.muster.tyrell", kind="muster", house="stark", vassal="tyrell",
                     prompt="for Tyrell: muster in Highgarden (2 points)",
                     options=(Muster(area="highgarden", actions=(MusterAction(unit="knight"),)),),
                     default=Muster(area="highgarden"))
    orders = next(r for r in step.requests if r.vassal == "tyrell")
    text = render_report(s, [], viewer="stark", fmt="text", requests=[orders, muster])
    mine = text[:text.index("Public report: the same")]
    assert "for tyrell: muster in Highgarden: knight" in mine  # the option
    assert "# for tyrell: AREA: ORDER" in mine  # the skeleton's line for the vassal's orders
    skeleton = [line[2:] for line in mine.splitlines() if line.startswith("# for tyrell: muster")]
    assert skeleton, mine
    head = f"game {s.game_id} · house stark · round 1 · planning · seq 1\n"
    (cmd,) = parse_turn_file(head + skeleton[0] + "\n", variant=s.variant).commands
    assert cmd == ForVassal(vassal="tyrell", command=muster.default)
    assert "for tyrell" not in render_report(s, [], viewer=None, fmt="text", requests=[orders, muster])


def test_M030_a_vassals_own_private_report_offers_nothing_coming_up_its_commander_answers():
    step = _commanded()
    s = step.state
    put(s, "the_reach", "tyrell", "footman")  # a Tyrell army that may be attacked and retreat
    text = render_report(s, step.events, viewer="tyrell", fmt="text")
    assert "COMING UP FOR YOU" not in text and "house tyrell" not in text  # no turn file to send as a vassal
    assert "YOUR TURN FILE" in render_report(s, step.events, viewer="stark", fmt="text")


def test_M058_the_commander_choosing_a_vassal_card_reads_the_three_drawn_cards_texts():
    """Was only "hand: Bronn, Varys, Syrio Forel" in the decision: the commander had no text of the
    vassal's cards to choose by (its YOUR HAND shows its own)."""
    step = _commanded()
    s = step.state
    card = Request(key="r1.action.9.house_card.tyrell", kind="house_card", house="stark", vassal="tyrell",
                   prompt="for Tyrell: choose a House card drawn from the vassal deck for the combat in The Reach",
                   context={"hand": ["bronn", "varys", "syrio_forel"], "role": "defender"}, secret=True,
                   options=(PlayCard(card="bronn"), PlayCard(card="varys"), PlayCard(card="syrio_forel")),
                   default=PlayCard(card="syrio_forel"))
    text = render_report(s, [], viewer="stark", fmt="text", requests=[card])
    drawn = text[text.index("DRAWN FOR TYRELL FROM THE VASSAL DECK (only you see them: play one)"):]
    assert "[Bronn · 4] Immediately" in drawn and "[Varys · 0]" in drawn and "[Syrio Forel · 1]" in drawn
    html = render_report(s, [], viewer="stark", fmt="html", requests=[card])
    assert "Drawn for Tyrell from the vassal deck" in html and "Syrio Forel" in html
    for viewer in (None, "lannister", "tyrell"):  # the cards are the commander's secret (ruling 236)
        page = render_report(s, [], viewer=viewer, fmt="text", requests=[card])
        assert "DRAWN FOR" not in page and "Immediately, if the opponent" not in page, viewer


def test_M033_a_player_giving_two_sets_in_a_row_is_named_once_with_the_count():
    """Was "Sets of vassal orders still to give: Lannister, Lannister.", read as a mistake."""
    step = _commanded()
    s = step.state
    s.vassal_sets = ["lannister", "lannister", "stark"]
    text = render_report(s, [], viewer=None, fmt="text")
    assert "Sets of vassal orders still to give: Lannister (2 sets), Stark." in " ".join(text.split())
