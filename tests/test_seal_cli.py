"""The seal commands through the ``maester`` command line: keygen, register, sign, verify, normalise."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from adjudicator import cli
from adjudicator.folder import registry

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed")
REPO = Path(__file__).resolve().parent.parent

TURN = "game winter · house stark · round 1 · planning · seq {seq}   \r\nmarch Winterfell -> Karhold\r\n\r\n"


def maester(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """Run ``maester ARGV`` in this process: (exit status, stdout, stderr)."""
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "winter"
    g.mkdir()
    (g / "game.toml").write_text('[game]\nid = "winter"\nhouses = ["stark", "lannister", "baratheon"]\n')
    return g


@pytest.fixture
def stark(tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A key made with ``maester keygen`` and registered for House Stark."""
    key = tmp_path / "stark"
    assert maester(capsys, "keygen", "--out", key, "--comment", "ned@winterfell")[0] == 0
    assert maester(capsys, "register", game, "--house", "stark", "--key", f"{key}.pub")[0] == 0
    return key


def write_turn(folder: Path, seq: int = 1, name: str = "turn.txt") -> Path:
    path = folder / name
    path.write_bytes(TURN.format(seq=seq).encode())
    return path


def test_keygen_register_sign_verify_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "winter"
    rc, out, err = maester(capsys, "new", game, "--houses", "stark,lannister,baratheon")
    assert rc == 0, err
    key = tmp_path / "ned"
    rc, out, err = maester(capsys, "keygen", "--out", key, "--comment", "ned@winterfell")
    assert rc == 0 and out.startswith("256 SHA256:") and out.rstrip().endswith("ned@winterfell (ED25519)")
    fingerprint = out.split()[1]
    assert (key.stat().st_mode & 0o777) == 0o600
    assert (tmp_path / "ned.pub").read_text().startswith("ssh-ed25519 AAAA")

    rc, out, err = maester(capsys, "register", game, "--house", "stark", "--key", f"{key}.pub", "--email", "ned@example.org")
    assert (rc, out) == (0, f"registered {fingerprint} for House Stark\n")
    game_toml = tomllib.loads((game / "game.toml").read_text())
    assert game_toml["players"]["stark"]["email"] == "ned@example.org"
    assert game_toml["game"]["id"] == "winter"  # the table of `maester new` is kept
    assert registry.fingerprints_in_force(game) == {"stark": [fingerprint]}

    turn = write_turn(tmp_path)
    rc, out, err = maester(capsys, "sign", "--key", key, turn)
    assert rc == 0, err
    sealed = tmp_path / "turn.txt.sealed"
    assert sealed.read_text().startswith("game winter · house stark · round 1 · planning · seq 1\nmarch")

    rc, out, err = maester(capsys, "verify", game, sealed)
    assert rc == 0, out + err
    assert out == (f"{sealed}: block 1, lines 1-8: valid: sealed by House Stark ({fingerprint}) "
                   "for game winter, round 1 planning, seq 1\n")  # fmt: skip


def test_verify_in_a_subprocess_exit_statuses(tmp_path: Path, game: Path, stark: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    maester(capsys, "sign", "--key", stark, write_turn(tmp_path), "--out", tmp_path / "good")
    (tmp_path / "bad").write_text((tmp_path / "good").read_text().replace("Karhold", "Castle Black"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "adjudicator", *map(str, argv)], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=60)  # fmt: skip

    good, bad, nowhere = run("verify", game, "good"), run("verify", game, "bad"), run("verify", tmp_path / "none", "good")
    assert (good.returncode, bad.returncode, nowhere.returncode) == (0, 1, 2)
    assert "valid: sealed by House Stark" in good.stdout
    assert "invalid [bad-signature]: signature does not match the text (the text or the seal was changed)" in bad.stdout
    assert nowhere.stderr.strip() == f"maester: error: {tmp_path / 'none'} is not a game folder: it has no game.toml"
    for r in (good, bad, nowhere):
        assert "Traceback" not in r.stderr


def test_sign_to_stdout_and_stdin(tmp_path: Path, game: Path, stark: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    rc, out, err = maester(capsys, "sign", "--key", stark, write_turn(tmp_path), "--out", "-")
    assert rc == 0 and out.startswith("game winter") and out.rstrip().endswith("-----END SSH SIGNATURE-----")
    assert "sealed winter, house stark" in err
    (tmp_path / "mail").write_text("From: ned\n\n" + "".join("> " + line + "\n" for line in out.splitlines()))
    rc, out, err = maester(capsys, "verify", game, tmp_path / "mail")
    assert rc == 0, out
    assert "lines 1-1: ignored (text before the first sealed block)" in out


def test_verify_reports_each_block_and_fails_if_one_is_invalid(tmp_path: Path, game: Path, stark: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    maester(capsys, "sign", "--key", stark, write_turn(tmp_path, 1, "a"), "--out", tmp_path / "a.s")
    maester(capsys, "sign", "--key", stark, write_turn(tmp_path, 2, "b"), "--out", tmp_path / "b.s")
    two = (tmp_path / "a.s").read_text() + "\n" + (tmp_path / "b.s").read_text().replace("seq 2", "seq 3")
    (tmp_path / "two").write_text(two)
    rc, out, _ = maester(capsys, "verify", game, tmp_path / "two")
    lines = out.splitlines()
    assert rc == 1 and len(lines) == 2
    assert "block 1, lines 1-8: valid" in lines[0]
    assert "block 2, lines 10-17: invalid [bad-signature]" in lines[1]


def test_replay_through_the_log(tmp_path: Path, game: Path, stark: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maester(capsys, "sign", "--key", stark, write_turn(tmp_path, 2), "--out", tmp_path / "s2")
    report = registry.check_file(game, (tmp_path / "s2").read_bytes())
    header = report.verdicts[0].header
    assert header is not None
    registry.record_acceptance(game, header, report.verdicts[0].sha256, "archive/s2")
    rc, out, _ = maester(capsys, "verify", game, tmp_path / "s2")
    assert rc == 1 and "invalid [replayed]: sequence 2 is not higher than 2, already accepted (replay)" in out


def test_revoke_and_replace_a_key(tmp_path: Path, game: Path, stark: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maester(capsys, "sign", "--key", stark, write_turn(tmp_path), "--out", tmp_path / "old")
    old_fp = registry.fingerprints_in_force(game)["stark"][0]
    maester(capsys, "keygen", "--out", tmp_path / "new")
    rc, out, err = maester(capsys, "register", game, "--house", "stark", "--key", tmp_path / "new.pub",
                           "--replaces", old_fp, "--reason", "laptop stolen")  # fmt: skip
    assert rc == 0, err
    assert out.splitlines()[1] == f"revoked {old_fp}: laptop stolen"
    rc, out, _ = maester(capsys, "verify", game, tmp_path / "old")
    assert rc == 1 and f"invalid [revoked-key]: key {old_fp} was revoked on " in out and "(laptop stolen)" in out
    new_fp = registry.fingerprints_in_force(game)["stark"][0]
    rc, out, err = maester(capsys, "register", game, "--revoke", new_fp, "--reason", "left the game")
    assert (rc, out) == (0, f"revoked {new_fp} of House Stark: left the game\n")
    actions = [(e["action"], e.get("reason")) for e in registry.read_log(game)]
    assert actions[-2:] == [("register-key", "laptop stolen"), ("revoke-key", "left the game")]


def test_moderator_accepts_an_unsigned_file(tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    turn = write_turn(tmp_path, 4)
    rc, out, err = maester(capsys, "verify", game, turn, "--unsigned", "--house", "stark", "--reason", "lost key")
    assert rc == 0, err
    assert out == f"{turn}: acceptable: moderator-accepted for House Stark, round 1 planning, seq 4 (lost key)\n"
    entry = json.loads((game / "log").read_text().splitlines()[-1])
    assert (entry["action"], entry["house"], entry["seq"], entry["reason"]) == ("moderator-accept", "stark", 4, "lost key")
    rc, out, err = maester(capsys, "verify", game, turn, "--unsigned", "--house", "lannister", "--reason", "x")
    assert rc == 1 and "invalid [wrong-house]" in out
    rc, out, err = maester(capsys, "verify", game, turn, "--unsigned", "--house", "stark")
    assert rc == 2 and err == 'maester: error: --unsigned needs --house H and --reason "..."\n'


def test_usage_errors_are_one_line_exit_2(tmp_path: Path, game: Path, stark: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["keygen", "--out", stark], "exists already"),
        (["register", game, "--house", "martell", "--key", f"{stark}.pub"], "'martell' is not a house of this game"),
        (["register", game, "--house", "stark"], "give --house and --key"),
        (["register", game, "--revoke", "SHA256:x", "--reason", "r"], "no key SHA256:x is registered"),
        (["sign", "--key", f"{stark}.pub", write_turn(tmp_path)], "this is a public key (.pub)"),
        (["sign", "--key", stark, tmp_path / "missing.txt"], "No such file or directory"),
        (["verify", tmp_path, write_turn(tmp_path)], "is not a game folder"),
    ]
    for argv, message in cases:
        rc, _, err = maester(capsys, *argv)
        assert rc == 2 and err.startswith("maester: error: ") and message in err, (argv, err)
        assert err.count("\n") == 1


def test_sign_refuses_a_file_that_does_not_start_with_its_header(tmp_path: Path, stark: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    (tmp_path / "t").write_text("Dear moderator,\n" + TURN.format(seq=1))
    rc, _, err = maester(capsys, "sign", "--key", stark, tmp_path / "t")
    assert rc == 2 and "must start with its header line" in err
    assert not (tmp_path / "t.sealed").exists()


def test_keygen_with_passphrase_file_then_sign(tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pw").write_text("the north remembers\n")
    rc, _, err = maester(capsys, "keygen", "--out", tmp_path / "k", "--passphrase-file", tmp_path / "pw", "--rounds", "1")
    assert rc == 0, err
    armoured = "".join((tmp_path / "k").read_text().splitlines()[1:-1])
    assert b"aes256-ctr" in base64.b64decode(armoured)  # the key file is encrypted
    maester(capsys, "register", game, "--house", "stark", "--key", tmp_path / "k.pub")
    rc, _, err = maester(capsys, "sign", "--key", tmp_path / "k", write_turn(tmp_path))
    assert rc == 2 and "protected by a passphrase; give --passphrase-file" in err
    (tmp_path / "wrong").write_text("winter\n")
    rc, _, err = maester(capsys, "sign", "--key", tmp_path / "k", "--passphrase-file", tmp_path / "wrong", write_turn(tmp_path))
    assert rc == 2 and "passphrase does not unlock" in err
    rc, _, err = maester(capsys, "sign", "--key", tmp_path / "k", "--passphrase-file", tmp_path / "pw", write_turn(tmp_path))
    assert rc == 0, err
    assert maester(capsys, "verify", game, tmp_path / "turn.txt.sealed")[0] == 0


def test_sign_warns_about_a_key_file_others_can_read(tmp_path: Path, stark: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chmod(stark, 0o644)
    rc, _, err = maester(capsys, "sign", "--key", stark, write_turn(tmp_path))
    assert rc == 0
    assert err.splitlines()[0] == f"maester: warning: {stark} may be read by other users (mode 0644); run: chmod 600 {stark}"


def test_normalise_prints_the_sealed_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = maester(capsys, "normalise", write_turn(tmp_path))
    assert (rc, out) == (0, "game winter · house stark · round 1 · planning · seq 1\nmarch Winterfell -> Karhold\n")


@needs_ssh_keygen
def test_keygen_fingerprint_is_what_ssh_keygen_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = maester(capsys, "keygen", "--out", tmp_path / "k", "--comment", "cersei@casterly")
    listed = subprocess.run([SSH_KEYGEN, "-l", "-f", tmp_path / "k"], capture_output=True, text=True)  # type: ignore[list-item]
    assert rc == 0 and out == listed.stdout


@needs_ssh_keygen
def test_player_seals_with_plain_ssh_keygen_as_the_docs_say(tmp_path: Path, game: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """docs/seals.md: normalise, ssh-keygen -Y sign, append the signature."""
    assert SSH_KEYGEN is not None
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", tmp_path / "id"], check=True)
    rc, out, err = maester(capsys, "register", game, "--house", "stark", "--key", tmp_path / "id.pub")
    assert rc == 0, err
    rc, _, _ = maester(capsys, "normalise", write_turn(tmp_path), "--out", tmp_path / "turn.norm")
    assert rc == 0
    subprocess.run([SSH_KEYGEN, "-Y", "sign", "-n", "maester-turn", "-f", tmp_path / "id", tmp_path / "turn.norm"],
                   check=True, capture_output=True)  # fmt: skip
    (tmp_path / "mail").write_bytes((tmp_path / "turn.norm").read_bytes() + (tmp_path / "turn.norm.sig").read_bytes())
    rc, out, _ = maester(capsys, "verify", game, tmp_path / "mail")
    assert rc == 0 and "valid: sealed by House Stark" in out


@needs_ssh_keygen
def test_registering_an_rsa_key_is_refused(tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert SSH_KEYGEN is not None
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", tmp_path / "rsa"], check=True)
    rc, _, err = maester(capsys, "register", game, "--house", "stark", "--key", tmp_path / "rsa.pub")
    assert (rc, err) == (2, "maester: error: only Ed25519 keys are supported; this is an RSA key\n")
    rc, _, err = maester(capsys, "sign", "--key", tmp_path / "rsa", write_turn(tmp_path))
    assert (rc, err) == (2, "maester: error: only Ed25519 keys are supported; this is an RSA key\n")
