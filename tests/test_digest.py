"""The digest mail (issue 15): everything since a reader's last mail, once; notices to the house whose
key sealed a refused file; what was mailed recorded in the log, so that a crash while sending sends
exactly the rest; a rollback told; a game list; a game mailed by an older Maester."""

from __future__ import annotations

import json
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from clikit import reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, run_server, smtp  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, registry, undo
from adjudicator.mail import outbox
from adjudicator.mail.letter import GAME_NOW, STEP_MARK, heading_line
from adjudicator.mail.outbox import mark_sent, parse_smtp_url, send_outbox, write_outbox
from adjudicator.reports.report import WIDTH, join_text
from adjudicator.reports.sections import pick, text_sections
from adjudicator.seals import seal

MOD = shapes.MODERATOR
STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([5] * 32))


ORDERS = {"stark": ("Winterfell: defense +1", "White Harbor: support", "The Shivering Sea: consolidate"),
          "lannister": ("Lannisport: defense +1", "Stoney Sept: support", "The Golden Sound: consolidate",
                        "Port of Lannisport: consolidate"),
          "baratheon": ("Dragonstone: defense +1", "Kingswood: support", "Shipbreaker Bay: consolidate")}  # fmt: skip


def orders(game: Path, tmp_path: Path, houses: list[str] = list(ORDERS)) -> list[str]:  # noqa: B006 (never changed)
    """Each house's orders of round 1, one file a run: a step each; the last reveals the orders."""
    out = []
    for house in houses:
        path = tmp_path / f"{house}-orders.txt"
        path.write_text(shapes.turn(house, 1, *ORDERS[house]))
        out += batch.adjudicate(game, [path]).steps
    return out


def step(game: Path, house: str, seq: int, tmp_path: Path) -> list[str]:
    """One more step: a house's file with nothing but a comment (a new snapshot each)."""
    path = tmp_path / f"{house}-{seq}.txt"
    path.write_text(shapes.turn(house, seq, f"# note {seq}"))
    return batch.adjudicate(game, [path]).steps


def read(path: Path) -> EmailMessage:
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(("html",))
    assert body is not None
    return str(body.get_content())


def sections(text: str) -> dict[int, str]:
    """The step sections of a digest's text, by step number (each from its heading line, which begins
    with STEP_MARK; the last, THE GAME NOW, is the game as the latest step left it, no step of its own)."""
    chunks = re.split(f"^{re.escape(STEP_MARK)}(.*) #+\n", text, flags=re.M)
    out: dict[int, str] = {}
    for heading, body in zip(chunks[1::2], chunks[2::2]):
        if heading.startswith(GAME_NOW):
            continue
        number = int(heading.split()[1])
        assert number not in out, f"step {number} twice in one mail"
        out[number] = body
    return out


def whole(game: Path, label: str, house: str) -> str:
    folder = reports_of(game) / label
    return seal.normalise(join_text((folder / f"{house}.txt").read_text(), (folder / "public.txt").read_text()))


def log(game: Path, action: str) -> list[dict]:
    return [e for e in registry.read_log(game) if e.get("action") == action]





def test_ruling_303_steps_without_an_outbox_reach_each_player_in_one_mail(game: Path, tmp_path: Path) -> None:
    labels = ["0000-r1-planning", *orders(game, tmp_path)]
    assert labels == ["0000-r1-planning", "0001-r1-planning", "0002-r1-planning", "0003-r1-planning"]
    write_outbox(game, key=MOD)
    msg = read(game / "outbox" / "0003" / "stark.eml")
    assert msg["X-Maester-Steps"].strip() == " ".join(labels)  # folded when long
    text = text_of(msg)
    found = sections(text)
    assert sorted(found) == [0, 3], "the steps that tell Stark something: the first, and the orders revealed"
    for label in ("0000-r1-planning", "0003-r1-planning"):  # each step's events, word for word, once
        events = pick(text_sections(whole(game, label, "stark")), "events").rstrip("\n")
        assert events.startswith("WHAT HAPPENED\n") and text.count(events) == 1 and events in found[int(label[:4])]
    assert text.index("ASKED OF YOU NOW") < text.index("\n" + STEP_MARK), "what is asked comes first"
    assert text.index("YOUR FILES TAKEN (1)") < text.index("\n" + STEP_MARK), "then the receipts"
    assert text.count("Receipt for archive/000001-stark-r1-planning-seq1.txt") == 1 and "Receipt for archive/000002" not in text
    assert text.count("\nTHE BOARD\n") == 1 and text.index("\n" + STEP_MARK) < text.index("\nTHE BOARD\n"), "one board: the latest"
    assert max(len(line) for line in text.splitlines()) <= 80
    page = html_of(msg)
    assert page.count('<img id="map"') == 1 and page.count("<html") == 1 and page.rstrip().endswith("</html>")
    assert page.index('id="step-0000"') < page.index('id="step-0003"') < page.index('<img id="map" src="cid:')
    assert 'id="step-0001"' not in page and page.count('id="board"') == 1, "the map and board of the latest step only"
    assert 'id="events-0000"' in page and 'id="events"' in page, "the earlier steps' ids are their own"
    lannister = text_of(read(game / "outbox" / "0003" / "lannister.eml"))
    assert "PRIVATE report for House Stark" not in lannister and "Receipt for archive/000001-stark" not in lannister


def test_ruling_319_each_step_of_a_digest_is_headed_by_one_line(game: Path, tmp_path: Path) -> None:
    orders(game, tmp_path)
    write_outbox(game, key=MOD)
    lines = text_of(read(game / "outbox" / "0003" / "stark.eml")).splitlines()
    heads = [(i, line) for i, line in enumerate(lines) if line.startswith(STEP_MARK)]
    assert [line for _, line in heads] == [
        heading_line("STEP 0000 · ROUND 1 · PLANNING PHASE (1 of 2)"),
        heading_line("STEP 0003 · ROUND 1 · PLANNING PHASE (2 of 2)"),
        heading_line(f"{GAME_NOW}, AFTER STEP 0003 · ROUND 1 · PLANNING PHASE"),
    ]
    assert all(len(line) == WIDTH and line.endswith("##") for _, line in heads)
    assert all(lines[i - 1] == "" and lines[i + 1] == "" for i, _ in heads), "a blank line either side"
    assert not [line for line in lines if line and set(line) == {"#"}], "no rule line of its own"


def test_ruling_303_the_next_mail_starts_after_the_last_one_sent(game: Path, tmp_path: Path, smtp: LoopbackController,
                                                                recorder: Recorder) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    write_outbox(game, key=MOD)
    assert send_outbox(game, server=server).exit_status == 0
    orders(game, tmp_path, ["stark"])
    report = write_outbox(game, key=MOD)
    assert report.written == ["stark.eml to stark@players.example: steps 0001"], "the others wait for news (ruling 313)"
    send_outbox(game, server=server)
    orders(game, tmp_path, ["lannister", "baratheon"])
    report = write_outbox(game, key=MOD)
    assert sorted(report.written) == ["baratheon.eml to baratheon@players.example: steps 0001, 0002, 0003",
                                      "lannister.eml to lannister@players.example: steps 0001, 0002, 0003"]  # fmt: skip
    send_outbox(game, server=server)  # the orders revealed ride with the next mail (ruling 315): ask for it
    (game / "game.toml").write_text((game / "game.toml").read_text() + "\n[mail]\nevery_step = true\n")
    assert sorted(write_outbox(game, key=MOD).written) == [
        "moderator.eml to moderator@maester.example: steps 0001, 0002, 0003",
        "stark.eml to stark@players.example: steps 0002, 0003"]  # fmt: skip
    send_outbox(game, server=server)
    mails = mails_to(recorder, shapes.EMAILS["stark"])
    assert [m["X-Maester-Steps"] for m in mails] == ["0000-r1-planning", "0001-r1-planning",
                                                    "0002-r1-planning 0003-r1-planning"]  # fmt: skip
    assert [sorted(sections(text_of(m))) for m in mails] == [[0], [], [3]]
    assert write_outbox(game, key=MOD).written == [], "nothing new: no mail"
    mailed = log(game, "mailed")
    assert len(mailed) == 9 and len({e["file"] for e in mailed}) == 9


def test_ruling_303_a_crash_while_sending_sends_exactly_the_rest_at_the_next_run(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder,
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    step(game, "stark", 1, tmp_path)
    write_outbox(game, key=MOD)
    real, calls = outbox.deliver, []

    def killed_at_the_third(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt("the machine went down")
        return real(*args, **kwargs)

    monkeypatch.setattr(outbox, "deliver", killed_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        send_outbox(game, server=server)
    monkeypatch.undo()
    assert len(recorder.received) == 2 and len(log(game, "mailed")) == 2
    again = send_outbox(game, server=server)
    assert again.exit_status == 0 and len(again.sent) == 2
    names = [BytesParser(policy=policy.default).parsebytes(d)["X-Maester-House"] for _, _, d in recorder.received]
    assert sorted(names) == ["baratheon", "lannister", "moderator", "stark"], "each once: none twice, none lost"
    assert send_outbox(game, server=server).sent == []


def test_ruling_300_a_refused_file_reaches_the_house_whose_key_sealed_it_and_never_the_sender(
        game: Path, tmp_path: Path, smtp: LoopbackController, recorder: Recorder) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    write_outbox(game, key=MOD)
    send_outbox(game, server=server)
    wrong_house = shapes.turn("lannister", 1, "# sealed with Stark's key", key="stark")
    stranger = seal.sign(f"game {shapes.GAME} · house baratheon · round 1 · planning · seq 1\n# who am I\n", STRANGER)
    box = shapes.maildir(tmp_path / "Maildir", [shapes.forged(wrong_house, 20), shapes.forged(stranger, 21)])
    assert cli_main(["adjudicate", str(game), "--maildir", str(box)]) == 1
    report = write_outbox(game, key=MOD)
    assert sorted(w.split()[0] for w in report.written) == ["moderator.eml", "stark.eml"], "no new step: receipts only"
    send_outbox(game, server=server)
    stark = text_of(mails_to(recorder, shapes.EMAILS["stark"])[-1])
    assert "YOUR FILES NOT TAKEN (1)" in stark and "[wrong-house]" in stark
    assert "It goes to House Stark, whose registered key sealed what it speaks of," in stark
    assert mails_to(recorder, "mallory@evil.example") == [], "never to the address a file came from"
    assert len(mails_to(recorder, shapes.EMAILS["lannister"])) == 1 and len(mails_to(recorder, shapes.EMAILS["baratheon"])) == 1
    mod = text_of(mails_to(recorder, shapes.MODERATOR_EMAIL)[-1])
    assert "FILES NO REGISTERED KEY SEALED: for you only (1)" in mod and "[unknown-key]" in mod
    assert "from 'mallory@evil.example'" in mod, "the moderator learns where it came from, to follow it up"
    assert "RECEIPTS SENT TO HOUSES" in mod and "-stark.txt" in mod
    assert write_outbox(game, key=MOD).written == [], "each receipt once"


def test_ruling_304_a_rollback_after_mailing_is_told_and_the_new_steps_follow(game: Path, tmp_path: Path,
                                                                             smtp: LoopbackController,
                                                                             recorder: Recorder) -> None:  # fmt: skip
    server = parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")
    step(game, "stark", 1, tmp_path)
    write_outbox(game, key=MOD)
    send_outbox(game, server=server)  # steps 0000 and 0001 mailed
    step(game, "lannister", 1, tmp_path)
    write_outbox(game, key=MOD)  # 0002 written, not sent
    mistake = next(p.name for p in (game / "archive").iterdir() if "-stark-" in p.name)
    undo.rollback(game, to=0, reason="Stark's note was not meant", drop=[mistake])
    batch.adjudicate(game)  # 0001 again, from Lannister's file alone
    report = write_outbox(game, key=MOD)
    assert any(w.startswith("stark.eml") and "steps 0001" in w for w in report.written)
    assert not (game / "outbox" / "0002" / "lannister.eml").exists(), "the unsent mail of an undone step is set aside"
    assert (game / "outbox" / "superseded" / "0002-lannister.eml").is_file()
    send_outbox(game, server=server)
    mails = mails_to(recorder, shapes.EMAILS["stark"])
    assert len(mails) == 2
    last = text_of(mails[-1])
    assert "UNDONE BY THE MODERATOR" in last and "The moderator undid step 0001" in last and "not meant" in last
    assert mails[-1]["X-Maester-Steps"] == "0001-r1-planning" and "Receipt for" not in last
    lannister = mails_to(recorder, shapes.EMAILS["lannister"])
    assert len(lannister) == 2, "the mail written before the rollback was never sent"
    assert "Receipt for archive/000002-lannister" in text_of(lannister[-1])
    assert audit.replay(game).ok


def test_a_game_list_gets_the_public_reports_only(game: Path, tmp_path: Path) -> None:
    doc = (game / "game.toml").read_text() + '\n[mail]\nlist = "agot@lists.example"\n'
    (game / "game.toml").write_text(doc)
    step(game, "stark", 1, tmp_path)
    write_outbox(game, key=MOD)
    public = read(game / "outbox" / "0001" / "public.eml")
    assert public["To"].addresses[0].addr_spec == "agot@lists.example"
    text = text_of(public)
    assert public["X-Maester-Steps"] == "0000-r1-planning 0001-r1-planning"
    assert sorted(sections(text)) == [0] and "PRIVATE" not in text and "Receipt for" not in text
    assert "PRIVATE" not in html_of(public) and "YOUR HAND" not in text
    (game / "game.toml").write_text(doc.replace("agot@lists.example", "a@x, b@y"))
    with pytest.raises(outbox.OutboxError, match=r"\[mail\] list 'a@x, b@y' in game.toml is not one mail address"):
        write_outbox(game, key=MOD)


def test_a_game_mailed_by_an_older_maester_goes_on_after_its_last_mail(game: Path, tmp_path: Path) -> None:
    old = game / "outbox" / "0000"
    old.mkdir(parents=True)
    for name in ("stark.eml", "lannister.eml", "baratheon.eml", "public.eml"):
        (old / name).write_text("an older Maester's mail\n")
    (old / "sent.json").write_text(json.dumps({n: {"sent": "2026-03-01T18:00:00+00:00"}
                                               for n in ("stark.eml", "lannister.eml", "public.eml")}))  # fmt: skip
    step(game, "stark", 1, tmp_path)
    report = write_outbox(game, key=MOD)
    steps = {w.split()[0]: w.split(":")[1].strip() for w in report.written}
    assert steps == {"stark.eml": "steps 0001", "lannister.eml": "steps 0001", "baratheon.eml": "steps 0000, 0001"}, \
        "baratheon's mail of 0000 was never sent; what an older Maester's mail asked is not known: asked again"
    assert (old / "stark.eml").read_text() == "an older Maester's mail\n", "mails sent before are kept"
    assert log(game, "outbox")[0]["legacy_through"] == {"stark": 0, "lannister": 0, "moderator": 0, "public": 0}
    write_outbox(game, key=MOD, sender=shapes.MODERATOR_EMAIL)
    mark_sent(game)
    step(game, "lannister", 1, tmp_path)
    assert all("steps 0002" in w for w in write_outbox(game, key=MOD).written)


def test_cli_outbox_mark_sent(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["outbox", str(game)]) == 0
    assert cli_main(["outbox", str(game), "--mark-sent"]) == 0
    assert "marked outbox/0000/stark.eml to stark@players.example (recorded as sent by you)" in capsys.readouterr().out
    step(game, "stark", 1, tmp_path)
    assert cli_main(["outbox", str(game)]) == 0
    out = capsys.readouterr().out
    assert "wrote stark.eml to stark@players.example: steps 0001" in out
    assert cli_main(["outbox", str(game), "--mark-sent", "--send", "smtp://127.0.0.1:1"]) == 2
