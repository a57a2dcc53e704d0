"""Issue 21: mail written by real mail programs, ingested.

Two corpora. One is made here and now by mutt, s-nail and bsd-mailx (``tests/mail/clients.py``), each
test skipped when its program is not installed. The other is stored: ``tests/mail/fixtures/``, the
same kinds of mail as a real Postfix delivered them into a Maildir and an mbox, with how each was
made (``README.md`` there); it runs everywhere.
"""

from __future__ import annotations

import json
import mailbox
import shutil
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from mail import clients, shapes

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch
from adjudicator.mail.ingest import ingest_into_inbox

FIXTURES = clients.FIXTURES
FP = {h: shapes.PublicKey.from_key(shapes.KEYS[h]).fingerprint for h in shapes.HOUSES}
needs_mutt = pytest.mark.skipif(clients.MUTT is None, reason="mutt is not installed (apt-get install mutt)")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / shapes.GAME)


def inbox(game: Path) -> set[bytes]:
    return {p.read_bytes() for p in (game / "inbox").glob("[!.]*.txt")}


def taken_exactly(game: Path, names: list[str]) -> None:
    """The inbox holds each named turn of the corpus, exactly as sealed, and nothing else; the run takes them."""
    assert inbox(game) == {shapes.inbox_text(clients.sealed(n)) for n in names}
    result = batch.adjudicate(game)
    assert not result.rejected, [r.reasons for r in result.rejected]
    assert len(result.accepted) == len(names)


# --- made here, by the programs installed -------------------------------------------------------


@pytest.fixture(scope="module")
def composed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return clients.compose_corpus(tmp_path_factory.mktemp("clients"))


@pytest.mark.parametrize("name", sorted(clients.TURNS))
def test_issue_21_a_turn_sent_by_a_real_mail_program_is_taken_as_sealed(name: str, composed: dict[str, bytes],
                                                                         game: Path, tmp_path: Path) -> None:  # fmt: skip
    program = {"mutt": "mutt", "s": "s-nail", "mailx": "bsd-mailx"}[name.split("-")[0]]
    if name not in composed:
        also = " (or ssh-keygen)" * ("ssh-keygen" in name)
        pytest.skip(f"{program}{also} is not installed (apt-get install mutt s-nail bsd-mailx openssh-client)")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [composed[name]]))
    house = clients.TURNS[name][0]
    out = "\n".join(report.lines())
    assert report.outcomes[0].status == "taken" and f"seal good, House {house.title()}'s key" in out, out
    others = [x for x in report.outcomes[0].lines if not x.startswith("took ")]
    if program == "bsd-mailx":  # it writes no From: the mail system adds one (see the stored fixtures)
        assert others == ["note: sent from (no address), not House Baratheon's registered address "
                          "baratheon@players.example; the seal decides"]  # fmt: skip
    else:
        assert others == [], out
    taken_exactly(game, [name])


def test_issue_21_mutt_sends_latin1_unless_told_otherwise(composed: dict[str, bytes]) -> None:
    """What the corpus covers: mutt re-encodes a text that fits Latin-1 (its default send_charset)."""
    if "mutt-latin1" not in composed:
        pytest.skip("mutt is not installed")
    msg = BytesParser(policy=policy.default).parsebytes(composed["mutt-latin1"])
    assert msg.get_content_charset() == "iso-8859-1" and "·".encode("latin-1") in composed["mutt-latin1"]
    assert "format=flowed" in composed["mutt-flowed"].decode("latin-1")


def quoted_body(reply: bytes) -> str:
    msg = BytesParser(policy=policy.default).parsebytes(reply)
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


@needs_mutt
def test_issue_21_a_reply_made_by_mutt_carries_the_report_once(game: Path, tmp_path: Path) -> None:
    reply = clients.mutt_reply(tmp_path, clients.report_mail(tmp_path))
    text = quoted_body(reply)
    assert text.count("> ASKED OF YOU NOW") == 1
    assert text.count("> PRIVATE report for House Stark") == 1
    assert text.count("> THE BOARD") == 1 and text.count("> YOUR TURN FILE") == 1
    assert "report-0000-stark.txt" in text  # named in the seal paragraph, never shown or quoted as a part
    assert len(reply) < 20_000  # the text of one report, not two
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [reply]))
    notes = [x for x in report.outcomes[0].lines if x.startswith("not taken")]
    assert report.taken == [] and len(notes) == 1 and notes[0].startswith("not taken: 1 quoted turn text with no seal")


@needs_mutt
def test_issue_21_a_turn_written_above_a_mutt_reply_to_a_report_is_taken(game: Path, tmp_path: Path) -> None:
    reply = clients.mutt_reply(tmp_path, clients.report_mail(tmp_path), on_top=clients.sealed("mutt-inline") + "\n")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [reply]))
    lines = report.outcomes[0].lines
    assert [x for x in lines if "seal good" in x] and len([x for x in lines if x.startswith("not taken")]) == 1
    taken_exactly(game, ["mutt-inline"])


@needs_mutt
def test_issue_21_a_turn_written_below_the_quote_of_a_report_is_taken_without_the_quoted_lines(game: Path,
                                                                                             tmp_path: Path) -> None:  # fmt: skip
    """Bottom-posting: the quoted skeleton's header comes first, the sealed turn after the quote. The
    quoted lines are no part of the turn (the inbox holds exactly the sealed text) and give one note."""
    reply = clients.mutt_reply(tmp_path, clients.report_mail(tmp_path), below="\n" + clients.sealed("mutt-inline"))
    assert quoted_body(reply).index("> YOUR TURN FILE") < quoted_body(reply).index("-----BEGIN SSH SIGNATURE")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [reply]))
    lines = report.outcomes[0].lines
    assert [x for x in lines if x.startswith("not taken")] == [x for x in lines if "quoted turn text" in x]
    assert len([x for x in lines if x.startswith("not taken")]) == 1
    taken_exactly(game, ["mutt-inline"])


@needs_mutt
def test_issue_21_the_text_of_a_report_mail_saved_by_mutt_checks_with_verify_report(tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """docs/moderating.md: the body as a mail program saves it verifies (mutt saves it byte for byte)."""
    raw = clients.report_mail(tmp_path)
    (tmp_path / "saved.txt").write_bytes(clients.mutt_save_text(tmp_path / "mutt", raw))
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    sig = next(p for p in msg.iter_attachments() if str(p.get_filename()).endswith(".sig"))
    (tmp_path / "report.sig").write_bytes(sig.get_payload(decode=True))
    (tmp_path / "moderator.pub").write_text(shapes.MODERATOR.public.line() + "\n")
    argv = ["verify-report", "--key", str(tmp_path / "moderator.pub"), str(tmp_path / "saved.txt"),
            "--sig", str(tmp_path / "report.sig")]  # fmt: skip
    assert cli_main(argv) == 0 and "good: sealed by the moderator's key" in capsys.readouterr().out


# --- what s-nail shows of a report mail (ruling 312) ---------------------------------------------

needs_s_nail = pytest.mark.skipif(clients.S_NAIL is None, reason="s-nail is not installed (apt-get install s-nail)")


def shows_the_report_once(shown: str) -> None:
    """s-nail's display of House Stark's mail of step 0000: every part of the report once."""
    for line in ("ASKED OF YOU NOW", "YOUR TURN FILE", "WHAT HAPPENED", "THE BOARD", "YOUR HAND",
                 "Sealed by the moderator's key"):  # fmt: skip
        assert sum(1 for x in shown.splitlines() if x.startswith(line)) == 1, line
    assert shown.count("game mailgame · house stark · round 1 · planning · seq 1") == 1
    assert "[-- report-0000-stark.txt --]" not in shown  # the part s-nail once typed as text by its name


def test_ruling_312_s_nail_showed_the_report_once(tmp_path: Path) -> None:
    """The stored fixture made by s-nail itself (``make_fixtures.py --s-nail``); the mail written today
    has the structure of the one s-nail showed, so what it showed holds for today's mail."""
    shows_the_report_once((FIXTURES / "s-nail" / "report-shown.txt").read_text(encoding="utf-8"))
    stored = json.loads((FIXTURES / "s-nail" / "report-structure.json").read_text())
    assert clients.structure(clients.report_mail(tmp_path)) == stored, \
        "the mail's parts changed: make the fixture again (tests/mail/make_fixtures.py --s-nail) and read it"


@needs_s_nail
def test_ruling_312_s_nail_shows_the_report_once(tmp_path: Path) -> None:
    shows_the_report_once(clients.s_nail_show(tmp_path / "s-nail", clients.report_mail(tmp_path)))


# --- stored: delivered by Postfix ---------------------------------------------------------------


def stored() -> list[Path]:
    return sorted((FIXTURES / "maildir").glob("*.eml"))


def test_issue_21_the_stored_fixtures_are_the_corpus_and_the_replies() -> None:
    assert [p.stem for p in stored()] == sorted([*clients.TURNS, "mutt-reply-to-report", "mutt-turn-above-report"])
    assert (FIXTURES / "README.md").is_file() and (FIXTURES / "postfix.mbox").is_file()
    for path in stored():  # each as Postfix delivered it
        head = path.read_bytes().split(b"\n\n", 1)[0]
        assert head.startswith(b"Return-Path: <") and b"Delivered-To: moderator@maester.example" in head
        assert b"by mx.maester.example (Postfix" in head


def test_issue_21_every_stored_real_client_mail_in_a_maildir_is_taken(game: Path, tmp_path: Path) -> None:
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    for path in stored():
        shutil.copy(path, tmp_path / "Maildir" / "new" / f"{path.stem}.mx.maester.example")
    assert len(box) == len(stored())
    report = ingest_into_inbox(game, maildir=tmp_path / "Maildir")
    by_name = {o.source.split(" ")[0].split(".")[0]: o for o in report.outcomes}
    for name in clients.TURNS:
        assert by_name[name].status == "taken", (name, by_name[name].lines)
    assert by_name["mutt-reply-to-report"].status == "ignored"
    assert [x for x in by_name["mutt-reply-to-report"].lines if x.startswith("not taken")] == [
        "not taken: 2 quoted turn texts with no seal in the body (lines 12, 41): a reply quoting a report's "
        "skeleton or an earlier turn"]  # fmt: skip
    assert by_name["mutt-turn-above-report"].status == "nothing new"  # the same turn as mutt-inline, taken once
    taken_exactly(game, list(clients.TURNS))


def test_issue_21_every_stored_real_client_mail_in_an_mbox_is_taken(game: Path) -> None:
    report = ingest_into_inbox(game, mbox=FIXTURES / "postfix.mbox")
    assert len(report.outcomes) == len(stored()) and report.exit_status == 0
    taken_exactly(game, list(clients.TURNS))
