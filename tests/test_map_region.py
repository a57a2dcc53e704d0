"""The region of the map a report shows first (a phone cannot read the whole board) and the HTML's one
stylesheet. The browser measures them, and the names no mark covers, in test_report_browser.py."""

from __future__ import annotations

import re

import pytest

from adjudicator.engine.events.action import UnitsMoved
from adjudicator.game.setup import new_game
from adjudicator.reports.mapregion import REGION_HEIGHT, REGION_WIDTH, Region, house_region, public_region
from adjudicator.reports.report import drop_map, join_html, render_report, render_reports, with_map_src
from adjudicator.reports.svgmap import MapLayout

SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
ANCHORS = MapLayout.classic().shapes.anchors


def _inside(region: Region, area: str) -> bool:
    x, y = ANCHORS[area]
    return region.x < x < region.x + region.width and region.y < y < region.y + region.height


@pytest.mark.parametrize("house", SIX)
def test_a_house_region_holds_its_home_and_its_units_at_the_start(house):
    state = new_game(SIX, seed="region")
    board = state.board()
    region = house_region(state, board, house)
    assert (region.width, region.height) == (REGION_WIDTH, REGION_HEIGHT)
    assert _inside(region, board.home_area(house)), region
    layout = MapLayout.classic()
    assert 0 <= region.x <= layout.width - region.width and 0 <= region.y <= layout.height - region.height


def test_the_public_region_follows_the_steps_marches():
    state = new_game(SIX, seed="region")
    board = state.board()
    moves = [UnitsMoved(house="martell", origin="sunspear", destination="salt_shore", units=("footman",))]
    region = public_region(state, board, moves)
    assert _inside(region, "sunspear") and _inside(region, "salt_shore")
    assert "marches" in region.caption
    assert "most units" in public_region(state, board, []).caption


def test_the_region_is_cut_from_the_picture_by_its_margins():
    """A box of the region's proportions shows the picture scaled by map width / region width, pulled
    up and left by the region's corner, cut below: every margin in percent of the box's width."""
    style = Region(300, 120, 400, 500, "").style(1200, 1690)
    assert style == "width:300%;margin:-30% 0 -267.5% -75%"  # 120/400, (1690-120-500)/400, 300/400
    assert Region(0, 0, 400, 500, "").style(1200, 1690) == "width:300%;margin:0 0 -297.5% 0"


def test_the_region_is_the_same_for_the_same_state():
    state = new_game(SIX, seed="region")
    assert house_region(state, state.board(), "tyrell") == house_region(state.copy(), state.board(), "tyrell")


def test_a_houses_whole_report_shows_its_own_region_and_the_public_report_its_own():
    state = new_game(SIX, seed="region")
    pages = render_reports(state, [], viewers=[None, "stark", "martell"], formats=["html"])
    public, stark, martell = pages[(None, "html")], pages[("stark", "html")], pages[("martell", "html")]
    crop = re.compile(r'<div class="crop"[^>]*><img [^>]*style="([^"]+)"')
    assert len({crop.findall(page)[0] for page in (public, stark, martell)}) == 3
    region = stark[stark.index("<!-- maester:region -->") : stark.index("<!-- maester:region-end -->")]
    assert len(crop.findall(stark)) == 1 and "Around House Stark" in region
    split = render_reports(state, [], viewers=[None, "stark"], formats=["html"], split=True)
    assert join_html(split[("stark", "html")], split[(None, "html")]) == stark


def test_every_picture_of_the_map_takes_the_mails_image_or_goes_with_it():
    page = render_report(new_game(SIX, seed="region"), [], viewer="stark", fmt="html")
    assert page.count('src="map.svg"') == 2
    mailed = with_map_src(page, "cid:map-1@maester")
    assert mailed.count('src="cid:map-1@maester"') == 2 and "map.svg" not in mailed
    gone = drop_map(page)
    assert "<img" not in gone and 'class="crop"' not in gone and "maester:map" not in gone
    assert "Your decisions" in gone and "The board" in gone


def test_no_style_is_written_twice_in_an_html_report():
    state = new_game(SIX, seed="styles")
    state.area_mut("the_reach").power_token = "tyrell"
    for viewer in (None, "tyrell"):
        page = render_report(state, [], viewer=viewer, fmt="html")
        inline = re.findall(r'style="([^"]*)"', page)
        assert inline and len(inline) == len(set(inline)) == 3, inline  # the whole board, the region's box, its crop
        assert page.count("<style>") == 1 and page.index("<style>") < page.index("</head>")
        classes = set(" ".join(re.findall(r'class="([^"]+)"', page)).split())
        sheet = page[page.index("<style>") : page.index("</style>")]
        assert all(re.search(rf"\.{c}\b", sheet) for c in classes), classes  # every class has its look
