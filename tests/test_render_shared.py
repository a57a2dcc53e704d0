"""What rendering remembers from one report to the next never changes a byte (issue 17).

A step's reports share their parts, and a process remembers what it worked out for earlier steps:
the wrapped paragraphs, the cards' texts, the turn-file comments, the map's panel of tracks. Each
of these is checked here against the same thing worked out afresh, on whole robot games (with and
without Mother of Dragons) and on hostile input.
"""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest
from clikit import reports_of
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.game.cards import CARDS
from adjudicator.reports import cardtext, report, words
from adjudicator.robots.simulate import simulate


def _clean_as_it_was(text: object) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in str(text))


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.integers() | st.none())
def test_clean_gives_what_it_always_gave(text):
    assert words.clean(text) == _clean_as_it_was(text)


def test_clean_turns_control_characters_and_line_breaks_into_spaces():
    assert words.clean("raid\x1b[2J from\nPyke\r\u2028x\u00ad") == "raid [2J from Pyke  x "


@given(st.text(alphabet=" abcdefghij#-", max_size=200), st.integers(min_value=10, max_value=100))
def test_a_comment_wraps_as_textwrap_wraps_it_the_first_time_and_every_time_after(text, width):
    expected = textwrap.wrap(text, width, subsequent_indent="#   ", break_long_words=False, break_on_hyphens=False)
    assert words.comment_lines(text, width) == expected
    again = words.comment_lines(text, width)
    assert again == expected
    again.append("changed by a caller")  # each caller gets its own list: the remembered one stays as it was
    assert words.comment_lines(text, width) == expected


def _every_card_reference() -> list[str]:
    refs = list(CARDS.house_cards)
    refs += [f"westeros:{c.deck}:{c.id}" for c in CARDS.westeros]
    refs += [f"wildling:{c}" for c in CARDS.wildling_cards] + [f"tides:{c}" for c in CARDS.tides]
    return refs + ["no_such_card", "westeros:9:nothing", "westeros:x:y", "wildling:nobody", "tides:none", ""]


def test_a_cards_text_remembered_is_the_text_worked_out_for_every_card():
    cardtext.clear_caches()
    for ref in _every_card_reference():
        fresh = cardtext._card_text(ref)
        assert cardtext.card_text(ref) == fresh, ref
        assert cardtext.card_text(ref) == fresh, ref  # the second time from memory


def test_a_card_reference_that_cannot_be_remembered_is_worked_out_as_it_comes():
    with pytest.raises(AttributeError):  # not a string at all: the same error as before, no cache in the way
        cardtext.card_text(["robb_stark"])  # type: ignore[arg-type]


def _render_every_step(monkeypatch: pytest.MonkeyPatch, out: Path, **game: object) -> int:
    """Play a robot game, its caches warm from step to step as a process keeps them; then render
    every step's pages and map again from scratch, caches cleared, and compare the bytes."""
    real_reports, real_map = report.render_reports, report.render_step_map
    calls: list[tuple[object, object, object, dict[str, object], object]] = []

    def recorded(real):
        def render(state, events, **kw):
            out = real(state, events, **kw)
            calls.append((real, copy.deepcopy(state), list(events), kw, out))
            return out
        return render

    monkeypatch.setattr(report, "render_reports", recorded(real_reports))
    monkeypatch.setattr(report, "render_step_map", recorded(real_map))
    result = simulate(**game, out=out)  # type: ignore[arg-type]
    assert result.problems == []
    reports_of(out)  # every step's pages rendered from its record in this process, one step after another
    for real, state, events, kw, warm in calls:
        report.clear_caches()
        assert real(state, events, **kw) == warm, (state.round, state.phase)
    return sum(len(out) if isinstance(out, dict) else 1 for *_, out in calls)


def test_every_page_of_a_robot_game_is_what_a_fresh_process_would_render(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path):  # fmt: skip
    assert _render_every_step(monkeypatch, tmp_path / "g", players=4, seed=3, rounds=4, tides_of_battle=True) > 300


def test_every_page_of_a_mother_of_dragons_game_is_what_a_fresh_process_would_render(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # fmt: skip
    assert _render_every_step(monkeypatch, tmp_path / "g", players=7, seed=3, rounds=2, expansion="mother-of-dragons") > 200
