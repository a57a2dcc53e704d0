"""Each kind of standing instruction (ruling 353): kept from round to round, withdrawn, replaced by a
later line for the same decision, never seen by another house; and used by robots' games rounds
after it was sent. The engine's decisions themselves are tested in tests/rules/test_standing*.py."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from adjudicator.engine.core.context import SKIPPED, pool_entry
from adjudicator.engine.events import AnswerUnusable, AnswerUsed, StandingWithdrawn
from adjudicator.engine.machine import advance
from adjudicator.game.state import GameState
from adjudicator.game.variants import variant
from adjudicator.robots import simulate as sim
from adjudicator.robots.simulate import sim_houses
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

_ids = itertools.count(1)
MOD = "mother-of-dragons"

# Per kind: a standing line, a later one for the same decision (which replaces it), and whose lines they are.
KINDS = {
    "westeros_choice": ("stark", "a throne of blades: muster", "a throne of blades: supply"),
    "muster": ("stark", "muster in Winterfell: knight", "muster in Winterfell: footman else none"),
    "reconcile": ("stark", "supply: destroy footman in White Harbor", "supply: destroy footman in Winterfell"),
    "bid": ("stark", "bid wildlings 1", "bid wildlings 0"),
    "tie_break": ("stark", "tie-break: stark, lannister, greyjoy", "tie-break: lannister, stark, greyjoy"),
    "wildling_choice": ("stark", "a king beyond the wall: fiefdoms", "a king beyond the wall: king's court"),
    "combat": ("stark", "if attacked in Winterfell: play catelyn stark", "if attacked in Winterfell: play eddard stark"),
    "support": ("stark", "support stark in every combat", "support none in every combat"),
    "interest": ("stark", "interest for Lannister: destroy footman in Lannisport",
                 "interest for Lannister: destroy knight in Lannisport"),
    "vassal_choice": ("stark", "command arryn else none", "command arryn"),
    "loyalty_move": ("stark", "scattering dissent: King's Landing, Blackwater", "scattering dissent: King's Landing, Kingswood"),
    "distribute": ("targaryen", "distribute fiefdoms: 1 to stark", "distribute fiefdoms: 1 to lannister"),
    "vassal_muster": ("stark", "for arryn: muster in The Eyrie: footman", "for arryn: muster in The Eyrie: knight"),
    # The other combat answers: a refusal of support names all there is to its decision, so only the same
    # line again replaces it.
    "refuse_support": ("stark", "refuse support from lannister", "refuse support from lannister"),
    "card_choice": ("stark", "Robb Stark: retreat to Karhold", "Robb Stark: retreat to White Harbor"),
    "blade": ("stark", "use blade", "keep blade"),
    "casualties": ("stark", "if attacked in Winterfell: casualties: footman",
                   "if attacked in Winterfell: casualties: knight"),
    "retreat": ("stark", "if attacked in Winterfell: retreat to Castle Black", "if attacked in Winterfell: retreat to Karhold"),
    "port_ships": ("stark", "Port of Winterfell: take over 1 ship", "Port of Winterfell: take over 2 ships"),
}


def _game() -> GameState:
    return variant(MOD).setup(sim_houses(7, MOD), seed="kinds", game_id="g")


def _line(house: str, text: str) -> dict:
    tf = parse_turn_file(text + "\n", variant=MOD)
    assert not tf.problems, [p.render() for p in tf.problems]
    cmd = tf.commands[0]
    return pool_entry(id=f"{house}/1.planning/seq{next(_ids)}/L1", house=house, round=1, command=cmd,
                      text=format_command(cmd))


def _held(state: GameState, house: str) -> list[str]:
    return [a["id"] for a in state.answers if a["house"] == house and a.get("standing")]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ruling_353_a_standing_line_of_each_kind_is_kept_withdrawn_and_replaced(kind: str) -> None:
    house, first, second = KINDS[kind]
    state = _game()
    old = _line(house, "standing: " + first)
    kept = advance(state, [old]).state
    assert _held(kept, house) == [old["id"]], kind
    assert not [e for e in advance(state, [old]).events if isinstance(e, AnswerUnusable)], kind
    # withdrawn: by its line, and the withdrawal's verdict is its house's alone
    gone = advance(kept, [_line(house, "withdraw: " + first)])
    assert _held(gone.state, house) == [] and all(e.visible_to == house for e in gone.events
                                                  if isinstance(e, (StandingWithdrawn, AnswerUsed)))
    # replaced: a later standing line for the same decision
    new = _line(house, "standing: " + second)
    replaced = advance(kept, [new])
    assert _held(replaced.state, house) == [new["id"]], kind
    said = [e for e in replaced.events if isinstance(e, StandingWithdrawn)]
    assert [e.ids for e in said] == [(old["id"],)] and "ruling 354" in said[0].reason


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ruling_353_a_standing_line_never_appears_in_a_public_report_or_another_houses(kind: str) -> None:
    from adjudicator.reports.report import render_report

    house, first, _ = KINDS[kind]
    state = advance(_game(), [_line(house, "standing: " + first)]).state
    text = format_command(parse_turn_file(first + "\n", variant=MOD).commands[0])
    assert text in render_report(state, [], viewer=house)
    for viewer in (None, next(h for h in state.players() if h != house)):
        for fmt in ("text", "html", "json"):
            assert text not in render_report(state, [], viewer=viewer, fmt=fmt), (kind, viewer, fmt)


def _kinds_used_later(players: int, seed: int, expansion: str | None, rounds: int) -> tuple[Counter[str], Counter[str]]:
    """The standing lines of a robot game used in a round after they were sent, and those skipped, by kind."""
    sent: dict[str, tuple[int, str]] = {}
    used: Counter[str] = Counter()
    skipped: Counter[str] = Counter()

    def watching(state, answers=(), *, deadline=False, board=None):  # type: ignore[no-untyped-def]
        sent.update({a["id"]: (a["round"], a["command"]["type"]) for a in answers if a.get("standing")})
        step = advance(state, answers, deadline=deadline, board=board)
        for e in step.events:
            for i in (i for i in getattr(e, "ids", ()) if i in sent):
                if isinstance(e, AnswerUsed) and step.state.round > sent[i][0]:
                    used[sent[i][1]] += 1
                if isinstance(e, AnswerUnusable) and e.reason.startswith(SKIPPED):
                    skipped[sent[i][1]] += 1
        return step

    real = sim.advance
    sim.advance = watching
    try:
        result = sim.simulate(players, seed, text=False, chaos=0.0, ahead=True, standing=True, expansion=expansion,
                              rounds=rounds)
    finally:
        sim.advance = real
    assert result.problems == []
    return used, skipped


def test_ruling_353_robots_standing_lines_decide_rounds_after_they_were_sent() -> None:
    used, skipped = _kinds_used_later(4, 1, None, 10)
    assert {"WesterosChoice", "Muster", "Bid", "TieBreak", "WildlingChoice"} <= set(used), used
    assert skipped, "a line that did not fit was skipped (ruling 355)"
    used = Counter()  # two whole games: which kinds a single game's cards and debts call for is chance
    for seed in (1, 2):
        used += _kinds_used_later(7, seed, MOD, 10)[0]
    assert {"WesterosChoice", "CommandVassal", "Muster", "Bid", "InterestLosses", "DistributeBid"} <= set(used), used


def test_robots_with_standing_instructions_need_fewer_mail_rounds_than_robots_answering_ahead() -> None:
    for players, seed, box in ((4, 1, None), (7, 1, MOD)):
        ahead = sim.simulate(players, seed, text=False, chaos=0.0, ahead=True, expansion=box, rounds=6)
        standing = sim.simulate(players, seed, text=False, chaos=0.0, ahead=True, standing=True, expansion=box, rounds=6)
        assert ahead.problems == [] and standing.problems == []
        assert len(standing.mail_rounds) < len(ahead.mail_rounds)
