"""Seals: normalisation, the SSHSIG format, splitting mails into blocks, key files, ssh-keygen interop."""

from __future__ import annotations

import base64
import shutil
import struct
import subprocess
import unicodedata
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.seals import keys, seal, sshsig
from adjudicator.seals.seal import (
    BadArmour,
    BadHeader,
    BadSignature,
    DoubledArmour,
    NoSeal,
    TruncatedArmour,
    UnsupportedKey,
    WrongNamespace,
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed")

TURN = "game demo · house stark · round 1 · planning · seq 1\nmarch Winterfell -> Karhold\nbid throne 3\n"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
FINGERPRINT = keys.PublicKey.from_key(KEY).fingerprint


def opened(text: str) -> list[seal.Sealed]:
    """Every block of ``text`` opened; raises the first block's SealError."""
    return [b.open() for b in seal.split_sealed(text)]


def armour_of(sealed: str) -> str:
    return sealed[sealed.index(seal.BEGIN) :]


# --- normalisation -----------------------------------------------------------------------------


def test_normalise_line_ends_trailing_blanks_and_edges() -> None:
    text = "\r\n \t\r\ngame x  \r\nline two\t\rline three \n\n\n"
    assert seal.normalise(text) == "game x\nline two\nline three\n"


def test_normalise_composes_unicode_nfc() -> None:
    decomposed = unicodedata.normalize("NFD", "march Pyke -> Ironmen’s Bay, Höhe\n")
    assert decomposed != unicodedata.normalize("NFC", decomposed)
    assert seal.normalise(decomposed) == unicodedata.normalize("NFC", decomposed)


def test_normalise_keeps_inner_blank_lines_and_leading_spaces() -> None:
    assert seal.normalise("a\n\n\n  b\n") == "a\n\n\n  b\n"


def test_normalise_of_blank_text_is_empty() -> None:
    assert seal.normalise(" \r\n\t\n") == ""


@given(st.text(alphabet=st.sampled_from("ab é\u0301\t\r\n·")))
def test_normalise_is_idempotent_and_ends_in_one_newline(text: str) -> None:
    once = seal.normalise(text)
    assert seal.normalise(once) == once
    assert "\r" not in once
    assert once == "" or (once.endswith("\n") and not once.endswith("\n\n") and once[0] != "\n")
    assert all(line == line.rstrip(" \t") for line in once.split("\n"))


# --- sealing and what keeps a seal valid ---------------------------------------------------------


def test_sign_then_open_names_the_header_and_key() -> None:
    (block,) = opened(seal.sign(TURN, KEY))
    assert (block.header.house, block.header.round, block.header.step, block.header.seq) == ("stark", 1, "planning", 1)
    assert block.key.fingerprint == FINGERPRINT
    assert block.text == TURN


@pytest.mark.parametrize(
    "mangle",
    [
        pytest.param(lambda t: t.replace("\n", "\r\n"), id="crlf"),
        pytest.param(lambda t: t.replace("\n", "\r"), id="cr"),
        pytest.param(lambda t: t.replace("\n", "  \t\n"), id="trailing-blanks"),
        pytest.param(lambda t: "\n\n" + t + "\n\n", id="blank-lines-around"),
        pytest.param(lambda t: unicodedata.normalize("NFD", t), id="nfd"),
    ],
)
def test_mail_mangling_of_the_text_keeps_the_seal_valid(mangle) -> None:
    sealed = seal.sign(TURN.replace("Karhold", "Karhöld"), KEY)
    text, arm = sealed[: sealed.index(seal.BEGIN)], armour_of(sealed)
    assert seal.verify(mangle(text), arm).key.fingerprint == FINGERPRINT
    assert opened(mangle(text) + arm)[0].key.fingerprint == FINGERPRINT


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: t.replace("Karhold", "Karholt"), id="one-letter"),
        pytest.param(lambda t: t.replace("seq 1", "seq 2"), id="header-seq"),
        pytest.param(lambda t: t.replace("house stark", "house lannister"), id="header-house"),
        pytest.param(lambda t: t + "bid fiefdoms 5\n", id="line-added"),
        pytest.param(lambda t: t.replace("bid throne 3\n", ""), id="line-removed"),
        pytest.param(lambda t: t.replace("march", " march"), id="leading-space"),
        pytest.param(lambda t: t.replace("\nbid", "\n\nbid"), id="inner-blank-line"),
    ],
)
def test_any_content_change_breaks_the_seal(change) -> None:
    sealed = seal.sign(TURN, KEY)
    text, arm = sealed[: sealed.index(seal.BEGIN)], armour_of(sealed)
    with pytest.raises(BadSignature, match="signature does not match the text"):
        seal.verify(change(text), arm)
    assert BadSignature.code == "bad-signature"


def test_sign_requires_the_header_first() -> None:
    with pytest.raises(BadHeader, match="must start with its header line"):
        seal.sign("# my orders\n" + TURN, KEY)
    with pytest.raises(BadHeader, match="unknown step"):
        seal.sign(TURN.replace("planning", "plotting"), KEY)


def test_sign_refuses_an_already_sealed_text() -> None:
    with pytest.raises(BadArmour, match="already carries a seal"):
        seal.sign(seal.sign(TURN, KEY), KEY)


def test_wrong_namespace_is_rejected() -> None:
    arm = seal.seal_text(TURN, KEY, namespace="file")
    with pytest.raises(WrongNamespace, match="namespace 'file' is not maester-turn"):
        seal.verify(TURN, arm)


def _sshsig(key_blob: bytes, sig_type: bytes, sig: bytes, *, version: int = 1) -> str:
    s = sshsig.ssh_string
    blob = (b"SSHSIG" + struct.pack(">I", version) + s(key_blob) + s(b"maester-turn") + s(b"")
            + s(b"sha512") + s(s(sig_type) + s(sig)))  # fmt: skip
    b64 = base64.b64encode(blob).decode()
    return seal.BEGIN + "\n" + "\n".join(b64[i : i + 70] for i in range(0, len(b64), 70)) + "\n" + seal.END + "\n"


def test_non_ed25519_seal_is_unsupported() -> None:
    rsa_blob = sshsig.ssh_string(b"ssh-rsa") + sshsig.ssh_string(b"\x01\x00\x01") + sshsig.ssh_string(b"\x00" + bytes(128))
    with pytest.raises(UnsupportedKey, match="only Ed25519 keys are supported; this is an RSA key"):
        seal.verify(TURN, _sshsig(rsa_blob, b"rsa-sha2-512", bytes(128)))


def test_malformed_sshsig_structures_are_bad_armour() -> None:
    good = keys.PublicKey.from_key(KEY).blob
    with pytest.raises(BadArmour, match="version 2"):
        seal.verify(TURN, _sshsig(good, b"ssh-ed25519", bytes(64), version=2))
    with pytest.raises(BadArmour, match="64 bytes"):
        seal.verify(TURN, _sshsig(good, b"ssh-ed25519", bytes(63)))
    with pytest.raises(BadArmour, match="cut short"):
        seal.verify(TURN, _sshsig(good[:-3], b"ssh-ed25519", bytes(64)))
    with pytest.raises(BadArmour, match="base64"):
        seal.verify(TURN, seal.BEGIN + "\nU1NI!0lH\n" + seal.END + "\n")


@pytest.mark.parametrize("bit", [0, 7, 300, 511])
def test_a_flipped_bit_in_the_signature_is_a_bad_signature(bit: int) -> None:
    sealed = seal.sign(TURN, KEY)
    sig = seal.read_armour(armour_of(sealed))
    flipped = bytearray(sig.signature)
    flipped[bit // 8] ^= 1 << (bit % 8)
    forged = seal.armour(seal.Signature(sig.key, sig.namespace, sig.hash_algorithm, bytes(flipped)))
    with pytest.raises(BadSignature):
        seal.verify(TURN, forged)


def test_base64_that_decodes_only_loosely_is_bad_armour() -> None:
    """A change to the unused low bits of the last base64 digit decodes to the same bytes."""
    arm = armour_of(seal.sign(TURN, KEY))
    body = arm.splitlines()[-2]
    assert body.endswith("=") and not body.endswith("==")  # two unused bits in the last digit
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = body[-2]
    loose = body[:-2] + alphabet[alphabet.index(last) ^ 1] + "="
    lines = arm.splitlines()[1:-1]
    assert base64.b64decode("".join(lines[:-1]) + loose) == base64.b64decode("".join(lines))
    with pytest.raises(BadArmour, match="base64"):
        seal.verify(TURN, arm.replace(body, loose))


def test_a_signature_by_another_key_over_another_text_does_not_pass() -> None:
    other = seal.sign(TURN.replace("3", "4"), OTHER_KEY)
    with pytest.raises(BadSignature):
        seal.verify(TURN, armour_of(other))


# --- every single byte ----------------------------------------------------------------------------


def _accepted(data: bytes) -> bool:
    """The whole seal-level check a file goes through: UTF-8, blocks, seals, the expected key."""
    try:
        blocks = opened(seal.decode(data))
    except seal.SealError:
        return False
    return bool(blocks) and all(b.key.fingerprint == FINGERPRINT for b in blocks)


@pytest.mark.parametrize("mask", [0x01, 0x20, 0x80])
def test_flipping_any_byte_of_a_sealed_file_is_rejected(mask: int) -> None:
    data = seal.sign("game g · house stark · round 1 · planning · seq 1\nbid throne 3\n", KEY).encode()
    assert _accepted(data)
    accepted = []
    for i in range(len(data)):
        mutated = bytearray(data)
        mutated[i] ^= mask
        if _accepted(bytes(mutated)):
            accepted.append(i)
    # The one change that alters no content: the file's last newline turned into another
    # whitespace character (0x0A ^ 0x01 = vertical tab) after the END line.
    harmless = [len(data) - 1] if mask == 0x01 else []
    assert accepted == harmless


# --- finding blocks in files and mails ------------------------------------------------------------


def test_text_before_and_after_a_block_is_ignored_and_reported() -> None:
    mail = "Hi moderator,\nhere are my orders.\n\n" + seal.sign(TURN, KEY) + "\n-- \nNed\n"
    found = seal.scan(mail)
    (block,) = found.blocks
    assert (block.first_line, block.last_line) == (4, 12)
    assert block.open().key.fingerprint == FINGERPRINT
    assert [(g.first_line, g.last_line, g.reason) for g in found.ignored] == [
        (1, 2, "text before the first sealed block"),
        (14, 15, "text after the last sealed block"),
    ]


@pytest.mark.parametrize("prefix", ["> ", ">", "> > ", ">> "])
def test_mail_quoting_is_stripped(prefix: str) -> None:
    sealed = seal.sign(TURN, KEY)
    quoted = "On Monday Ned wrote:\n" + "".join(prefix + line + "\n" for line in sealed.splitlines())
    (block,) = opened(quoted)
    assert block.text == TURN


def test_quoting_deeper_than_the_header_is_content() -> None:
    text = "game demo · house stark · round 1 · planning · seq 1\n> a quoted line in the orders\n"
    (block,) = opened("".join("> " + line + "\n" for line in seal.sign(text, KEY).splitlines()))
    assert "> a quoted line in the orders\n" in block.text


def test_two_blocks_are_each_verified_on_their_own() -> None:
    first = seal.sign(TURN, KEY)
    second = seal.sign(TURN.replace("seq 1", "seq 2"), KEY).replace("bid throne 3", "bid throne 9")
    blocks = seal.split_sealed(first + "\n" + second)
    assert len(blocks) == 2
    assert blocks[0].open().header.seq == 1
    with pytest.raises(BadSignature):
        blocks[1].open()


def test_missing_end_line_is_truncated_armour() -> None:
    sealed = seal.sign(TURN, KEY)
    cut = sealed[: sealed.index(seal.END)]
    (block,) = seal.split_sealed(cut + "\nthanks\n")
    with pytest.raises(TruncatedArmour, match="no END line") as e:
        block.open()
    assert e.value.code == "armour-truncated"


def test_a_truncated_seal_does_not_swallow_the_next_block() -> None:
    sealed = seal.sign(TURN, KEY)
    first, second = seal.split_sealed(sealed.replace(seal.END, "") + "\n" + sealed)
    with pytest.raises(TruncatedArmour):
        first.open()
    assert second.open().key.fingerprint == FINGERPRINT


def test_two_begin_lines_are_doubled_armour() -> None:
    sealed = seal.sign(TURN, KEY)
    doubled = sealed.replace(seal.BEGIN, seal.BEGIN + "\n" + seal.BEGIN)
    (block,) = seal.split_sealed(doubled)
    with pytest.raises(DoubledArmour, match="two BEGIN lines") as e:
        block.open()
    assert e.value.code == "armour-doubled"


def test_two_seals_on_one_text_are_doubled_armour() -> None:
    sealed = seal.sign(TURN, KEY)
    (block,) = seal.split_sealed(sealed + "\n" + armour_of(sealed))
    with pytest.raises(DoubledArmour, match="two seals"):
        block.open()


def test_a_turn_without_seal_is_no_seal() -> None:
    (block,) = seal.split_sealed("intro\n" + TURN)
    assert (block.first_line, block.last_line) == (2, 4)
    with pytest.raises(NoSeal, match="has no seal"):
        block.open()


def test_a_seal_without_header_is_ignored_and_reported() -> None:
    sealed = seal.sign(TURN, KEY)
    found = seal.scan(sealed.replace("game demo", "gmae demo"))
    assert found.blocks == []
    assert [g.reason for g in found.ignored] == ["a seal with no header line before it"]


def test_not_utf8_is_bad_encoding() -> None:
    with pytest.raises(seal.BadEncoding, match="not UTF-8"):
        seal.decode(b"game \xff")
    assert seal.decode(b"\xef\xbb\xbfgame") == "game"


# --- interop with OpenSSH's ssh-keygen ----------------------------------------------------------


def _ssh_keygen(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    assert SSH_KEYGEN is not None
    return subprocess.run([SSH_KEYGEN, *args], cwd=cwd, input=stdin, capture_output=True, timeout=30)


@needs_ssh_keygen
def test_ssh_keygen_seal_verifies_in_maester(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "", "-C", "ned@winterfell", "-f", "k", cwd=tmp_path)
    (tmp_path / "turn").write_text(seal.normalise(TURN.replace("\n", "  \r\n")))
    r = _ssh_keygen("-Y", "sign", "-n", "maester-turn", "-f", "k", "turn", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    sealed = (tmp_path / "turn").read_text() + (tmp_path / "turn.sig").read_text()
    (block,) = opened(sealed)
    assert block.key.raw == keys.read_public_key(tmp_path / "k.pub").raw
    assert block.key.fingerprint == keys.read_public_key(tmp_path / "k.pub").fingerprint


@needs_ssh_keygen
def test_maester_seal_verifies_in_ssh_keygen_byte_for_byte(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "", "-f", "k", cwd=tmp_path)
    pair = keys.read_private_key(tmp_path / "k")
    sealed = seal.sign(TURN, pair.private)
    body, arm = sealed[: sealed.index(seal.BEGIN)], armour_of(sealed)
    (tmp_path / "turn").write_text(body)
    (tmp_path / "turn.maester.sig").write_text(arm)
    (tmp_path / "allowed").write_text(f'stark@demo namespaces="maester-turn" {pair.public.line()}\n')
    r = _ssh_keygen("-Y", "verify", "-f", "allowed", "-I", "stark@demo", "-n", "maester-turn",
                    "-s", "turn.maester.sig", cwd=tmp_path, stdin=body.encode())  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = _ssh_keygen("-Y", "verify", "-f", "allowed", "-I", "stark@demo", "-n", "maester-turn",
                    "-s", "turn.maester.sig", cwd=tmp_path, stdin=body.replace("3", "4").encode())  # fmt: skip
    assert r.returncode != 0
    # Ed25519 is deterministic: ssh-keygen's seal over the same text is the same bytes.
    _ssh_keygen("-Y", "sign", "-n", "maester-turn", "-f", "k", "turn", cwd=tmp_path)
    assert (tmp_path / "turn.sig").read_text() == arm


@needs_ssh_keygen
def test_ssh_keygen_seal_in_another_namespace_is_rejected(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "", "-f", "k", cwd=tmp_path)
    (tmp_path / "turn").write_text(TURN)
    _ssh_keygen("-Y", "sign", "-n", "file", "-f", "k", "turn", cwd=tmp_path)
    with pytest.raises(WrongNamespace, match="namespace 'file' is not maester-turn"):
        opened(TURN + (tmp_path / "turn.sig").read_text())


@needs_ssh_keygen
@pytest.mark.parametrize("kind, name", [("rsa", "an RSA key"), ("ecdsa", "an ECDSA key")])
def test_non_ed25519_keys_are_refused_clearly(tmp_path: Path, kind: str, name: str) -> None:
    extra = ["-b", "1024"] if kind == "rsa" else []
    _ssh_keygen("-q", "-t", kind, *extra, "-N", "", "-f", "k", cwd=tmp_path)
    message = f"only Ed25519 keys are supported; this is {name}"
    with pytest.raises(UnsupportedKey, match=message):
        keys.read_private_key(tmp_path / "k")
    with pytest.raises(UnsupportedKey, match=message):
        keys.read_public_key(tmp_path / "k.pub")
    (tmp_path / "turn").write_text(TURN)
    _ssh_keygen("-Y", "sign", "-n", "maester-turn", "-f", "k", "turn", cwd=tmp_path)
    with pytest.raises(UnsupportedKey, match="only Ed25519 keys are supported"):
        opened(TURN + (tmp_path / "turn.sig").read_text())


# --- a seal checked again -----------------------------------------------------------------------


def _checks_worked_from_now(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The messages whose seal is worked out in full from now on (not answered from those kept)."""
    worked: list[bytes] = []
    real = sshsig._verified

    def counting(message: bytes, armoured: str, namespace: str) -> sshsig.Signature:
        worked.append(message)
        return real(message, armoured, namespace)

    monkeypatch.setattr(sshsig, "_verified", counting)
    return worked


def test_a_seal_checked_again_gives_the_same_answer_and_a_changed_text_still_fails(monkeypatch: pytest.MonkeyPatch):
    """A turn's seal is checked at intake and again when its archived bytes are read back: the second
    check of the very same bytes is not worked out again, and any other bytes are checked in full."""
    armour = armour_of(seal.sign(TURN, KEY))
    first = seal.verify(TURN, armour)
    worked = _checks_worked_from_now(monkeypatch)
    assert seal.verify(TURN, armour) == first and worked == [], "the same bytes: the same answer"
    with pytest.raises(BadSignature):
        seal.verify(TURN.replace("throne 3", "throne 4"), armour)
    with pytest.raises(BadSignature):
        seal.verify(TURN.replace("throne 3", "throne 4"), armour)  # a failure is never kept: checked again
    assert len(worked) == 2
    other = armour_of(seal.sign(TURN, OTHER_KEY))
    assert seal.verify(TURN, other).key.fingerprint != FINGERPRINT and len(worked) == 3


def test_seals_forgotten_are_checked_in_full_again(monkeypatch: pytest.MonkeyPatch):
    """What a benchmark or a long-lived process forgets (``forget_verified``) is checked again, as a
    new process checks it."""
    armour = armour_of(seal.sign(TURN, KEY))
    first = seal.verify(TURN, armour)
    worked = _checks_worked_from_now(monkeypatch)
    sshsig.forget_verified()
    assert seal.verify(TURN, armour) == first and len(worked) == 1
    assert seal.verify(TURN, armour) == first and len(worked) == 1  # kept again once it held
