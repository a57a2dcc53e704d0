"""``maester check GAME_DIR FILE [--house H]``: a turn file against the game, changing nothing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..folder import check
from . import UserError


def register(subparsers: Any) -> None:
    """Add ``check`` to the ``maester`` parser."""
    p = subparsers.add_parser(
        "check", help="check a turn file against a game's current state (changes nothing)",
        description="Parse FILE, check every line against the game in GAME_DIR and print a receipt: each "
        "accepted line in canonical form, every problem with its line and column, what is still missing. "
        "Exit status 0 when the file is complete and legal, 1 when it has problems, 2 for a usage error.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("file", metavar="FILE", help="the turn file, sealed or not ('-' for standard input)")
    p.add_argument("--house", help="the house the file is for (default: the one its header names)")
    p.set_defaults(handler=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    try:
        result = check.check_file(args.game_dir, args.file, house=args.house)
    except check.CheckError as e:
        raise UserError(_whole_file_problem(args.file) or str(e)) from None
    print(result.receipt(), end="")
    return 0 if result.ok else 1


def _whole_file_problem(name: str) -> str:
    """What is wrong with a file as a whole (too large, not text), which also hides its header; or ""."""
    from ..turnfile.parser import parse_turn_file

    if name == "-":
        return ""  # standard input is read once
    try:
        parsed = parse_turn_file(Path(name).read_bytes(), filename=Path(name).name)
    except OSError:
        return ""
    whole = [p for p in parsed.problems if p.code in ("E001", "E003")]
    return f"{name}: {whole[0].message} (send the turn itself, as plain UTF-8 text)" if whole else ""
