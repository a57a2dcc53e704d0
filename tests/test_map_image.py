"""The map as mailed: a palette PNG, the same picture pixel for pixel as drawn, small enough for mail."""

from __future__ import annotations

import io

import pytest
import resvg_py
from PIL import Image

from adjudicator.mail.mapimage import BACKGROUND, MapImageError, palette_png, png_colours, png_size, render_png
from adjudicator.reports.report import render_step_map
from adjudicator.reports.svgmap import MapLayout
from adjudicator.robots.simulate import simulate


@pytest.fixture(scope="module")
def late_map() -> str:
    """The map of the last step of seven rounds of a 6-player robot game."""
    states = []
    simulate(6, 2, rounds=7, text=False, on_step=lambda s: states.append(s.copy()))
    assert states[-1].round >= 7
    return render_step_map(states[-1], [])


def _pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").tobytes()


def test_the_mailed_map_of_a_late_six_player_step_is_a_palette_png_of_at_most_45_kb(late_map):
    png = render_png(late_map)
    layout = MapLayout.classic()
    assert png_size(png) == (layout.width, layout.height + layout.legend_height)  # drawn at its own size
    assert 0 < png_colours(png) <= 256
    assert len(png) <= 45_000, f"{len(png)} bytes"


def test_the_palette_keeps_every_pixel_of_the_picture_drawn(late_map):
    drawn = bytes(resvg_py.svg_to_bytes(svg_string=late_map, background=BACKGROUND, shape_rendering="crisp_edges",
                                        text_rendering="optimize_speed"))  # fmt: skip
    assert _pixels(render_png(late_map)) == _pixels(drawn)


def test_the_mailed_map_is_the_same_bytes_every_time(late_map):
    assert render_png(late_map) == render_png(late_map)


def test_a_picture_of_more_than_256_colours_is_reduced_to_256():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="20"><defs><linearGradient id="g">'
           '<stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff" stop-opacity=".3"/></linearGradient>'
           '</defs><rect width="600" height="20" fill="url(#g)"/><rect y="10" width="600" height="10" fill="#0072b2" '
           'opacity=".5"/></svg>')  # fmt: skip
    with Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg)))) as smooth:
        assert len(smooth.convert("RGB").getcolors(1 << 24) or ()) > 256
    png = render_png(svg)
    assert 0 < png_colours(png) <= 256 and png_size(png) == (600, 20)


def test_a_damaged_map_is_refused_with_a_message():
    with pytest.raises(MapImageError, match="the map cannot be drawn"):
        render_png("<svg")
    with pytest.raises(MapImageError, match="the map cannot be drawn"):
        palette_png(b"\x89PNG\r\n\x1a\n not really")


def test_a_picture_of_256_colours_keeps_every_pixel_even_of_colours_one_step_apart():
    import random

    rng = random.Random(1)
    colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(250)]
    colours += [(255, 253, 244), (255, 253, 246), (255, 253, 245), (254, 253, 246), (0, 0, 0), (0, 0, 1)]
    im = Image.new("RGB", (256, 64))
    im.putdata([colours[(x + y * 7) % 256] for y in range(64) for x in range(256)])
    out = io.BytesIO()
    im.save(out, "PNG")
    png = palette_png(out.getvalue())
    assert png_colours(png) == 256 and _pixels(png) == im.tobytes()
