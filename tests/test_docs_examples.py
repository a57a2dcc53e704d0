"""The examples of the docs are real: positions, JSON and game-folder examples are real output, and
every command example of every doc (docs/*.md, README.md) is parsed or run."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from clikit import reports_of

from adjudicator import __version__
from adjudicator.folder import registry
from adjudicator.folder.gamedir import FOLDERS, create_game
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.state import GameState, Order, Unit
from adjudicator.reports.show import to_json
from adjudicator.seals import seal
from adjudicator.seals.keys import read_public_key

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"(?:<!-- (refused|step: [^>]*) -->\n)?```(\w+)\n(.*?)```", re.S)


def blocks(doc: str) -> list[tuple[bool, str, str]]:
    """Every fenced block of a doc but the sub-step positions: (marked refused, language, text)."""
    return [(m[1] == "refused", m[2], m[3]) for m in BLOCK.finditer((DOCS / doc).read_text(encoding="utf-8"))
            if not (m[1] or "").startswith("step:")]


def step_blocks(doc: str) -> list[tuple[str, str]]:
    """The positions marked ``<!-- step: PHASE [STEP] -->``: (the mark, the position)."""
    return [(m[1].removeprefix("step: "), m[3]) for m in BLOCK.finditer((DOCS / doc).read_text(encoding="utf-8"))
            if (m[1] or "").startswith("step:")]


def test_positions_md_every_plain_position_loads():
    tomls = [text for refused, lang, text in blocks("positions.md") if lang == "toml" and not refused]
    assert len(tomls) == 4  # the Mother of Dragons example too
    for text in tomls:
        load_position(text, filename="example.toml")


def test_positions_md_the_short_test_position_means_what_the_text_says():
    text = [t for r, lang, t in blocks("positions.md") if lang == "toml" and not r][1]
    s = load_position(text, filename="example.toml")
    assert s.phase == "action"
    assert s.area("karhold").units == [Unit("stark", "footman")]
    assert s.area("karhold").order == Order("stark", "march+1")
    assert s.area("kingswood").units == []
    assert s.area("winterfell").units == [Unit("stark", "footman"), Unit("stark", "knight")]
    assert s.area("winterfell").garrison == 2


def test_positions_md_the_areas_example_means_what_the_text_says():
    text = [t for r, lang, t in blocks("positions.md") if lang == "toml" and not r][2]
    s = load_position(text, filename="example.toml")
    assert s.area("white_harbor").units == [Unit("stark", "footman")] * 2
    assert s.area("white_harbor").order == Order("stark", "defense+1")
    assert s.area("white_harbor").power_token == "stark"
    assert s.area("bay_of_ice").units == [Unit("stark", "ship", routed=True)]
    assert (s.area("lannisport").garrison, s.area("the_eyrie").neutral_force) == (2, 6)
    assert s.area("dragonstone").garrison == 0  # start = "empty"


def test_positions_md_refused_examples_give_the_messages_shown():
    found = blocks("positions.md")
    pairs = [(found[i][2], found[i + 1][2]) for i in range(len(found) - 1) if found[i][0]]
    assert len(pairs) == 2
    for position, message in pairs:
        assert found[[b[2] for b in found].index(message)][1] == "text"
        with pytest.raises(PositionError) as e:
            load_position(position, filename="example.toml")
        assert str(e.value) == message.strip()


def test_state_json_md_example_is_the_real_output():
    found = [(lang, text) for _, lang, text in blocks("state-json.md")]
    assert [lang for lang, _ in found] == ["toml", "json", "toml", "toml"]  # the last two: boxes' tables of a state file
    position, shown = found[0][1], found[1][1]
    assert to_json(load_position(position, filename="example.toml")) == shown


def test_state_json_md_box_table_is_what_a_state_file_holds():
    example = tomllib.loads(blocks("state-json.md")[2][2])
    assert example["schema_version"] == 3 and example["variant"] == "mother-of-dragons"
    state = new_mod_game(["stark", "lannister", "greyjoy", "baratheon", "arryn", "targaryen"], seed="doc")
    state.braavos_token, state.leaving = "stark", ["baratheon"]
    real = state.to_dict()
    assert sorted(example["mother_of_dragons"]) == sorted(real["mother_of_dragons"]), "every key of the table"
    read = GameState.from_dict(real | {"mother_of_dragons": example["mother_of_dragons"]})  # checked, then read
    assert (read.vassals, read.commanders, read.loan_slots) == (["tyrell", "martell"], {"tyrell": "baratheon"},
                                                                ["", "spymaster", "pyromancer"])  # fmt: skip


def test_state_json_md_documents_every_top_level_key():
    doc = (DOCS / "state-json.md").read_text(encoding="utf-8")
    position = blocks("state-json.md")[0][2]
    view = json.loads(to_json(load_position(position)))
    for key in view:
        assert f"`{key}`" in doc or f"`{key}.<" in doc, key
    for key in view["houses"]["stark"]:
        assert f"`{key}`" in doc, key
    for key in view["areas"]["winterfell"]:
        assert f"`{key}`" in doc, key


def test_game_folder_md_game_toml_is_what_maester_new_writes(tmp_path):
    gd = create_game(tmp_path / "mygame", houses=["stark", "lannister", "greyjoy", "baratheon"],
                     seed="an example seed", now=datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    shown = [text for _, lang, text in blocks("game-folder.md") if lang == "toml"]
    assert len(shown) == 1
    expected = shown[0].replace('maester_version = "0.1.0"', f'maester_version = "{__version__}"')
    assert gd.game_file.read_text(encoding="utf-8") == expected


def test_game_folder_md_layout_is_what_maester_new_makes(tmp_path):
    gd = create_game(tmp_path / "mygame", houses=["stark", "lannister", "baratheon"], seed="x")
    layout = [text for _, lang, text in blocks("game-folder.md") if lang == "text"][0]
    listed = {line.split()[0].rstrip("/") for line in layout.splitlines()[1:]}
    made = {p.name for p in gd.root.iterdir()} | {"secret/seed", ".lock"}
    assert listed == made - {"secret"}
    assert set(FOLDERS) <= listed


# --- every command example of every doc ------------------------------------------------------------
# Shell blocks (```sh) pass `bash -n`; each `maester` command in them parses with maester's own
# argument parser (a usage synopsis, with [optional] parts, names only options the command has);
# each `make` target exists; every other program is one the docs are known to use. Inline
# `maester ...` and `make ...` spans of the prose name commands, options and targets that exist.
# The player's and the moderator's recipes that can run here without a mail server run below.

ROOT = DOCS.parent
ALL_DOCS = [*sorted(DOCS.glob("*.md")), ROOT / "README.md"]
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.M | re.S)
OTHER_PROGRAMS = {"ssh-keygen", "pipx", "python3", "pip", "awk", "cat", "echo", "mbsync", "set", "for", "do", "done"}


def fenced(path: Path) -> list[tuple[str, str, int]]:
    """Every fenced block of a doc: (language, text, line of its first line)."""
    text = path.read_text(encoding="utf-8")
    return [(m[1], m[2], text[: m.start()].count("\n") + 2) for m in FENCE.finditer(text)]


def shell_blocks() -> list[tuple[str, str]]:
    return [(f"{p.name}:{line}", text) for p in ALL_DOCS for lang, text, line in fenced(p) if lang == "sh"]


def commands(block: str) -> list[list[str]]:
    """The simple commands of a shell block: words split as the shell does, comments and
    redirections dropped, split at ; && || | & and line ends (continued lines joined)."""
    import shlex

    lexer = shlex.shlex(block.replace("\\\n", " "), posix=True, punctuation_chars=";&|<>\n")
    lexer.whitespace, lexer.commenters, lexer.whitespace_split = " \t", "", True
    out: list[list[str]] = []
    current: list[str] = []
    skip = None  # what drops the words that follow: a comment (to the line's end), a redirection (one word)
    for token in lexer:
        if token == "\n" or (skip != "comment" and token in (";", "&&", "||", "|", "&")):
            out, current, skip = out + ([current] if current else []), [], None
        elif skip == "comment":
            continue
        elif skip == "redirect":
            skip = None
        elif token.startswith("#"):
            skip = "comment"
        elif token in (">", "<", ">>"):
            skip = "redirect"
        else:
            current.append(token)
    return out + ([current] if current else [])


def _maester_parser():  # type: ignore[no-untyped-def]
    from adjudicator.cli import build_parser

    return build_parser()


def _options_of(command: str) -> set[str]:
    sub = next(a for a in _maester_parser()._subparsers._group_actions if a.choices).choices[command]
    return {opt for action in sub._actions for opt in action.option_strings}


def check_maester(words: list[str], where: str) -> None:
    args = words[1:]
    if any("[" in w for w in args):  # a usage synopsis: the command and the options it names
        wanted = {w.strip("[]").split("=")[0] for w in args if w.strip("[]").startswith("--")}
        assert wanted <= _options_of(args[0]), f"{where}: {' '.join(words)}: no {wanted - _options_of(args[0])}"
        return
    import contextlib
    import io

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            parsed = _maester_parser().parse_args(args)
    except SystemExit:
        pytest.fail(f"{where}: maester does not accept {' '.join(words)!r}: {err.getvalue().strip()}")
    assert getattr(parsed, "handler", None) is not None or "--help" in args, f"{where}: {' '.join(words)}"


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {m[1] for m in re.finditer(r"^([\w-]+):", text, re.M)}


@pytest.mark.parametrize(("where", "block"), shell_blocks(), ids=[w for w, _ in shell_blocks()])
def test_every_shell_example_is_sound_shell_and_every_command_in_it_exists(where: str, block: str) -> None:
    syntax = subprocess.run(["bash", "-n"], input=block, capture_output=True, text=True)
    assert syntax.returncode == 0, f"{where}: {syntax.stderr}"
    for words in commands(block):
        program = words[0].rsplit("/", 1)[-1]
        if program == "maester":
            check_maester(words, where)
        elif program == "make":
            targets = {w for w in words[1:] if "=" not in w}  # VAR=value sets a variable of the Makefile
            assert targets <= make_targets(), f"{where}: no make target {targets - make_targets()}"
        else:
            assert program in OTHER_PROGRAMS, f"{where}: {program!r} is not a program the docs are known to use"


def test_the_docs_have_shell_examples_and_none_outside_sh_blocks() -> None:
    """A command example in a block that is not ```sh would escape the test above."""
    assert len(shell_blocks()) >= 20
    for path in ALL_DOCS:
        for lang, text, line in fenced(path):
            if lang != "sh":
                starts = [ln for ln in text.splitlines() if ln.startswith(("maester ", "make ", "$ ", "ssh-keygen "))]
                assert not starts, f"{path.name}:{line}: a command example outside a ```sh block: {starts[0]}"


def inline_spans() -> list[tuple[str, str]]:
    spans = []
    for path in ALL_DOCS:
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        spans += [(path.name, m[1]) for m in re.finditer(r"`((?:maester|make) [^`]+)`", text)]
    return spans


@pytest.mark.parametrize(("doc", "span"), inline_spans())
def test_every_command_named_in_the_prose_exists_with_the_options_it_names(doc: str, span: str) -> None:
    words = span.split()
    if words[0] == "make":
        assert {w for w in words[1:] if "=" not in w} <= make_targets(), f"{doc}: `{span}`"
        return
    if words[1].startswith("--"):
        assert words[1] in ("--help", "--version"), f"{doc}: `{span}`"
        return
    named = {w.split("=")[0].strip("[]") for w in words[2:] if w.strip("[").startswith("--")}
    assert words[1] in _maester_parser()._subparsers._group_actions[0].choices, f"{doc}: `{span}`"
    assert named <= _options_of(words[1]), f"{doc}: `{span}` names {named - _options_of(words[1])}"


def test_every_python_example_compiles_and_its_imports_exist() -> None:
    import ast
    import importlib

    checked = 0
    for path in ALL_DOCS:
        for lang, text, line in fenced(path):
            if lang == "python":
                tree = ast.parse(text, filename=f"{path.name}:{line}")
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.module:
                        module = importlib.import_module(node.module)
                        for alias in node.names:
                            assert hasattr(module, alias.name), f"{path.name}:{line}: {node.module}.{alias.name}"
                checked += 1
    assert checked >= 4


def test_every_toml_and_json_example_reads() -> None:
    import tomllib

    read = 0
    for path in ALL_DOCS:
        for lang, text, line in fenced(path):
            where = f"{path.name}:{line}"
            if lang == "toml":
                assert isinstance(tomllib.loads(text), dict), where
            elif lang == "json":
                try:
                    json.loads(text)
                except json.JSONDecodeError:  # JSON lines, as the log is written
                    assert all(isinstance(json.loads(row), dict) for row in text.strip().splitlines()), where
            else:
                continue
            read += 1
    assert read >= 10


# --- the recipes a player runs, run as the docs write them ------------------------------------------

MAESTER = Path(sys.executable).parent / "maester"
needs_maester = pytest.mark.skipif(not MAESTER.is_file(), reason=f"no maester command beside {sys.executable}")
needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                      reason="OpenSSH's ssh-keygen is not installed (apt-get install openssh-client)")
TURN = ("game mygame · house stark · round 1 · planning · seq 1\nWhite Harbor: defense +1  \r\nWinterfell: defense +1\n"
        "The Shivering Sea: consolidate power\n\n")


def block(doc: str, containing: str) -> str:
    """The one ```sh block of ``doc`` that contains ``containing``."""
    (found,) = [text for lang, text, _ in fenced(ROOT / doc if doc == "README.md" else DOCS / doc)
                if lang == "sh" and containing in text]  # fmt: skip
    return found


def run_block(text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a doc's shell block with bash, at ``cwd``, with ``cwd/home`` as the home folder and the
    maester of this environment first on the PATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(HOME=str(cwd / "home"), PATH=f"{MAESTER.parent}{os.pathsep}{env.get('PATH', '')}")
    ran = subprocess.run(["bash", "-e", "-c", text], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert ran.returncode == 0, f"{text}\n{ran.stdout}\n{ran.stderr}"
    return ran


def _game_with_a_report(folder: Path) -> Path:
    """mygame, adjudicated once; its published state as a player's mail carries it (mygame-0007.json.gz)."""
    from adjudicator.folder.batch import adjudicate
    from adjudicator.util.packing import packed

    gd = create_game(folder / "mygame", houses=["stark", "lannister", "greyjoy", "baratheon"], seed="docs")
    adjudicate(gd.root)
    (published,) = reports_of(gd.root).glob("0000-*/report.json")
    (folder / "mygame-0007.json.gz").write_bytes(packed(published.read_bytes()))
    return gd.root


@needs_maester
def test_readme_a_players_turn_runs_as_written(tmp_path: Path) -> None:
    """README, 'For players': keygen, the offline check against the mailed state, sign."""
    game = _game_with_a_report(tmp_path)
    (tmp_path / "turn.txt").write_text(TURN, encoding="utf-8")
    ran = run_block(block("README.md", "maester sign"), tmp_path)
    assert "Result: complete" in ran.stdout and "-> turn.txt.sealed" in ran.stdout
    registry.register_key(game, "stark", read_public_key(tmp_path / "home" / ".ssh" / "maester.pub"))
    assert registry.check_file(game, (tmp_path / "turn.txt.sealed").read_bytes()).ok


@needs_maester
@needs_ssh_keygen
def test_seals_md_sealing_with_plain_openssh_runs_as_written(tmp_path: Path) -> None:
    """seals.md: maester normalise, ssh-keygen -Y sign, cat; and the awk recipe in place of
    maester normalise gives the same text. The moderator's maester verify accepts the result."""
    game = _game_with_a_report(tmp_path)
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", tmp_path / "home" / ".ssh" / "id_ed25519"],
                   check=True)  # fmt: skip
    registry.register_key(game, "stark", read_public_key(tmp_path / "home" / ".ssh" / "id_ed25519.pub"))
    (tmp_path / "turn.txt").write_text(TURN, encoding="utf-8")
    run_block(block("seals.md", "ssh-keygen -Y sign"), tmp_path)
    assert registry.check_file(game, (tmp_path / "turn.sealed").read_bytes()).ok
    by_maester = (tmp_path / "turn.norm").read_text(encoding="utf-8")
    (tmp_path / "turn.norm").unlink()
    run_block(block("seals.md", "awk '{"), tmp_path)
    assert (tmp_path / "turn.norm").read_text(encoding="utf-8") == by_maester == seal.normalise(TURN)
    (tmp_path / "GAME_DIR").symlink_to(game)
    shutil.copyfile(tmp_path / "turn.sealed", tmp_path / "mail.txt")
    ran = run_block(block("seals.md", "maester verify GAME_DIR mail.txt"), tmp_path)
    assert "valid: sealed by House Stark" in ran.stdout


# --- the doc fixes of issue 27 ---------------------------------------------------------------------


def test_issue_27_pipx_and_pip_install_the_wheel_by_its_path() -> None:
    """Debian's pipx takes a bare ``maester-....whl`` for the name of a package on an index and fails;
    ``./`` makes it a file (pip too reads a path that says it is one)."""
    installs = [w for _, block in shell_blocks() for words in commands(block)
                if words[0].rsplit("/", 1)[-1] in ("pipx", "pip") and "install" in words for w in words if w.endswith(".whl")]
    assert installs, "the README shows how to install the wheel"
    assert all(w.startswith(("./", "/", "~/", "dist/")) for w in installs), installs


def test_issue_27_no_doc_calls_the_finished_mother_of_dragons_being_built() -> None:
    for path in ALL_DOCS:
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            if "Mother of Dragons" in paragraph or "mother-of-dragons" in paragraph:
                assert "being built" not in paragraph, f"{path.name}: {paragraph[:200]}"


def test_issue_27_every_command_is_documented_for_the_moderator() -> None:
    """Each command of ``maester --help`` is named in the README or in docs/moderating.md, ``maester show`` too."""
    told = (ROOT / "README.md").read_text(encoding="utf-8") + (DOCS / "moderating.md").read_text(encoding="utf-8")
    commands_ = set(_maester_parser()._subparsers._group_actions[0].choices) - {"normalize"}  # the other spelling
    assert "show" in commands_
    assert {c for c in commands_ if not re.search(rf"maester {c}\b(?!-)", told)} == set()


def test_state_json_md_a_feast_for_crows_table_holds_the_keys_its_module_writes():
    import tomllib

    from a_feast_for_crows.helpers import setup

    shown = tomllib.loads([text for _, lang, text in blocks("state-json.md") if lang == "toml"][-1])
    assert shown["variant"] == "a-feast-for-crows"
    assert set(shown["a_feast_for_crows"]) == set(setup().to_dict()["a_feast_for_crows"])
