"""Mail in: every sealed block in every shape of mail reaches the inbox exactly once; bad mail is reported."""

from __future__ import annotations

import fcntl
import hashlib
import json
import mailbox as std_mailbox
from pathlib import Path

import pytest
from mail import shapes
from mail.shapes import turn

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch
from adjudicator.mail import mailboxes
from adjudicator.mail.ingest import (
    MailError,
    html_to_text,
    ingest_into_inbox,
    scan_message,
    unflow,
)
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey


def inbox_files(game: Path) -> dict[bytes, str]:
    """The inbox's turn files by content (each content must appear once)."""
    files = sorted(p for p in (game / "inbox").iterdir() if not p.name.startswith("."))
    out: dict[bytes, str] = {}
    for p in files:
        data = p.read_bytes()
        assert data not in out, f"{p.name} duplicates {out[data]}"
        out[data] = p.name
    return out


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / shapes.GAME)


def corpus() -> tuple[list[bytes], list[str]]:
    """Every shape of mail, and the sealed turns the inbox must end up holding (each once)."""
    t = {i: turn("stark", i, f"# turn {i}") for i in range(1, 17)}
    lan = {i: turn("lannister", i, f"# lannister {i}") for i in range(1, 4)}
    bar = turn("baratheon", 1, "# with  two spaces  inside")
    first = shapes.plain("stark", t[1], 1)
    messages = [
        first,
        shapes.alternative("stark", t[2]),
        shapes.attachment("stark", t[3]),
        shapes.attachment("stark", t[4], 16, octet=True),
        shapes.quoted_printable("stark", t[5]),
        shapes.base64_body("stark", t[6]),
        shapes.flowed("stark", t[7], delsp=True),
        shapes.flowed("stark", t[8], 17, delsp=False, width=20),
        shapes.html_only("stark", t[9], style="gmail"),
        shapes.html_only("baratheon", bar, 18, style="outlook"),
        shapes.reply_quoting("stark", t[1], t[10]),  # quotes the first mail's turn: taken once
        shapes.reply_quoting("stark", t[10], None, 19, depth=2),  # only a quoted copy of turn 10
        shapes.html_reply("stark", t[2]),  # an HTML reply quoting turn 2
        shapes.forwarded(shapes.plain("stark", t[11], 20)),
        shapes.several("lannister", [lan[1], lan[2], lan[3]]),
        shapes.plain("stark", t[12], 21, msgid=False),  # no Message-ID: known by its bytes
        shapes.plain("stark", t[3], 22),  # the same block as the attachment, in another message
    ]
    expected = [t[i] for i in range(1, 13)] + [lan[1], lan[2], lan[3], bar]
    return messages, expected


def test_every_shape_of_maildir_mail_reaches_the_inbox_exactly_once(game: Path, tmp_path: Path) -> None:
    messages, expected = corpus()
    box = shapes.maildir(tmp_path / "Maildir", messages, cur=5)
    (box / "tmp" / "half-written").write_bytes(shapes.plain("stark", turn("stark", 99), 99)[:200])
    report = ingest_into_inbox(game, maildir=box)
    assert report.exit_status == 0, report.lines()
    assert set(inbox_files(game)) == {shapes.inbox_text(s) for s in expected}
    assert len(report.taken) == len(expected)
    again = ingest_into_inbox(game, maildir=box)
    assert again.taken == [] and {o.status for o in again.outcomes} == {"seen"}
    result = batch.adjudicate(game)
    assert result.rejected == [] and len(result.accepted) == len(expected)


def test_every_shape_of_mbox_mail_reaches_the_inbox_exactly_once(game: Path, tmp_path: Path) -> None:
    messages, expected = corpus()
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", messages))
    assert report.exit_status == 0
    assert set(inbox_files(game)) == {shapes.inbox_text(s) for s in expected}
    assert batch.adjudicate(game).rejected == []


def test_ruling_145_a_message_in_both_a_maildir_and_an_mbox_is_taken_once(game: Path, tmp_path: Path) -> None:
    raw = shapes.plain("stark", turn("stark", 1), 1)
    first = ingest_into_inbox(game, maildir=shapes.maildir(tmp_path / "Maildir", [raw]))
    second = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert len(first.taken) == 1 and second.taken == []
    assert [o.status for o in second.outcomes] == ["seen"]
    seen = json.loads((game / "mail-seen.json").read_text())
    assert len(seen["messages"]) == 1 and len(seen["blocks"]) == 1


def test_ruling_145_a_message_without_message_id_is_known_by_its_bytes(game: Path, tmp_path: Path) -> None:
    raw = shapes.plain("stark", turn("stark", 1), 1, msgid=False)
    ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "a", [raw]))
    again = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "b", [raw]))
    assert [o.status for o in again.outcomes] == ["seen"]
    assert any(k.startswith("sha256:") for k in json.loads((game / "mail-seen.json").read_text())["messages"])


def test_ruling_145_the_same_block_in_two_messages_is_one_submission(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "# once")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [
        shapes.plain("stark", sealed, 1), shapes.attachment("stark", sealed, 2)]))  # fmt: skip
    assert len(report.taken) == 1
    assert [o.status for o in report.outcomes] == ["taken", "nothing new"]
    assert "already taken (from <" in "\n".join(report.lines())


def test_inbox_file_is_the_normalised_sealed_text_and_its_seal(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "march from Winterfell: footman -> Castle Black")
    raw = shapes.reply_quoting("stark", sealed.replace("\n", "   \n"), None)  # trailing blanks, quoted
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    data = (game / "inbox" / report.taken[0]).read_bytes()
    assert data == seal.normalise(sealed).encode()
    block = seal.split_sealed(data.decode())[0]
    stark = PublicKey.from_key(shapes.KEYS["stark"]).fingerprint
    assert block.open().key.fingerprint == stark
    assert seal.verify(block.text, block.armour).key.fingerprint == stark


def test_inbox_name_is_the_date_and_a_hash_with_a_sidecar(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1)
    raw = shapes.plain("stark", sealed, 3)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    name = report.taken[0]
    digest = hashlib.sha256(shapes.inbox_text(sealed)).hexdigest()
    assert name == f"20260301T180300Z-{digest[:16]}.txt"
    meta = json.loads((game / "inbox" / f".{name}.meta.json").read_text())
    assert meta["from"] == "stark@players.example" and meta["subject"] == "my turn"
    assert meta["message_id"].endswith("@players.example>") and meta["date"].startswith("2026-03-01T18:03")
    assert meta["sha256"] == digest and meta["where"].startswith("the body, lines 3-")


def test_three_sealed_blocks_in_one_message_are_all_taken(game: Path, tmp_path: Path) -> None:
    turns = [turn("stark", 1), turn("lannister", 1), turn("stark", 2, "# again")]
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.several("stark", turns)]))
    assert set(inbox_files(game)) == {shapes.inbox_text(s) for s in turns}
    assert len(report.taken) == 3


def test_ruling_140_the_seal_decides_not_the_sender_address(game: Path, tmp_path: Path) -> None:
    good = turn("stark", 1)
    bad = turn("stark", 2, key="lannister")  # sealed with Lannister's key, claiming Stark
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.forged(good), shapes.forged(bad, 16)]))
    text = "\n".join(report.lines())
    assert "sent from mallory@evil.example, not House Stark's registered address stark@players.example" in text
    assert "seal good, House Stark's key" in text and "seal good, House Lannister's key" in text
    # The wrong-house turn: the key is at fault, not the address; its house hears of it (ruling 300).
    assert "note: sealed with House Lannister's key but claims House Stark: the run refuses it and tells House " \
           "Lannister" in text  # fmt: skip
    assert text.count("not House Stark's registered address") == 1
    assert len(report.taken) == 2  # taken: the adjudication judges the seals
    result = batch.adjudicate(game)
    assert len(result.accepted) == 1
    assert any("wrong-house" in r for rej in result.rejected for r in rej.reasons)
    (rej,) = result.rejected
    assert list(rej.receipts) == ["lannister"], "to the house whose key sealed it, not the one it claims"


def test_mail_without_a_sealed_block_is_listed_as_ignored(game: Path, tmp_path: Path) -> None:
    raw = shapes.plain("stark", "When do we play?", 1, before="", after="")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert report.outcomes[0].status == "ignored"
    assert report.lines()[1].startswith("  ignored: message 1 <")
    assert report.lines()[1].endswith("shape1@players.example> from stark@players.example, 'my turn'")
    assert "no sealed block for this game" in report.lines()[2]


def test_ruling_141_unsealed_turn_text_is_reported_not_taken(game: Path, tmp_path: Path) -> None:
    raw = shapes.plain("stark", f"game {shapes.GAME} · house stark · round 1 · planning · seq 1\n# forgot to seal\n", 1,
                       after="")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert report.taken == []
    assert "not taken: the body, lines 3-4: a turn text with no seal" in "\n".join(report.lines())


def test_ruling_147_blocks_for_another_game_are_left_alone(game: Path, tmp_path: Path) -> None:
    other = turn("stark", 1, game="othergame")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", other, 1)]))
    assert report.taken == [] and report.outcomes[0].status == "ignored"
    assert "left alone: sealed blocks for game othergame" in "\n".join(report.lines())


def test_ruling_142_a_damaged_seal_reaches_the_inbox_and_is_rejected_with_its_reason(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "# changed after sealing").replace("# changed", "# CHANGED")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", sealed, 1)]))
    assert "seal fails [bad-signature]" in "\n".join(report.lines())
    result = batch.adjudicate(game)
    assert any("bad-signature" in r for rej in result.rejected for r in rej.reasons)


def test_ruling_147_two_games_take_their_own_turns_from_one_mailbox(game: Path, tmp_path: Path) -> None:
    other = shapes.make_game(tmp_path / "othergame", game_id="othergame")
    mine, theirs = turn("stark", 1), turn("stark", 1, game="othergame")
    box = shapes.maildir(tmp_path / "Maildir", [shapes.several("stark", [mine, theirs])])
    assert len(ingest_into_inbox(game, maildir=box).taken) == 1
    assert len(ingest_into_inbox(other, maildir=box).taken) == 1
    assert set(inbox_files(game)) == {shapes.inbox_text(mine)} and set(inbox_files(other)) == {shapes.inbox_text(theirs)}


# --- bad input -----------------------------------------------------------------------------------


def test_ruling_144_a_zip_attachment_is_not_opened_and_is_reported(game: Path, tmp_path: Path) -> None:
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.zipped("stark", turn("stark", 1))]))
    assert report.taken == []
    assert "note: attachment 'turn.zip' is a zip archive: not opened" in "\n".join(report.lines())


def test_ruling_144_a_25_MB_attachment_is_skipped_and_reported_and_the_body_is_taken(game: Path, tmp_path: Path) -> None:
    body, inside = turn("stark", 1, "# in the body"), turn("stark", 2, "# in the big file")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.huge("stark", body, inside)]))
    assert set(inbox_files(game)) == {shapes.inbox_text(body)}
    assert "attachment 'big.txt' is 33.8 MB as sent, over the 5 MB limit: not read" in "\n".join(report.lines())


def test_an_unknown_charset_is_read_as_utf8_and_reported(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "# Château")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.charset("stark", sealed, "x-klingon")]))
    assert set(inbox_files(game)) == {shapes.inbox_text(sealed)}
    assert "unknown character set 'x-klingon': read as UTF-8" in "\n".join(report.lines())


def test_undecodable_bytes_are_replaced_and_reported(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "# Château")
    data = sealed.encode("utf-8").replace("â".encode(), b"\xe2")  # a lone Latin-1 byte in "UTF-8"
    raw = shapes.charset("stark", sealed, "utf-8", data=data)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    text = "\n".join(report.lines())
    assert "not valid utf-8 text: the bad bytes were replaced" in text and "seal fails [bad-signature]" in text


def test_a_latin1_message_is_decoded_by_its_charset(game: Path, tmp_path: Path) -> None:
    sealed = turn("stark", 1, "# Château")
    raw = shapes.charset("stark", sealed, "iso-8859-1", data=sealed.replace("·", "|").encode("latin-1"))
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert report.taken and "seal fails" in "\n".join(report.lines())  # "·" became "|": the seal says so
    sealed2 = seal.sign(seal.normalise(sealed).split("-----BEGIN")[0].replace("·", "|"), shapes.KEYS["stark"])
    raw2 = shapes.charset("stark", sealed2, "iso-8859-1", 2, data=sealed2.encode("latin-1"))
    report2 = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox2", [raw2]))
    assert "seal good, House Stark's key" in "\n".join(report2.lines())


@pytest.mark.parametrize("raw", [
    b"", b"\x00\xff\xfe garbage \x80\x81\n\n\n", (b"From: <<<@@@>>>\nDate: yesterday-ish\nSubject: =?utf-8?q?broken\n"
    b"Content-Type: multipart/mixed; boundary=\"never\"\nContent-Transfer-Encoding: base64\n\n!!!not base64!!!\n"),
    b"Content-Type: text/plain; charset=\"\nContent-Transfer-Encoding: quoted-printable\n\n=ZZ=\n=",
])  # fmt: skip
def test_a_malformed_message_is_reported_without_a_traceback(game: Path, tmp_path: Path, raw: bytes) -> None:
    box = shapes.maildir(tmp_path / "Maildir", [raw, shapes.plain("stark", turn("stark", 1), 1)])
    report = ingest_into_inbox(game, maildir=box)
    assert len(report.taken) == 1 and report.exit_status == 0
    assert sorted(o.status for o in report.outcomes) == ["ignored", "taken"]


def test_scan_message_never_raises_on_odd_bytes() -> None:
    for raw in [bytes(range(256)) * 3, b"\n" * 50, b"Content-Type: message/rfc822\n\nnot a message", b"=?x?="]:
        found = scan_message(raw)
        assert found.blocks == []


def test_maildir_tmp_is_never_read(game: Path, tmp_path: Path) -> None:
    box = shapes.maildir(tmp_path / "Maildir", [])
    (box / "tmp" / "123.being-delivered").write_bytes(shapes.plain("stark", turn("stark", 1), 1))
    report = ingest_into_inbox(game, maildir=box)
    assert report.outcomes == [] and report.taken == []


def test_a_message_vanishing_mid_read_is_skipped_and_taken_next_run(game: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    sealed = turn("stark", 1)
    box = shapes.maildir(tmp_path / "Maildir", [shapes.plain("stark", sealed, 1)])
    (path,) = (box / "new").iterdir()
    aside = tmp_path / "aside"
    real = std_mailbox.Maildir.get_bytes

    def vanish(self: std_mailbox.Maildir, key: str) -> bytes:
        path.rename(aside)  # the mail program moves it away just as we read it
        return real(self, key)

    monkeypatch.setattr(std_mailbox.Maildir, "get_bytes", vanish)
    report = ingest_into_inbox(game, maildir=box)
    assert [o.status for o in report.outcomes] == ["retry"] and report.exit_status == 0
    assert "vanished while being read (moved or deleted): read again next time" in "\n".join(report.lines())
    monkeypatch.undo()
    aside.rename(box / "cur" / (path.name + ":2,S"))  # it reappears, read
    again = ingest_into_inbox(game, maildir=box)
    assert set(inbox_files(game)) == {shapes.inbox_text(sealed)} and len(again.taken) == 1


def test_an_unreadable_message_makes_exit_status_1(game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    box = shapes.maildir(tmp_path / "Maildir", [shapes.plain("stark", turn("stark", 1), 1)])

    def denied(self: std_mailbox.Maildir, key: str) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(std_mailbox.Maildir, "get_bytes", denied)
    report = ingest_into_inbox(game, maildir=box)
    assert report.exit_status == 1 and "cannot be read: Permission denied: not read" in "\n".join(report.lines())


def test_an_mbox_locked_by_a_mail_program_is_not_read(game: Path, tmp_path: Path) -> None:
    path = shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", turn("stark", 1), 1)])
    with open(path, "rb+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)  # a delivery in progress
        with pytest.raises(MailError, match="locked by another program"):
            ingest_into_inbox(game, mbox=path, lock_wait=0.1)
    assert len(ingest_into_inbox(game, mbox=path).taken) == 1


def test_not_a_maildir_nor_an_mbox(game: Path, tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("hello\n")
    with pytest.raises(MailError, match="is not a Maildir"):
        ingest_into_inbox(game, maildir=tmp_path)
    with pytest.raises(MailError, match="is not an mbox"):
        ingest_into_inbox(game, mbox=tmp_path / "plain.txt")
    with pytest.raises(MailError, match="give one mailbox"):
        ingest_into_inbox(game)


def test_a_damaged_seen_file_stops_the_run(game: Path, tmp_path: Path) -> None:
    (game / "mail-seen.json").write_text("{not json")
    with pytest.raises(MailError, match="mail-seen.json cannot be read"):
        ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", []))


def test_blocks_already_in_the_inbox_are_not_taken_again_without_the_seen_file(game: Path, tmp_path: Path) -> None:
    box = shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", turn("stark", 1), 1)])
    ingest_into_inbox(game, mbox=box)
    (game / "mail-seen.json").unlink()  # removed by the moderator
    again = ingest_into_inbox(game, mbox=box)
    assert again.taken == [] and "already taken (inbox/" in "\n".join(again.lines())


# --- the text of a part --------------------------------------------------------------------------


def test_flowed_text_is_unwrapped_before_looking() -> None:
    sealed = turn("stark", 1, "march from Winterfell: footman, knight -> Castle Black")
    for delsp, width in ((True, 30), (False, 12)):
        found = scan_message(shapes.flowed("stark", sealed, delsp=delsp, width=width))
        assert [b.data for b in found.blocks] == [shapes.inbox_text(sealed)]
    assert unflow("a \r\n-- \r\nsig\r\n") == "a -- \nsig\n"


def test_html_text_breaks_lines_at_br_p_div_and_decodes_entities() -> None:
    assert html_to_text("<p>a &lt;b&gt;</p><p>c&nbsp;&nbsp;d</p>") == "a <b>\nc  d\n"
    assert html_to_text("<html><head><title>game x</title><style>p{}</style></head><body>x<br/>\n  y</body>") == "x\ny\n"
    assert html_to_text("<pre>game a\n  b</pre>after") == "game a\n  b\nafter\n"


def test_ruling_143_one_alternative_is_read_the_one_whose_seals_hold() -> None:
    from email.message import EmailMessage

    sealed = turn("stark", 1)
    m = EmailMessage()
    m.set_content(sealed.replace("seq 1", "seq 1 ").replace("U1NIU0lH", "U1NIU0lX"))  # a damaged text version
    m.add_alternative(shapes.gmail_html(sealed), subtype="html")
    found = scan_message(m.as_bytes())
    assert [b.data for b in found.blocks] == [shapes.inbox_text(sealed)]


# --- the command line ----------------------------------------------------------------------------


def test_cli_ingest_prints_a_summary(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    box = shapes.maildir(tmp_path / "Maildir", [shapes.plain("stark", turn("stark", 1), 1)])
    assert cli_main(["ingest", str(game), "--maildir", str(box)]) == 0
    out = capsys.readouterr().out
    assert f"mail for game {shapes.GAME} from Maildir {box}:" in out and "took 1 turn file into the inbox" in out
    assert cli_main(["ingest", str(game), "--maildir", str(tmp_path)]) == 2
    assert "is not a Maildir" in capsys.readouterr().err
    assert cli_main(["ingest", str(tmp_path), "--maildir", str(box)]) == 2


def test_cli_adjudicate_takes_the_mail_first(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    box = shapes.mbox(tmp_path / "mbox", [shapes.plain(h, turn(h, 1), i) for i, h in enumerate(shapes.HOUSES)])
    assert cli_main(["adjudicate", str(game), "--mbox", str(box)]) == 0
    out = capsys.readouterr().out
    assert "took 3 turn files into the inbox" in out and out.count("accepted archive/") == 3


def test_module_name_does_not_shadow_the_standard_mailbox() -> None:
    assert mailboxes.std_mailbox is std_mailbox and std_mailbox.__file__ != mailboxes.__file__


# --- the guide's example is real output ----------------------------------------------------------


def guide_example(tmp_path: Path) -> str:
    """The ingest of docs/moderating.md, section 4: two messages read before, then three new ones."""
    from email.message import EmailMessage
    from email.utils import format_datetime

    from adjudicator.folder import registry
    from adjudicator.folder.gamedir import create_game

    root = tmp_path / "winter"
    shapes.made_before_start(create_game(root, houses=shapes.HOUSES, seed="guide").root)
    for h, addr in (("stark", "ned@example.org"), ("lannister", "tywin@example.org"), ("baratheon", "stannis@example.org")):
        registry.register_key(root, h, PublicKey.from_key(shapes.KEYS[h]), email=addr)

    def mail(msgid: str, sender: str, subject: str, minute: int, body: str, attached: str = "") -> bytes:
        m = EmailMessage()
        m["From"], m["Subject"], m["Message-ID"] = sender, subject, f"<{msgid}@example.org>"
        m["Date"] = format_datetime(shapes.START.replace(minute=minute))
        m.set_content(body)
        if attached:
            m.add_attachment(attached, filename="turn.txt")
        return m.as_bytes()

    box = shapes.maildir(tmp_path / "Maildir", [])
    old = [mail("old1", "ned@example.org", "hello", 1, "Ready."), mail("old2", "tywin@example.org", "hi", 2, "Me too.")]
    for i, raw in enumerate(old):
        (box / "cur" / f"176381230{i}.M{i}P1.host:2,S").write_bytes(raw)
    ingest_into_inbox(root, maildir=box)
    new = [
        mail("abc", "ned@example.org", "my turn", 0, "Here is my turn.\n\n" + turn("stark", 1, "# orders follow", game="winter")),
        mail("def", "mallory@example.net", "orders", 15, "Attached.", turn("lannister", 1, game="winter")),
        mail("ghi", "ned@example.org", "when do we play?", 20, "Tonight?"),
    ]
    for i, raw in enumerate(new):
        (box / "new" / f"17638123{45 + i}.M{i + 1}P2.host").write_bytes(raw)
    report = ingest_into_inbox(root, maildir=box)
    return "\n".join(report.lines()).replace(str(box), "/home/gm/Mail/maester") + "\n"


def test_the_guides_ingest_summary_is_real_output(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "moderating.md").read_text(encoding="utf-8")
    shown = doc.split("**The summary.**", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    assert shown == guide_example(tmp_path)
