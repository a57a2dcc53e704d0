"""A step's outputs: ``state.toml``, ``pending``, the receipts and the step's report folder.

A run writes them after the step's snapshot, its commit point (see :mod:`adjudicator.folder.batch`);
each is re-derived from the snapshot, so a run finishing a killed one's writes gives the same bytes.
The time each part of a run takes is counted in :class:`Timings` (for the benchmark).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine.ahead import Upcoming, upcoming
from ..util import fileio
from . import registry
from .audit import REPORT_DONE, Folder, Outcome, write_pending
from .ledger import Ledger
from .receipts import accepted_receipt, replaced_answers


@dataclass
class Timings:
    """Seconds spent per part of a run (for the benchmark)."""

    verify: float = 0.0
    parse: float = 0.0
    engine: float = 0.0
    render: float = 0.0
    write: float = 0.0


def clock() -> float:
    """Seconds on a steady clock, to time the parts of a run."""
    import time

    return time.perf_counter()


def write_outputs(folder: Folder, outcome: Outcome, text: str, *, ledger: Ledger, templates_dir: Path | None,
                  timings: Timings) -> None:  # fmt: skip
    """``state.toml``, ``pending``, then the step's report folder, whole at once (``report.json`` in it
    marks it complete: a run finishing a killed one's writes into it file by file, that one last)."""
    from ..reports.report import MAP_FILE, render_reports, render_step_map
    from ..reports.verdicts import private_json

    t0 = clock()
    snap = outcome.snapshot
    state, events, requests = snap.state, outcome.events, outcome.requests
    fileio.atomic_write_text(folder.gd.state_file, text)
    replaced = replaced_answers(outcome.start, outcome.understood) if outcome.understood else {}
    ahead: dict[str, list[Upcoming]] = {}  # by house: what comes up for it, worked out once for its report and receipts

    def coming(house: str) -> list[Upcoming]:
        if house not in ahead:
            ahead[house] = upcoming(state, house, requests)
        return ahead[house]

    receipts: dict[str, str] = {}
    for u in outcome.understood:
        by = f"{registry.house_name(u.header.house)} ({u.fingerprint})"
        receipts[f"receipts/{u.name}"] = accepted_receipt(u, outcome, by, replaced.get(u.name), ahead=coming(u.header.house))
    fps = registry.fingerprints_in_force(folder.root)
    best = ledger.highest_for(state.round, state.phase)
    seqs = {h: best.get((h, state.round, state.phase), 0) for h in state.houses_in_play}
    t1 = clock()

    def render(viewers: list[str | None], formats: list[str]) -> dict[tuple[str | None, str], str]:
        return render_reports(state, events, viewers=viewers, formats=formats, requests=requests, fingerprints=fps,
                              templates_dir=templates_dir, last_seqs=seqs, split=True,
                              upcoming=coming if requests or not state.pending else None)  # the reports' requests  # fmt: skip

    # What every reader shares is written once (the public report, the map); each house's file
    # holds only its private part (docs/game-folder.md): a 6-player step stays within 100 KB.
    ext = {"text": "txt", "html": "html"}
    pages = receipts | {f"{viewer or 'public'}.{ext[fmt]}": page
                        for (viewer, fmt), page in render([None, *state.houses_in_play], ["text", "html"]).items()}  # fmt: skip
    pages[MAP_FILE] = render_step_map(state, events, templates_dir=templates_dir)
    reqs = [r.to_dict() for r in requests]
    pages.update({f"{h}.json": private_json(state, events, h, reqs) for h in state.houses_in_play})
    pages[REPORT_DONE] = render([None], ["json"])[(None, "json")]  # last: it marks the folder complete
    t2 = clock()
    write_pending(folder, snap)
    # The step's folder appears whole, by one rename (a run finishing a killed one's writes into it).
    fileio.write_folder(folder.report_dir(snap), {name: page.encode("utf-8") for name, page in pages.items()})
    timings.render += t2 - t1
    timings.write += (t1 - t0) + (clock() - t2)
