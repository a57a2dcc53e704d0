"""Issue 21: ``maester verify-report`` takes a report mail however a player saved it: the attachment, the
text as a mail program saved it (CRLF, blanks at line ends), the whole mail (quoted-printable, base64,
format=flowed, its own .sig attachment), or a text copied from the mail's source (quoted-printable).
Every reading is only a candidate: a text the moderator did not seal never passes."""

from __future__ import annotations

import quopri
import shutil
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from mail import shapes

from adjudicator.cli import main as cli_main
from adjudicator.mail.outbox import write_outbox
from adjudicator.mail.savedreport import read_saved

MOD = shapes.MODERATOR


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    game = shapes.make_reported_game(tmp_path_factory.mktemp("saved") / shapes.GAME)
    write_outbox(game, key=MOD)
    return (game / "outbox" / "0000" / "stark.eml").read_bytes()


@pytest.fixture
def pub(tmp_path: Path) -> str:
    (tmp_path / "moderator.pub").write_text(MOD.public.line() + "\n")
    return str(tmp_path / "moderator.pub")


def body_and_seal(raw: bytes) -> tuple[str, bytes]:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("plain",))
    assert body is not None
    sig = next(p for p in msg.iter_attachments() if str(p.get_filename()).endswith(".sig"))
    data = sig.get_payload(decode=True)
    assert isinstance(data, bytes)
    return str(body.get_content()).replace("\r\n", "\n"), data  # as a mail program shows it


def flowed(text: str, width: int = 40) -> str:
    """``text`` as a program sending format=flowed writes it (RFC 3676): soft breaks after a space, and
    space-stuffing; leading blanks kept (the report indents its lists)."""
    out: list[str] = []
    for line in text.split("\n"):
        while len(line) > width and (cut := line.rfind(" ", 1, width)) > 0 and line[:cut].strip():
            out.append(line[: cut + 1])
            line = line[cut + 1 :]
        out.append(line)
    return "\r\n".join(" " + x if x.startswith((" ", ">", "From ")) else x for x in out)


def verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = cli_main(["verify-report", *argv])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_issue_21_the_whole_mail_as_sent_checks_with_its_own_seal(mail: bytes, tmp_path: Path, pub: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert b"Content-Transfer-Encoding: quoted-printable" in mail  # the text travels quoted-printable
    (tmp_path / "saved.eml").write_bytes(mail)
    status, out = verify(capsys, "--key", pub, str(tmp_path / "saved.eml"))
    assert status == 0, out
    assert f"good: sealed by the moderator's key {MOD.public.fingerprint}, unchanged (the text of the mail)" in out


def test_issue_21_a_whole_mail_kept_in_an_mbox_with_lf_line_ends_checks(mail: bytes, tmp_path: Path, pub: str,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert b"\r\n" in mail  # sent with CRLF; a mail program keeps it with LF, after a From line
    saved = b"From moderator@maester.example Sun Mar  1 18:00:00 2026\n" + mail.replace(b"\r\n", b"\n")
    (tmp_path / "saved.mbox").write_bytes(saved)
    assert verify(capsys, "--key", pub, str(tmp_path / "saved.mbox"))[0] == 0


@pytest.mark.parametrize("cte", ["base64", "8bit"])
def test_issue_21_a_mail_whose_text_was_reencoded_on_the_way_checks(mail: bytes, tmp_path: Path, pub: str, cte: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """A mail system may re-encode a part (8BITMIME relays, list servers): the text is what counts."""
    text, sig = body_and_seal(mail)
    m = EmailMessage(policy=policy.default)
    m["Subject"] = "Fwd: report"
    m.set_content(text, cte=cte)
    m.add_attachment(sig, maintype="application", subtype="octet-stream", filename="report-0000-stark.txt.sig")
    (tmp_path / "saved.eml").write_bytes(m.as_bytes())
    assert verify(capsys, "--key", pub, str(tmp_path / "saved.eml"))[0] == 0


def test_issue_21_a_mail_sent_on_as_format_flowed_checks_with_its_soft_breaks_undone(mail: bytes, tmp_path: Path,
                                                                                     pub: str,
                                                                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    text, sig = body_and_seal(mail)
    sent = flowed(text)
    assert sent.count(" \r\n") > 50  # many soft breaks
    m = EmailMessage(policy=policy.default)
    m.set_content(sent)
    m.replace_header("Content-Type", 'text/plain; charset="utf-8"; format=flowed')
    (tmp_path / "saved.eml").write_bytes(m.as_bytes())
    (tmp_path / "report.sig").write_bytes(sig)
    assert verify(capsys, "--key", pub, str(tmp_path / "saved.eml"), "--sig", str(tmp_path / "report.sig"))[0] == 0


def test_issue_21_a_text_copied_from_the_mails_source_is_read_as_quoted_printable(mail: bytes, tmp_path: Path,
                                                                                  pub: str,
                                                                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    text, sig = body_and_seal(mail)
    source = quopri.encodestring(text.encode("utf-8"))
    assert b"=C2=B7" in source or b"=\n" in source
    (tmp_path / "copied.txt").write_bytes(source)
    (tmp_path / "copied.txt.sig").write_bytes(sig)
    status, out = verify(capsys, "--key", pub, str(tmp_path / "copied.txt"))
    assert status == 0 and "(the file read as quoted-printable" in out


def test_issue_21_no_reading_makes_a_changed_report_pass(mail: bytes, tmp_path: Path, pub: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """Whatever way the file is read, a change to the text is a bad seal, with where to look."""
    text, sig = body_and_seal(mail)
    changed = mail.replace(b"Stark", b"Stork", 1)
    assert changed != mail
    (tmp_path / "changed.eml").write_bytes(changed.replace(b"House Stark", b"House Stork"))
    status, out = verify(capsys, "--key", pub, str(tmp_path / "changed.eml"))
    assert status == 1 and "BAD [bad-signature]" in out
    (tmp_path / "copied.txt").write_bytes(quopri.encodestring(text.replace("Stark", "Stork").encode()))
    (tmp_path / "copied.txt.sig").write_bytes(sig)
    status, out = verify(capsys, "--key", pub, str(tmp_path / "copied.txt"))
    assert status == 1 and "BAD [bad-signature]" in out and "give the whole mail as saved (mutt: s on the message)" in out


def test_issue_21_a_saved_mail_without_a_seal_or_a_text_says_what_to_give(tmp_path: Path, pub: str,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    m = EmailMessage(policy=policy.default)
    m.set_content("no seal here\n")
    (tmp_path / "plain.eml").write_bytes(m.as_bytes())
    status, out = verify(capsys, "--key", pub, str(tmp_path / "plain.eml"))
    assert status == 2 and "plain.eml.sig: no such file (give the seal with --sig FILE)" in out
    m = EmailMessage(policy=policy.default)
    m["MIME-Version"] = "1.0"
    m.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="map.png")
    (tmp_path / "image.eml").write_bytes(m.as_bytes())
    status, out = verify(capsys, "--key", pub, str(tmp_path / "image.eml"))
    assert status == 2 and "a mail with no text part" in out
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe binary")
    status, out = verify(capsys, "--key", pub, str(tmp_path / "binary.txt"))
    assert status == 2 and "not UTF-8 text" in out and "Traceback" not in out


def test_issue_21_a_report_text_whose_first_line_looks_like_a_header_is_read_as_text() -> None:
    """Only a file with a MIME header (MIME-Version or Content-Type) is read as a whole mail."""
    assert [r.how for r in read_saved(b"Note: this is text\n\nmore\n").texts] == ["the file"]
    assert read_saved(b"\xef\xbb\xbfASKED OF YOU NOW\n").texts[0].text == "ASKED OF YOU NOW\n"


@pytest.mark.skipif(shutil.which("mutt") is None, reason="mutt is not installed (apt-get install mutt)")
def test_issue_21_a_report_mail_saved_whole_by_mutt_checks(mail: bytes, tmp_path: Path, pub: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from mail import clients

    saved = clients.mutt_save_message(tmp_path / "mutt", mail)
    (tmp_path / "saved.mbox").write_bytes(saved)
    assert verify(capsys, "--key", pub, str(tmp_path / "saved.mbox"))[0] == 0


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="OpenSSH's ssh-keygen is not installed")
def test_issue_21_normalise_report_takes_the_text_of_a_whole_saved_mail_for_ssh_keygen(mail: bytes, tmp_path: Path,
                                                                                      capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """docs/moderating.md: maester normalise --report on the whole mail gives the text ssh-keygen checks."""
    import subprocess

    _, sig = body_and_seal(mail)
    (tmp_path / "saved.eml").write_bytes(mail)
    (tmp_path / "report.sig").write_bytes(sig)
    (tmp_path / "moderator.allowed").write_text(f'moderator namespaces="maester-report" {MOD.public.line()}\n')
    assert cli_main(["normalise", "--report", str(tmp_path / "saved.eml"), "--out", str(tmp_path / "saved.norm")]) == 0
    with open(tmp_path / "saved.norm", "rb") as f:
        done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", "moderator.allowed", "-I", "moderator", "-n",
                               "maester-report", "-s", "report.sig"], cwd=tmp_path, stdin=f, capture_output=True,
                              check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    m = EmailMessage(policy=policy.default)
    m["MIME-Version"] = "1.0"
    m.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="map.png")
    (tmp_path / "image.eml").write_bytes(m.as_bytes())
    assert cli_main(["normalise", "--report", str(tmp_path / "image.eml")]) == 2
    assert "a mail with no text part" in capsys.readouterr().err
