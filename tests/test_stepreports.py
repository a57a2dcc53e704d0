"""A step's reports kept as one record and rendered when they are read (issue 31,
``adjudicator/folder/stepreports.py``): the files a step writes, a folder an older Maester wrote
(``tests/data/old_layout_game``), the moderator's templates, replay and repair, ``maester reports``."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from clikit import files, reports_of, run
from test_sample_game import EXPECTED, assert_matches_approved

from adjudicator.folder import batch, outputs, stepreports
from adjudicator.mail import digest, outbox
from adjudicator.robots.demo import play_sample, sample_dir, sample_plan
from adjudicator.robots.simulate import simulate
from adjudicator.util import fileio

OLD = Path(__file__).resolve().parent / "data" / "old_layout_game"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
FILES_PER_STEP = 10  # issue 31's goal: archive/, states/, state.toml, pending, pending.json, ledger.json, the record
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample game played whole by this Maester."""
    root = tmp_path_factory.mktemp("fresh") / "sample"
    play_sample(root)
    return root


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file the process writes from now on (atomic writes, new files, a folder's files)."""
    written: list[str] = []
    real_write, real_new, real_folder = fileio.atomic_write_bytes, fileio.write_new, fileio.write_folder
    real_stage = fileio.stage

    def write(path, data, **kw):  # type: ignore[no-untyped-def]
        written.append(str(path))
        return real_write(path, data, **kw)

    def stage(path, data):  # type: ignore[no-untyped-def]  # a file given two names: state.toml and its snapshot
        written.append(str(path))
        return real_stage(path, data)

    def new(path, data, **kw):  # type: ignore[no-untyped-def]
        written.append(str(path))
        return real_new(path, data, **kw)

    def folder(path, pages):  # type: ignore[no-untyped-def]
        written.extend(f"{path}/{name}" for name in pages)
        return real_folder(path, pages)

    monkeypatch.setattr(fileio, "atomic_write_bytes", write)
    monkeypatch.setattr(fileio, "stage", stage)
    monkeypatch.setattr(fileio, "write_new", new)
    monkeypatch.setattr(fileio, "write_folder", folder)
    return written


def test_issue_31_each_step_of_the_sample_writes_at_most_ten_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    written = _counting(monkeypatch)
    per_run: list[tuple[list[str], list[str]]] = []
    mark = [0]

    def each(_run, result):  # type: ignore[no-untyped-def]
        per_run.append((result.steps, written[mark[0]:]))
        mark[0] = len(written)

    root = tmp_path / "sample"
    play_sample(root, each=each)
    assert len(per_run) > 5
    for steps, paths in per_run[1:]:  # the first also holds the game's making and its first step
        names = [str(Path(p).relative_to(root)) for p in paths]
        assert len(names) <= FILES_PER_STEP * max(1, len(steps)), (steps, names)
        reports = [n for n in names if n.startswith("reports/")]
        assert reports == [f"reports/{label}.json" for label in steps], "one file of reports a step: its record"


def test_issue_31_a_six_player_robot_game_writes_at_most_ten_files_a_step(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):  # fmt: skip
    written = _counting(monkeypatch)
    root = tmp_path / "six"
    assert simulate(6, 1, rounds=2, out=root).problems == []
    steps = len(list((root / "states").glob("[0-9][0-9][0-9][0-9].toml")))
    mine = [p for p in written if Path(p).is_relative_to(root)]
    assert steps > 10 and len(mine) <= FILES_PER_STEP * steps, (len(mine), steps)
    assert sorted(p.name for p in (root / "reports").iterdir()) == sorted(f"{s.label}.json" for s in stepreports.steps(root))


# --- a folder an older Maester wrote ------------------------------------------------------------


def _old(tmp_path: Path) -> Path:
    root = tmp_path / "old" / "sample"
    shutil.copytree(OLD, root)
    (root / "inbox").mkdir(exist_ok=True)  # empty: not kept in the checkout
    return root


def _go_on(root: Path, first: int) -> None:
    """The sample's runs from ``first`` on, into ``root``, as play_sample plays them."""
    sample = sample_dir()
    _, runs = sample_plan(sample)
    for r in runs[first:]:
        for f in sorted((sample / "sealed" / r.files).glob("*.txt")):
            shutil.copyfile(f, root / "inbox" / f"{r.files}-{f.name}")
        batch.adjudicate(root)
        if r.deadline:
            batch.adjudicate(root, deadline=True)


def test_issue_31_an_older_maesters_folder_is_read_as_it_is_and_replays(tmp_path: Path, fresh: Path):
    root = _old(tmp_path)
    steps = stepreports.steps(root)
    assert [s.label for s in steps] == ["0000-r1-planning", "0001-r1-planning", "0002-r1-action"]
    for step in steps:
        assert step.folder is not None, "an older Maester's pages, read as they are"
        kept = files(root / "reports" / step.label)
        assert step.pages() == {n.replace("\\", "/"): b for n, b in kept.items()}
        again = stepreports.step(fresh, step.number)
        assert again is not None and again.folder is None and again.pages() == step.pages(), \
            f"{step.label}: the record renders every page the older Maester wrote, byte for byte"  # fmt: skip
        assert again.sha256() == step.sha256(), "a mail's recipe knows the step again, whichever way it is kept"
    check = outputs.replay(root)
    assert check.ok, check.lines()


def test_issue_31_an_older_maesters_folder_goes_on_with_the_same_reports_and_mails(tmp_path: Path, fresh: Path):
    root = _old(tmp_path)
    _go_on(root, 2)  # upto=2 made the folder
    assert_matches_approved(root, EXPECTED)
    assert files(reports_of(root)) == files(reports_of(fresh)), "every page of every step as the fresh game's"
    check = outputs.replay(root)
    assert check.ok, check.lines()
    kept = sorted(p.name for p in (root / "reports").iterdir())
    assert [n for n in kept if not n.endswith(".json")] == ["0000-r1-planning", "0001-r1-planning", "0002-r1-action"]
    assert "0002-r1-action.json" in kept, "the latest old step's record, written beside its folder by the next run"
    for step in stepreports.steps(root):  # what every reader's mail is made of
        other = stepreports.step(fresh, step.number)
        assert other is not None
        for who in ("stark", "lannister", "greyjoy", "baratheon", digest.MODERATOR, digest.PUBLIC):
            assert digest.read_step(step, who) == digest.read_step(other, who), (step.label, who)
    bodies = []
    for game in (root, fresh):
        outbox.write_outbox(game, sender="moderator@example.org", public_to="game@example.org", now=NOW)
        mails = sorted((game / "outbox").glob("[0-9]*/*.eml"))
        assert [m.name for m in mails] == ["moderator.eml", "public.eml"]
        bodies.append([_bodies(m) for m in mails])
    assert bodies[0] == bodies[1], "the mails of both folders say the same, word for word"


def _bodies(path: Path) -> tuple[str, str, list[bytes]]:
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    text, page = msg.get_body(("plain",)), msg.get_body(("html",))
    assert text is not None and page is not None
    return str(text.get_content()), str(page.get_content()), [p.get_content() for p in msg.iter_attachments()]


def test_ruling_455_a_folder_an_older_maester_left_half_written_is_finished_by_the_record(tmp_path: Path,
                                                                                         fresh: Path):  # fmt: skip
    root = _old(tmp_path)
    latest = root / "reports" / "0002-r1-action"
    (latest / "report.json").unlink()  # killed before its last write
    (latest / "public.html").unlink()
    assert [s.label for s in stepreports.steps(root)] == ["0000-r1-planning", "0001-r1-planning"]
    batch.adjudicate(root)
    assert not latest.exists() and (root / "reports" / "0002-r1-action.json").is_file()
    step = stepreports.step(root, 2)
    other = stepreports.step(fresh, 2)
    assert step is not None and other is not None and step.pages() == other.pages()
    assert (root / "reports" / "0002-r1-action.json").read_bytes() == other.record.read_bytes()


# --- the moderator's templates (ruling 453) -------------------------------------------------------


def test_ruling_453_reports_rendered_with_the_moderators_templates_are_kept_rendered(tmp_path: Path, fresh: Path):
    mine = tmp_path / "mine"
    shutil.copytree(TEMPLATES, mine)
    page = mine / "report.txt.j2"
    page.write_text(page.read_text(encoding="utf-8") + "Moderated by hand-made templates.\n", encoding="utf-8")
    root = tmp_path / "sample"
    play_sample(root, upto=1)
    batch.adjudicate(root, templates_dir=mine)  # nothing new: the outputs are there already
    labels = [s.label for s in stepreports.steps(root)]
    _, runs = sample_plan()
    for f in sorted((sample_dir() / "sealed" / runs[1].files).glob("*.txt")):
        shutil.copyfile(f, root / "inbox" / f.name)
    result = batch.adjudicate(root, templates_dir=mine)
    (label,) = result.steps
    step = stepreports.step(root, int(label[:4]))
    assert step is not None and step.folder == root / "reports" / label, "its pages, rendered with the templates"
    assert step.text("public.txt").endswith("Moderated by hand-made templates.\n")
    assert step.record.read_bytes() == (fresh / "reports" / f"{label}.json").read_bytes(), "the same record"
    assert all(s.folder is None for s in stepreports.steps(root) if s.label in labels)
    check = outputs.replay(root)
    assert check.ok, check.lines()


# --- replay and repair (ruling 454) ---------------------------------------------------------------


def test_ruling_454_replay_finds_a_record_edited_and_repair_writes_it_again(tmp_path: Path, fresh: Path):
    root = tmp_path / "sample"
    shutil.copytree(fresh, root)
    record = root / "reports" / "0001-r1-planning.json"
    good = record.read_bytes()
    doc = json.loads(good)
    doc["receipts"] = {name: text.replace("bid", "bad") for name, text in doc["receipts"].items()}
    record.write_bytes(stepreports.record_bytes(events=[], requests=[], pending=[], fingerprints=doc["fingerprints"],
                                                last_seqs=doc["last_seqs"], receipts=doc["receipts"]))  # fmt: skip
    check = outputs.replay(root)
    assert not check.ok and any("reports/0001-r1-planning.json differs from its re-derivation" in p
                                for p in check.problems), check.lines()  # fmt: skip
    (root / "reports" / "0002-r1-action.json").unlink()
    check = outputs.replay(root)
    assert any("reports/0002-r1-action.json is missing" in p for p in check.problems), check.lines()
    repaired = batch.repair(root)
    assert "rebuilt reports/0001-r1-planning.json (the damaged one is 0001-r1-planning.json.damaged)" in repaired.notes
    assert "rebuilt reports/0002-r1-action.json" in repaired.notes
    assert record.read_bytes() == good and outputs.replay(root).ok
    # A record lost is written with the sequence numbers the log has now (later files of the step's round
    # and phase count): everything else is the record the run wrote.
    lost, kept = (json.loads((g / "reports" / "0002-r1-action.json").read_text()) for g in (root, fresh))
    assert {k: v for k, v in lost.items() if k != "last_seqs"} == {k: v for k, v in kept.items() if k != "last_seqs"}
    shutil.copyfile(fresh / "reports" / "0002-r1-action.json", root / "reports" / "0002-r1-action.json")
    assert files(root / "reports") == files(fresh / "reports") | {"0001-r1-planning.json.damaged": (
        root / "reports" / "0001-r1-planning.json.damaged").read_bytes()}  # fmt: skip


def test_ruling_454_a_record_that_does_not_read_is_named(tmp_path: Path, fresh: Path):
    root = tmp_path / "sample"
    shutil.copytree(fresh, root)
    (root / "reports" / "0001-r1-planning.json").write_text("{not json")
    check = outputs.replay(root)
    assert any("0001-r1-planning.json is not a readable record of a step's reports" in p for p in check.problems)
    assert stepreports.step(root, 1) is not None
    with pytest.raises(stepreports.StepReportsError, match="is not a readable record"):
        stepreports.step(root, 1).page("public.txt")  # type: ignore[union-attr]


# --- maester reports ------------------------------------------------------------------------------


def test_maester_reports_prints_a_page_and_writes_the_folders_of_an_older_maester(capsys, tmp_path: Path,
                                                                                fresh: Path):  # fmt: skip
    latest = stepreports.steps(fresh)[-1]
    assert run(capsys, "reports", fresh) == (0, latest.text("public.txt"), "")
    assert run(capsys, "reports", fresh, "--house", "stark", "--format", "html") == (0, latest.text("stark.html"), "")
    first = stepreports.step(fresh, 0)
    assert first is not None
    assert run(capsys, "reports", fresh, "--step", "0", "--format", "json") == (0, first.text("report.json"), "")
    code, out, _ = run(capsys, "reports", fresh, "--out", tmp_path / "pages")
    assert code == 0 and out.startswith(f"wrote the reports of {len(stepreports.steps(fresh))} step(s) into ")
    old = _old(tmp_path)
    for step in stepreports.steps(old):  # an older Maester's folder, as it wrote it
        assert files(tmp_path / "pages" / step.label) == files(old / "reports" / step.label), step.label
    code, _, err = run(capsys, "reports", fresh, "--house", "tyrell")
    assert code == 2 and f"step {latest.label} has no report for house 'tyrell'" in err
    code, _, err = run(capsys, "reports", fresh, "--house", "../stark")
    assert code == 2 and "has no report for house '../stark'" in err
    code, _, err = run(capsys, "reports", fresh, "--step", "99")
    assert code == 2 and "step 0099 has no complete reports" in err


def test_issue_31_each_record_names_the_keys_in_force_when_its_run_read_game_toml(tmp_path: Path):
    """A run reads ``game.toml`` once for its intake and its records: a key registered between two
    runs is in the records of the steps after it, and every record names the keys the registry
    holds when its run ends."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from adjudicator.folder import registry
    from adjudicator.seals.keys import PublicKey

    extra = PublicKey.from_key(Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33))), "spare")
    root = tmp_path / "sample"
    seen: list[tuple[str, dict[str, list[str]]]] = []

    def each(_run, result):  # type: ignore[no-untyped-def]
        for label in result.steps:
            seen.append((label, json.loads((root / "reports" / f"{label}.json").read_text())["fingerprints"]))
        assert all(fps == registry.fingerprints_in_force(root) for _, fps in seen[-len(result.steps):])
        if len(seen) == len(result.steps):  # after the first run that resolved a step
            registry.register_key(root, "stark", extra)

    play_sample(root, upto=3, each=each)
    assert len(seen) >= 2
    first, later = seen[0][1], [fps for _, fps in seen[1:]]
    assert extra.fingerprint not in first["stark"]
    assert later and all(fps["stark"] == [*first["stark"], extra.fingerprint] for fps in later)
