"""Bad input never hurts: every command against damaged files, folders, keys and mail.

Each case runs a ``maester`` command the way a user would (``cli.main``) against a copy of a real
game folder with one thing broken, and checks three promises: the exit status (2 for usage and
folder errors, 1 for rejected content), one clear line on standard error (never an internal error
or a traceback), and a folder left byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cli import main
from adjudicator.folder import registry
from adjudicator.folder.gamedir import create_game
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 41] * 32)) for i, h in enumerate(HOUSES)}
STARK_ORDERS = "White Harbor: defense +1\nWinterfell: defense +1\nThe Shivering Sea: consolidate\n"


def sealed(house: str, body: str, *, seq: int = 1, rnd: int = 1, step: str = "planning") -> str:
    """A turn of game ``hostile`` sealed with the house's key."""
    return seal.sign(f"game hostile · house {house} · round {rnd} · {step} · seq {seq}\n{body}", KEYS[house])


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root`` with the SHA-256 of its bytes ("dir" for a folder); the lock file left out."""
    if not root.exists():
        return {}
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.name == ".lock":
            continue
        out[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def one_clear_line(err: str) -> str:
    """The single ``maester: error:`` line of a refusal; fails on an internal error or a traceback."""
    assert "internal error" not in err and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("maester: error: "), err
    return lines[0]


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``fresh``: a new game never adjudicated; ``played``: keys registered, one turn applied (step 0001)."""
    base = tmp_path_factory.mktemp("templates")
    fresh = create_game(base / "fresh" / "hostile", houses=HOUSES, seed="hostile-seed").root
    played = create_game(base / "played" / "hostile", houses=HOUSES, seed="hostile-seed").root
    for h, k in KEYS.items():
        registry.register_key(played, h, PublicKey.from_key(k, h))
    assert main(["adjudicate", str(played)]) == 0
    (played / "inbox" / "stark.txt").write_text(sealed("stark", STARK_ORDERS))
    assert main(["adjudicate", str(played)]) == 0
    return {"fresh": fresh, "played": played}


@pytest.fixture
def game(templates: dict[str, Path], tmp_path: Path) -> Callable[[str], Path]:
    """A copy of a template game folder, to damage."""

    def copy(which: str = "played") -> Path:
        dest = tmp_path / which / "hostile"
        shutil.copytree(templates[which], dest)
        return dest

    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- state.toml: damaged or edited by hand ----------------------------------------------------

STATE_DAMAGE = [
    ("empty", None, "", "round: missing"),
    ("not TOML", None, "round = [\n", "not valid TOML"),
    ("binary", None, b"\x00\xff\xfe garbage", "not UTF-8"),
    ("round as text", "round = 1", 'round = "one"', "round: expected a whole number, got 'one'"),
    ("negative round", "round = 1", "round = -4", "round: expected a whole number from 1 to 10, got -4"),
    ("unknown phase", 'phase = "planning"', 'phase = "lunch"', "phase: 'lunch' is not a phase"),
    ("unknown house", '"stark"', '"starkk"', "houses_in_play: 'starkk' is not a house"),
    ("newer schema", "schema_version = 1", "schema_version = 4", "schema_version 4 is newer than this Maester"),
    ("negative power", "power = 5", "power = -3", "houses.stark.power: expected a whole number from 0 to 20, got -3"),
    ("power as text", "power = 5", 'power = "five"', "houses.stark.power: expected a whole number, got 'five'"),
    ("tracks not a table", "[tracks]", "tracks = 5\n[nothing]", "tracks: expected a table, got 5"),
    ("unknown area", "[areas.winterfell", "[areas.winterfel", "areas.winterfel: not an area of the board"),
    ("unknown unit", 'type = "footman"', 'type = "dragon"', "type: 'dragon' is not a unit type"),
    ("unit of a house not in play", 'house = "stark"', 'house = "martell"', "house: 'martell' is not a house in play"),
    ("unknown card", '"eddard_stark"', '"ned"', "houses.stark.hand: 'ned' is not a house card of stark"),
    ("junk request", "pending = [", "pending = [5, ", "pending.1: expected a table, got 5"),
    ("request without a prompt", "pending = []", 'pending = [{ key = "k", kind = "orders", house = "stark" }]',
     "pending.1.prompt: expected text, got None"),
    ("unknown answer", "answers = []", 'answers = [{ id = "a", house = "stark", round = 1, command = { type = "Nope" } }]',
     "answers.1.command: not an answer Maester knows"),
    ("phase resolved from nothing", "answers = []", 'answers = []\nsegment = { name = "planning", start = {} }',
     "segment.start.round: missing"),
]


@pytest.mark.parametrize("command", ["show", "status", "adjudicate"])
@pytest.mark.parametrize("name,old,new,message", STATE_DAMAGE, ids=[d[0] for d in STATE_DAMAGE])
def test_a_hand_edited_state_toml_is_refused_naming_the_key(game, capsys, command, name, old, new, message):
    """Each of these once reached the user as 'internal error' (a KeyError, AttributeError or
    TypeError deep in show, status or the engine, after the first run had written its setup), or
    was read as if nothing were wrong."""
    root = game("fresh")
    path = root / "state.toml"
    if old is None:
        path.write_bytes(new) if isinstance(new, bytes) else path.write_text(new)
    else:
        edit(path, old, new)
    before = tree(root)
    code, out, err = run(capsys, command, root)
    assert code == 2 and out == ""
    assert message in one_clear_line(err) and "state.toml" in err
    assert tree(root) == before


# --- game.toml: damaged or edited by hand -----------------------------------------------------

GAME_DAMAGE = {
    "binary": lambda text: b"\x00\xff\xfe garbage",
    "game not a table": lambda text: 'game = "x"\n',
    "unknown house": lambda text: text.replace('"stark"', '"starkk"', 1),
    "players not a table": lambda text: 'players = "x"\n' + text,
}
GAME_COMMANDS = {
    "verify": ("verify", "{root}", "{turn}"),
    "register": ("register", "{root}", "--house", "baratheon", "--key", "{pub}", "--email", "b@example.org"),
    "replay": ("replay", "{root}"),
    "outbox": ("outbox", "{root}"),
    "ingest": ("ingest", "{root}", "--maildir", "{maildir}"),
}
# (damage, command, what the one line says): every command that reads the damaged part
GAME_CASES = [
    *((d, c, m) for d, m in (("binary", "not UTF-8"), ("game not a table", "'game' must be the [game] table"))
      for c in sorted(GAME_COMMANDS)),
    *(("unknown house", c, "[game] houses names 'starkk', not a house") for c in ("verify", "register")),
    *(("players not a table", c, "'players' must be a table") for c in ("outbox", "ingest", "register")),
]


def _args(template: tuple[str, ...], root: Path, tmp_path: Path) -> list[str]:
    turn = tmp_path / "turn.txt"
    turn.write_text(sealed("stark", STARK_ORDERS, seq=2))
    pub = tmp_path / "new.pub"
    pub.write_text(PublicKey.from_key(Ed25519PrivateKey.from_private_bytes(bytes([7] * 32)), "x").line() + "\n")
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "Maildir" / sub).mkdir(parents=True, exist_ok=True)
    names = {"root": root, "turn": turn, "pub": pub, "maildir": tmp_path / "Maildir"}
    return [a.format(**names) for a in template]


@pytest.mark.parametrize("damage,command,message", GAME_CASES, ids=[f"{d}-{c}" for d, c, _ in GAME_CASES])
def test_a_hand_edited_game_toml_is_refused_with_one_line(game, capsys, tmp_path, damage, command, message):
    """A binary game.toml, a 'game' or 'players' key that is not a table, reached the user as an
    internal error (UnicodeDecodeError, AttributeError) from verify, register, replay, outbox and
    ingest; a house name the game does not know was taken as it was, and every turn of that house
    was then refused as 'not playing'."""
    root = game()
    path = root / "game.toml"
    damaged = GAME_DAMAGE[damage](path.read_text())
    path.write_bytes(damaged) if isinstance(damaged, bytes) else path.write_text(damaged)
    before = tree(root)
    code, _, err = run(capsys, *_args(GAME_COMMANDS[command], root, tmp_path))
    assert code == 2
    assert message in one_clear_line(err) and "game.toml" in err
    assert tree(root) == before


def test_a_game_toml_that_is_a_folder_is_named_as_such(game, capsys):
    """Said 'it has no game.toml' when it has one, a folder."""
    root = game()
    (root / "game.toml").unlink()
    (root / "game.toml").mkdir()
    before = tree(root)
    code, _, err = run(capsys, "status", root)
    assert code == 2 and "its game.toml is not a file" in one_clear_line(err)
    assert tree(root) == before


# --- the folder: its parts of the wrong kind, names that are not UTF-8 --------------------------


@pytest.mark.parametrize("part", ["inbox", "archive", "reports", "states"])
@pytest.mark.parametrize("command", ["adjudicate", "status", "rollback", "replay"])
def test_a_working_folder_that_is_a_file_is_named(game, capsys, part, command):
    """'states' as a file read as 'no step resolved yet' (status) or 'there is no snapshot 0000'
    (rollback); 'reports' as a file let rollback move the snapshots; 'inbox' as a file was
    'cannot read and write ...: check its permissions'."""
    root = game()
    shutil.rmtree(root / part)
    (root / part).write_text("not a folder\n")
    before = tree(root)
    extra = ["--to", "0", "--reason", "undo"] if command == "rollback" else []
    code, out, err = run(capsys, command, root, *extra)
    assert code == 2 and out == ""
    assert f"{part} is not a folder" in one_clear_line(err)
    assert tree(root) == before


def test_an_inbox_file_whose_name_is_not_utf8_is_refused_with_a_receipt(game, capsys):
    """A file named with bytes that are not UTF-8 (b'caf\\xe9') stopped the run with an internal
    error (UnicodeEncodeError) while writing its receipt; the name is now shown with U+FFFD."""
    root = game()
    name = bytes(root / "inbox") + b"/caf\xe9.txt"
    with open(name, "wb") as f:
        f.write(sealed("stark", STARK_ORDERS, seq=2).replace("defense +1", "defense +2", 1).encode())
    code, out, err = run(capsys, "adjudicate", root)
    assert code == 1 and err == "", err
    assert "rejected " in out and "caf\ufffd.txt" in out and "[bad-signature]" in out
    receipts = list((root / "refused").glob("*-caf_-*-moderator.txt"))
    assert len(receipts) == 1 and "Receipt for caf\ufffd.txt" in receipts[0].read_text()
    code, out, _ = run(capsys, "adjudicate", root)
    assert code == 0 and "nothing new" in out, "refused once, not read again (ruling 96)"


def test_a_turn_file_name_that_is_not_utf8_is_printed_with_escapes(game, capsys, tmp_path):
    """verify printed the file's name and stopped with an internal error (UnicodeEncodeError)."""
    root = game()
    path = bytes(tmp_path) + b"/turn\xff.txt"
    with open(path, "wb") as f:
        f.write(sealed("stark", STARK_ORDERS, seq=2).encode())
    code, out, err = run(capsys, "verify", root, path.decode("utf-8", "surrogateescape"))
    assert code == 0 and err == ""
    assert "turn\\udcff.txt: block 1" in out and "valid: sealed by House Stark" in out


# --- where a command writes: --out ---------------------------------------------------------------


def test_sign_out_to_a_symbolic_link_writes_its_target_and_keeps_the_link(capsys, tmp_path):
    """The atomic write replaced the link itself with a file (with --out /dev/null, run as root,
    it replaced the device node)."""
    key = tmp_path / "stark"
    assert main(["keygen", "--out", str(key)]) == 0
    turn = tmp_path / "turn.txt"
    turn.write_text("game hostile · house stark · round 1 · planning · seq 1\nWinterfell: defense +1\n")
    target = tmp_path / "sealed" / "turn.sealed"
    target.parent.mkdir()
    link = tmp_path / "link.sealed"
    link.symlink_to(target)
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--key", key, turn, "--out", link)
    assert code == 0, err
    assert link.is_symlink() and "-----BEGIN SSH SIGNATURE-----" in target.read_text()


def test_normalise_out_to_a_pipe_writes_into_the_pipe(capsys, tmp_path):
    """A named pipe (or /dev/null) given as --out was replaced by a regular file."""
    import threading

    turn = tmp_path / "turn.txt"
    turn.write_text("game hostile · house stark · round 1 · planning · seq 1   \r\nWinterfell: defense +1\r\n")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    code, _, err = run(capsys, "normalise", turn, "--out", pipe)
    reader.join(timeout=10)
    assert code == 0, err
    assert got == [b"game hostile \xc2\xb7 house stark \xc2\xb7 round 1 \xc2\xb7 planning \xc2\xb7 seq 1\nWinterfell: defense +1\n"]
    assert pipe.is_fifo()


# --- arguments: garbled, or naming the wrong kind of thing ----------------------------------------


@pytest.mark.parametrize("content,message", [
    ("{% if %}\n", "report.txt.j2:1: Expected an expression"),
    ("{{ nosuchvar.x }}\n", "'nosuchvar' is undefined"),
    (b"\xff\xfe", "a template is not UTF-8 text"),
], ids=["syntax", "undefined", "binary"])
def test_adjudicate_templates_that_fail_are_refused_before_the_run(game, capsys, tmp_path, content, message):
    """A moderator's broken report template stopped the run with an internal error after the step
    was saved (state.toml and the snapshot written, no reports)."""
    root = game()
    folder = tmp_path / "templates"
    folder.mkdir()
    target = folder / "report.txt.j2"
    target.write_bytes(content) if isinstance(content, bytes) else target.write_text(content)
    before = tree(root)
    code, out, err = run(capsys, "adjudicate", root, "--deadline", "--templates", folder)
    assert code == 2 and out == ""
    assert f"--templates {folder}: " in one_clear_line(err) and message in err
    assert tree(root) == before


@pytest.mark.parametrize("make,message", [
    (lambda p: None, "no such folder"),
    (lambda p: p.write_text("a file\n"), "not a folder"),
], ids=["missing", "a file"])
def test_adjudicate_templates_that_are_no_folder_are_refused(game, capsys, tmp_path, make, message):
    """A --templates folder that does not exist was silently ignored: the built-in templates were
    used while the moderator believed his own were."""
    root = game()
    folder = tmp_path / "mine"
    make(folder)
    before = tree(root)
    code, _, err = run(capsys, "adjudicate", root, "--deadline", "--templates", folder)
    assert code == 2 and message in one_clear_line(err)
    assert tree(root) == before


@pytest.mark.parametrize("args,message", [
    (("adjudicate", "{root}", "--jobs", "0"), "--jobs must be 1 or more, not 0"),
    (("adjudicate", "{root}", "{tmp}"), ": not a file"),
    (("rollback", "{root}", "--to", "-1", "--reason", "undo"), "--to takes a snapshot number (0 or more), not -1"),
    (("simulate", "--soak", "-2"), "--soak takes a number of games (1 or more), not -2"),
    (("new", "{file}/game", "--houses", "stark,lannister,baratheon"), "is a file, not a folder"),
], ids=["jobs 0", "a folder as FILE", "rollback to -1", "negative soak", "new under a file"])
def test_garbled_arguments_get_one_line(game, capsys, tmp_path, args, message):
    """--jobs 0 and --soak -2 were taken (the soak printed '-2 games played'); a folder given as a
    turn file was 'no such file'; rollback --to -1 spoke of 'snapshot -001'; a new game under a
    file was an internal error (FileExistsError)."""
    root = game()
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    before = tree(root)
    code, out, err = run(capsys, *(a.format(root=root, tmp=tmp_path, file=afile) for a in args))
    assert code == 2 and out == ""
    assert message in one_clear_line(err)
    assert tree(root) == before and afile.read_text() == "x\n"


@pytest.mark.parametrize("option", ["--passphrase-file", "--password-file", "--cafile"])
def test_outbox_secret_files_that_cannot_be_used_are_named(game, capsys, tmp_path, option):
    """A passphrase or password file that is not UTF-8 was an internal error (UnicodeDecodeError);
    a --cafile that does not exist or holds no certificate was blamed on 'the game folder'."""
    root = game()
    key = tmp_path / "moderator"
    (tmp_path / "passphrase").write_text("open sesame\n")
    assert main(["keygen", "--out", str(key), "--passphrase-file", str(tmp_path / "passphrase"), "--rounds", "1"]) == 0
    junk = tmp_path / "junk"
    junk.write_bytes(b"\xff\xfe\x00junk")
    extra = {
        "--passphrase-file": ["--key", key, "--passphrase-file", junk],
        "--password-file": ["--send", "smtps://127.0.0.1:1", "--user", "u", "--password-file", junk],
        "--cafile": ["--send", "smtps://127.0.0.1:1", "--cafile", junk],
    }[option]
    capsys.readouterr()
    before = tree(root)
    code, out, err = run(capsys, "outbox", root, "--from", "moderator@example.org", *extra)
    assert code == 2 and out == ""
    line = one_clear_line(err)
    assert "the game folder" not in line and ("junk" in line or str(key) in line)
    assert tree(root) == before


# --- the log, the snapshots, the seed: lost, cut, edited ------------------------------------------

LOG_DAMAGE = {
    "missing": lambda log: log.unlink(),
    "empty": lambda log: log.write_bytes(b""),
    "binary": lambda log: log.write_bytes(b"\x00\xff\xfe\n\xff\n"),
    "cut to its last line": lambda log: log.write_text(log.read_text().splitlines()[-1] + "\n"),
}


@pytest.mark.parametrize("damage", sorted(LOG_DAMAGE))
@pytest.mark.parametrize("command", ["adjudicate", "rollback"])
def test_ruling_170_a_lost_log_stops_every_run_that_writes(game, capsys, damage, command):
    """With its log lost the run took the inbox's turn again as archive/000001, over the turn
    archived before, and rollback went ahead; a binary log was an internal error."""
    root = game()
    (root / "inbox" / "stark.txt").write_text(sealed("stark", STARK_ORDERS))  # still in the inbox, as after a run
    LOG_DAMAGE[damage](root / "log")
    before = tree(root)
    extra = ["--to", "0", "--reason", "undo"] if command == "rollback" else []
    code, out, err = run(capsys, command, root, *extra)
    assert code == 2 and out == ""
    assert "the log was lost or cut short; restore it from a backup" in one_clear_line(err)
    assert tree(root) == before


@pytest.mark.parametrize("damage", sorted(LOG_DAMAGE))
def test_ruling_170_replay_fails_on_a_lost_log(game, capsys, damage):
    """Replay said 'every snapshot follows from the archive, byte for byte' with no log at all."""
    root = game()
    LOG_DAMAGE[damage](root / "log")
    before = tree(root)
    code, _, err = run(capsys, "replay", root)
    assert code == 1 and "internal error" not in err
    assert "does not record" in err and "the log was lost or cut short" in err
    assert tree(root) == before


def test_ruling_170_a_rollback_line_into_another_folder_is_skipped(game, capsys):
    """A log line '{"action": "rollback", "folder": "../../x"}' made repair and rollback move
    states/0001.toml out of the game folder (and fail with a KeyError without 'folder')."""
    root = game()
    with open(root / "log", "a") as f:
        f.write('{"action": "rollback", "to": 0, "folder": "../../outside"}\n{"action": "rollback", "to": 0}\n')
    code, _out, err = run(capsys, "replay", root, "--repair")
    assert code == 0 and "internal error" not in err, err
    assert (root / "states" / "0001.toml").is_file() and not (root.parent.parent / "outside").exists()


def test_ruling_170_a_snapshot_line_without_its_files_is_skipped(game, capsys):
    """A snapshot line whose 'applied' is not a list stopped replay with an internal error (TypeError)."""
    root = game()
    with open(root / "log", "a") as f:
        f.write('{"action": "snapshot", "number": 1, "applied": 5}\n')
    code, _out, err = run(capsys, "replay", root)
    assert code == 0 and "internal error" not in err, err


def test_ruling_170_a_snapshot_edited_by_hand_is_refused(game, capsys):
    """A snapshot edited with state.toml edited to match was taken, and logged anew as if a run
    had been killed before its log line (ruling 98 refuses the state.toml alone)."""
    root = game()
    for name in ("states/0001.toml", "state.toml"):
        edit(root / name, "power = 5", "power = 9")
    before = tree(root)
    code, _, err = run(capsys, "adjudicate", root)
    assert code == 2 and "states/0001.toml is not the snapshot the log records" in one_clear_line(err)
    assert tree(root) == before


def test_a_refused_run_does_not_log_a_stray_snapshot(game, capsys):
    """A run refused for a snapshot with no log line (states/0005.toml copied in) had logged it first."""
    root = game()
    shutil.copy(root / "states" / "0001.toml", root / "states" / "0005.toml")
    before = tree(root)
    code, _, err = run(capsys, "adjudicate", root)
    assert code == 2 and "states/0004.toml" in one_clear_line(err)
    assert tree(root) == before


def test_replay_names_a_missing_snapshot_the_log_records(game, capsys):
    """With states/0001.toml gone, replay blamed state.toml ('not the latest snapshot 0000')."""
    root = game()
    (root / "states" / "0001.toml").unlink()
    code, _, err = run(capsys, "replay", root)
    assert code == 1 and "states/0001.toml is missing, and the log records it" in err
    code, out, err = run(capsys, "replay", root, "--repair")
    assert code == 0 and "rebuilt states/0001.toml" in out


def test_reveal_with_a_binary_seed_file_is_refused(game, capsys):
    """A secret/seed that is not UTF-8 was an internal error (UnicodeDecodeError)."""
    root = game()
    (root / "secret" / "seed").write_bytes(b"\xff\xfe")
    before = tree(root)
    code, _, err = run(capsys, "reveal", root, "--force")
    assert code == 2 and "secret/seed is not UTF-8 text" in one_clear_line(err)
    assert tree(root) == before


def test_a_folder_busy_with_another_run_is_refused_at_once(game, capsys):
    """Two runs at once: the second is refused in one line while the first holds the lock."""
    from adjudicator.folder.gamedir import GameDir

    root = game()
    before = tree(root)
    with GameDir.open(root).lock():
        code, _, err = run(capsys, "adjudicate", root)
    assert code == 2 and "is busy: another maester run holds its lock" in one_clear_line(err)
    assert tree(root) == before


# --- random bytes where the game's files should be -------------------------------------------------


def _mutations(original: bytes) -> st.SearchStrategy[bytes]:
    """Random bytes, and the real file cut, with a slice deleted or a line replaced by random text."""
    lines = original.splitlines(keepends=True)
    cut = st.integers(0, len(original)).map(lambda n: original[:n])
    holed = st.tuples(st.integers(0, len(original)), st.integers(1, 200)).map(
        lambda t: original[: t[0]] + original[t[0] + t[1] :])
    swapped = st.tuples(st.integers(0, max(0, len(lines) - 1)), st.text(max_size=40)).map(
        lambda t: b"".join(lines[: t[0]]) + t[1].encode("utf-8", "surrogatepass") + b"\n" + b"".join(lines[t[0] + 1 :]))
    return st.one_of(st.binary(max_size=600), cut, holed, swapped)


@pytest.mark.parametrize("name", ["game.toml", "state.toml", "log"])
def test_random_bytes_as_a_game_file_never_raise_and_change_nothing(templates, tmp_path, name):
    """Random and mangled bytes as game.toml, state.toml or the log: show, status and adjudicate
    answer with a result or one clear line, never an internal error, and leave the folder as it was
    (a refused run once mended the log's last line first)."""
    original = (templates["played"] / name).read_bytes()
    examples = iter(range(10**6))

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=_mutations(original))
    def attempt(data: bytes) -> None:
        # each example on a game folder of its own: a run that succeeds writes, and the process
        # remembers each folder's log by its path
        root = shutil.copytree(templates["played"], tmp_path / f"{next(examples)}" / "hostile")
        (root / name).write_bytes(data)
        before = tree(root)
        for command in ("show", "status", "adjudicate"):
            code = main([command, str(root)])
            assert code in (0, 1, 2), f"{command} exited {code} on {data[:80]!r}"
            # A log that still reads as sound lets the run go on: cut after the latest snapshot's line,
            # it is an interrupted run, finished now; with an acceptance's hash mangled, the inbox's
            # copy of that turn is judged again and refused as a replay (exit 1, with a receipt).
            ran = command == "adjudicate" and code in (0, 1) and name == "log"
            assert tree(root) == before or ran, f"{command} exited {code} and changed the folder"

    with pytest.MonkeyPatch.context() as mp:
        errors: list[str] = []
        mp.setattr("sys.stderr", _Collect(errors))
        mp.setattr("sys.stdout", _Collect([]))
        attempt()
    assert not [e for e in errors if "internal error" in e or "Traceback" in e]


class _Collect:
    """A stand-in stream that keeps what is written to it."""

    def __init__(self, into: list[str]) -> None:
        self.into = into

    def write(self, text: str) -> int:
        self.into.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("engine,message", [
    ("[engine]\npending = [1]\n", "engine.pending: entry 1: expected a table, got 1"),
    ("[engine]\nanswers = ['x']\n", "engine.answers: entry 1: expected a table, got 'x'"),
    ("[engine.segment]\nname = 5\nstart = {}\n", "pos.toml:3: engine.segment.name: expected text, got 5"),
], ids=["pending", "answers", "segment name"])
def test_a_position_with_engine_parts_of_the_wrong_shape_is_refused(capsys, tmp_path, engine, message):
    """'maester new --position' with '[engine] pending = [1]' was an internal error (TypeError)."""
    position = tmp_path / "pos.toml"
    position.write_text('houses = ["stark", "lannister", "baratheon"]\n' + engine)
    code, out, err = run(capsys, "new", tmp_path / "game", "--position", position, "--seed", "p")
    assert code == 2 and out == "" and message in one_clear_line(err)
    assert not (tmp_path / "game").exists()


# --- permissions: chmod where it binds, a stand-in where the tests run as root ----------------------

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _deny(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Reading ``target`` fails as ``chmod 000`` makes it fail for anyone but root."""
    real = Path.read_text

    def read_text(self: Path, *args: object, **kwargs: object) -> str:
        if self == target:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", read_text)


@pytest.mark.skipif(AS_ROOT, reason="root reads a file whatever its mode")
def test_status_names_a_state_toml_it_may_not_read_chmod(game, capsys):
    """status said 'state.toml does not match states/0001.toml; run adjudicate to finish an
    interrupted run' for a state.toml it could not read."""
    root = game()
    (root / "state.toml").chmod(0)
    code, _, err = run(capsys, "status", root)
    assert code == 2 and "state.toml: Permission denied (check its permissions)" in one_clear_line(err)


@pytest.mark.parametrize("target,command", [("state.toml", "status"), ("states/0001.toml", "outbox")])
def test_a_file_it_may_not_read_is_named_with_its_permissions(game, capsys, monkeypatch, target, command):
    """status blamed an interrupted run, and outbox said 'rebuild it with maester replay --repair',
    for a file that was only unreadable."""
    root = game()
    _deny(monkeypatch, root / target)
    extra = ["--from", "moderator@example.org"] if command == "outbox" else []
    before = tree(root)
    code, _, err = run(capsys, command, root, *extra)
    line = one_clear_line(err)
    assert code == 2 and f"{target}: Permission denied (check its permissions)" in line and "--repair" not in line
    assert tree(root) == before


def test_a_write_refused_names_the_file_not_its_temporary_copy(game, capsys, monkeypatch, tmp_path):
    """register in a folder it may not write named '.game.toml.w8id1o3v.tmp', a file the user never saw."""
    import tempfile

    root = game()

    def mkstemp(*, prefix: str = "", suffix: str = "", dir: str | Path | None = None, **_: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", os.path.join(str(dir), f"{prefix}w8id1o3v{suffix}"))

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    pub = tmp_path / "new.pub"
    pub.write_text(PublicKey.from_key(Ed25519PrivateKey.from_private_bytes(bytes([7] * 32)), "x").line() + "\n")
    before = tree(root)
    code, _, err = run(capsys, "register", root, "--house", "stark", "--key", pub)
    assert code == 2
    assert f"cannot write {root / 'game.toml'}: Permission denied (check the permissions of {root})" in one_clear_line(err)
    assert tree(root) == before


@pytest.mark.skipif(AS_ROOT, reason="root writes into a folder whatever its mode")
@pytest.mark.parametrize("command", ["rollback", "reveal"])
def test_rollback_and_reveal_in_a_folder_they_may_not_write_change_nothing(game, capsys, command):
    """rollback in a read-only game folder logged itself and moved the snapshots aside, then failed
    on state.toml, naming a temporary file."""
    root = game()
    before = tree(root)
    root.chmod(0o555)
    try:
        extra = ["--to", "0", "--reason", "undo"] if command == "rollback" else ["--force"]
        code, _, err = run(capsys, command, root, *extra)
    finally:
        root.chmod(0o755)
    assert code == 2 and "check its permissions" in one_clear_line(err)
    assert tree(root) == before


def test_adjudicate_all_with_mail_goes_on_past_a_damaged_game(game, capsys, tmp_path):
    """With --all --maildir, one game whose game.toml was damaged stopped the command before any
    game was adjudicated; it is now named, and the others are taken and adjudicated."""
    parent = tmp_path / "games"
    parent.mkdir()
    good = Path(shutil.move(game(), parent / "good"))
    bad = Path(shutil.move(game(), parent / "bad"))
    (bad / "game.toml").write_bytes(b"\xff")
    box = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    from email.message import EmailMessage

    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"], mail["Message-ID"] = "p@example.org", "m@example.org", "turn", "<1@x>"
    mail.set_content(sealed("stark", STARK_ORDERS, seq=2))
    (box / "new" / "1.mail").write_bytes(mail.as_bytes())
    bad_before = tree(bad)
    code, out, err = run(capsys, "adjudicate", parent, "--all", "--maildir", box)
    assert code == 2 and "internal error" not in err
    assert f"game {bad}: {bad / 'game.toml'} is not valid TOML: it is not UTF-8 text" in err
    assert "accepted archive/000002-stark-r1-planning-seq2.txt" in out
    assert tree(bad) == bad_before and (good / "archive" / "000002-stark-r1-planning-seq2.txt").is_file()


def test_outbox_that_is_a_file_is_named(game, capsys):
    """An 'outbox' file in the game folder read as 'outbox/0001/manifest.json cannot be read (NotADirectoryError)'."""
    root = game()
    (root / "outbox").write_text("not a folder\n")
    before = tree(root)
    code, _, err = run(capsys, "outbox", root, "--from", "moderator@example.org")
    assert code == 2 and f"{root / 'outbox'} is not a folder" in one_clear_line(err)
    assert tree(root) == before


def test_ruling_170_a_log_cut_before_the_latest_steps_acceptances_is_refused(game, capsys):
    """A log cut just after snapshot 0000's line (its last acceptance and snapshot 0001's line
    lost) read as a run killed before logging 0001: the turn still in the inbox was accepted
    again as archive/000001, over the file of that name, and applied a second time."""
    root = game()
    (root / "inbox" / "stark.txt").write_text(sealed("stark", STARK_ORDERS))
    lines = (root / "log").read_text().splitlines(keepends=True)
    keep = next(i for i, line in enumerate(lines) if '"action": "snapshot"' in line and '"number": 0' in line)
    (root / "log").write_text("".join(lines[: keep + 1]))
    before = tree(root)
    code, _, err = run(capsys, "adjudicate", root)
    assert code == 2
    assert "does not record the acceptance of archive/000001-stark-r1-planning-seq1.txt" in one_clear_line(err)
    assert tree(root) == before


# --- keys and the moderator's word ------------------------------------------------------------------


@pytest.mark.parametrize("args,message", [
    (("--comment", "line one\nline two"), "--comment must be one line"),
    (("--passphrase-file", "{empty}"), "is empty: write the passphrase in it"),
], ids=["two-line comment", "empty passphrase file"])
def test_keygen_refuses_what_would_make_a_useless_key(capsys, tmp_path, args, message):
    """A comment with a newline made a .pub file of two lines that 'register' then refused; an
    empty passphrase file silently made a key with no passphrase."""
    empty = tmp_path / "empty"
    empty.write_text("")
    code, out, err = run(capsys, "keygen", "--out", tmp_path / "key", *(a.format(empty=empty) for a in args))
    assert code == 2 and out == "" and message in one_clear_line(err)
    assert not (tmp_path / "key").exists() and not (tmp_path / "key.pub").exists()


def test_keygen_does_not_replace_a_dangling_symbolic_link(capsys, tmp_path):
    """--out naming a link to nothing replaced the link with the private key."""
    link = tmp_path / "key"
    link.symlink_to(tmp_path / "nowhere" / "key")
    code, _, err = run(capsys, "keygen", "--out", link)
    assert code == 2 and "exists already" in one_clear_line(err)
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


def test_verify_unsigned_twice_logs_the_acceptance_once(game, capsys, tmp_path):
    """The moderator's acceptance of the same unsealed text was logged again at every call."""
    root = game()
    turn = tmp_path / "lannister.txt"
    turn.write_text("game hostile · house lannister · round 1 · planning · seq 1\nLannisport: defense +1\n")
    for _ in range(2):
        code, out, _ = run(capsys, "verify", root, turn, "--unsigned", "--house", "lannister", "--reason", "by phone")
        assert code == 0 and "acceptable: moderator-accepted for House Lannister" in out
    assert (root / "log").read_text().count('"moderator-accept"') == 1


@pytest.mark.parametrize("rounds", [0, 1001, 2**31])
def test_ruling_171_a_key_whose_kdf_round_count_is_damaged_is_refused_at_once(capsys, tmp_path, rounds):
    """A protected key whose bcrypt round count was damaged (a bit flipped: 2**31 rounds) held
    'maester sign' for hours, the passphrase being applied that many times."""
    import base64
    import struct

    from adjudicator.seals import keys

    pair = keys.generate("x")
    text = keys.private_key_text(pair, b"open sesame", rounds=1)
    body = text.strip().splitlines()
    blob = base64.b64decode("".join(body[1:-1]))
    blob = blob.replace(struct.pack(">I", 1), struct.pack(">I", rounds), 1)  # the KDF options: salt, then rounds
    armour = base64.b64encode(blob).decode()
    key = tmp_path / "key"
    key.write_text("\n".join([body[0], *(armour[i : i + 70] for i in range(0, len(armour), 70)), body[-1]]) + "\n")
    key.chmod(0o600)
    (tmp_path / "pass").write_text("open sesame\n")
    turn = tmp_path / "turn.txt"
    turn.write_text("game hostile · house stark · round 1 · planning · seq 1\nWinterfell: defense +1\n")
    code, _, err = run(capsys, "sign", "--key", key, "--passphrase-file", tmp_path / "pass", turn)
    assert code == 2 and f"the key's passphrase takes {rounds} bcrypt rounds" in one_clear_line(err)
    assert not (tmp_path / "turn.txt.sealed").exists()


@pytest.mark.parametrize("content,message", [
    (b"x" * 1_000_001, "a turn file may be at most 1,000,000 bytes"),
    (b"\x00\xff" * 100, "the file contains NUL bytes; it is not a plain-text turn file"),
], ids=["too large", "binary"])
def test_check_names_a_file_that_is_no_turn_file_at_all(game, capsys, tmp_path, content, message):
    """A file too large or not text was answered 'the file has no header naming its house: give
    --house', advice that could not help."""
    root = game()
    path = tmp_path / "turn.txt"
    path.write_bytes(content)
    code, out, err = run(capsys, "check", root, path)
    assert code == 2 and out == "" and message in one_clear_line(err) and "give --house" not in err


@pytest.mark.parametrize("to,message", [(7, "there is no snapshot 0007 (the snapshots are 0000-0001)"),
                                        (1, "snapshot 0001 is the latest: there is nothing to undo")])
def test_rollback_to_a_step_it_cannot_go_back_to_changes_nothing(game, capsys, to, message):
    """A rollback that cannot be done is refused in one line before anything is moved or logged."""
    root = game()
    before = tree(root)
    code, out, err = run(capsys, "rollback", root, "--to", to, "--reason", "undo")
    assert code == 2 and out == "" and message in one_clear_line(err)
    assert tree(root) == before


def test_reveal_twice_changes_nothing_the_second_time(game, capsys):
    """Revealing again writes nothing new: game.toml and the log stay as the first reveal left them."""
    root = game()
    code, _, _ = run(capsys, "reveal", root, "--force")
    assert code == 0
    before = tree(root)
    code, out, err = run(capsys, "reveal", root, "--force")
    assert code == 0 and err == "" and "seed revealed" in out
    assert tree(root) == before
