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
from clikit import reports_of

from adjudicator.folder import registry
from adjudicator.folder.batch import adjudicate
from adjudicator.folder.gamedir import create_game
from adjudicator.game.commands import from_dict
from adjudicator.seals import seal
from adjudicator.seals.keys import generate
from adjudicator.turnfile.printer import format_command

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
    assert not loaded & (MAIL | {"adjudicator.cli.game", "adjudicator.robots", "socket"})


# What a base-game step of the Planning Phase never reaches: the other phases' rules (combat, its events and its
# cards, Westeros and its cards and wildlings) and the Mother of Dragons' (the Iron Bank, its cards
# and the expansion's Westeros deck).
NOT_IN_A_PLANNING_STEP = {
    "adjudicator.engine.rules.action", "adjudicator.engine.rules.combat", "adjudicator.engine.rules.support",
    "adjudicator.engine.rules.strength", "adjudicator.engine.rules.housecards", "adjudicator.engine.cards.registry",
    "adjudicator.engine.cards.tides", "adjudicator.engine.rules.westeros", "adjudicator.engine.rules.wildlings",
    "adjudicator.engine.cards.wildlings", "adjudicator.engine.core.bidding", "adjudicator.engine.core.mustering",
    "adjudicator.engine.events.westeros", "adjudicator.engine.rules.iron_bank", "adjudicator.engine.core.bank",
    "adjudicator.engine.cards.loans", "adjudicator.engine.cards.westeros_iv", "adjudicator.engine.events.combat",
}  # fmt: skip


# Mother of Dragons' own events and the rules that emit them, loaded by its box's hook points or where a
# rule of its own is reached; a base game's run never needs them (issue 31: a command's start-up). And
# what only a moderator's templates (Jinja2) or a private key file (the library's OpenSSH loaders) need.
MOTHER_OF_DRAGONS_ONLY = {
    "adjudicator.engine.events.bank", "adjudicator.engine.events.vassals", "adjudicator.engine.events.targaryen",
    "adjudicator.engine.core.targaryen", "adjudicator.engine.core.braavos", "adjudicator.engine.rules.vassals",
    "adjudicator.engine.rules.leaving",
}  # fmt: skip
# (and the package's files read through its folder, not importlib.resources with its zip reader; difflib only
# for a message's "did you mean")
NOT_FOR_A_RUN = {"jinja2", "cryptography.hazmat.primitives.serialization", "cryptography.hazmat.primitives.ciphers",
                 "importlib.resources", "zipfile", "difflib"}  # fmt: skip


def _planning_step_run(tmp_path: Path) -> set[str]:
    """The modules ``maester adjudicate`` loads to take a base game's orders, sealed, at its first step."""
    houses = ["stark", "lannister", "baratheon"]
    gd = create_game(tmp_path / "g", houses=houses, game_id="g", seed="s")
    keys = {h: generate(h) for h in houses}
    for h, k in keys.items():
        registry.register_key(gd.root, h, k.public)
    adjudicate(gd.root)
    for request in gd.load_state().pending:  # each house's orders: the defaults, sealed
        lines = [format_command(from_dict(c)) for c in request["default_parts"]]
        text = "\n".join([f"game g · house {request['house']} · round 1 · planning · seq 1", *lines]) + "\n"
        (gd.root / "inbox" / f"{request['house']}.txt").write_text(seal.sign(text, keys[request["house"]].private))
    loaded = modules_loaded("adjudicate", str(gd.root))
    assert [r["kind"] for r in gd.load_state().pending] == ["raven"]  # the orders were taken: the Raven is asked
    assert {"adjudicator.engine.rules.planning", "adjudicator.seals.keys"} <= loaded
    return loaded


def test_a_base_game_planning_step_loads_neither_other_phases_rules_nor_the_iron_banks(tmp_path: Path) -> None:
    assert not _planning_step_run(tmp_path) & NOT_IN_A_PLANNING_STEP


def test_a_base_game_run_loads_no_mother_of_dragons_events_nor_templates_nor_key_file_loaders(tmp_path: Path) -> None:
    loaded = _planning_step_run(tmp_path)
    assert {"adjudicator.engine.core.common", "adjudicator.engine.rules.marches", "cryptography"} <= loaded
    assert not loaded & (MOTHER_OF_DRAGONS_ONLY | NOT_FOR_A_RUN)


def test_sign_loads_no_parser_engine_or_templates(tmp_path: Path) -> None:
    (tmp_path / "turn.txt").write_text("game g · house stark · round 1 · planning · seq 1\n")
    loaded = modules_loaded("sign", "--key", str(tmp_path / "missing"), str(tmp_path / "turn.txt"))
    assert "adjudicator.cli.seals" in loaded
    assert not loaded & {"lark", "jinja2", "adjudicator.engine", "adjudicator.reports", "adjudicator.turnfile.parser"}


def test_a_players_check_against_a_published_state_loads_no_engine_templates_or_seals(tmp_path: Path) -> None:
    gd = create_game(tmp_path / "g", houses=["stark", "lannister", "baratheon"], game_id="g", seed="s")
    adjudicate(gd.root)
    (tmp_path / "turn.txt").write_text("game g · house stark · round 1 · planning · seq 1\nWinterfell: march +1\n")
    report = next(reports_of(gd.root).glob("*/report.json"))
    loaded = modules_loaded("check", str(report), str(tmp_path / "turn.txt"))
    assert "adjudicator.folder.check" in loaded
    assert not loaded & ({"jinja2", "cryptography", "adjudicator.engine", "adjudicator.reports"} | MAIL)
    assert "adjudicator.game.objective_cards" not in loaded  # A Feast for Crows' cards: not this game's box


# In a fresh interpreter: the events package alone, then an event read back by name, then every
# module of the package, to see that the phase modules hold every event class there is.
_REGISTRY = """
import importlib, json, pkgutil, sys
import adjudicator
from adjudicator.engine import events
alone = sorted(m for m in sys.modules if m.startswith("adjudicator.engine.events."))
e = events.from_dict({"type": "ControlChanged", "area": "winterfell", "old": "", "new": "stark"})
by_name = sorted(events.all_event_types())
for m in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
def subclasses(cls):
    for c in cls.__subclasses__():
        yield c
        yield from subclasses(c)
every = sorted({c.__name__ for c in subclasses(events.Event) if c.__module__.startswith("adjudicator.")})
print(json.dumps({"alone": alone, "read": [type(e).__module__, e.describe()], "by_name": by_name, "every": every}))
"""


def test_events_are_read_back_by_name_with_their_module_loaded_then_and_every_class_is_found() -> None:
    run = subprocess.run([sys.executable, "-c", _REGISTRY], capture_output=True, text=True, cwd=ROOT, check=True)
    found = json.loads(run.stdout)
    assert found["alone"] == []  # importing the events loads no phase's events
    assert found["read"] == ["adjudicator.engine.events.common", "Winterfell passes from no one to Stark."]
    assert found["by_name"] == found["every"] and len(found["every"]) > 90
    with pytest.raises(KeyError):
        from adjudicator.engine.events import from_dict

        from_dict({"type": "NoSuchEvent"})


def _called_then_run_as_program(setup: str, keep: str, report: str) -> str:
    """In a fresh interpreter: ``setup``, a call ``main(['--help'])``, ``keep`` (a reading after the call),
    then ``main()`` run as the program; what ``report`` prints at the end."""
    script = (f"import gc, sys\nfrom adjudicator.cli import COLLECT_AFTER, main\n{setup}\n"
              "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
              f"{keep}\n"
              "sys.argv = ['maester', '--help']\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
              f"print({report}, file=sys.stderr)\n")  # fmt: skip
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    return run.stderr.strip().splitlines()[-1]


def test_only_the_program_itself_spares_the_collector_its_last_pass() -> None:
    """``main()`` as the program (no argv given) freezes what is left for the exit; a caller's ``main([...])`` does not."""
    report = "after_call, gc.get_freeze_count() > 0, gc.isenabled()"
    assert _called_then_run_as_program("", "after_call = gc.get_freeze_count()", report) == "0 True True"


def test_only_the_program_itself_has_the_collector_look_at_new_objects_less_often() -> None:
    report = "before == after_call, gc.get_threshold() == (COLLECT_AFTER, *before[1:])"
    assert _called_then_run_as_program("before = gc.get_threshold()", "after_call = gc.get_threshold()", report) == "True True"
