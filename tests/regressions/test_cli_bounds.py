"""Issue 13, problems 5-7: one address per player, ``maester check`` linear in lines, quiet broken pipes.

* ``register --email 'stark@example.org,spy@evil.org'`` was accepted, and ``outbox --send`` then
  mailed Stark's private report to both.
* ``maester check`` compared every line with every later one (``check._shadowed``): 20,000 lines
  took minutes, for a player's offline check and the moderator's dry run alike.
* ``maester replay GAME | head -1`` printed "internal error: BrokenPipeError".
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mail import shapes

from adjudicator.cli import main as cli_main
from adjudicator.folder import registry
from adjudicator.folder.check import check_file
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile import shadowing
from adjudicator.turnfile.parser import parse_turn_file

HEADER = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return shapes.make_game(tmp_path / "game")


# --- 5. register --email takes exactly one address ----------------------------------------------


@pytest.mark.parametrize("email", [
    "stark@example.org,spy@evil.org", "stark@example.org, spy@evil.org", "stark@example.org;spy@evil.org",
    "Ned Stark <stark@example.org>", "<stark@example.org>", "stark@example.org <spy@evil.org>",
    "\"stark@example.org\" <spy@evil.org>", "stark@example.org (Ned)", "stark@example.org\nBcc: spy@evil.org",
    "stark@example.org\r\n", "stark@@example.org", "stark", "@example.org", "stark@", "stark@exa mple.org",
    "stark@example.org>", "spy@evil.org\u2028stark@example.org", "stark@example.org\x00",
])  # fmt: skip
def test_issue13_5_register_email_refuses_anything_but_one_address(game: Path, tmp_path: Path, email: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    key = tmp_path / "spare.pub"
    key.write_text(PublicKey.from_key(shapes.MODERATOR.private).line() + "\n")
    before = (game / "game.toml").read_bytes()
    assert cli_main(["register", str(game), "--house", "moderator", "--key", str(key), "--email", email]) == 2
    err = capsys.readouterr().err
    assert "is not one mail address" in err and len(err.strip().splitlines()) == 1
    assert (game / "game.toml").read_bytes() == before


@pytest.mark.parametrize("email", ["stark@example.org", "ned.stark+agot@mail.example.co.uk", "o'brien@example.org"])
def test_issue13_5_register_email_takes_one_plain_address(game: Path, email: str) -> None:
    registry.register_key(game, "moderator", shapes.MODERATOR.public, email=email)
    assert registry.players(registry.read_game(game))["moderator"]["email"] == email


def test_issue13_5_outbox_refuses_a_hand_edited_list_of_addresses(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(text.replace('"stark@players.example"', '"stark@players.example, spy@evil.org"'))
    cli_main(["adjudicate", str(game)])
    capsys.readouterr()
    assert cli_main(["outbox", str(game), "--from", "moderator@maester.example"]) == 2
    err = capsys.readouterr().err
    assert "stark" in err and "is not one mail address" in err
    assert not list((game / "outbox").rglob("*.eml")) if (game / "outbox").exists() else True


# --- 6. maester check is linear in lines -------------------------------------------------------


def shadowed_by_scanning(tf) -> list:
    """The old check._shadowed, a scan of every later line: the reference the linear one must agree with."""
    cmds = [c for c in tf.commands if c.where is not None]
    out = []
    for i, early in enumerate(cmds):
        late = next((c for c in cmds[i + 1 :] if shadowing._hides(c, early)), None)
        if late is not None:
            out.append((early.where.line, late.where.line))
    return out


LINES = [
    "Winterfell: march +1", "support stark in every combat", "support none in Winterfell", "support attacker",
    "support defender in Karhold", "support from The Shivering Sea: stark", "support from White Harbor: none in Karhold",
    "play ser rodrick cassel", "if attacked in White Harbor: play ser rodrick cassel",
    "if attacking Karhold: play eddard stark", "if defending: play robb stark", "use the valyrian steel blade",
    "if attacked in Winterfell against lannister: use the valyrian steel blade", "march from Winterfell: footman -> Karhold",
    "raid from The Shivering Sea onto Castle Black", "bid throne 2", "bid throne 3", "bid wildlings 1",
    "raven: look", "raven: swap Winterfell to defense +1", "casualties: footman", "retreat to Karhold",
    "if attacked in Winterfell: retreat to Karhold", "tie-break fiefdoms: stark, lannister, baratheon", "tie-break: lannister, stark, baratheon",
    "if fighting in Karhold against lannister: casualties: footman", "if attacking Karhold: retreat to Winterfell",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=30))
def test_issue13_6_linear_shadowing_finds_what_scanning_every_later_line_finds(lines: list[str]) -> None:
    tf = parse_turn_file(HEADER + "".join(f"{x}\n" for x in lines))
    found = [(n.where.line, int(re.search(r"\bline (\d+)", n.message)[1])) for n in shadowing.shadowed(tf)]
    assert found == shadowed_by_scanning(tf)


@pytest.mark.parametrize("line", ["Winterfell: march +1", "bid wildlings 1"])  # neither hides another
def test_issue13_6_check_compares_each_line_with_a_few_others_not_with_every_later_line(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str) -> None:  # fmt: skip
    calls = []
    real = shadowing._hides
    monkeypatch.setattr(shadowing, "_hides", lambda late, early: calls.append(1) or real(late, early))
    path = tmp_path / "turn.txt"
    path.write_text(HEADER + f"{line}\n" * 5000)
    check_file(game, path)
    assert len(calls) <= 5000, f"{len(calls):,} comparisons for 5,000 lines"


# --- 7. a broken pipe ends quietly --------------------------------------------------------------


@pytest.mark.parametrize("command", [["replay"], ["status"], ["status", "--json"]])
def test_issue13_7_output_into_a_closed_pipe_ends_quietly_with_the_usual_exit_status(
        game: Path, command: list[str]) -> None:  # fmt: skip
    cli_main(["adjudicate", str(game)])
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written: `maester ... | head -0`
    try:
        proc = subprocess.run([sys.executable, "-m", "adjudicator", command[0], str(game), *command[1:]],
                              stdout=write, stderr=subprocess.PIPE, timeout=120, check=False)  # fmt: skip
    finally:
        os.close(write)
    assert proc.stderr == b""
    assert proc.returncode == 0
