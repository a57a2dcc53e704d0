"""Many game folders in one command (``maester adjudicate --all``), a few at a time in separate processes.

Each folder is adjudicated as alone (:func:`adjudicator.folder.batch.adjudicate`); one that cannot
be is named with its reason, and the others go on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from . import batch, registry
from .gamedir import GameDirError


def _one(job: tuple[str, bool, str | None, datetime | None]) -> tuple[str, int, list[str]]:
    root, deadline, templates, now = job
    try:
        r = batch.adjudicate(root, deadline=deadline, templates_dir=templates, now=now)
        return root, r.exit_status, [f"{root} (game {r.game}):", *r.lines()[1:]]
    except (GameDirError, registry.RegistryError, OSError) as e:
        return root, 2, [f"game {root}: {e}"]


def game_folders(parent: str | Path) -> list[Path]:
    """The game folders directly inside ``parent`` (those with a ``game.toml``), sorted."""
    return sorted(p for p in Path(parent).iterdir() if (p / "game.toml").is_file())


def adjudicate_all(parent: str | Path, *, jobs: int = 1, deadline: bool = False,
                   templates_dir: str | Path | None = None, now: datetime | None = None,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, tuple[int, list[str]]]:  # fmt: skip
    """Adjudicate every game folder in ``parent``, ``jobs`` at a time in separate processes.

    Returns, per folder, the exit status and the lines of its run. ``progress(done, total)`` is
    called after each folder.
    """
    work = [(str(p), deadline, str(templates_dir) if templates_dir else None, now) for p in game_folders(parent)]
    out: dict[str, tuple[int, list[str]]] = {}
    if jobs <= 1:
        for i, job in enumerate(work, 1):
            root, code, lines = _one(job)
            out[root] = (code, lines)
            if progress:
                progress(i, len(work))
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed  # here: one game needs no process pool

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_one, job) for job in work]
        for i, fut in enumerate(as_completed(futures), 1):
            root, code, lines = fut.result()
            out[root] = (code, lines)
            if progress:
                progress(i, len(work))
    return dict(sorted(out.items()))


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on a terminal (nothing when the output is not one)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
