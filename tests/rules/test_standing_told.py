"""What a house is told, word for word, when its standing instructions are replaced or withdrawn
(rulings 353, 354): each line taken out by its own text, the line that took it out, and the rule;
to that house alone."""

from __future__ import annotations

from adjudicator.engine.events import AnswerUnusable, AnswerUsed, StandingWithdrawn
from adjudicator.engine.machine import advance
from adjudicator.engine.rules.standing import standing_of_other_keys
from adjudicator.game.commands import Withdraw

from .test_standing import answer, game, line, standing_ids


def test_ruling_354_the_replaced_standing_line_is_told_by_its_text_with_the_line_replacing_it():
    s = game()
    holder = s.holder("iron_throne")
    old = line(holder, "standing: a throne of blades: muster")
    new = line(holder, "standing: a throne of blades: supply")
    step = advance(s, [old, new])
    said = [e for e in step.events if isinstance(e, StandingWithdrawn)]
    assert [(e.house, e.answers, e.ids, e.visible_to) for e in said] == [(holder, (old["text"],), (old["id"],), holder)]
    assert said[0].reason == f'replaced by "{new["text"]}", a later standing line for the same decision (ruling 354)'
    assert standing_ids(step.state, holder) == [new["id"]]


def test_ruling_353_withdraw_all_is_used_and_tells_each_line_it_takes_out_by_its_text():
    s = game()
    holder = s.holder("iron_throne")
    mine = [line(holder, "standing: a throne of blades: supply"), line(holder, "standing: bid wildlings 0")]
    gone = answer(holder, Withdraw())
    step = advance(s, [*mine, gone])
    used = [e for e in step.events if isinstance(e, AnswerUsed) and gone["id"] in e.ids]
    assert [(e.house, e.decision, e.answer, e.visible_to) for e in used] == [
        (holder, "withdraw standing instructions", gone["text"], holder)]
    said = [e for e in step.events if isinstance(e, StandingWithdrawn)]
    assert [(e.answers, e.ids, e.visible_to) for e in said] == [
        (tuple(m["text"] for m in mine), tuple(m["id"] for m in mine), holder)]
    assert said[0].reason == f'withdrawn by "{gone["text"]}" (ruling 353)'


def test_ruling_353_a_withdrawal_finding_nothing_says_whether_it_named_a_line_or_all():
    s = game()
    named = line("stark", "withdraw: a throne of blades: supply")
    every = answer("stark", Withdraw())
    step = advance(s, [named, every])
    refused = {e.ids: e.reason for e in step.events if isinstance(e, AnswerUnusable)}
    tail = " reads so: your private report lists each one with the line that withdraws it (ruling 353)"
    assert refused[(named["id"],)] == "none of your standing instructions" + tail
    assert refused[(every["id"],)] == "no standing instruction of yours" + tail


def test_ruling_354_another_houses_standing_line_for_the_same_decision_replaces_nothing():
    s = game()
    stark, lannister = line("stark", "standing: bid wildlings 0"), line("lannister", "standing: bid wildlings 1")
    step = advance(s, [stark, lannister])
    assert standing_ids(step.state, "stark") == [stark["id"]] and standing_ids(step.state, "lannister") == [lannister["id"]]
    assert not [e for e in step.events if isinstance(e, StandingWithdrawn)]


def test_ruling_358_the_lines_a_new_key_ends_are_told_by_their_text_to_their_house():
    old = {"id": "stark/1", "house": "stark", "standing": True, "key": "OLD", "text": "standing: bid wildlings 0"}
    unsealed = {"id": "stark/2", "house": "stark", "standing": True, "text": "standing: bid wildlings 1"}
    theirs = {"id": "lannister/1", "house": "lannister", "standing": True, "key": "OLD", "text": "standing: bid wildlings 2"}
    kept, told = standing_of_other_keys([old, unsealed, theirs], "stark", "NEW")
    assert kept == [unsealed, theirs]
    assert [(e.house, e.answers, e.ids, e.visible_to) for e in told] == [
        ("stark", ("standing: bid wildlings 0",), ("stark/1",), "stark")]
    assert "ruling 358" in told[0].reason


def test_M030_ruling_354_a_commanders_own_standing_line_does_not_replace_the_one_it_sent_for_its_vassal():
    from adjudicator.engine.core.context import pool_entry
    from adjudicator.engine.rules.standing import standing_changes
    from adjudicator.game.commands import Casualties, ForVassal, Standing, UnitSpec
    from adjudicator.game.variants import variant
    from adjudicator.robots.simulate import sim_houses

    s = variant("mother-of-dragons").setup(sim_houses(7, "mother-of-dragons"), seed="rule-ids-mod", game_id="g")
    assert s.vassals == ["arryn"]
    lose = Casualties(units=(UnitSpec("footman", 1),))
    for_arryn = pool_entry(id="stark/1", house="stark", round=1, command=Standing(command=ForVassal(vassal="arryn", command=lose)))
    own = pool_entry(id="stark/2", house="stark", round=1, command=Standing(command=lose))
    kept, told = standing_changes(s, s.board(), [for_arryn, own], {"stark/1", "stark/2"})
    assert [k["id"] for k in kept] == ["stark/1", "stark/2"] and not told


def test_ruling_353_a_line_written_after_a_withdrawal_in_the_same_batch_still_counts():
    s = game()
    holder = s.holder("iron_throne")
    old = line(holder, "standing: a throne of blades: muster")
    gone, new = answer(holder, Withdraw()), line(holder, "standing: bid wildlings 0")
    step = advance(s, [old, gone, new])
    assert standing_ids(step.state, holder) == [new["id"]]
