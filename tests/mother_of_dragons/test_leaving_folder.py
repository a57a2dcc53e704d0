"""``maester leave GAME HOUSE`` (M124, M125, rulings 262, 276): logged, announced in the next public
report and its mail, carried out between rounds, re-derived by ``maester replay``; refused with a
clear line, writing nothing, whenever the rules do not allow it."""

from __future__ import annotations

from pathlib import Path

import pytest
from clikit import reports_of

from adjudicator.cli import main
from adjudicator.folder import audit, batch, undo
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.mail.outbox import write_outbox

MOD = "mother-of-dragons"
FOUR = ["stark", "lannister", "baratheon", "greyjoy"]  # four Westerosi players; Tyrell, Martell, Arryn vassals


def bare_game(root: Path, houses: list[str] = FOUR, round: int = 2) -> Path:
    """An expansion game folder at the start of ``round``, no unit on the board (few decisions), adjudicated once."""
    gd = create_game(root, houses=houses, seed="leave", expansion=MOD)
    s = gd.load_state()
    s.round = round
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    gd.state_file.write_text(s.to_toml())
    batch.adjudicate(root)
    return root


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def play_to_round(root: Path, round: int) -> None:
    """Adjudicate with every request past due until the game reaches ``round``."""
    for _ in range(30):
        if GameDir.open(root).load_state().round >= round:
            return
        batch.adjudicate(root, deadline=True)
    raise AssertionError(f"round {round} not reached")


def public_reports(root: Path) -> dict[str, str]:
    return {p.parent.name: p.read_text() for p in sorted(reports_of(root).glob("*/public.txt"))}


def test_M124_maester_leave_is_announced_carried_out_between_rounds_and_replayed(tmp_path, capsys):
    root = bare_game(tmp_path / "g")
    code, out, _ = run(capsys, "leave", root, "House Stark", "--reason", "moved abroad")
    assert code == 0 and "Stark's player leaves at the end of round 2: from round 3 on, Stark is a vassal" in out
    assert '"action": "leave"' in (root / "log").read_text() and "moved abroad" in (root / "log").read_text()
    batch.adjudicate(root)
    reports = public_reports(root)
    assert list(reports)[-1] == "0001-r2-planning"
    assert "Stark's player leaves the game at the end of round 2: from round 3 on" in " ".join(reports["0001-r2-planning"].split())
    state = GameDir.open(root).load_state()
    assert state.leaving == ["stark"] and "stark" not in state.vassals  # plays on to the end of the round
    mail = write_outbox(root, sender="gm@example.org", public_to="westeros@example.org")
    public = (mail.folder / "public.eml").read_text()
    assert "Stark's player leaves the game at the end of round 2" in " ".join(public.replace("=\n", "").split())
    play_to_round(root, 3)
    state = GameDir.open(root).load_state()
    assert "stark" in state.vassals and not state.leaving and state.houses["stark"].power == 0
    told = [text for text in public_reports(root).values() if "Stark and all its units are a vassal from now on" in
            " ".join(text.split())]  # fmt: skip
    assert len(told) == 1
    assert audit.replay(root).ok
    code, _, err = run(capsys, "leave", root, "stark")
    assert code == 2 and "Stark is a vassal already (M124)" in err


@pytest.mark.parametrize(("houses", "house", "said"), [
    (FOUR, "targaryen", "'targaryen' is not a house of this game; its players' houses are stark, lannister, greyjoy, baratheon"),
    (["stark", "lannister", "baratheon", "targaryen"], "targaryen", "Targaryen never becomes a vassal (M125, ruling 220)"),
    (["stark", "lannister", "baratheon", "targaryen"], "stark", "at least 3 Westerosi players must stay"),
    (FOUR, "tyrell", "Tyrell is a vassal already (M124)"),
    (FOUR, "the night's watch", "\"the night's watch\" is not a house of this game"),
])  # fmt: skip
def test_M125_ruling_262_maester_leave_refuses_what_the_rules_do_not_allow_and_writes_nothing(
        tmp_path, capsys, houses, house, said):  # fmt: skip
    root = bare_game(tmp_path / "g", houses)
    log = (root / "log").read_bytes()
    code, out, err = run(capsys, "leave", root, house)
    assert code == 2 and said in err and not out and err.count("\n") == 1
    assert (root / "log").read_bytes() == log


def test_M124_maester_leave_refuses_a_base_game_the_last_round_a_second_naming_and_a_game_not_started(tmp_path, capsys):
    classic = create_game(tmp_path / "c", houses=["stark", "lannister", "baratheon"], seed="leave").root
    code, _, err = run(capsys, "leave", classic, "stark")
    assert code == 2 and "no step was resolved yet: run 'maester adjudicate" in err
    batch.adjudicate(classic)
    code, _, err = run(capsys, "leave", classic, "stark")
    assert code == 2 and "only a Mother of Dragons game turns a leaving player's house into a vassal (M124)" in err
    last = bare_game(tmp_path / "last", round=10)
    code, _, err = run(capsys, "leave", last, "stark")
    assert code == 2 and "the game ends with round 10" in err
    root = bare_game(tmp_path / "g")
    assert run(capsys, "leave", root, "stark")[0] == 0
    code, _, err = run(capsys, "leave", root, "stark")
    assert code == 2 and "leaves at the end of round 2 already" in err
    code, _, err = run(capsys, "leave", root, "lannister")  # a second of four would leave two
    assert code == 2 and "at least 3 Westerosi players must stay" in err


def test_ruling_276_a_rollback_keeps_a_leave_named_at_the_step_it_goes_back_to_and_undoes_a_later_one(tmp_path, capsys):
    root = bare_game(tmp_path / "g")
    batch.adjudicate(root, deadline=True)  # step 0001
    assert run(capsys, "leave", root, "stark")[0] == 0  # named at step 0001
    batch.adjudicate(root)  # step 0002 announces it
    undo.rollback(root, to=1, reason="a wrong default")
    batch.adjudicate(root)  # step 0002 again, with the leave
    assert GameDir.open(root).load_state().leaving == ["stark"]
    undo.rollback(root, to=0, reason="further back")
    batch.adjudicate(root)
    assert GameDir.open(root).load_state().leaving == []
    assert audit.replay(root).ok


def test_M124_maester_show_and_its_json_say_who_leaves(tmp_path, capsys):
    root = bare_game(tmp_path / "g")
    run(capsys, "leave", root, "stark")
    batch.adjudicate(root)
    code, out, _ = run(capsys, "show", root)
    assert code == 0 and "Leaving: Stark's player at the end of round 2: a vassal from round 3 (M124)" in " ".join(out.split())
    code, out, _ = run(capsys, "show", root, "--json")
    assert code == 0 and '"leaving": ["stark"]' in out
    code, out, _ = run(capsys, "show", root, "--position")
    assert code == 0 and 'leaving = ["stark"]' in out
