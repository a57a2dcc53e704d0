"""Follow-up files and lines that stand (issue 15): fewer mail round trips for a mistake.

* A file with a higher ``seq`` replaces the house's unused answers of the step (ruling 94); the
  run and the receipt now say so ("dropped 2 answers of seq 1: ..."), and a header ending in
  ``add`` adds to them instead (ruling 120).
* A house's orders: the lines that are valid stand; an area with a refused line, or none, stays
  open and is the only thing asked again; at the deadline only the open areas take the filler.
* The turn-file skeleton comments out the lines refused in the step.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clikit import report_text, reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.engine import machine
from adjudicator.engine.events import DefaultUsed
from adjudicator.engine.events.action import OrdersRevealed, OrdersWaiting
from adjudicator.folder import batch, registry, stepreports
from adjudicator.folder.check import check_turn_file
from adjudicator.folder.gamedir import create_game
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.reports.report import held_answers
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile.header import Header, HeaderError, format_header, read_header
from adjudicator.turnfile.parser import parse_turn_file

FOUR = ["stark", "lannister", "greyjoy", "baratheon"]
STARK = "Winterfell: march +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +0\n"
OTHERS = {
    "lannister": "Lannisport: defense +1\nStoney Sept: support +0\nThe Golden Sound: raid\nPort of Lannisport: consolidate\n"
                 "raven: pass\n",
    "greyjoy": "Pyke: defense +1\nGreywater Watch: defense +1\nIronman's Bay: support +0\nPort of Pyke: consolidate\n",
    "baratheon": "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: support +0\n",
}


@pytest.fixture
def folder(tmp_path: Path) -> tuple[Path, dict[str, Ed25519PrivateKey]]:
    root = tmp_path / "winter"
    create_game(root, houses=FOUR, game_id="winter", seed="followups")
    keys = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 7] * 32)) for i, h in enumerate(FOUR)}
    for h, k in keys.items():
        registry.register_key(root, h, PublicKey.from_key(k, h))
    batch.adjudicate(root)
    return root, keys


def send(game: tuple[Path, dict[str, Ed25519PrivateKey]], house: str, seq: int, body: str, *, add: bool = False,
         step: str = "planning") -> batch.RunResult:
    root, keys = game
    text = format_header(Header("winter", house, 1, step, seq, add=add)) + "\n" + body
    (root / "inbox" / f"{house}-{seq}.txt").write_text(seal.sign(text, keys[house]), encoding="utf-8")
    return batch.adjudicate(root)


def receipt(root: Path, house: str, seq: int) -> str:
    (path,) = reports_of(root).glob(f"*/receipts/*-{house}-r*-seq{seq}.txt")
    return path.read_text(encoding="utf-8")


def private(root: Path, house: str) -> str:
    return report_text(root, stepreports.steps(root)[-1].label, f"{house}.txt")


# --- the header keyword ------------------------------------------------------------------------


def test_ruling_120_the_header_reads_and_writes_add() -> None:
    h = read_header("game winter · house Stark · round 2 · action · seq 3 · add")
    assert h == Header("winter", "stark", 2, "action", 3, add=True)
    assert format_header(h) == "game winter · house stark · round 2 · action · seq 3 · add"
    assert read_header(format_header(h)) == h
    assert not read_header("game winter | house stark | round 2 | action | seq 3").add
    with pytest.raises(HeaderError):
        read_header("game winter · house stark · round 2 · action · seq 3 · append")


# --- ruling 94: a replacement is told ------------------------------------------------------------


def test_ruling_94_a_replacing_file_is_flagged_in_the_run_and_in_its_receipt(folder) -> None:  # type: ignore[no-untyped-def]
    """A small seq 2 wiped the waiting instructions of seq 1 and the moderator's run said nothing."""
    root, _ = folder
    send(folder, "stark", 1, "support stark in every combat\nif attacked in Winterfell: play catelyn stark\n")
    result = send(folder, "stark", 2, STARK)
    assert result.notes == [
        "archive/000002-stark-r1-planning-seq2.txt: dropped 2 answers of seq 1: support stark in every combat; "
        "if attacked in Winterfell: play Catelyn Stark (seq 2 replaces them; its receipt tells the player)"]
    text = receipt(root, "stark", 2)
    assert "Replaced by this file: dropped 2 answers of seq 1;" in text
    assert "  support stark in every combat\n  if attacked in Winterfell: play Catelyn Stark\n" in text
    assert "write 'add' at the end of" in text


def test_ruling_120_a_file_that_says_add_drops_nothing(folder) -> None:  # type: ignore[no-untyped-def]
    root, _ = folder
    send(folder, "stark", 1, "support stark in every combat\n")
    result = send(folder, "stark", 2, STARK, add=True)
    assert not any("dropped" in n for n in result.notes)
    assert "Replaced by this file" not in receipt(root, "stark", 2)
    waiting = private(root, "stark").split("YOUR ANSWERS WAITING")[1]
    assert "support stark in every combat" in waiting and "Winterfell: march +1" in waiting


def test_ruling_120_check_warns_of_a_replacement_only_without_add() -> None:
    state = new_game(FOUR, seed="followups", game_id="winter")
    step = machine.advance(state, [{"id": "stark/1.planning/seq1/L2", "house": "stark", "round": 1, "text":
                                    "support stark in every combat",
                                    "command": {"type": "Support", "side": "stark"}}])
    for add, warned in ((False, True), (True, False)):
        text = format_header(Header("winter", "stark", 1, "planning", 2, add=add)) + "\n" + STARK
        tf = check_turn_file(parse_turn_file(text), step.state, engine=False)
        assert any(w.code == "W207" for w in tf.warnings) is warned
        if warned:
            assert "support stark in every combat" in next(w.message for w in tf.warnings if w.code == "W207")


# --- ruling 121: orders that stand -------------------------------------------------------------


def test_ruling_121_one_bad_order_line_does_not_throw_out_the_others(folder) -> None:  # type: ignore[no-untyped-def]
    """One line not understood ("march" alone, E111) left White Harbor without an order, and the valid
    orders of the file were refused with it; the player had to send the whole set again."""
    root, _ = folder
    send(folder, "stark", 1, "Winterfell: march +1\nWhite Harbor: march\nThe Shivering Sea: support +0\n")
    text = private(root, "stark")
    assert "Orders: your orders for 2 areas stand; no order yet for White Harbor" in " ".join(text.split())
    assert "areas open: White Harbor" in text and "orders standing: The Shivering Sea: support +0; Winterfell:" in text
    # The missing line alone, added to the rest: the set is complete.
    for house, body in OTHERS.items():
        send(folder, house, 1, body)
    result = send(folder, "stark", 2, "White Harbor: defense +1\n", add=True)
    assert result.state is not None and result.state.phase == "action"
    report = report_text(root, result.steps[-1], "public.txt")
    assert ("Stark: Defense +1 in White Harbor, March +1 in Winterfell, Support +0 in The Shivering Sea."
            in " ".join(report.split()))


def state_with(orders: dict[str, str]) -> GameState:
    """A fresh game with Stark's order lines in the pool (as the run names them)."""
    from adjudicator.engine.core.context import pool_entry
    from adjudicator.turnfile.printer import format_command

    state = new_game(FOUR, seed="followups", game_id="winter")
    cmds = parse_turn_file("".join(f"{a}: {t}\n" for a, t in orders.items())).commands
    entries = [pool_entry(id=f"stark/1.planning/seq1/L{i}", house="stark", round=1, command=c, text=format_command(c))
               for i, c in enumerate(cmds, 2)]
    return machine.advance(state, entries).state


def test_ruling_121_the_deadline_fills_only_the_open_area(tmp_path: Path) -> None:
    from adjudicator.folder.defaults import record_defaults

    state = state_with({"Winterfell": "march +1", "The Shivering Sea": "support +1"})
    (stark,) = [r for r in machine.advance(state).requests if r.house == "stark"]
    assert stark.context["orders_standing"] == {"the_shivering_sea": "support+1", "winterfell": "march+1"}
    assert stark.context["areas_open"] == ["white_harbor"]
    assert {(c.area, c.token) for c in stark.default} == {  # type: ignore[union-attr]
        ("winterfell", "march+1"), ("the_shivering_sea", "support+1"), ("white_harbor", "defense+1")}
    assert len(stark.uses) == 2
    # The moderator's deadline for every house: Stark's two lines stand, the filler takes White Harbor.
    import copy

    late = copy.deepcopy(state)
    record_defaults(late, machine.advance(state).requests)
    step = machine.advance(late)
    revealed = next(e for e in step.events if isinstance(e, OrdersRevealed)).orders
    assert {o for o in revealed if o[1] == "stark"} == {
        ("winterfell", "stark", "march+1"), ("the_shivering_sea", "stark", "support+1"), ("white_harbor", "stark", "defense+1")}
    assert any(isinstance(e, DefaultUsed) and e.house == "stark" for e in step.events)
    # The lines that stood were taken up by the default: no longer waiting, they never expire as "not needed".
    used = set(step.state.segment.used) if step.state.segment else set()
    assert not [a for a in step.state.answers if a["id"] in stark.uses and a["id"] not in used]
    assert held_answers(step.state, "stark") == []


def test_ruling_121_an_older_line_over_the_token_copies_is_refused_and_its_area_stays_open() -> None:
    state = state_with({"Winterfell": "defense +1", "White Harbor": "defense +1", "The Shivering Sea": "defense +1"})
    step = machine.advance(state)
    (stark,) = [r for r in step.requests if r.house == "stark"]
    assert stark.context["areas_open"] == ["winterfell"]
    waiting = [e for e in step.events if isinstance(e, OrdersWaiting)]
    assert [w.standing for w in waiting] == [("White Harbor: defense +1", "The Shivering Sea: defense +1")]


def test_ruling_121_orders_that_all_stand_leave_no_waiting_note() -> None:
    state = state_with({"Winterfell": "march +1", "White Harbor": "defense +1", "The Shivering Sea": "support +0"})
    step = machine.advance(state)
    assert "stark" not in {r.house for r in step.requests}
    assert not [e for e in step.events if isinstance(e, OrdersWaiting)]
