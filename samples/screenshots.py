"""Screenshots of a late 6-player step's reports at 400 and 1280 pixels, for docs/screenshots/.

    make screenshots      # or: python samples/screenshots.py [--seed N] [--out DIR]

A robot game of six houses is played through the whole product (text, seals, batch runs); the
public report and one house's whole report (its private part joined to the public one) of a late
step are opened in headless Chromium (``apt-get install chromium``), each at a phone's width
(400 px) and a desktop's (1280 px). The pages, with the step's map.svg beside them, are kept too.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.folder import stepreports  # noqa: E402
from adjudicator.reports.report import MAP_FILE, join_html  # noqa: E402
from adjudicator.robots.simulate import simulate  # noqa: E402

WIDTHS = {400: 2600, 1280: 1700}  # width -> the height of the window captured


def chromium() -> str | None:
    """The headless browser, or None."""
    return next((p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p), None)


def browser_run(page: Path, width: int, height: int, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """Open a page in headless Chromium at a window size (``extra``: --screenshot=PNG or --dump-dom)."""
    exe = chromium()
    assert exe is not None
    return subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--window-size={width},{height}", *extra, page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def late_step(game: Path) -> Path:
    """A step late in the game at which a house is asked something (its report has a skeleton)."""
    rendered = game.parent / f".{game.name}-reports"  # the steps' pages as files, to open in a browser
    steps = [stepreports.write_out(s, rendered) for s in stepreports.steps(game)]
    for step in reversed(steps[: len(steps) * 4 // 5]):
        if any("YOUR TURN FILE" in p.read_text(encoding="utf-8") for p in step.glob("*.txt") if p.stem != "public"):
            return step
    return steps[-1]


def pages(step: Path, out: Path) -> dict[str, Path]:
    """The public page and one asked house's whole page of a step, with the map beside them."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(step / MAP_FILE, out / MAP_FILE)
    public = (step / "public.html").read_text(encoding="utf-8")
    house = next(p.stem for p in sorted(step.glob("*.txt"))
                 if p.stem != "public" and "YOUR TURN FILE" in p.read_text(encoding="utf-8"))  # fmt: skip
    (out / "public.html").write_text(public, encoding="utf-8")
    (out / "private.html").write_text(join_html((step / f"{house}.html").read_text(encoding="utf-8"), public),
                                      encoding="utf-8")  # fmt: skip
    return {"public": out / "public.html", "private": out / "private.html"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    if chromium() is None:
        print("headless Chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "late6"
        simulate(6, args.seed, out=game)
        step = late_step(game)
        made = pages(step, args.out)
        for name, page in made.items():
            for width, height in WIDTHS.items():
                png = args.out / f"{name}-{width}.png"
                # Headless Chromium lays a window out at least 500 px wide: the page goes in a frame
                # of the width wanted, so that a phone's 400 px are what the page gets.
                frame = Path(tmp) / f"{name}-{width}.html"
                frame.write_text(f'<!DOCTYPE html><body style="margin:0"><iframe src="{page.resolve().as_uri()}" '
                                 f'width="{width}" height="{height}" style="border:0"></iframe></body>', encoding="utf-8")
                run = browser_run(frame, width, height, Path(tmp) / "profile", f"--screenshot={png}")
                if not png.exists():
                    print(run.stderr[-2000:], file=sys.stderr)
                    return 1
                print(f"wrote {png.relative_to(ROOT)} ({step.name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
