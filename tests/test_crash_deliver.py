"""A delivery killed with ``SIGKILL`` at a random moment (issue 27, ruling 334), as ``tests/test_crash.py``
kills ``adjudicate``: ``maester deliver`` runs in a process of its own, mailing through an SMTP server on
loopback (aiosmtpd), and is killed somewhere between reading its message and its last ``mailed`` line.

The mail server saw the delivery fail, so it hands the message over again (a second ``maester
deliver``, run to its end); then the moderator's next command and the next mailing run. However
far the killed delivery got: the turn is taken once, Stark's receipt and the reply to the turn it
sent unsealed reach Stark once each (a mail sent again after a kill is the same message, with the
same Message-ID: ruling 332), every mail written is sent once, no temporary file is left and
``maester replay`` passes. The faults at each write, and a full disk, are in ``tests/test_crash_mail.py``.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from crashkit import temporary_files
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, smtp  # noqa: F401

from adjudicator.folder import audit, ledger, registry

TESTS = Path(__file__).resolve().parent
MAESTER = [sys.executable, "-m", "adjudicator"]
STARK_MAIL = shapes.plain("stark", shapes.turn("stark", 1, "# my orders follow"), 1,
                          after=f"\n\ngame {shapes.GAME} · house stark · round 1 · planning · seq 2\n# unsealed\n")  # fmt: skip

RUNNER = """
import io, sys
from pathlib import Path
from adjudicator.mail import deliver
from adjudicator.mail.sending import SmtpServer
mailing = deliver.Mailing(server=SmtpServer("127.0.0.1", {port}))
raw = Path({message!r}).read_bytes()
deliver.deliver({warm!r}, io.BytesIO(raw), mailing=mailing)  # templates and caches loaded: a warm run is timed
print("ready", flush=True)
sys.stdin.readline()
deliver.deliver({root!r}, io.BytesIO(raw), mailing=mailing)
print("done", flush=True)
"""


def maester(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run([*MAESTER, *args], input=data, capture_output=True, timeout=180,
                          stdin=None if data is not None else subprocess.DEVNULL)  # fmt: skip
    assert b"Traceback" not in done.stdout + done.stderr, done.stderr.decode()
    return done


def started(root: Path, warm: Path, message: Path, port: int) -> subprocess.Popen[bytes]:
    """The delivery's process, ready: its imports done and a warm delivery made, waiting for a line to go."""
    script = RUNNER.format(port=port, message=str(message), warm=str(warm), root=str(root))
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=TESTS.parent)  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == b"ready", proc.stderr.read().decode() if proc.stderr else ""
    return proc


def distinct(mails: list[EmailMessage]) -> list[EmailMessage]:
    """The mails as a reader's program shows them: one per Message-ID (ruling 332)."""
    seen: dict[str, EmailMessage] = {}
    for m in mails:
        seen.setdefault(str(m["Message-ID"]), m)
    return list(seen.values())


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ruling_334_a_delivery_killed_at_a_random_moment_then_handed_over_again_mails_each_reader_once(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder, seed: int) -> None:  # fmt: skip
    send = f"smtp://127.0.0.1:{smtp.port}"
    assert maester("outbox", str(game), "--send", send).returncode == 0  # step 0000 to everyone, before the mail
    message = tmp_path / "message.eml"
    message.write_bytes(STARK_MAIL)
    warm = tmp_path / "warm" / shapes.GAME
    reference = tmp_path / "reference" / shapes.GAME
    for where in (warm, reference):
        shutil.copytree(game, where, symlinks=True)
    proc = started(reference, warm, message, smtp.port)
    assert proc.stdin is not None and proc.stdout is not None
    start = time.perf_counter()
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == b"done"
    took = time.perf_counter() - start
    proc.wait()
    recorder.received.clear()

    proc = started(game, warm, message, smtp.port)
    assert proc.stdin is not None
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    time.sleep(random.Random(seed).uniform(0, took))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # The server hands the message over again (a delivery that did not exit 0 failed), then the cron job runs.
    assert maester("deliver", str(game), "--send", send, data=STARK_MAIL).returncode == 0
    assert maester("status", str(game)).returncode == 0
    assert maester("outbox", str(game), "--send", send).returncode == 0

    accepted = [(e["house"], e["seq"]) for e in registry.read_log(game) if e.get("action") == "accept"]
    assert accepted == [("stark", 1)], "the turn taken once"
    stark = distinct(mails_to(recorder, shapes.EMAILS["stark"]))
    assert [m["X-Maester-Reply"] for m in stark].count("not-taken") == 1, "one reply to the turn sent unsealed"
    receipts = [m for m in stark if "Receipt for archive/000001-stark-r1-planning-seq1.txt" in text_of(m)]
    assert len(receipts) == 1, "Stark's receipt reaches Stark once"
    for house in ("lannister", "baratheon"):
        assert mails_to(recorder, shapes.EMAILS[house]) == [], f"nothing new for {house}: no mail"
    book = ledger.Ledger.read(game).mail
    assert book.queue() == [], "every mail written is sent"
    mailed = [e["file"] for e in registry.read_log(game) if e.get("action") in ("mailed", "replied")]
    assert len(mailed) == len(set(mailed)), "each mail recorded as sent once"
    ids = [str(BytesParser(policy=policy.default).parsebytes(data)["Message-ID"]) for _, _, data in recorder.received]
    again = {i for i in ids if ids.count(i) > 1}
    assert len(again) <= 1, f"only the one mail a kill can catch between its sending and its line goes twice: {again}"
    assert temporary_files(game) == []
    assert audit.replay(game).ok
