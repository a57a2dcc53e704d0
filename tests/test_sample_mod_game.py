"""The Mother of Dragons sample game (samples/mod-game), beside the base one: replayed from scratch
with the real rules, parser and reports, every report compared byte for byte.

After a deliberate change, rebuild ``samples/mod-game/expected/`` with
``python samples/game/make_sample.py --sample samples/mod-game --approve`` and read the difference before committing it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of
from test_report_browser import CHROMIUM, dump_dom
from test_sample_game import (
    _events,
    assert_matches_approved,
    assert_replays_byte_for_byte,
    assert_second_run_changes_nothing,
    sample_played,
)

from adjudicator.robots.demo import sample_dir, sample_plan

SAMPLE = sample_dir("mod-game")
EXPECTED = SAMPLE / "expected"


played = sample_played("mod-game", "mod-sample")


def test_mod_sample_reports_and_receipts_match_the_approved_copies(played):
    root, _ = played
    assert_matches_approved(root, EXPECTED)


def test_mod_sample_is_an_expansion_game_of_six_players_with_targaryen_arryn_and_two_vassals(played):
    root, results = played
    game, _ = sample_plan(SAMPLE)
    assert game["expansion"] == "mother-of-dragons"
    assert len(game["houses"]) == 6 and {"targaryen", "arryn"} <= set(game["houses"])
    assert tomllib.loads((root / "game.toml").read_text())["game"]["expansion"] == "mother-of-dragons"
    state = tomllib.loads((root / "state.toml").read_text())
    assert sorted(state["mother_of_dragons"]["vassals"]) == ["martell", "tyrell"]  # the box's own table (ruling 341)
    assert all(r.exit_status == 0 for r in results), "every sample file is accepted"


def test_mod_sample_plays_two_whole_rounds_and_their_westeros_phases(played):
    root, results = played
    steps = [s for r in results for s in r.steps]
    for part in ("-r1-action", "-r2-westeros", "-r2-action"):
        assert any(part in s for s in steps), part
    assert steps[-1].endswith("-r3-westeros")
    events = _events(root)
    revealed = [(e["deck"], e["card"]) for e in events if e["type"] == "WesterosCardRevealed"]
    assert [d for d, _ in revealed] == [1, 2, 3, 4] * 2, "Westeros deck IV is drawn after decks I-III (M082)"
    assert [e for e in events if e["type"] == "WesterosChoiceMade"][0]["house"] == "targaryen"


def test_mod_sample_shows_vassals_chosen_passed_and_ordered_by_their_commanders(played):
    root, _ = played
    events = _events(root)
    commanded = {(e["commander"], e["vassal"]) for e in events if e["type"] == "VassalCommanded"}
    assert commanded == {("baratheon", "tyrell"), ("lannister", "martell"), ("stark", "tyrell")}
    passed = [(e["house"], e["to"]) for e in events if e["type"] == "VassalSetPassed"]
    assert passed == [("baratheon", "lannister"), ("lannister", "stark")], "round 2: a set passed on twice"
    vassal_marches = {e["house"] for e in events if e["type"] == "MarchResolved" and e["token"] == "vassal_march"}
    assert vassal_marches == {"tyrell", "martell"}
    lines = [ln for p in (SAMPLE / "turns").rglob("*.txt") for ln in p.read_text().splitlines()]
    assert any(ln.startswith("for tyrell: ") for ln in lines) and any(ln.startswith("for martell: ") for ln in lines)


def test_mod_sample_has_a_combat_a_sea_order_a_loan_interest_a_dragon_and_a_loyalty_token(played):
    root, _ = played
    events = _events(root)
    kinds = [e["type"] for e in events]
    combats = [(e["area"], e["attacker"], e["defender"]) for e in events if e["type"] == "CombatResolved"]
    assert combats == [("moat_cailin", "greyjoy", "stark"), ("the_mountains_of_the_moon", "arryn", "targaryen")]
    assert any(e["type"] == "MarchResolved" and e["token"] == "sea_march" for e in events)
    assert [(e["house"], e["loan"]) for e in events if e["type"] == "LoanTaken"] == [("baratheon", "customs_officer")]
    assert [(e["house"], e["paid"]) for e in events if e["type"] == "InterestDue"] == [("baratheon", 1)] * 2
    flights = [(e["origin"], e["destination"]) for e in events if e["type"] == "UnitsMoved" and e["units"] == ["dragon"]]
    assert flights == [("the_rhoyne", "the_mountains_of_the_moon"), ("norvos", "the_stony_shore")]
    assert any(e["type"] == "UnitsMoved" and e["destination"] == "volantis" for e in events), "a march in Essos"
    gained = [(e["area"], e["victory"]) for e in events if e["type"] == "LoyaltyGained"]
    assert gained == [("the_mountains_of_the_moon", 2), ("the_stony_shore", 3)], "Empty Promises, then a flight"
    assert "DragonStrengthGained" in kinds


def test_mod_sample_replays_byte_for_byte(played, capsys: pytest.CaptureFixture[str]):
    assert_replays_byte_for_byte(played[0], capsys)


def test_mod_sample_run_again_changes_nothing(played):
    assert_second_run_changes_nothing(played[0])


# --- the map shows Essos, in a real browser ------------------------------------------------------

ESSOS_LAND = ("Braavos", "Pentos", "Norvos", "Myr", "The Rhoyne", "Volantis", "The Disputed Lands")
# The probe page opens the report in a frame, and the report's map (an image of map.svg: the whole
# board, id="map") beside it in a second frame of the map's own size, where each area name's box is measured; the box is scaled to the
# image as the report draws it. document.title carries what was measured.
PROBE = """<!DOCTYPE html><body style="margin:0">
<iframe id="report" src="public.html" width="{width}" height="900" style="border:0"></iframe>
<iframe id="svg" src="map.svg" width="1680" height="1690" style="border:0"></iframe>
<script>
window.onload = function () {{
  var d = document.getElementById('report').contentWindow.document, img = d.getElementById('map');
  var s = document.getElementById('svg').contentWindow.document, root = s.documentElement;
  var box = img.getBoundingClientRect(), scale = box.width / root.viewBox.baseVal.width;
  var view = d.defaultView, names = {{}};
  s.querySelectorAll('text').forEach(function (t) {{
    var b = t.getBBox();
    names[t.textContent] = [box.left + view.scrollX + b.x * scale, box.top + view.scrollY + b.y * scale,
                            b.width * scale, b.height * scale];
  }});
  document.title = JSON.stringify({{
    loaded: img.complete && img.naturalWidth > 0, src: img.getAttribute('src'),
    image: [box.left + view.scrollX, box.top + view.scrollY, box.width, box.height],
    page: [d.documentElement.scrollWidth, d.documentElement.scrollHeight], names: names,
    pan: [img.parentElement.getBoundingClientRect().left + view.scrollX, img.parentElement.scrollWidth]}});
}};
</script></body>"""


def _measure_map(step: Path, folder: Path, width: int) -> dict[str, Any]:
    """Open a step's public HTML report in headless Chromium ``width`` pixels wide and measure its map."""
    assert CHROMIUM is not None
    for name in ("public.html", "map.svg"):
        shutil.copyfile(step / name, folder / name)
    probe = folder / "probe.html"
    probe.write_text(PROBE.format(width=width), encoding="utf-8")
    run = dump_dom(probe, folder / "profile", (width + 1700, 1800))
    found = re.search(r"<title>(.*)</title>", run.stdout, re.S)
    assert found, run.stderr[-2000:] + run.stdout[-500:]
    measured: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return measured


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 400])
def test_mod_sample_html_report_map_shows_essos_with_its_area_names_in_headless_chromium(played, tmp_path, width):
    root, _ = played
    last = sorted(p for p in reports_of(root).iterdir() if p.name[:4].isdigit())[-1]
    got = _measure_map(last, tmp_path, width)
    assert got["loaded"] and got["src"] == "map.svg", "the report's map image is drawn"
    x0, y0, w, h = got["image"]
    page_w, page_h = got["page"]
    # the whole board at its own size, in a box that scrolls across where the page is narrower
    pan_x, pan_w = got["pan"]
    assert w > 0 and h > 0 and x0 >= 0 and x0 + w <= max(page_w, pan_x + pan_w) + 1 and y0 + h <= page_h + 1, got
    for name in ESSOS_LAND:
        assert name in got["names"], f"{name} is not named on the map"
        x, y, nw, nh = got["names"][name]
        assert nw > 0 and nh > 0, f"{name}'s name has no size on the page"
        # inside the map as the page draws it, and so inside the page's scroll area
        assert x0 <= x and x + nw <= x0 + w + 1 and y0 <= y and y + nh <= y0 + h + 1, (name, got["names"][name], got)
    # Essos is the side board to the right of Westeros: its names lie in the map's right part.
    assert min(got["names"][n][0] for n in ESSOS_LAND) > max(got["names"][n][0] for n in ("Winterfell", "Lannisport"))
