"""Ruling 313: a reader is mailed when there is something to tell it, and only then."""

from __future__ import annotations

from pathlib import Path

import pytest
from mail import shapes
from mail.loopback import game, reported  # noqa: F401
from test_digest import orders

from adjudicator.engine.events import EVENT_TYPES, event_type
from adjudicator.mail import news
from adjudicator.mail.digest import Asked, Digest, StepPart
from adjudicator.mail.outbox import OutboxError, mark_sent, write_outbox
from adjudicator.reports.sections import Section

MOD = shapes.MODERATOR


def test_ruling_313_every_event_named_as_news_is_an_event_of_the_game() -> None:
    for name in news.STORY | news.OWN:
        assert event_type(name).__name__ == name and name in EVENT_TYPES


def step(*public: tuple[str, str], private: tuple[tuple[str, str], ...] = (), receipts: tuple[str, ...] = (),
         judged: int = 0) -> StepPart:  # fmt: skip
    return StepPart("0005-r2-action", public_events=public, private_events=private, receipts=receipts, judged=judged)


def test_ruling_313_a_raid_or_another_house_answering_is_no_news_by_itself() -> None:
    d = Digest("stark", steps=[step(("RaidResolved", "lannister"), ("UnitsMoved", "lannister"))])
    assert news.reasons(d, told=set(), every=False) == []
    assert news.reasons(d, told=set(), every=True) == ["step 0005"], "every_step: each step that tells something"
    assert news.reasons(Digest("stark", steps=[step()]), told=set(), every=True) == [], "never a step of nothing"


@pytest.mark.parametrize("event", ["PhaseStarted", "GameWon", "CivilDisorder", "PlayerLeft"])
def test_ruling_315_the_story_moving_to_its_next_chapter_is_news_for_every_reader(event: str) -> None:
    for who in ("stark", "moderator", "public"):
        assert news.reasons(Digest(who, steps=[step((event, ""))]), told=set(), every=False) == ["step 0005"]


@pytest.mark.parametrize("event", ["OrdersRevealed", "CombatResolved", "HouseCardsRevealed", "BidsRevealed",
                                   "WesterosCardRevealed", "WildlingCardRevealed", "WildlingAttackResolved"])  # fmt: skip
def test_ruling_315_what_happens_within_a_phase_rides_with_the_next_mail(event: str) -> None:
    """A combat fought, bids or cards revealed: told with the reader's next mail (a decision asked of
    it, a receipt, the next phase), not in a mail of its own; with every_step, a mail of its own."""
    for who in ("stark", "moderator", "public"):
        assert news.reasons(Digest(who, steps=[step((event, ""))]), told=set(), every=False) == []
        assert news.reasons(Digest(who, steps=[step((event, ""))]), told=set(), every=True) == ["step 0005"]
    asked = [Asked("r2.action.4.raid.stark", "raid", "resolve one of your raid orders")]
    assert news.reasons(Digest("stark", asked=asked, steps=[step((event, ""))]), told=set(), every=False) == ["asked"]


def told(chars: int, number: int = 5) -> StepPart:
    """A step of a march, no news by itself, whose public events take ``chars`` characters of text."""
    events = Section("events", "WHAT HAPPENED\n" + "x" * (chars - len("WHAT HAPPENED\n")))
    return StepPart(f"{number:04d}-r2-action", public_events=(("UnitsMoved", "lannister"),), public_text=(events,))


def test_ruling_328_the_moderator_and_a_list_are_mailed_once_the_story_waiting_is_long() -> None:
    half = news.LONG_STORY // 2
    for who in ("moderator", "public"):
        assert news.reasons(Digest(who, steps=[told(half), told(half - 1, 6)]), told=set(), every=False) == []
        long = Digest(who, steps=[told(half), told(half, 6)])
        assert news.reasons(long, told=set(), every=False) == ["a long story"]
    for house in ("stark", "lannister"):  # a house is mailed when asked: its mails stay as ruling 315 counts them
        assert news.reasons(Digest(house, steps=[told(news.LONG_STORY * 3)]), told=set(), every=False) == []


def test_ruling_328_only_the_public_events_count_toward_a_long_story() -> None:
    quiet = StepPart("0005-r2-action", public_text=(Section("board", "x" * news.LONG_STORY * 2),))
    assert news.reasons(Digest("moderator", steps=[quiet, told(news.LONG_STORY - 1, 6)]), told=set(), every=False) == []


def test_ruling_313_a_default_taken_is_news_for_its_house_only() -> None:
    taken = step(("DefaultUsed", "greyjoy"))
    assert news.reasons(Digest("greyjoy", steps=[taken]), told=set(), every=False) == ["step 0005"]
    assert news.reasons(Digest("stark", steps=[taken]), told=set(), every=False) == []


def test_ruling_313_a_decision_is_news_once_and_a_receipt_always() -> None:
    asked = [Asked("r2.action.4.raid.stark", "raid", "resolve one of your raid orders")]
    assert news.reasons(Digest("stark", asked=asked), told=None, every=False) == ["asked"], "no mail before"
    assert news.reasons(Digest("stark", asked=asked), told=set(), every=False) == ["asked"]
    assert news.reasons(Digest("stark", asked=asked), told={"r2.action.4.raid.stark"}, every=False) == []
    receipt = Digest("stark", asked=asked, steps=[step(receipts=("Receipt for archive/000031-stark-...",))])
    assert news.reasons(receipt, told={"r2.action.4.raid.stark"}, every=False) == ["receipt"]
    refused = Digest("stark", notices=[("refused/0031-x-stark.txt", "...")])
    assert news.reasons(refused, told=set(), every=False) == ["receipt"]
    undone = Digest("stark", undone=[{"to": 3, "through": 4, "reason": "r"}])
    assert news.reasons(undone, told=set(), every=False) == ["undone"]
    assert news.reasons(Digest("moderator", untaken=["x"]), told=set(), every=False) == ["for the moderator"]


def test_ruling_313_the_setting_is_read_from_game_toml(game: Path) -> None:
    assert news.every_step({}) is False and news.every_step({"mail": {"every_step": True}}) is True
    (game / "game.toml").write_text((game / "game.toml").read_text() + '\n[mail]\nevery_step = "yes"\n')
    with pytest.raises(OutboxError, match=r"\[mail\] every_step = 'yes' is not valid: give true"):
        write_outbox(game, key=MOD)
    assert not (game / "outbox").exists(), "a bad setting writes nothing"


@pytest.mark.parametrize("every", [False, True])
def test_ruling_313_every_step_true_mails_each_step_that_tells_its_reader_something(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every: bool) -> None:  # fmt: skip
    """The orders revealed, counted as no news here: Stark, asked nothing, waits by default, and is
    mailed with ``[mail] every_step = true``."""
    if every:
        (game / "game.toml").write_text((game / "game.toml").read_text() + "\n[mail]\nevery_step = true\n")
    orders(game, tmp_path, ["stark"])
    write_outbox(game, key=MOD)
    mark_sent(game)
    orders(game, tmp_path, ["lannister", "baratheon"])
    monkeypatch.setattr(news, "STORY", frozenset())
    written = sorted(w.split()[0] for w in write_outbox(game, key=MOD).written)
    assert written == ["baratheon.eml", "lannister.eml", *(["moderator.eml", "stark.eml"] if every else [])]
