"""Headless Chromium measures the reports' map as a reader sees it: one browser start for many pages.

The probe page opens each report in a frame of the width asked for (its viewport) and each map on its
own, then for every picture of the map in a report lays a copy of the SVG exactly over it, to measure
the area names where the picture shows them (``getBoundingClientRect`` of each name's text); and on
each map alone, checks that no mark (unit, badge, token, icon, count) covers an area name.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser"))
                 if p and Path(p).exists()), None)  # fmt: skip


def dump_dom(probe: Path, profile: Path, window: tuple[int, int]) -> subprocess.CompletedProcess[str]:
    """Headless Chromium opens ``probe`` (local files may read each other) and prints its DOM once its
    scripts have run."""
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--allow-file-access-from-files", "--virtual-time-budget=20000", f"--user-data-dir={profile}",
         f"--window-size={window[0]},{window[1]}", "--dump-dom", probe.resolve().as_uri()],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


@dataclass(frozen=True)
class Frame:
    """A report page opened ``width`` pixels wide, named ``key`` in the results."""

    key: str
    page: Path
    width: int


SCRIPT = r"""
var NAMES = new Set(%(names)s), FRAMES = %(frames)s, MAPS = %(maps)s;
function load(url) {  // the SVG document of a map, read again (the picture's own is out of reach)
  var x = new XMLHttpRequest(); x.open('GET', url, false); x.overrideMimeType('image/svg+xml'); x.send();
  return x.responseXML.documentElement;
}
function names(root) { return Array.from(root.querySelectorAll('text')).filter(t => NAMES.has(t.textContent)); }
function clip(el, win) {  // the part of the page an element is seen through: the viewport's width, boxes that clip
  var c = {l: 0, t: -1e9, r: win.innerWidth, b: 1e9};
  for (var p = el.parentElement; p; p = p.parentElement) {
    var cs = win.getComputedStyle(p), q = p.getBoundingClientRect();
    if (cs.overflowX !== 'visible') { c.l = Math.max(c.l, q.left); c.r = Math.min(c.r, q.right); }
    if (cs.overflowY !== 'visible') { c.t = Math.max(c.t, q.top); c.b = Math.min(c.b, q.bottom); }
  }
  return c;
}
function frame(f) {
  var el = document.getElementById(f.key), win = el.contentWindow, d = win.document;
  var out = {scroll: d.documentElement.scrollWidth, viewport: win.innerWidth, pictures: []};
  Array.from(d.querySelectorAll('img')).filter(i => /map\.svg$/.test(i.getAttribute('src'))).forEach(function (img) {
    var r = img.getBoundingClientRect(), c = clip(img, win);
    var pic = {loaded: img.complete && img.naturalWidth > 0, shown: r.width > 0 && c.r > c.l,
               box: [r.left, r.top, r.width, r.height], seen: [c.l, c.r], region: !!img.closest('.crop'), names: {}};
    if (pic.shown) {
      var svg = d.importNode(load(img.src), true);
      svg.setAttribute('width', r.width); svg.setAttribute('height', r.height);
      svg.style.cssText = 'position:absolute;visibility:hidden;left:' + (r.left + win.scrollX) + 'px;top:' + (r.top + win.scrollY) + 'px';
      d.body.appendChild(svg);
      names(svg).forEach(function (t) {
        var b = t.getBoundingClientRect();
        if (b.right > c.l && b.left < c.r && b.bottom > c.t && b.top < c.b) pic.names[t.textContent] = b.height;
      });
      svg.remove();
    }
    out.pictures.push(pic);
  });
  return out;
}
function covered(url) {  // every mark drawn over an area name (the arrows and the embattled outline lie under them)
  var svg = document.body.appendChild(document.importNode(load(url), true)), marks = svg.getElementById('marks');
  var labels = names(marks), hits = [];
  var others = Array.from(marks.querySelectorAll('use, path, circle, text, rect')).filter(e =>
    !labels.includes(e) && !(e.getAttribute('fill') === 'none' && e.getAttribute('stroke') === '#d00000'));
  function meet(a, b) { return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5; }
  labels.forEach(function (l) {
    var a = l.getBBox();
    others.forEach(function (m) { if (meet(a, m.getBBox())) hits.push(l.textContent + ' under ' + m.outerHTML.slice(0, 80)); });
    labels.forEach(function (k) { if (k !== l && l.textContent < k.textContent && meet(a, k.getBBox())) hits.push(l.textContent + ' meets ' + k.textContent); });
  });
  svg.remove();
  return {names: labels.length, marks: others.length, hits: hits};
}
window.onload = function () {
  var res = {frames: {}, maps: {}};
  FRAMES.forEach(function (f) { try { res.frames[f.key] = frame(f); } catch (e) { res.frames[f.key] = {error: String(e)}; } });
  MAPS.forEach(function (m) { try { res.maps[m] = covered(m); } catch (e) { res.maps[m] = {error: String(e)}; } });
  document.getElementById('out').textContent = '@@RESULT@@' + JSON.stringify(res) + '@@END@@';
};
"""


def probe(folder: Path, frames: list[Frame], maps: list[Path], area_names: list[str]) -> dict[str, Any]:
    """Open every frame and map in one headless Chromium and return what was measured:
    ``{"frames": {key: {scroll, viewport, pictures: [{loaded, shown, box, seen, region, names: {name:
    height}}]}}, "maps": {path: {names, marks, hits}}}`` (every measure in CSS pixels)."""
    assert CHROMIUM is not None
    body = "".join(f'<iframe id="{f.key}" src="{f.page.resolve().as_uri()}" width="{f.width}" height="900" '
                   'style="border:0;display:block"></iframe>\n' for f in frames)  # fmt: skip
    script = SCRIPT % {"names": json.dumps(sorted(area_names)),
                       "frames": json.dumps([{"key": f.key} for f in frames]),
                       "maps": json.dumps([m.resolve().as_uri() for m in maps])}  # fmt: skip
    page = folder / "probe.html"
    page.write_text(f'<!DOCTYPE html><html><body style="margin:0">\n{body}<pre id="out"></pre>\n'
                    f"<script>{script}</script></body></html>\n", encoding="utf-8")  # fmt: skip
    run = dump_dom(page, folder / "profile", (max(f.width for f in frames) + 40, 1000))
    found = re.search(r"@@RESULT@@(.*?)@@END@@", run.stdout, re.S)
    assert found, run.stderr[-2000:] + run.stdout[-500:]
    result: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    result["maps"] = {m: result["maps"][m.resolve().as_uri()] for m in maps}
    return result
