"""Standing instructions: answers that hold from round to round until withdrawn (rulings 353-357).

The games here are played through ``advance`` with every decision before the round under test
taking its deadline default, so that a standing line sent in round 1 meets its decision rounds
later, as it would by mail.
"""

from __future__ import annotations

import itertools

from adjudicator.engine.core.context import SKIPPED, Request, Step, pool_entry
from adjudicator.engine.events import AnswersExpired, AnswerUnusable, AnswerUsed, StandingWithdrawn
from adjudicator.engine.events.westeros import WesterosChoiceMade
from adjudicator.engine.machine import advance
from adjudicator.game.commands import Command, Muster, MusterAction, Standing, WesterosChoice, Withdraw
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.turnfile.parser import parse_turn_file

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def game(deck1: tuple[str, ...] = ("last_days_of_summer", "a_throne_of_blades"),
         deck2: tuple[str, ...] = ("game_of_thrones", "game_of_thrones"),
         deck3: tuple[str, ...] = ("feast_for_crows", "web_of_lies")) -> GameState:
    """A new three-player game whose Westeros decks draw these cards first (round 2, then round 3)."""
    s = new_game(HOUSES, seed="standing")
    s.wildling_threat = 0  # no attack in the rounds played
    for key, cards in (("1", deck1), ("2", deck2), ("3", deck3)):
        deck = s.westeros_decks[key]
        for card in cards:
            deck.remove(card)
        deck[:0] = cards
    return s


def line(house: str, text: str, round: int = 1) -> dict:
    """One answer as the batch run makes it from a turn-file line."""
    cmd = parse_turn_file(text + "\n").commands[0]
    return answer(house, cmd, round)


def answer(house: str, cmd: Command, round: int = 1) -> dict:
    from adjudicator.turnfile.printer import format_command

    return pool_entry(id=f"{house}/{round}.planning/seq{next(_ids)}/L1", house=house, round=round, command=cmd,
                      text=format_command(cmd))


def until(state: GameState, round: int, *answers: dict) -> Step:
    """Advance with ``answers``, every decision before ``round`` taking its default, to the first one of ``round``."""
    return advance(state, list(answers), deadline=lambda r: _round(r) < round)


def _round(r: Request) -> int:
    return int(r.key[1:].split(".", 1)[0])


def standing_ids(state: GameState, house: str) -> list[str]:
    return [a["id"] for a in state.answers if a["house"] == house and a.get("standing")]


# --- the Westeros choice of a dominance token's holder (the first family) ----------------------


def test_ruling_353_a_standing_westeros_choice_decides_rounds_later_and_stays():
    s = game()
    holder = s.holder("iron_throne")
    sent = line(holder, "standing: a throne of blades: supply")
    step = until(s, 3, sent)
    assert step.state.round == 3 and step.state.phase == "planning"  # round 3's Westeros phase asked nothing
    made = [e for e in step.events if isinstance(e, WesterosChoiceMade)]
    assert [(e.house, e.card, e.option) for e in made] == [(holder, "a_throne_of_blades", "supply")]
    used = [e for e in step.events if isinstance(e, AnswerUsed) and sent["id"] in e.ids]
    assert used and used[0].visible_to == holder
    assert standing_ids(step.state, holder) == [sent["id"]]  # not used up, not expired with rounds 1 and 2
    assert not any(isinstance(e, AnswersExpired) and sent["id"] in e.ids for e in step.events)


def test_ruling_353_a_standing_choice_waits_while_another_house_holds_the_token():
    s = game()
    other = next(h for h in HOUSES if h != s.holder("iron_throne"))
    sent = line(other, "standing: a throne of blades: muster")
    step = until(s, 3, sent)
    assert not any(sent["id"] in getattr(e, "ids", ()) for e in step.events)  # neither used nor refused
    assert standing_ids(step.state, other) == [sent["id"]]


def test_ruling_353_a_one_shot_choice_still_lapses_with_its_round():
    s = game()
    holder = s.holder("iron_throne")
    sent = line(holder, "a throne of blades: supply")
    step = until(s, 3, sent)
    assert any(isinstance(e, AnswersExpired) and sent["id"] in e.ids for e in step.events)
    assert not any(isinstance(e, WesterosChoiceMade) and e.option == "supply" for e in step.events)


def test_ruling_353_a_newer_one_shot_answer_wins_over_the_standing_line_which_stays():
    s = game(deck1=("a_throne_of_blades",))
    s.round, s.phase = 3, "westeros"
    holder = s.holder("iron_throne")
    standing = line(holder, "standing: a throne of blades: supply")
    once = line(holder, "a throne of blades: nothing", round=3)
    step = advance(s, [standing, once])
    assert [e.option for e in step.events if isinstance(e, WesterosChoiceMade)] == ["nothing"]
    assert standing_ids(step.state, holder) == [standing["id"]]
    assert once["id"] not in {a["id"] for a in step.state.answers}


def test_ruling_353_withdrawn_a_standing_line_decides_nothing_more():
    s = game()
    holder = s.holder("iron_throne")
    sent = line(holder, "standing: a throne of blades: supply")
    early = until(s, 2, sent)
    gone = line(holder, "withdraw: a throne of blades: supply", round=2)
    step = until(early.state, 3, gone)
    said = [e for e in step.events if isinstance(e, StandingWithdrawn)]
    assert said and said[0].ids == (sent["id"],) and said[0].visible_to == holder and "withdrawn by" in said[0].reason
    assert standing_ids(step.state, holder) == []
    assert step.requests and step.requests[0].kind == "westeros_choice"  # asked as usual


def test_ruling_353_withdraw_all_takes_every_standing_line_of_the_house_only():
    s = game()
    holder = s.holder("iron_throne")
    other = next(h for h in HOUSES if h != holder)
    mine = [line(holder, "standing: a throne of blades: supply"), line(holder, "standing: bid wildlings 0")]
    theirs = line(other, "standing: bid wildlings 1")
    step = advance(s, [*mine, theirs, answer(holder, Withdraw())])
    assert standing_ids(step.state, holder) == [] and standing_ids(step.state, other) == [theirs["id"]]


def test_ruling_353_a_withdrawal_naming_no_standing_line_is_refused_with_the_rule():
    s = game()
    step = advance(s, [line("stark", "withdraw: a throne of blades: supply")])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "ruling 353" in refused[0].reason and refused[0].visible_to == "stark"
    assert not any(a["command"]["type"] == "Withdraw" for a in step.state.answers)


def test_ruling_354_a_later_standing_line_for_the_same_card_replaces_the_earlier():
    s = game()
    holder = s.holder("iron_throne")
    old = line(holder, "standing: a throne of blades: muster")
    new = line(holder, "standing: a throne of blades: supply")
    step = until(s, 3, old, new)
    said = [e for e in step.events if isinstance(e, StandingWithdrawn)]
    assert said and said[0].ids == (old["id"],) and "replaced by" in said[0].reason and "ruling 354" in said[0].reason
    assert [e.option for e in step.events if isinstance(e, WesterosChoiceMade)] == ["supply"]
    assert standing_ids(step.state, holder) == [new["id"]]


def test_ruling_354_standing_lines_for_other_decisions_do_not_replace_each_other():
    s = game()
    holder = s.holder("iron_throne")
    lines = [line(holder, "standing: a throne of blades: muster"), line(holder, "standing: dark wings, dark words: bid"),
             line(holder, "standing: muster in Winterfell: knight"), line(holder, "standing: muster in Winterfell: footman")]
    step = advance(s, lines)
    assert standing_ids(step.state, holder) == [lines[0]["id"], lines[1]["id"], lines[3]["id"]]


def test_ruling_356_a_standing_line_no_decision_could_ever_use_is_refused_when_sent():
    s = game()
    bad = [line("stark", "standing: play tywin lannister"),  # another house's card
           line("stark", "standing: muster in Karhold: footman"),  # no castle
           line("stark", "standing: muster in Winterfell: knight, knight, knight"),  # over a stronghold's 2 points
           answer("stark", Standing(command=WesterosChoice(card="scattering_dissent", option="winterfell+karhold")))]
    step = advance(s, bad)
    refused = {i for e in step.events if isinstance(e, AnswerUnusable) for i in e.ids}
    assert refused == {a["id"] for a in bad}
    reasons = " ".join(e.reason for e in step.events if isinstance(e, AnswerUnusable))
    assert "R192" in reasons and "R067" in reasons and "R068" in reasons and "deck IV" in reasons
    assert standing_ids(step.state, "stark") == []


def test_ruling_355_a_standing_muster_that_no_longer_fits_is_skipped_with_a_word_and_asked():
    s = game(deck1=("last_days_of_summer", "mustering"))
    # Two footmen upgraded in Winterfell, which holds one: legal some day, not now.
    upgrade = MusterAction(unit="knight", upgrade=True)
    sent = answer("stark", Standing(command=Muster(area="winterfell", actions=(upgrade, upgrade))))
    before = [line("baratheon", "standing: muster in Dragonstone: none"),
              line("lannister", "standing: muster in Lannisport: knight"),  # they muster first (R067)
              line("stark", "standing: muster in White Harbor: none")]  # before Winterfell
    step = until(s, 3, *before, sent)
    assert all(any(isinstance(e, AnswerUsed) and a["id"] in e.ids for e in step.events) for a in before)
    skipped = [e for e in step.events if isinstance(e, AnswerUnusable) and sent["id"] in e.ids]
    assert skipped and skipped[0].reason.startswith(SKIPPED) and "R071" in skipped[0].reason
    assert [r.context["area"] for r in step.requests if r.kind == "muster"] == ["winterfell"]  # asked as usual
    assert sent["id"] in standing_ids(step.state, "stark")  # and it still stands


# --- the private report's list, and nothing in the public one ----------------------------------


def test_ruling_353_the_private_report_lists_each_standing_line_with_its_withdrawal_and_the_public_none():
    from adjudicator.reports.report import render_report

    s = game()
    sent = line("stark", "standing: if attacked in Winterfell: play catelyn stark")
    state = advance(s, [sent]).state
    for fmt in ("text", "html", "json"):
        private = render_report(state, [], viewer="stark", fmt=fmt)
        assert "standing: if attacked in Winterfell: play Catelyn Stark" in private
        assert fmt == "json" or "withdraw: if attacked in Winterfell: play Catelyn Stark" in private
        for viewer in (None, "lannister"):
            other = render_report(state, [], viewer=viewer, fmt=fmt).lower()
            assert "if attacked in winterfell" not in other and "standing instructions" not in other
    withdraw = parse_turn_file("withdraw: if attacked in Winterfell: play Catelyn Stark\n").commands[0]
    gone = advance(state, [answer("stark", withdraw)]).state
    assert standing_ids(gone, "stark") == []


def test_ruling_353_a_skipped_standing_line_is_told_in_its_houses_report_of_that_step():
    from adjudicator.reports.verdicts import answer_verdicts, judged

    s = game(deck1=("last_days_of_summer", "mustering"))
    upgrade = MusterAction(unit="knight", upgrade=True)
    sent = answer("stark", Standing(command=Muster(area="winterfell", actions=(upgrade, upgrade))))
    others = [line("baratheon", "standing: muster in Dragonstone: none"),
              line("lannister", "standing: muster in Lannisport: none"), line("stark", "standing: muster in White Harbor: none")]
    step = until(s, 3, *others, sent)
    said = [v for v in judged(answer_verdicts(step.state, step.events, "stark")) if v["id"] == sent["id"]]
    assert said and said[0]["status"] == "refused" and SKIPPED in said[0]["line"] and said[0]["held"]
    assert not [v for v in answer_verdicts(step.state, step.events, "lannister") if v["id"] == sent["id"]]


# --- maester check: the guide's examples, per-line errors, lines a later one replaces ------------


def _guide_blocks(heading: str) -> list[str]:
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "turn-files.md").read_text("utf-8")
    section = guide.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```turn\n(.*?)```", section, re.DOTALL)


def _check(body: str, engine: bool = True) -> object:
    from adjudicator.folder.check import check_turn_file

    state = new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"], seed="check", game_id="g")
    text = "game g · house stark · round 1 · planning · seq 1\n" + body
    return check_turn_file(parse_turn_file(text), state, engine=engine)


def test_ruling_353_maester_check_accepts_every_standing_example_of_the_guide():
    blocks = _guide_blocks("Standing instructions")
    assert len(blocks) >= 2 and sum(b.count("standing:") for b in blocks) >= 10
    for body in blocks:
        if "withdraw" in body:  # a withdrawal names lines the game holds: refused by the engine when it holds none
            assert not _check(body, engine=False).problems  # type: ignore[attr-defined]
            continue
        tf = _check(body)
        assert [p.render() for p in tf.problems] == []  # type: ignore[attr-defined]
        assert [w.code for w in tf.warnings if w.code not in ("W209",)] == []  # type: ignore[attr-defined]


def test_ruling_353_a_line_that_cannot_stand_is_refused_on_its_own_line_and_the_others_stand():
    tf = _check("standing: Winterfell: march +1\nstanding: a throne of blades: muster\n"
                "standing: raid from Winterfell onto none\nstanding: give 1 power to lannister\n", engine=False)
    assert [(p.where.line, p.code) for p in tf.problems] == [(2, "E210"), (4, "E210"), (5, "E210")]  # type: ignore[attr-defined]
    assert len(tf.commands) == 1  # type: ignore[attr-defined]
    assert "cannot stand from round to round" in tf.problems[0].message  # type: ignore[attr-defined]


def test_ruling_356_maester_check_refuses_a_standing_line_that_could_never_fit():
    tf = _check("standing: play tywin lannister\nstanding: muster in Karhold: footman\n")
    assert [(p.where.line, p.code) for p in tf.problems] == [(2, "E420"), (3, "E420")]  # type: ignore[attr-defined]


def test_ruling_354_maester_check_says_which_standing_line_a_later_one_replaces():
    tf = _check("standing: a throne of blades: muster\nstanding: muster in Winterfell: knight\n"
                "standing: a throne of blades: supply\n", engine=False)
    assert [(w.where.line, w.code) for w in tf.warnings] == [(2, "W205")]  # type: ignore[attr-defined]
    assert "replaced by line 4" in tf.warnings[0].message  # type: ignore[attr-defined]


# --- ruling 357: a muster's fall-backs ----------------------------------------------------------


def test_ruling_357_a_muster_takes_its_first_choice_that_can_be_mustered():
    s = game(deck1=("last_days_of_summer", "mustering"))
    first = [line("baratheon", "standing: muster in Dragonstone: upgrade footman to knight, upgrade footman to knight "
                  "else knight else none"),
             line("lannister", "standing: muster in Lannisport: none"), line("stark", "standing: muster in White Harbor: none"),
             line("stark", "standing: muster in Winterfell: upgrade footman to knight, upgrade footman to knight else none")]
    step = until(s, 3, *first)
    from adjudicator.engine.events.westeros import UnitsMustered

    mustered = {(e.house, e.area): (e.placed, e.upgraded) for e in step.events if isinstance(e, UnitsMustered)}
    assert mustered[("baratheon", "dragonstone")] == ((("knight", "dragonstone"),), ())  # one footman there: 2nd choice
    assert mustered[("stark", "winterfell")] == ((), ())  # none
    assert step.state.phase == "planning"


def test_ruling_357_a_muster_with_fall_backs_prints_and_parses_back():
    from adjudicator.turnfile.printer import format_command

    text = "muster in Winterfell: knight else footman else none"
    cmd = parse_turn_file(text + "\n").commands[0]
    assert isinstance(cmd, Muster) and len(cmd.choices()) == 3 and format_command(cmd) == text


def test_ruling_353_maester_check_takes_a_withdrawal_of_a_line_the_game_holds_and_refuses_one_it_does_not():
    from adjudicator.folder.check import check_turn_file

    state = new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"], seed="check", game_id="g")
    state = advance(state, [line("stark", "standing: a throne of blades: muster")]).state
    head = "game g · house stark · round 1 · planning · seq 2 · add\n"
    held = check_turn_file(parse_turn_file(head + "withdraw: a throne of blades: muster\n"), state)
    assert held.problems == ()
    other = check_turn_file(parse_turn_file(head + "withdraw: a throne of blades: supply\n"), state)
    assert [(p.where.line, p.code) for p in other.problems] == [(2, "E420")] and "ruling 353" in other.problems[0].message


def test_ruling_356_a_refused_standing_line_replaces_nothing():
    s = game()
    old = line("stark", "standing: muster in Winterfell: knight")
    bad = line("stark", "standing: muster in Winterfell: knight, knight")  # 4 points: never
    step = advance(s, [old, bad])
    assert standing_ids(step.state, "stark") == [old["id"]]
    assert not [e for e in step.events if isinstance(e, StandingWithdrawn)]
    assert any(isinstance(e, AnswerUnusable) and bad["id"] in e.ids and "R068" in e.reason for e in step.events)


def test_ruling_353_maester_check_accepts_every_expansion_standing_example_of_the_guide():
    """The guide's Mother of Dragons standing lines: a player's (Stark, commanding nobody yet, with
    Arryn a vassal) and Targaryen's, through ``maester check`` in a seven-player expansion game."""
    import re
    from pathlib import Path

    from adjudicator.folder.check import check_turn_file
    from adjudicator.game.variants import variant
    from adjudicator.robots.simulate import sim_houses

    guide = (Path(__file__).resolve().parents[2] / "docs" / "turn-files.md").read_text("utf-8")
    section = guide.split("## Standing instructions", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```turn-mod\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 2 and all(line.startswith("standing: ") for b in blocks for line in b.splitlines())
    state = variant("mother-of-dragons").setup(sim_houses(7, "mother-of-dragons"), seed="check", game_id="g")
    for body in blocks:
        house = "targaryen" if "distribute" in body else "stark"
        text = f"game g · house {house} · round 1 · planning · seq 1\n" + body
        tf = check_turn_file(parse_turn_file(text, variant="mother-of-dragons"), state)
        assert [p.render() for p in tf.problems] == [], house
        assert len(tf.commands) == len(body.splitlines())
