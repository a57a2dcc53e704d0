"""Sending the outbox to a real SMTP server on loopback (aiosmtpd, started and stopped by each test).

Every message that arrives is checked intact: its envelope, its headers, both alternatives, the
attachments, and the moderator's seal.
"""

from __future__ import annotations

import datetime as dt
import gzip
import ipaddress
import shutil
import socket
import ssl
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from clikit import reports_of
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.x509.oid import NameOID
from mail import shapes
from mail.loopback import LoopbackController, Recorder, recorder, reported, run_server, smtp  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import registry
from adjudicator.mail.outbox import (
    SmtpServer,
    parse_smtp_url,
    send_outbox,
    verify_report,
    write_outbox,
)
from adjudicator.mail.recipe import written_mail
from adjudicator.seals.keys import write_key_pair

MOD = shapes.MODERATOR


@pytest.fixture
def game(reported: Path, tmp_path: Path) -> Path:
    root = Path(shutil.copytree(reported, tmp_path / shapes.GAME))
    write_outbox(root, key=MOD)
    return root


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1: (certificate file, key file)."""
    key = Ed25519PrivateKey.generate()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "maester test server")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, None))  # fmt: skip
    folder = tmp_path_factory.mktemp("tls")
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))  # fmt: skip
    return folder / "cert.pem", folder / "key.pem"


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(*map(str, certificate))
    return ctx


def client_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(certificate[0]))


def check_intact(game: Path, received: list[tuple[str, list[str], bytes]]) -> None:
    """Every message arrived as written: envelope, headers, both alternatives, attachments, a good seal."""
    folder, rendered = game / "outbox" / "0000", reports_of(game)
    assert len(received) == 4
    by_name = {}
    for mail_from, rcpt, data in received:
        msg = BytesParser(policy=policy.default).parsebytes(data)
        assert isinstance(msg, EmailMessage)
        by_name[f"{msg['X-Maester-House']}.eml"] = (mail_from, rcpt, msg, data)
    assert set(by_name) == {"stark.eml", "lannister.eml", "baratheon.eml", "moderator.eml"}
    for name, (mail_from, rcpt, msg, data) in by_name.items():
        kept = written_mail(game, f"outbox/0000/{name}")  # sent: made again from its recipe (ruling 318)
        assert not (folder / name).exists()
        written = BytesParser(policy=policy.default).parsebytes(kept)
        assert data.rstrip(b"\r\n") == kept.rstrip(b"\r\n")  # byte for byte
        assert mail_from == shapes.MODERATOR_EMAIL
        assert rcpt == [a.addr_spec for a in msg["To"].addresses]
        for header in ("From", "To", "Subject", "Date", "Message-ID", "X-Maester-Step"):
            assert msg[header] == written[header], header
        house = name.removesuffix(".eml")
        assert rcpt == [shapes.EMAILS.get(house, shapes.MODERATOR_EMAIL)]
        text_part, html_part = msg.get_body(("plain",)), msg.get_body(("html",))
        assert text_part is not None and html_part is not None
        text, page = text_part.get_content().replace("\r\n", "\n"), html_part.get_content()
        assert '<img id="map" src="cid:' in page and page.rstrip().endswith("</html>")
        files = {p.get_filename(): p.get_payload(decode=True) for p in msg.iter_attachments()}
        sig = files.pop(f"report-0000-{house}.txt.sig")
        assert verify_report(text, sig.decode()).key.fingerprint == MOD.public.fingerprint
        step = next(rendered.glob("0000-*"))  # the JSON parts arrive as the step's pages are
        assert gzip.decompress(files.pop(f"{shapes.GAME}-0000.json.gz")) == (step / "report.json").read_bytes()
        if house in shapes.HOUSES:  # compressed (ruling 316)
            private = gzip.decompress(files.pop(f"{shapes.GAME}-0000-{house}.jsonl.gz"))
            assert private == (step / f"{house}.json").read_bytes()
        assert files == {}, "the text is not attached again (ruling 312)"


def test_outbox_arrives_intact_over_smtp_and_is_not_sent_twice(game: Path, smtp: LoopbackController,
                                                                recorder: Recorder) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    report = send_outbox(game, server=server)
    assert report.exit_status == 0 and len(report.sent) == 4 and report.failed == []
    check_intact(game, recorder.received)
    mailed = {e["file"]: e for e in registry.read_log(game) if e.get("action") == "mailed"}
    assert mailed["outbox/0000/stark.eml"]["to"] == [shapes.EMAILS["stark"]] and mailed["outbox/0000/stark.eml"]["refused"] == {}
    again = send_outbox(game, server=server)
    assert again.sent == [] and len(recorder.received) == 4
    assert "every mail written was sent already" in again.notes


def test_starttls_with_a_login(game: Path, recorder: Recorder, certificate: tuple[Path, Path]) -> None:
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.password == b"correct horse", handled=False)  # not handled: answer 535

    for controller in run_server(recorder, tls_context=server_context(certificate), require_starttls=True,
                                 authenticator=authenticator, auth_require_tls=True):  # fmt: skip
        base = f"smtp://127.0.0.1:{controller.port}"
        wrong = parse_smtp_url(base, starttls=True, user="mod", password="wrong", context=client_context(certificate))
        failed = send_outbox(game, server=wrong)
        assert failed.exit_status == 1 and len(failed.failed) == 4 and recorder.received == []
        assert failed.failed[0] == (f"outbox/0000/stark.eml: {wrong} refused the login of mod: 535 5.7.8 "
                                    "Authentication credentials invalid")  # fmt: skip
        assert not [e for e in registry.read_log(game) if e.get("action") == "mailed"]
        right = parse_smtp_url(base, starttls=True, user="mod", password="correct horse",
                               context=client_context(certificate))  # fmt: skip
        assert send_outbox(game, server=right).exit_status == 0
    assert logins[-1] == (b"mod", b"correct horse")
    check_intact(game, recorder.received)


def test_smtps_tls_from_the_start(game: Path, recorder: Recorder, certificate: tuple[Path, Path]) -> None:
    for controller in run_server(recorder, ssl_context=server_context(certificate)):
        server = parse_smtp_url(f"smtps://127.0.0.1:{controller.port}", context=client_context(certificate))
        assert send_outbox(game, server=server).exit_status == 0
    check_intact(game, recorder.received)


def test_an_untrusted_certificate_sends_nothing(game: Path, recorder: Recorder, certificate: tuple[Path, Path]) -> None:
    for controller in run_server(recorder, ssl_context=server_context(certificate)):
        untrusted = SmtpServer("127.0.0.1", controller.port, tls=True)  # the system's CAs do not know this one
        report = send_outbox(game, server=untrusted)
        assert report.exit_status == 1 and "cannot reach" in report.failed[0] and recorder.received == []


def test_a_refused_recipient_is_reported_and_sent_at_the_next_run(game: Path, smtp: LoopbackController,
                                                                   recorder: Recorder) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    recorder.refuse = {shapes.EMAILS["lannister"]}
    first = send_outbox(game, server=server)
    assert first.exit_status == 1 and len(first.sent) == 3
    assert first.failed == [f"outbox/0000/lannister.eml: refused by {server}: {shapes.EMAILS['lannister']}: 550 5.1.1 "
                            "no such mailbox here"]  # fmt: skip
    recorder.refuse = set()
    second = send_outbox(game, server=server)
    assert second.exit_status == 0 and second.sent == [f"outbox/0000/lannister.eml to {shapes.EMAILS['lannister']}"]
    check_intact(game, recorder.received)


def test_an_unreachable_server_sends_nothing_and_records_nothing(game: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    report = send_outbox(game, server=SmtpServer("127.0.0.1", port, timeout=5))
    assert report.exit_status == 1 and len(report.failed) == 4 and "cannot reach" in report.failed[0]
    assert not [e for e in registry.read_log(game) if e.get("action") == "mailed"]


def test_cli_outbox_send(reported: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder,
                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    game = Path(shutil.copytree(reported, tmp_path / shapes.GAME))
    write_key_pair(tmp_path / "mod", MOD)
    args = ["outbox", str(game), "--key", str(tmp_path / "mod"), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert f"sent outbox/0000/stark.eml to {shapes.EMAILS['stark']}" in out
    check_intact(game, recorder.received)
    assert cli_main(args) == 0 and len(recorder.received) == 4
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("  sent ")]
