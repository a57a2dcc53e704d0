"""A game through real mail, the moderator's loop unattended (issue 15, "Done when").

Robots mail sealed turns into a Maildir (some answering ahead, for the step after the open one);
``maester adjudicate --maildir`` takes them; ``maester outbox --key --send`` mails the reports to
an SMTP server on loopback (aiosmtpd), but only every third run, so that several runs, some of
which advance two steps at once, go by between two mailings. A stranger and a house sealing for
another house mail refused files on the way. At the end every event line of every private text
report of every step has reached its player's mail exactly once, each refused file's receipt the
house whose key sealed it (never the address it came from), and every mail that arrived is its
``.eml`` in ``outbox/`` byte for byte.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from clikit import report_text
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import shapes
from mail.events import NOTHING, event_lines
from mail.loopback import LoopbackController, Recorder, mails_to, run_server

from adjudicator.cli import main as cli_main
from adjudicator.engine.core.context import Request
from adjudicator.folder import audit, batch, registry, stepreports
from adjudicator.folder.gamedir import GameDir
from adjudicator.game.board import Board
from adjudicator.mail.recipe import written_mail
from adjudicator.robots.players import Robot
from adjudicator.seals import seal
from adjudicator.seals.keys import write_key_pair

STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([6] * 32))
FORGER = "mallory@evil.example"
LIST = "game-list@lists.example"
RUNS = 24
MAIL_EVERY = 3  # runs between two mailings


@pytest.fixture(scope="module")
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture(scope="module")
def smtp(recorder: Recorder) -> Iterator[LoopbackController]:
    yield from run_server(recorder)


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")





def steps_written(out: str) -> int:
    return len(re.findall(r"^  wrote reports/", out, re.M))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, smtp: LoopbackController) -> dict:
    """Play the loop; return the game folder and what each run did."""
    tmp = tmp_path_factory.mktemp("loop")
    root = shapes.make_game(tmp / shapes.GAME)
    registry.register_key(root, "moderator", shapes.MODERATOR.public, email=shapes.MODERATOR_EMAIL)
    (root / "game.toml").write_text((root / "game.toml").read_text() + f'\n[mail]\nlist = "{LIST}"\n')
    write_key_pair(tmp / "moderator", shapes.MODERATOR)
    box = tmp / "Maildir"
    shapes.maildir(box, [])
    robots = {h: Robot(h, shapes.KEYS[h], random.Random(i), chaos=0.0) for i, h in enumerate(shapes.HOUSES)}
    board = Board.classic()
    outbox = ["outbox", str(root), "--key", str(tmp / "moderator"), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    runs: list[int] = []  # steps written by each run
    mailings: list[int] = []  # the run after which the mail went out
    n, stalled, last = 100, 0, None
    capsys_out = tmp / "out.txt"
    for run in range(RUNS):
        state = GameDir(root).load_state()
        messages: list[bytes] = []
        requests = [Request.from_dict(p) for p in state.pending]
        for house, robot in robots.items():
            sealed = robot.turn_file(state, requests, board, shapes.GAME)
            if sealed is not None:
                n += 1
                messages.append(shapes.plain(house, sealed, n))
        if state.phase == "planning" and requests:  # one house answers ahead: a file for the action phase
            house = shapes.HOUSES[run % 3]
            robots[house].seq += 1
            early = f"game {shapes.GAME} · house {house} · round {state.round} · action · seq {robots[house].seq}\n"
            n += 1
            messages.append(shapes.plain(house, seal.sign(early + "# ready for the action phase\n", shapes.KEYS[house]), n))
        if run == 4:  # a file sealed with Stark's key for Lannister, and a stranger's: both from a forger
            wrong = shapes.turn("lannister", 90, "# Stark's key, Lannister's name", key="stark")
            strange = seal.sign(f"game {shapes.GAME} · house baratheon · round 1 · planning · seq 91\n# hello\n", STRANGER)
            messages += [shapes.forged(wrong, 900), shapes.forged(strange, 901)]
        shapes.maildir(box, messages)
        keys = sorted(r.key for r in requests)
        stalled = stalled + 1 if keys == last else 0
        last = keys
        args = ["adjudicate", str(root), "--maildir", str(box)] + (["--deadline"] if stalled >= 2 else [])
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = cli_main(args)
        assert code in (0, 1), buf.getvalue()
        capsys_out.write_text(capsys_out.read_text() + buf.getvalue() if capsys_out.exists() else buf.getvalue())
        runs.append(steps_written(buf.getvalue()))
        if run % MAIL_EVERY == MAIL_EVERY - 1:
            with contextlib.redirect_stdout(io.StringIO()):
                assert cli_main(outbox) == 0
            mailings.append(run)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(outbox) == 0
    return {"root": root, "runs": runs, "mailings": mailings, "out": capsys_out.read_text()}


def test_the_loop_ran_several_steps_between_mailings(played: dict) -> None:
    runs = played["runs"]
    assert sum(runs) >= 20, runs
    assert sum(1 for r in runs if r >= 2) >= 2, f"runs advancing two steps or more: {runs}"
    between = [sum(runs[a + 1 : b + 1]) for a, b in zip([-1, *played["mailings"]], played["mailings"])]
    assert sum(1 for s in between if s >= 2) >= 3, f"steps between mailings: {between}"
    assert GameDir(played["root"]).load_state().round >= 2


@pytest.mark.parametrize("house", shapes.HOUSES)
def test_every_event_line_of_every_step_reaches_its_player_exactly_once(played: dict, recorder: Recorder,
                                                                       house: str) -> None:  # fmt: skip
    root: Path = played["root"]
    labels = [s.label for s in stepreports.steps(root)]
    mails = mails_to(recorder, shapes.EMAILS[house])
    assert 0 < len(mails) <= len({*played["mailings"], RUNS - 1}), "at most one mail a mailing, and only with news"
    carried: list[str] = [label for msg in mails for label in str(msg["X-Maester-Steps"]).split() if label != "none"]
    assert carried == sorted(set(carried)), "each step in one mail only, in order"
    assert carried == labels[: len(carried)], "every step up to the last mail; the rest waits for news (ruling 313)"
    assert len(carried) >= len(labels) - 3
    expected: dict[str, int] = {}
    for label in carried:
        for name in (f"{house}.txt", "public.txt"):
            for line in event_lines(seal.normalise(report_text(root, label, name))):
                expected[line] = expected.get(line, 0) + 1
    assert expected, "the reports tell events"
    got: dict[str, int] = dict.fromkeys(expected, 0)
    for msg in mails:
        assert NOTHING not in text_of(msg).split("\n")
        for line in event_lines(text_of(msg)):
            assert line in got, f"a line no report of the steps told: {line!r}"
            got[line] += 1
    assert got == expected, "every event line, as often as the reports hold it: exactly once each"


def test_each_refused_file_reaches_the_house_whose_key_sealed_it_and_never_the_forger(played: dict,
                                                                                     recorder: Recorder) -> None:  # fmt: skip
    root: Path = played["root"]
    receipts = sorted(p.name for p in (root / "refused").glob("*.txt"))
    wrong = [n for n in receipts if n.endswith("-stark.txt") and "wrong-house" in (root / "refused" / n).read_text()]
    strange = [n for n in receipts if n.endswith("-moderator.txt") and "unknown-key" in (root / "refused" / n).read_text()]
    assert len(wrong) == 1 and len(strange) == 1, receipts
    assert f"receipt refused/{wrong[0]}: for House Stark (stark@players.example), with its next mail" in played["out"]
    stark = "\n".join(text_of(m) for m in mails_to(recorder, shapes.EMAILS["stark"]))
    assert stark.count(f"[refused/{wrong[0]}]") == 1
    assert (root / "refused" / wrong[0]).read_text().rstrip("\n") in stark
    for house in ("lannister", "baratheon"):
        text = "\n".join(text_of(m) for m in mails_to(recorder, shapes.EMAILS[house]))
        assert wrong[0] not in text and strange[0] not in text
    moderator = "\n".join(text_of(m) for m in mails_to(recorder, shapes.MODERATOR_EMAIL))
    assert moderator.count(f"[refused/{strange[0]}]") == 1 and FORGER in moderator
    assert mails_to(recorder, FORGER) == []


def test_every_mail_that_arrived_is_its_eml_and_the_record_replays(played: dict, recorder: Recorder) -> None:
    root: Path = played["root"]
    mailed = [e for e in registry.read_log(root) if e.get("action") == "mailed"]
    assert len(mailed) == len(recorder.received) == len({e["file"] for e in mailed})
    arrived = sorted(data.rstrip(b"\r\n") for _, _, data in recorder.received)
    assert arrived == sorted(written_mail(root, e["file"]).rstrip(b"\r\n") for e in mailed)  # kept as recipes
    assert all("sealed for a step not open yet" in w for w in batch.waiting(root)), "the inbox holds what waits"
    assert audit.replay(root).ok


def test_no_reader_gets_another_houses_private_part(played: dict, recorder: Recorder) -> None:
    """Each house's address gets its own private reports, JSON and seal only; the game list and the
    moderator get the public reports (the list never a receipt)."""
    owner = {shapes.EMAILS[h]: h for h in shapes.HOUSES} | {shapes.MODERATOR_EMAIL: "moderator", LIST: "public"}
    seen = set()
    for _, rcpt, data in recorder.received:
        (address,) = rcpt
        reader = owner[address]
        seen.add(reader)
        msg = BytesParser(policy=policy.default).parsebytes(data)
        assert isinstance(msg, EmailMessage) and msg["X-Maester-House"] == reader
        text, page = text_of(msg), str(msg.get_body(("html",)).get_content())  # type: ignore[union-attr]
        names = [str(part.get_filename()) for part in msg.iter_attachments() if part.get_filename()]
        for house in shapes.HOUSES:
            if house == reader:
                continue
            assert f"PRIVATE report for House {house.title()}" not in text + page, (reader, house)
            assert not [n for n in names if f"-{house}." in n], (reader, names)
        if reader in shapes.HOUSES and msg["X-Maester-Steps"] != "none":
            assert f"PRIVATE report for House {reader.title()}" in text, "the marker looked for is the real one"
        if reader == "public":
            assert "PRIVATE" not in text + page and "Receipt for" not in text and "FILES NO" not in text
    assert seen == {*shapes.HOUSES, "moderator", "public"}
