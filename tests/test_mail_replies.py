"""Every mail answered, and no mail loop (issue 27, rulings 323-325).

A mail from a registered player's address with a turn it could not take (no seal, a seal that does
not hold, a key that is not the house's) gets one short reply, at once through ``maester deliver``
(an SMTP server on loopback, aiosmtpd), at the address registered for the house, never the mail's
own From or Reply-To; a mail from any other address, an automatic reply, a bounce or a list's copy
gets none; replies are rate-limited per address; the moderator's mail lists every mail not taken.
"""

from __future__ import annotations

import contextlib
import io
import sys
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, smtp  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import registry
from adjudicator.mail import replies
from adjudicator.mail.ingest import ingest_into_inbox
from adjudicator.mail.sending import SmtpServer
from adjudicator.seals import seal

STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([13] * 32))
HEADER = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1"
UNSEALED = f"{HEADER}\n# forgot to seal\n"
MALLORY = "mallory@evil.example"


def mail(body: str, n: int, *, sender: str = shapes.EMAILS["stark"], headers: dict[str, str] | None = None,
         when: datetime | None = None) -> bytes:  # fmt: skip
    m = EmailMessage(policy=policy.default)
    m["From"], m["To"], m["Subject"] = f"Ned <{sender}>", shapes.MODERATOR_EMAIL, f"my turn {n}"
    m["Message-ID"] = f"<reply-test-{n}@players.example>"
    m["Date"] = format_datetime(when or shapes.START + timedelta(minutes=n))
    for k, v in (headers or {}).items():
        m[k] = v
    m.set_content(body)
    return m.as_bytes()


def deliver(monkeypatch: pytest.MonkeyPatch, game: Path, smtp: LoopbackController, raw: bytes) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(["deliver", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]) == 0
    return out.getvalue()


def replies_to(recorder: Recorder, address: str) -> list[EmailMessage]:
    return [m for m in mails_to(recorder, address) if m["X-Maester-Reply"]]


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def moderator_text(recorder: Recorder) -> str:
    return "\n".join(text_of(m) for m in mails_to(recorder, shapes.MODERATOR_EMAIL))


def test_ruling_323_an_unsealed_turn_from_a_registered_address_gets_one_reply_at_once(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    raw = mail(UNSEALED, 1)
    out = deliver(monkeypatch, game, smtp, raw)
    assert "answered: a reply to House Stark (stark@players.example)" in out
    (reply,) = replies_to(recorder, shapes.EMAILS["stark"])
    assert reply["Auto-Submitted"] == "auto-replied" and reply["In-Reply-To"] == "<reply-test-1@players.example>"
    assert reply["Subject"].startswith(f"[{shapes.GAME}] NOT TAKEN") and reply["To"].endswith("<stark@players.example>")
    text = " ".join(text_of(reply).split())
    assert "the body, lines 1-2: a turn (House Stark, round 1 planning, seq 1) with no seal" in text
    assert "maester sign --key ~/.ssh/maester turn.txt --out -" in text
    assert not [line for line in text_of(reply).split("\n") if line.startswith("game ")], "no turn header in a reply"
    deliver(monkeypatch, game, smtp, raw)  # the same mail again (a server delivering twice): no second reply
    assert len(replies_to(recorder, shapes.EMAILS["stark"])) == 1
    assert "my turn 1" in moderator_text(recorder) and "with no seal" in moderator_text(recorder)


def test_ruling_323_a_mail_from_an_unregistered_address_is_never_answered(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    out = deliver(monkeypatch, game, smtp, mail(UNSEALED, 2, sender=MALLORY))
    assert "not answered: the sender is not a registered player's address" in out
    assert mails_to(recorder, MALLORY) == [] and all(not m["X-Maester-Reply"] for _, _, m in
                                                     [(a, b, _parse(d)) for a, b, d in recorder.received])  # fmt: skip
    said = " ".join(moderator_text(recorder).split())
    assert f"{MALLORY}, 'my turn 2'" in said and "not answered: the sender is not a registered player's address" in said


def _parse(data: bytes) -> EmailMessage:
    from email.parser import BytesParser

    msg = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    return msg


def test_ruling_323_a_forged_from_gets_the_reply_at_the_registered_address_only(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    raw = mail(UNSEALED, 3, sender="STARK@Players.Example", headers={"Reply-To": MALLORY, "Sender": MALLORY})
    deliver(monkeypatch, game, smtp, raw)
    (reply,) = [(rcpt, _parse(d)) for _, rcpt, d in recorder.received if _parse(d)["X-Maester-Reply"]]
    assert reply[0] == ["stark@players.example"] and MALLORY not in str(reply[1])
    assert mails_to(recorder, MALLORY) == []


def test_ruling_323_a_seal_that_is_not_the_houses_gets_a_reply_and_the_run_refuses_it(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    foreign = seal.sign(f"{HEADER}\n# sealed with a key nobody registered\n", STRANGER)
    damaged = shapes.turn("stark", 2, "# changed after it was sealed").replace("changed", "CHANGED")
    out = deliver(monkeypatch, game, smtp, mail(foreign + "\n" + damaged, 4))
    assert "rejected" in out
    (reply,) = replies_to(recorder, shapes.EMAILS["stark"])
    text = " ".join(text_of(reply).split())
    stark_key = registry.fingerprints_in_force(game)["stark"][0]
    assert "is sealed by the key SHA256:" in text and f"which is not registered for House Stark in this game (its key: {stark_key})" in text
    assert "the seal of the turn (House Stark, round 1 planning, seq 2) does not hold [bad-signature]" in text


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"}, {"Auto-Submitted": "auto-generated (vacation)"}, {"Precedence": "bulk"},
    {"Precedence": "junk"}, {"List-Id": "<players.lists.example>"}, {"List-Unsubscribe": "<mailto:x@y>"},
    {"X-Autoreply": "yes"}, {"X-Autorespond": "Out of office"}, {"X-Auto-Response-Suppress": "All"},
    {"Return-Path": "<>"}, {"Return-Path": "<MAILER-DAEMON@players.example>"}, {"From ": "MAILER-DAEMON"},
])  # fmt: skip
def test_ruling_324_automatic_mail_is_never_answered(game: Path, tmp_path: Path, headers: dict[str, str]) -> None:
    raw = mail(UNSEALED, 5, headers={k: v for k, v in headers.items() if k != "From "})
    if "From " in headers:  # the mbox envelope line a local delivery writes before the header
        raw = f"From {headers['From ']} Mon Mar  2 09:00:00 2026\n".encode() + raw
    box = tmp_path / "Maildir"
    shapes.maildir(box, [raw])  # a Maildir keeps the message's bytes as delivered, envelope line and all
    report = ingest_into_inbox(game, maildir=box)
    (said,) = [x for x in report.outcomes[0].lines if "answered" in x]
    assert said.startswith("not answered: an automatic mail (") and said.endswith(": RFC 3834)")
    assert replies.pending(game) == []


def test_ruling_324_an_automatic_mail_is_listed_for_the_moderator_and_answered_by_nobody(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    deliver(monkeypatch, game, smtp, mail(UNSEALED, 5, headers={"Auto-Submitted": "auto-replied"}))
    assert replies_to(recorder, shapes.EMAILS["stark"]) == []
    said = " ".join(moderator_text(recorder).split())
    assert "'my turn 5'" in said and "not answered: an automatic mail (Auto-Submitted: auto-replied: RFC 3834)" in said


def _our_reply(game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> bytes:
    deliver(monkeypatch, game, smtp, mail(UNSEALED, 6))
    (data,) = [d for _, _, d in recorder.received if _parse(d)["X-Maester-Reply"]]
    return data


def test_ruling_324_a_vacation_responder_answering_our_reply_gets_nothing(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    ours = _our_reply(game, smtp, recorder, monkeypatch)
    quoted = text_of(_parse(ours))
    away = mail(f"I am away until Monday.\n\n-----Original Message-----\n{quoted}", 7)  # a badly behaved responder
    polite = mail(f"I am away.\n\n{quoted}", 8, headers={"Auto-Submitted": "auto-replied"})
    before = len(recorder.received)
    deliver(monkeypatch, game, smtp, away)
    deliver(monkeypatch, game, smtp, polite)
    assert len(replies_to(recorder, shapes.EMAILS["stark"])) == 1, "our one reply, no other"
    assert all(not _parse(d)["X-Maester-Reply"] for _, _, d in recorder.received[before:])


def test_ruling_324_a_bounce_of_our_reply_gets_nothing(game: Path, smtp: LoopbackController, recorder: Recorder,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    ours = _our_reply(game, smtp, recorder, monkeypatch)
    dsn = EmailMessage(policy=policy.default)
    dsn["From"], dsn["To"] = "Mail Delivery System <MAILER-DAEMON@players.example>", shapes.MODERATOR_EMAIL
    dsn["Subject"], dsn["Message-ID"] = "Undelivered Mail Returned to Sender", "<bounce-1@players.example>"
    dsn.set_content("This is the mail system at host players.example.\n")
    dsn.add_attachment(ours, maintype="message", subtype="rfc822")
    dsn.replace_header("Content-Type", 'multipart/report; report-type=delivery-status; boundary="' +
                       str(dsn.get_boundary()) + '"')  # fmt: skip
    monkeypatch.setenv("SENDER", "")
    out = deliver(monkeypatch, game, smtp, dsn.as_bytes())
    assert len(replies_to(recorder, shapes.EMAILS["stark"])) == 1 and "answered: a reply" not in out


def test_ruling_324_a_thousand_unsealed_mails_from_one_address_get_three_replies_a_day_ten_a_week(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    for day in range(4):
        now = start + timedelta(days=day)
        flood = [mail(UNSEALED, 1000 * day + i, when=now) for i in range(250)]
        report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / f"mbox{day}", flood), now=now)
        answered = [o for o in report.outcomes if any(x.startswith("answered: ") for x in o.lines)]
        assert len(answered) == min(replies.MAX_A_DAY, replies.MAX_A_WEEK - day * replies.MAX_A_DAY), f"day {day}"
        assert all(any(x.startswith("not answered: ") and " replies went to stark@players.example in the last " in x
                       for x in o.lines) for o in report.outcomes if o not in answered)  # fmt: skip
    assert len(replies.pending(game)) == replies.MAX_A_WEEK, "3 a day, then the week's bound: 10"
    with contextlib.redirect_stdout(io.StringIO()) as said:
        assert cli_main(["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]) == 0
    assert len(replies_to(recorder, shapes.EMAILS["stark"])) == replies.MAX_A_WEEK, said.getvalue()
    (moderator,) = mails_to(recorder, shapes.MODERATOR_EMAIL)
    text = " ".join(text_of(moderator).split())
    assert "MAILS NOT TAKEN" in text and "and 960 more: 960 from stark@players.example" in text
    assert len(text_of(moderator).encode()) < 60_000, "a flood makes one bounded list"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]) == 0
    assert len(mails_to(recorder, shapes.MODERATOR_EMAIL)) == 1, "each mail not taken is listed once"


def test_ruling_324_the_week_bound_holds_too(game: Path, tmp_path: Path) -> None:
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    written = 0
    for day in range(7):
        now = start + timedelta(days=day)
        ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / f"m{day}", [mail(UNSEALED, 100 * day + i, when=now)
                                                                        for i in range(5)]), now=now)  # fmt: skip
        written = len(replies.pending(game))
        assert written <= replies.MAX_A_WEEK
    assert written == replies.MAX_A_WEEK


def test_ruling_325_old_unrelated_mail_is_one_summary_line(game: Path, tmp_path: Path, smtp: LoopbackController,
                                                          recorder: Recorder) -> None:  # fmt: skip
    long_ago = shapes.START - timedelta(days=400)
    old = [mail(f"Newsletter {i}\n", 2000 + i, sender=f"news{i}@shop.example", when=long_ago) for i in range(60)]
    new = mail("When do we play?\n", 3000)
    report = ingest_into_inbox(game, maildir=shapes.maildir(tmp_path / "Maildir", [*old, new]))
    lines = report.lines()
    assert "  ignored: 60 messages dated before the game began, with no turn for this game" in lines
    assert sum(line.startswith("  ignored: ") for line in lines) == 2, "the new mail is listed on its own"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]) == 0
    text = " ".join(moderator_text(recorder).split())
    assert "60 messages dated before the game began, with no turn for this game" in text
    assert "'my turn 3000'" in text and "news1@shop.example" not in text
    assert replies_to(recorder, shapes.EMAILS["stark"]) == [], "a question is the moderator's to answer"


def test_ruling_323_what_a_killed_run_left_of_a_reply_is_swept_and_a_logged_one_sent_once(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [mail(UNSEALED, 9)]))
    assert any(x.startswith("answered: ") for x in report.outcomes[0].lines)
    folder = game / "outbox" / "replies"
    (folder / "stark-0123456789abcdef.eml").write_bytes(b"written, and killed before its log line")
    (folder / ".stark-0123456789abcdef.eml.x1y2z3.tmp").write_bytes(b"half written")
    server = SmtpServer("127.0.0.1", smtp.port)
    sent = replies.send_replies(game, server=server)
    assert len(sent.sent) == 1 and sent.failed == [] and len(recorder.received) == 1
    assert len(list(folder.iterdir())) == 1, "only the reply the log knows is left"
    assert replies.send_replies(game, server=server).sent == [] and len(recorder.received) == 1, "sent once"


def test_ruling_324_unsealed_mails_piped_one_by_one_to_deliver_get_three_replies_at_once_and_no_more(
        game: Path, smtp: LoopbackController, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """As a mail server pipes a flood to ``maester deliver``, one process a message: each delivery answers
    at once while the address is within its bound, and after that none does."""
    replied = []
    for n in range(12):
        out = deliver(monkeypatch, game, smtp, mail(UNSEALED, 300 + n))
        replied.append(len(replies_to(recorder, shapes.EMAILS["stark"])))
        assert ("answered: a reply to House Stark" in out) == (n < replies.MAX_A_DAY), out
    assert replied == [1, 2, 3] + [3] * 9, "each of the first three at once, then none"
    assert mails_to(recorder, MALLORY) == []
    said = " ".join(moderator_text(recorder).split())
    assert all(f"'my turn {300 + n}'" in said for n in range(12)), "the moderator's mail lists each"
    assert said.count("replies went to stark@players.example in the last 24 hours already (at most 3 a day)") == 9
