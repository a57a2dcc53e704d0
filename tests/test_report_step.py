"""Every report of a step at once: the same bytes as one report at a time, the shared part built once.

:func:`adjudicator.reports.report.render_reports` builds the part every reader sees once per step and
each viewer's view once for both formats; :func:`adjudicator.reports.templating.wrap` remembers what it
wrapped. Neither may change a byte of any report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clikit import reports_of

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.core.context import Request
from adjudicator.engine.events import PUBLIC, AnswerUnusable, PhaseStarted
from adjudicator.game.commands import Raid
from adjudicator.game.setup import new_game
from adjudicator.game.state import Order
from adjudicator.reports import report, templating
from adjudicator.reports.report import ReportError, render_report, render_reports
from adjudicator.robots.simulate import simulate

HOUSES = ["stark", "lannister", "baratheon"]


def _position():
    state = new_game(HOUSES, seed="step-reports", game_id="demo")
    state.area_mut("winterfell").order = Order("stark", "raid")
    events = [
        PhaseStarted(round=1, phase="action"),
        PowerChanged(house="stark", amount=2, cause="a secret of Stark's", power=7, visible_to="stark"),
        AnswerUnusable(house="lannister", answer="bid fiefdoms 9", reason="too much", visible_to="lannister"),
        PowerChanged(house="baratheon", amount=-1, cause="public", power=4, visible_to=PUBLIC),
    ]
    requests = [Request(key="r1.action.1.raid.stark", kind="raid", house="stark", prompt="resolve your raid order",
                        options=(Raid(origin="winterfell", targets=()),), default=Raid(origin="winterfell", targets=()))]
    return state, events, requests


def test_every_report_of_a_step_is_the_one_render_report_gives_alone():
    state, events, requests = _position()
    kw = {"requests": requests, "fingerprints": {"stark": ["SHA256:abc"]}, "last_seqs": {"stark": 2}}
    viewers = [None, *HOUSES]
    pages = render_reports(state, events, viewers=viewers, formats=["text", "html", "json"], **kw)
    assert sorted(pages, key=str) == sorted(((v, f) for v in viewers for f in ("text", "html", "json")), key=str)
    for (viewer, fmt), page in pages.items():
        assert page == render_report(state, events, viewer=viewer, fmt=fmt, **kw), (viewer, fmt)
    assert "a secret of Stark's" in pages[("stark", "text")] and "a secret of Stark's" not in pages[(None, "text")]
    assert "a secret of Stark's" not in pages[("lannister", "html")]


def test_a_robot_game_gives_the_same_reports_all_at_once_as_one_at_a_time(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path):  # fmt: skip
    """Each step's reports are rendered together; every page equals the one rendered alone."""
    real = report.render_reports
    compared = 0

    def check(state, events, **kw):
        nonlocal compared
        pages = real(state, events, **kw)
        alone = {k: v for k, v in kw.items() if k not in ("viewers", "formats")}
        for (viewer, fmt), page in pages.items():
            one = real(state, events, viewers=[viewer], formats=[fmt], **alone)  # as render_report renders it
            assert page == one[(viewer, fmt)], (state.round, state.phase, viewer, fmt)
            compared += 1
        return pages

    monkeypatch.setattr(report, "render_reports", check)
    result = simulate(3, 11, rounds=1, out=tmp_path / "g")
    reports_of(tmp_path / "g")  # every step's pages rendered from its record, through the check
    assert result.problems == [] and compared > 60


def test_an_unknown_format_or_viewer_is_refused_before_anything_is_rendered():
    state, events, _ = _position()
    with pytest.raises(ReportError, match="unknown report format 'pdf'"):
        render_reports(state, events, viewers=[None], formats=["text", "pdf"])
    with pytest.raises(ReportError, match="house 'tyrell' is not in this game"):
        render_reports(state, events, viewers=[None, "tyrell"], formats=["text"])


@pytest.mark.parametrize(
    "args",
    [("one two three four", 10, "  "), ("", 20, "  ", "  - "), ("x" * 30, 10), (12345, 3), ("a b", 78, "", "   ")],
)
def test_wrap_gives_what_textwrap_gives_the_first_time_and_every_time_after(args):
    expected = templating._wrap(str(args[0]), *(list(args[1:]) + [78, "", ""][len(args) - 1 :]))
    assert templating.wrap(*args) == expected
    assert templating.wrap(*args) == expected


def test_wrap_remembers_a_paragraph_it_wrapped_and_takes_a_value_it_cannot_remember():
    templating._wrapped.cache_clear()
    templating.wrap("the same paragraph, again and again", 20, "  ")
    templating.wrap("the same paragraph, again and again", 20, "  ")
    assert templating._wrapped.cache_info().hits == 1
    assert templating.wrap(["a", "list"], 78) == "['a', 'list']"
