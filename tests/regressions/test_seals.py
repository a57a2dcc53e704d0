"""Issue 13: a seal means what it says: no house can act for another, and no file can stop a game.

A file with several sealed blocks was cut into blocks with ``str.splitlines``, while the seal
scanner ends a line only at CR or LF. A form feed (or VT, U+001C-U+001E, NEL, U+2028, U+2029)
before the blocks shifted the cut, so the bytes archived under Lannister's good seal were an
unsealed text naming House Stark; the archive reader took it as a moderator-accepted turn without
asking the log, and Stark's orders were replaced. By accident (one form feed before two blocks) the
same shift archived a broken turn, and every later run exited 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mail import shapes

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch
from adjudicator.folder.gamedir import GameDir
from adjudicator.folder.ledger import sha256
from adjudicator.seals import seal

SEPARATORS = {
    "form feed": "\f", "vertical tab": "\v", "file separator": "\x1c", "group separator": "\x1d",
    "record separator": "\x1e", "next line": "\x85", "line separator": "\u2028", "paragraph separator": "\u2029",
}  # fmt: skip
STARK_ORDERS = "Winterfell: march +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +1\n"
FAKE_STARK_ORDERS = "Winterfell: raid\nWhite Harbor: raid\nThe Shivering Sea: raid\n"
LANNISTER_ORDERS = "Lannisport: defense +1\nPort of Lannisport: consolidate\nStoney Sept: march +0\nThe Golden Sound: raid\n"


def header(house: str, seq: int) -> str:
    return f"game {shapes.GAME} · house {house} · round 1 · planning · seq {seq}\n"


def sealed(house: str, orders: str, seq: int = 1) -> str:
    return seal.sign(header(house, seq) + orders, shapes.KEYS[house])


def impersonation(sep: str) -> str:
    """Lannister's file: as many ``sep`` as its sealed block has lines, then a fake Stark text of that
    many lines, then the block. Cut by ``str.splitlines``, the block's line range is the fake text."""
    block = sealed("lannister", LANNISTER_ORDERS)
    n = len(block.rstrip("\n").split("\n"))
    fake = (header("stark", 2) + FAKE_STARK_ORDERS).rstrip("\n").split("\n")
    fake += ["# more orders follow"] * (n - len(fake))
    return "Hello moderator" + sep * n + "\n" + "\n".join(fake) + "\n" + block


def raw_mail(body: str, n: int, sender: str = "lannister@players.example") -> bytes:
    """A message as an attacker writes it, byte for byte: 8-bit UTF-8 text, nothing re-encoded."""
    head = (f"From: Player <{sender}>\nTo: moderator@maester.example\nSubject: my turn\n"
            f"Date: Sun, 01 Mar 2026 18:{n:02d}:00 +0000\nMessage-ID: <attack{n}@players.example>\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n")  # fmt: skip
    return head.encode() + body.encode("utf-8")


def answers(root: Path, house: str) -> list[str]:
    state = GameDir.open(root).load_state()
    return [a["text"] for a in state.answers if a["id"].startswith(f"{house}/")]


def orders_owed(root: Path) -> list[str]:
    return [h for h, asked in batch.status(root)["houses"].items() if any(r["kind"] == "orders" for r in asked)]


def accept_lines(root: Path) -> list[dict]:
    lines = (root / "log").read_text(encoding="utf-8").split("\n")
    return [e for e in (json.loads(x) for x in lines if x) if e.get("action") == "accept"]


def assert_archive_means_what_the_log_says(root: Path) -> None:
    """Every archived file verifies on its own, sealed by a key of the house its accept line names."""
    keys = {h: seal.PublicKey.from_key(k).fingerprint for h, k in shapes.KEYS.items()}
    for e in accept_lines(root):
        data = (root / e["file"]).read_bytes()
        assert sha256(data) == e["sha256"]
        blocks = seal.split_sealed(data.decode("utf-8"))
        assert len(blocks) == 1, e["file"]
        opened = blocks[0].open()
        h = opened.header
        assert (h.game, h.house, h.round, h.step, h.seq) == (shapes.GAME, e["house"], e["round"], e["step"], e["seq"])
        assert opened.key.fingerprint == keys[e["house"]]
    assert audit.replay(root).ok, audit.replay(root).lines()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = shapes.make_game(tmp_path / "game")
    (root / "inbox").mkdir(exist_ok=True)
    (root / "inbox" / "a-stark.txt").write_text(sealed("stark", STARK_ORDERS), encoding="utf-8")
    assert cli_main(["adjudicate", str(root)]) == 0
    return root


# --- 1. one house's file made another house's orders be executed ---------------------------------


@pytest.mark.parametrize("sep", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_issue13_1_a_file_cannot_give_another_houses_orders_through_adjudicate(game: Path, sep: str) -> None:
    (game / "inbox" / "b-lannister.txt").write_text(impersonation(sep), encoding="utf-8")
    assert cli_main(["adjudicate", str(game)]) == 1, "the fake Stark text has no seal: refused"
    assert answers(game, "stark") == STARK_ORDERS.rstrip("\n").split("\n"), "Stark's own orders stand"
    assert answers(game, "lannister") == LANNISTER_ORDERS.rstrip("\n").split("\n")
    assert [e["house"] for e in accept_lines(game)] == ["stark", "lannister"]
    assert_archive_means_what_the_log_says(game)
    assert cli_main(["adjudicate", str(game)]) == 0, "the next run goes on"


@pytest.mark.parametrize("sep", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_issue13_1_a_mail_cannot_give_another_houses_orders_through_adjudicate_maildir(
        game: Path, tmp_path: Path, sep: str) -> None:  # fmt: skip
    box = shapes.maildir(tmp_path / "Maildir", [raw_mail(impersonation(sep), 1)])
    assert cli_main(["adjudicate", str(game), "--maildir", str(box)]) == 0
    assert answers(game, "stark") == STARK_ORDERS.rstrip("\n").split("\n")
    assert answers(game, "lannister") == LANNISTER_ORDERS.rstrip("\n").split("\n")
    assert_archive_means_what_the_log_says(game)


# --- 2. the same shift, by accident, archived a broken turn and stopped every run ---------------


def two_blocks(sep: str) -> str:
    return f"my turn and my ally's{sep}\n\n" + sealed("lannister", LANNISTER_ORDERS) + "\n" + sealed("baratheon", (
        "Dragonstone: defense +1\nKingswood: march +0\nShipbreaker Bay: support +0\n"))  # fmt: skip


@pytest.mark.parametrize("sep", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_issue13_2_one_separator_before_two_blocks_archives_both_and_the_game_goes_on(game: Path, sep: str) -> None:
    (game / "inbox" / "b-two.txt").write_text(two_blocks(sep), encoding="utf-8")
    assert cli_main(["adjudicate", str(game)]) == 0
    assert sorted(e["house"] for e in accept_lines(game)) == ["baratheon", "lannister", "stark"]
    assert_archive_means_what_the_log_says(game)
    assert cli_main(["adjudicate", str(game)]) == 0
    assert orders_owed(game) == [], "all three houses' orders are in"


@pytest.mark.parametrize("sep", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_issue13_2_one_separator_in_a_mail_with_two_blocks_through_adjudicate_maildir(
        game: Path, tmp_path: Path, sep: str) -> None:  # fmt: skip
    box = shapes.maildir(tmp_path / "Maildir", [raw_mail(two_blocks(sep), 2)])
    assert cli_main(["adjudicate", str(game), "--maildir", str(box)]) == 0
    assert cli_main(["adjudicate", str(game), "--maildir", str(box)]) == 0
    assert orders_owed(game) == []
    assert_archive_means_what_the_log_says(game)


# --- the archive reader trusts the log, not the text ----------------------------------------------


def archive_behind_the_runs_back(root: Path, text: str, house: str, seq: int) -> str:
    """Archive a file and log its acceptance as an older Maester (or a hand) could have."""
    name = f"000002-{house}-r1-planning-seq{seq}.txt"
    (root / "archive" / name).write_text(text, encoding="utf-8")
    entry = {"action": "accept", "house": house, "round": 1, "step": "planning", "seq": seq,
             "sha256": sha256(text.encode()), "file": f"archive/{name}", "time": "2026-03-01T18:00:00+00:00"}
    with open(root / "log", "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")
    return name


def test_issue13_an_unsealed_archived_text_is_never_read_without_the_moderators_acceptance(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    name = archive_behind_the_runs_back(game, header("stark", 2) + FAKE_STARK_ORDERS, "lannister", 1)
    assert cli_main(["adjudicate", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"archive/{name}" in err and "no moderator acceptance" in err and len(err.strip().splitlines()) == 1
    assert answers(game, "stark") == STARK_ORDERS.rstrip("\n").split("\n")


def test_issue13_derive_refuses_a_turn_whose_header_differs_from_its_accept_line(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    stark_again = sealed("stark", FAKE_STARK_ORDERS, seq=2)  # a good Stark seal, logged as Lannister's
    archive_behind_the_runs_back(game, stark_again, "lannister", 2)
    assert cli_main(["adjudicate", str(game)]) == 2
    err = capsys.readouterr().err
    assert "its header names stark, round 1 planning, seq 2, and the log accepted it for lannister" in err
    assert answers(game, "stark") == STARK_ORDERS.rstrip("\n").split("\n")


def test_issue13_2_a_turn_an_older_maester_archived_broken_is_set_aside_by_a_rollback_to_the_latest_step(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    block = sealed("lannister", LANNISTER_ORDERS)
    broken = "my turn\n" + "".join(block.splitlines(keepends=True)[:-1])  # the old cut: one line early
    archive_behind_the_runs_back(game, broken, "lannister", 1)
    assert cli_main(["adjudicate", str(game)]) == 2, "the broken turn stops the run, naming it"
    assert "rollback" in capsys.readouterr().err
    latest = batch.status(game)["snapshot"]
    (name,) = [p.name for p in (game / "archive").iterdir() if "-lannister-" in p.name]
    assert cli_main(["rollback", str(game), "--to", str(latest), "--reason", "archived broken",
                     "--drop", f"archive/{name}"]) == 0  # fmt: skip
    assert cli_main(["adjudicate", str(game)]) == 0
    (game / "inbox" / "c-lannister.txt").write_text(block, encoding="utf-8")
    assert cli_main(["adjudicate", str(game)]) == 0, "the same turn, sent again, is taken"
    assert answers(game, "lannister") == LANNISTER_ORDERS.rstrip("\n").split("\n")
    assert audit.replay(game).ok


def test_issue13_a_turn_that_does_not_read_back_gets_a_receipt_and_never_reaches_the_archive(
        game: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """Intake reads the bytes back as the run will before it archives them; a fault there is a refusal."""
    from adjudicator.folder import intake

    real = intake.understand

    def fails_for_lannister(name: str, data: bytes, record, accepts, **kw):  # type: ignore[no-untyped-def]
        if "-lannister-" in name:
            raise seal.SealError("a fault of this test")
        return real(name, data, record, accepts, **kw)

    monkeypatch.setattr(intake, "understand", fails_for_lannister)
    (game / "inbox" / "b-two.txt").write_text(two_blocks("\n"), encoding="utf-8")
    assert cli_main(["adjudicate", str(game)]) == 1
    out = capsys.readouterr().out
    assert "not taken: its text does not read back as one turn (a fault of this test)" in out
    assert sorted(e["house"] for e in accept_lines(game)) == ["baratheon", "stark"]
    assert not any("-lannister-" in p.name for p in (game / "archive").iterdir())
    receipts = list((game / "refused").glob("*-lannister.txt"))  # to the house whose key sealed it
    said = " ".join(receipts[0].read_text().split())
    assert len(receipts) == 1 and "a fault of this test" in said
    assert "Rejected in part" in said and "-baratheon-" not in said, "another house's turn is not named to it"
    assert "1 other sealed turn of this file, of other houses, was accepted" in said
    monkeypatch.setattr(intake, "understand", real)
    assert cli_main(["adjudicate", str(game)]) == 0, "refused once, recorded, and the game goes on"
    assert audit.replay(game).ok
