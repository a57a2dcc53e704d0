"""Every public report of a robot game is a function of public facts only.

The batch run renders each step's public reports from the full state and every event. Rendering
it again from a copy stripped of everything secret - the answers pool, the half-resolved phase,
the order of every deck, the private events, the options offered to each house - must give the
same bytes, in text, HTML and JSON. So no hidden card, early bid, raven's look or pool answer can
reach a public report, whatever the game.
"""

from __future__ import annotations

import pytest
from clikit import reports_of

from adjudicator.engine.core.context import Request
from adjudicator.reports import report
from adjudicator.robots.simulate import simulate


def _public_only(state, events, requests):
    st = state.copy()
    st.answers, st.segment = [], None
    st.westeros_decks = {k: list(reversed(v)) for k, v in st.westeros_decks.items()}
    st.wildling_deck = list(reversed(st.wildling_deck))
    st.tides_deck = list(reversed(st.tides_deck))
    st.pending = [{k: p[k] for k in ("key", "kind", "house", "prompt", "secret") if k in p} for p in st.pending]
    reqs = [Request(key=r.key, kind=r.kind, house=r.house, prompt=r.prompt, secret=r.secret) for r in requests or ()]
    return st, [e for e in events if e.is_public()], reqs


@pytest.mark.parametrize("players,seed,tides", [(4, 31, False), (6, 32, True)])
def test_public_reports_of_a_robot_game_depend_on_public_facts_only(monkeypatch, players, seed, tides, tmp_path):
    real = report.render_reports
    checked = {"text": 0, "html": 0, "json": 0}
    private_events = 0

    def spy(state, events, **kw):
        nonlocal private_events
        out = real(state, events, **kw)
        for (viewer, fmt), page in out.items():
            if viewer is not None:
                continue
            st, evs, reqs = _public_only(state, events, kw.get("requests"))
            private_events += len(events) - len(evs)
            again = real(st, evs, **{**kw, "viewers": [None], "formats": [fmt], "requests": reqs})[(None, fmt)]
            assert again == page, f"the public {fmt} report of round {state.round} {state.phase} shows a secret"
            checked[fmt] += 1
        return out

    real_map = report.render_step_map

    def map_spy(state, events, **kw):  # the step's one map, shared by every reader
        svg = real_map(state, events, **kw)
        st, evs, _ = _public_only(state, events, None)
        assert real_map(st, evs, **kw) == svg, f"the map of round {state.round} {state.phase} shows a secret"
        checked["map"] += 1
        return svg

    checked["map"] = 0
    monkeypatch.setattr(report, "render_reports", spy)
    monkeypatch.setattr(report, "render_step_map", map_spy)
    result = simulate(players, seed, rounds=2, tides_of_battle=tides, chaos=0.2, out=tmp_path / "g")
    assert result.problems == []
    reports_of(tmp_path / "g")  # every step's pages rendered from its record, through the spies
    assert min(checked.values()) >= 10, checked
    assert private_events > 0, "the game must have had secrets for the check to mean anything"


def test_the_check_catches_a_leak(monkeypatch):
    """The comparison above is not vacuous: a renderer that showed the answers pool would fail it."""
    from adjudicator.game.setup import new_game

    state = new_game(["stark", "lannister", "baratheon"], seed="leak")
    state.answers = [{"id": "x", "house": "stark", "round": 1, "text": "bid fiefdoms 4",
                      "command": {"type": "Bid", "track": "fiefdoms", "amount": 4}}]
    st, evs, _ = _public_only(state, [], [])
    assert report.render_report(state, [], viewer=None, fmt="json") == report.render_report(st, evs, viewer=None, fmt="json")
    monkeypatch.setattr(report, "public_state", lambda s, **kw: {"answers": s.answers})
    assert report.render_report(state, [], viewer=None, fmt="json") != report.render_report(st, evs, viewer=None, fmt="json")
