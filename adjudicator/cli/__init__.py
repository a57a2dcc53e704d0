"""The ``maester`` command line: thin wrappers, one library call per command.

Each module in :data:`COMMAND_MODULES` adds its subcommands with ``register(subparsers)``;
a handler returns the exit code. User errors print one line and exit 2; no traceback ever
reaches a user.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO, TypeVar

from .. import __version__

COMMAND_MODULES: tuple[str, ...] = ("game", "seals", "check", "batch", "mail", "simulate")
# Which module adds each command, so that one command imports only its own module: a player's
# keygen or sign starts in a fraction of the time the whole program takes to import.
# tests/test_cli_game.py checks it against what the modules register.
COMMANDS: dict[str, str] = {
    "new": "game", "show": "game",
    "keygen": "seals", "register": "seals", "sign": "seals", "verify": "seals", "normalise": "seals",
    "normalize": "seals",
    "check": "check",
    "adjudicate": "batch", "status": "batch", "rollback": "batch", "replay": "batch", "reveal": "batch",
    "extend": "batch", "leave": "batch", "reports": "batch",
    "ingest": "mail", "outbox": "mail", "verify-report": "mail", "deliver": "mail",
    "simulate": "simulate",
}  # fmt: skip
# What ``maester --help`` lists for each command, so that the list needs no command module at all
# (``maester --help`` in a few times the interpreter's own start-up). tests/test_cli.py checks that
# the list printed from it is the one the modules' own parsers print.
SUMMARIES: dict[str, str] = {
    "new": "create a game folder",
    "show": "show where a game stands",
    "keygen": "make an Ed25519 key pair for sealing turn files",
    "register": "register a house's public key in a game, or revoke one",
    "sign": "seal a turn file with your private key",
    "verify": "check who sealed each turn in a file and whether it is acceptable now",
    "normalise": "print a turn file's text exactly as a seal covers it",
    "check": "check a turn file against a game's current state (changes nothing)",
    "adjudicate": "take the sealed turn files, resolve as far as possible, write the reports",
    "status": "who owes what, since when and by when",
    "extend": "give a house more time for the step open now",
    "rollback": "undo steps: set later snapshots and reports aside",
    "leave": "a player leaves a Mother of Dragons game: its house becomes a vassal",
    "replay": "re-derive every state from the archive and check it byte for byte",
    "reports": "render a step's reports: print one page, or write them as files",
    "reveal": "publish the secret seed at the end of the game",
    "ingest": "take the sealed turn files of this game out of a Maildir or an mbox into its inbox",
    "outbox": "mail each player everything since their last mail (and the moderator, and a game list)",
    "verify-report": "check the moderator's seal on a report mail's text",
    "deliver": "take one message from a mail server's pipe: keep it, adjudicate, and mail what is due at once",
    "simulate": "play whole games with robot players and check every invariant",
}
ALIASES: dict[str, tuple[str, ...]] = {"normalise": ("normalize",)}


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2."""


T = TypeVar("T")
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[A-Za-z0-9_]+\.tmp$")  # fileio's atomic writes: .NAME.XXXXXXXX.tmp


def os_error_line(e: OSError, what: str = "the game folder") -> str:
    """One line for a file-system error: the file, what went wrong; a temporary file is named as its target.

    >>> os_error_line(PermissionError(13, "Permission denied", "/g/.game.toml.x1y2z3w4.tmp"))
    'cannot write /g/game.toml: Permission denied (check the permissions of /g)'
    """
    name = str(e.filename) if e.filename else ""
    if m := _TEMP_NAME.match(os.path.basename(name)):
        folder = os.path.dirname(name) or "."
        hint = f" (check the permissions of {folder})" if isinstance(e, PermissionError) else ""
        return f"cannot write {os.path.join(folder, m['name'])}: {e.strerror}{hint}"
    return f"{name or what}: {e.strerror or e}"


def guard(fn: Callable[[], T]) -> T:
    """Folder, registry and file-system errors become one-line user errors (exit status 2)."""
    from ..folder.gamedir import GameDirError
    from ..folder.registry import RegistryError

    try:
        return fn()
    except (GameDirError, RegistryError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(os_error_line(e)) from None


def _top_parser() -> tuple[argparse.ArgumentParser, Any]:
    parser = argparse.ArgumentParser(
        prog="maester",
        description="Play-by-email adjudicator for A Game of Thrones: The Board Game, Second Edition.",
    )
    parser.add_argument("--version", action="version", version=f"maester {__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``maester`` parser: every command's, or only ``command``'s when it is a known one."""
    from ..util import classcode

    classcode.install()  # before a command module creates its record classes: their methods' code from the cache
    parser, sub = _top_parser()
    for name in (COMMANDS[command],) if command in COMMANDS else COMMAND_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(sub)
    return parser


def summary_parser() -> argparse.ArgumentParser:
    """The parser for no command, ``--help``, ``--version`` or an unknown command: the list of commands only.

    It prints what :func:`build_parser` prints for these, without importing a command module.
    """
    parser, sub = _top_parser()
    for name, summary in SUMMARIES.items():
        sub.add_parser(name, help=summary, aliases=list(ALIASES.get(name, ())))
    return parser


def _print_anything() -> None:
    """Print a file name that is not UTF-8 with escapes, rather than stop the command half done."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


class _QuietPipe:
    """Standard output, except that once its reader is gone (``maester replay G | head -1``) the rest vanishes.

    The command still ends as it would have, with its own exit status; the file descriptor is
    pointed at ``/dev/null`` so that the interpreter's last flush does not complain either.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream, self.gone = stream, False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._lost()

    def _lost(self) -> None:
        self.gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # a stream with no file descriptor (a test's capture)
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


# The collector's youngest generation, examined after this many new objects rather than 700 when
# run as the program: nearly all a command makes (modules, record classes, the game's data) lives
# to its end, and at 700 the collector walked it over and over while the modules loaded (~3% of
# `maester adjudicate`'s instructions). The garbage left waiting is bounded by the count.
COLLECT_AFTER = 10_000


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])
    _print_anything()
    stdout = sys.stdout
    quiet = _QuietPipe(stdout)
    sys.stdout = quiet
    try:
        return _run(argv)
    finally:
        if classcode := sys.modules.get("adjudicator.util.classcode"):  # a command ran: keep what it compiled
            classcode.save()
        quiet.flush()
        sys.stdout = stdout
        if argv is None:
            # Run as the program, which ends now: the interpreter's exit would make the garbage collector
            # walk every object once more (~4% of a short command); what is left is freed with the process.
            gc.freeze()


def mail_tempfail() -> int:
    """``maester deliver`` with options it cannot read: nothing was kept, so the mail server should
    keep the message and try again (EX_TEMPFAIL) while the moderator mends the command line."""
    print("maester: deliver: nothing was kept; the mail server keeps the message and tries again", file=sys.stderr)
    return 75


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0]) if argv and argv[0] in COMMANDS else summary_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        if argv[:1] == ["deliver"] and e.code:  # a mail server's pipe: keep its message queued, never bounce it
            return mail_tempfail()
        raise
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        _settle(args)
        return handler(args)
    except UserError as e:
        print(f"maester: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("maester: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug of ours: say so in one line, never a traceback
        print(f"maester: internal error: {type(e).__name__}: {e} (please report this)", file=sys.stderr)
        return 3


def _settle(args: argparse.Namespace) -> None:
    """Before any command on a game folder: finish or undo what a killed command left half done there
    (:func:`adjudicator.folder.settle.tidy`; the commands that change the folder settle it under their lock too)."""
    root = getattr(args, "game_dir", None)
    if root is None or args.command in ("new", "deliver") or getattr(args, "all", False) or not os.path.isdir(root):
        return  # (maester check takes a published state file too: nothing to settle there; deliver keeps its
        # message first, and each of its steps settles the folder under the lock)
    from ..folder.settle import tidy

    for line in tidy(root):
        print(f"maester: {line}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
