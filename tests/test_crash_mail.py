"""Mail that is never lost (issue 27; rulings 330-335): ``outbox`` (a game's first one included),
``outbox --send``, ``deliver`` and ``rollback`` killed (``kill -9``) or meeting a full disk at their writes, then
any command, then the game going on: every mail reaches its reader exactly once, as an
uninterrupted game mails it, no temporary file is left, and ``maester replay`` passes.

Each scenario is a game played the same way twice: once without a fault (the reference), and
once per write of the command under test, failed there (:mod:`crashkit`). After the fault one
command of another kind runs first (status, replay, show, outbox, outbox --send, adjudicate, in
turn), and must leave no temporary file, no staged mail and no rollback half done; then the game
goes on. The mails the SMTP server on loopback received are compared reader by reader with the
reference: the same mails (steps, subject, text), none missing, none twice; the one mail a kill
can make go twice (killed after the server took it, before its ``mailed`` line: ruling 332) goes
again as the same message, byte for byte, with the same Message-ID. A delivery killed, or one that
kept nothing, is handed its message again by the mail server (ruling 334).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import ClassVar

import pytest
from crashkit import Faults, Killed, Write, sample, temporary_files
from mail import shapes

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, ledger, undo
from adjudicator.folder.gamedir import GameDirError
from adjudicator.mail import deliver, mailbuild, outbox, replies
from adjudicator.mail.outbox import parse_smtp_url, send_outbox, write_outbox
from adjudicator.mail.recipe import RECIPE_SUFFIX, recipe_path

SMTP = parse_smtp_url("smtp://127.0.0.1:25")
MAILING = deliver.Mailing(server=SMTP, key=shapes.MODERATOR)
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\n a map"  # the map drawn once per mail is a pure function: not what is tested here


class Pictures:
    """The map for the mails, drawn at any scale as the same few bytes."""

    def at(self, scale: float) -> bytes:
        return PNG


class Server:
    """The SMTP server, in this process: each mail handed to it is taken, as a server's "250 OK"
    takes it (tests/test_smtp.py sends through a real one on loopback; here the mails only count)."""

    received: ClassVar[list[tuple[list[str], bytes]]] = []

    def __init__(self, server: object) -> None:
        pass

    def sendmail(self, sender: str, to: list[str], data: bytes) -> dict[str, object]:
        Server.received.append((list(to), bytes(data)))
        return {}

    def quit(self) -> None:
        pass

    close = quit


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # a killed process, not a power cut: no fsync needed
    monkeypatch.setattr(mailbuild, "pictures_of", lambda where: Pictures())
    monkeypatch.setattr(outbox, "connect", Server)
    monkeypatch.setattr(replies, "connect", Server)
    Server.received = []


# --- the game and what it mails ---------------------------------------------------------------------


@dataclass
class Game:
    """One game folder, the server it mails through, and the steps of the story."""

    root: Path
    tmp: Path

    def step(self, house: str, seq: int) -> None:
        """A house's file with nothing but a comment: one more step."""
        path = self.tmp / f"{house}-{seq}.txt"
        path.write_text(shapes.turn(house, seq, f"# note {seq}"))
        batch.adjudicate(self.root, [path])

    def refused(self) -> None:
        """Stark's seq 1 again, another text: refused (its seq is used), the receipt to Stark."""
        (self.root / "inbox" / "stark-again.txt").write_text(shapes.turn("stark", 1, "# another note"))
        assert batch.adjudicate(self.root).rejected

    def outbox(self) -> None:
        write_outbox(self.root, key=shapes.MODERATOR, now=NOW)

    def send(self) -> None:
        send_outbox(self.root, server=SMTP, now=NOW)

    def rollback(self) -> None:
        undo.rollback(self.root, to=0, reason="Stark sealed a draft", drop=["archive/000001-stark-r1-planning-seq1.txt"])

    def rollback_again(self) -> None:
        """The moderator runs a rollback that was killed again: it says so when it was done already."""
        try:
            self.rollback()
        except audit.BatchError as e:
            assert "dropped already by an earlier rollback" in str(e), e

    def adjudicate(self) -> None:
        batch.adjudicate(self.root)

    def deliver(self, raw: bytes) -> None:
        """``maester deliver`` of one message, mailing through the server at once; a step that failed
        (a full disk) raises, as the command's output says it: the message is kept, the next run goes on."""
        d = deliver.deliver(self.root, io.BytesIO(raw), mailing=MAILING, wait=0, now=NOW)
        if d.failed or d.busy:
            raise OSError(d.lines[-1])


@contextmanager
def faulty(faults: Faults) -> Iterator[None]:
    """The counting writes of ``faults`` in place while the block runs."""
    patch = pytest.MonkeyPatch()
    faults.install(patch)
    try:
        yield
    finally:
        patch.undo()


def _cli(*args: str) -> None:
    """A command as the moderator runs it: it must work, and never take a half-done folder for a lost log."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(args))
    said = out.getvalue() + err.getvalue()
    assert code == 0 and "lost or cut short" not in said and "Traceback" not in said, f"maester {' '.join(args)}: {said}"


# After the fault, one command of another kind first (each in turn).
FOLLOW_UPS: list[tuple[str, Callable[[Game], None]]] = [
    ("status", lambda g: _cli("status", str(g.root))),
    ("replay", lambda g: _cli("replay", str(g.root))),
    ("show", lambda g: _cli("show", str(g.root))),
    ("outbox", Game.outbox),
    ("outbox --send", Game.send),
    ("adjudicate", Game.adjudicate),
]


def mails() -> dict[str, list[tuple[str, str, bytes]]]:
    """Per address, the distinct messages the server took, in order: (steps, subject, text part).
    A message taken twice must be the same bytes (ruling 332)."""
    seen: dict[str, dict[str, bytes]] = {}
    out: dict[str, list[tuple[str, str, bytes]]] = {}
    for rcpts, data in Server.received:
        msg = BytesParser(policy=policy.compat32).parsebytes(data)
        mid = str(msg["Message-ID"])
        text = next(part.get_payload(decode=True) for part in msg.walk() if part.get_content_type() == "text/plain")
        for address in rcpts:
            mine = seen.setdefault(address, {})
            if mid in mine:
                assert mine[mid] == data, f"{address} got {mid} twice, with different bytes"
                continue
            mine[mid] = data
            out.setdefault(address, []).append((str(msg["X-Maester-Steps"]), str(msg["Subject"]), text))
    return out


def differences(got: dict[str, list[tuple[str, str, bytes]]], expected: dict[str, list[tuple[str, str, bytes]]]) -> str:
    """The lines that differ, reader by reader, for an assertion's message."""
    out = []
    for address in sorted(set(got) | set(expected)):
        a = [f"{steps} {subject}\n{text.decode(errors='replace')}" for steps, subject, text in got.get(address, [])]
        b = [f"{steps} {subject}\n{text.decode(errors='replace')}" for steps, subject, text in expected.get(address, [])]
        if a != b:
            diff = difflib.unified_diff("\n".join(b).splitlines(), "\n".join(a).splitlines(), "expected", "got", lineterm="", n=1)
            out += [f"{address}:", *diff]
    return "\n".join(out)


@dataclass
class Scenario:
    """A story in three parts: ``before`` the command under test, the ``victim`` itself, ``after`` it."""

    before: list[Callable[[Game], None]]
    victim: Callable[[Game], None]
    after: list[Callable[[Game], None]]


def check_scenario(sc: Scenario, tmp_path: Path, *, mode: str = "kill", every: bool = False) -> list[Write]:
    """Play ``sc`` once as the reference and once per write of its victim failed (all of them with
    ``every``, else each kind of write; see :func:`crashkit.sample`); compare. Returns the victim's writes."""
    template = Game(shapes.make_reported_game(tmp_path / "template" / shapes.GAME), tmp_path)
    for part in sc.before:
        part(template)
    Server.received = []
    reference = Game(Path(shutil.copytree(template.root, tmp_path / "reference" / shapes.GAME)), tmp_path)
    counter = Faults(reference.root, smtp=(Server,))
    with faulty(counter):
        sc.victim(reference)
    for part in sc.after:
        part(reference)
    expected = mails()
    assert expected, "the scenario mails something"
    assert stored_twice(reference.root) == []
    writes = counter.writes
    points = sample(writes, every=every)
    if mode == "full":
        points = [k for k in points if writes[k - 1].kind in ("write", "append", "folder", "mkdir")]
    for i, k in enumerate(points):
        Server.received = []
        where = tmp_path / f"{mode}{k}"
        game = Game(Path(shutil.copytree(template.root, where / shapes.GAME)), tmp_path)
        faults = Faults(game.root, at=k, mode=mode, frozen=where / "frozen", smtp=(Server,))
        what = f"{mode} at write {k} ({writes[k - 1].kind} {writes[k - 1].path})"
        try:
            with faulty(faults):
                sc.victim(game)
            raise AssertionError(f"{what}: the command ran to its end")
        except Killed:
            assert mode == "kill"
            shutil.rmtree(game.root)
            os.rename(where / "frozen", game.root)
        except (OSError, GameDirError) as e:  # a full disk: a one-line error (the CLI prints it, exit status 2)
            assert mode == "full", f"{what}: {e}"
        name, follow = FOLLOW_UPS[i % len(FOLLOW_UPS)]
        follow(game)
        assert temporary_files(game.root) == [], f"{what}, then {name}: temporary files left"
        led = ledger.Ledger.read(game.root)
        assert led.rollback_done, f"{what}, then {name}: the rollback is not finished"
        for part in sc.after:
            part(game)
        assert mails() == expected, f"{what}, then {name}: the mails differ from the uninterrupted game's:\n" + \
            differences(mails(), expected)
        check = audit.replay(game.root)
        assert check.ok, f"{what}, then {name}: {check.lines()}"
        assert stored_twice(game.root) == [], f"{what}, then {name}: mails sent and still kept whole"
    return writes


def stored_twice(root: Path) -> list[str]:
    """The mails sent that are kept whole beside their recipe (ruling 318: once sent, a mail whose
    recipe makes it again is kept as its recipe only), and the mails waiting that lost theirs."""
    book = ledger.Ledger.read(root).mail
    out = []
    for path, rec in book.written.items():
        if "recipe" not in rec or path not in set(book.current.values()) | set(book.mailed):
            continue  # an older Maester's, or superseded
        eml, recipe = (root / path).is_file(), (root / recipe_path(path)).is_file()
        if (path in book.mailed and eml) or not recipe or (path not in book.mailed and not eml):
            out.append(f"{path}: {'sent' if path in book.mailed else 'waiting'}, .eml {eml}, recipe {recipe}")
    return out


# --- the scenarios ------------------------------------------------------------------------------------


FIRST = Scenario(before=[], victim=Game.outbox, after=[Game.outbox, Game.send])
SEND = Scenario(before=[Game.outbox], victim=Game.send, after=[Game.send])
LATER = Scenario(before=[Game.outbox, Game.send, lambda g: g.step("stark", 1), Game.outbox,
                         lambda g: g.step("lannister", 1)],
                 victim=Game.outbox, after=[Game.outbox, Game.send])  # fmt: skip
ROLLBACK = Scenario(before=[Game.outbox, Game.send, lambda g: g.step("stark", 1), Game.refused,
                            lambda g: g.step("lannister", 1), Game.outbox, Game.send],
                    victim=Game.rollback, after=[Game.rollback_again, Game.adjudicate, Game.outbox, Game.send])  # fmt: skip


def _dead_pid() -> int:
    """The process id of a process that ran and is gone: a delivery killed leaves its name in mailbox/tmp/."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def delivering(raw: bytes) -> Callable[[Game], None]:
    """``maester deliver`` of ``raw`` by a process that dies (its id is a dead one's once it is killed)."""
    gone = _dead_pid()

    def victim(game: Game) -> None:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(os, "getpid", lambda: gone)
            game.deliver(raw)

    return victim


def delivered(raw: bytes) -> Callable[[Game], None]:
    """The mail server hands ``raw`` over (again: a delivery killed, or exiting 75, is tried again)."""
    return lambda game: game.deliver(raw)


# Stark's sealed turn, and in the same mail a turn with no seal: taken, a receipt, and a reply (ruling 323).
STARK_MAIL = shapes.plain("stark", shapes.turn("stark", 1, "# my orders follow"), 1,
                          after=f"\n\ngame {shapes.GAME} · house stark · round 1 · planning · seq 2\n# unsealed\n")  # fmt: skip
LANNISTER_MAIL = shapes.plain("lannister", shapes.turn("lannister", 1, "# the next mail"), 2)
DELIVER = Scenario(before=[Game.outbox, Game.send], victim=delivering(STARK_MAIL),
                   after=[delivered(STARK_MAIL), delivered(LANNISTER_MAIL), Game.outbox, Game.send])  # fmt: skip
FIRST_DELIVER = Scenario(before=[], victim=delivering(STARK_MAIL),
                         after=[delivered(STARK_MAIL), delivered(LANNISTER_MAIL), Game.outbox, Game.send])  # fmt: skip


def test_ruling_330_a_games_first_outbox_killed_at_every_write_loses_no_mail(tmp_path):
    writes = check_scenario(FIRST, tmp_path, every=True)
    kinds = {w.kind for w in writes}
    assert {"write", "append", "move", "mkdir", "remove"} <= kinds, kinds
    log_line = next(i for i, w in enumerate(writes) if w.kind == "append")
    assert all(w.path.startswith("outbox/.staged/") for w in writes[:log_line] if w.kind == "write"), \
        "before its log line the run writes its mails where nothing reads them as mail"  # fmt: skip
    assert writes[-1] == Write("write", "outbox/0000/manifest.json"), "the manifest comes last"


def test_ruling_330_a_games_first_outbox_on_a_full_disk_loses_no_mail(tmp_path):
    check_scenario(FIRST, tmp_path, mode="full", every=True)


def test_ruling_332_outbox_send_killed_at_every_write_sends_each_mail_once(tmp_path):
    writes = check_scenario(SEND, tmp_path, every=True)
    assert [w.kind for w in writes].count("send") == 4 and [w.kind for w in writes].count("append") == 4


def test_ruling_332_outbox_send_on_a_full_disk_sends_each_mail_once(tmp_path):
    check_scenario(SEND, tmp_path, mode="full", every=True)


def test_ruling_330_a_later_outbox_that_supersedes_mails_killed_at_each_kind_of_write(tmp_path):
    writes = check_scenario(LATER, tmp_path)
    assert Write("move", "outbox/0001/stark.eml") in writes, "the superseded mail is moved aside"


def test_ruling_331_a_rollback_killed_at_every_write_is_finished_by_the_next_command(tmp_path):
    writes = check_scenario(ROLLBACK, tmp_path, every=True)
    assert {"append", "move", "write", "mkdir"} <= {w.kind for w in writes}
    assert Write("move", "refused/files/stark-again.txt") in writes, "the file refused against an undone step goes back"


def test_ruling_331_a_rollback_on_a_full_disk_is_finished_by_the_next_command(tmp_path):
    check_scenario(ROLLBACK, tmp_path, mode="full")



def test_ruling_334_a_delivery_killed_at_every_write_then_any_command_mails_each_reader_exactly_once(tmp_path):
    writes = check_scenario(DELIVER, tmp_path, every=True)
    kinds = [w.kind for w in writes]
    first, then = [w for w in writes if w.kind != "mkdir"][:2]
    assert first.kind == "write" and first.path.startswith("mailbox/tmp/"), "the message is written before all else"
    assert then.kind == "move" and then.path == first.path, "then moved into mailbox/new/: kept"
    assert kinds.count("send") == 3, "the new step to Stark (its receipt) and the moderator, and the reply to Stark"
    assert any(w.path.startswith("outbox/replies/") for w in writes) and any(w.path.startswith("inbox/") for w in writes)


def test_ruling_334_a_delivery_on_a_full_disk_at_every_write_mails_each_reader_exactly_once(tmp_path):
    writes = check_scenario(DELIVER, tmp_path, mode="full", every=True)
    first = next(w for w in writes if w.kind != "mkdir")
    assert first.kind == "write" and first.path.startswith("mailbox/tmp/"), \
        "the disk is full already when the message itself is written"  # fmt: skip


def test_ruling_334_a_games_first_mail_by_deliver_killed_at_every_write_mails_each_reader_exactly_once(tmp_path):
    writes = check_scenario(FIRST_DELIVER, tmp_path, every=True)
    staged = {w.path.rpartition("/")[2] for w in writes if w.kind == "write" and w.path.startswith("outbox/.staged/")}
    assert staged == {f"{who}{end}" for who in ("stark", "lannister", "baratheon", "moderator") for end in (".eml", RECIPE_SUFFIX)}, \
        "every reader's first mail, and its recipe (ruling 318)"  # fmt: skip


def test_ruling_334_a_games_first_mail_by_deliver_on_a_full_disk_at_every_write_mails_each_reader_exactly_once(
        tmp_path):  # fmt: skip
    check_scenario(FIRST_DELIVER, tmp_path, mode="full", every=True)


# --- what an earlier Maester left, and what the next command makes of it -----------------------------


def test_ruling_330_the_mails_a_killed_first_outbox_of_an_earlier_maester_left_are_written_and_sent_again(tmp_path):
    """Maester before ruling 330 wrote a game's first mails and their manifest, then the log line: killed
    between them, it left mails that every later run took as sent by hand by an older Maester, and
    the temporary file of a mail it was writing."""
    game = Game(shapes.make_reported_game(tmp_path / shapes.GAME), tmp_path)
    game.outbox()
    log = game.root / "log"
    log.write_text("".join(line + "\n" for line in log.read_text().splitlines() if '"action": "outbox"' not in line))
    for recipe in (game.root / "outbox" / "0000").glob(f"*{RECIPE_SUFFIX}"):
        recipe.unlink()  # that Maester wrote none (ruling 318)
    mails_left = sorted(p.name for p in (game.root / "outbox" / "0000").iterdir())
    assert mails_left == ["baratheon.eml", "lannister.eml", "manifest.json", "moderator.eml", "stark.eml"]
    temp = game.root / "outbox" / "0000" / ".stark.eml.x1y2z3w4.tmp"
    temp.write_bytes(b"half of a private mail")
    game.outbox()
    assert not temp.exists(), "the next outbox removes it"
    game.send()
    got = mails()
    assert sorted(got) == sorted([*shapes.EMAILS.values(), shapes.MODERATOR_EMAIL])
    assert all([steps for steps, _, _ in mine] == ["0000-r1-planning"] for mine in got.values()), got


def test_ruling_330_an_older_maesters_outbox_still_counts_as_sent(tmp_path):
    """A folder an older Maester wrote (its manifest names the report it was made from) is mail sent."""
    game = Game(shapes.make_reported_game(tmp_path / shapes.GAME), tmp_path)
    old = game.root / "outbox" / "0000"
    old.mkdir(parents=True)
    names = ("stark.eml", "lannister.eml", "baratheon.eml", "public.eml")
    for name in names:
        (old / name).write_text("an older Maester's mail\n")
    (old / "manifest.json").write_text(json.dumps({"report": "0000-r1-planning", "report_sha256": "ab",
                                                   "mails": {n: {"to": n[:-4]} for n in names}}))  # fmt: skip
    game.step("stark", 1)
    game.outbox()
    game.send()
    readers = shapes.EMAILS.values()  # the moderator's next mail waits for news (ruling 313); what the
    # older Maester's mails asked is not known, so each house is told what is asked again
    assert {a: [s for s, _, _ in m] for a, m in mails().items()} == {a: ["0001-r1-planning"] for a in readers}


def _rollback_logged_only(tmp_path: Path) -> Game:
    """A game rolled back from step 0002 to 0000 by a command killed just after its log line."""
    game = Game(shapes.make_reported_game(tmp_path / shapes.GAME), tmp_path)
    game.step("stark", 1)
    game.step("lannister", 1)
    faults = Faults(game.root, at=2, frozen=tmp_path / "frozen")  # the write after the rollback line
    with pytest.raises(Killed), faulty(faults):
        game.rollback()
    shutil.rmtree(game.root)
    os.rename(tmp_path / "frozen", game.root)
    assert faults.writes[0] == Write("append", "log") and not ledger.Ledger.read(game.root).rollback_done
    return game


def test_ruling_331_a_rollback_killed_after_its_log_line_is_finished_by_replay(tmp_path, capsys):
    game = _rollback_logged_only(tmp_path)
    check = audit.replay(game.root)  # the library's replay only reads: the rollback stays half done, said
    assert check.ok, check.lines()
    assert "the rollback to 0000 is logged and not finished: snapshots 0001, 0002 are set aside by it" in check.notes
    assert cli_main(["replay", str(game.root)]) == 0
    out = capsys.readouterr()
    assert "finished the rollback to snapshot 0000 that a killed command began" in out.err
    assert "replay: every snapshot follows from the archive, byte for byte" in out.out
    assert ledger.Ledger.read(game.root).rollback_done and batch.status(game.root)["snapshot"] == 0


def test_ruling_331_a_rollback_killed_after_its_log_line_is_finished_when_run_again(tmp_path):
    game = _rollback_logged_only(tmp_path)
    game.rollback_again()
    assert ledger.Ledger.read(game.root).rollback_done and batch.status(game.root)["snapshot"] == 0
    assert (game.root / "states" / "rolled-back-1" / "0002.toml").is_file()


def test_ruling_331_a_command_that_only_reads_leaves_a_busy_folder_alone(tmp_path):
    game = _rollback_logged_only(tmp_path)
    from adjudicator.folder.gamedir import GameDir

    with GameDir.open(game.root).lock():  # another command holds the folder: status reads, changes nothing
        assert _cli("show", str(game.root)) is None
        assert not ledger.Ledger.read(game.root).rollback_done
    _cli("show", str(game.root))
    assert ledger.Ledger.read(game.root).rollback_done


def test_ruling_335_status_and_replay_read_a_step_whose_run_was_killed_before_its_reports(tmp_path, capsys):
    game = Game(shapes.make_reported_game(tmp_path / shapes.GAME), tmp_path)
    counter = Faults(game.root)
    with faulty(counter):
        game.step("stark", 1)
    at = next(i for i, w in enumerate(counter.writes, 1)  # the snapshot's bytes renamed onto state.toml (ruling 390):
              if w.kind == "move" and w.path.startswith(".state.toml."))  # after the snapshot and its log line
    game = Game(shapes.make_reported_game(tmp_path / "killed" / shapes.GAME), tmp_path)
    with pytest.raises(Killed), faulty(Faults(game.root, at=at, frozen=tmp_path / "frozen")):
        game.step("stark", 1)
    shutil.rmtree(game.root)
    os.rename(tmp_path / "frozen", game.root)
    assert cli_main(["status", str(game.root)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game mailgame: round 1, planning (step 0001)\n"), "read from the snapshot the run committed"
    assert ("Note: a run was interrupted after writing states/0001.toml and before its reports: the next "
            f"'maester adjudicate {game.root}' finishes it") in out
    check = audit.replay(game.root)
    assert check.ok, check.lines()
    assert any("state.toml is still the step before states/0001.toml" in n for n in check.notes), check.notes
    game.adjudicate()
    assert cli_main(["status", str(game.root)]) == 0 and "interrupted" not in capsys.readouterr().out
    (game.root / "state.new").write_text((game.root / "states" / "0000.toml").read_text())  # edited by hand: not a run's
    os.replace(game.root / "state.new", game.root / "state.toml")  # (an editor writes a new file)
    assert cli_main(["status", str(game.root)]) == 2 and "does not match states/0001.toml" in capsys.readouterr().err
