"""A step's reports: one record written by the run, its pages rendered when someone reads them.

A run writes one file of reports per step, ``reports/NNNN-rR-STEP.json``: what rendering needs
and the snapshot ``states/NNNN.toml`` does not hold (the step's events, the keys in force, the last
sequence numbers, the receipts of the files applied, already written out). Its pages (``public.txt``,
``public.html``, ``map.svg``, ``HOUSE.txt``, ``HOUSE.html``, ``HOUSE.json``, ``report.json``,
``receipts/NAME``) are rendered from the record and the snapshot when they are mailed, shown or
written out (``maester reports``), byte for byte what an older Maester wrote into a folder
``reports/NNNN-rR-STEP/``. Such a folder (``report.json`` in it marks it complete) is read as it is,
and so is one rendered with the moderator's templates (ruling 453). :class:`StepReports` is the one
way in for both; a process renders a step once (:func:`clear_cache` forgets).

>>> record_name("0003-r1-action")
'0003-r1-action.json'
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..game.state import GameState
from ..util import tomltext

if TYPE_CHECKING:  # the renderer is loaded when a page is first rendered, not by a reader that only lists steps
    from ..engine.ahead import Upcoming
    from ..engine.events import Event

RECORD_FORMAT = "maester-step-reports"
RECORD_VERSION = 1
REPORT_DONE = "report.json"  # written last in an older Maester's report folder: its presence marks it complete
RECEIPTS = "receipts/"  # the receipts' pages are named receipts/ARCHIVED-NAME, as in a report folder
CACHED_STEPS = 4  # the rendered pages kept in a process: a mail run reads the latest step for every reader


class StepReportsError(ValueError):
    """A step's record that cannot be read, or whose snapshot is gone."""


def record_name(label: str) -> str:
    """The file name of step ``label``'s record (beside the folders older steps may have)."""
    return f"{label}.json"


def record_bytes(*, events: Iterable[Event], requests: list[dict[str, Any]], pending: list[dict[str, Any]],
                 fingerprints: Mapping[str, list[str]], last_seqs: Mapping[str, int],
                 receipts: Mapping[str, str]) -> bytes:  # fmt: skip
    """A step's record, in deterministic bytes (sorted keys, compact): ``requests`` is written only
    when it is not the snapshot's own list of open requests (``pending``), which it always is today."""
    doc: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "events": [e.to_dict() for e in events],
        "fingerprints": {h: list(v) for h, v in fingerprints.items()},
        "last_seqs": dict(last_seqs),
        "receipts": dict(receipts),
    }
    if requests != pending:
        doc["requests"] = requests
    return (json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def read_record(data: bytes, *, where: str) -> dict[str, Any]:
    """:raises StepReportsError: when ``data`` is not a step's record of this Maester."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise StepReportsError(f"{where} is not a readable record of a step's reports ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT:
        raise StepReportsError(f"{where} is not a record of a step's reports")
    if doc.get("version") != RECORD_VERSION:
        raise StepReportsError(f"{where} is a record of version {doc.get('version')}; this Maester reads version "
                               f"{RECORD_VERSION}: use the Maester that wrote it")  # fmt: skip
    for key, kind in (("events", list), ("fingerprints", dict), ("last_seqs", dict), ("receipts", dict)):
        if not isinstance(doc.get(key), kind):
            raise StepReportsError(f"{where} has no {key} ({kind.__name__})")
    return doc


def render_pages(state: GameState, doc: Mapping[str, Any], *, templates_dir: str | Path | None = None) -> dict[str, str]:
    """Every page of a step (its names as in a report folder, ``report.json`` last) from its snapshot's
    state and its record (:func:`record_bytes`'s, read back)."""
    from ..engine.ahead import upcoming
    from ..engine.core.context import Request
    from ..engine.events import from_dict as event_from_dict
    from ..reports.report import MAP_FILE, render_reports, render_step_map
    from ..reports.verdicts import private_json

    events = [event_from_dict(dict(e)) for e in doc["events"]]
    asked: list[dict[str, Any]] = list(doc.get("requests", state.pending))
    requests = [Request.from_dict(r) for r in asked]  # as the run had them
    ahead: dict[str, list[Upcoming]] = {}  # by house, worked out once for its text and HTML

    def coming(house: str) -> list[Upcoming]:
        if house not in ahead:
            ahead[house] = upcoming(state, house, requests)
        return ahead[house]

    def render(viewers: list[str | None], formats: list[str]) -> dict[tuple[str | None, str], str]:
        return render_reports(state, events, viewers=viewers, formats=formats, requests=requests,
                              fingerprints=doc["fingerprints"], templates_dir=templates_dir,
                              last_seqs=doc["last_seqs"], split=True,
                              upcoming=coming if requests or not state.pending else None)  # fmt: skip

    # What every reader shares is one page (the public report, the map); each house's page holds
    # only its private part (docs/game-folder.md).
    ext = {"text": "txt", "html": "html"}
    pages = {f"{RECEIPTS}{name}": text for name, text in doc["receipts"].items()}
    pages |= {f"{viewer or 'public'}.{ext[fmt]}": page
              for (viewer, fmt), page in render([None, *state.houses_in_play], ["text", "html"]).items()}  # fmt: skip
    pages[MAP_FILE] = render_step_map(state, events, templates_dir=templates_dir)
    pages.update({f"{h}.json": private_json(state, events, h, asked) for h in state.houses_in_play})
    pages[REPORT_DONE] = render([None], ["json"])[(None, "json")]  # last: it marks a folder complete
    return pages


def snapshot_state(text: str, *, where: str) -> GameState:
    """The game state of a snapshot's text (``states/NNNN.toml``, its ``[snapshot]`` table left aside).

    :raises StepReportsError: when it does not read."""
    try:
        data = tomltext.loads(text)
        data.pop("snapshot", None)
        return GameState.from_dict(data)
    except (ValueError, KeyError, TypeError, AttributeError) as e:  # TOMLDecodeError is a ValueError
        raise StepReportsError(f"{where} is not a readable snapshot ({type(e).__name__}: {e})") from None


_rendered: OrderedDict[tuple[Any, ...], dict[str, bytes]] = OrderedDict()


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def clear_cache() -> None:
    """Forget every step rendered in this process (a test that edits a folder under a reader)."""
    _rendered.clear()


class StepReports:
    """The reports of one step of a game folder, whichever way they are kept.

    ``where`` is the folder holding them (``reports/``, or ``reports/rolled-back-K/`` once a rollback
    set them aside); ``folder`` the step's rendered folder when it has a complete one (an older
    Maester's, or one rendered with the moderator's templates), else None: its record is rendered.
    """

    def __init__(self, where: Path, label: str, folder: Path | None) -> None:
        self.where, self.label, self.folder = where, label, folder
        self.name = label  # as a report folder was named
        self.number = int(label[:4])

    def __repr__(self) -> str:
        return f"StepReports({str(self.where)!r}, {self.label!r}, folder={self.folder is not None})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StepReports) and (self.where, self.label) == (other.where, other.label)

    def __hash__(self) -> int:
        return hash((self.where, self.label))

    @property
    def record(self) -> Path:
        return self.where / record_name(self.label)

    def snapshot_path(self) -> Path:
        """Its snapshot: ``states/NNNN.toml``, or in the ``states/`` folder a rollback set it aside into."""
        states = self.where.parent.parent / "states" / self.where.name if self.where.name != "reports" else \
            self.where.parent / "states"  # fmt: skip
        return states / f"{self.number:04d}.toml"

    def pages(self) -> dict[str, bytes]:
        """Every page by its name in a report folder (``receipts/NAME`` for a receipt).

        :raises OSError, StepReportsError: when its files, its record or its snapshot cannot be read.
        """
        if self.folder is not None:
            names = [p.name for p in self.folder.iterdir() if p.is_file()]
            receipts = self.folder / "receipts"
            names += [f"{RECEIPTS}{p.name}" for p in receipts.iterdir() if p.is_file()] if receipts.is_dir() else []
            return {name: (self.folder / name).read_bytes() for name in sorted(names)}
        return dict(self._rendered())

    def _rendered(self) -> dict[str, bytes]:
        snapshot = self.snapshot_path()
        rec, snap = os.stat(self.record), os.stat(snapshot)
        key = (str(self.record), *_stamp(rec), *_stamp(snap))  # a file written again is rendered again
        if key in _rendered:
            _rendered.move_to_end(key)
            return _rendered[key]
        doc = read_record(self.record.read_bytes(), where=str(self.record))
        try:
            state = snapshot_state(snapshot.read_text(encoding="utf-8"), where=str(snapshot))
        except UnicodeDecodeError as e:
            raise StepReportsError(f"{snapshot} is not a readable snapshot ({e})") from None
        pages = {name: page.encode("utf-8") for name, page in render_pages(state, doc).items()}
        _rendered[key] = pages
        while len(_rendered) > CACHED_STEPS:
            _rendered.popitem(last=False)
        return pages

    def page(self, name: str) -> bytes:
        """One page (``public.txt``, ``stark.json``, ``receipts/NAME``...).

        :raises FileNotFoundError: when the step has no such page.
        :raises OSError, StepReportsError: when its files cannot be read.
        """
        if name.startswith("/") or ".." in name.split("/"):
            raise FileNotFoundError(f"{self.label} has no page {name}")  # a page is named inside its step
        if self.folder is not None:
            return (self.folder / name).read_bytes()
        pages = self._rendered()
        if name not in pages:
            raise FileNotFoundError(f"{self.label} has no page {name}")
        return pages[name]

    def text(self, name: str) -> str:
        return self.page(name).decode("utf-8")

    def receipts(self) -> dict[str, str]:
        """The receipts of the files applied in the step, by archived name."""
        if self.folder is not None:
            found = self.folder / "receipts"
            paths = sorted(p for p in found.iterdir() if p.is_file()) if found.is_dir() else []
            return {p.name: p.read_text(encoding="utf-8", errors="replace") for p in paths}
        doc = read_record(self.record.read_bytes(), where=str(self.record))
        return {str(k): str(v) for k, v in sorted(doc["receipts"].items())}

    def sha256(self) -> str:
        """A hash of the step's pages (their names and contents, the receipts left out), to know it again:
        the same for a record as for the folder its pages make (``maester reports``)."""
        h = hashlib.sha256()
        if self.folder is not None:
            pages = {p.name: p.read_bytes() for p in self.folder.iterdir() if p.is_file()}
        else:
            pages = {n: b for n, b in self._rendered().items() if not n.startswith(RECEIPTS)}
        for name in sorted(pages):
            h.update(name.encode() + b"\0" + hashlib.sha256(pages[name]).digest())
        return h.hexdigest()


def folder_done(path: Path) -> bool:
    """Whether ``path`` is a complete report folder (``report.json`` in it, written last)."""
    return (path / REPORT_DONE).is_file()


def is_done(reports: Path, label: str) -> bool:
    """Whether a run finished step ``label``'s outputs: its record, written last, is there. (A folder of
    pages is read as it is, but a run of this Maester always ends with the record: with the moderator's
    templates it writes the folder first, and an older Maester's latest step gets its record beside it.)"""
    return (reports / record_name(label)).is_file()


def listed(where: Path, prefix: str = "") -> list[StepReports]:
    """The complete steps kept in ``where`` (``reports/`` or a rolled-back folder), in order; ``prefix``:
    only the labels that start with it."""
    try:
        names = os.listdir(where)  # listed, not globbed: a long game has many
    except (FileNotFoundError, NotADirectoryError):
        return []
    labels: dict[str, StepReports] = {}
    for name in names:
        if not (name[:4].isdigit() and name[4:5] == "-" and name.startswith(prefix)):
            continue
        label = name.removesuffix(".json") if name.endswith(".json") else name
        if name.endswith(".json") and (where / name).is_file():
            labels.setdefault(label, StepReports(where, label, None))
        elif folder_done(where / name):
            labels[label] = StepReports(where, label, where / name)  # rendered pages are read as they are
    return [labels[k] for k in sorted(labels)]


def steps(root: Path) -> list[StepReports]:
    """The complete steps of the game folder ``root`` in force, in order."""
    return listed(root / "reports")


def step(root: Path, number: int) -> StepReports | None:
    """Step ``number``'s reports, when they are complete."""
    found = listed(root / "reports", f"{number:04d}-")
    return found[0] if found else None


def everywhere(root: Path, label: str) -> list[StepReports]:
    """Step ``label``'s reports in ``reports/`` and in the folders rollbacks set aside, in that order."""
    reports = root / "reports"
    aside = sorted(p for p in reports.glob("rolled-back-*") if p.is_dir()) if reports.is_dir() else []
    return [s for where in [reports, *aside] for s in listed(where, label) if s.label == label]


def write_out(found: StepReports, out: Path) -> Path:
    """Write step ``found``'s pages into ``out/NNNN-rR-STEP/`` as an older Maester's report folder held
    them (``report.json`` last), byte for byte; the folder written.

    :raises OSError, StepReportsError: when the pages cannot be read or the folder written.
    """
    from ..util import fileio

    pages = found.pages()
    ordered = {n: b for n, b in pages.items() if n != REPORT_DONE} | {n: b for n, b in pages.items() if n == REPORT_DONE}
    target = out / found.label
    fileio.write_folder(target, ordered)
    return target
