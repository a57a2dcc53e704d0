"""Issue 21, as an attacker: what the mail-client features (a ``.sig`` beside a turn, wrapped lines joined
again, quoted replies) could be made to do by a hostile mail. None may act for another house, take a text
its seal does not cover, or cost a run more than a bounded number of seal checks (docs/seals.md, the
threat model)."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mail import shapes

from adjudicator.folder import batch
from adjudicator.mail import detached
from adjudicator.mail.ingest import MAX_REJOINED, ingest_into_inbox, scan_message
from adjudicator.seals import seal, sshsig, wrapping

HEADER = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1"
STARK_FP = shapes.PublicKey.from_key(shapes.KEYS["stark"]).fingerprint


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / shapes.GAME)


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text a seal is checked over (sshsig.verify), in order."""
    sizes: list[int] = []
    real = sshsig.verify

    def counting(message: bytes, armoured: str, namespace: str) -> sshsig.Signature:
        sizes.append(len(message))
        return real(message, armoured, namespace)

    monkeypatch.setattr(sshsig, "verify", counting)
    return sizes


def mail(body: str, attachments: dict[str, str] | None = None, sender: str = "stark@players.example") -> bytes:
    m = EmailMessage(policy=policy.default)
    m["From"], m["Subject"], m["Message-ID"] = sender, "orders", f"<{abs(hash(body)) % 10**9}@players.example>"
    m.set_content(body)
    for name, text in (attachments or {}).items():
        m.add_attachment(text.encode(), maintype="application", subtype="octet-stream", filename=name)
    return m.as_bytes()


def inbox(game: Path) -> set[bytes]:
    return {p.read_bytes() for p in (game / "inbox").glob("[!.]*.txt")}


# --- bounded work ---------------------------------------------------------------------------------


def test_ruling_191_a_mail_of_hundreds_of_stray_sig_files_costs_a_bounded_number_of_seal_checks(hashed: list[int]) -> None:
    """999 .sig attachments naming no file, beside 8 turn texts of 8 paragraphs each: every .sig used to be
    tried on 64 texts (minutes for one mail). Now 4 are tried; the rest are named in one note."""
    paragraph = "# " + "x" * 60 + "\n"
    texts = [f"{HEADER.replace('seq 1', f'seq {n}')}\n" + (paragraph * 3 + "\n") * 8 for n in range(1, 9)]
    stranger = Ed25519PrivateKey.from_private_bytes(bytes([99] * 32))
    sig = sshsig.sign(b"some other text", stranger, seal.NAMESPACE)
    found = scan_message(mail("\n".join(texts), {f"t{i}.txt.sig": sig for i in range(300)}))
    assert len(found.unsealed) == 8 and found.blocks == []
    assert len(hashed) <= detached.MAX_STRAYS * detached.MAX_TEXTS**2
    assert len(found.stray_seals) == detached.MAX_STRAYS + 1
    assert found.stray_seals[-1].startswith("not taken: 296 more .sig attachments with no file of their name "
                                            "('t4.txt.sig', 't5.txt.sig', 't6.txt.sig', ...): not tried, at most 4")  # fmt: skip


def test_ruling_191_a_stray_sig_is_not_tried_on_a_text_longer_than_any_turn(hashed: list[int]) -> None:
    text = f"{HEADER}\n" + "# padding\n" * (detached.MAX_TEXT_CHARS // 10)
    found = scan_message(mail(text, {"turn.norm.sig": sshsig.sign(seal.normalise(text).encode(), shapes.KEYS["stark"],
                                                                  seal.NAMESPACE)}))  # fmt: skip
    assert hashed == [] and found.blocks == []
    assert found.stray_seals == ["not taken: attachment 'turn.norm.sig': a seal that matches no turn in this mail "
                                 "(attach the turn file it seals, 'turn.norm', beside it)"]  # fmt: skip


def test_ruling_193_a_forged_seal_under_a_huge_block_of_a_registered_key_is_not_joined(hashed: list[int]) -> None:
    """Anyone can write an armour holding a registered public key (the reports list them) over a block of
    megabytes with lines that look wrapped; joining is tried only in blocks of a turn's size."""
    wrapped = "\n".join(["# " + "w " * 33 + "end", "next line here"] * 6)
    forged = sshsig.sign(b"not this text", shapes.KEYS["stark"], seal.NAMESPACE)
    blocks = [f"{HEADER.replace('seq 1', f'seq {n}')}\n{wrapped}\n" + "#y\n" * 20_000 + forged for n in range(1, 5)]
    found = scan_message(mail("\n".join(blocks)), rejoin_keys=[STARK_FP])
    assert len(found.blocks) == 4 and all("bad-signature" in b.seal for b in found.blocks)
    assert len(hashed) <= 4 * 3  # each block: its seal, and the text as typed with LF and CRLF (the hint)


def test_ruling_193_a_block_of_a_turns_size_is_still_joined_within_the_bound(hashed: list[int]) -> None:
    long = "# " + "word " * 20 + "end"
    text = f"{HEADER}\n{long}\nWinterfell: defense +1\n"
    sealed = seal.sign(text, shapes.KEYS["stark"])
    cut = long.rfind(" ", 0, 72)  # where a program wrapping at 72 breaks it
    wrapped = sealed.replace(long, long[:cut] + "\n" + long[cut + 1 :])
    assert len(wrapped) < wrapping.MAX_JOIN_CHARS
    (block,) = scan_message(mail(wrapped), rejoin_keys=[STARK_FP]).blocks
    assert block.seal.startswith("seal good") and block.data == shapes.inbox_text(sealed)
    assert len(hashed) <= 3 + MAX_REJOINED * (2**wrapping.MAX_BREAKS - 1)


# --- never for another house ----------------------------------------------------------------------


def test_issue_21_a_reply_quoting_another_houses_turn_and_a_forgery_acts_only_as_each_seal_says(game: Path,
                                                                                                tmp_path: Path) -> None:  # fmt: skip
    """Stark's mail: its own turn; a quoted Lannister turn; a quoted text claiming Lannister under Stark's
    seal; a quoted Lannister text with its lines split by CR only and by U+2028; a .sig by Stark beside a
    Lannister file. Stark's turn counts; the forgeries are refused (wrong-house); the odd separators make
    no turn at all; nothing is taken that a seal does not cover."""
    stark = shapes.turn("stark", 1, "Winterfell: defense +1")
    lannister_text = f"game {shapes.GAME} · house lannister · round 1 · planning · seq 1\nLannisport: defense +1\n"
    forged = shapes.turn("lannister", 2, "Lannisport: defense +1", key="stark")
    cr = "\r".join("> " + line for line in shapes.turn("lannister", 3, "# cr").split("\n"))
    u2028 = "\u2028".join("> " + line for line in shapes.turn("lannister", 4, "# ls").split("\n"))
    quoted = "\n".join("> > " + line for line in forged.split("\n"))
    body = f"{stark}\nOn Monday someone wrote:\n{quoted}\n\n{cr}\n\n{u2028}\n"
    stark_sig = sshsig.sign(lannister_text.encode(), shapes.KEYS["stark"], seal.NAMESPACE)
    raw = mail(body, {"lannister.txt": lannister_text, "lannister.txt.sig": stark_sig})
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [raw]))
    out = "\n".join(report.lines())
    assert out.count("seal good") == 4, out  # Stark's turn, the forgery, the CR-split Lannister turn, the .sig pair
    assert seal.normalise(stark).encode() in inbox(game)
    assert (lannister_text + stark_sig).encode() in inbox(game)  # exactly what the .sig covers, nothing more
    result = batch.adjudicate(game)
    houses = sorted(name.split("-")[1] for name in result.accepted)
    wrong = [r for rej in result.rejected for r in rej.reasons if "wrong-house" in r]
    assert len(wrong) == 2 and houses == ["lannister", "stark"]  # the genuine Lannister turn (seq 3), by its seal
    for name in result.accepted:  # each accepted turn is one its own house's key sealed
        text = (game / "archive" / name).read_text()
        house = name.split("-")[1]
        assert seal.split_sealed(text)[0].open().key.fingerprint == shapes.PublicKey.from_key(shapes.KEYS[house]).fingerprint


# --- any mix of the pieces ------------------------------------------------------------------------

_TEXTS = [f"game {shapes.GAME} · house {h} · round 1 · planning · seq {n}\n# orders of {h}\n"
          for h in ("stark", "lannister") for n in (1, 2)]  # fmt: skip
_PIECE = st.one_of(
    st.tuples(st.just("sealed"), st.sampled_from(_TEXTS), st.sampled_from(["stark", "lannister"])),
    st.tuples(st.just("unsealed"), st.sampled_from(_TEXTS), st.just("")),
    st.tuples(st.just("noise"), st.sampled_from(["hello", "-----BEGIN SSH SIGNATURE-----", "> ", "", "\f", "\u2028"]),
              st.just("")),
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(_PIECE, max_size=6), quote=st.sampled_from(["", "> ", "> > ", ">"]),
       end=st.sampled_from(["\n", "\r\n", "\r"]), sigs=st.lists(st.tuples(st.sampled_from(_TEXTS),
       st.sampled_from(["stark", "lannister"]), st.booleans()), max_size=3))  # fmt: skip
def test_issue_21_any_mix_of_blocks_quotes_separators_and_sig_files_gives_only_what_a_seal_covers(
        pieces: list[tuple[str, str, str]], quote: str, end: str, sigs: list[tuple[str, str, bool]]) -> None:  # fmt: skip
    """Whatever the mix, scanning never raises, and every block whose seal is called good is exactly a
    normalised text and a seal that verifies over it by the key named: nothing another key did not seal."""
    lines: list[str] = []
    for kind, text, key in pieces:
        piece = seal.sign(text, shapes.KEYS[key]) if kind == "sealed" else text
        lines += [quote + line for line in piece.rstrip("\n").split("\n")]
    attachments: dict[str, str] = {}
    for i, (text, key, paired) in enumerate(sigs):
        if paired:
            attachments[f"t{i}.txt"] = text
        attachments[f"t{i}.txt.sig"] = sshsig.sign(seal.normalise(text).encode(), shapes.KEYS[key], seal.NAMESPACE)
    found = scan_message(mail(end.join(lines) + end, attachments), rejoin_keys=[STARK_FP])
    for block in found.blocks:
        (sealed,) = seal.split_sealed(block.data.decode())  # the inbox file holds one block, no second one
        if block.seal.startswith("seal good"):
            assert sealed.own_text().encode() == block.data  # and nothing around it
            opened = sealed.open()
            assert block.seal == f"seal good, key {opened.key.fingerprint}"
            assert opened.text in _TEXTS  # only texts a key really sealed
