"""Deadlines as dates: the schedule, due times in status, --deadline for past-due requests only,
extensions, follow-up defaults in the same run, reminders and civil disorder (rulings 110-115).

The batch runs use the toy game of ``test_batch`` (a secret bid per house in planning, an open bid
per house in turn in action, two rounds); the log's clock is set by the tests, and ``--now`` is the
moderator's clock. One test plays the real rules: the raven asked of a house that missed its orders.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from clikit import report_text, reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from test_batch import HOUSES, drop, planning_bids, run, sealed, state_of, toy, tree  # noqa: F401  (toy: a fixture)

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, deadlines, ledger, registry, stepreports
from adjudicator.folder.gamedir import GameDir, GameDirError, create_game
from adjudicator.folder.schedule import Schedule, ScheduleError, add_hours, parse_time
from adjudicator.mail import outbox, reminders
from adjudicator.mail.outbox import OutboxError, SmtpServer
from adjudicator.mail.recipe import written_mail
from adjudicator.reports.sections import pick, text_sections
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


class LogClock:
    """The time the game's log stamps its lines with (when a step is asked), set by the test."""

    def __init__(self) -> None:
        self.now = T0

    def set(self, hours: float) -> None:
        self.now = at(hours)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> LogClock:
    c = LogClock()
    monkeypatch.setattr(ledger, "now", lambda: c.now.isoformat(timespec="seconds"))
    return c


@pytest.fixture
def game(toy: Path, clock: LogClock) -> Path:
    """The toy game with a 48-hour schedule, its first step asked at T0."""
    GameDir.open(toy).write_table("deadlines", {"hours": 48})
    run(toy)
    return toy


def schedule(root: Path, **table: object) -> None:
    GameDir.open(root).write_table("deadlines", table)


def deadline(root: Path, hours: float, clock: LogClock | None = None) -> batch.RunResult:
    if clock is not None:
        clock.set(hours)
    return batch.adjudicate(root, deadline=True, now=at(hours))


def log_lines(root: Path, action: str) -> list[dict[str, object]]:
    return [e for e in registry.read_log(root) if e.get("action") == action]


def words(path: Path) -> str:
    """A report's text with its lines joined (the report wraps at 78 columns)."""
    return " ".join(path.read_text(encoding="utf-8").split())


def defaults_taken(result: batch.RunResult) -> list[str]:
    return [n for n in result.notes if "took the default" in n]


# --- the schedule in game.toml -------------------------------------------------------------------


@pytest.mark.parametrize(("table", "message"), [
    ({"hours": 0}, "[deadlines] hours = 0 is not valid: give a whole number of hours from 1 to 8784"),
    ({"hours": "48"}, "[deadlines] hours = '48' is not valid"),
    ({"hours": 48.5}, "[deadlines] hours = 48.5 is not valid"),
    ({"hours": True}, "[deadlines] hours = true is not valid"),
    ({"hours": 48, "planning_hours": -1}, "[deadlines] planning_hours = -1 is not valid"),
    ({"hours": 48, "grace_hours": 9000}, "[deadlines] grace_hours = 9000 is not valid: give a whole number of hours from 0"),
    ({"hours": 48, "skip_weekends": "yes"}, "[deadlines] skip_weekends = 'yes' is not valid: give true or false"),
    ({"hours": 48, "civil_disorder_after": -2}, "[deadlines] civil_disorder_after = -2 is not valid"),
    ({"hours": 48, "grace": 2}, "[deadlines] has an unknown key 'grace' (did you mean grace_hours?)"),
    ({"planning_hours": 24}, "[deadlines] needs hours = N"),
])  # fmt: skip
def test_a_bad_schedule_is_refused_in_one_line_naming_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(ScheduleError) as e:
        Schedule.from_game({"deadlines": table})
    assert message in str(e.value) and "\n" not in str(e.value)


def test_the_schedule_has_hours_per_step_and_its_options() -> None:
    s = Schedule.from_game({"deadlines": {"hours": 48, "westeros_hours": 24, "skip_weekends": True, "grace_hours": 2,
                                          "remind_hours": 12, "civil_disorder_after": 3}})  # fmt: skip
    assert s is not None and s.hours == {"westeros": 24, "planning": 48, "action": 48}
    assert (s.skip_weekends, s.grace_hours, s.remind_hours, s.civil_disorder_after) == (True, 2, 12, 3)
    assert Schedule.from_game({"game": {}}) is None, "no table: no schedule"


def test_ruling_112_weekends_are_not_counted_when_the_schedule_skips_them() -> None:
    friday = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
    assert add_hours(friday, 48, skip_weekends=True) == datetime(2026, 3, 10, 18, 0, tzinfo=UTC)
    assert add_hours(friday, 48) == datetime(2026, 3, 8, 18, 0, tzinfo=UTC)
    saturday = datetime(2026, 3, 7, 10, 0, tzinfo=UTC)
    assert add_hours(saturday, 6, skip_weekends=True) == datetime(2026, 3, 9, 6, 0, tzinfo=UTC)
    assert add_hours(friday, 6, skip_weekends=True) == datetime(2026, 3, 7, 0, 0, tzinfo=UTC), "the end of Friday"
    assert add_hours(friday, 7, skip_weekends=True) == datetime(2026, 3, 9, 1, 0, tzinfo=UTC)
    assert add_hours(datetime(2026, 3, 2, 0, 0, tzinfo=UTC), 24 * 12, skip_weekends=True) == \
        datetime(2026, 3, 18, 0, 0, tzinfo=UTC), "twelve weekdays: two weekends skipped"  # fmt: skip


def test_now_is_read_as_iso_8601_and_utc_unless_it_says_otherwise() -> None:
    assert parse_time("2026-03-06T18:00Z") == parse_time("2026-03-06 19:00+01:00") == parse_time("2026-03-06T18:00")
    with pytest.raises(ScheduleError, match=r"--now 'friday' is not a time: give it in ISO 8601"):
        parse_time("friday")


def test_a_run_with_a_bad_schedule_changes_nothing_and_says_which_key(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planning_bids(game)
    schedule(game, hours=48, planing_hours=24)
    before = tree(game)
    assert cli_main(["adjudicate", str(game), "--deadline"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown key 'planing_hours' (did you mean planning_hours?)" in err and "\n" not in err
    assert tree(game) == before
    assert cli_main(["status", str(game)]) == 2


def test_a_bad_now_is_refused_in_one_line(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = tree(game)
    for argv in (["adjudicate", str(game), "--deadline", "--now", "tomorrow"], ["status", str(game), "--now", "3pm"],
                 ["outbox", str(game), "--reminders", "--now", "soon", "--from", "gm@example.org"]):
        assert cli_main(argv) == 2
        err = capsys.readouterr().err
        assert "is not a time: give it in ISO 8601" in err and err.count("\n") == 1
    assert tree(game) == before


# --- status: due times ---------------------------------------------------------------------------


def test_ruling_110_status_shows_each_request_due_the_schedules_hours_after_its_step(game: Path,
                                                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    view = batch.status(game, now=at(10))
    for h in HOUSES:
        (req,) = view["houses"][h]
        assert parse_time(req["asked"]) == T0 and parse_time(req["due"]) == at(48)
        assert req["left_seconds"] == 38 * 3600
    assert cli_main(["status", str(game), "--now", at(10).isoformat()]) == 0
    out = capsys.readouterr().out
    assert "deadlines: 48 h to answer" in out
    assert "(since step 0000; due 2026-03-04 09:00 UTC, 1 d 14 h left)" in out
    assert cli_main(["status", str(game), "--now", at(50).isoformat()]) == 0
    assert "due 2026-03-04 09:00 UTC, 2 h overdue: the next --deadline takes its default" in capsys.readouterr().out
    assert cli_main(["status", str(game), "--json", "--now", at(10).isoformat()]) == 0
    assert json.loads(capsys.readouterr().out)["houses"]["stark"][0]["due"] == "2026-03-04T09:00:00+00:00"


def test_without_a_schedule_status_says_a_request_is_due_when_the_deadline_is_called(toy: Path,
                                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    run(toy)
    assert cli_main(["status", str(toy)]) == 0
    out = capsys.readouterr().out
    assert "deadlines: none in game.toml ([deadlines]): a request is due when you run 'maester adjudicate" in out
    assert "(since step 0000)" in out
    assert "due" not in (toy / "pending").read_text() and "now" not in json.loads((toy / "pending.json").read_text()), \
        "the pending files are written by the run: no clock in them"  # fmt: skip


def test_ruling_112_status_counts_without_weekends(toy: Path, clock: LogClock) -> None:
    schedule(toy, hours=48, skip_weekends=True)
    clock.now = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)  # Friday evening
    run(toy)
    (req,) = batch.status(toy, now=clock.now)["houses"]["stark"]
    assert req["due"] == "2026-03-10T18:00:00+00:00", "Tuesday: Saturday and Sunday are not counted"


# --- --deadline: only what is past due -----------------------------------------------------------


def test_ruling_110_a_deadline_before_the_due_time_takes_no_default(game: Path) -> None:
    planning_bids(game, {"stark": 1})
    result = deadline(game, 47)
    assert defaults_taken(result) == [] and log_lines(game, "deadline") == []
    assert result.notes[-1] == ("--deadline: nothing is past due yet, so no default was used; the first default "
                                "comes at 2026-03-04 09:00 UTC (House Baratheon: bid)")  # fmt: skip
    assert {h for h, reqs in batch.status(game)["houses"].items() if reqs} == {"lannister", "greyjoy", "baratheon"}


def test_deadline_takes_the_defaults_of_the_past_due_requests_only_and_names_each(game: Path, clock: LogClock) -> None:
    """Stark has an extension: at 49 h the other three are past due, Stark is not; the run names each default."""
    deadlines.extend(game, house="stark", hours=24, reason="travelling")
    result = deadline(game, 49, clock)
    assert defaults_taken(result) == [f"deadline: House {h} took the default of its bid: bid for the wildlings"
                                      for h in ("Baratheon", "Lannister", "Greyjoy")]  # fmt: skip
    assert not any("still owes" in n for n in result.notes), "Stark's bid is not past due: it is not owed late"
    assert {h for h, reqs in batch.status(game, now=at(49))["houses"].items() if reqs} == {"stark"}
    (call,) = log_lines(game, "deadline")
    assert call["now"] == at(49).isoformat() and len(call["keys"]) == 3  # type: ignore[arg-type]
    public = next(reports_of(game).glob("0001-*/public.txt")).read_text()
    assert public.count("did not answer by the deadline") == 3 and "Stark did not answer" not in public
    result = deadline(game, 73, clock)
    assert defaults_taken(result) == ["deadline: House Stark took the default of its bid: bid for the wildlings"]
    assert audit.replay(game).ok


def test_ruling_112_the_default_waits_for_the_grace_period(game: Path) -> None:
    schedule(game, hours=48, grace_hours=2)
    assert defaults_taken(deadline(game, 49)) == []
    assert "overdue; defaults from 2026-03-04 11:00 UTC" in deadlines.status_text(batch.status(game, now=at(49)))
    assert len(defaults_taken(deadline(game, 50))) == 4


def test_ruling_97_an_interrupted_deadline_fills_the_requests_it_named_whatever_the_time(game: Path, clock: LogClock,
                                                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip

    deadlines.extend(game, house="stark", hours=24, reason="ill")
    real = os.link

    def killed(src: Path, dst: Path, *a: object, **kw: object) -> None:  # at the snapshot (ruling 390)
        if Path(dst).parent.name == "states":
            raise KeyboardInterrupt("killed")
        real(src, dst, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", killed)
    with pytest.raises(KeyboardInterrupt):
        deadline(game, 49, clock)
    monkeypatch.setattr(os, "link", real)
    clock.set(80)
    result = batch.adjudicate(game, now=at(80))  # Stark is past due by now: the call named three requests
    assert len(defaults_taken(result)) == 3
    assert {h for h, reqs in batch.status(game)["houses"].items() if reqs} == {"stark"}


def test_ruling_115_replay_takes_the_recorded_defaults_whatever_the_schedule_says_later(game: Path, clock: LogClock) -> None:
    deadlines.extend(game, house="stark", hours=24, reason="a wedding")
    deadline(game, 49, clock)
    schedule(game, hours=500, civil_disorder_after=1)  # edited afterwards: nothing would be past due now
    assert audit.replay(game).ok
    snap = audit.Folder(GameDir.open(game)).read_snapshot(1)
    assert sorted(k.rsplit(".", 1)[1] for k in snap.defaults) == ["baratheon", "greyjoy", "lannister"]
    assert sorted(snap.missed) == ["baratheon", "greyjoy", "lannister"]
    assert batch.repair(game).ok


# --- extensions ----------------------------------------------------------------------------------


def test_an_extension_moves_the_due_time_and_is_logged_with_its_reason(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["extend", str(game), "--house", "Stark", "--hours", "24", "--reason", "a wedding"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("House Stark has 24 more hours for round 1 planning (24 h in all)")
    assert "its requests are now due 2026-03-05 09:00 UTC" in out
    (line,) = log_lines(game, "extend")
    assert {k: line[k] for k in ("house", "round", "step", "hours", "reason")} == \
        {"house": "stark", "round": 1, "step": "planning", "hours": 24, "reason": "a wedding"}  # fmt: skip
    deadlines.extend(game, house="stark", hours=6, reason="and the journey home")
    (req,) = batch.status(game, now=at(1))["houses"]["stark"]
    assert parse_time(req["due"]) == at(48 + 30) and req["extension_hours"] == 30
    (other,) = batch.status(game, now=at(1))["houses"]["lannister"]
    assert parse_time(other["due"]) == at(48), "only Stark's requests move"


@pytest.mark.parametrize(("argv", "message"), [
    (["--house", "tully", "--hours", "5", "--reason", "x"], "'tully' is not a house of this game"),
    (["--house", "stark", "--hours", "0", "--reason", "x"], "--hours 0 is not valid: give a whole number of hours from 1"),
    (["--house", "stark", "--hours", "5", "--reason", " "], "give the reason for the extension (--reason)"),
])  # fmt: skip
def test_a_bad_extension_is_refused_in_one_line_and_not_logged(game: Path, argv: list[str], message: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert cli_main(["extend", str(game), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert log_lines(game, "extend") == []


def test_without_a_schedule_there_is_nothing_to_extend(toy: Path) -> None:
    run(toy)
    with pytest.raises(GameDirError, match=r"has no \[deadlines\] table: without a schedule"):
        deadlines.extend(toy, house="stark", hours=5, reason="x")


# --- ruling 111: the rest of a step a house missed -----------------------------------------------

REAL = ["stark", "lannister", "baratheon"]
REAL_KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 40] * 32)) for i, h in enumerate(REAL)}
ORDERS = {"stark": "Winterfell: defense +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +0\n",
          "baratheon": "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: support +0\n"}


@pytest.fixture
def real_game(tmp_path: Path, clock: LogClock) -> Path:
    root = tmp_path / "real"
    create_game(root, houses=REAL, seed="raven", game_id="real")
    for h in REAL:
        registry.register_key(root, h, PublicKey.from_key(REAL_KEYS[h], h))
    GameDir.open(root).write_table("deadlines", {"hours": 48})
    batch.adjudicate(root)
    return root


def test_ruling_111_the_raven_of_a_house_that_missed_its_orders_is_settled_in_the_same_run(real_game: Path,
                                                                                          clock: LogClock) -> None:  # fmt: skip
    """Lannister holds the Messenger Raven and sends no orders: one --deadline run takes both defaults."""
    for h, body in ORDERS.items():
        text = seal.sign(f"game real · house {h} · round 1 · planning · seq 1\n{body}", REAL_KEYS[h])
        (real_game / "inbox" / f"{h}.txt").write_text(text, encoding="utf-8")
    clock.set(1)
    batch.adjudicate(real_game)
    result = deadline(real_game, 49, clock)
    taken = defaults_taken(result)
    assert [n.split(":")[1].strip() for n in taken] == ["House Lannister took the default of its orders",
                                                        "House Lannister took the default of its Messenger Raven"]
    assert state_of(real_game).phase == "action", "no second run is needed for the raven"
    assert all(r["kind"] != "raven" for r in state_of(real_game).pending)
    assert audit.replay(real_game).ok


def test_ruling_111_what_a_house_is_asked_in_the_next_step_waits_for_its_own_due_time(game: Path, clock: LogClock) -> None:
    """Greyjoy missed its planning bid; its action bid is a new step, asked (and due) afresh."""
    planning_bids(game, {h: 1 for h in HOUSES if h != "greyjoy"})
    for h in HOUSES[:2] + HOUSES[3:]:
        drop(game, f"{h}-action.txt", sealed(h, "bid fiefdoms 0\n", step="action"))
    deadline(game, 49, clock)
    st = state_of(game)
    assert st.phase == "action" and [(p["house"], p["kind"]) for p in st.pending] == [("greyjoy", "bid")]


# --- reminders -----------------------------------------------------------------------------------


def with_addresses(root: Path) -> None:
    GameDir.open(root).write_table("players", {h: {"email": f"{h}@example.org"} for h in HOUSES})


def remind(root: Path, hours: float) -> list[str]:
    return reminders.write_reminders(root, sender="gm@example.org", now=at(hours)).written


def test_ruling_114_reminders_go_within_the_window_once_per_request(game: Path, clock: LogClock) -> None:
    schedule(game, hours=48, remind_hours=12)
    with_addresses(game)
    planning_bids(game, {"lannister": 1})
    clock.set(1)
    run(game)
    assert remind(game, 35) == [], "12 h before 48 h is 36 h"
    written = remind(game, 37)
    assert sorted(w.split("-")[0] for w in written) == ["baratheon", "greyjoy", "stark"], "Lannister has answered"
    assert remind(game, 38) == [], "reminded once"
    assert len(log_lines(game, "remind")) == 3
    mail = BytesParser(policy=policy.default).parsebytes(next((game / "outbox" / "reminders").glob("stark-*.eml")).read_bytes())
    assert mail["To"] == "House Stark <stark@example.org>" and "reminder" in mail["Subject"]
    body = mail.get_content()
    assert "bid for the wildlings (secret)" in body and "due 2026-03-04 09:00 UTC (in 11 h)" in body
    assert "default: bid wildlings 0" in body
    deadlines.extend(game, house="stark", hours=24, reason="asked for it")
    assert [w.split("-")[0] for w in remind(game, 61)] == ["stark"], "a new due time: a new window"
    assert audit.replay(game).ok


def test_ruling_311_a_reminder_says_what_is_due_and_when_in_its_subject_and_carries_the_turn_file(
        game: Path, clock: LogClock) -> None:  # fmt: skip
    schedule(game, hours=48, remind_hours=12)
    with_addresses(game)
    clock.set(1)
    run(game)
    remind(game, 37)
    mail = BytesParser(policy=policy.default).parsebytes(next((game / "outbox" / "reminders").glob("stark-*.eml")).read_bytes())
    assert mail["Subject"] == "[toy] BID DUE Wed 4 Mar 09:00 UTC · reminder, 11 h left"
    body = mail.get_content().replace("\r\n", "\n")
    label = stepreports.steps(game)[-1].label
    turn_file = pick(text_sections(report_text(game, label, "stark.txt")), "turn-file").rstrip("\n")
    assert turn_file.startswith("YOUR TURN FILE") and "house stark" in turn_file
    assert body.count(turn_file) == 1 and body.index("default: bid wildlings 0") < body.index(turn_file)


def test_ruling_311_a_mail_says_what_is_asked_by_when_first(game: Path, clock: LogClock) -> None:
    with_addresses(game)
    registry.register_key(game, "moderator", PublicKey.from_key(Ed25519PrivateKey.generate()), email="gm@example.org")
    outbox.write_outbox(game, now=at(10))
    mail = BytesParser(policy=policy.default).parsebytes(next(game.glob("outbox/*/stark.eml")).read_bytes())
    assert mail["Subject"] == "[toy] BID DUE Wed 4 Mar 09:00 UTC · r1 planning"
    assert len(mail["Subject"].split(" · ")[0]) <= 40
    text = mail.get_body(("plain",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]
    head = text.split("\n\n")  # the title and the mail's first words, then what is asked and by when
    assert head[1].split("\n")[0] == "ASKED OF YOU NOW: due Wed 4 Mar 2026 09:00 UTC, 1 d 14 h left", text[:400]


def test_reminders_need_a_schedule_with_a_window(toy: Path) -> None:
    run(toy)
    with pytest.raises(OutboxError, match=r"no \[deadlines\] table"):
        remind(toy, 1)
    schedule(toy, hours=48)
    with pytest.raises(OutboxError, match="has no remind_hours"):
        remind(toy, 1)


def test_reminders_are_sent_once_through_smtp(game: Path, clock: LogClock, tmp_path: Path) -> None:
    from mail.loopback import Recorder, run_server

    schedule(game, hours=48, remind_hours=12)
    with_addresses(game)
    recorder = Recorder()
    server_gen: Iterator[object] = run_server(recorder)
    controller = next(server_gen)
    try:
        url = f"smtp://127.0.0.1:{controller.port}"  # type: ignore[attr-defined]
        argv = ["outbox", str(game), "--reminders", "--from", "gm@example.org", "--now", at(40).isoformat(), "--send", url]
        assert cli_main(argv) == 0
        assert cli_main(argv) == 0
    finally:
        next(server_gen, None)
    assert sorted(rcpt[0] for _, rcpt, _ in recorder.received) == sorted(f"{h}@example.org" for h in HOUSES)
    sent = json.loads((game / "outbox" / "reminders" / "sent.json").read_text())
    assert len(sent) == 4


def test_ruling_114_a_reminder_not_sent_before_its_due_time_is_not_sent_late(game: Path) -> None:
    schedule(game, hours=48, remind_hours=12)
    with_addresses(game)
    assert len(remind(game, 37)) == 4  # written, not sent (no --send)
    server = SmtpServer("127.0.0.1", 1, timeout=1)  # never reached: nothing is left to send
    report = reminders.send_reminders(game, server=server, now=at(48))
    assert report.sent == [] and report.failed == [] and len(report.notes) == 4
    assert all("its due time passed before it was sent" in n for n in report.notes)
    sent = json.loads((game / "outbox" / "reminders" / "sent.json").read_text())
    assert len(sent) == 4 and all("dropped" in v for v in sent.values())


def test_reminder_options_that_do_not_fit_are_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in ((["--reminders", "--step", "0"], "--step does not go with --reminders"),
                          (["--now", at(1).isoformat()], "--now goes with --reminders")):
        assert cli_main(["outbox", str(game), "--from", "gm@example.org", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert not (game / "outbox").exists()


# --- civil disorder ------------------------------------------------------------------------------


def test_ruling_113_after_k_missed_deadlines_a_house_plays_by_the_defaults_until_a_new_key(game: Path, clock: LogClock,
                                                                                         tmp_path: Path) -> None:  # fmt: skip
    schedule(game, hours=48, civil_disorder_after=2)
    others = [h for h in HOUSES if h != "greyjoy"]
    planning_bids(game, dict.fromkeys(others, 1))
    for h in others:
        drop(game, f"{h}-action.txt", sealed(h, "bid fiefdoms 0\n", step="action"))
    deadline(game, 49, clock)  # greyjoy misses its planning bid: 1
    assert log_lines(game, "civil-disorder") == []
    result = deadline(game, 98, clock)  # and its action bid: 2, in civil disorder from now on
    assert any("civil disorder: House Greyjoy missed 2 deadlines in a row" in n for n in result.notes)
    (line,) = log_lines(game, "civil-disorder")
    assert line["house"] == "greyjoy" and line["missed"] == 2
    st = state_of(game)
    assert (st.round, st.phase) == (2, "planning")
    assert "greyjoy" not in {p["house"] for p in st.pending}, "its round-2 bid took its default in the same run"
    latest = sorted(reports_of(game).glob("0*"))[-1]
    assert "House Greyjoy missed too many deadlines in a row and is now in civil disorder" in words(latest / "public.txt")
    view = batch.status(game, now=at(99))
    assert view["civil_disorder"] == ["greyjoy"]
    assert "House Greyjoy is in civil disorder: it plays by the deadline defaults until a key is registered" in \
        deadlines.status_text(view)  # fmt: skip
    # Round 2: the others bid; greyjoy's action bid is taken at once, and every report says why.
    clock.set(100)
    for h in others:
        drop(game, f"{h}-r2.txt", sealed(h, "bid wildlings 0\n", rnd=2))
        drop(game, f"{h}-r2-action.txt", sealed(h, "bid fiefdoms 0\n", rnd=2, step="action"))
    result = run(game)
    assert "civil disorder: House Greyjoy took the default of its bid: bid for the fiefdoms" in result.notes
    latest = sorted(reports_of(game).glob("0*"))[-1]
    assert "House Greyjoy is in civil disorder: it plays by the deadline defaults." in words(latest / "public.txt")
    # A substitute player's key ends it.
    new_key = Ed25519PrivateKey.from_private_bytes(bytes([77] * 32))
    old = registry.fingerprints_in_force(game)["greyjoy"][0]
    registry.register_key(game, "greyjoy", PublicKey.from_key(new_key, "greyjoy"), replaces=old, reason="a substitute")
    result = run(game)
    assert "civil disorder ends: House Greyjoy has a new key and answers for itself again" in result.notes
    assert [e["house"] for e in log_lines(game, "civil-disorder-end")] == ["greyjoy"]
    assert batch.status(game, now=at(101))["civil_disorder"] == []
    assert audit.replay(game).ok


def test_ruling_113_a_file_of_the_house_resets_its_count(game: Path, clock: LogClock) -> None:
    schedule(game, hours=48, civil_disorder_after=2)
    others = [h for h in HOUSES if h != "greyjoy"]
    planning_bids(game, dict.fromkeys(others, 1))
    deadline(game, 49, clock)  # miss 1
    clock.set(50)
    for h in HOUSES:
        drop(game, f"{h}-action.txt", sealed(h, "bid fiefdoms 0\n", step="action"))
    run(game)  # greyjoy answers in the action step: the count starts again
    rule = Schedule(hours={"planning": 48}, civil_disorder_after=2)
    assert deadlines.disorder_now(ledger.Ledger.read(game), rule).misses["greyjoy"] == 0
    clock.set(51)
    for h in others:
        drop(game, f"{h}-r2.txt", sealed(h, "bid wildlings 0\n", rnd=2))
    run(game)
    result = deadline(game, 100, clock)  # its round-2 bid: one miss since its file, not two
    assert "deadline: House Greyjoy took the default of its bid: bid for the wildlings" in result.notes
    assert deadlines.disorder_now(ledger.Ledger.read(game), rule).misses["greyjoy"] == 1
    assert log_lines(game, "civil-disorder") == []
    assert batch.status(game, now=at(101))["civil_disorder"] == []


def test_ruling_113_a_run_killed_before_logging_civil_disorder_leaves_the_line_to_the_next(game: Path, clock: LogClock,
                                                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    schedule(game, hours=48, civil_disorder_after=1)
    real = deadlines.log

    def killed(root: Path, entry: dict[str, object]) -> dict[str, object]:
        if entry["action"] == "civil-disorder":
            raise KeyboardInterrupt("killed")
        return real(root, entry)

    monkeypatch.setattr(deadlines, "log", killed)
    with pytest.raises(KeyboardInterrupt):
        deadline(game, 49, clock)
    monkeypatch.setattr(deadlines, "log", real)
    run(game)
    run(game)
    assert sorted(e["house"] for e in log_lines(game, "civil-disorder")) == sorted(HOUSES)
    assert audit.replay(game).ok


def test_times_at_the_ends_of_the_calendar_do_not_break_status_or_the_run(game: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    for now in ("9999-12-31T23:59Z", "0001-01-01T00:00Z"):
        assert cli_main(["status", str(game), "--now", now]) == 0
        assert cli_main(["adjudicate", str(game), "--deadline", "--now", now]) == 0
    out = capsys.readouterr().out
    assert "overdue" in out and "left" in out


# --- docs/moderating.md: a week of the loop, as it runs ------------------------------------------

WEEK_HOUSES = ["stark", "lannister", "greyjoy", "baratheon"]
WEEK_KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 1] * 32)) for i, h in enumerate(WEEK_HOUSES)}
WEEK_ORDERS = {
    "stark": "Winterfell: defense +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +0\n",
    "lannister": "Lannisport: defense +1\nStoney Sept: defense +1\nThe Golden Sound: support +0\n"
                 "Port of Lannisport: raid\nraven pass\n",
    "greyjoy": "Pyke: defense +1\nGreywater Watch: defense +1\nIronman's Bay: support +0\nPort of Pyke: raid\n",
    "baratheon": "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: support +0\n",
}  # fmt: skip


def play_the_week(clock: LogClock) -> dict[str, list[str]]:
    """The week of docs/moderating.md, run by run, at the times it names, in the current folder;
    what each command printed."""
    from adjudicator.folder.schedule import parse_time as when

    root = Path("winter")
    create_game(root, houses=WEEK_HOUSES, seed="winter-demo")
    for h in WEEK_HOUSES:
        registry.register_key(root, h, PublicKey.from_key(WEEK_KEYS[h], h), email=f"{h}@example.org")
    GameDir.open(root).write_table("deadlines", {"hours": 48, "westeros_hours": 24, "skip_weekends": True,
                                                 "grace_hours": 2, "remind_hours": 12, "civil_disorder_after": 3})  # fmt: skip

    def mail(house: str, time: str, body: str = "", step: str = "planning", seq: int = 1) -> None:
        """A house's file (its orders by default), as maester ingest puts it in the inbox (named by
        the mail's date and hash)."""
        text = seal.sign(f"game winter · house {house} · round 1 · {step} · seq {seq}\n{body or WEEK_ORDERS[house]}",
                         WEEK_KEYS[house])  # fmt: skip
        name = f"{when(time):%Y%m%dT%H%M%SZ}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.txt"
        (root / "inbox" / name).write_text(text, encoding="utf-8")

    def cron(time: str) -> list[str]:
        """The cron script: the runs, then the mails (sent: recorded as the server took them)."""
        clock.now = when(time)
        said = batch.adjudicate(root, deadline=True, now=clock.now).lines()
        outbox.write_outbox(root, sender="gm@example.org", now=clock.now)
        outbox.mark_sent(root, now=clock.now)
        return said

    out: dict[str, list[str]] = {}
    cron("2026-03-02T09:07")
    mail("stark", "2026-03-02T18:40")
    mail("lannister", "2026-03-02T20:15")
    out["# the run of Monday 21:07 prints:"] = cron("2026-03-02T21:07")
    out["# on Tuesday at 10:00:"] = deadlines.status_text(batch.status(root, now=when("2026-03-03T10:00"))).splitlines()
    said = deadlines.extend(root, house="greyjoy", hours=24, reason="travelling; asked by mail on Tuesday")
    out["# it says:"] = [said]
    cron("2026-03-03T21:07")
    reminders.write_reminders(root, sender="gm@example.org", now=clock.now)
    (eml,) = (root / "outbox" / "reminders").glob("baratheon-*.eml")
    out["# in Baratheon's reminder:"] = BytesParser(policy=policy.default).parsebytes(eml.read_bytes()).get_content().splitlines()  # type: ignore[attr-defined]
    mail("baratheon", "2026-03-04T08:00")
    cron("2026-03-04T08:07")
    out["# the run of Thursday 10:07 prints:"] = cron("2026-03-05T10:07")
    out["# the run of Thursday 11:07 prints:"] = cron("2026-03-05T11:07")
    mail("greyjoy", "2026-03-05T12:30")
    out["# the run of Thursday 12:37 prints:"] = cron("2026-03-05T12:37")
    mail("greyjoy", "2026-03-06T14:50", "consolidate in Port of Pyke\n", step="action")
    out["# the run of Friday 15:07 prints:"] = cron("2026-03-06T15:07")
    from test_docs_examples import block, commands

    said = io.StringIO()
    with contextlib.redirect_stdout(said):  # the doc's block, run as written
        for words in commands(block("moderating.md", "sealed its draft by mistake")):
            assert words[0] == "maester" and cli_main(words[1:]) == 0, words
    out["# the rollback says:"] = said.getvalue().splitlines()[-2:]
    mail("greyjoy", "2026-03-06T16:30", "consolidate in Ironman's Bay\n", step="action", seq=2)
    out["# the run of Friday 17:07 prints:"] = cron("2026-03-06T17:07")
    assert audit.replay(root).ok
    return out


def test_moderating_md_a_week_of_the_loop_shows_what_the_commands_print(tmp_path: Path, clock: LogClock,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Each output block of the walkthrough (its first line a caption) is what that command prints
    at that time; the reminder's block is part of the mail's text."""
    from test_docs_examples import fenced

    monkeypatch.chdir(tmp_path)
    printed = play_the_week(clock)
    doc = Path(__file__).resolve().parent.parent / "docs" / "moderating.md"
    shown = {text.splitlines()[0]: text.splitlines()[1:] for lang, text, _ in fenced(doc)
             if lang == "text" and text.splitlines()[0] in printed}  # fmt: skip
    assert set(shown) == set(printed), "every run of the week is shown"
    for caption, lines in shown.items():
        if caption == "# in Baratheon's reminder:":
            body = printed[caption]
            start = body.index(lines[0])
            assert body[start : start + len(lines)] == lines, caption
        else:
            assert lines == printed[caption], caption


def test_moderating_md_the_week_mails_each_step_once_and_tells_the_undo(tmp_path: Path, clock: LogClock,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The cron script's mails of the week: each house gets every step once (step 0004 twice: the
    one undone, then the one that stands, after a word on the undo); Greyjoy's late file's receipt
    goes to Greyjoy with its next mail, and to no other house."""
    from test_digest import sections, whole

    from adjudicator.reports.sections import pick, text_sections

    monkeypatch.chdir(tmp_path)
    play_the_week(clock)
    root = Path("winter")
    mailed = [e["file"] for e in registry.read_log(root) if e.get("action") == "mailed"]
    (receipt,) = [p.name for p in (root / "refused").glob("*-greyjoy.txt")]
    labels = [s.label for s in stepreports.steps(root)]
    for house in WEEK_HOUSES:
        texts, carried = [], []
        for f in mailed:
            if f.endswith(f"/{house}.eml"):
                msg = BytesParser(policy=policy.default).parsebytes(written_mail(root, f))  # sent: kept as a recipe
                texts.append(msg.get_body(("plain",)).get_content().replace("\r\n", "\n"))  # type: ignore[union-attr]
                carried += [int(label[:4]) for label in str(msg["X-Maester-Steps"]).split() if label != "none"]
        assert carried == [0, 1, 2, 3, 4, 4], (house, carried)  # every step once, and step 0004 again after the undo
        shown = [n for t in texts for n in sections(t)]
        assert shown == sorted(shown) and set(shown) <= set(carried) and shown.count(4) == 2, (house, shown)
        last = texts[-1]
        assert "UNDONE BY THE MODERATOR" in last and "Greyjoy sealed its draft by mistake" in last.replace("\n", " ")
        latest = text_sections(whole(root, labels[-1], house))
        for name in ("events", "board", "hand"):  # the new step 0004's events, and the game as it left it
            assert pick(latest, name).rstrip("\n") in last, (house, name)
        assert sum(t.count(f"[refused/{receipt}]") for t in texts) == (house == "greyjoy")
