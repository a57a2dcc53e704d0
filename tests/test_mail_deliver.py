"""``maester deliver GAME`` (issue 27): one message on standard input, as a mail server's pipe runs it.

It keeps the message in the game's mailbox (the commit point), takes it, adjudicates and mails at
once through an SMTP server on loopback (aiosmtpd). Several deliveries and a cron run at the same
time lose and duplicate nothing; a delivery that cannot get the lock keeps the message for the next
run; nothing kept is exit status 75, anything kept 0, never a traceback (rulings 320-322).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, smtp  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, registry
from adjudicator.folder.gamedir import GameDir
from adjudicator.mail import deliver, spool
from adjudicator.mail.deliver import EX_TEMPFAIL

MAESTER = [sys.executable, "-m", "adjudicator"]


def run_deliver(game: Path, data: bytes, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """``maester deliver GAME ARGS`` as a mail server runs it: a process of its own, the message on its stdin."""
    return subprocess.run([*MAESTER, "deliver", str(game), *args], input=data, capture_output=True, timeout=120,
                          env={**os.environ, **(env or {})})  # fmt: skip


def in_process(monkeypatch: pytest.MonkeyPatch, args: list[str], data: bytes) -> tuple[int, str, str]:
    """``maester ARGS`` in this process, ``data`` on its standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(args)
    return code, out.getvalue(), err.getvalue()


def text_of(msg) -> str:  # type: ignore[no-untyped-def]
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def kept(game: Path) -> list[str]:
    return sorted(os.listdir(game / "mailbox" / "new"))


def accepted(game: Path) -> list[dict]:
    return [e for e in registry.read_log(game) if e.get("action") == "accept"]


def test_ruling_320_deliver_answers_a_sealed_files_sender_at_once(game: Path, smtp: LoopbackController,
                                                                  recorder: Recorder) -> None:  # fmt: skip
    raw = shapes.plain("stark", shapes.turn("stark", 1, "# my orders follow"), 1)
    done = run_deliver(game, raw, "--send", f"smtp://127.0.0.1:{smtp.port}")
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    assert "kept mailbox/new/" in out and "accepted archive/000001-stark-r1-planning-seq1.txt" in out
    assert "Traceback" not in out + done.stderr.decode()
    (mail,) = mails_to(recorder, shapes.EMAILS["stark"])
    assert "000001-stark-r1-planning-seq1.txt" in text_of(mail), "the receipt of the file taken, in the mail sent at once"
    assert len(kept(game)) == 1 and [e["seq"] for e in accepted(game)] == [1]
    assert audit.replay(game).ok


def test_ruling_321_overlapping_deliveries_and_a_cron_run_lose_and_duplicate_nothing(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    """Three deliveries, one a copy of another (a mail server delivering twice), and the cron job's
    ``adjudicate --maildir`` reading the same turns from its mailbox, all at once."""
    turns = {h: shapes.turn(h, 1, f"# {h}'s orders") for h in shapes.HOUSES}
    messages = {h: shapes.plain(h, turns[h], i) for i, h in enumerate(shapes.HOUSES, 1)}
    box = shapes.maildir(tmp_path / "Maildir", [messages["lannister"], messages["baratheon"]])
    send = ["--send", f"smtp://127.0.0.1:{smtp.port}"]
    procs = [subprocess.Popen([*MAESTER, "deliver", str(game), *send], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(4)]  # fmt: skip
    cron = subprocess.Popen([*MAESTER, "adjudicate", str(game), "--maildir", str(box)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)  # fmt: skip
    inputs = [messages["stark"], messages["lannister"], messages["stark"], messages["baratheon"], None]
    with ThreadPoolExecutor(len(inputs)) as pool:  # each process reads its message while the others run
        outs = list(pool.map(lambda pair: pair[0].communicate(pair[1], timeout=180), zip([*procs, cron], inputs)))
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    assert cron.returncode in (0, 1), outs[-1]
    assert not any(b"Traceback" in o + e for o, e in outs)
    # What a delivery could not send (the cron run wrote the mail meanwhile) goes with the next mailing.
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["outbox", str(game), "--send", f"smtp://127.0.0.1:{smtp.port}"]) == 0
    taken = accepted(game)
    assert sorted(e["house"] for e in taken) == sorted(shapes.HOUSES), "each turn taken once"
    assert len(kept(game)) == 4 and batch.waiting(game) == []
    mailed = [e for e in registry.read_log(game) if e.get("action") == "mailed"]
    assert len(mailed) == len({e["file"] for e in mailed}) == len(recorder.received), "each mail sent once"
    for house in shapes.HOUSES:
        text = "\n".join(text_of(m) for m in mails_to(recorder, shapes.EMAILS[house]))
        (mine,) = [e["file"] for e in taken if e["house"] == house]
        assert text.count(f"Receipt for {mine}") == 1, f"{house}: its receipt, once"
    assert audit.replay(game).ok


def test_ruling_321_a_delivery_that_cannot_get_the_lock_keeps_the_message_for_the_next_run(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    raw = shapes.plain("stark", shapes.turn("stark", 1, "# while the cron job runs"), 1)
    with GameDir.open(game).lock():  # the cron job holds the folder
        code, out, err = in_process(monkeypatch, ["deliver", str(game), "--wait", "0.3"], raw)
    assert code == 0 and err == "", err
    assert "is busy: another maester run holds its lock" in out and "the message waits in mailbox/" in out
    assert len(kept(game)) == 1 and accepted(game) == []
    with contextlib.redirect_stdout(io.StringIO()) as said:
        assert cli_main(["adjudicate", str(game)]) == 0  # the next cron run reads the game's mailbox
    assert "accepted archive/000001-stark-r1-planning-seq1.txt" in said.getvalue()
    with contextlib.redirect_stdout(io.StringIO()) as again:
        assert cli_main(["adjudicate", str(game)]) == 0
    assert "accepted" not in again.getvalue() and len(accepted(game)) == 1


def test_ruling_321_a_kept_message_a_killed_delivery_left_is_taken_by_the_next_delivery(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    first = shapes.plain("stark", shapes.turn("stark", 1, "# kept, then the delivery died"), 1)
    code, out, _ = in_process(monkeypatch, ["deliver", str(game), "--keep-only"], first)
    assert code == 0 and out.startswith("kept mailbox/new/") and accepted(game) == []
    second = shapes.plain("lannister", shapes.turn("lannister", 1, "# the next delivery"), 2)
    code, out, _ = in_process(monkeypatch, ["deliver", str(game)], second)
    assert code == 0
    assert sorted(e["house"] for e in accepted(game)) == ["lannister", "stark"], out
    assert "not sent: no server to send through" in out


def test_ruling_322_nothing_kept_is_exit_status_75_so_the_server_tries_again(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    raw = shapes.plain("stark", shapes.turn("stark", 1, "# a full disk"), 1)
    code, _, err = in_process(monkeypatch, ["deliver", str(tmp_path / "no-such-game")], raw)
    assert code == EX_TEMPFAIL and "nothing was kept" in err and "is not a game folder" in err

    class FullDisk(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, b) -> int:  # type: ignore[no-untyped-def, override]
            raise OSError(errno.ENOSPC, "No space left on device")

    real_fdopen = os.fdopen
    monkeypatch.setattr(spool.os, "fdopen", lambda fd, mode="r": (os.close(fd), FullDisk())[1] if "w" in mode
                        else real_fdopen(fd, mode))  # fmt: skip
    code, out, err = in_process(monkeypatch, ["deliver", str(game)], raw)
    assert code == EX_TEMPFAIL and "No space left on device" in err and "nothing was kept" in err
    assert out == "" and kept(game) == [] and os.listdir(game / "mailbox" / "tmp") == []
    monkeypatch.undo()
    code, _, err = in_process(monkeypatch, ["deliver", str(game), "--wait", "soon"], raw)
    assert code == EX_TEMPFAIL and "invalid float value" in err and kept(game) == []


def test_ruling_322_a_full_disk_after_the_message_is_kept_is_finished_by_the_next_run(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    raw = shapes.plain("stark", shapes.turn("stark", 1, "# the disk fills up"), 1)
    with monkeypatch.context() as m:
        m.setattr(batch, "adjudicate", full)
        code, out, err = in_process(monkeypatch, ["deliver", str(game)], raw)
    assert code == 0 and err == ""
    assert "adjudicate: not done: [Errno 28] No space left on device; the message is kept" in out
    assert accepted(game) == [] and len(os.listdir(game / "inbox")) >= 1
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["adjudicate", str(game)]) == 0
    assert [e["house"] for e in accepted(game)] == ["stark"]


def test_ruling_322_a_message_over_the_size_limit_is_not_kept_and_is_recorded_with_its_sender(game: Path) -> None:
    big = shapes.plain("stark", shapes.turn("stark", 1, "# and a film"), 1, after="x" * (spool.MAX_MESSAGE_BYTES + 10))
    done = run_deliver(game, big)
    assert done.returncode == 0, done.stderr.decode()
    assert "kept mailbox/refused/" in done.stdout.decode() and kept(game) == []
    seen = json.loads((game / "mail-seen.json").read_text())
    (entry,) = [e for k, e in seen["messages"].items() if k.startswith("deliver:")]
    assert entry["status"] == "refused" and entry["from"] == shapes.EMAILS["stark"] and entry["subject"] == "my turn"
    assert "over the 10,485,760 bytes maester deliver takes" in entry["why"]
    assert os.listdir(game / "mailbox" / "refused") == [], "the note went once recorded"
    assert accepted(game) == [] and b"Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("raw", [b"", b"\x00\xff" * 5000, b"From: \n\n" + b"=?utf-8?q?" * 5000,
                                 b"Content-Type: multipart/mixed; boundary=x\n\n--x\n" * 300])  # fmt: skip
def test_ruling_322_a_broken_message_is_kept_and_changes_nothing_else(game: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      raw: bytes) -> None:  # fmt: skip
    code, out, err = in_process(monkeypatch, ["deliver", str(game)], raw)
    assert code == 0 and err == "" and "Traceback" not in out
    assert len(kept(game)) == 1 and accepted(game) == [] and os.listdir(game / "inbox") == []


def test_ruling_321_the_envelope_sender_is_kept_as_return_path_and_a_dead_deliverys_file_is_swept(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    box = spool.folders(game)
    dead = box / "tmp" / "1700000000.M000001P999999999Q1.{}".format(spool.unique_name().rsplit(".", 1)[1])
    dead.write_bytes(b"half a message")
    monkeypatch.setenv("SENDER", "")
    code, _, _ = in_process(monkeypatch, ["deliver", str(game), "--keep-only"], b"From: MAILER-DAEMON@x\n\nbounce\n")
    assert code == 0 and not dead.exists()
    (name,) = kept(game)
    assert (box / "new" / name).read_bytes().startswith(b"Return-Path: <>\nFrom: MAILER-DAEMON@x\n")


def test_ruling_321_deliver_reads_its_server_and_key_from_game_toml(game: Path, tmp_path: Path,
                                                                    smtp: LoopbackController,
                                                                    recorder: Recorder) -> None:  # fmt: skip
    from adjudicator.seals.keys import write_key_pair

    write_key_pair(tmp_path / "moderator", shapes.MODERATOR)
    with open(game / "game.toml", "a") as f:
        f.write(f'\n[mail]\nsend = "smtp://127.0.0.1:{smtp.port}"\nkey = "{tmp_path / "moderator"}"\n')
    done = run_deliver(game, shapes.plain("baratheon", shapes.turn("baratheon", 1, "# sealed reports"), 1))
    assert done.returncode == 0 and "sent outbox/0001/baratheon.eml" in done.stdout.decode(), done.stdout.decode()
    (mail,) = mails_to(recorder, shapes.EMAILS["baratheon"])
    assert any(p.get_filename() == "report-0001-baratheon.txt.sig" for p in mail.iter_attachments())
    with open(game / "game.toml", "a") as f:
        f.write('[mail.extra]\n')  # game.toml still reads; a bad setting is said, and the message kept
    (game / "game.toml").write_text((game / "game.toml").read_text().replace(f'key = "{tmp_path / "moderator"}"',
                                                                             'key = "no-such-key"'))  # fmt: skip
    done = run_deliver(game, shapes.plain("stark", shapes.turn("stark", 1, "# no key"), 2))
    assert done.returncode == 0 and "mail: not written: the key" in done.stdout.decode()
    assert sorted(e["house"] for e in accepted(game)) == ["baratheon", "stark"]


def test_deliver_keeps_what_a_mail_server_pipes_with_an_mbox_from_line() -> None:
    raw = b"From ned@example.org Sun Mar  1 18:00:00 2026\nFrom: ned@example.org\n\nhi\n"
    assert spool.with_return_path(raw, "ned@example.org").split(b"\n")[:2] == [
        b"From ned@example.org Sun Mar  1 18:00:00 2026", b"Return-Path: <ned@example.org>"]
    assert deliver.Delivery(Path(".")).exit_status == EX_TEMPFAIL
