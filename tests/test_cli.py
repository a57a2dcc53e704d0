"""The ``maester`` parser: each command is found in the module that adds it."""

from __future__ import annotations

import argparse
import importlib

import pytest

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



def test_the_list_of_commands_is_printed_without_importing_them_as_the_modules_print_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """maester --help, no command, or a wrong one: the summary parser says what the whole parser says."""
    whole, summary = cli.build_parser(), cli.summary_parser()
    assert summary.format_help() == whole.format_help()
    assert set(cli.SUMMARIES) | {a for names in cli.ALIASES.values() for a in names} == set(cli.COMMANDS)
    said = []
    for parser in (whole, summary):
        with pytest.raises(SystemExit):
            parser.parse_args(["frob"])
        said.append(capsys.readouterr().err)
    assert "invalid choice: 'frob'" in said[0]
    assert said[1] == said[0]
