"""OpenSSH signatures (``SSHSIG``, the format of ``ssh-keygen -Y sign``), Ed25519 only.

No well-kept Python library reads or writes this format, so it is done here, in full, following
OpenSSH's ``PROTOCOL.sshsig``. A signature over a message in a namespace is::

    "SSHSIG" uint32(1) string(public key) string(namespace) string("") string(hash) string(sig)

where ``sig`` is ``string("ssh-ed25519") string(64 signature bytes)``, and the Ed25519 signature
covers::

    "SSHSIG" string(namespace) string("") string(hash) string(HASH(message))

The armour is ``-----BEGIN SSH SIGNATURE-----``, the base64 of the blob wrapped at 70 columns,
``-----END SSH SIGNATURE-----``. Maester signs with ``sha512`` and accepts ``sha256`` too.
Ed25519 is deterministic, so ``ssh-keygen -Y sign`` over the same message gives the same bytes;
tests/test_seal.py checks both directions against ``ssh-keygen`` itself. The keys themselves
(files, fingerprints) are :mod:`adjudicator.seals.keys`' business.

>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> armoured = sign(b"hello\\n", key, "file")
>>> verify(b"hello\\n", armoured, "file").key.fingerprint
'SHA256:tAXFyTXI8xtDaujAEcwJslAYc9/6FKcUkd2Lw0xDhPo'
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from ..util.lines import split_lines
from .keys import (
    KEY_TYPE,
    PublicKey,
    SealError,
    UnsupportedKey,
    describe_key_type,
    unsupported,
)

HASH_ALGORITHMS = ("sha512", "sha256")  # what SSHSIG allows; Maester signs with sha512
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
_MAGIC = b"SSHSIG"


class BadArmour(SealError):
    """The armour block is not a readable SSHSIG signature."""

    code = "bad-armour"


class WrongNamespace(SealError):
    """Signed for another purpose (``ssh-keygen -Y sign -n``)."""

    code = "wrong-namespace"


class BadSignature(SealError):
    """The signature does not match the text."""

    code = "bad-signature"


def ssh_string(data: bytes) -> bytes:
    """An SSH ``string``: a big-endian 32-bit length, then the bytes."""
    return struct.pack(">I", len(data)) + data


class WireReader:
    """Reads SSH wire-format fields; running past the end raises ``BadArmour(what is cut short)``."""

    def __init__(self, data: bytes, what: str) -> None:
        self.data, self.pos, self.what = data, 0, what

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise BadArmour(f"{self.what} is cut short")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def uint32(self) -> int:
        return int.from_bytes(self.raw(4), "big")

    def string(self) -> bytes:
        return self.raw(self.uint32())

    def text(self) -> str:
        try:
            return self.string().decode("ascii")
        except UnicodeDecodeError:
            raise BadArmour(f"{self.what} has a non-ASCII name field") from None

    def end(self) -> None:
        if self.pos != len(self.data):
            raise BadArmour(f"{self.what} has {len(self.data) - self.pos} stray bytes at its end")


@dataclass(frozen=True, slots=True)
class Signature:
    """A parsed SSHSIG signature."""

    key: PublicKey
    namespace: str
    hash_algorithm: str
    signature: bytes  # the 64 Ed25519 signature bytes

    def signed_data(self, message: bytes) -> bytes:
        """The bytes the Ed25519 signature covers (PROTOCOL.sshsig, "Signed Data")."""
        return signed_data(self.namespace, self.hash_algorithm, message)


def signed_data(namespace: str, hash_algorithm: str, message: bytes) -> bytes:
    digest = hashlib.new(hash_algorithm, message).digest()
    return _MAGIC + ssh_string(namespace.encode()) + ssh_string(b"") + ssh_string(hash_algorithm.encode()) \
        + ssh_string(digest)  # fmt: skip


def armour(sig: Signature) -> str:
    """The ``-----BEGIN SSH SIGNATURE-----`` block, base64 wrapped at 70 columns, as ssh-keygen."""
    inner = ssh_string(KEY_TYPE.encode()) + ssh_string(sig.signature)
    blob = (_MAGIC + struct.pack(">I", 1) + ssh_string(sig.key.blob) + ssh_string(sig.namespace.encode())
            + ssh_string(b"") + ssh_string(sig.hash_algorithm.encode()) + ssh_string(inner))  # fmt: skip
    b64 = base64.b64encode(blob).decode()
    body = "\n".join(b64[i : i + 70] for i in range(0, len(b64), 70))
    return f"{BEGIN}\n{body}\n{END}\n"


def sign(message: bytes, key: Ed25519PrivateKey, namespace: str) -> str:
    """The armoured SSHSIG signature over ``message`` in ``namespace``, hashed with SHA-512."""
    data = signed_data(namespace, "sha512", message)
    return armour(Signature(PublicKey.from_key(key), namespace, "sha512", key.sign(data)))


def read_armour(text: str) -> Signature:
    """Parse an armoured SSHSIG signature.

    :raises BadArmour: for missing armour lines, bad base64 or a malformed SSHSIG structure.
    :raises UnsupportedKey: when the signing key is not Ed25519.
    """
    lines = [line.strip() for line in split_lines(text.strip())]
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise BadArmour(f"a seal runs from {BEGIN!r} to {END!r}")
    b64 = "".join(lines[1:-1])
    try:
        blob = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        blob = b""
    if not blob or base64.b64encode(blob).decode() != b64:  # canonical only: no changed padding bits
        raise BadArmour("the seal's base64 text is damaged")
    r = WireReader(blob, "the seal")
    if r.raw(6) != _MAGIC:
        raise BadArmour("the seal does not start with SSHSIG")
    if (version := r.uint32()) != 1:
        raise BadArmour(f"SSHSIG version {version} is not supported (only 1)")
    key = _read_key(r.string())
    namespace = r.string().decode("utf-8", "replace")
    r.string()  # reserved
    hash_algorithm = r.text()
    inner = WireReader(r.string(), "the signature")
    r.end()
    if (kind := inner.text()) != KEY_TYPE:
        raise UnsupportedKey(f"only Ed25519 keys are supported; this seal is by {describe_key_type(kind)}")
    raw_sig = inner.string()
    inner.end()
    if len(raw_sig) != 64:
        raise BadArmour(f"an Ed25519 signature has 64 bytes, not {len(raw_sig)}")
    return Signature(key, namespace, hash_algorithm, raw_sig)


def _read_key(blob: bytes) -> PublicKey:
    """The signer's key in a signature: ``string("ssh-ed25519") string(32 key bytes)``."""
    r = WireReader(blob, "the public key")
    if (kind := r.text()) != KEY_TYPE:
        raise unsupported(kind)
    raw = r.string()
    r.end()
    if len(raw) != 32:
        raise BadArmour(f"an Ed25519 key has 32 bytes, not {len(raw)}")
    return PublicKey(raw)


@functools.lru_cache(maxsize=4096)
def _ed25519(raw: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(raw)


# The seals this process found to hold, by (message, armour, namespace), the latest few: a turn's seal
# is checked when it arrives and again when the same bytes are read back from the archive in the same
# run; the second check of the very same bytes gives the same answer, and costs ~0.1 ms.
_HELD: dict[tuple[bytes, str, str], Signature] = {}
_HELD_KEPT = 64


def verify(message: bytes, armoured: str, namespace: str) -> Signature:
    """Check that ``armoured`` signs ``message`` in ``namespace``; returns it (``key`` says whose).

    :raises BadArmour: for unreadable armour or a hash SSHSIG does not allow.
    :raises UnsupportedKey: for a non-Ed25519 signature.
    :raises WrongNamespace: for a signature made for another purpose.
    :raises BadSignature: when the message or the signature was changed.
    """
    if (held := _HELD.get((message, armoured, namespace))) is not None:
        return held  # these very bytes verified a moment ago (compared whole, not by a hash)
    sig = _verified(message, armoured, namespace)
    while len(_HELD) >= _HELD_KEPT:
        _HELD.pop(next(iter(_HELD)))  # the oldest
    _HELD[(message, armoured, namespace)] = sig
    return sig


def forget_verified() -> None:
    """Forget the seals found to hold, as a new process knows none (benchmarks measuring a run's
    checks in full, a long-lived process that wants every seal checked again)."""
    _HELD.clear()


def _verified(message: bytes, armoured: str, namespace: str) -> Signature:
    sig = read_armour(armoured)
    if sig.namespace != namespace:
        raise WrongNamespace(f"namespace {sig.namespace!r} is not {namespace}")
    if sig.hash_algorithm not in HASH_ALGORITHMS:
        raise BadArmour(f"hash algorithm {sig.hash_algorithm!r} is not one of {', '.join(HASH_ALGORITHMS)}")
    try:
        _ed25519(sig.key.raw).verify(sig.signature, sig.signed_data(message))
    except (InvalidSignature, ValueError):
        raise BadSignature("signature does not match the text (the text or the seal was changed)") from None
    return sig
