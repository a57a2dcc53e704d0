"""``maester keygen | register | sign | verify | normalise``: keys and seals on turn files."""

from __future__ import annotations

import argparse
import functools
import getpass
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..folder import registry
from ..seals import keys, seal, wrapping
from ..util import fileio
from . import UserError, os_error_line

Handler = Callable[[argparse.Namespace], int]
REPORT_FIRST_WORD = "MAESTER ·"  # a report mail's text starts so (mail/outbox.py's letter_text)


def register(subparsers: Any) -> None:
    """Add the seal commands to the ``maester`` parser."""
    p = subparsers.add_parser("keygen", help="make an Ed25519 key pair for sealing turn files",
                              description="Write an OpenSSH Ed25519 private key (mode 0600) and KEY.pub, "
                              "and print the fingerprint as ssh-keygen -l does.")  # fmt: skip
    p.add_argument("--out", required=True, type=Path, metavar="KEY", help="private key file to write")
    p.add_argument("--comment", default="", help="comment stored with the key (e.g. your address)")
    p.add_argument("--passphrase-file", type=Path, metavar="F", help="protect the key with the passphrase in F")
    p.add_argument("--rounds", type=int, default=keys.DEFAULT_ROUNDS, metavar="N",
                   help=f"bcrypt KDF rounds for the passphrase, as ssh-keygen -a (default {keys.DEFAULT_ROUNDS})")  # fmt: skip
    p.set_defaults(handler=cmd_keygen)

    p = subparsers.add_parser("register", help="register a house's public key in a game, or revoke one",
                              description="Register KEY.pub for a house (or the moderator) in GAME_DIR/game.toml, "
                              "or revoke a key by its fingerprint. Every change is logged.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--house", help="house the key seals for, or 'moderator'")
    p.add_argument("--key", type=Path, metavar="FILE.pub", help="public key file (one 'ssh-ed25519 ...' line)")
    p.add_argument("--email", metavar="ADDR", help="the house's mail address (players.<house>.email)")
    p.add_argument("--replaces", metavar="FINGERPRINT", help="revoke this key of the same house (needs --reason)")
    p.add_argument("--revoke", metavar="FINGERPRINT", help="revoke this key (needs --reason)")
    p.add_argument("--reason", default="", help="the moderator's reason, kept in the log")
    p.set_defaults(handler=cmd_register)

    p = subparsers.add_parser("sign", help="seal a turn file with your private key",
                              description="Write FILE's normalised text followed by its SSH signature.")  # fmt: skip
    p.add_argument("--key", required=True, type=Path, metavar="KEY", help="private key file (OpenSSH Ed25519)")
    p.add_argument("file", metavar="FILE", help="the turn file ('-' for standard input)")
    p.add_argument("--out", metavar="OUT", help="where to write the sealed file (default FILE.sealed; '-' for stdout)")
    p.add_argument("--passphrase-file", type=Path, metavar="F", help="read the key's passphrase from F")
    p.set_defaults(handler=cmd_sign)

    p = subparsers.add_parser("verify", help="check who sealed each turn in a file and whether it is acceptable now",
                              description="Exit status 0 when every sealed block is valid now, 1 when one is "
                              "not, 2 for a usage or game-folder error.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("file", metavar="FILE", help="a sealed turn file or a whole mail ('-' for standard input)")
    p.add_argument("--unsigned", action="store_true", help="moderator: accept an unsealed file (needs --house, --reason)")
    p.add_argument("--house", help="with --unsigned: the house the file is for")
    p.add_argument("--reason", default="", help="with --unsigned: the moderator's reason, kept in the log")
    p.set_defaults(handler=cmd_verify)

    p = subparsers.add_parser("normalise", aliases=["normalize"], help="print a turn file's text exactly as a seal covers it",
                              description="Normalise FILE (NFC, LF line ends, no trailing blanks, one final newline) "
                              "so that it can be sealed with plain ssh-keygen -Y sign -n maester-turn.")  # fmt: skip
    p.add_argument("file", metavar="FILE", help="the turn file ('-' for standard input)")
    p.add_argument("--out", metavar="OUT", default="-", help="where to write it (default: standard output)")
    p.add_argument("--report", action="store_true",
                   help="FILE is a report's text (no header line), or a whole report mail as saved (its text "
                   "part, read as a mail program shows it): normalise it to check the moderator's seal")  # fmt: skip
    p.set_defaults(handler=cmd_normalise)


def _user_errors(handler: Handler) -> Handler:
    """Turn the library's expected errors into one-line user errors (exit 2); print warnings."""

    @functools.wraps(handler)
    def wrapped(args: argparse.Namespace) -> int:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", keys.InsecureKeyFile)
            try:
                return handler(args)
            except (seal.SealError, registry.RegistryError) as e:
                raise UserError(str(e)) from None
            except OSError as e:
                raise UserError(os_error_line(e, "file")) from None
            finally:
                for w in caught:
                    print(f"maester: warning: {w.message}", file=sys.stderr)

    return wrapped


def _read_bytes(name: str) -> bytes:
    return sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()


def _write_text(name: str, text: str) -> None:
    path = Path(name)
    if name == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    elif path.exists() and not path.is_file():  # /dev/null, a pipe: written to, never replaced by a file
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    else:  # a symbolic link is followed: its target gets the text, the link stays
        fileio.atomic_write_text(path.resolve() if path.is_symlink() else path, text)


def _passphrase(path: Path | None) -> bytes | None:
    if path is None:
        return None
    data = path.read_bytes().rstrip(b"\r\n")
    return data or None


@_user_errors
def cmd_keygen(args: argparse.Namespace) -> int:
    if any(c in args.comment for c in "\r\n\0"):
        raise UserError("--comment must be one line: it ends the public key's one line")
    passphrase = _passphrase(args.passphrase_file)
    if args.passphrase_file is not None and passphrase is None:
        raise UserError(f"--passphrase-file {args.passphrase_file} is empty: write the passphrase in it, or leave "
                        "the option out for a key without one")  # fmt: skip
    pair = keys.generate(args.comment)
    if not 1 <= args.rounds <= keys.MAX_ROUNDS:
        raise UserError(f"--rounds must be between 1 and {keys.MAX_ROUNDS}, not {args.rounds}")
    try:
        pub = keys.write_key_pair(args.out, pair, passphrase, rounds=args.rounds)
    except FileExistsError as e:
        raise UserError(str(e)) from None
    print(pair.public.fingerprint_line())
    print(f"maester: wrote {args.out} and {pub}", file=sys.stderr)
    return 0


@_user_errors
def cmd_register(args: argparse.Namespace) -> int:
    if args.revoke:
        if args.house or args.key or args.replaces:
            raise UserError("--revoke takes only GAME_DIR and --reason")
        entry = registry.revoke_key(args.game_dir, args.revoke, args.reason)
        print(f"revoked {entry.fingerprint} of {registry.house_name(entry.house)}: {entry.revoked_reason}")
        return 0
    if not args.house or not args.key:
        raise UserError("give --house and --key FILE.pub to register a key, or --revoke FINGERPRINT")
    key = keys.read_public_key(args.key)
    entry = registry.register_key(args.game_dir, args.house, key, email=args.email,
                                  replaces=args.replaces, reason=args.reason)  # fmt: skip
    print(f"registered {entry.fingerprint} for {registry.house_name(entry.house)}")
    if args.replaces:
        print(f"revoked {args.replaces}: {args.reason.strip()}")
    return 0


def _load_key(path: Path, passphrase_file: Path | None) -> keys.KeyPair:
    text = path.read_text(encoding="utf-8", errors="replace")
    passphrase = _passphrase(passphrase_file)
    if keys.is_encrypted(text) and passphrase is None:
        if not sys.stdin.isatty():
            raise UserError(f"{path} is protected by a passphrase; give --passphrase-file")
        passphrase = getpass.getpass(f"passphrase for {path}: ").encode() or None
    return keys.read_private_key(path, passphrase)


@_user_errors
def cmd_sign(args: argparse.Namespace) -> int:
    text = seal.decode(_read_bytes(args.file))
    pair = _load_key(args.key, args.passphrase_file)
    try:
        sealed = seal.sign(text, pair.private)
    except seal.BadHeader as e:
        raise UserError(f"{e}{_header_hint(seal.normalise(text))}") from None
    out = args.out or ("-" if args.file == "-" else args.file + ".sealed")
    _write_text(out, sealed)
    block = seal.split_sealed(sealed)[0].open()
    h = block.header
    summary = f"sealed {h.game}, house {h.house}, round {h.round} {h.step}, seq {h.seq} with {block.key.fingerprint}"
    print(summary + ("" if out == "-" else f" -> {out}"), file=sys.stderr if out == "-" else sys.stdout)
    if long := wrapping.long_lines(block.text):
        print(f"maester: warning: {wrapping.long_lines_text(long)}, over {wrapping.WRAP_WIDTH}: a mail program "
              "may wrap such a line and break the seal; attach the sealed file to the mail, or send it from a "
              "mail program that sends format=flowed (mutt: set text_flowed), or shorten the line and seal "
              "again", file=sys.stderr)  # fmt: skip
    return 0


def _header_hint(text: str) -> str:
    """What to do when a text to seal does not start with its header line."""
    from ..turnfile.header import is_header_line

    lines = text.split("\n")
    first = lines[0].lstrip()
    if first.startswith(">"):
        return "; remove the mail quoting ('> ') first"
    at = next((i for i, line in enumerate(lines) if is_header_line(line)), None)
    if at is not None:
        return f"; the header is line {at + 1}: move the lines before it below it, or delete them"
    return "; the turn-file skeleton of your last report has the header to copy"


@_user_errors
def cmd_verify(args: argparse.Namespace) -> int:
    data = _read_bytes(args.file)
    name = "<stdin>" if args.file == "-" else args.file
    if args.unsigned:
        return _accept_unsigned(args, data, name)
    if args.house or args.reason:
        raise UserError("--house and --reason go with --unsigned")
    report = registry.check_file(args.game_dir, data)
    for line in report.lines():
        print(f"{name}: {line}")
    return 0 if report.ok else 1


def _accept_unsigned(args: argparse.Namespace, data: bytes, name: str) -> int:
    if not args.house or not args.reason.strip():
        raise UserError("--unsigned needs --house H and --reason \"...\"")
    try:
        header = registry.moderator_accept(args.game_dir, seal.decode(data), house=args.house,
                                           reason=args.reason, file=name)  # fmt: skip
    except seal.SealError as e:
        print(f"{name}: invalid [{e.code}]: {e}")
        return 1
    print(f"{name}: acceptable: moderator-accepted for {registry.house_name(header.house)}, "
          f"round {header.round} {header.step}, seq {header.seq} ({args.reason.strip()})")  # fmt: skip
    return 0


@_user_errors
def cmd_normalise(args: argparse.Namespace) -> int:
    data = _read_bytes(args.file)
    if args.report:  # a report's text, or a whole report mail as saved: its text as a mail program shows it
        from ..mail.savedreport import read_saved

        saved = read_saved(data)
        if not saved.texts:
            raise UserError(f"{args.file}: a mail with no text part: give the mail's text saved as a file")
        _write_text(args.out, seal.normalise(saved.texts[0].text))
        return 0
    text = seal.normalise(seal.decode(data))
    if not args.report:
        try:
            seal.check_turn_text(text)
        except seal.BadHeader as e:
            if text.startswith(REPORT_FIRST_WORD):
                raise UserError("this is a report, not a turn file: check its seal with maester verify-report "
                                "--key moderator.pub FILE --sig report-NNNN-HOUSE.txt.sig, or normalise it "
                                "with --report") from None  # fmt: skip
            raise UserError(f"{e}{_header_hint(text)}") from None
    _write_text(args.out, text)
    return 0
