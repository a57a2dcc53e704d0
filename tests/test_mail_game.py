"""A 6-player game through real mail, the players answering one at a time (issue 27, "Done when").

Each player's turn is a mail piped to ``maester deliver GAME --send`` as a mail server runs it, one
message at a time; each delivery takes the file, adjudicates and mails what is due at once to an
SMTP server on loopback (aiosmtpd). Robots play two whole rounds this way, the second with all
three phases (its Westeros phase with three rounds of bidding). Then, for every player and round:

* the mails it got are at most the decisions asked of it, plus the receipts of its own files, plus
  the phases of the round (rulings 311, 313: a mail when there is something to tell, one a run);
* no mail tells it nothing new: each carries a receipt of its own, a decision its last mail did not
  ask, or events it had not been told (and never "Nothing new happened");
* every event line of every step reaches it exactly once, in the order of the steps, and a step not
  mailed yet at the end has nothing in it worth a mail (ruling 313: it waits for the next news).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from clikit import report_text
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail.events import NOTHING, event_lines
from mail.loopback import LoopbackController, Recorder, mails_to, run_server

from adjudicator.cli import main as cli_main
from adjudicator.engine.core.context import Request
from adjudicator.folder import audit, registry, stepreports
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.game.board import Board
from adjudicator.robots.players import Robot
from adjudicator.seals import seal
from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair

GAME = "sixmail"
HOUSES = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 41] * 32)) for i, h in enumerate(HOUSES)}
EMAILS = {h: f"{h}@players.example" for h in HOUSES}
MODERATOR_KEY = Ed25519PrivateKey.from_private_bytes(bytes([88] * 32))
MODERATOR_EMAIL = "moderator@maester.example"
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
LAST_ROUND = 2  # play until this round is over
STEP_LABEL = re.compile(r"^(\d{4})-r(\d+)-(\w+)$")


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def turn_mail(house: str, sealed: str, n: int) -> bytes:
    """A player's mail with its sealed turn in the body, as a mail program sends it."""
    m = EmailMessage(policy=policy.default)
    m["From"] = f"{house.title()} Player <{EMAILS[house]}>"
    m["To"] = f"Moderator <{MODERATOR_EMAIL}>"
    m["Subject"] = "my turn"
    m["Date"] = format_datetime(START + timedelta(minutes=n))
    m["Message-ID"] = make_msgid(idstring=f"turn{n}", domain="players.example")
    m.set_content("Here is my turn.\n\n" + sealed)
    return m.as_bytes()


def deliver(root: Path, data: bytes, *args: str) -> str:
    """``maester deliver GAME ARGS`` with ``data`` on its standard input, in this process."""
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        with contextlib.redirect_stdout(out):
            code = cli_main(["deliver", str(root), *args])
    finally:
        sys.stdin = stdin
    assert code == 0, out.getvalue()
    return out.getvalue()


def step_round(label: str) -> int:
    m = STEP_LABEL.match(label)
    assert m, label
    return int(m[2])


@pytest.fixture(scope="module")
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture(scope="module")
def smtp(recorder: Recorder) -> Iterator[LoopbackController]:
    yield from run_server(recorder)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, smtp: LoopbackController) -> dict:
    """Play the game by mail; return the folder and, per house and round, what was asked and sent."""
    tmp = tmp_path_factory.mktemp("sixmail")
    root = create_game(tmp / GAME, houses=HOUSES, game_id=GAME, seed="six by mail").root
    toml = (root / "game.toml").read_text(encoding="utf-8")
    created = (START - timedelta(days=1)).isoformat()  # mail dated before the game is old mail (ruling 325)
    (root / "game.toml").write_text(re.sub(r'(?m)^created = ".*"$', f'created = "{created}"', toml, count=1),
                                    encoding="utf-8")  # fmt: skip
    for h in HOUSES:
        registry.register_key(root, h, PublicKey.from_key(KEYS[h]), email=EMAILS[h])
    moderator = KeyPair(MODERATOR_KEY, PublicKey.from_key(MODERATOR_KEY))
    registry.register_key(root, "moderator", moderator.public, email=MODERATOR_EMAIL)
    write_key_pair(tmp / "moderator", moderator)
    send = ["--key", str(tmp / "moderator"), "--send", f"smtp://127.0.0.1:{smtp.port}"]
    with contextlib.redirect_stdout(io.StringIO()):  # the game's first run and mailing, as a moderator starts it
        assert cli_main(["adjudicate", str(root)]) == 0
        assert cli_main(["outbox", str(root), *send]) == 0
    robots = {h: Robot(h, KEYS[h], random.Random(i), chaos=0.0) for i, h in enumerate(HOUSES)}
    board = Board.classic()
    asked: dict[tuple[str, int], set[str]] = {}  # (house, round): the keys of the decisions asked of it
    files: Counter[tuple[str, int]] = Counter()  # (house, round): the files it mailed
    n, turn = 0, 0
    while True:
        state = GameDir(root).load_state()
        if state.round > LAST_ROUND:
            break
        requests = [Request.from_dict(p) for p in state.pending]
        for r in requests:
            asked.setdefault((r.house, state.round), set()).add(r.key)
        waiting = [h for h in HOUSES if any(r.house == h for r in requests)]
        assert waiting, f"the game waits for nobody at round {state.round} {state.phase}"
        house = waiting[turn % len(waiting)]  # one player at a time, each in turn
        turn += 1
        sealed = robots[house].turn_file(state, requests, board, GAME)
        assert sealed is not None, f"{house} has a request and no answer"
        n += 1
        files[(house, state.round)] += 1
        out = deliver(root, turn_mail(house, sealed, n), *send)
        assert "accepted archive/" in out, out
        assert n < 400, "the game does not move on"
    return {"root": root, "asked": asked, "files": files, "deliveries": n}


def carried(msg: EmailMessage) -> list[str]:
    return [label for label in str(msg["X-Maester-Steps"]).split() if label != "none"]


def mail_round(msg: EmailMessage) -> int:
    return step_round(str(msg["X-Maester-Step"]))


def step_labels(root: Path) -> list[str]:
    return [s.label for s in stepreports.steps(root)]


def test_the_game_was_played_by_mail_one_player_at_a_time(played: dict, recorder: Recorder) -> None:
    root: Path = played["root"]
    assert played["deliveries"] >= 40
    assert GameDir(root).load_state().round == LAST_ROUND + 1
    accepted = [e for e in registry.read_log(root) if e.get("action") == "accept"]
    assert len(accepted) == played["deliveries"], "every file delivered was taken, at once"
    for house in HOUSES:
        assert mails_to(recorder, EMAILS[house]), house
    assert audit.replay(root).ok


@pytest.mark.parametrize("house", HOUSES)
def test_issue_27_per_round_a_player_gets_at_most_its_asks_receipts_and_phases(played: dict, recorder: Recorder,
                                                                             house: str) -> None:  # fmt: skip
    root: Path = played["root"]
    phases: dict[int, set[str]] = {}
    for label in step_labels(root):
        m = STEP_LABEL.match(label)
        assert m
        phases.setdefault(int(m[2]), set()).add(m[3])
    mails = Counter(mail_round(m) for m in mails_to(recorder, EMAILS[house]))
    for rnd in sorted(phases):
        bound = len(played["asked"].get((house, rnd), ())) + played["files"][(house, rnd)] + len(phases[rnd])
        assert mails[rnd] <= bound, (f"round {rnd}: {mails[rnd]} mails, more than {bound} (asked "
                                     f"{len(played['asked'].get((house, rnd), ()))}, files {played['files'][(house, rnd)]}, "
                                     f"phases {sorted(phases[rnd])})")  # fmt: skip
    steps = len(step_labels(root))
    assert sum(mails.values()) < steps, "fewer mails than steps: not a mail after every step"


@pytest.mark.parametrize("house", HOUSES)
def test_issue_27_no_mail_tells_its_reader_nothing_new(played: dict, recorder: Recorder, house: str) -> None:
    root: Path = played["root"]
    told: set[str] = set()  # the decisions its mails asked so far
    mailed = {e["message_id"]: e for e in registry.read_log(root) if e.get("action") == "outbox"
              for e in e["mails"] if e.get("to") == house}  # fmt: skip
    for msg in mails_to(recorder, EMAILS[house]):
        text = text_of(msg)
        assert NOTHING not in text.split("\n")
        asked = set(mailed[str(msg["Message-ID"]).strip()]["asked"])
        news = {"asked": bool(asked - told), "receipt": "YOUR FILES TAKEN (" in text or "YOUR FILES NOT TAKEN (" in text,
                "events": bool(event_lines(text))}  # fmt: skip
        assert any(news.values()), f"{msg['Subject']} ({msg['X-Maester-Steps']}) tells {house} nothing new"
        told = asked


@pytest.mark.parametrize("house", HOUSES)
def test_issue_27_every_event_line_of_every_step_reaches_every_player_exactly_once(played: dict, recorder: Recorder,
                                                                                   house: str) -> None:  # fmt: skip
    root: Path = played["root"]
    labels = step_labels(root)
    mails = mails_to(recorder, EMAILS[house])
    steps = [label for msg in mails for label in carried(msg)]
    assert steps == labels[: len(steps)], "each step once, in order, none left out before the last one mailed"
    for label in labels[len(steps):]:  # waiting for the next news: no phase begun, no receipt of its own
        report = json.loads(report_text(root, label, "report.json"))
        kinds = {e["type"] for e in report["events"]}
        assert not kinds & {"PhaseStarted", "GameWon", "CivilDisorder", "PlayerLeft"}, (label, kinds)
        assert not [n for n in stepreports.step(root, int(label[:4])).receipts() if f"-{house}-" in n], label
    expected: Counter[str] = Counter()
    for label in steps:
        for name in (f"{house}.txt", "public.txt"):
            expected.update(event_lines(seal.normalise(report_text(root, label, name))))
    assert len(expected) > 100, "the reports tell events"
    got: Counter[str] = Counter()
    for msg in mails:
        got.update(event_lines(text_of(msg)))
    assert got == expected, "every event line, as often as the reports hold it: exactly once each"
