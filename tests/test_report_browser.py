"""The HTML report in a real browser: headless Chromium renders it to a screenshot.

Skipped, with the reason, on a machine without Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events import AnswerUnusable, PhaseStarted
from adjudicator.game.setup import new_game
from adjudicator.game.state import Order, Unit
from adjudicator.reports.report import render_report

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p and Path(p).exists()), None)
WIDTH, HEIGHT = 1400, 1800

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")


def dump_dom(probe: Path, profile: Path, window: tuple[int, int]) -> subprocess.CompletedProcess[str]:
    """Headless Chromium opens ``probe`` (local files may read each other) and prints its DOM once its
    scripts have run."""
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--allow-file-access-from-files", "--virtual-time-budget=5000", f"--user-data-dir={profile}",
         f"--window-size={window[0]},{window[1]}", "--dump-dom", probe.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def _screenshot(html_file: Path, png: Path, profile: Path) -> subprocess.CompletedProcess[bytes]:
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


def _scroll_width(page: Path, width: int, profile: Path) -> tuple[int, int]:
    """``document.documentElement.scrollWidth`` and the viewport's width of a page ``width`` pixels wide.

    Headless Chromium's window is at least 500 pixels wide: the page is opened in a frame of the
    width asked for, which is its viewport, and read from the frame page."""
    probe = page.with_name(f"{page.stem}-probe-{width}.html")
    probe.write_text(
        f'<!DOCTYPE html><body style="margin:0"><iframe src="{page.name}" width="{width}" height="900" '
        'style="border:0" onload="var d = this.contentWindow; document.title = \'SW=\' + '
        "d.document.documentElement.scrollWidth + ';VW=' + d.innerWidth\"></iframe></body>", encoding="utf-8")
    run = dump_dom(probe, profile, (max(width, 500) + 20, 1000))
    found = re.search(r"<title>SW=(\d+);VW=(\d+)</title>", run.stdout)
    assert found, run.stderr[-2000:] + run.stdout[-500:]
    return int(found.group(1)), int(found.group(2))


@pytest.fixture(scope="module")
def late_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The public and a house's whole HTML report of the last step of a 6-player robot game."""
    from adjudicator.reports.report import MAP_FILE, join_html
    from adjudicator.robots.simulate import simulate

    root = tmp_path_factory.mktemp("late")
    simulate(6, 4, rounds=3, out=root / "game")
    step = sorted(p for p in (root / "game" / "reports").iterdir() if p.is_dir())[-1]
    (root / MAP_FILE).write_bytes((step / MAP_FILE).read_bytes())
    public = (step / "public.html").read_text(encoding="utf-8")
    (root / "public.html").write_text(public, encoding="utf-8")
    (root / "stark.html").write_text(join_html((step / "stark.html").read_text(encoding="utf-8"), public),
                                     encoding="utf-8")  # fmt: skip
    return {"public": root / "public.html", "stark": root / "stark.html"}


@pytest.mark.parametrize("which", ["public", "stark"])
@pytest.mark.parametrize("width", [400, 1280])
def test_reports_read_without_sideways_scrolling_on_a_phone_and_a_desktop(late_pages, which, width, tmp_path):
    scroll, viewport = _scroll_width(late_pages[which], width, tmp_path / "profile")
    assert viewport == width
    assert scroll <= viewport, f"the {which} report scrolls sideways at {width} px ({scroll} px wide)"
