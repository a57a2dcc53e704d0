"""How big a mail is: every mail of a 6-player robot game within the bound, the map drawn smaller only
in a mail that would pass it (ruling 317), the moderator's story of a long action phase in more than
one mail (ruling 328). benchmarks/bench_mail_size.py measures whole games."""

from __future__ import annotations

import contextlib
import io
import shutil
import tomllib
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
import tomli_w
from mail import shapes
from mail.loopback import reported  # noqa: F401

from adjudicator.cli import main as maester
from adjudicator.folder import registry, stepreports
from adjudicator.game.state import GameState
from adjudicator.mail import mailbuild, mapimage, news
from adjudicator.mail.digest import Digest
from adjudicator.mail.mailbuild import step_part
from adjudicator.mail.mapimage import MAIL_BYTES, MAP_SCALES, png_size
from adjudicator.mail.outbox import write_outbox
from adjudicator.mail.recipe import written_mail
from adjudicator.reports.svgmap import MapLayout
from adjudicator.robots.simulate import simulate
from adjudicator.seals.keys import write_key_pair

ISSUE_BOUND = 100_000  # issue 27: every mail of a 6-player game at most 100 KB in all


def _map_of(data: bytes) -> bytes | None:
    msg = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    pics = [p.get_content() for p in msg.walk() if p.get_content_type() == "image/png"]
    assert len(pics) <= 1, "one picture of the map at most"
    return bytes(pics[0]) if pics else None


def _mail_out(root: Path, moderator_key: Path, *, first: bool) -> None:
    """Write and mark sent every mail waiting after a run, as a moderator's cron would; the first time,
    register the moderator and give every house an address."""
    if first:
        registry.register_key(root, "moderator", shapes.MODERATOR.public, email=shapes.MODERATOR_EMAIL)
        doc = tomllib.loads((root / "game.toml").read_text(encoding="utf-8"))
        for house in doc["game"]["houses"]:
            doc.setdefault("players", {}).setdefault(house, {})["email"] = f"{house}@players.example"
        (root / "game.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()):
        assert maester(["outbox", str(root), "--key", str(moderator_key)]) == 0
        assert maester(["outbox", str(root), "--mark-sent"]) == 0


def test_ruling_317_every_mail_of_a_short_6_player_robot_game_is_within_the_bound(tmp_path: Path) -> None:
    """A round of six robots, mailed after every run as a cron job would; each mail's size is
    checked against the bound, and one that would pass it holds the map drawn smaller."""
    root = tmp_path / "g"
    write_key_pair(tmp_path / "moderator", shapes.MODERATOR)
    first = {"run": True}

    def mail_after_the_run(state: GameState) -> None:
        _mail_out(root, tmp_path / "moderator", first=bool(first.pop("run", False)))

    simulate(6, 2, rounds=1, out=root, on_step=mail_after_the_run)
    records = [
        m | {"folder": e["folder"]} for e in registry.read_log(root) if e.get("action") == "outbox" for m in e["mails"]
    ]
    assert len(records) > 15, "the game mailed its players many times"
    smaller = 0
    for rec in records:
        data = written_mail(root, f"{rec['folder']}/{rec['file']}")  # sent: made again from its recipe
        assert len(data) <= MAIL_BYTES < ISSUE_BOUND, f"{rec['folder']}/{rec['file']}: {len(data):,} bytes"
        png = _map_of(data)
        assert (png is None) == ("map_scale" not in rec)
        if png is None:
            continue
        scale = rec["map_scale"]
        latest = stepreports.step(root, int(rec["folder"][-4:]))
        assert latest is not None
        pictures = mapimage.MapPictures(latest.text("map.svg"))
        assert png == pictures.at(scale), "the map of the latest step, drawn at the scale recorded"
        if scale != MAP_SCALES[0]:  # drawn smaller only where the next larger one would not have fitted
            smaller += 1
            larger = MAP_SCALES[MAP_SCALES.index(scale) - 1]
            assert len(data) - _encoded(png) + _encoded(pictures.at(larger)) > MAIL_BYTES, rec["file"]
    assert smaller < len(records) // 10, "most mails hold the map at its own size"


def test_ruling_328_a_late_action_phase_reaches_the_moderator_in_mails_within_the_bound(tmp_path: Path) -> None:
    """Round 8 of a 6-player robot game (seed 1: its action phase is 40 steps, once one mail of
    103,607 bytes to the moderator), mailed after every run from the round's start; the mail that
    first catches up on rounds 1-7 is not counted."""
    root = tmp_path / "g"
    write_key_pair(tmp_path / "moderator", shapes.MODERATOR)
    started: list[int] = []

    def mail_from_round_8(state: GameState) -> None:
        if state.round < 8:
            return
        _mail_out(root, tmp_path / "moderator", first=not started)
        started.append(len(started))

    simulate(6, 1, rounds=8, out=root, on_step=mail_from_round_8)
    lines = [e for e in registry.read_log(root) if e.get("action") == "outbox"]
    records = [m | {"folder": e["folder"]} for e in lines[1:] for m in e["mails"]]
    assert len(records) > 40, "the round mailed its players many times"
    for rec in records:
        data = written_mail(root, f"{rec['folder']}/{rec['file']}")
        assert len(data) <= MAIL_BYTES, f"{rec['folder']}/{rec['file']}: {len(data):,} bytes"
    told = [rec for rec in records if rec["to"] == "moderator"]
    folders = {s.label[:4]: s for s in stepreports.steps(root)}
    long = 0
    for rec in told:
        steps = [step_part(folders[f"{n:04d}"], "moderator") for n in rec["steps"]]
        before = news.story_length(Digest("moderator", steps=steps[:-1]))
        assert before < news.LONG_STORY, f"{rec['folder']}: the story waited past {news.LONG_STORY:,} characters"
        if not news.story_moved(steps[-1], "moderator"):  # mailed for the length of its story alone
            assert news.story_length(Digest("moderator", steps=steps)) >= news.LONG_STORY
            long += 1
    assert long >= 1, "the action phase's story reached the moderator in more than one mail"


def _encoded(png: bytes) -> int:
    """The bytes a picture takes in a mail, as its part (base64, in lines)."""
    part = EmailMessage()
    part.set_content(png, maintype="image", subtype="png")
    return len(part.as_bytes(policy=policy.SMTP))


def test_ruling_317_a_mail_that_would_pass_the_bound_takes_the_map_drawn_smaller(
    reported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Path(shutil.copytree(reported, tmp_path / "first" / shapes.GAME))
    write_outbox(first, key=shapes.MODERATOR)
    sizes = {p.name: p.stat().st_size for p in (first / "outbox" / "0000").glob("*.eml")}
    full = _map_of((first / "outbox" / "0000" / "stark.eml").read_bytes())
    assert full is not None and png_size(full)[0] == MapLayout.classic().width
    bound = max(sizes.values()) - len(full) // 20  # the largest must shed map bytes; the 90% map sheds enough
    monkeypatch.setattr(mailbuild, "MAIL_BYTES", bound)
    again = Path(shutil.copytree(reported, tmp_path / "again" / shapes.GAME))
    write_outbox(again, key=shapes.MODERATOR)
    scales = {
        m["file"]: m["map_scale"] for e in registry.read_log(again) if e.get("action") == "outbox" for m in e["mails"]
    }
    assert MAP_SCALES[1] in scales.values(), "a mail drawn smaller"
    for name, was in sizes.items():
        data = (again / "outbox" / "0000" / name).read_bytes()
        png = _map_of(data)
        assert png is not None and len(data) <= bound, name
        scale = MAP_SCALES[0] if was <= bound else MAP_SCALES[1]  # only where it would pass the bound
        assert scales[name] == scale and png_size(png)[0] == round(MapLayout.classic().width * scale), name
