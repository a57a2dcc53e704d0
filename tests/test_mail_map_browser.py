"""The map as a mail shows it, in headless Chromium: the HTML part of a house's mail at 400 and 1280
pixels (area names at least 9 CSS pixels high, the house's region first, no sideways scrolling), and
the picture drawn at the smallest scale a long mail takes (ruling 329) shown at its own pixel size,
where the names must still be 9 pixels of the picture high.

The mail shows the picture (``cid:``) at the map's own width whatever its pixels (ruling 317); here
the step's ``map.svg`` stands in for it at the same place and size, so that the probe can measure the
names' text. Skipped, with the reason, on a machine without Chromium.
"""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of
from mail import shapes
from mail.loopback import reported  # noqa: F401
from mapprobe import CHROMIUM, Frame, probe

from adjudicator.game.board import Board
from adjudicator.mail.mapimage import MAP_SCALES
from adjudicator.mail.outbox import write_outbox
from adjudicator.reports.report import MAP_FILE
from adjudicator.reports.svgmap import MapLayout

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
WIDTHS = (400, 1280)


@pytest.fixture(scope="module")
def measured(reported: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("mailmap")
    write_outbox(reported, key=shapes.MODERATOR)
    msg = BytesParser(policy=policy.default).parsebytes((reported / "outbox" / "0000" / "stark.eml").read_bytes())
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("html",))
    assert body is not None
    page = str(body.get_content())
    assert page.count('src="cid:') == 2, "the region and the whole board, both the mailed picture"
    (step,) = reports_of(reported).glob("0000-*")
    (root / MAP_FILE).write_bytes((step / MAP_FILE).read_bytes())
    (root / "mail.html").write_text(re.sub(r'src="cid:[^"]+"', f'src="{MAP_FILE}"', page), encoding="utf-8")
    smallest = round(MapLayout.classic().width * MAP_SCALES[-1])
    (root / "smallest.html").write_text(f'<!DOCTYPE html><html><body style="margin:0"><img src="{MAP_FILE}" '
                                        f'width="{smallest}" alt="the map"></body></html>\n', encoding="utf-8")  # fmt: skip
    frames = [Frame(f"mail-{w}", root / "mail.html", w) for w in WIDTHS]
    frames.append(Frame("smallest", root / "smallest.html", 1280))
    result = probe(root, frames, [], sorted(a.name for a in Board.classic().areas.values()))
    result["smallest"] = smallest
    return result


@pytest.mark.parametrize("width", WIDTHS)
def test_area_names_in_a_mails_map_are_at_least_9_css_pixels_high(measured: dict[str, Any], width: int) -> None:
    frame = measured["frames"][f"mail-{width}"]
    assert "error" not in frame, frame
    assert frame["scroll"] <= frame["viewport"] == width, f"the mail scrolls sideways ({frame['scroll']} px wide)"
    pictures = [p for p in frame["pictures"] if p["shown"]]
    assert pictures and all(p["loaded"] for p in pictures), frame
    for picture in pictures:
        assert len(picture["names"]) >= 3, picture
        small = {n: round(h, 1) for n, h in picture["names"].items() if h < 9}
        assert not small, f"names under 9 CSS px high at {width} px: {small}"
    if width == 400:
        assert pictures[0]["region"], "a phone sees the house's region first"


def test_ruling_329_at_the_smallest_scale_the_names_are_still_9_pixels_of_the_picture_high(
    measured: dict[str, Any],
) -> None:
    frame = measured["frames"]["smallest"]
    (picture,) = frame["pictures"]
    assert picture["loaded"] and round(picture["box"][2]) == measured["smallest"], picture
    assert len(picture["names"]) >= 40, picture
    small = {n: round(h, 1) for n, h in picture["names"].items() if h < 9}
    assert not small, f"names under 9 pixels high in the picture drawn at {MAP_SCALES[-1]:.0%}: {small}"
