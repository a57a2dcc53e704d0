"""Make the stored corpus ``tests/mail/fixtures/`` again: real mail programs, delivered by a real Postfix.

Run from the checkout, on a machine with mutt, s-nail, bsd-mailx, ssh-keygen and a Postfix set up as
``tests/mail/fixtures/README.md`` says (mail for moderator@maester.example into a Maildir, for
archive@maester.example into an mbox)::

    .venv/bin/python tests/mail/make_fixtures.py /path/to/vmail
    .venv/bin/python tests/mail/make_fixtures.py --s-nail     # fixtures/s-nail/: what s-nail shows of a report mail

Each mail of :func:`clients.compose_corpus`, and two replies made by mutt to a report mail, is handed
to Postfix's ``sendmail`` as the program would have handed it, one at a time; the file Postfix
delivers into the Maildir is stored as ``fixtures/maildir/NAME.eml``, and the mbox as
``fixtures/postfix.mbox``. Not part of the test suite, which only reads what this wrote.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from email.utils import parseaddr
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mail import clients

SENDMAIL = "/usr/sbin/sendmail"


def deliver(raw: bytes, vmail: Path, fallback_sender: str) -> bytes:
    """Hand one message to Postfix, to both mailboxes; the file delivered into the Maildir."""
    before = set((vmail / "maildir" / "new").glob("*"))
    head = raw.split(b"\n\n", 1)[0].decode("utf-8", "replace")
    sender = next((parseaddr(line[5:])[1] for line in head.splitlines() if line.lower().startswith("from:")), "")
    subprocess.run([SENDMAIL, "-oi", "-f", sender or fallback_sender, "moderator@maester.example",
                    "archive@maester.example"], input=raw, check=True, timeout=60)  # fmt: skip
    for _ in range(600):
        new = set((vmail / "maildir" / "new").glob("*")) - before
        if new:
            time.sleep(0.5)  # the mbox delivery runs beside the Maildir one
            return new.pop().read_bytes()
        time.sleep(0.1)
    raise SystemExit("Postfix delivered nothing in 60 s: is it running (postfix status)?")


def main(vmail: Path) -> None:
    out = clients.FIXTURES
    shutil.rmtree(out / "maildir", ignore_errors=True)
    (out / "maildir").mkdir(parents=True)
    (vmail / "moderator.mbox").unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        mails = clients.compose_corpus(base / "corpus")
        missing = sorted(set(clients.TURNS) - set(mails))
        if missing:
            raise SystemExit(f"not made (a program is missing): {', '.join(missing)}")
        report = clients.report_mail(base / "report")
        mails["mutt-reply-to-report"] = clients.mutt_reply(base / "reply1", report)
        mails["mutt-turn-above-report"] = clients.mutt_reply(base / "reply2", report,
                                                             on_top=clients.sealed("mutt-inline") + "\n")  # fmt: skip
        for name, raw in mails.items():
            delivered = deliver(raw, vmail, f"{clients.TURNS.get(name, ('stark',))[0]}@players.example")
            (out / "maildir" / f"{name}.eml").write_bytes(delivered)
            print(f"{name}: {len(delivered)} bytes")
    shutil.copy(vmail / "moderator.mbox", out / "postfix.mbox")


def s_nail_display() -> None:
    """``fixtures/s-nail/``: what s-nail (with the system's ``/etc/s-nail.rc``) shows of House Stark's
    report mail as ``maester outbox`` writes it, and that mail's structure (its parts, the pictures
    and texts themselves left out). No mail server needed."""
    out = clients.FIXTURES / "s-nail"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        mail = clients.report_mail(Path(tmp) / "report")
        shown = clients.s_nail_show(Path(tmp) / "s-nail", mail)
    parts = ",\n".join(f" {json.dumps(part)}" for part in clients.structure(mail))
    (out / "report-structure.json").write_text(f"[\n{parts}\n]\n")
    (out / "report-shown.txt").write_text(shown, encoding="utf-8")
    print(f"s-nail showed {len(shown.splitlines())} lines of a mail of {len(mail)} bytes")


if __name__ == "__main__":
    if sys.argv[1:] == ["--s-nail"]:
        s_nail_display()
    else:
        main(Path(sys.argv[1]))
