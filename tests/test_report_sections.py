"""A step's reports cut into sections (adjudicator/reports/sections.py), for the mail's own order (ruling 310)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from clikit import reports_of
from mail import shapes
from mail.loopback import game, reported  # noqa: F401

from adjudicator.reports.sections import TEXT_HEADINGS, TITLE, html_sections, text_sections

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
HEADING = re.compile(r"^[A-Z*][A-Z' *]{3,}")  # a line of capitals at column 0: how every heading looks


def sample_reports() -> list[Path]:
    return sorted(p for p in SAMPLES.glob("*/expected/*/*.txt"))


def test_ruling_310_a_text_report_cut_and_joined_again_is_the_report() -> None:
    paths = sample_reports()
    assert len(paths) > 50
    for path in paths:
        text = path.read_text()
        sections = text_sections(text)
        assert "".join(s.text for s in sections) == text, path
        assert sections[0].name == TITLE, path


def test_ruling_310_every_heading_of_the_reports_begins_a_known_section() -> None:
    """A heading the templates write and the list does not know would be cut into the section before."""
    names = set(TEXT_HEADINGS.values()) | {TITLE}
    for path in sample_reports():
        for section in text_sections(path.read_text()):
            assert section.name in names
            lines = section.text.split("\n")
            for before, line in itertools.pairwise(lines):
                assert not (before == "" and HEADING.match(line) and not line.startswith("=")), (path, line)


def test_ruling_310_a_house_report_has_its_sections_in_both_formats(game: Path) -> None:
    folder = next(reports_of(game).glob("0000-*"))
    for who in ("stark", "public"):
        text = [s.name for s in text_sections((folder / f"{who}.txt").read_text())]
        page = [s.name for s in html_sections((folder / f"{who}.html").read_text())]
        assert text[0] == TITLE and sorted(text[1:]) == sorted(set(page) - {"map"}), (who, text, page)
    stark = [s.name for s in text_sections((folder / "stark.txt").read_text())]
    assert stark == [TITLE, "decisions", "turn-file", "hand"]
    public = [s.name for s in text_sections((folder / "public.txt").read_text())]
    assert public == [TITLE, "events", "needed", "board", "houses", "tracks", "wildlings", "cards", "keys", "seed"]
    assert shapes.HOUSES  # the game of the mail tests: three houses, step 0000
