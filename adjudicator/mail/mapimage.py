"""The map as a PNG picture, for mail programs that show no SVG, and its place in a mail.

Webmail drops inline ``<svg>``; a PNG attached inline by Content-ID shows everywhere. The picture
is drawn in this process by resvg (the ``resvg-py`` binding: wheels for every platform with resvg
built in, no system library needed) from the step's ``map.svg``, without smoothing, so that it
holds only the map's own few dozen colours, and written by Pillow as a palette PNG: the same
picture, pixel for pixel, in a sixth of the bytes of a smoothed true-colour one (about 35 KB for
a 6-player board instead of 200 KB).

>>> png = render_png('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#ccc"/></svg>')
>>> png[:8] == PNG_SIGNATURE, png_size(png), png_colours(png)
(True, (40, 30), 1)
"""

from __future__ import annotations

import io
import struct
from email.message import EmailMessage

import resvg_py
from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A mail's whole size it keeps within when the map drawn smaller lets it (ruling 317): the issue's
# 100 KB with a margin. Most mails hold the map at its own size; a long digest, at one of these
# fractions of it, the largest that fits; never smaller than the last, at which the area names
# (13 px at the map's own size) are still 9 pixels of the picture high (ruling 329).
MAIL_BYTES = 88_000
MAP_SCALES = (1.0, 0.9, 0.8, 0.7)
BACKGROUND = "#f7f4ec"  # behind the map (it covers its canvas; a moderator's template may not)


class MapImageError(ValueError):
    """The map could not be drawn as a picture (a damaged ``map.svg``)."""


def render_png(svg: str, *, width: int | None = None) -> bytes:
    """The SVG drawn as a palette PNG (``width`` in pixels; default: the SVG's own size).

    Shapes and text are drawn without smoothing: every pixel is one of the map's colours, which a
    palette of 256 holds exactly, and long runs of one colour compress well. Read at its own size
    (the report shows it so; a phone enlarges a part of it), the lettering stays sharp.

    :raises MapImageError: when the SVG cannot be read.
    """
    try:
        drawn = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background=BACKGROUND,
                                            shape_rendering="crisp_edges", text_rendering="optimize_speed"))  # fmt: skip
    except (ValueError, RuntimeError) as e:
        raise MapImageError(f"the map cannot be drawn: {e}") from None
    return palette_png(drawn)


class MapPictures:
    """One step's map for the mails of one run, drawn at each scale of :data:`MAP_SCALES` a mail asks
    for, each once.

    :raises MapImageError: (by :meth:`at`) when the SVG cannot be read.
    """

    def __init__(self, svg: str) -> None:
        self.svg = svg
        self._drawn: dict[float, bytes] = {}

    def at(self, scale: float) -> bytes:
        if scale not in self._drawn:
            full = self._drawn.get(1.0) or self._drawn.setdefault(1.0, render_png(self.svg))
            width = png_size(full)[0]
            self._drawn[scale] = full if scale == 1.0 else render_png(self.svg, width=round(width * scale))
        return self._drawn[scale]


def palette_png(png: bytes) -> bytes:
    """A PNG written again with a palette, by Pillow's median cut: exact for a picture of 256 colours
    or fewer (each colour is a box of its own; a test holds the map to that, pixel for pixel), the
    256 it finds for more (a moderator's map template may draw gradients). The same bytes every time.

    :raises MapImageError: when the data is not a picture Pillow reads.
    """
    try:
        with Image.open(io.BytesIO(png)) as im:
            rgb = im.convert("RGB")
    except (OSError, ValueError) as e:
        raise MapImageError(f"the map cannot be drawn: {e}") from None
    out = io.BytesIO()
    rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def png_colours(data: bytes) -> int:
    """How many colours a PNG's palette holds (0 for a true-colour PNG)."""
    with Image.open(io.BytesIO(data)) as im:
        return len(im.getpalette() or ()) // 3 if im.mode == "P" else 0


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header.

    :raises MapImageError: when the data is not a PNG.
    """
    if data[:8] != PNG_SIGNATURE or len(data) < 24:
        raise MapImageError("not a PNG picture")
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return int(width), int(height)


def attach_map(msg: EmailMessage, png: bytes, cid: str) -> None:
    """Attach the map to a mail's HTML part, inline, as ``Content-ID: <cid>``.

    The HTML must show it as ``<img src="cid:CID">``; the part becomes multipart/related, so mail
    programs show the picture in the page instead of as an attachment.

    :raises ValueError: when the mail has no HTML part.
    """
    page = msg.get_body(("html",))
    if page is None:
        raise ValueError("the mail has no HTML part to show the map in")
    page.add_related(png, maintype="image", subtype="png", cid=f"<{cid}>", disposition="inline",
                     filename="map.png")  # fmt: skip
