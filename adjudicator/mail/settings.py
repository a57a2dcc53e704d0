"""How ``maester deliver`` sends at once: the ``[mail]`` table of ``game.toml``, which its options override.

::

    [mail]
    send = "smtp://localhost:25"          # the server to send through (smtps://HOST:PORT for TLS)
    starttls = false                      # with smtp://: switch to TLS before logging in
    user = "gm@example.org"               # log in as this user (needs TLS) ...
    password_file = "~/.config/maester/smtp-password"   # ... with the first line of this file
    cafile = ""                           # trust the certificates in this file (default: the system's)
    key = "~/.ssh/maester-moderator"      # seal the reports with the moderator's key
    passphrase_file = ""                  # the key's passphrase, first line of this file
    from = "gm@example.org"               # the sender (default: the moderator's registered address)

A relative path is read from the game folder; ``~`` is the home folder of the user the command
runs as. A delivery never asks for a password or a passphrase: it has no terminal.
"""

from __future__ import annotations

import ssl
import warnings
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..folder import registry
from ..seals import keys
from .deliver import Mailing
from .sending import OutboxError, SmtpServer, parse_smtp_url

__all__ = ["SendSettings", "mailing", "read_settings"]

_TEXT = ("send", "user", "password_file", "cafile", "key", "passphrase_file", "from")


@dataclass(frozen=True)
class SendSettings:
    """Where and how to send; ``None`` for a setting not given."""

    send: str | None = None
    starttls: bool | None = None
    user: str | None = None
    password_file: Path | None = None
    cafile: Path | None = None
    key: Path | None = None
    passphrase_file: Path | None = None
    sender: str | None = None

    def over(self, base: SendSettings) -> SendSettings:
        """These settings where given, ``base``'s elsewhere (the options over ``game.toml``)."""
        given = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}
        return replace(base, **given)


def read_settings(root: Path, game: dict[str, Any]) -> SendSettings:
    """The sending settings of ``game.toml``'s ``[mail]`` table (none given: nothing is sent).

    :raises OutboxError: for a setting of the wrong kind, naming it and what is valid.
    """
    table = game.get("mail", {})
    if not isinstance(table, dict):
        raise OutboxError(f"{registry.GAME_FILE}: 'mail' must be a table ([mail] send = \"smtp://localhost:25\")")
    for name in _TEXT:
        if name in table and not isinstance(table[name], str):
            raise OutboxError(f"{registry.GAME_FILE}: [mail] {name} must be text, not {type(table[name]).__name__}")
    if "starttls" in table and not isinstance(table["starttls"], bool):
        raise OutboxError(f"{registry.GAME_FILE}: [mail] starttls must be true or false")

    def path(name: str) -> Path | None:
        value = str(table.get(name, "")).strip()
        return root / Path(value).expanduser() if value else None

    return SendSettings(send=str(table.get("send", "")).strip() or None, starttls=table.get("starttls"),
                        user=str(table.get("user", "")).strip() or None, password_file=path("password_file"),
                        cafile=path("cafile"), key=path("key"), passphrase_file=path("passphrase_file"),
                        sender=str(table.get("from", "")).strip() or None)  # fmt: skip


def mailing(s: SendSettings) -> Mailing:
    """The server and key the settings name, read now; what cannot be read is the mailing's ``problem``."""
    try:
        key = _key(s.key, s.passphrase_file) if s.key else None
        server = _server(s) if s.send else None
    except OutboxError as e:
        return Mailing(problem=str(e))
    return Mailing(server, key, s.sender)


def _first_line(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes().split(b"\n", 1)[0].rstrip(b"\r")
    except OSError as e:
        raise OutboxError(f"{what} {path}: {e.strerror}") from None


def _key(path: Path, passphrase_file: Path | None) -> keys.KeyPair:
    passphrase = _first_line(passphrase_file, "the passphrase file") if passphrase_file else None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        if passphrase is None and keys.is_encrypted(text):
            raise OutboxError(f"the key {path} is protected by a passphrase: give passphrase_file in [mail] of "
                              "game.toml, or --passphrase-file (a delivery has no terminal to ask at)")  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", keys.InsecureKeyFile)
            return keys.read_private_key(path, passphrase)
    except keys.SealError as e:
        raise OutboxError(f"the key {path}: {e}") from None
    except OSError as e:
        raise OutboxError(f"the key {path}: {e.strerror}") from None


def _server(s: SendSettings) -> SmtpServer:
    if s.password_file and not s.user:
        raise OutboxError("a password file goes with a user ([mail] user, or --user)")
    if s.user and not s.password_file:
        raise OutboxError("a user needs a password file ([mail] password_file, or --password-file): a delivery "
                          "has no terminal to ask at")  # fmt: skip
    password = _first_line(s.password_file, "the password file").decode("utf-8", "replace") if s.password_file else None
    try:
        context = ssl.create_default_context(cafile=str(s.cafile)) if s.cafile else None
    except OSError as e:
        raise OutboxError(f"the certificates {s.cafile}: {e.strerror or e}") from None
    return parse_smtp_url(str(s.send), starttls=bool(s.starttls), user=s.user, password=password, context=context)
