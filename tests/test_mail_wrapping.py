"""Issue 21: long lines that a mail program may wrap. ``sign`` and ``check`` warn of them; ingest joins
wrapped lines again, and keeps the result only when the seal then holds over it (never otherwise)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from mail import shapes

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch
from adjudicator.mail import ingest as mail_in
from adjudicator.mail.ingest import ingest_into_inbox, scan_message
from adjudicator.seals import seal, sshsig, wrapping
from adjudicator.seals.keys import write_key_pair
from adjudicator.seals.seal import SealedBlock

LONG = ("# Winterfell holds; the Shivering Sea consolidates; White Harbor defends, as we agreed on "
        "Tuesday with House Lannister's envoy")  # fmt: skip
ORDERS = ["Winterfell: defense +1", LONG, "White Harbor: defense +1", "The Shivering Sea: consolidate"]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / shapes.GAME)


def hard_wrap(text: str, width: int) -> str:
    """What a mail program that wraps without format=flowed sends: each long line broken at spaces."""
    return "\n".join(textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False) if line else ""
                     for line in text.split("\n"))  # fmt: skip


def body_of(raw: bytes) -> str:
    return raw.split(b"\n\n", 1)[1].decode()


# --- warnings before sending ---------------------------------------------------------------------


def test_issue_21_sign_warns_of_lines_a_mail_program_may_wrap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key"
    write_key_pair(key, shapes.MODERATOR)
    text = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1\n" + "\n".join(ORDERS) + "\n"
    (tmp_path / "turn.txt").write_text(text)
    assert cli_main(["sign", "--key", str(key), str(tmp_path / "turn.txt")]) == 0
    err = capsys.readouterr().err
    assert f"maester: warning: line 3 is {len(LONG)} characters long, over 72: a mail program may wrap" in err
    assert "attach the sealed file to the mail, or send it from a mail program that sends format=flowed" in err
    (tmp_path / "short.txt").write_text(text.replace(LONG + "\n", ""))
    assert cli_main(["sign", "--key", str(key), str(tmp_path / "short.txt")]) == 0
    assert "warning" not in capsys.readouterr().err


def test_issue_21_check_warns_W209_of_lines_a_mail_program_may_wrap(game: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    sealed = shapes.turn("stark", 1, *ORDERS)
    (tmp_path / "turn.txt").write_text(sealed)
    cli_main(["check", str(game), str(tmp_path / "turn.txt")])
    out = capsys.readouterr().out
    assert f"turn.txt:3:1: warning W209: line 3 is {len(LONG)} characters long, over 72: a mail program may " \
           "wrap it and break the seal" in out  # fmt: skip
    assert "send the sealed file as an attachment, or from a mail program that sends format=flowed" in out
    (tmp_path / "short.txt").write_text(shapes.turn("stark", 1, *ORDERS[:1]))
    cli_main(["check", str(game), str(tmp_path / "short.txt")])
    assert "W209" not in capsys.readouterr().out


# --- joining wrapped lines again at ingest -------------------------------------------------------


@pytest.mark.parametrize("width", [64, 72, 76, 78])
def test_ruling_193_a_turn_wrapped_by_a_mail_program_is_taken_as_it_was_sealed(game: Path, tmp_path: Path,
                                                                             width: int) -> None:  # fmt: skip
    sealed = shapes.turn("stark", 1, *ORDERS)
    raw = shapes.plain("stark", hard_wrap(sealed, width), 1)
    assert hard_wrap(sealed, width) in body_of(raw) and hard_wrap(sealed, width) != sealed
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert "seal good, House Stark's key" in out and "joined to the next: a mail program had wrapped them" in out
    (name,) = report.taken
    assert (game / "inbox" / name).read_bytes() == shapes.inbox_text(sealed)  # exactly the bytes the seal covers
    result = batch.adjudicate(game)
    assert result.accepted and not result.rejected


def test_ruling_193_a_long_natural_line_beside_a_wrapped_one_is_left_as_it_was(game: Path, tmp_path: Path) -> None:
    """A line that only looks wrapped (long, and the next line would not have fitted) is kept: every
    combination is tried and the one the seal holds over is taken."""
    natural = "# a natural line of sixty-eight characters, then another line after"
    sealed = shapes.turn("stark", 1, natural, "Winterfell: defense +1", LONG)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", hard_wrap(sealed, 72))]))
    (name,) = report.taken
    assert (game / "inbox" / name).read_bytes() == shapes.inbox_text(sealed)


def test_ruling_193_wrapped_lines_are_never_joined_into_a_text_the_seal_does_not_cover(game: Path, tmp_path: Path) -> None:
    """Changed and wrapped: no joining makes the seal hold, so the block is taken as it came and refused."""
    sealed = shapes.turn("stark", 1, *ORDERS).replace("defense +1", "defense +2", 1)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", hard_wrap(sealed, 72))]))
    out = "\n".join(report.lines())
    assert "seal fails [bad-signature]" in out and "joined" not in out
    (name,) = report.taken
    assert (game / "inbox" / name).read_bytes() == shapes.inbox_text(hard_wrap(sealed, 72))
    assert not batch.adjudicate(game).accepted


def test_ruling_193_a_strangers_wrapped_block_is_not_tried(game: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Joining costs seal checks: only for keys registered in the game, never a stranger's."""
    tried: list[SealedBlock] = []
    monkeypatch.setattr(wrapping, "rejoined", lambda b: tried.append(b))
    stranger = shapes.Ed25519PrivateKey.from_private_bytes(bytes([99] * 32))
    text = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1\n" + "\n".join(ORDERS) + "\n"
    sealed = seal.sign(text, stranger)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("x", hard_wrap(sealed, 72))]))
    assert tried == [] and "seal fails [bad-signature]" in "\n".join(report.lines())


def test_ruling_193_joining_opens_no_path_for_one_house_to_act_for_another(game: Path, tmp_path: Path) -> None:
    """Stark's key over a turn that claims Lannister: joined, the seal holds (Stark sealed it), and the run
    refuses it as ever (wrong-house); what reached the inbox is exactly what Stark's key sealed."""
    text = f"game {shapes.GAME} · house lannister · round 1 · planning · seq 1\n" + "\n".join(ORDERS) + "\n"
    sealed = seal.sign(text, shapes.KEYS["stark"])
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [shapes.plain("stark", hard_wrap(sealed, 72))]))
    (name,) = report.taken
    assert (game / "inbox" / name).read_bytes() == shapes.inbox_text(sealed)
    result = batch.adjudicate(game)
    assert not result.accepted and any("wrong-house" in r for rej in result.rejected for r in rej.reasons)


def test_ruling_193_joining_stays_within_one_block(game: Path) -> None:
    """Two houses' turns one after the other, each wrapped: each block is joined on its own text only."""
    stark = shapes.turn("stark", 1, *ORDERS)
    lannister = shapes.turn("lannister", 1, LONG.replace("Lannister", "Stark"), "Lannisport: defense +1")
    raw = shapes.plain("stark", hard_wrap(stark, 72) + "\n" + hard_wrap(lannister, 72), 1)
    found = scan_message(raw, rejoin_keys=[shapes.PublicKey.from_key(shapes.KEYS[h]).fingerprint for h in shapes.HOUSES])
    assert sorted(b.data for b in found.blocks) == sorted([shapes.inbox_text(stark), shapes.inbox_text(lannister)])
    assert all(b.seal.startswith("seal good") for b in found.blocks)


def test_ruling_193_a_message_of_many_wrapped_blocks_costs_a_bounded_number_of_seal_checks(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    checks: list[int] = []
    real = sshsig.verify

    def counting(message: bytes, armoured: str, namespace: str) -> sshsig.Signature:
        checks.append(1)
        return real(message, armoured, namespace)

    monkeypatch.setattr(sshsig, "verify", counting)
    blocks = [hard_wrap(shapes.turn("stark", n, *ORDERS).replace("defense", "defence"), 72) for n in range(1, 41)]
    key = shapes.PublicKey.from_key(shapes.KEYS["stark"]).fingerprint
    found = scan_message(shapes.several("stark", blocks), rejoin_keys=[key])
    assert len(found.blocks) == 40 and all("bad-signature" in b.seal for b in found.blocks)
    per_block = 3  # the seal, and the text as typed with LF and with CRLF line ends (the ssh-keygen hint)
    assert len(checks) <= 40 * per_block + mail_in.MAX_REJOINED * (2**wrapping.MAX_BREAKS - 1)


def test_ruling_193_a_block_with_more_lines_that_look_wrapped_than_the_bound_is_not_tried() -> None:
    lines = [f"# {'word ' * 11}line {i}" for i in range(wrapping.MAX_BREAKS + 2)]
    block = seal.split_sealed(shapes.turn("stark", 1, *lines))[0]
    assert wrapping.rejoined(block) is None
