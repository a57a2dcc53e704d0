"""Key files: Maester's and ssh-keygen's, read by each other, with and without a passphrase; damaged
key files refused with one line, never a traceback or a different key."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from adjudicator.seals import keys, seal

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed "
                                      "(apt-get install openssh-client; .ci/run installs it)")  # fmt: skip

TURN = "game demo · house stark · round 1 · planning · seq 1\nWinterfell: defense +1\nbid throne 3\n"
PASSPHRASE = "winter is coming"


def test_private_key_round_trip_plain_and_with_passphrase(tmp_path: Path) -> None:
    pair = keys.generate("stark@demo")
    keys.write_key_pair(tmp_path / "plain", pair)
    keys.write_key_pair(tmp_path / "locked", pair, PASSPHRASE.encode())
    assert (tmp_path / "plain").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "plain.pub").read_text() == pair.public.line() + "\n"
    assert keys.read_header((tmp_path / "locked").read_text()) == keys.Header(
        "aes256-ctr", keys.DEFAULT_ROUNDS, "ssh-ed25519", pair.public.blob)
    for name, passphrase in [("plain", None), ("locked", PASSPHRASE.encode())]:
        back = keys.read_private_key(tmp_path / name, passphrase)
        assert back.public.raw == pair.public.raw
    with pytest.raises(keys.PassphraseRequired):
        keys.read_private_key(tmp_path / "locked")
    with pytest.raises(keys.WrongPassphrase):
        keys.read_private_key(tmp_path / "locked", b"summer")


def test_a_passphrase_given_for_a_key_without_one_is_ignored_as_ssh_keygen_does(tmp_path: Path) -> None:
    pair = keys.generate()
    keys.write_key_pair(tmp_path / "plain", pair)
    assert keys.read_private_key(tmp_path / "plain", b"unused").public.raw == pair.public.raw


def test_readable_private_key_file_warns(tmp_path: Path) -> None:
    keys.write_key_pair(tmp_path / "k", keys.generate())
    os.chmod(tmp_path / "k", 0o644)
    with pytest.warns(keys.InsecureKeyFile, match="mode 0644"):
        keys.read_private_key(tmp_path / "k")


def test_private_key_file_mode_0600_does_not_warn(tmp_path: Path, recwarn: pytest.WarningsRecorder) -> None:
    keys.write_key_pair(tmp_path / "k", keys.generate())
    keys.read_private_key(tmp_path / "k")
    assert not [w for w in recwarn if issubclass(w.category, keys.InsecureKeyFile)]


def test_public_and_private_keys_given_the_wrong_way_round(tmp_path: Path) -> None:
    keys.write_key_pair(tmp_path / "k", keys.generate())
    with pytest.raises(keys.KeyFileError, match="public key"):
        keys.read_private_key(tmp_path / "k.pub")
    with pytest.raises(keys.KeyFileError, match="private key"):
        keys.read_public_key(tmp_path / "k")


def test_a_public_key_line_with_stray_characters_in_its_base64_is_refused() -> None:
    """The library skips characters that are not base64; a damaged .pub is refused instead."""
    line = keys.generate().public.line()
    damaged = line[:30] + "!" + line[30:]
    with pytest.raises(keys.KeyFileError, match="its base64 part does not decode"):
        keys.parse_public_key(damaged)


def _library_reads(line: str) -> bytes | None:
    """The raw key the library reads from an ``ssh-ed25519`` line, or None when it refuses it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_ssh_public_key(line.encode("ascii"))
    except ValueError:
        return None
    return key.public_bytes_raw() if isinstance(key, Ed25519PublicKey) else None


def test_a_public_key_line_is_read_as_the_library_reads_it_whatever_its_blob() -> None:
    """Maester reads an Ed25519 line itself (the library's loader loads every cipher): every cut,
    every flipped byte, a byte added, a length field changed, a key of another length or type
    named inside gives the key the library gives, or is refused where the library refuses it."""
    pair = keys.generate()
    line = pair.public.line()
    assert line.split()[1] == base64.b64encode(pair.public.blob).decode()
    assert keys.parse_public_key(line).raw == _library_reads(line) == pair.public.raw
    blob = pair.public.blob

    def field(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    blobs = [blob[:n] for n in range(len(blob))] + [blob + b"\0", blob + field(b"x")]
    blobs += [blob[:i] + bytes([blob[i] ^ 0x41]) + blob[i + 1 :] for i in range(len(blob))]
    blobs += [field(b"ssh-ed25519") + field(pair.public.raw[:n]) for n in (0, 1, 31)]
    blobs += [field(b"ssh-rsa") + field(pair.public.raw), field(b"ssh-ed25519") + field(pair.public.raw + b"\0")]
    blobs += [field(b"ssh-ed25519") + (33).to_bytes(4, "big") + pair.public.raw]
    for damaged in blobs:
        text = f"ssh-ed25519 {base64.b64encode(damaged).decode()} comment"
        expected = _library_reads(text)
        if expected is None:
            with pytest.raises(keys.KeyFileError, match="its base64 part does not decode"):
                keys.parse_public_key(text)
        else:
            assert keys.parse_public_key(text).raw == expected, damaged
    refused = sum(_library_reads(f"ssh-ed25519 {base64.b64encode(b).decode()}") is None for b in blobs)
    assert refused == len(blobs) - 32  # a flipped byte of the 32 key bytes is another key; all else is refused


def test_a_public_key_line_is_written_as_the_library_writes_it() -> None:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    for pair in (keys.generate("x@y") for _ in range(5)):
        library = pair.private.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
        assert pair.public.line() == f"{library} x@y"

# --- damaged key files ----------------------------------------------------------------------------


def _armoured(blob: bytes) -> str:
    b64 = base64.b64encode(blob).decode()
    body = "\n".join(b64[i : i + 70] for i in range(0, len(b64), 70))
    return f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\n"


def _blob(text: str) -> bytes:
    return base64.b64decode("".join(text.strip().splitlines()[1:-1]))


def _refusal(text: str, passphrase: bytes | None, raw: bytes) -> str | None:
    """None when the text gives the original key back; else the one-line refusal. Any other
    exception (a traceback for the user) fails the test, as does a different key."""
    try:
        pair = keys.parse_private_key(text, passphrase)
    except keys.SealError as e:
        assert "\n" not in str(e) and str(e)
        return str(e)
    assert pair.public.raw == raw, "a damaged file gave another key"
    return None


@pytest.mark.parametrize("passphrase", [None, b"open sesame"], ids=["plain", "protected"])
def test_every_flipped_byte_and_every_cut_of_a_key_file_is_refused_in_one_line(passphrase: bytes | None) -> None:
    pair = keys.generate()
    blob = _blob(keys.private_key_text(pair, passphrase, rounds=1))
    accepted = []
    for i in range(len(blob)):
        flipped = bytearray(blob)
        flipped[i] ^= 0x01
        if _refusal(_armoured(bytes(flipped)), passphrase, pair.public.raw) is None:
            accepted.append(i)
    assert accepted == []
    for n in range(len(blob)):
        assert _refusal(_armoured(blob[:n]), passphrase, pair.public.raw) is not None


def test_a_key_whose_secret_half_was_changed_is_refused_not_used_as_another_key() -> None:
    """The library does not check that the secret half gives the public half: a bit flipped in
    an unprotected key's seed would have sealed with a stranger's key."""
    pair = keys.generate()
    blob = bytearray(_blob(keys.private_key_text(pair)))
    seed_at = blob.rindex(pair.public.raw) - 32  # string(seed + public): the seed before the last copy
    blob[seed_at] ^= 0x01
    with pytest.raises(keys.KeyFileError, match="does not match its public half"):
        keys.parse_private_key(_armoured(bytes(blob)))


# --- interop with OpenSSH's ssh-keygen, both ways -------------------------------------------------


def _ssh_keygen(*args: str | Path, cwd: Path, passphrase: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ssh-keygen; a passphrase it asks for is answered by an askpass program, as no terminal is."""
    assert SSH_KEYGEN is not None
    env = dict(os.environ, DISPLAY="")
    if passphrase is not None:
        askpass = cwd / "askpass"
        askpass.write_text(f"#!/bin/sh\necho '{passphrase}'\n")
        askpass.chmod(0o700)
        env.update(SSH_ASKPASS=str(askpass), SSH_ASKPASS_REQUIRE="force")
    r = subprocess.run([SSH_KEYGEN, *map(str, args)], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r


@needs_ssh_keygen
@pytest.mark.parametrize("maker", ["maester", "ssh-keygen"])
@pytest.mark.parametrize("passphrase", [None, PASSPHRASE], ids=["plain", "passphrase"])
def test_key_made_by_one_is_read_by_the_other_and_both_seals_verify_in_both(
    tmp_path: Path, maker: str, passphrase: str | None
) -> None:
    """OpenSSH's default of 16 bcrypt rounds; the seals of both are the same bytes (Ed25519 is
    deterministic), and each program verifies the other's."""
    key = tmp_path / "key"
    if maker == "maester":
        keys.write_key_pair(key, keys.generate("ned@winterfell"), passphrase.encode() if passphrase else None)
    else:
        _ssh_keygen("-q", "-t", "ed25519", "-N", passphrase or "", "-C", "ned@winterfell", "-f", key, cwd=tmp_path)
    pub_line = (tmp_path / "key.pub").read_text().strip()
    assert pub_line.endswith(" ned@winterfell")

    # each reads the private key the other wrote, and finds the public key of the .pub file
    pair = keys.read_private_key(key, passphrase.encode() if passphrase else None)
    assert pair.public.line().split() == pub_line.split()[:2]
    derived = _ssh_keygen("-y", "-P", passphrase or "", "-f", key, cwd=tmp_path).stdout
    assert derived.split()[:2] == pub_line.split()[:2]
    listed = _ssh_keygen("-l", "-f", "key.pub", cwd=tmp_path).stdout.strip()
    assert listed == keys.read_public_key(tmp_path / "key.pub").fingerprint_line()

    # each seals the normalised text; the seals are the same bytes and each verifies the other's
    body = seal.normalise(TURN)
    (tmp_path / "turn").write_text(body)
    _ssh_keygen("-Y", "sign", "-n", "maester-turn", "-f", key, "turn", cwd=tmp_path, passphrase=passphrase)
    by_ssh_keygen = (tmp_path / "turn.sig").read_text()
    by_maester = seal.seal_text(body, pair.private)
    assert by_maester == by_ssh_keygen
    assert seal.verify(body, by_ssh_keygen).key.raw == pair.public.raw
    (tmp_path / "maester.sig").write_text(by_maester)
    (tmp_path / "allowed").write_text(f'ned@winterfell namespaces="maester-turn" {pub_line}\n')
    assert SSH_KEYGEN is not None
    verified = subprocess.run([SSH_KEYGEN, "-Y", "verify", "-f", "allowed", "-I", "ned@winterfell", "-n", "maester-turn",
                               "-s", "maester.sig"], cwd=tmp_path, input=body, capture_output=True, text=True)  # fmt: skip
    assert verified.returncode == 0, verified.stderr
    assert "Good \"maester-turn\" signature for ned@winterfell" in verified.stdout + verified.stderr
