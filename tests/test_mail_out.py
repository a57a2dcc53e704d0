"""Mail out: one mail per player and a public copy, what is asked first, the map, the moderator's seal."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from clikit import reports_of
from mail import shapes
from mail.loopback import game, reported  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch
from adjudicator.mail.letter import STEP_MARK
from adjudicator.mail.mapimage import png_size
from adjudicator.mail.outbox import (
    OutboxError,
    parse_smtp_url,
    verify_report,
    write_outbox,
)
from adjudicator.reports.sections import text_sections, trimmed
from adjudicator.reports.svgmap import MapLayout
from adjudicator.seals import seal
from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair

MOD = shapes.MODERATOR





def read(path: Path) -> EmailMessage:
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(msg, EmailMessage)
    return msg


def parts(msg: EmailMessage) -> tuple[str, str, dict[str, bytes]]:
    """The text body, the HTML body, and the attachments by name."""
    text = msg.get_body(("plain",))
    page = msg.get_body(("html",))
    assert text is not None and page is not None
    files = {str(p.get_filename()): p.get_content() for p in msg.iter_attachments()}
    files = {k: v if isinstance(v, bytes) else v.encode() for k, v in files.items()}
    return text.get_content().replace("\r\n", "\n"), page.get_content(), files  # as a mail program shows it


def outbox(game: Path) -> Path:
    return game / "outbox" / "0000"


def test_one_mail_per_player_and_one_to_the_moderator_at_the_registered_addresses(game: Path) -> None:
    report = write_outbox(game, key=MOD)
    assert sorted(n.split()[0] for n in report.written) == ["baratheon.eml", "lannister.eml", "moderator.eml", "stark.eml"]
    for h in shapes.HOUSES:
        msg = read(outbox(game) / f"{h}.eml")
        assert msg["To"].addresses[0].addr_spec == shapes.EMAILS[h]
        assert msg["From"].addresses[0].addr_spec == shapes.MODERATOR_EMAIL
        assert msg["Subject"] == f"[{shapes.GAME}] ORDERS DUE · r1 planning"  # ruling 311
        assert msg["Auto-Submitted"] == "auto-generated" and msg["X-Maester-Step"] == "0000-r1-planning"
    mod = read(outbox(game) / "moderator.eml")
    assert mod["To"].addresses[0].addr_spec == shapes.MODERATOR_EMAIL
    assert mod["Subject"] == f"[{shapes.GAME}] moderator · r1 planning"
    assert not (outbox(game) / "public.eml").exists(), "no game list: no public mail"


def test_ruling_310_the_text_says_what_is_asked_then_the_turn_file_then_what_happened_then_board_and_hand(
        game: Path) -> None:  # fmt: skip
    write_outbox(game, key=MOD)
    text, _, _ = parts(read(outbox(game) / "stark.eml"))
    order = ["ASKED OF YOU NOW: no due time set", "   1. orders: assign", "YOUR TURN FILE", "\nWHAT HAPPENED\n",
             "\nNEEDED NEXT\n", "\nTHE BOARD\n", "\nINFLUENCE TRACKS", "\nHOUSE CARDS", "\nYOUR HAND\n",
             "Sealed by the moderator's key"]  # fmt: skip
    at = [text.index(x) for x in order]
    assert at == sorted(at), [x for x, i in sorted(zip(order, at), key=lambda p: p[1])]
    assert f"\ngame {shapes.GAME} · house stark · round 1 · planning · seq 1\n# orders:" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    folder = reports_of(game) / "0000-r1-planning"
    for name in ("stark.txt", "public.txt"):  # every section of the step's reports, once (its title block aside)
        for sec in text_sections(seal.normalise((folder / name).read_text())):
            whole = trimmed(sec.text).rstrip("\n")
            body = whole.split("\n", 1)[1] if sec.name == "decisions" else whole  # its heading is the mail's own
            if sec.name != "title":
                assert text.count(body) == 1, (name, sec.name)


def test_the_skeleton_takes_the_next_sequence_number(game: Path, tmp_path: Path) -> None:
    sealed = shapes.turn("stark", 1, "# nothing yet")
    (tmp_path / "t.txt").write_text(sealed)
    result = batch.adjudicate(game, [tmp_path / "t.txt"])
    assert result.accepted and result.steps == ["0001-r1-planning"]
    write_outbox(game, key=MOD)
    text, _, _ = parts(read(game / "outbox" / "0001" / "stark.eml"))
    assert f"game {shapes.GAME} · house stark · round 1 · planning · seq 2\n" in text


def test_a_house_gets_the_receipts_of_its_files_applied_in_the_step(game: Path, tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(shapes.turn("stark", 1, "# nothing yet"))
    batch.adjudicate(game, [tmp_path / "t.txt"])
    write_outbox(game, key=MOD)
    stark, _, _ = parts(read(game / "outbox" / "0001" / "stark.eml"))
    (path,) = (reports_of(game) / "0001-r1-planning" / "receipts").glob("000001-stark-r1-planning-seq1*")
    receipt = path.read_text()
    kept, asked_then = re.split(r"\n\n(?=Asked of you now:|Nothing is asked)", receipt)  # ruling 316: at the top
    assert "YOUR FILES TAKEN (1): what was made of each\n" in stark and stark.count(kept) == 1
    assert f"{kept}\n\n{STEP_MARK}STEP " in stark, "the receipt ends where its step begins"
    assert asked_then.strip() and asked_then not in stark
    assert stark.index("YOUR TURN FILE") < stark.index("YOUR FILES TAKEN") < stark.index("\nWHAT HAPPENED\n")
    lannister, _, _ = parts(read(game / "outbox" / "0001" / "lannister.eml"))
    assert "YOUR FILES" not in lannister and "Receipt for" not in lannister


def test_the_html_alternative_has_what_is_asked_first_then_the_map(game: Path) -> None:
    write_outbox(game, key=MOD)
    _, page, _ = parts(read(outbox(game) / "lannister.eml"))
    assert page.count('<img id="map" src="cid:') == 1 and page.count("house lannister · round 1 · planning · seq 1") == 1
    order = ['id="asked"', "Your turn file", 'id="events"', '<img id="map"', 'id="board"', 'id="hand"']
    at = [page.index(x) for x in order]
    assert at == sorted(at), order


def test_the_html_part_shows_the_map_as_a_png_attached_by_content_id(game: Path) -> None:
    """Webmail drops inline SVG: the map goes as a PNG inside the HTML part (the region of it shown
    first and the whole board: one picture). The looks are classes of one stylesheet in the head
    (Gmail documents that it reads one there), no style written on an element twice."""
    write_outbox(game, key=MOD)
    for name in ("stark.eml", "moderator.eml"):
        msg = read(outbox(game) / name)
        html_part = msg.get_body(("html",))
        assert html_part is not None
        related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
        png_part = next(p for p in related.iter_parts() if p.get_content_type() == "image/png")
        cid = str(png_part["Content-ID"]).strip("<>")
        page = html_part.get_content()
        assert f'<img id="map" src="cid:{cid}"' in page and "<svg" not in page
        assert page.count(f'src="cid:{cid}"') == 2 and page.count("<img") == 2 and "map.svg" not in page
        assert page.count("<style") == 1 and page.index("<style") < page.index("</head>")
        inline = re.findall(r'style="([^"]*)"', page)
        assert len(inline) == len(set(inline)) == 3, inline  # the whole board, the region's box, its crop
        png = png_part.get_content()
        assert png_size(png) == (MapLayout.classic().width, MapLayout.classic().height + MapLayout.classic().legend_height)
        assert len(png) > 20_000  # a drawn map, not a blank picture


def test_ruling_146_the_moderators_seal_verifies_over_the_text(game: Path) -> None:
    write_outbox(game, key=MOD)
    text, _, files = parts(read(outbox(game) / "baratheon.eml"))
    armour = files["report-0000-baratheon.txt.sig"].decode()
    assert verify_report(text, armour).key.fingerprint == MOD.public.fingerprint
    assert f"Sealed by the moderator's key\n  {MOD.public.fingerprint}.\n" in text
    with pytest.raises(seal.BadSignature):
        verify_report(text.replace("Baratheon", "Lannister", 1), armour)
    with pytest.raises(seal.WrongNamespace):  # a report's seal is no turn's seal
        seal.verify(text, armour)


def test_ruling_146_a_turn_seal_cannot_pass_as_a_report_seal() -> None:
    sealed = shapes.turn("stark", 1)
    block = seal.split_sealed(sealed)[0]
    with pytest.raises(seal.WrongNamespace):
        verify_report(block.text, block.armour)


def commands_in(text: str) -> list[str]:
    """The shell commands of the mail's seal paragraph (indented lines, continuation lines joined)."""
    tail = text[text.index("Sealed by the moderator's key"):].splitlines()
    out: list[str] = []
    for line in tail[2:]:
        if line.startswith("  ") and out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + line.strip()
        elif line.startswith("  "):
            out.append(line.strip())
    return out


def test_ruling_312_the_mail_holds_the_report_once_and_the_seal_beside_it(game: Path) -> None:
    """No copy of the text is attached (s-nail showed it as text by its name, a second report): one
    text/plain part, the HTML alternative, the JSON state, the seal."""
    write_outbox(game, key=MOD)
    msg = read(outbox(game) / "stark.eml")
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == ["mailgame-0000.json.gz", "mailgame-0000-stark.jsonl.gz", "report-0000-stark.txt.sig"]
    inline_text = [p for p in msg.walk() if p.get_content_type() == "text/plain"]
    assert len(inline_text) == 1 and inline_text[0].get_content_disposition() is None
    (sig,) = [p for p in msg.iter_attachments() if p.get_filename() == "report-0000-stark.txt.sig"]
    assert sig.get_content_type() == "application/octet-stream" and sig.get_content_disposition() == "attachment"


def test_issue_21_the_seal_paragraph_cuts_no_name_and_says_how_to_make_moderator_allowed(game: Path) -> None:
    write_outbox(game, key=MOD)
    text, _, _ = parts(read(outbox(game) / "stark.eml"))
    paragraph = text[text.index("Sealed by the moderator's key"):]
    lines = paragraph.splitlines()
    assert max(len(line) for line in lines) <= 78
    assert not any(line.endswith("-") for line in lines)  # 'maester-' / 'report' was the fault
    words = paragraph.split()
    for name in ("maester-report", "report-0000-stark.txt", "report-0000-stark.txt.sig", "moderator.allowed"):
        assert any(w.strip("();:,.<") == name for w in words), name
    assert commands_in(text) == [
        'echo "moderator namespaces=\\"maester-report\\" $(cat moderator.pub)" > moderator.allowed',
        "ssh-keygen -Y verify -f moderator.allowed -I moderator -n maester-report "
        "-s report-0000-stark.txt.sig < report-0000-stark.txt",
        "maester verify-report --key moderator.pub report-0000-stark.txt",
    ]


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="OpenSSH's ssh-keygen is not installed")
def test_the_commands_the_mail_gives_check_the_seal(game: Path, tmp_path: Path) -> None:
    """The mail's own commands, run as a player would: save both attachments and moderator.pub, paste them."""
    write_outbox(game, key=MOD)
    text, _, files = parts(read(outbox(game) / "stark.eml"))
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "report-0000-stark.txt").write_text(text)  # the text part, saved as the paragraph says
    (tmp_path / "moderator.pub").write_text(MOD.public.line() + "\n")
    make_allowed, ssh_check, _ = commands_in(text)

    def sh(command: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, check=False)

    assert sh(make_allowed).returncode == 0
    good = sh(ssh_check)
    assert good.returncode == 0 and b'Good "maester-report" signature for moderator' in good.stdout + good.stderr
    copy = tmp_path / "report-0000-stark.txt"
    copy.write_bytes(copy.read_bytes().replace(b"Stark", b"Stork", 1))
    assert sh(ssh_check).returncode != 0


def test_verify_report_checks_the_saved_text_of_the_mail(game: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    write_outbox(game, key=MOD)
    text, _, files = parts(read(outbox(game) / "stark.eml"))
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "report-0000-stark.txt").write_text(text)
    (tmp_path / "moderator.pub").write_text(MOD.public.line() + "\n")
    (tmp_path / "body.txt").write_bytes(text.replace("\n", "\r\n").encode())  # as a mail program may save it
    copy, sig, pub = (str(tmp_path / n) for n in ("report-0000-stark.txt", "report-0000-stark.txt.sig", "moderator.pub"))
    assert cli_main(["verify-report", "--key", pub, copy]) == 0
    assert f"good: sealed by the moderator's key {MOD.public.fingerprint}" in capsys.readouterr().out
    assert cli_main(["verify-report", "--key", pub, str(tmp_path / "body.txt"), "--sig", sig]) == 0
    assert cli_main(["verify-report", "--key", pub, str(tmp_path / "body.txt")]) == 2
    assert "body.txt.sig: no such file (give the seal with --sig FILE)" in capsys.readouterr().err
    (tmp_path / "body.txt").write_text(text.replace("Stark", "Stork", 1))
    assert cli_main(["verify-report", "--key", pub, str(tmp_path / "body.txt"), "--sig", sig]) == 1
    assert "BAD [bad-signature]: the seal does not match the report" in capsys.readouterr().out


def test_verify_report_names_a_seal_by_another_key(game: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from adjudicator.seals.keys import generate

    write_outbox(game, key=MOD)
    text, _, files = parts(read(outbox(game) / "stark.eml"))
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "report-0000-stark.txt").write_text(text)
    stranger = generate()
    (tmp_path / "stranger.pub").write_text(stranger.public.line() + "\n")
    assert cli_main(["verify-report", "--key", str(tmp_path / "stranger.pub"), str(tmp_path / "report-0000-stark.txt")]) == 1
    out = capsys.readouterr().out
    assert f"BAD [unknown-key]: sealed by {MOD.public.fingerprint}, not by the key in" in out
    assert cli_main(["verify-report", "--key", str(tmp_path / "report-0000-stark.txt"),
                     str(tmp_path / "report-0000-stark.txt")]) == 2  # fmt: skip
    assert "give the moderator's public key file" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="OpenSSH's ssh-keygen is not installed")
def test_issue_21_normalise_report_takes_a_saved_mail_text_to_check_with_ssh_keygen(game: Path, tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """docs/moderating.md: the mail's text, saved with CRLF and trailing blanks, checks once normalised."""
    write_outbox(game, key=MOD)
    text, _, files = parts(read(outbox(game) / "stark.eml"))
    (tmp_path / "sig").write_bytes(files["report-0000-stark.txt.sig"])
    (tmp_path / "saved.txt").write_bytes(("\r\n" + text.replace("\n", "  \r\n")).encode())
    (tmp_path / "moderator.allowed").write_text(f'moderator namespaces="maester-report" {MOD.public.line()}\n')
    assert cli_main(["normalise", str(tmp_path / "saved.txt")]) == 2
    assert "this is a report, not a turn file: check its seal with maester verify-report" in capsys.readouterr().err
    assert cli_main(["normalise", "--report", str(tmp_path / "saved.txt"), "--out", str(tmp_path / "saved.norm")]) == 0
    with open(tmp_path / "saved.norm", "rb") as f:
        done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", "moderator.allowed", "-I", "moderator", "-n",
                               "maester-report", "-s", "sig"], cwd=tmp_path, stdin=f, capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_public_copy_carries_only_the_public_report(game: Path) -> None:
    write_outbox(game, key=MOD, public_to="list@players.example")
    public = read(outbox(game) / "public.eml")
    text, page, files = parts(public)
    assert public["To"].addresses[0].addr_spec == "list@players.example"
    assert "The public reports: step 0000." in text and "\nTHE BOARD\n" in text
    assert "PRIVATE" not in text and "YOUR HAND" not in text and "YOUR TURN FILE" not in text
    assert "PRIVATE" not in page and "report-0000-public.txt.sig" in files


def test_each_player_gets_only_their_own_private_report(game: Path) -> None:
    write_outbox(game, key=MOD)
    for h in shapes.HOUSES:
        raw = (outbox(game) / f"{h}.eml").read_bytes()
        text, page, _ = parts(read(outbox(game) / f"{h}.eml"))
        others = [o for o in shapes.HOUSES if o != h]
        assert f"PRIVATE report for House {h.title()}" in text
        assert not any(f"for House {o.title()}" in text or f"house {o} ·" in text for o in others), raw[:200]
        assert f"Private report for House {h.title()}" in page
        assert not any(f"for House {o.title()}" in page or f"house {o} ·" in page for o in others)


def test_a_player_without_an_address_gets_no_mail_and_is_named(game: Path) -> None:
    doc = (game / "game.toml").read_text().replace(f'email = "{shapes.EMAILS["lannister"]}"', "")
    (game / "game.toml").write_text(doc)
    report = write_outbox(game, key=MOD)
    assert "lannister.eml" not in report.written
    assert any(n.startswith("no mail for House Lannister: it has no address") for n in report.notes)


def test_without_a_key_the_mails_are_not_sealed_and_it_is_said(game: Path) -> None:
    report = write_outbox(game)
    _, _, files = parts(read(outbox(game) / "stark.eml"))
    # Only the public state for an offline `maester check` and the house's own private part as
    # JSON (its answers' verdicts) are attached: no report copy, no seal.
    import gzip

    step = next(reports_of(game).glob("0000-*"))
    assert {n: gzip.decompress(b) for n, b in files.items()} == {
        "mailgame-0000.json.gz": (step / "report.json").read_bytes(),
        "mailgame-0000-stark.jsonl.gz": (step / "stark.json").read_bytes()}  # ruling 316: compressed
    assert "not sealed: give --key MODERATOR_KEY so that players can check the reports" in report.notes


def test_a_key_not_registered_as_the_moderators_is_noted(game: Path) -> None:
    report = write_outbox(game, key=KeyPair(shapes.KEYS["stark"], PublicKey.from_key(shapes.KEYS["stark"])))
    assert any("is not registered as the moderator's" in n for n in report.notes)


def test_no_sender_address_and_no_reports_are_refused(game: Path, tmp_path: Path) -> None:
    doc = (game / "game.toml").read_text().replace(f'email = "{shapes.MODERATOR_EMAIL}"', "")
    (game / "game.toml").write_text(doc)
    with pytest.raises(OutboxError, match="give the moderator's address with --from ADDR"):
        write_outbox(game)
    assert write_outbox(game, sender="me@example.org").written
    fresh = shapes.make_game(tmp_path / "fresh")
    with pytest.raises(OutboxError, match="holds no complete reports yet"):
        write_outbox(fresh, sender="me@example.org")
    with pytest.raises(OutboxError, match="step 0007 has no complete reports"):
        write_outbox(game, 7, sender="me@example.org")


def test_an_incomplete_report_folder_is_not_mailed(game: Path, tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(shapes.turn("stark", 1))
    batch.adjudicate(game, [tmp_path / "t.txt"])
    (game / "reports" / "0001-r1-planning.json").unlink()  # a run killed before its last write
    assert write_outbox(game, key=MOD).step == "0000-r1-planning"


def test_a_mail_written_and_not_sent_is_kept_until_there_is_more_to_say(game: Path) -> None:
    write_outbox(game, key=MOD)
    written = (outbox(game) / "stark.eml").read_bytes()
    again = write_outbox(game, key=MOD)
    assert again.written == [] and "outbox/0000/stark.eml is written and not sent yet: kept as it is" in again.notes
    assert (outbox(game) / "stark.eml").read_bytes() == written
    manifest = json.loads((outbox(game) / "manifest.json").read_text())
    assert set(manifest["mails"]) == {"stark.eml", "lannister.eml", "baratheon.eml", "moderator.eml"}
    doc = (game / "game.toml").read_text().replace(shapes.EMAILS["stark"], "ned@new.example")
    (game / "game.toml").write_text(doc)  # an address corrected: Stark's mail is written afresh
    third = write_outbox(game, key=MOD)
    assert [n.split()[0] for n in third.written] == ["stark.eml"]
    assert read(game / "outbox" / "0000-2" / "stark.eml")["To"].addresses[0].addr_spec == "ned@new.example"
    assert (game / "outbox" / "superseded" / "0000-stark.eml").read_bytes() == written, "never sent: set aside"


def test_smtp_addresses() -> None:
    assert (parse_smtp_url("smtp://mx.example.org").port, parse_smtp_url("smtp://[::1]:2525").host) == (25, "::1")
    for url, why in [("http://x", "is not an smtp"), ("smtp://", "is not an smtp"), ("smtp://u:p@x", "not in the address"),
                     ("smtp://x:99999", "is not an smtp")]:  # fmt: skip
        with pytest.raises(OutboxError, match=why):
            parse_smtp_url(url)
    with pytest.raises(OutboxError, match="is TLS from the start"):
        parse_smtp_url("smtps://x", starttls=True)
    with pytest.raises(OutboxError, match="the password would travel in clear"):
        parse_smtp_url("smtp://x", user="me", password="secret")


def test_cli_outbox(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "mod"
    write_key_pair(key, MOD)
    assert cli_main(["outbox", str(game), "--send", "ftp://x", "--key", str(key)]) == 2
    assert not (game / "outbox").exists()  # a bad address changes nothing
    assert cli_main(["outbox", str(game), "--key", str(key)]) == 0
    out = capsys.readouterr().out
    assert "outbox of game mailgame, step 0000-r1-planning" in out and "wrote stark.eml" in out
    assert cli_main(["outbox", str(game), "--key", str(tmp_path / "missing")]) == 2
    assert cli_main(["outbox", str(game), "--user", "me"]) == 2


def test_ruling_316_the_json_files_go_compressed_the_private_parts_of_all_steps_in_one(game: Path,
                                                                                     tmp_path: Path) -> None:  # fmt: skip
    """Two steps in one mail: one file of Stark's private parts, a line a step, each its HOUSE.json; the
    latest public state beside it; the same reports make the same bytes (no time stamp in the gzip)."""
    import gzip

    (tmp_path / "t.txt").write_text(shapes.turn("stark", 1, "# nothing yet"))
    batch.adjudicate(game, [tmp_path / "t.txt"])
    write_outbox(game, key=MOD)
    msg = read(outbox(game).parent / "0001" / "stark.eml")
    files = {p.get_filename(): p for p in msg.iter_attachments()}
    assert sorted(files) == ["mailgame-0000-0001-stark.jsonl.gz", "mailgame-0001.json.gz", "report-0001-stark.txt.sig"]
    lines = gzip.decompress(files["mailgame-0000-0001-stark.jsonl.gz"].get_content()).split(b"\n")
    steps = sorted(reports_of(game).glob("000[01]-*"))
    assert lines == [(s / "stark.json").read_bytes().rstrip(b"\n") for s in steps] + [b""]
    packed = files["mailgame-0001.json.gz"].get_content()
    assert gzip.decompress(packed) == (steps[1] / "report.json").read_bytes() and packed[4:8] == bytes(4)  # mtime 0
    assert all(p.get_content_type() == "application/gzip" for n, p in files.items() if n.endswith(".gz"))
