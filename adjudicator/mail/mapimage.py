"""The map as a PNG picture, for mail programs that show no SVG, and its place in a mail.

Webmail drops inline ``<svg>`` and ``<style>``; a PNG attached inline by Content-ID shows
everywhere. The picture is drawn in this process by resvg (the ``resvg-py`` binding: wheels for
every platform with resvg built in, no system library needed) from the step's ``map.svg``.

>>> png = render_png('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#ccc"/></svg>')
>>> png[:8] == PNG_SIGNATURE, png_size(png)
(True, (40, 30))
"""

from __future__ import annotations

import struct
from email.message import EmailMessage

import resvg_py

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class MapImageError(ValueError):
    """The map could not be drawn as a picture (a damaged ``map.svg``)."""


def render_png(svg: str, *, width: int | None = None) -> bytes:
    """The SVG drawn as PNG bytes (``width`` in pixels; default: the SVG's own size).

    :raises MapImageError: when the SVG cannot be read.
    """
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#f7f4ec"))
    except (ValueError, RuntimeError) as e:
        raise MapImageError(f"the map cannot be drawn: {e}") from None


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
