"""The sample game (samples/game): replayed from scratch with the real rules, parser and reports.

The approved text reports and receipts in ``samples/game/expected/`` are compared byte for byte;
after a deliberate change, rebuild them with ``python samples/game/make_sample.py --approve`` and
read the difference before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of

from adjudicator.cli import main as cli_main
from adjudicator.folder import batch, outputs
from adjudicator.robots.demo import main as demo_main
from adjudicator.robots.demo import play_sample, sample_dir, sample_plan
from adjudicator.seals import seal
from adjudicator.seals.keys import read_private_key

SAMPLE = sample_dir()
EXPECTED = SAMPLE / "expected"


def sample_played(name: str, folder: str) -> Any:
    """A module's fixture ``played``: samples/NAME played from scratch into a folder FOLDER, with the
    results of its runs; each sample game's tests (this file's and the boxes') share it."""

    @pytest.fixture(scope="module")
    def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[batch.RunResult]]:
        root = tmp_path_factory.mktemp(folder) / folder
        return root, play_sample(root, sample_dir(name))

    return played


def assert_replays_byte_for_byte(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``maester replay`` on a played sample: every snapshot follows from the archive."""
    check = outputs.replay(root)  # each step's record of its reports too
    assert check.ok, check.lines()
    assert cli_main(["replay", str(root)]) == 0, "maester replay passes on it"
    assert "every snapshot follows from the archive, byte for byte" in capsys.readouterr().out


played = sample_played("game", "sample")


def _events(root: Path) -> list[dict]:
    out = []
    for f in sorted(reports_of(root).glob("[0-9]*/report.json")):
        out += json.loads(f.read_text())["events"]
    return out


def assert_matches_approved(root: Path, approved: Path) -> None:
    """Every text report, receipt and ``pending`` of the played game byte for byte its approved copy."""
    expected = sorted(p.relative_to(approved) for p in approved.rglob("*") if p.is_file() and p.name != "pending")
    reports = reports_of(root)
    produced = sorted(p.relative_to(reports) for pattern in ("[0-9]*/*.txt", "[0-9]*/receipts/*.txt")
                      for p in reports.glob(pattern))  # fmt: skip
    assert produced == expected, "a report or receipt appeared or vanished: re-approve after checking"
    for rel in expected:
        assert (reports / rel).read_text() == (approved / rel).read_text(), f"{rel} differs"
    assert (root / "pending").read_text() == (approved / "pending").read_text()


def test_sample_reports_and_receipts_match_the_approved_copies(played):
    root, _ = played
    assert_matches_approved(root, EXPECTED)


def test_sample_is_two_rounds_of_four_houses_with_combat_westeros_and_a_deadline(played):
    root, results = played
    game, runs = sample_plan()
    assert len(game["houses"]) == 4
    steps = [s for r in results for s in r.steps]
    assert any("-r2-westeros" in s for s in steps) and steps[-1].startswith("0007-r3")
    assert any(r.deadline for r in runs)
    kinds = [e["type"] for e in _events(root)]
    assert kinds.count("CombatResolved") == 2, "Moat Cailin in round 1, Searoad Marches in round 2"
    assert {"WesterosCardRevealed", "BidsRevealed", "DefaultUsed", "RaidResolved"} <= set(kinds)
    assert all(r.exit_status == 0 for r in results), "every sample file is accepted"


def test_sample_replays_byte_for_byte(played, capsys: pytest.CaptureFixture[str]):
    assert_replays_byte_for_byte(played[0], capsys)


@pytest.mark.filterwarnings("ignore::adjudicator.seals.keys.InsecureKeyFile")  # git keeps no file modes
@pytest.mark.parametrize("name", ["game", "mod-game", "adwd-game", "affc-game"])  # the base sample and the boxes' ones
def test_sample_sealed_files_are_the_plain_turns_sealed_with_the_demo_keys(name):
    sample = sample_dir(name)
    game, runs = sample_plan(sample)
    keys = {h: read_private_key(sample / "keys" / f"DEMO-ONLY-{h}").private for h in game["houses"]}
    count = 0
    for run in runs:
        for plain in sorted((sample / "turns" / run.files).glob("*.txt")):
            sealed = sample / "sealed" / run.files / plain.name
            assert sealed.read_text() == seal.sign(plain.read_text(), keys[plain.stem]), (
                f"{sealed} is stale: run python samples/game/make_sample.py --sample samples/{name}"
            )
            count += 1
    assert count == len(list((sample / "sealed").rglob("*.txt")))


@pytest.mark.parametrize("name", ["game", "mod-game", "adwd-game", "affc-game"])
def test_sample_keys_are_marked_demo_only(name):
    sample = sample_dir(name)
    game, _ = sample_plan(sample)
    for house in game["houses"]:
        pub = (sample / "keys" / f"DEMO-ONLY-{house}.pub").read_text()
        assert "DEMO ONLY" in pub and "never use for a real game" in pub


def assert_second_run_changes_nothing(root: Path) -> None:
    """A second run over the played game's folder accepts nothing, resolves nothing, writes nothing."""
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and p.name not in ("log", ".lock")}
    result = batch.adjudicate(root)
    assert result.accepted == [] and result.steps == []
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and p.name not in ("log", ".lock")} == before


def test_sample_run_again_changes_nothing(played):
    assert_second_run_changes_nothing(played[0])


def test_demo_replays_the_sample_and_prints_where_the_html_report_is(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path):  # fmt: skip
    assert demo_main([str(tmp_path / "demo-game")]) == 0
    out = capsys.readouterr().out
    html = Path(out.split("Open in a browser: ")[1].splitlines()[0])
    assert html.name == "public.html" and html.is_file() and html.is_relative_to(tmp_path / "demo-game")
    assert "<html" in html.read_text()


def test_demo_replaces_its_own_folder_and_leaves_nothing_behind(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    folder = tmp_path / "demo-game"
    assert demo_main([str(folder)]) == 0
    (folder / "stray").write_text("from the last demo")
    assert demo_main([str(folder)]) == 0
    assert not (folder / "stray").exists() and (folder / "game.toml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo-game"]


def test_demo_never_replaces_a_folder_that_is_not_a_demo(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me")
    assert demo_main([str(tmp_path / "notes")]) == 2
    assert "is not a demo game folder; it is left alone" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "notes").iterdir()] == ["mine.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


def test_ruling_160_every_answer_of_the_sample_has_a_verdict_in_its_house_s_json(played):
    """Each house's HOUSE.json lists its answers; by the end of their round each has a verdict."""
    root, _ = played
    statuses: dict[str, str] = {}
    for folder in sorted(reports_of(root).glob("[0-9]*")):
        for house in ("stark", "lannister", "greyjoy", "baratheon"):
            doc = json.loads((folder / f"{house}.json").read_text())
            assert doc["format"] == "maester-private-report" and doc["viewer"] == house
            assert all(a["id"].startswith(f"{house}/") for a in doc["answers"]), "only its own answers"
            for a in doc["answers"]:
                if a["status"] != "waiting" or a["id"] not in statuses:
                    statuses[a["id"]] = a["status"]
                assert a["status"] != "refused" or a["rule"], a
    rounds_over = {i: s for i, s in statuses.items() if int(i.split("/")[1].split(".")[0]) < 3}
    assert rounds_over and set(rounds_over.values()) <= {"used", "refused", "expired"}
