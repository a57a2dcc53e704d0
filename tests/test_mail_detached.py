"""Issue 21: a turn and its detached seal (``turn.txt`` and ``turn.txt.sig``) in one mail; replies quoting reports.

``ssh-keygen -Y sign`` writes ``turn.txt.sig`` beside ``turn.txt``: attached together they are one sealed
turn and the seal decides, as for an armoured block. A ``.sig`` that seals nothing is named. A reply that
quotes a report (its turn-file skeletons) gives one note, not one per skeleton.
"""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import shapes

from adjudicator.folder import batch
from adjudicator.mail.ingest import ingest_into_inbox, scan_message
from adjudicator.seals import seal, sshsig

HEADER = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / shapes.GAME)


def detached(text: str, house: str = "stark", *, key: str | None = None, namespace: str = seal.NAMESPACE) -> str:
    """What ``ssh-keygen -Y sign -n NAMESPACE -f KEY turn.txt`` writes to ``turn.txt.sig`` for ``text``."""
    return sshsig.sign(text.encode("utf-8"), shapes.KEYS[key or house], namespace)


def mail_with(files: dict[str, bytes], body: str = "My turn and its seal are attached.\n", n: int = 1) -> bytes:
    m = EmailMessage(policy=policy.default)
    m["From"], m["To"], m["Subject"] = "Ned <stark@players.example>", "moderator@maester.example", "my turn"
    m["Message-ID"] = f"<detached{n}@players.example>"
    m["Date"] = "Sun, 01 Mar 2026 18:00:00 +0000"
    m.set_content(body)
    for name, data in files.items():  # as mutt attaches a file: by its name, octet-stream or text
        if name.endswith(".sig"):
            m.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
        else:
            m.add_attachment(data.decode(), subtype="plain", filename=name)
    return m.as_bytes()


def inbox(game: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted((game / "inbox").glob("[!.]*.txt"))]


def test_ruling_191_a_turn_and_its_sig_attached_are_one_sealed_turn(game: Path, tmp_path: Path) -> None:
    text = f"{HEADER}\n# sealed with plain ssh-keygen\n"
    raw = mail_with({"turn.txt": text.encode(), "turn.txt.sig": detached(text).encode()})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert report.outcomes[0].status == "taken", out
    assert "attachment 'turn.txt' with its seal 'turn.txt.sig', lines 1-" in out and "seal good, House Stark's key" in out
    assert inbox(game) == [(text + detached(text)).encode()]  # exactly the text and the seal checked
    result = batch.adjudicate(game)
    assert result.accepted and not result.rejected


def test_ruling_191_the_seal_decides_a_sig_over_another_text_is_taken_and_rejected_with_a_receipt(game: Path,
                                                                                                 tmp_path: Path) -> None:  # fmt: skip
    text = f"{HEADER}\n# what was sealed\n"
    sent = text.replace("what was sealed", "what was sent")
    raw = mail_with({"turn.txt": sent.encode(), "turn.txt.sig": detached(text).encode()})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert "seal fails [bad-signature]" in "\n".join(report.lines()) and len(report.taken) == 1
    result = batch.adjudicate(game)
    assert not result.accepted
    assert any("bad-signature" in r for rej in result.rejected for r in rej.reasons)
    assert list((game / "refused").glob("*-moderator.txt"))  # the receipt says why (ruling 300: no good seal, the moderator's)


def test_ruling_191_a_sig_by_another_houses_key_gives_no_turn_to_that_house(game: Path, tmp_path: Path) -> None:
    """Pairing adds no path for one house to act for another: the key must be the header's house's."""
    text = f"{HEADER}\n# Lannister seals a Stark turn\n"
    raw = mail_with({"turn.txt": text.encode(), "turn.txt.sig": detached(text, key="lannister").encode()})
    ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    result = batch.adjudicate(game)
    assert not result.accepted and any("wrong-house" in r for rej in result.rejected for r in rej.reasons)


def test_ruling_191_a_sig_with_no_file_of_its_name_is_named(game: Path, tmp_path: Path) -> None:
    text = f"{HEADER}\n# the file itself was forgotten\n"
    raw = mail_with({"turn.txt.sig": detached(text).encode()})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert report.taken == []
    assert ("not taken: attachment 'turn.txt.sig': a seal that matches no turn in this mail (attach the turn file "
            "it seals, 'turn.txt', beside it)") in out  # fmt: skip


def test_ruling_191_a_sig_seals_the_turn_pasted_in_the_body_when_it_verifies_over_it(game: Path, tmp_path: Path) -> None:
    text = f"{HEADER}\n# pasted in the body, the seal attached\n"
    other = f"{HEADER.replace('seq 1', 'seq 2')}\n# a second unsealed turn, which the seal does not cover\n"
    raw = mail_with({"turn.norm.sig": detached(text).encode()}, body=f"Orders:\n\n{other}\n{text}\nNed\n")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert "the body with the seal of attachment 'turn.norm.sig', lines 6-7" in out and "seal good" in out
    assert inbox(game) == [(text + detached(text)).encode()]
    assert "not taken: the body, lines 3-4: a turn text with no seal" in out  # the other one, still named
    assert "turn.norm.sig" not in out.split("seal good")[1]  # not also named as a stray


def test_ruling_191_a_sig_beside_a_file_that_carries_its_own_seal_is_named(game: Path, tmp_path: Path) -> None:
    sealed = shapes.turn("stark", 1, "# sealed by maester sign")
    text = seal.split_sealed(sealed)[0].text
    raw = mail_with({"turn.txt": sealed.encode(), "turn.txt.sig": detached(text).encode()})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert len(report.taken) == 1 and "attachment 'turn.txt', lines 1-" in out  # its own seal: taken once
    assert "not taken: attachment 'turn.txt.sig': 'turn.txt' beside it carries a seal of its own" in out


def test_ruling_191_a_report_seal_is_never_paired_as_a_turn(game: Path, tmp_path: Path) -> None:
    """A forwarded report mail: report-NNNN-HOUSE.txt and its .sig in the namespace maester-report."""
    report_text = f"MAESTER · game {shapes.GAME}\nYOUR TURN FILE\n{HEADER}\n# orders: ...\n"
    sig = sshsig.sign(seal.normalise(report_text).encode(), shapes.MODERATOR.private, "maester-report")
    raw = mail_with({"report-0000-stark.txt": report_text.encode(), "report-0000-stark.txt.sig": sig.encode()})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert report.taken == []
    assert ("not taken: attachment 'report-0000-stark.txt.sig': a seal in the namespace 'maester-report', not a "
            "turn's") in out  # fmt: skip


def test_ruling_191_a_damaged_sig_is_named(game: Path, tmp_path: Path) -> None:
    raw = mail_with({"turn.txt.sig": b"-----BEGIN SSH SIGNATURE-----\nnot base64\n-----END SSH SIGNATURE-----\n"})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    assert "not taken: attachment 'turn.txt.sig': its seal cannot be read" in "\n".join(report.lines())


HINT = ("the seal covers the text as typed, with CRLF line ends, not its normalised form; normalise the file before "
        "sealing it with ssh-keygen (maester normalise FILE > FILE.norm, docs/seals.md), or seal it with maester sign")


def test_ruling_194_a_raw_ssh_keygen_seal_over_a_crlf_file_says_to_normalise_first(game: Path, tmp_path: Path) -> None:
    """ssh-keygen signs the bytes it is given: over a CRLF file, not normalised, a seal Maester cannot use
    (it covers other bytes than the archive would hold). Refused, with the hint, at ingest and in the receipt."""
    text = f"{HEADER}\r\n# typed on Windows\r\n"
    m = EmailMessage(policy=policy.default)
    m["From"], m["Subject"], m["Message-ID"] = "stark@players.example", "turn", "<crlf@players.example>"
    m.set_content("Attached.\n")
    m.add_attachment(text.encode(), maintype="application", subtype="octet-stream", filename="turn.txt")
    m.add_attachment(detached(text).encode(), maintype="application", subtype="octet-stream", filename="turn.txt.sig")
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [m.as_bytes()]))
    out = " ".join(" ".join(report.lines()).split())
    assert "seal fails [bad-signature]" in out and HINT in out
    result = batch.adjudicate(game)
    (rejected,) = result.rejected
    assert any(HINT in r for r in rejected.reasons)
    (receipt,) = (game / "refused").glob("*-moderator.txt")  # no good seal: the moderator's (ruling 300)
    assert HINT in " ".join(receipt.read_text().split())


def test_ruling_194_verify_gives_the_hint_for_a_registered_key_only(game: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from adjudicator.cli import main as cli_main

    text = f"{HEADER}\r\n# typed on Windows\r\n"
    (tmp_path / "turn.sealed").write_bytes((text + detached(text)).encode())  # cat turn.txt turn.txt.sig
    assert cli_main(["verify", str(game), str(tmp_path / "turn.sealed")]) == 1
    assert HINT in capsys.readouterr().out
    stranger = Ed25519PrivateKey.from_private_bytes(bytes([99] * 32))
    (tmp_path / "other.sealed").write_bytes((text + sshsig.sign(text.encode(), stranger, seal.NAMESPACE)).encode())
    assert cli_main(["verify", str(game), str(tmp_path / "other.sealed")]) == 1
    out = capsys.readouterr().out
    assert "invalid [bad-signature]" in out and "normalise" not in out  # a stranger's seal costs one check


def test_ruling_194_a_scan_without_registered_keys_gives_no_hint() -> None:
    text = f"{HEADER}\r\n# typed on Windows\r\n"
    found = scan_message(mail_with({"turn.txt": text.encode(), "turn.txt.sig": detached(text).encode()}))
    (block,) = found.blocks
    assert block.seal.startswith("seal fails [bad-signature]") and "normalise" not in block.seal


def test_ruling_194_the_receipt_of_a_bad_signature_says_how_to_seal_with_ssh_keygen() -> None:
    from adjudicator.folder.receipts import WHAT_TO_DO

    assert "maester normalise" in WHAT_TO_DO["bad-signature"]


def skeleton_reply(quoted_copies: int, own: str = "") -> bytes:
    """A reply quoting a report ``quoted_copies`` times (each holding the skeleton header twice)."""
    report = ["YOUR TURN FILE", HEADER, "# orders: ...", "", "YOUR DECISIONS", HEADER, "# White Harbor: ...", ""]
    quoted = "\n".join(("> " + line).rstrip() for _ in range(quoted_copies) for line in report)
    return mail_with({}, body=f"{own}Thanks, orders follow tomorrow.\n\nOn Sunday, Maester wrote:\n{quoted}\n")


def test_ruling_192_a_reply_quoting_reports_gives_one_folded_note(game: Path, tmp_path: Path) -> None:
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [skeleton_reply(2)]))
    lines = report.outcomes[0].lines
    notes = [line for line in lines if line.startswith("not taken")]
    # body lines 1-3 are the reply's own; each quoted copy is 8 lines with the header at its 2nd and 6th
    assert notes == ["not taken: 4 quoted turn texts with no seal in the body (lines 5, 9, 13, 17): a reply quoting "
                     "a report's skeleton or an earlier turn"]  # fmt: skip


def test_ruling_192_a_forgotten_seal_still_gets_its_own_note_beside_the_folded_one(game: Path, tmp_path: Path) -> None:
    raw = skeleton_reply(1, own=f"{HEADER}\nWinterfell: defense +1\n\n")
    notes = [x for x in ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw])).outcomes[0].lines
             if x.startswith("not taken")]  # fmt: skip
    assert notes[0] == f"not taken: the body, lines 1-7: a turn text with no seal ({HEADER[:60]!r})"  # to the next header
    assert notes[1].startswith("not taken: 2 quoted turn texts with no seal in the body")
    assert len(notes) == 2
