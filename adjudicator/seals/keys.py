"""SSH keys: public-key lines, fingerprints and OpenSSH private key files (Ed25519 only).

Maester reads and writes the same files as ``ssh-keygen -t ed25519``: a private key in the
``openssh-key-v1`` format, optionally protected by a passphrase (bcrypt KDF, AES-256-CTR), and a
one-line ``.pub`` file. A player's existing OpenSSH Ed25519 key works unchanged.

The bcrypt KDF of passphrase-protected keys uses the ``bcrypt`` package when it is installed
and a pure-Python version otherwise, which takes some seconds at OpenSSH's default of 16 rounds.

This is the lowest layer of the seal machinery, so :class:`SealError`, the base of every seal
error, is defined here; :mod:`adjudicator.seals.sshsig` exports it with the others.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets
import struct
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ..util import fileio

KEY_TYPE = "ssh-ed25519"
_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----"
_AUTH_MAGIC = b"openssh-key-v1\0"
DEFAULT_ROUNDS = 16  # ssh-keygen's default for -a
MAX_ROUNDS = 1000  # the most keygen writes and a key is read with (-a 1000 takes minutes without bcrypt)


class SealError(ValueError):
    """A seal, a key or a sealed file cannot be accepted. ``code`` names the reason."""

    code = "seal-error"


class UnsupportedKey(SealError):
    """A key that is not Ed25519."""

    code = "unsupported-key"


class KeyFileError(SealError):
    """A key file that cannot be read: damaged, not a key, or a public key given for a private one."""

    code = "bad-key-file"


class PassphraseRequired(KeyFileError):
    """The private key is protected and no passphrase was given."""

    code = "passphrase-required"


class WrongPassphrase(KeyFileError):
    """The passphrase does not unlock the private key."""

    code = "wrong-passphrase"


class InsecureKeyFile(UserWarning):
    """A private key file that other users may read."""


# --- SSH wire format --------------------------------------------------------------------------


def ssh_string(data: bytes) -> bytes:
    """An SSH ``string``: a big-endian 32-bit length, then the bytes."""
    return struct.pack(">I", len(data)) + data


class WireReader:
    """Reads SSH wire-format fields; running past the end raises ``error(what is cut short)``."""

    def __init__(self, data: bytes, what: str, error: type[SealError]) -> None:
        self.data, self.pos, self.what, self.error = data, 0, what, error

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise self.error(f"{self.what} is cut short")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def uint32(self) -> int:
        return int.from_bytes(self.raw(4), "big")

    def string(self) -> bytes:
        data, pos = self.data, self.pos
        end = pos + 4 + int.from_bytes(data[pos : pos + 4], "big")
        if end > len(data):
            raise self.error(f"{self.what} is cut short")
        self.pos = end
        return data[pos + 4 : end]

    def text(self) -> str:
        try:
            return self.string().decode("ascii")
        except UnicodeDecodeError:
            raise self.error(f"{self.what} has a non-ASCII name field") from None

    def end(self) -> None:
        if self.pos != len(self.data):
            raise self.error(f"{self.what} has {len(self.data) - self.pos} stray bytes at its end")


# --- public keys --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublicKey:
    """An Ed25519 public key as OpenSSH writes it, with its comment."""

    raw: bytes  # the 32 key bytes
    comment: str = ""

    @property
    def blob(self) -> bytes:
        """The SSH wire-format key: ``string "ssh-ed25519" string raw``."""
        return ssh_string(KEY_TYPE.encode()) + ssh_string(self.raw)

    @property
    def fingerprint(self) -> str:
        """``SHA256:...`` exactly as ``ssh-keygen -l`` prints it."""
        return fingerprint(self.blob)

    def line(self) -> str:
        """The ``.pub`` file line: ``ssh-ed25519 AAAA... comment``."""
        return f"{KEY_TYPE} {base64.b64encode(self.blob).decode()} {self.comment}".rstrip()

    def fingerprint_line(self) -> str:
        """``256 SHA256:... comment (ED25519)``, the line ``ssh-keygen -l`` prints."""
        return f"256 {self.fingerprint} {self.comment or 'no comment'} (ED25519)"

    @classmethod
    def from_key(cls, key: Ed25519PublicKey | Ed25519PrivateKey, comment: str = "") -> PublicKey:
        if isinstance(key, Ed25519PrivateKey):
            key = key.public_key()
        return cls(key.public_bytes(Encoding.Raw, PublicFormat.Raw), comment)


def fingerprint(blob: bytes) -> str:
    """The SHA-256 fingerprint of an SSH public-key blob, unpadded base64 as OpenSSH prints it.

    >>> fingerprint(b"")
    'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU'
    """
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def describe_key_type(kind: str) -> str:
    """A reader's name for an SSH key type.

    >>> describe_key_type("ssh-rsa"), describe_key_type("ecdsa-sha2-nistp256")
    ('an RSA key', 'an ECDSA key')
    """
    if kind.startswith("sk-"):
        return f"a security-key key ({kind})"
    if "rsa" in kind.lower():
        return "an RSA key"
    if "ecdsa" in kind.lower() or kind.upper() == "EC":
        return "an ECDSA key"
    if "dss" in kind or "dsa" in kind.lower():
        return "a DSA key"
    return f"a {kind!r} key"


def _unsupported(kind: str) -> UnsupportedKey:
    return UnsupportedKey(f"only Ed25519 keys are supported; this is {describe_key_type(kind)}")


def key_from_blob(blob: bytes, error: type[SealError] = KeyFileError) -> PublicKey:
    """Read an SSH public-key blob.

    :raises UnsupportedKey: for any key type but ``ssh-ed25519``.
    :raises SealError: (``error``) for a malformed blob.
    """
    r = WireReader(blob, "the public key", error)
    kind = r.text()
    if kind != KEY_TYPE:
        raise _unsupported(kind)
    raw = r.string()
    r.end()
    if len(raw) != 32:
        raise error(f"an Ed25519 key has 32 bytes, not {len(raw)}")
    return PublicKey(raw)


def parse_public_key(line: str) -> PublicKey:
    """Read one OpenSSH public-key line (the contents of a ``.pub`` file).

    >>> key = parse_public_key("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGkI5nc49iBAj1/Y1pToNK5XxeK+ia9GxUx3r9vgROkh x@y")
    >>> key.fingerprint, key.comment
    ('SHA256:lp1Usmxe1Qubb+/qHAxMwNpwvn0SoS7B7PZ7nL5jk9Y', 'x@y')

    :raises UnsupportedKey: for RSA, ECDSA and other non-Ed25519 keys.
    :raises KeyFileError: when the line is not an OpenSSH public key.
    """
    parts = line.strip().split(None, 2)
    if parts and "PRIVATE KEY" in line:
        raise KeyFileError("this is a private key; a public key is one 'ssh-ed25519 AAAA...' line")
    if len(parts) < 2:
        raise KeyFileError("not an OpenSSH public key line ('ssh-ed25519 AAAA... comment')")
    if parts[0] != KEY_TYPE:
        raise _unsupported(parts[0])
    try:
        key = key_from_blob(base64.b64decode(parts[1], validate=True))
    except (binascii.Error, KeyFileError):
        raise KeyFileError("the public key is damaged: its base64 part does not decode") from None
    return PublicKey(key.raw, parts[2].strip() if len(parts) > 2 else "")


def read_public_key(path: Path) -> PublicKey:
    """Read a ``.pub`` file.

    :raises UnsupportedKey: for non-Ed25519 keys. :raises KeyFileError: for anything else wrong.
    :raises OSError: when the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if len(lines) != 1 and "PRIVATE KEY" not in text:
        raise KeyFileError(f"{path}: a public key file holds one line, not {len(lines)}")
    return parse_public_key(text if "PRIVATE KEY" in text else lines[0])


# --- private keys -------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyPair:
    """A private key and its public half, with the comment OpenSSH keeps in both files."""

    private: Ed25519PrivateKey
    public: PublicKey


def generate(comment: str = "") -> KeyPair:
    """A new Ed25519 key pair."""
    key = Ed25519PrivateKey.generate()
    return KeyPair(key, PublicKey.from_key(key, comment))


def private_key_text(pair: KeyPair, passphrase: bytes | None = None, *, rounds: int = DEFAULT_ROUNDS) -> str:
    """The ``openssh-key-v1`` private key file, as ``ssh-keygen`` writes it.

    With a passphrase the key is encrypted with AES-256-CTR under a bcrypt-KDF key (``rounds``).
    """
    seed = pair.private.private_bytes(Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    check = secrets.token_bytes(4)
    section = (
        check
        + check
        + ssh_string(KEY_TYPE.encode())
        + ssh_string(pair.public.raw)
        + ssh_string(seed + pair.public.raw)
        + ssh_string(pair.public.comment.encode())
    )
    block = 16 if passphrase else 8
    section += bytes(range(1, 1 + (-len(section)) % block))
    if passphrase:
        salt = secrets.token_bytes(16)
        derived = bcrypt_pbkdf(passphrase, salt, 48, rounds)
        enc = Cipher(algorithms.AES(derived[:32]), modes.CTR(derived[32:])).encryptor()
        section = enc.update(section) + enc.finalize()
        head = ssh_string(b"aes256-ctr") + ssh_string(b"bcrypt") + ssh_string(ssh_string(salt) + struct.pack(">I", rounds))
    else:
        head = ssh_string(b"none") + ssh_string(b"none") + ssh_string(b"")
    blob = _AUTH_MAGIC + head + struct.pack(">I", 1) + ssh_string(pair.public.blob) + ssh_string(section)
    b64 = base64.b64encode(blob).decode()
    body = "\n".join(b64[i : i + 70] for i in range(0, len(b64), 70))
    return f"{_PRIVATE_BEGIN}\n{body}\n{_PRIVATE_END}\n"


def write_key_pair(path: Path, pair: KeyPair, passphrase: bytes | None = None, *, rounds: int = DEFAULT_ROUNDS) -> Path:
    """Write ``path`` (private, mode 0600) and ``path.pub``; returns the ``.pub`` path.

    :raises FileExistsError: when either file exists already.
    """
    path = Path(path)
    pub = path.with_name(path.name + ".pub")
    for p in (path, pub):
        if p.exists() or p.is_symlink():  # a link, even to nothing, is not replaced by a key
            raise FileExistsError(f"{p} exists already; choose another name or remove it")
    fileio.atomic_write_text(path, private_key_text(pair, passphrase, rounds=rounds), mode=0o600)
    fileio.atomic_write_text(pub, pair.public.line() + "\n", mode=0o644)
    return pub


_CIPHERS = {  # name: (key length, block size, mode)
    "aes128-ctr": (16, 16, "ctr"),
    "aes192-ctr": (24, 16, "ctr"),
    "aes256-ctr": (32, 16, "ctr"),
    "aes128-cbc": (16, 16, "cbc"),
    "aes192-cbc": (24, 16, "cbc"),
    "aes256-cbc": (32, 16, "cbc"),
    "aes128-gcm@openssh.com": (16, 16, "gcm"),
    "aes256-gcm@openssh.com": (32, 16, "gcm"),
}


def is_encrypted(text: str) -> bool:
    """True when an OpenSSH private key file is protected by a passphrase."""
    try:
        return _outer(text)[0] != "none"
    except SealError:
        return False


def _outer(text: str) -> tuple[str, bytes, WireReader]:
    body = text.strip().splitlines()
    if not body or body[0].strip() != _PRIVATE_BEGIN or body[-1].strip() != _PRIVATE_END:
        raise KeyFileError("not an OpenSSH private key file")
    try:
        blob = base64.b64decode("".join(line.strip() for line in body[1:-1]), validate=True)
    except binascii.Error:
        raise KeyFileError("the private key file is damaged (bad base64)") from None
    r = WireReader(blob, "the private key file", KeyFileError)
    if r.raw(len(_AUTH_MAGIC)) != _AUTH_MAGIC:
        raise KeyFileError("not an openssh-key-v1 private key")
    cipher, kdf, options = r.text(), r.text(), r.string()
    if cipher != "none" and (kdf != "bcrypt" or cipher not in _CIPHERS):
        raise KeyFileError(f"the key is encrypted with {cipher}/{kdf}, which Maester cannot read")
    return cipher, options, r


def parse_private_key(text: str, passphrase: bytes | None = None) -> KeyPair:
    """Read an OpenSSH private key file's text (or a PKCS#8 PEM Ed25519 key).

    :raises UnsupportedKey: for RSA, ECDSA and other keys.
    :raises PassphraseRequired: when the key is protected and no passphrase is given.
    :raises WrongPassphrase: when the passphrase does not unlock it.
    :raises KeyFileError: for anything else that is not a readable private key.
    """
    first = text.lstrip().split("\n", 1)[0]
    if first.startswith("ssh-") or first.startswith("ecdsa-"):
        raise KeyFileError("this is a public key (.pub); give the private key file")
    if first.startswith("-----BEGIN") and _PRIVATE_BEGIN not in first:
        return _parse_pem(text, first, passphrase)
    cipher, options, r = _outer(text)
    if r.uint32() != 1:
        raise KeyFileError("the file holds more than one key")
    public = key_from_blob(r.string())
    section = r.string()
    if cipher != "none":
        if not passphrase:
            raise PassphraseRequired("the private key is protected by a passphrase")
        section = _decrypt(cipher, options, passphrase, section, r)
    s = WireReader(section, "the private key", KeyFileError)
    if s.raw(4) != s.raw(4):
        if cipher != "none":
            raise WrongPassphrase("the passphrase does not unlock this key")
        raise KeyFileError("the private key file is damaged (check bytes differ)")
    if (kind := s.text()) != KEY_TYPE:
        raise _unsupported(kind)
    raw_public, secret, comment = s.string(), s.string(), s.string()
    if raw_public != public.raw or len(secret) != 64 or secret[32:] != raw_public:
        raise KeyFileError("the private key file is damaged (its halves do not match)")
    private = Ed25519PrivateKey.from_private_bytes(secret[:32])
    if PublicKey.from_key(private).raw != raw_public:
        raise KeyFileError("the private key file is damaged (the key does not match its public half)")
    return KeyPair(private, PublicKey(raw_public, comment.decode("utf-8", "replace")))


def _decrypt(cipher: str, options: bytes, passphrase: bytes, section: bytes, r: WireReader) -> bytes:
    o = WireReader(options, "the key's KDF options", KeyFileError)
    salt, rounds = o.string(), o.uint32()
    if not 1 <= rounds <= MAX_ROUNDS:  # a damaged count would hold the command for hours
        raise KeyFileError(f"the key's passphrase takes {rounds} bcrypt rounds; Maester reads keys of 1 to "
                           f"{MAX_ROUNDS} rounds (is the file damaged?)")  # fmt: skip
    key_len, block, mode = _CIPHERS[cipher]
    iv_len = 12 if mode == "gcm" else block
    derived = bcrypt_pbkdf(passphrase, salt, key_len + iv_len, rounds)
    key, iv = derived[:key_len], derived[key_len:]
    if mode == "gcm":
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            return AESGCM(key).decrypt(iv, section + r.raw(16), None)
        except InvalidTag:
            raise WrongPassphrase("the passphrase does not unlock this key") from None
    if len(section) % block:
        raise KeyFileError("the private key file is damaged (bad length)")
    m = modes.CTR(iv) if mode == "ctr" else modes.CBC(iv)
    dec = Cipher(algorithms.AES(key), m).decryptor()
    return dec.update(section) + dec.finalize()


def _parse_pem(text: str, first: str, passphrase: bytes | None) -> KeyPair:
    for label in ("RSA", "EC", "DSA"):
        if first.startswith(f"-----BEGIN {label} PRIVATE KEY"):
            raise _unsupported(label)
    try:
        key = serialization.load_pem_private_key(text.encode(), passphrase or None)
    except TypeError:
        raise PassphraseRequired("the private key is protected by a passphrase") from None
    except ValueError:
        raise KeyFileError("not a private key this program can read (or a wrong passphrase)") from None
    except Exception:  # cryptography's UnsupportedAlgorithm and friends
        raise KeyFileError("not a private key this program can read") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise _unsupported(type(key).__name__.removeprefix("_").replace("EllipticCurve", "ECDSA"))
    return KeyPair(key, PublicKey.from_key(key))


def read_private_key(path: Path, passphrase: bytes | None = None) -> KeyPair:
    """Read a private key file; warns (:class:`InsecureKeyFile`) when others may read it.

    :raises KeyFileError: and its subclasses, :raises UnsupportedKey:, as :func:`parse_private_key`.
    :raises OSError: when the file cannot be read.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    pair = parse_private_key(text, passphrase)
    if os.name == "posix" and (mode := path.stat().st_mode & 0o777) & 0o077:
        warnings.warn(
            InsecureKeyFile(f"{path} may be read by other users (mode {mode:04o}); run: chmod 600 {path}"),
            stacklevel=2,
        )
    return pair


# --- bcrypt_pbkdf (OpenBSD), as OpenSSH uses it to protect private keys ---------------------------


_Job = tuple[bytes, bytes, int, int]


def have_fast_kdf() -> bool:
    """True when the ``bcrypt`` package is installed, so unlocking a key is quick."""
    try:
        import bcrypt  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def bcrypt_pbkdf(password: bytes, salt: bytes, key_len: int, rounds: int) -> bytes:
    """OpenBSD's ``bcrypt_pbkdf``: ``key_len`` bytes from a passphrase, a salt and ``rounds``.

    >>> bcrypt_pbkdf(b"password", b"salt", 8, 1).hex()
    '7af41469e52860da'

    (tests/test_seal.py checks OpenBSD's published vector, and keys made by ssh-keygen.)
    """
    if have_fast_kdf():
        import bcrypt

        return bytes(bcrypt.kdf(password=password, salt=salt, desired_key_bytes=key_len, rounds=rounds, ignore_few_rounds=True))
    stride = (key_len + 31) // 32
    amt = (key_len + stride - 1) // stride
    places: list[list[int]] = []  # for each 32-byte block (count 1, 2, ...), where its bytes go
    remaining, count = key_len, 1
    while remaining > 0:
        dests = [d for i in range(min(amt, remaining)) if (d := i * stride + count - 1) < key_len]
        places.append(dests)
        remaining -= len(dests)
        count += 1
    jobs = [(hashlib.sha512(password).digest(), salt, c, rounds) for c in range(1, len(places) + 1)]
    key = bytearray(key_len)
    for dests, out in zip(places, _run_all(_kdf_block, jobs), strict=True):
        for i, d in enumerate(dests):
            key[d] = out[i]
    return bytes(key)


def _kdf_block(job: tuple[bytes, bytes, int, int]) -> bytes:
    """One 32-byte output block of bcrypt_pbkdf: ``rounds`` chained bcrypt hashes, XORed."""
    sha_pass, salt, count, rounds = job
    tmp = _bcrypt_hash(sha_pass, hashlib.sha512(salt + struct.pack(">I", count)).digest())
    out = int.from_bytes(tmp, "big")
    for _ in range(1, rounds):
        tmp = _bcrypt_hash(sha_pass, hashlib.sha512(tmp).digest())
        out ^= int.from_bytes(tmp, "big")
    return out.to_bytes(32, "big")


def _run_all(fn: Callable[[_Job], bytes], jobs: list[_Job]) -> list[bytes]:
    """``[fn(job) for job in jobs]``, on several processors when there are several (the blocks of
    the pure-Python KDF are independent, and each takes seconds); in this process if that fails."""
    workers = min(len(jobs), os.cpu_count() or 1)
    if workers > 1 and jobs[0][3] > 2:
        try:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                return list(pool.map(fn, jobs))
        except (OSError, ImportError, BrokenProcessPool):
            pass
    return [fn(job) for job in jobs]


def _pi_words(n: int) -> list[int]:
    """The first ``n`` 32-bit words of the fraction of pi: Blowfish's initial P-array and S-boxes."""
    one = 1 << (32 * n + 64)

    def arctan_inverse(x: int) -> int:
        total, term, k = 0, one // x, 1
        while term:
            total += term // k if k % 4 == 1 else -(term // k)
            term //= x * x
            k += 2
        return total

    frac = ((16 * arctan_inverse(5) - 4 * arctan_inverse(239)) - 3 * one) >> 64
    return [(frac >> (32 * (n - 1 - i))) & 0xFFFFFFFF for i in range(n)]


_BLOWFISH_INIT: list[int] = []
_M = 0xFFFFFFFF
_ZEROS = [0] * 16
_OXY = [int.from_bytes(b"OxychromaticBlowfishSwatDynamite"[i : i + 4], "big") for i in range(0, 32, 4)]


def _encipher(p: list[int], s: list[list[int]], xl: int, xr: int) -> tuple[int, int]:
    s0, s1, s2, s3 = s
    xl ^= p[0]
    for k in range(1, 17, 2):
        xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p[k]
        xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p[k + 1]
    return xr ^ p[17], xl


def _expand(p: list[int], s: list[list[int]], key: list[int], data: list[int] = _ZEROS) -> None:
    """Blowfish_expandstate, or Blowfish_expand0state when ``data`` is all zeros."""
    for i in range(18):
        p[i] ^= key[i % 16]
    xl = xr = j = 0
    for i in range(0, 18, 2):
        xl, xr = _encipher(p, s, xl ^ data[j], xr ^ data[j + 1])
        p[i], p[i + 1], j = xl, xr, (j + 2) & 15
    s0, s1, s2, s3 = s
    p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17 = p
    for box in s:  # the hot loop: 512 blocks, rounds unrolled
        for i in range(0, 256, 2):
            xl ^= data[j] ^ p0
            xr ^= data[j + 1]
            j = (j + 2) & 15
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p1
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p2
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p3
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p4
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p5
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p6
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p7
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p8
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p9
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p10
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p11
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p12
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p13
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p14
            xr ^= ((s0[xl >> 24] + s1[xl >> 16 & 255]) ^ s2[xl >> 8 & 255]) + s3[xl & 255] & _M ^ p15
            xl ^= ((s0[xr >> 24] + s1[xr >> 16 & 255]) ^ s2[xr >> 8 & 255]) + s3[xr & 255] & _M ^ p16
            xl, xr = xr ^ p17, xl
            box[i], box[i + 1] = xl, xr


def _bcrypt_hash(sha_pass: bytes, sha_salt: bytes) -> bytes:
    if not _BLOWFISH_INIT:
        _BLOWFISH_INIT.extend(_pi_words(18 + 4 * 256))
    p = _BLOWFISH_INIT[:18]
    s = [_BLOWFISH_INIT[18 + 256 * k : 18 + 256 * (k + 1)] for k in range(4)]
    key = [int.from_bytes(sha_pass[i : i + 4], "big") for i in range(0, 64, 4)]
    salt = [int.from_bytes(sha_salt[i : i + 4], "big") for i in range(0, 64, 4)]
    _expand(p, s, key, salt)
    for _ in range(64):
        _expand(p, s, salt)
        _expand(p, s, key)
    c = list(_OXY)
    for _ in range(64):
        for i in range(0, 8, 2):
            c[i], c[i + 1] = _encipher(p, s, c[i], c[i + 1])
    return b"".join(w.to_bytes(4, "little") for w in c)
