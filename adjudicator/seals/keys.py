"""SSH keys: public-key lines, fingerprints and OpenSSH private key files (Ed25519 only).

Maester reads and writes the same files as ``ssh-keygen -t ed25519``: a private key in the
``openssh-key-v1`` format, optionally protected by a passphrase, and a one-line ``.pub`` file. A
player's existing OpenSSH Ed25519 key works unchanged. The ``cryptography`` package reads and
writes the files (``load_ssh_private_key``, ``load_ssh_public_key``, ``private_bytes`` in the
OpenSSH format); it unlocks a protected key with the ``bcrypt`` package's KDF and AES-256.

A public key is read and written here, not by the library: an Ed25519 key line is two SSH
``string`` fields in base64, and the library's loaders for it import every OpenSSH cipher, a
cost every command that checks a seal would pay (start-up, issue 31). It is read exactly as
``load_ssh_public_key`` reads it (the same fields, nothing left over); the library is loaded
for private key files.

One field is read here before the library is called: the bcrypt round count of a protected key.
The library would apply whatever count the file holds, and one flipped bit of a damaged file asks
for 2**31 rounds, months of work; such a key is refused at once (ruling 171).

This is the lowest layer of the seal machinery, so :class:`SealError`, the base of every seal
error, is defined here; :mod:`adjudicator.seals.seal` exports it with the others.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from ..util import fileio

KEY_TYPE = "ssh-ed25519"
DEFAULT_ROUNDS = 16  # ssh-keygen's default for -a
MAX_ROUNDS = 1000  # the most keygen writes and a key is read with (ruling 171: 1000 rounds take seconds)
_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----"
_AUTH_MAGIC = b"openssh-key-v1\0"


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


# --- public keys --------------------------------------------------------------------------------


def _ssh_string(data: bytes) -> bytes:
    """An SSH ``string``: a 32-bit big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


@functools.lru_cache(maxsize=4096)
def _openssh_line(raw: bytes) -> str:
    """``ssh-ed25519 AAAA...`` for 32 raw key bytes, as the library writes it (``string("ssh-ed25519")
    string(key)`` in base64).

    >>> _openssh_line(bytes(32))
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    """
    Ed25519PublicKey.from_public_bytes(raw)  # refuses what is not a key, as the library's writer does
    return f"{KEY_TYPE} {base64.b64encode(_ssh_string(KEY_TYPE.encode()) + _ssh_string(raw)).decode()}"


@dataclass(frozen=True, slots=True)
class PublicKey:
    """An Ed25519 public key as OpenSSH writes it, with its comment."""

    raw: bytes  # the 32 key bytes
    comment: str = ""

    @property
    def blob(self) -> bytes:
        """The SSH wire-format key, as a signature or a fingerprint covers it."""
        return base64.b64decode(_openssh_line(self.raw).split()[1])

    @property
    def fingerprint(self) -> str:
        """``SHA256:...`` exactly as ``ssh-keygen -l`` prints it."""
        return fingerprint(self.blob)

    def line(self) -> str:
        """The ``.pub`` file line: ``ssh-ed25519 AAAA... comment``."""
        return f"{_openssh_line(self.raw)} {self.comment}".rstrip()

    def fingerprint_line(self) -> str:
        """``256 SHA256:... comment (ED25519)``, the line ``ssh-keygen -l`` prints."""
        return f"256 {self.fingerprint} {self.comment or 'no comment'} (ED25519)"

    @classmethod
    def from_key(cls, key: Ed25519PublicKey | Ed25519PrivateKey, comment: str = "") -> PublicKey:
        if isinstance(key, Ed25519PrivateKey):
            key = key.public_key()
        return cls(key.public_bytes_raw(), comment)


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
    if "ecdsa" in kind.lower() or kind.upper() in ("EC", "ELLIPTICCURVE"):
        return "an ECDSA key"
    if "dss" in kind or "dsa" in kind.lower():
        return "a DSA key"
    return f"a {kind!r} key"


def unsupported(kind: str) -> UnsupportedKey:
    """The refusal of a key of type ``kind`` (``ssh-rsa``, ``RSA``, ...)."""
    return UnsupportedKey(f"only Ed25519 keys are supported; this is {describe_key_type(kind)}")


def _library_key_kind(key: object) -> str:
    """A key type name for a key object the library returned (``RSAPrivateKey`` -> ``RSA``)."""
    for base in type(key).__mro__:
        if base.__module__.startswith("cryptography") and base.__name__.endswith(("PrivateKey", "PublicKey")):
            return base.__name__.removesuffix("PrivateKey").removesuffix("PublicKey").lstrip("_")
    return type(key).__name__


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
        raise unsupported(parts[0])
    try:
        blob = base64.b64decode(parts[1], validate=True)  # the library skips stray characters; a damaged line is refused
        key = _key_of_blob(blob)
    except (binascii.Error, ValueError):
        raise KeyFileError("the public key is damaged: its base64 part does not decode") from None
    return PublicKey.from_key(key, parts[2].strip() if len(parts) > 2 else "")


def _key_of_blob(blob: bytes) -> Ed25519PublicKey:
    """The key of an ``ssh-ed25519`` line's blob, read as ``load_ssh_public_key`` reads it:
    ``string("ssh-ed25519") string(32 key bytes)`` and nothing after.

    :raises ValueError: for anything else.
    """
    fields: list[bytes] = []
    pos = 0
    for _ in range(2):
        end = pos + 4 + int.from_bytes(blob[pos : pos + 4], "big")
        if pos + 4 > len(blob) or end > len(blob):
            raise ValueError("Invalid data")
        fields.append(blob[pos + 4 : end])
        pos = end
    if fields[0] != KEY_TYPE.encode() or pos != len(blob):
        raise ValueError("Invalid key format")
    return Ed25519PublicKey.from_public_bytes(fields[1])  # ValueError unless 32 bytes


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
    """A private key and its public half. The comment is the one given to :func:`generate`; a key
    read from a file has none (the ``.pub`` file holds it)."""

    private: Ed25519PrivateKey
    public: PublicKey


def generate(comment: str = "") -> KeyPair:
    """A new Ed25519 key pair."""
    key = Ed25519PrivateKey.generate()
    return KeyPair(key, PublicKey.from_key(key, comment))


def private_key_text(pair: KeyPair, passphrase: bytes | None = None, *, rounds: int = DEFAULT_ROUNDS) -> str:
    """The ``openssh-key-v1`` private key file, which ``ssh-keygen`` reads.

    With a passphrase the key is protected as ``ssh-keygen`` does it: AES-256-CTR under a key
    derived by ``rounds`` of bcrypt.
    """
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds must be between 1 and {MAX_ROUNDS}, not {rounds}")
    from cryptography.hazmat.primitives import serialization  # here: it loads every OpenSSH cipher (start-up)
    from cryptography.hazmat.primitives.serialization import Encoding, PrivateFormat

    encryption: serialization.KeySerializationEncryption = serialization.NoEncryption()
    if passphrase:
        encryption = PrivateFormat.OpenSSH.encryption_builder().kdf_rounds(rounds).build(passphrase)
    return pair.private.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, encryption).decode("ascii")


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


@dataclass(frozen=True, slots=True)
class Header:
    """The clear part of an OpenSSH private key file: how it is protected, and the key's type."""

    cipher: str  # "none" for a key without a passphrase
    rounds: int  # bcrypt rounds; 0 without a passphrase
    key_type: str  # "ssh-ed25519", "ssh-rsa", ...
    public: bytes  # the public key's blob: its type, then (for Ed25519) its 32 bytes


def read_header(text: str) -> Header:
    """The cipher, bcrypt round count and key type an OpenSSH private key file's header names.

    Only these clear fields are read here; the library checks and reads the rest.

    :raises KeyFileError: when the text is not an OpenSSH private key or its header is damaged.
    """
    lines = text.strip().splitlines()
    if not lines or lines[0].strip() != _PRIVATE_BEGIN or lines[-1].strip() != _PRIVATE_END:
        raise KeyFileError("not an OpenSSH private key file")
    try:
        blob = base64.b64decode("".join(line.strip() for line in lines[1:-1]), validate=True)
    except binascii.Error:
        raise KeyFileError("the private key file is damaged (bad base64)") from None
    if not blob.startswith(_AUTH_MAGIC):
        raise KeyFileError("not an openssh-key-v1 private key")
    (cipher, kdf, options), pos = _ssh_strings(blob, len(_AUTH_MAGIC), 3)
    (public,), _ = _ssh_strings(blob, pos + 4, 1)  # after the count of keys
    (key_type,), _ = _ssh_strings(public, 0, 1)
    kind, name = key_type.decode("ascii", "replace"), cipher.decode("ascii", "replace")
    if name == "none" and kdf == b"none":
        return Header(name, 0, kind, public)
    if name == "none":
        raise KeyFileError("the private key file is damaged (a KDF but no cipher)")
    if kdf != b"bcrypt":
        raise KeyFileError(f"the key is protected with {kdf.decode('ascii', 'replace')!r}, which Maester cannot read")
    (salt,), pos = _ssh_strings(options, 0, 1)
    if not salt or len(options) != pos + 4:
        raise KeyFileError("the private key file is damaged (its KDF options are not a salt and a round count)")
    return Header(name, int.from_bytes(options[pos:], "big"), kind, public)


def _ssh_strings(data: bytes, pos: int, n: int) -> tuple[list[bytes], int]:
    """``n`` SSH ``string`` fields (a 32-bit length, then the bytes) from ``pos``; and the position after."""
    out = []
    for _ in range(n):
        end = pos + 4 + int.from_bytes(data[pos : pos + 4], "big")
        if pos + 4 > len(data) or end > len(data):
            raise KeyFileError("the private key file is cut short")
        out.append(data[pos + 4 : end])
        pos = end
    return out, pos


def is_encrypted(text: str) -> bool:
    """True when an OpenSSH private key file is protected by a passphrase."""
    try:
        return read_header(text).cipher != "none"
    except SealError:
        return False


def parse_private_key(text: str, passphrase: bytes | None = None) -> KeyPair:
    """Read an OpenSSH private key file's text (or a PKCS#8 PEM Ed25519 key).

    :raises UnsupportedKey: for RSA, ECDSA and other keys.
    :raises PassphraseRequired: when the key is protected and no passphrase is given.
    :raises WrongPassphrase: when the passphrase does not unlock it.
    :raises KeyFileError: for anything else that is not a readable private key.
    """
    first = text.lstrip().split("\n", 1)[0]
    if first.startswith(("ssh-", "ecdsa-")):
        raise KeyFileError("this is a public key (.pub); give the private key file")
    if first.startswith("-----BEGIN") and _PRIVATE_BEGIN not in first:
        return _parse_pem(text, first, passphrase)
    header = read_header(text)
    if header.key_type != KEY_TYPE:
        raise unsupported(header.key_type)
    if header.cipher == "none":
        passphrase = None  # the library refuses a passphrase for a key without one; ssh-keygen ignores it
    elif not passphrase:
        raise PassphraseRequired("the private key is protected by a passphrase")
    elif not 1 <= header.rounds <= MAX_ROUNDS:  # ruling 171: a damaged count would hold the command for months
        raise KeyFileError(f"the key's passphrase takes {header.rounds} bcrypt rounds; Maester reads keys of 1 "
                           f"to {MAX_ROUNDS} rounds (is the file damaged?)")  # fmt: skip
    from cryptography.hazmat.primitives import serialization  # here: it loads every OpenSSH cipher (start-up)

    try:
        key = serialization.load_ssh_private_key(text.encode("ascii", "replace"), passphrase)
    except InvalidTag:  # AES-GCM: the derived key does not open the protected part
        raise WrongPassphrase("the passphrase does not unlock this key") from None
    except ValueError as e:
        if passphrase and "checksum" in str(e):  # the check words differ after decrypting with a wrong key
            raise WrongPassphrase("the passphrase does not unlock this key") from None
        raise KeyFileError(f"the private key file is damaged ({str(e)[:80].lower()})") from None
    except UnsupportedAlgorithm:  # a cipher of ssh-keygen -Z the library does not know
        raise KeyFileError(f"the key is protected with {header.cipher[:40]!r}, which Maester cannot read "
                           "(ssh-keygen -p -Z aes256-ctr changes that)") from None  # fmt: skip
    pair = _pair(key)
    if pair.public.blob != header.public:  # the library does not check that the secret half makes the public one
        raise KeyFileError("the private key file is damaged (the key does not match its public half)")
    return pair


def _pair(key: object) -> KeyPair:
    if not isinstance(key, Ed25519PrivateKey):
        raise unsupported(_library_key_kind(key))
    return KeyPair(key, PublicKey.from_key(key))


def _parse_pem(text: str, first: str, passphrase: bytes | None) -> KeyPair:
    for label in ("RSA", "EC", "DSA"):
        if first.startswith(f"-----BEGIN {label} PRIVATE KEY"):
            raise unsupported(label)
    from cryptography.hazmat.primitives import serialization  # here: it loads every OpenSSH cipher (start-up)

    try:
        key = serialization.load_pem_private_key(text.encode("ascii", "replace"), passphrase or None)
    except TypeError:
        raise PassphraseRequired("the private key is protected by a passphrase") from None
    except ValueError:
        raise KeyFileError("not a private key this program can read (or a wrong passphrase)") from None
    except UnsupportedAlgorithm:
        raise KeyFileError("not a private key this program can read") from None
    return _pair(key)


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
