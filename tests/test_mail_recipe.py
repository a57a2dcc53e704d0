"""A sent mail is not stored twice: once sent it is kept as its recipe and made again from the reports
byte for byte (ruling 318)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from mail import shapes
from mail.loopback import LoopbackController, Recorder, game, recorder, reported, smtp  # noqa: F401

from adjudicator.folder import batch, registry, undo
from adjudicator.folder.ledger import Ledger
from adjudicator.mail import mailbuild
from adjudicator.mail.outbox import mark_sent, parse_smtp_url, send_outbox, write_outbox
from adjudicator.mail.recipe import RECIPE_SUFFIX, RecipeError, rebuild, recipe_path

MOD = shapes.MODERATOR


def records(root: Path) -> list[dict[str, Any]]:
    return [dict(m) | {"path": f"{e['folder']}/{m['file']}"} for e in registry.read_log(root)
            if e.get("action") == "outbox" for m in e["mails"]]  # fmt: skip


def server(smtp: LoopbackController):
    return parse_smtp_url(f"smtp://127.0.0.1:{smtp.port}")


def orders(root: Path, tmp: Path, seq: int = 1) -> None:
    path = tmp / f"stark-{seq}.txt"
    path.write_text(shapes.turn("stark", seq, f"# note {seq}"))
    batch.adjudicate(root, [path])


@pytest.mark.parametrize("scale", [1.0, 0.9])
def test_ruling_318_a_sent_mail_is_kept_as_its_recipe_and_made_again_byte_for_byte(
    game: Path,
    smtp: LoopbackController,
    recorder: Recorder,
    monkeypatch: pytest.MonkeyPatch,
    scale: float,
) -> None:
    if scale != 1.0:  # a bound every mail passes at its map's own size: the map drawn at 90% (ruling 317)
        monkeypatch.setattr(mailbuild, "MAIL_BYTES", 1)
        monkeypatch.setattr(mailbuild, "MAP_SCALES", (1.0, scale))
    write_outbox(game, key=MOD)
    recs = records(game)
    assert {r["to"] for r in recs} >= {"stark", "moderator"}
    for rec in recs:  # waiting: the whole mail, to send as it is, and its recipe beside it
        assert (game / rec["path"]).is_file() and (game / recipe_path(rec["path"])).is_file()
        assert rec.get("map_scale") == scale
    written = {rec["path"]: (game / rec["path"]).read_bytes() for rec in recs}
    assert send_outbox(game, server=server(smtp)).exit_status == 0
    got = {hashlib.sha256(data).hexdigest() for _, _, data in recorder.received}
    for rec in recs:
        assert not (game / rec["path"]).exists(), f"{rec['path']}: sent, kept as its recipe only"
        again = rebuild(game, rec)
        assert again == written[rec["path"]] and hashlib.sha256(again).hexdigest() in got
    recipe = (game / recipe_path(recs[0]["path"])).stat().st_size
    assert recipe * 10 < len(written[recs[0]["path"]]), "a recipe is a small part of its mail"


def test_ruling_318_mail_sent_by_hand_is_kept_as_its_recipe_too(game: Path) -> None:
    write_outbox(game, key=MOD)
    mark_sent(game)
    for rec in records(game):
        assert not (game / rec["path"]).exists() and hashlib.sha256(rebuild(game, rec)).hexdigest() == rec["sha256"]


def test_ruling_318_a_mail_whose_report_changed_since_stays_whole(game: Path, tmp_path: Path) -> None:
    write_outbox(game, key=MOD)
    (record,) = (game / "reports").glob("0000-*.json")
    doc = json.loads(record.read_text())
    doc["last_seqs"]["stark"] += 5  # Stark's skeleton changes: a hand edit of the step's reports
    record.write_text(json.dumps(doc))
    mark_sent(game)
    for rec in records(game):  # every mail of the step reads its folder, whose hash is not the one recorded
        assert (game / rec["path"]).is_file() and not (game / recipe_path(rec["path"])).exists(), \
            f"{rec['path']} cannot be made again: its .eml stays, its recipe goes"  # fmt: skip
        assert hashlib.sha256((game / rec["path"]).read_bytes()).hexdigest() == rec["sha256"]


def test_ruling_318_a_sent_mail_of_steps_rolled_back_is_made_again_from_the_reports_moved_aside(
    game: Path,
    tmp_path: Path,
) -> None:
    orders(game, tmp_path)
    write_outbox(game, key=MOD)
    mark_sent(game)
    undo.rollback(game, to=0, reason="a test")
    assert any((game / "reports").glob("rolled-back-*/0001-*")), "the step's reports moved aside"
    for rec in records(game):
        assert not (game / rec["path"]).exists()
        assert hashlib.sha256(rebuild(game, rec)).hexdigest() == rec["sha256"]


def test_ruling_318_a_waiting_mail_whose_eml_was_lost_is_made_again_and_sent(
    game: Path,
    smtp: LoopbackController,
    recorder: Recorder,
) -> None:
    write_outbox(game, key=MOD)
    rec = next(r for r in records(game) if r["to"] == "stark")
    written = (game / rec["path"]).read_bytes()
    (game / rec["path"]).unlink()
    assert send_outbox(game, server=server(smtp)).exit_status == 0
    assert written in [data for _, _, data in recorder.received]


def test_ruling_318_a_mail_that_cannot_be_made_again_is_not_sent_and_says_why(
    game: Path,
    smtp: LoopbackController,
) -> None:
    write_outbox(game, key=MOD)
    rec = next(r for r in records(game) if r["to"] == "stark")
    (game / rec["path"]).unlink()
    recipe = game / recipe_path(rec["path"])
    doc = json.loads(recipe.read_text())
    doc["address"] = "someone.else@example.org"
    recipe.write_text(json.dumps(doc))
    report = send_outbox(game, server=server(smtp))
    assert report.exit_status == 1
    assert any("SHA-256 differs" in line and "maester outbox" in line for line in report.failed), report.failed
    with pytest.raises(RecipeError, match="not the mail written"):
        rebuild(game, rec)


def test_ruling_318_a_folder_of_whole_mails_written_before_recipes_still_sends(
    game: Path,
    smtp: LoopbackController,
    recorder: Recorder,
) -> None:
    """Mails written by the Maester before recipes (the log records no ``recipe``): sent whole, kept whole."""
    write_outbox(game, key=MOD)
    for p in (game / "outbox").rglob(f"*{RECIPE_SUFFIX}"):
        p.unlink()
    lines = []
    for line in (game / "log").read_text().splitlines(keepends=True):
        e = json.loads(line)
        if e.get("action") == "outbox":
            e["mails"] = [{k: v for k, v in m.items() if k not in ("recipe", "map_scale")} for m in e["mails"]]
            line = json.dumps(e) + "\n"
        lines.append(line)
    (game / "log").write_text("".join(lines))
    manifest = game / "outbox" / "0000" / "manifest.json"
    written = {rec["path"]: (game / rec["path"]).read_bytes() for rec in records(game)}
    assert manifest.is_file()
    assert send_outbox(game, server=server(smtp)).exit_status == 0
    assert sorted(data for _, _, data in recorder.received) == sorted(written.values())
    for path, data in written.items():
        assert (game / path).read_bytes() == data, f"{path}: kept whole"
    assert Ledger.read(game).mail.queue() == []


def test_ruling_318_a_mail_superseded_before_it_was_sent_loses_its_recipe(game: Path, tmp_path: Path) -> None:
    write_outbox(game, key=MOD)
    first = next(r for r in records(game) if r["to"] == "stark")
    orders(game, tmp_path)
    write_outbox(game, key=MOD)
    assert not (game / first["path"]).exists() and not (game / recipe_path(first["path"])).exists()
    assert (game / "outbox" / "superseded" / first["path"].removeprefix("outbox/").replace("/", "-")).is_file()

