"""No mail channel for strangers (issue 27, rulings 326, 327, 336).

A stranger who mails one forged ``.sig`` naming a house's key at every cron run gets that house a
bounded number of receipts, however many runs follow (4 a day, 6 a week); every seal a stranger can
make about a house, from the stranger's address or the house's forged one, mails that house at
most the sum of the receipts' and the replies' bounds (7 a day, 16 a week); after ``maester leave``
the departed player's old key acts for nothing (no receipt, no acceptance) and its address gets no
more mail, neither reports nor reminders. The mails go through ``maester outbox --send`` to an SMTP
server on loopback (aiosmtpd).
"""

from __future__ import annotations

import contextlib
import io
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, smtp  # noqa: F401
from test_mail_strays import forged_sig, sig

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch, registry
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.folder.leave import leave
from adjudicator.mail import reminders, replies, strays
from adjudicator.mail.ingest import ingest_into_inbox
from adjudicator.mail.sending import SmtpServer
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

FORGER = "mallory@evil.example"


def stray_mail(n: int, *, when: datetime, sender: str = FORGER) -> bytes:
    m = EmailMessage(policy=policy.default)
    m["From"], m["To"], m["Subject"] = sender, shapes.MODERATOR_EMAIL, f"sig {n}"
    m["Message-ID"] = f"<stranger{n}@evil.example>"
    m["Date"] = when.strftime("%a, %d %b %Y %H:%M:%S +0000")
    m.set_content("Here.\n")
    m.add_attachment(forged_sig(shapes.KEYS["stark"], n), maintype="application", subtype="octet-stream",
                     filename="turn.txt.sig")  # fmt: skip
    return m.as_bytes()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(args) in (0, 1)
    return out.getvalue()


def test_ruling_327_a_strangers_stray_seals_mail_a_house_a_bounded_number_of_times_however_many_runs(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    """One forged seal naming Stark's key at each of 28 hourly cron runs, each followed by a mailing."""
    start = datetime(2026, 3, 2, 0, 7, tzinfo=UTC)
    send = ["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    run(send)  # step 0000 to everyone first: from here on, only the receipts can make Stark a mail
    first = len(mails_to(recorder, shapes.EMAILS["stark"]))
    told = []
    for hour in range(28):
        now = start + timedelta(hours=hour)
        box = shapes.mbox(tmp_path / f"mbox{hour}", [stray_mail(hour, when=now)])
        summary = "\n".join(ingest_into_inbox(game, mbox=box, now=now).lines())
        told += [hour] if "for House Stark, whose key the seal names" in summary else []
        run(send)
    assert told == [0, 1, 2, 3, 24, 25], "4 in any 24 hours, 6 in any 7 days"
    assert len(mails_to(recorder, shapes.EMAILS["stark"])) - first == 6
    assert mails_to(recorder, FORGER) == []
    assert (strays.MAX_A_DAY, strays.MAX_A_WEEK) == (4, 6)


def test_ruling_327_the_bound_is_said_in_the_summary(game: Path, tmp_path: Path, smtp: LoopbackController) -> None:
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    send = ["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    said = []
    for n in range(5):  # each mailed before the next comes: the receipts waiting never reach their bound
        box = shapes.mbox(tmp_path / f"mbox{n}", [stray_mail(n, when=now + timedelta(minutes=n))])
        said.append("\n".join(ingest_into_inbox(game, mbox=box, now=now + timedelta(minutes=n)).lines()))
        run(send)
    assert ["whose key the seal names, with its next mail" in s for s in said] == [True] * 4 + [False]
    assert ("not told to House Stark: 4 receipts of seals naming its key were told to it in the last 24 hours "
            "(at most 4 a day) (seals anyone can write); only this summary names it") in said[-1]


STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([66] * 32))  # a key registered in no game


def strangers_mail(n: int, *, when: datetime, sender: str) -> bytes:
    """Every seal a stranger can make that concerns House Stark, in one mail: a ``.sig`` naming Stark's
    key over nothing, a turn for Stark sealed by the stranger's own key in the body, and a file and
    its ``.sig`` claiming Stark, sealed by the stranger's key too."""
    header = f"game {shapes.GAME} · house stark · round 1 · planning · seq {n + 10}"
    m = EmailMessage(policy=policy.default)
    m["From"], m["To"], m["Subject"] = sender, shapes.MODERATOR_EMAIL, f"orders {n}"
    m["Message-ID"] = f"<stranger-all-{n}@evil.example>"
    m["Date"] = when.strftime("%a, %d %b %Y %H:%M:%S +0000")
    m.set_content("Orders:\n\n" + seal.sign(f"{header}\n# not Stark's player\n", STRANGER))
    m.add_attachment(forged_sig(shapes.KEYS["stark"], n), maintype="application", subtype="octet-stream",
                     filename="turn.txt.sig")  # fmt: skip
    text = f"{header.replace(f'seq {n + 10}', f'seq {n + 500}')}\n# detached\n"
    m.add_attachment(text, subtype="plain", filename="orders.txt")
    m.add_attachment(sig(text, STRANGER), maintype="application", subtype="octet-stream", filename="orders.txt.sig")
    return m.as_bytes()


def test_ruling_336_every_kind_of_strangers_seal_mails_a_house_a_bounded_number_of_times_over_a_week(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    """A stranger's mail at every cron run for 8 days (every 3 hours), each carrying every seal a stranger can
    make about Stark, half of them with Stark's own address forged as the sender; each run adjudicates and
    mails. Stark hears of them within the bounds of rulings 327 and 324 together, however many runs follow."""
    start = datetime(2026, 3, 2, 0, 7, tzinfo=UTC)
    send = ["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    run(send)
    mailed: list[tuple[datetime, int]] = []  # per run: its time, and how many mails Stark got from it
    for n in range(64):
        now = start + timedelta(hours=3 * n)
        sender = shapes.EMAILS["stark"] if n % 2 else FORGER
        before = len(mails_to(recorder, shapes.EMAILS["stark"]))
        box = shapes.mbox(tmp_path / f"mbox{n}", [strangers_mail(n, when=now, sender=sender)])
        ingest_into_inbox(game, mbox=box, now=now)
        assert batch.adjudicate(game, now=now).accepted == [], "no seal of a stranger's is taken"
        run(send)
        mailed.append((now, len(mails_to(recorder, shapes.EMAILS["stark"])) - before))
    per_day, per_week = strays.MAX_A_DAY + replies.MAX_A_DAY, strays.MAX_A_WEEK + replies.MAX_A_WEEK
    days, weeks = [], []
    for when, _ in mailed:
        days.append(sum(k for t, k in mailed if when <= t < when + timedelta(hours=24)))
        weeks.append(sum(k for t, k in mailed if when <= t < when + timedelta(days=7)))
    assert max(days) == per_day and max(weeks) == per_week, "the bounds are reached, never passed"
    total = sum(k for _, k in mailed)
    assert 0 < total <= per_week + per_day, "the player who forgot to seal hears, a stranger cannot flood them"
    assert sum(k for t, k in mailed if t >= start + timedelta(days=7)) <= per_day, "the eighth day is bounded too"
    assert mails_to(recorder, FORGER) == [], "a stranger is never mailed"
    told = "\n".join(str(m.get_body(("plain",)).get_content()) for m in mails_to(recorder, shapes.MODERATOR_EMAIL))
    assert all(f"'orders {n}'" in told for n in range(64)), "the moderator's mail lists every one of them"


# --- a house that left -----------------------------------------------------------------------------

MOD_HOUSES = ["stark", "lannister", "baratheon", "greyjoy"]
GREYJOY = Ed25519PrivateKey.from_private_bytes(bytes([44] * 32))
KEYS = shapes.KEYS | {"greyjoy": GREYJOY}


def departed_game(root: Path) -> Path:
    """A Mother of Dragons game in which Stark's player left at round 2 and Stark is a vassal from round 3."""
    gd = create_game(root, houses=MOD_HOUSES, seed="leave mail", expansion="mother-of-dragons")
    for h in MOD_HOUSES:
        registry.register_key(root, h, PublicKey.from_key(KEYS[h]), email=f"{h}@players.example")
    registry.register_key(root, "moderator", shapes.MODERATOR.public, email=shapes.MODERATOR_EMAIL)
    s = gd.load_state()
    s.round = 2
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    gd.state_file.write_text(s.to_toml())
    batch.adjudicate(root)
    leave(root, "stark", reason="moved abroad")
    for _ in range(30):
        if GameDir.open(root).load_state().round >= 3:
            break
        batch.adjudicate(root, deadline=True)
    assert "stark" in GameDir.open(root).load_state().vassals
    return root


def test_ruling_326_a_house_that_left_gets_no_mail_and_its_old_key_acts_for_nothing(
        tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    root = departed_game(tmp_path / "winter")
    assert registry.departed(root, registry.read_game(root)) == {"stark"}
    state = GameDir.open(root).load_state()
    header = f"game winter · house stark · round {state.round} · {state.phase} · seq 9"
    sealed = seal.sign(f"{header}\n# the old key\n", KEYS["stark"])
    now = datetime.now(UTC)
    messages = [
        shapes.plain("stark", sealed, 1),  # the old key's turn, from the old address
        shapes.plain("stark", f"{header}\n# unsealed\n", 2),  # would be answered, were Stark still played
        stray_mail(3, when=now, sender="stark@players.example"),
    ]
    summary = "\n".join(ingest_into_inbox(root, mbox=shapes.mbox(tmp_path / "mbox", messages)).lines())
    assert "not told: the seal 'turn.txt.sig' names no house's key registered in this game" in summary
    assert "answered: a reply" not in summary and replies.pending(root) == []
    result = batch.adjudicate(root)
    assert result.accepted == [] and len(result.rejected) == 1
    (rej,) = result.rejected
    assert list(rej.receipts) == ["moderator"], "the departed house hears nothing of it"
    assert "whose player left the game (maester leave): it acts for nothing now" in "\n".join(rej.reasons)
    as_lannister = header.replace("house stark", "house lannister")
    result = batch.adjudicate(root, [write(tmp_path / "claims-lannister.txt", seal.sign(f"{as_lannister}\n# old key\n",
                                                                                          KEYS["stark"]))])  # fmt: skip
    assert result.accepted == [] and [list(r.receipts) for r in result.rejected] == [["moderator"]]
    run(["outbox", str(root), "--send", f"smtp://127.0.0.1:{smtp.port}"])
    GameDir.open(root).write_table("deadlines", {"hours": 48, "remind_hours": 1000})  # every request due soon
    written = reminders.write_reminders(root, now=datetime.now(UTC)).written
    assert written and not [w for w in written if w.startswith("stark-") or "stark@" in w], written
    reminders.send_reminders(root, server=SmtpServer("127.0.0.1", smtp.port))
    assert mails_to(recorder, "stark@players.example") == []
    assert [m["X-Maester-House"] for m in mails_to(recorder, "greyjoy@players.example") if m["X-Maester-Reminder"]] == \
        ["greyjoy"], "a house that owes an answer is reminded"  # fmt: skip
    assert mails_to(recorder, "lannister@players.example") and mails_to(recorder, shapes.MODERATOR_EMAIL)
