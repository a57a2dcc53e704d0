"""The HTML report in a real browser: headless Chromium renders it to a screenshot.

Skipped, with the reason, on a machine without Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

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
