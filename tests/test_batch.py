"""The batch run: seals, intake, idempotency, replacement by a later seq, deadlines, status, the CLI.

These tests drive the batch machinery with a toy game (two bids a round, two rounds) and a toy
parser for ``bid TRACK N`` lines, so that only the batch run is under test; the sample game
(``tests/test_sample_game.py``) runs the real rules and the real parser.
"""

from __future__ import annotations

import errno
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clikit import reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.cli import main as cli_main
from adjudicator.engine import machine
from adjudicator.engine.core.context import NOT_APPLICABLE, Ask, Context, Request
from adjudicator.engine.events import Event
from adjudicator.folder import batch, intake, many, registry
from adjudicator.folder.gamedir import GameDir, GameLocked, create_game
from adjudicator.game.commands import Bid, Command, Where
from adjudicator.reports import comingup  # noqa: F401  bound to the real printer before any toy patch
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile import parser, printer

HOUSES = ["stark", "lannister", "greyjoy", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 1] * 32)) for i, h in enumerate(HOUSES)}
STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([99] * 32))


# --- a toy game: a secret bid per house in planning, an open bid per house in action ----------


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyBid(Event):
    house: str
    track: str
    amount: int

    def describe(self) -> str:
        return f"{self.house.title()} bid {self.amount} for {self.track}."


def _bid_check(track: str, limit: int):
    def check(cmd: Command):
        if not isinstance(cmd, Bid) or cmd.track != track:
            return NOT_APPLICABLE
        if cmd.amount > limit:
            return f"a bid of {cmd.amount} is more than the {limit} power available (R082)"
        return None

    return check


def toy_planning(ctx: Context) -> None:
    st = ctx.state
    asks = []
    for h in st.turn_order():
        req = Request(key=ctx.key("bid", h), kind="bid", house=h, prompt="bid for the wildlings",
                      default=Bid(track="wildlings", amount=0), secret=True)
        asks.append(Ask(req, _bid_check("wildlings", st.houses[h].power)))
    for h, cmd in zip(st.turn_order(), ctx.ask_all(asks)):
        st.houses[h].power -= cmd.amount
        ctx.emit(ToyBid(house=h, track="wildlings", amount=cmd.amount))
    st.phase = "action"


def toy_action(ctx: Context) -> None:
    st = ctx.state
    for h in st.turn_order():
        req = Request(key=ctx.key("bid", h), kind="bid", house=h, prompt="bid for the fiefdoms",
                      default=Bid(track="fiefdoms", amount=0))
        cmd = ctx.ask(Ask(req, _bid_check("fiefdoms", st.houses[h].power)))
        st.houses[h].power -= cmd.amount
        ctx.emit(ToyBid(house=h, track="fiefdoms", amount=cmd.amount))
    if st.round >= 2:
        st.phase = "game_over"
    else:
        st.round += 1
        st.phase = "planning"


def toy_runners() -> dict[str, Any]:
    return {"planning": toy_planning, "action": toy_action}


# --- a toy parser for "bid TRACK N" lines -----------------------------------------------------


@dataclass
class ToyProblem:
    text: str

    def render(self) -> str:
        return self.text


@dataclass
class ToyTurnFile:
    commands: list[Command]
    problems: list[ToyProblem]
    warnings: tuple[ToyProblem, ...] = ()


def toy_parse(text: str, filename: str = "", **_: Any) -> ToyTurnFile:
    cmds: list[Command] = []
    errors: list[ToyProblem] = []
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#") or s.lower().startswith("game "):
            continue
        m = re.fullmatch(r"bid (\w+) (\d+)", s)
        if m:
            cmds.append(Bid(track=m[1], amount=int(m[2]), where=Where(filename, i)))
        else:
            errors.append(ToyProblem(f"line {i}:1: not understood: {s!r}"))
    return ToyTurnFile(cmds, errors)


def toy_format(cmd: Command) -> str:
    assert isinstance(cmd, Bid)
    return f"bid {cmd.track} {cmd.amount}"


def use_toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy rules and parser in place of the real ones."""
    monkeypatch.setattr(machine, "_runners", toy_runners)
    monkeypatch.setattr(machine, "lapsed", lambda *args: None)  # the toy asks for bids in its planning and action
    monkeypatch.setattr(parser, "parse_turn_file", toy_parse)
    monkeypatch.setattr(printer, "format_command", toy_format)


def make_game(root: Path, game_id: str = "toy") -> Path:
    """A four-house game folder with every house's key registered."""
    create_game(root, houses=HOUSES, game_id=game_id, seed="toy-seed")
    for h, k in KEYS.items():
        registry.register_key(root, h, PublicKey.from_key(k, h))
    return root


def sealed(house: str, body: str, *, rnd: int = 1, step: str = "planning", seq: int = 1, game: str = "toy",
           key: Ed25519PrivateKey | None = None) -> str:
    text = f"game {game} · house {house} · round {rnd} · {step} · seq {seq}\n{body}"
    return seal.sign(text, key or KEYS[house])


def drop(folder: Path, name: str, text: str) -> Path:
    path = folder / "inbox" / name
    path.write_text(text, encoding="utf-8")
    return path


def tree(root: Path, *, skip: tuple[str, ...] = ("log", "ledger.json", "ledger.sqlite", ".lock")) -> dict[str, bytes]:
    """Every file of a game folder by relative path (the log, its kept reading and the lock left out)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in skip and "secret" not in p.parts}


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_toy_game(monkeypatch)
    return make_game(tmp_path / "toy")


def run(root: Path, *files: Path, deadline: bool = False) -> batch.RunResult:
    return batch.adjudicate(root, files, deadline=deadline)


def state_of(root: Path):
    return GameDir.open(root).load_state()


def planning_bids(root: Path, amounts: dict[str, int] | None = None) -> None:
    amounts = amounts or dict.fromkeys(HOUSES, 1)
    for h, n in amounts.items():
        drop(root, f"{h}-1.txt", sealed(h, f"bid wildlings {n}\n"))


# --- the first run ----------------------------------------------------------------------------


def test_first_run_writes_snapshot_0000_setup_and_the_first_report(toy: Path):
    result = run(toy)
    assert result.exit_status == 0
    assert (toy / "states" / "setup.toml").is_file()
    assert (toy / "states" / "0000.toml").read_text() == (toy / "state.toml").read_text()
    assert (toy / "reports" / "0000-r1-planning.json").is_file(), "the step's one file of its reports"
    report = reports_of(toy) / "0000-r1-planning"
    for name in ["public.txt", "public.html", "report.json", *(f"{h}.{e}" for h in HOUSES for e in ("txt", "html"))]:
        assert (report / name).is_file(), name
    commitment = GameDir.open(toy).info().seed_commitment.removeprefix("sha256:")
    assert commitment in (report / "public.txt").read_text(), "the first report prints the seed commitment"
    pending = json.loads((toy / "pending.json").read_text())
    assert {h: [r["kind"] for r in reqs] for h, reqs in pending["houses"].items()} == {h: ["bid"] for h in HOUSES}
    assert "stark: 1 request" in (toy / "pending").read_text()


# --- accepting, rejecting, receipts -----------------------------------------------------------


def test_ruling_95_an_accepted_block_is_archived_alone_as_checked_and_its_receipt_restates_it(toy: Path):
    turn = sealed("stark", "bid wildlings 2\nbid wildlings lots\n")
    drop(toy, "stark.eml", "Dear moderator, my turn:\r\n\r\n" + turn.replace("\n", "  \r\n"))
    result = run(toy)
    assert result.accepted == ["000001-stark-r1-planning-seq1.txt"]
    archived = toy / "archive" / result.accepted[0]
    assert archived.read_bytes() == seal.normalise(turn).encode(), "the block alone: its normalised text and seal"
    receipt = (reports_of(toy) / "0001-r1-planning" / "receipts" / result.accepted[0]).read_text()
    assert "line 2: bid wildlings 2" in receipt
    assert "not understood: 'bid wildlings lots'" in receipt
    assert "Dear moderator" not in archived.read_text() and "ignored" not in receipt
    accept = [e for e in registry.read_log(toy) if e.get("action") == "accept"]
    assert [(e["house"], e["seq"], e["file"]) for e in accept] == [("stark", 1, f"archive/{result.accepted[0]}")]


def test_file_whose_seal_fails_is_rejected_unread_with_its_own_receipt(toy: Path):
    run(toy)
    text = sealed("stark", "bid wildlings 2\n").replace("bid wildlings 2", "bid wildlings 5")
    drop(toy, "stark.txt", text)
    before = (toy / "state.toml").read_bytes()
    result = run(toy)
    assert result.exit_status == 1 and result.accepted == []
    assert "bad-signature" in result.rejected[0].reasons[0]
    # A damaged seal is no house's: the receipt goes to the moderator only (ruling 300), and the run says so.
    receipts = list((toy / "refused").glob("0000-stark-*-moderator.txt"))
    assert len(receipts) == 1 and "Rejected: nothing in this file was read" in receipts[0].read_text()
    assert result.rejected[0].receipts == {"moderator": f"refused/{receipts[0].name}"}
    assert f"    receipt refused/{receipts[0].name}: for the moderator only" in "\n".join(result.lines())
    assert (toy / "state.toml").read_bytes() == before
    assert not any((toy / "archive").iterdir())


@pytest.mark.parametrize(
    ("kw", "code"),
    [({"game": "other"}, "wrong-game"), ({"rnd": 1, "step": "planning", "key": STRANGER}, "unknown-key"),
     ({"key": KEYS["lannister"]}, "wrong-house")],
)
def test_file_sealed_for_another_game_or_by_a_wrong_key_is_rejected(toy: Path, kw: dict, code: str):
    drop(toy, "f.txt", sealed("stark", "bid wildlings 1\n", **kw))
    result = run(toy)
    assert result.exit_status == 1
    assert f"[{code}]" in result.rejected[0].reasons[0]


def test_file_for_a_past_step_is_rejected(toy: Path):
    planning_bids(toy)
    run(toy)
    drop(toy, "late.txt", sealed("stark", "bid wildlings 3\n", seq=2))
    result = run(toy)
    assert "[wrong-step]" in result.rejected[0].reasons[0] and result.exit_status == 1


def test_unreadable_file_is_reported_with_exit_status_1(toy: Path, tmp_path: Path):
    missing = tmp_path / "gone.txt"
    result = run(toy, missing)
    assert result.exit_status == 1 and "cannot read the file" in result.rejected[0].reasons[0]


def test_huge_file_is_refused_unread(toy: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(intake, "MAX_INPUT_BYTES", 1000)
    drop(toy, "huge.txt", sealed("stark", "bid wildlings 1\n" + "# padding\n" * 200))
    result = run(toy)
    assert result.exit_status == 1 and "too large to hold turns" in result.rejected[0].reasons[0]
    assert not any((toy / "archive").iterdir())


def test_file_that_is_not_utf8_is_rejected(toy: Path):
    (toy / "inbox" / "bin.txt").write_bytes(b"\xff\xfe\x00garbage")
    result = run(toy)
    assert "[bad-encoding]" in result.rejected[0].reasons[0]


def test_ruling_96_running_twice_on_the_same_inbox_changes_nothing(toy: Path):
    planning_bids(toy, {"stark": 1, "lannister": 2})
    drop(toy, "bad.txt", "not a turn at all\n")
    first = run(toy)
    assert first.exit_status == 1
    snapshot, log_lines = tree(toy), (toy / "log").read_text()
    second = run(toy)
    assert second.accepted == [] and second.rejected == [] and second.exit_status == 0
    assert tree(toy) == snapshot
    assert (toy / "log").read_text() == log_lines


def test_ruling_92_later_seq_replaces_the_earlier_in_either_order_of_arrival(toy: Path, tmp_path: Path, monkeypatch):
    results = []
    for order in ((1, 2), (2, 1)):
        root = make_game(tmp_path / f"g{order[0]}")
        for seq in order:
            drop(root, f"{seq}.txt", sealed("stark", f"bid wildlings {4 if seq == 1 else 1}\n", seq=seq))
        planning_bids(root, dict.fromkeys(HOUSES[1:], 0))
        result = run(root)
        assert result.exit_status == 0 and len(result.accepted) == 5
        results.append(state_of(root))
    assert results[0].houses["stark"].power == results[1].houses["stark"].power == 4


def test_ruling_94_later_seq_in_a_later_run_replaces_unused_answers(toy: Path):
    drop(toy, "s1.txt", sealed("stark", "bid wildlings 4\n", seq=1))
    run(toy)
    drop(toy, "s2.txt", sealed("stark", "bid wildlings 2\n", seq=2))
    planning_bids(toy, dict.fromkeys(HOUSES[1:], 0))
    run(toy)
    assert state_of(toy).houses["stark"].power == 3
    assert [a["id"] for a in state_of(toy).answers] == []


def test_the_same_file_given_twice_in_one_run_is_taken_once(toy: Path):
    path = drop(toy, "stark.txt", sealed("stark", "bid wildlings 1\n"))
    copy = toy.parent / "copy.txt"
    copy.write_bytes(path.read_bytes())
    result = run(toy, copy, path)
    assert result.accepted == ["000001-stark-r1-planning-seq1.txt"] and result.rejected == []


def test_seq_not_higher_than_an_accepted_one_is_refused(toy: Path):
    drop(toy, "a.txt", sealed("stark", "bid wildlings 1\n", seq=2))
    run(toy)
    drop(toy, "b.txt", sealed("stark", "bid wildlings 3\n", seq=2))
    result = run(toy)
    assert "[replayed]" in result.rejected[0].reasons[0]


def test_house_with_nothing_pending_is_accepted_and_told_its_answers_stand(toy: Path):
    planning_bids(toy)
    run(toy)  # planning resolved; the action phase asks Baratheon first (Iron Throne order)
    order = state_of(toy).turn_order()
    last = order[-1]
    drop(toy, "later.txt", sealed(last, "bid fiefdoms 1\n", step="action"))
    result = run(toy)
    receipt = (reports_of(toy) / result.steps[0] / "receipts" / result.accepted[0]).read_text()
    assert "had nothing pending" in receipt and "instructions for later in the round" in receipt


def test_answer_the_engine_cannot_use_is_named_in_the_receipt(toy: Path):
    drop(toy, "s.txt", sealed("stark", "bid wildlings 9\n"))
    result = run(toy)
    receipt = (reports_of(toy) / result.steps[-1] / "receipts" / result.accepted[0]).read_text()
    assert "What became of these answers:" in receipt
    assert "line 2: refused: a bid of 9 is more than the 5 power available" in receipt and "(R082)" in receipt


def test_ruling_90_file_sealed_for_the_next_step_is_kept_and_applied_when_it_opens(toy: Path):
    order = ["baratheon", "lannister", "stark", "greyjoy"]  # the four-player Iron Throne order
    drop(toy, "early.txt", sealed(order[0], "bid fiefdoms 2\n", step="action"))
    first = run(toy)
    assert first.exit_status == 0 and first.rejected[0].retry
    # The "not yet" receipt goes to the house whose key sealed the file; the file waits in the inbox.
    assert first.rejected[0].receipts == {order[0]: f"refused/0000-early-{first.rejected[0].sha256[:8]}-{order[0]}.txt"}
    assert "Not yet" in (toy / first.rejected[0].receipts[order[0]]).read_text()
    assert (toy / "inbox" / "early.txt").is_file()
    planning_bids(toy)
    second = run(toy)
    assert second.steps == ["0001-r1-action", "0002-r1-action"], "applied in the same run, once its step opened"
    assert state_of(toy).houses[order[0]].power == 2
    assert not any((toy / "inbox").iterdir()), "taken files leave the inbox"
    assert run(toy).steps == []


def test_unsealed_file_is_accepted_on_the_moderators_word(toy: Path):
    text = "game toy · house stark · round 1 · planning · seq 1\nbid wildlings 2\n"
    registry.moderator_accept(toy, text, house="stark", reason="key lost in the mail")
    drop(toy, "unsealed.txt", text)
    result = run(toy)
    assert result.accepted == ["000001-stark-r1-planning-seq1.txt"]
    receipt = next(reports_of(toy).glob("0001-*/receipts/*.txt")).read_text()
    assert "unsealed, on the moderator's word" in receipt


def test_unsealed_file_without_the_moderators_word_is_rejected(toy: Path):
    drop(toy, "unsealed.txt", "game toy · house stark · round 1 · planning · seq 1\nbid wildlings 2\n")
    result = run(toy)
    assert "[no-seal]" in result.rejected[0].reasons[0]


def test_ruling_95_mail_with_two_sealed_turns_archives_each_on_its_own(toy: Path):
    text = sealed("stark", "bid wildlings 1\n") + "\n-- \nand Lannister's:\n" + sealed("lannister", "bid wildlings 2\n")
    drop(toy, "both.eml", text)
    result = run(toy)
    assert result.accepted == ["000001-lannister-r1-planning-seq1.txt", "000002-stark-r1-planning-seq1.txt"]
    for name in result.accepted:
        assert (toy / "archive" / name).read_text().startswith("game toy")


# --- the deadline ------------------------------------------------------------------------------


def test_ruling_91_deadline_fills_only_the_open_requests_and_the_game_goes_on(toy: Path):
    planning_bids(toy, {"stark": 2})
    run(toy)
    result = run(toy, deadline=True)
    st = state_of(toy)
    assert st.phase == "action" and st.houses["stark"].power == 3
    assert [p["kind"] for p in st.pending] == ["bid"], "the action phase's first bid is asked, not defaulted"
    snap = GameDir.open(toy)
    meta = batch.Snapshot.from_toml((toy / "states" / "0002.toml").read_text(), where="0002")
    assert meta.deadline and len(meta.defaults) == 3
    assert [e["at"] for e in registry.read_log(snap.root) if e.get("action") == "deadline"] == [1]
    greyjoy = (reports_of(toy) / result.steps[0] / "greyjoy.txt").read_text()
    assert "default" in greyjoy.lower()
    assert result.notes == [f"deadline: House {h} took the default of its bid: bid for the wildlings"
                            for h in ("Baratheon", "Lannister", "Greyjoy")], "each house and request is named"


def test_ruling_91_deadline_does_not_fill_requests_that_open_in_the_same_run(toy: Path):
    run(toy)
    planning_bids(toy)
    run(toy, deadline=True)
    st = state_of(toy)
    assert st.phase == "action" and all(st.houses[h].power == 4 for h in HOUSES)
    assert st.pending and st.pending[0]["kind"] == "bid"


def test_deadline_with_nothing_pending_uses_no_default(toy: Path):
    planning_bids(toy)
    run(toy)
    for _ in range(20):  # every later request is answered by the deadline, one step at a time
        if state_of(toy).phase == "game_over":
            break
        run(toy, deadline=True)
    assert state_of(toy).phase == "game_over"
    result = run(toy, deadline=True)
    assert "nothing is pending" in result.notes[0]


# --- status -------------------------------------------------------------------------------------


def test_status_says_what_each_house_owes_and_since_when(toy: Path):
    run(toy)
    planning_bids(toy, {"stark": 1})
    run(toy)
    view = batch.status(toy)
    assert (view["round"], view["step"], view["snapshot"]) == (1, "planning", 1)
    assert view["houses"]["stark"] == []
    assert [r["since"] for r in view["houses"]["lannister"]] == [0], "asked since the first report"


def test_status_of_a_game_never_adjudicated_says_so(toy: Path, capsys: pytest.CaptureFixture[str]):
    assert cli_main(["status", str(toy)]) == 0
    assert "no step resolved yet" in capsys.readouterr().out


@pytest.mark.parametrize("how", ["replaced", "in place"])
def test_ruling_98_status_refuses_a_damaged_state_file(toy: Path, how: str):
    run(toy)
    if how == "replaced":  # an editor writing a new file
        (toy / "state.toml.new").write_text("round = 'nonsense'\n")
        os.replace(toy / "state.toml.new", toy / "state.toml")
    else:  # a shell's '>': the newest snapshot is the same file (ruling 390)
        (toy / "state.toml").write_text("round = 'nonsense'\n")
    with pytest.raises(batch.CorruptFolder, match="replay --repair"):
        batch.status(toy)


def test_ruling_390_state_toml_is_the_newest_snapshot_written_once(toy: Path):
    run(toy)
    planning_bids(toy)
    run(toy)
    states = toy / "states"
    assert os.path.samefile(toy / "state.toml", states / "0001.toml"), "one file, two names"
    assert os.stat(states / "0000.toml").st_nlink == 1, "the older snapshot keeps its own name only"
    assert (states / "0000.toml").read_bytes() != (states / "0001.toml").read_bytes()
    assert not list(toy.glob(".*.tmp"))


def test_ruling_390_a_readable_edit_of_state_toml_in_place_is_refused_by_every_command(toy: Path):
    """A write in place that still reads as a snapshot changes the commit point too: the log's SHA-256
    of the snapshot tells, and nothing is changed until replay --repair rebuilds both."""
    run(toy)
    planning_bids(toy)
    run(toy)
    text = (toy / "state.toml").read_text()
    edited = re.sub(r"(?m)^round = 1$", "round = 2", text, count=1)
    assert edited != text
    (toy / "state.toml").write_text(edited)  # in place: the snapshot's file too
    assert (toy / "states" / "0001.toml").read_text() == edited
    before = tree(toy)
    for command in (batch.status, run):
        with pytest.raises(batch.CorruptFolder, match=r"changed in place .*ruling 390.*replay --repair"):
            command(toy)
    assert tree(toy) == before, "nothing changed"
    notes = " ".join(batch.repair(toy).notes)
    assert "rebuilt states/0001.toml and state.toml" in notes and "0001.toml.damaged" in notes
    assert (toy / "state.toml").read_text() == text and os.path.samefile(toy / "state.toml", toy / "states" / "0001.toml")


def test_ruling_390_without_hard_links_state_toml_is_a_copy_of_the_same_bytes(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch):  # fmt: skip
    use_toy_game(monkeypatch)
    linked, copied = make_game(tmp_path / "a" / "toy"), make_game(tmp_path / "b" / "toy")
    for root in (linked, copied):
        if root == copied:
            def no_links(src, dst, *a, **kw):
                raise OSError(errno.EPERM, "Operation not permitted", str(dst))

            monkeypatch.setattr(os, "link", no_links)  # a file system without hard links
        run(root)
        planning_bids(root)
        run(root)
    assert not os.path.samefile(copied / "state.toml", copied / "states" / "0001.toml")
    assert tree(copied) == tree(linked), "the same bytes, two files"


# --- the lock, the folder, the command line -----------------------------------------------------


def test_second_run_while_the_lock_is_held_is_refused_clearly(toy: Path):
    with GameDir.open(toy).lock(), pytest.raises(GameLocked, match="another maester run holds its lock"):
        run(toy)


def test_cli_exit_status_0_1_and_2(toy: Path, capsys: pytest.CaptureFixture[str]):
    assert cli_main(["adjudicate", str(toy)]) == 0
    drop(toy, "bad.txt", "hello\n")
    assert cli_main(["adjudicate", str(toy)]) == 1
    assert cli_main(["adjudicate", str(toy.parent / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert "is not a game folder" in err and "Traceback" not in err


def test_cli_refuses_a_corrupt_state_file_and_points_at_replay(toy: Path, capsys: pytest.CaptureFixture[str]):
    run(toy)
    (toy / "state.toml").write_text("this is not toml [[[\n")
    assert cli_main(["adjudicate", str(toy)]) == 2
    assert cli_main(["status", str(toy)]) == 2
    err = capsys.readouterr().err
    assert err.count("replay --repair") == 2 and "Traceback" not in err


def test_cli_refuses_an_unwritable_game_folder(toy: Path, capsys: pytest.CaptureFixture[str]):
    import os

    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    (toy / "states").chmod(0o500)
    try:
        assert cli_main(["adjudicate", str(toy)]) == 2
    finally:
        (toy / "states").chmod(0o700)
    assert "cannot read and write" in capsys.readouterr().err


def test_cli_a_disk_error_in_the_middle_of_a_run_is_one_clear_line_and_the_next_run_finishes(
    toy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    from adjudicator.util import fileio

    run(toy)
    planning_bids(toy)
    real = fileio.stage

    def disk_full(path, *a, **kw):  # the new snapshot's bytes, written beside state.toml (ruling 390)
        if Path(path).name == "state.toml":
            raise OSError(28, "No space left on device", str(path))
        return real(path, *a, **kw)

    monkeypatch.setattr(fileio, "stage", disk_full)
    assert cli_main(["adjudicate", str(toy)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "state.toml" in err and "Traceback" not in err
    assert not (toy / "states" / "0001.toml").exists()
    monkeypatch.setattr(fileio, "stage", real)
    assert cli_main(["adjudicate", str(toy)]) == 0
    assert state_of(toy).phase == "action", "the archived files were applied by the next run"


def test_cli_a_file_where_the_game_folder_should_be_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    (tmp_path / "notagame").write_text("hello")
    assert cli_main(["adjudicate", str(tmp_path / "notagame")]) == 2
    assert cli_main(["status", str(tmp_path / "notagame")]) == 2
    assert cli_main(["replay", str(tmp_path / "notagame")]) == 2
    err = capsys.readouterr().err
    assert err.count("is not a game folder") == 3 and "Traceback" not in err


def test_cli_status_prints_text_and_json(toy: Path, capsys: pytest.CaptureFixture[str]):
    run(toy)
    capsys.readouterr()
    assert cli_main(["status", str(toy)]) == 0
    assert "round 1, planning" in capsys.readouterr().out
    assert cli_main(["status", str(toy), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["houses"]["stark"][0]["since"] == 0


def test_adjudicate_all_runs_every_game_folder_in_two_processes(tmp_path: Path, monkeypatch):
    use_toy_game(monkeypatch)
    for i in range(3):
        make_game(tmp_path / "games" / f"g{i}", game_id=f"g{i}")
    results = many.adjudicate_all(tmp_path / "games", jobs=2)
    assert sorted(Path(k).name for k in results) == ["g0", "g1", "g2"]
    assert all(code == 0 for code, _ in results.values())
    assert all((tmp_path / "games" / f"g{i}" / "states" / "0000.toml").is_file() for i in range(3))


def test_ruling_94_answers_already_used_stand_when_a_later_file_comes(toy: Path):
    planning_bids(toy, dict.fromkeys(HOUSES, 0))
    run(toy)  # the action phase asks Baratheon, Lannister, Stark, Greyjoy in turn
    drop(toy, "stark-a1.txt", sealed("stark", "bid fiefdoms 1\n", step="action"))
    for h in ("baratheon", "lannister"):
        drop(toy, f"{h}-a1.txt", sealed(h, "bid fiefdoms 0\n", step="action"))
    run(toy)
    assert state_of(toy).pending[0]["house"] == "greyjoy" and state_of(toy).houses["stark"].power == 4
    drop(toy, "stark-a2.txt", sealed("stark", "bid fiefdoms 3\n", step="action", seq=2))
    drop(toy, "greyjoy-a1.txt", sealed("greyjoy", "bid fiefdoms 0\n", step="action"))
    result = run(toy)
    assert result.exit_status == 0 and state_of(toy).round == 2
    assert state_of(toy).houses["stark"].power == 4, "the decision taken with seq 1 stands"
    stark = (reports_of(toy) / result.steps[-1] / "stark.txt").read_text()
    assert "bid fiefdoms 3" in stark and "not needed" in stark


def test_ruling_96_a_refused_file_sent_again_unchanged_gives_nothing_new(toy: Path):
    bad = sealed("stark", "bid wildlings 1\n", key=STRANGER)
    drop(toy, "first.txt", bad)
    assert run(toy).exit_status == 1
    assert [p.name for p in (toy / "refused" / "files").iterdir()] == ["first.txt"], "refused: out of the inbox"
    drop(toy, "again.txt", bad)
    result = run(toy)
    assert result.rejected == [] and result.exit_status == 0
    assert len([p for p in (toy / "refused").iterdir() if p.is_file()]) == 1, "one receipt"
    assert [p.name for p in (toy / "refused" / "files").iterdir()] == ["first.txt"], "the same bytes: kept once"
    assert not any((toy / "inbox").iterdir())


def test_ruling_97_a_deadline_of_an_interrupted_run_is_completed_without_the_option(toy: Path, monkeypatch):

    planning_bids(toy, {"stark": 2})
    run(toy)
    real = os.link

    def killed(src, dst, *a, **kw):  # at the snapshot: its bytes linked into states/ (ruling 390)
        if Path(dst).parent.name == "states":
            raise KeyboardInterrupt("killed")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(os, "link", killed)
    with pytest.raises(KeyboardInterrupt):
        run(toy, deadline=True)
    monkeypatch.setattr(os, "link", real)
    run(toy)  # without --deadline: the logged deadline is carried out all the same
    assert state_of(toy).phase == "action"
    run(toy, deadline=True)  # a new command: a second deadline, for the requests open now
    deadlines = [e["at"] for e in registry.read_log(toy) if e.get("action") == "deadline"]
    assert deadlines == [1, 2]
