"""The built wheel installs into a plain virtual environment and works outside the checkout.

The wheel is built from this checkout (``pip wheel``, as ``make dist`` builds it with the same
backend) and installed into a fresh venv without access to the system's site-packages, so its
dependencies come from the package index: a player's install (README, "For players"). Without
network access the test is skipped, saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OFFLINE_SIGNS = (
    "Temporary failure in name resolution", "Failed to establish a new connection", "Network is unreachable",
    "No matching distribution found", "Could not find a version that satisfies", "Name or service not known",
    "ProxyError", "Connection refused", "timed out",
)


def pip(python: Path | str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run([str(python), "-m", "pip", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=240)


def skip_if_offline(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0:
        text = result.stdout + result.stderr
        if any(sign in text for sign in OFFLINE_SIGNS):
            pytest.skip(f"{what} needs the package index, which cannot be reached: {text.strip().splitlines()[-1]}")
        pytest.fail(f"{what} failed:\n{text}")


def run(exe: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_the_wheel_installs_into_a_plain_venv_and_runs_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    skip_if_offline(pip(sys.executable, "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT), cwd=tmp_path),
                    "building the wheel")
    (wheel,) = wheels.glob("maester-*.whl")

    names = set(zipfile.ZipFile(wheel).namelist())
    data = ("board", "cards", "map_grid", "mother_of_dragons/board", "mother_of_dragons/cards")
    assert {f"adjudicator/game/data/{name}.toml" for name in data} <= names
    for folder in ("grammar", "templates"):
        for f in (ROOT / folder).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts:
                assert f"adjudicator/{f.relative_to(ROOT).as_posix()}" in names, f"{f} is not in the wheel"

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    skip_if_offline(pip(python, "install", "-q", str(wheel), cwd=tmp_path), "installing the wheel")

    where = run(python, "-c", "import adjudicator; print(adjudicator.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(env_dir), where.stdout + where.stderr
    maester = env_dir / "bin" / "maester"
    help_ = run(maester, "--help", cwd=tmp_path)
    assert help_.returncode == 0 and "new" in help_.stdout and "show" in help_.stdout, help_.stderr
    new = run(maester, "new", "g", "--houses", "stark,lannister,baratheon", "--seed", "wheel", cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "g" / "state.toml").is_file()
    show = run(maester, "show", "g", "--json", cwd=tmp_path)
    assert show.returncode == 0 and '"game_id": "g"' in show.stdout, show.stderr
    parsed = run(python, "-c", "from adjudicator.turnfile.parser import parse_turn_file as p; "
                 "print(len(p('Winterfell: march +1').commands))", cwd=tmp_path)  # the grammar is in the wheel
    assert parsed.stdout.strip() == "1", parsed.stderr

    # no test or lint tools come with a player's install
    installed = run(python, "-m", "pip", "list", "--format=freeze", cwd=tmp_path).stdout.lower()
    for tool in ("pytest", "hypothesis", "aiosmtpd", "ruff", "mypy", "hatchling"):
        assert f"\n{tool}==" not in "\n" + installed, f"{tool} was installed with the wheel"
    _a_players_turn(maester, tmp_path)


def _a_players_turn(maester: Path, folder: Path) -> None:
    """README's player section, with the installed command: a key with a passphrase, an offline
    check against the state attached to the last report, a seal the moderator verifies."""
    (folder / "pass").write_text("the north remembers\n")
    made = run(maester, "keygen", "--out", "ned", "--comment", "ned@example.org", "--passphrase-file", "pass",
               cwd=folder)  # fmt: skip
    assert made.returncode == 0 and made.stdout.startswith("256 SHA256:"), made.stderr
    assert run(maester, "register", "g", "--house", "stark", "--key", "ned.pub", cwd=folder).returncode == 0
    first = run(maester, "adjudicate", "g", cwd=folder)
    assert first.returncode == 0, first.stdout + first.stderr
    rendered = run(maester, "reports", "g", "--out", "pages", cwd=folder)  # the step's pages, as files
    assert rendered.returncode == 0 and "wrote the reports of 1 step(s) into pages" in rendered.stdout, rendered.stderr
    (published,) = (folder / "pages").glob("0000-*/report.json")
    (folder / "turn.txt").write_text("game g · house stark · round 1 · planning · seq 1\nWhite Harbor: defense +1\n"
                                     "Winterfell: defense +1\nThe Shivering Sea: consolidate\n")  # fmt: skip
    checked = run(maester, "check", str(published), "turn.txt", cwd=folder)
    assert checked.returncode == 0 and "Result: complete" in checked.stdout, checked.stdout + checked.stderr
    signed = run(maester, "sign", "--key", "ned", "--passphrase-file", "pass", "turn.txt", cwd=folder)
    assert signed.returncode == 0 and "-> turn.txt.sealed" in signed.stdout, signed.stderr
    verified = run(maester, "verify", "g", "turn.txt.sealed", cwd=folder)
    assert verified.returncode == 0 and "valid: sealed by House Stark" in verified.stdout, verified.stderr


def test_an_unreachable_index_skips_and_any_other_failure_fails():
    offline = subprocess.CompletedProcess([], 1, "", "ERROR: No matching distribution found for hatchling>=1.18\n")
    with pytest.raises(pytest.skip.Exception, match="cannot be reached"):
        skip_if_offline(offline, "building the wheel")
    broken = subprocess.CompletedProcess([], 1, "", "error: invalid pyproject.toml\n")
    with pytest.raises(pytest.fail.Exception, match="building the wheel failed"):
        skip_if_offline(broken, "building the wheel")
