"""A player checks a turn file offline against the public state attached to a report mail."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from adjudicator.cli import main
from adjudicator.folder import batch, stepreports
from adjudicator.folder.gamedir import create_game
from adjudicator.folder.published import published_state

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "turnfiles"


def _published(tmp_path: Path) -> Path:
    houses = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
    gd = create_game(tmp_path / "r1", houses=houses, game_id="r1", seed="pub")
    batch.adjudicate(gd.root)
    # The latest step's pages written into the game's reports/, as an older Maester kept them (and a
    # moderator may: maester reports GAME --out GAME/reports): a report.json with its game folder.
    return stepreports.write_out(stepreports.steps(gd.root)[-1], gd.root / "reports") / "report.json"


def test_the_public_twin_reads_back_as_a_state_without_secrets(tmp_path):
    path = _published(tmp_path)
    state = published_state(path)
    assert state.round == 1 and state.phase == "planning"
    assert state.rng_seed == "" and state.segment is None and state.answers == []
    assert "pub" not in json.dumps(json.loads(path.read_text())["state"]["rng"])


def test_player_check_against_a_published_state(tmp_path, capsys):
    path = _published(tmp_path)
    turn = tmp_path / "stark.txt"
    turn.write_text((SAMPLES / "planning-r1-stark.txt").read_text().replace("game sample ", "game r1 ", 1))
    assert main(["check", str(path), str(turn)]) == 0, capsys.readouterr().out
    assert "W902" in capsys.readouterr().out
    turn.write_text(turn.read_text() + "Winterfell: raid\nThe Eyrie: march+0\n")
    assert main(["check", str(path), str(turn)]) == 1


def test_a_file_that_is_not_a_report_is_a_usage_error(tmp_path, capsys):
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    turn = tmp_path / "t.txt"
    turn.write_text("game x · house stark · round 1 · planning · seq 1\n")
    assert main(["check", str(junk), str(turn)]) == 2
    assert "is neither a game folder nor a published report.json" in capsys.readouterr().err


def test_every_report_mail_carries_the_public_state(tmp_path):
    from email import message_from_bytes, policy

    from adjudicator.folder import registry
    from adjudicator.mail import outbox
    from adjudicator.seals.keys import generate

    path = _published(tmp_path)
    root = path.parents[2]
    registry.register_key(root, "stark", generate("s").public, email="stark@example.org")
    outbox.write_outbox(root, sender="moderator@example.org")
    mail = next((root / "outbox").rglob("stark.eml"))
    msg = message_from_bytes(mail.read_bytes(), policy=policy.default)
    attached = {p.get_filename(): gzip.decompress(p.get_content()) for p in msg.iter_attachments()
                if p.get_content_type() == "application/gzip"}  # ruling 316
    assert sorted(attached) == ["r1-0000-stark.jsonl.gz", "r1-0000.json.gz"]
    assert attached["r1-0000.json.gz"] == path.read_bytes()
    assert attached["r1-0000-stark.jsonl.gz"] == (path.parent / "stark.json").read_bytes()
    assert json.loads(attached["r1-0000-stark.jsonl.gz"])["viewer"] == "stark"
    saved = tmp_path / "r1-0000.json.gz"  # as the player saves it: maester check reads it as it is
    saved.write_bytes(next(p.get_content() for p in msg.iter_attachments() if p.get_filename() == saved.name))
    assert published_state(saved).to_dict() == published_state(path).to_dict()


def test_ruling_316_a_damaged_or_swelling_compressed_state_is_refused_in_one_line(tmp_path, capsys):
    path = _published(tmp_path)
    turn = tmp_path / "t.txt"
    turn.write_text("game r1 · house stark · round 1 · planning · seq 1\n")
    whole = gzip.compress(path.read_bytes())
    (tmp_path / "cut.json.gz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "bomb.json.gz").write_bytes(gzip.compress(b" " * (17 * 1024 * 1024)))
    assert main(["check", str(tmp_path / "cut.json.gz"), str(turn)]) == 2
    assert "cut.json.gz: the compressed file is cut short; save the GAME-NNNN.json.gz" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "bomb.json.gz"), str(turn)]) == 2
    assert "grows beyond 16,777,216 bytes when uncompressed" in capsys.readouterr().err


def test_issue_27_w902_is_said_once_as_a_note_after_the_result(tmp_path, capsys):
    path = _published(tmp_path)
    turn = tmp_path / "stark.txt"
    turn.write_text((SAMPLES / "planning-r1-stark.txt").read_text().replace("game sample ", "game r1 ", 1))
    assert main(["check", str(path), str(turn)]) == 0
    out = capsys.readouterr().out.rstrip("\n").split("\n")
    assert out[-2] == "Result: complete: every line accepted, nothing missing"
    assert out[-1] == ("Note: checked against the published state: the rules engine's own checks run when the "
                       "moderator adjudicates (W902)")
    assert sum("W902" in line for line in out) == 1  # not among the warnings too


def test_issue_27_an_old_state_file_is_named_as_old(tmp_path, capsys):
    """A header for a later step than the published state's: the state file may be old, and the check
    says so, naming the file; a report.json with later steps beside it in its game folder is old (W903)."""
    path = _published(tmp_path)
    turn = tmp_path / "t.txt"
    turn.write_text("game r1 · house stark · round 3 · planning · seq 1\n")
    assert main(["check", str(path), str(turn)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert ("error E306: the header is for round 3 planning; report.json holds the game at round 1 planning, an "
            "earlier step: if the game has moved on since, check against the state attached to your latest report "
            "mail") in out
    assert "the game is at" not in out and "W903" not in out  # no later step beside it: not known to be old
    later = path.parents[1] / "0001-r1-planning"  # the next step's reports, beside it
    later.mkdir()
    (later / "report.json").write_bytes(path.read_bytes())
    assert main(["check", str(path), str(turn)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert (f"warning W903: report.json is old: it is the state of step {path.parent.name}, and the game has moved "
            "on to step 0001-r1-planning; check against reports/0001-r1-planning/report.json") in out
    saved = tmp_path / "r1-0001.json"  # as a player saves it from a mail: no game folder around it to tell
    saved.write_bytes(path.read_bytes())
    main(["check", str(saved), str(turn)])
    out = " ".join(capsys.readouterr().out.split())
    assert "r1-0001.json holds the game at round 1 planning" in out and "W903" not in out
