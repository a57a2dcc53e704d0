"""What ``make demo`` runs: replay the sample game from scratch and show where its reports are.

The sample game (``samples/game/``) is a short four-house game: sealed turn files for every
step, sealed with keys made for the demo only. :func:`play_sample` creates a fresh game folder
with the sample's houses and public seed, registers the demo keys, and adjudicates the files one
batch run at a time, exactly as a moderator would.

>>> import tempfile, shutil, pathlib
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> gd = create_demo(tmp / "demo")
>>> gd.info().houses
['stark', 'lannister', 'greyjoy', 'baratheon']
>>> shutil.rmtree(tmp)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..folder import registry, stepreports
from ..folder.batch import RunResult, adjudicate
from ..folder.gamedir import GameDir, create_game
from ..seals.keys import read_public_key
from ..util.resources import resource_dir

DEMO_HOUSES = ["stark", "lannister", "greyjoy", "baratheon"]
DEMO_SEED = "maester-demo"


def create_demo(root: Path) -> GameDir:
    """A four-player game with a fixed seed in ``root``."""
    return create_game(root, houses=DEMO_HOUSES, seed=DEMO_SEED)


# --- the sample game --------------------------------------------------------------------------


def sample_dir(name: str = "game") -> Path:
    """``samples/NAME`` of the checkout (or of the installed package, when it carries it): ``game``
    for the base game, ``mod-game`` for the Mother of Dragons sample, ``adwd-game`` for A Dance with Dragons',
    ``affc-game`` for A Feast for Crows'."""
    return resource_dir("samples") / name


@dataclass(frozen=True)
class SampleRun:
    """One batch run of the sample: the folder of files mailed for it, and whether a deadline followed."""

    files: str
    deadline: bool = False


def sample_plan(sample: Path | None = None) -> tuple[dict[str, Any], list[SampleRun]]:
    """The sample's ``[game]`` table and its runs, from ``sample.toml``."""
    data = tomllib.loads(((sample or sample_dir()) / "sample.toml").read_text(encoding="utf-8"))
    return data["game"], [SampleRun(r["files"], bool(r.get("deadline", False))) for r in data["run"]]


def new_sample_game(root: Path, sample: Path | None = None) -> GameDir:
    """A fresh game folder for the sample: its houses, seed and any expansion, the demo keys registered."""
    sample = sample or sample_dir()
    game, _ = sample_plan(sample)
    gd = create_game(root, houses=list(game["houses"]), game_id=game["id"], seed=game["seed"],
                     expansion=game.get("expansion"))  # fmt: skip
    for house in game["houses"]:
        key = read_public_key(sample / "keys" / f"DEMO-ONLY-{house}.pub")
        registry.register_key(gd.root, house, key)
    return gd


def play_sample(root: Path, sample: Path | None = None, *, upto: int | None = None,
                each: Callable[[SampleRun, RunResult], None] | None = None) -> list[RunResult]:  # fmt: skip
    """Replay the sample game into a new game folder ``root``: each run's sealed files, then any deadline.

    ``upto`` stops after that many runs; ``each(run, result)`` is called after every batch run.
    """
    sample = sample or sample_dir()
    _, runs = sample_plan(sample)
    gd = new_sample_game(root, sample)
    results = [adjudicate(gd.root)]
    for run in runs[:upto]:
        for f in sorted((sample / "sealed" / run.files).glob("*.txt")):
            shutil.copyfile(f, gd.root / "inbox" / f"{run.files}-{f.name}")
        results.append(adjudicate(gd.root))
        if each:
            each(run, results[-1])
        if run.deadline:
            results.append(adjudicate(gd.root, deadline=True))
            if each:
                each(run, results[-1])
    return results


DEMO_FOLDER = "demo-game"  # make demo's folder in the checkout (git ignores it)
RENDERED = "rendered"  # in the demo's folder: its reports as files to open ('maester reports GAME --out DIR')


def main(argv: Sequence[str] | None = None) -> int:
    """Replay the sample game into FOLDER (default ``demo-game``), replacing an earlier demo there,
    and print what to open. A folder that is not an earlier demo is never replaced."""
    parser = argparse.ArgumentParser(prog="python -m adjudicator.demo", description=main.__doc__)
    parser.add_argument("folder", nargs="?", default=DEMO_FOLDER, type=Path)
    root = parser.parse_args(argv).folder.absolute()
    game, _ = sample_plan()
    if root.exists() and not _is_demo(root, game["id"]):
        print(f"demo: {root} is not a demo game folder; it is left alone: name another folder", file=sys.stderr)
        return 2
    fresh, old = root.with_name(f".{root.name}.new"), root.with_name(f".{root.name}.old")
    for leftover in (fresh, old):  # from a demo that was interrupted
        shutil.rmtree(leftover, ignore_errors=True)
    results = play_sample(fresh)
    if root.exists():
        root.rename(old)
    fresh.rename(root)
    shutil.rmtree(old, ignore_errors=True)
    steps = stepreports.steps(root)  # the game keeps a record a step: its pages are rendered to open them
    rendered = [stepreports.write_out(s, root / RENDERED) for s in steps]
    latest = rendered[-1]
    print(f"Replayed the sample game: {len(results)} batch runs, {sum(len(r.accepted) for r in results)} sealed files.")
    print((root / "pending").read_text(encoding="utf-8"), end="")
    print(f"\nThe demo game is in {root} (replaced on each run)")
    print(f"Open in a browser: {latest / 'public.html'}")
    print(f"  and House Stark's private part: {latest / 'stark.html'} (the mail joins it to the public one)")
    beside = Path(sys.executable).parent / "maester"  # .venv/bin/maester after make demo
    maester = str(beside) if beside.is_file() else "maester"
    print(f"Try: {maester} status {root}   {maester} replay {root}   {maester} reports {root} --house stark")
    return 0


def _is_demo(root: Path, game_id: str) -> bool:
    """True when ``root`` holds an earlier demo (the sample's game id), or is an empty folder."""
    if root.is_dir() and not any(root.iterdir()):
        return True
    try:
        data = tomllib.loads((root / "game.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(data.get("game"), dict) and data["game"].get("id") == game_id


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
