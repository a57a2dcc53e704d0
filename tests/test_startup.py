"""Each command imports what it needs and nothing else: the list of commands no command module at all.

How long the imports take is measured in benchmarks/bench_startup.py; these tests only say which
modules a command loads, in a fresh interpreter, so that a stray module-level import shows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.folder.batch import adjudicate
from adjudicator.folder.gamedir import create_game

ROOT = Path(__file__).resolve().parent.parent
COMMAND_MODULES = {f"adjudicator.cli.{m}" for m in ("game", "seals", "check", "batch", "mail", "simulate")}
MAIL = {"adjudicator.mail", "smtplib", "ssl", "email.parser", "mailbox", "concurrent.futures", "multiprocessing"}


def modules_loaded(*argv: str) -> set[str]:
    """The modules a fresh interpreter holds after ``maester ARGV`` ran."""
    script = ("import json, sys\nfrom adjudicator.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
              "    pass\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")  # fmt: skip
    run = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, cwd=ROOT)
    return set(json.loads(run.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], [], ["--version"], ["frob"]], ids=["help", "nothing", "version", "unknown"])
def test_the_list_of_commands_loads_no_command(argv: list[str]) -> None:
    loaded = modules_loaded(*argv)
    assert not loaded & (COMMAND_MODULES | {"lark", "jinja2", "cryptography", "adjudicator.game", "adjudicator.folder"})


def test_adjudicate_loads_neither_mail_nor_a_process_pool(tmp_path: Path) -> None:
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], game_id="g", seed="s")
    adjudicate(gd.root)
    loaded = modules_loaded("adjudicate", str(gd.root))
    assert "adjudicator.folder.batch" in loaded
    assert not loaded & (MAIL | {"adjudicator.cli.game", "adjudicator.robots"})


def test_sign_loads_no_parser_engine_or_templates(tmp_path: Path) -> None:
    (tmp_path / "turn.txt").write_text("game g · house stark · round 1 · planning · seq 1\n")
    loaded = modules_loaded("sign", "--key", str(tmp_path / "missing"), str(tmp_path / "turn.txt"))
    assert "adjudicator.cli.seals" in loaded
    assert not loaded & {"lark", "jinja2", "adjudicator.engine", "adjudicator.reports", "adjudicator.turnfile.parser"}


def test_a_players_check_against_a_published_state_loads_no_engine_templates_or_seals(tmp_path: Path) -> None:
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], game_id="g", seed="s")
    adjudicate(gd.root)
    (tmp_path / "turn.txt").write_text("game g · house stark · round 1 · planning · seq 1\nWinterfell: march +1\n")
    report = next((gd.root / "reports").glob("*/report.json"))
    loaded = modules_loaded("check", str(report), str(tmp_path / "turn.txt"))
    assert "adjudicator.folder.check" in loaded
    assert not loaded & ({"jinja2", "cryptography", "adjudicator.engine", "adjudicator.reports"} | MAIL)
