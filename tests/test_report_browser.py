"""The HTML report in a real browser: headless Chromium renders it to a screenshot, and measures the
map as a reader sees it on a phone (400 px) and a desktop (1280 px): no sideways scrolling, every
area name in sight at least 9 CSS pixels high, a house's own region first, no mark over a name.

Skipped, with the reason, on a machine without Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of
from mapprobe import CHROMIUM, Frame, dump_dom, probe

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events import AnswerUnusable, PhaseStarted
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit
from adjudicator.reports.report import MAP_FILE, join_html, page_style, render_report, render_step_map

WIDTH, HEIGHT = 1400, 1800
__all__ = ["CHROMIUM", "dump_dom"]  # the Mother of Dragons sample's browser test opens its pages with them

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")


def _screenshot(html_file: Path, png: Path, profile: Path) -> subprocess.CompletedProcess[bytes]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={WIDTH},{HEIGHT}",
         html_file.resolve().as_uri()],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_private_html_report_renders_in_headless_chromium(tmp_path):
    state = new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="browser", game_id="browser-demo")
    state.area_mut("winterfell").order = Order("stark", "march+1")
    state.area_mut("moat_cailin").units.append(Unit("stark", "footman"))
    state.area_mut("moat_cailin").order = Order("stark", "defense+1")
    state.area_mut("the_reach").power_token = "tyrell"
    events = [
        PhaseStarted(round=1, phase="action"),
        AnswerUnusable(house="stark", answer="<b>raid from Winterfel</b>", reason="unknown area"),
        UnitsDestroyed(house="greyjoy", area="greywater_watch", units=("footman",), cause="a test"),
    ]
    page = tmp_path / "stark.html"
    page.write_text(render_report(state, events, viewer="stark", fmt="html"), encoding="utf-8")
    png = tmp_path / "stark.png"
    run = _screenshot(page, png, tmp_path / "profile")
    assert png.exists(), run.stderr.decode("utf-8", "replace")[-2000:]
    data = png.read_bytes()
    assert _png_size(data) == (WIDTH, HEIGHT)
    # A blank page compresses to a few kilobytes; the map, tables and text take far more.
    assert len(data) > 100_000


# --- the map on a phone and a desktop, measured in one browser start ---------------------------------


def _crowded(state: GameState) -> GameState:
    """Every area as full as the marks get: three kinds of units (two of one kind), an order and a
    power token in each land, a garrison or neutral force where the board has one, three ships of two
    houses in each sea and port."""
    board, houses = state.board(), state.houses_in_play
    for i, (area_id, area) in enumerate(sorted(board.areas.items())):
        if area_id in state.impassable:
            continue
        st = state.area_mut(area_id)
        a, b = houses[i % len(houses)], houses[(i + 1) % len(houses)]
        if area.is_land:
            st.units = [Unit(a, "footman"), Unit(a, "footman"), Unit(a, "knight"), Unit(a, "siege_engine")]
            st.power_token = a
        else:
            st.units = [Unit(a, "ship"), Unit(a, "ship"), Unit(b, "ship")]
        st.order = Order(a, "support+1" if area.is_sea else "march+1")
    return state


def _last_step(game: Path) -> tuple[Path, GameState]:
    step = sorted(p for p in reports_of(game).iterdir() if p.name[:4].isdigit())[-1]
    return step, GameState.from_toml((game / "states" / f"{step.name[:4]}.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The public report and a house's whole report of the last step of a 6-player robot game (five
    rounds) and of a 7-player Mother of Dragons game with Essos, each at 400 and 1280 pixels, and
    crowded maps of both boards and of a 3-player one, measured by headless Chromium in one start."""
    from adjudicator.game.board import Board
    from adjudicator.game.mod_board import mod_board
    from adjudicator.robots.simulate import simulate

    root = tmp_path_factory.mktemp("measured")
    cases = {"six": (simulate(6, 4, rounds=5, out=root / "six-game"), "stark"),
             "mod": (simulate(7, 1, rounds=2, expansion="mother-of-dragons", out=root / "mod-game"), "targaryen")}  # fmt: skip
    frames, maps, states = [], [], {}
    for name, (_, house) in cases.items():
        step, state = _last_step(root / f"{name}-game")
        states[name] = state
        folder = root / name
        folder.mkdir()
        (folder / MAP_FILE).write_bytes((step / MAP_FILE).read_bytes())
        public = (step / "public.html").read_text(encoding="utf-8")
        (folder / "public.html").write_text(public, encoding="utf-8")
        (folder / "house.html").write_text(join_html((step / f"{house}.html").read_text(encoding="utf-8"), public),
                                           encoding="utf-8")  # fmt: skip
        frames += [Frame(f"{name}-{which}-{width}", folder / f"{which}.html", width)
                   for which in ("public", "house") for width in (400, 1280)]  # fmt: skip
        bare = (folder / "house.html").read_text(encoding="utf-8").replace(page_style(public), "")
        (folder / "bare.html").write_text(bare, encoding="utf-8")  # as a mail program that drops <style> shows it
        frames.append(Frame(f"{name}-bare-400", folder / "bare.html", 400))
        maps.append(folder / MAP_FILE)
        crowd = folder / "crowded.svg"
        crowd.write_text(render_step_map(_crowded(state.copy()), []), encoding="utf-8")
        maps.append(crowd)
    three = root / "three.svg"
    three.write_text(render_step_map(_crowded(new_game(["stark", "lannister", "baratheon"], seed="three")), []),
                     encoding="utf-8")  # fmt: skip
    maps.append(three)
    names = {a.name for a in [*Board.classic().areas.values(), *mod_board(essos=True).areas.values()]}
    result = probe(root, frames, maps, sorted(names))
    result["maps"] = {str(m.relative_to(root)): v for m, v in result["maps"].items()}
    result["states"] = states
    result["houses"] = {name: house for name, (_, house) in cases.items()}
    return result


FRAMES = [f"{game}-{which}-{width}" for game in ("six", "mod") for which in ("public", "house") for width in (400, 1280)]


@pytest.mark.parametrize("key", FRAMES)
def test_reports_read_without_sideways_scrolling_on_a_phone_and_a_desktop(measured, key):
    frame = measured["frames"][key]
    assert "error" not in frame, frame
    assert frame["viewport"] == int(key.rsplit("-", 1)[1])
    assert frame["scroll"] <= frame["viewport"], f"{key} scrolls sideways ({frame['scroll']} px wide)"


@pytest.mark.parametrize("game", ["six", "mod"])
def test_the_map_fits_a_phone_even_where_the_mail_program_drops_the_stylesheet(measured, game):
    """The styles the map needs to stay within the screen are written on its elements: the region's
    box clips the enlarged picture, the whole board shrinks to the page's width."""
    frame = measured["frames"][f"{game}-bare-400"]
    region, whole = [p for p in frame["pictures"] if p["shown"]]
    assert region["region"] and region["box"][2] > 400 and 0 <= region["seen"][0] < region["seen"][1] <= 400, region
    assert whole["box"][0] >= 0 and whole["box"][0] + whole["box"][2] <= 400, whole


@pytest.mark.parametrize("key", FRAMES)
def test_area_names_on_the_map_are_at_least_9_css_pixels_high_where_the_page_shows_them(measured, key):
    """On a phone the page shows a region of the map enlarged, then the whole board at its own size,
    to scroll across; on a desktop the whole board. Every area name in sight is measured."""
    pictures = [p for p in measured["frames"][key]["pictures"] if p["shown"]]
    assert pictures and all(p["loaded"] for p in pictures), measured["frames"][key]
    for picture in pictures:
        heights = picture["names"]
        assert len(heights) >= 3, (key, picture)
        small = {n: round(h, 1) for n, h in heights.items() if h < 9}
        assert not small, f"{key}: names under 9 CSS px high: {small}"
    if key.endswith("-400"):
        assert pictures[0]["region"], f"{key}: a phone sees a region of the map first"


@pytest.mark.parametrize("game", ["six", "mod"])
def test_a_house_sees_first_the_region_of_the_map_where_its_units_stand(measured, game):
    house, state = measured["houses"][game], measured["states"][game]
    board = state.board()
    held = {board.area(a).name for a, st in state.areas.items() if any(u.house == house for u in st.units)}
    first = next(p for p in measured["frames"][f"{game}-house-400"]["pictures"] if p["shown"])
    assert first["region"] and held & set(first["names"]), (held, first["names"])


@pytest.mark.parametrize("name", ["six/map.svg", "six/crowded.svg", "mod/map.svg", "mod/crowded.svg", "three.svg"])
def test_no_unit_badge_token_or_icon_covers_an_area_name(measured, name):
    got = measured["maps"][name]
    assert "error" not in got, got
    assert got["names"] >= 40 and got["marks"] > 50, got
    assert got["hits"] == [], "\n".join(got["hits"])
