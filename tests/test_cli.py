"""The ``maester`` parser: each command is found in the module that adds it."""

from __future__ import annotations

import argparse
import importlib

from adjudicator import cli


def test_the_table_of_commands_names_the_module_that_adds_each_one() -> None:
    """main() imports only the module of the command given (a player's sign starts fast)."""
    added: dict[str, str] = {}
    for name in cli.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"adjudicator.cli.{name}").register(sub)
        added.update(dict.fromkeys(sub.choices, name))
    assert added == cli.COMMANDS


def test_one_command_alone_parses_as_in_the_whole_parser() -> None:
    argv = ["sign", "--key", "k", "turn.txt", "--out", "-"]
    assert vars(cli.build_parser("sign").parse_args(argv)) == vars(cli.build_parser().parse_args(argv))
