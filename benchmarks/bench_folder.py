"""What a game folder costs over a game: the figures of issue 31's table, each printed with its goal.

    python benchmarks/bench_folder.py [--rounds N]

Two robot games (``maester simulate``'s robots): 6 players, seed 2, the whole game; 8 players with
Mother of Dragons, seed 2, 3 rounds. For each game and each place of the game folder, a folder in
``/tmp`` (ext4 here) and one in ``/dev/shm`` (tmpfs: the disk left out), one new process plays
the game with the engine alone (``simulate(text=False)``), then through the text path (turn files,
seals, inbox, ``batch.adjudicate``, reports, into the folder), checks that both ended alike, and
prints:

* per step, the CPU time (``time.process_time``: user and system, not the time waited for the
  disk) of the text path over the engine alone (goal: at most 4x on ext4, 3x on tmpfs);
* the process's peak resident memory, ``resource.getrusage(RUSAGE_SELF).ru_maxrss``, the
  interpreter and both plays of the game included (goal: at most 50 MiB).

Then one more process per game plays the text path into ``/dev/shm`` once more, untimed, to count:

* files written per step (goal: at most 10): before and after each ``batch.adjudicate`` the game
  folder is walked, and every file that is new or replaced after the run (a new inode, or a new
  modification time or size) is counted; the log (``log``), to which each run only appends, is left
  out. A file written twice in one run counts once; a temporary file gone by the run's end, never;
  the robots' turn files dropped into the inbox before the run are not the run's.
* report bytes per step (goal: at most 100 KB for both games): the bytes of every file under
  ``reports/`` at the end of the game, over its steps.

``--rounds N`` plays only N rounds of the 6-player game (a quicker look; the table's figure is the
whole game). The machine's load average is printed before and after. Run against another checkout
with ``benchmarks/run_all.py folder --baseline DIR`` (``MAESTER_BENCH_PACKAGE``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

GAMES = {"6 players": (6, 2, None), "8 players, Mother of Dragons": (8, 2, 3)}  # players, seed, rounds (None: whole game)
PLACES = {"ext4": "/tmp", "tmpfs": "/dev/shm"}
GOAL_RATIO = {"ext4": 4.0, "tmpfs": 3.0}
GOAL_FILES, GOAL_KB, GOAL_MIB = 10, 100, 50


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def timed_play(players: int, seed: int, rounds: int | None, place: str) -> dict[str, Any]:
    """In this process: the game engine-only, then through the text path in a folder under ``place``."""
    import resource

    from adjudicator.robots.simulate import simulate

    t0 = time.process_time()
    engine = simulate(players, seed, rounds=rounds, text=False)
    engine_s = time.process_time() - t0
    where = Path(tempfile.mkdtemp(prefix="maester-bench-folder-", dir=place))
    try:
        t0 = time.process_time()
        text = simulate(players, seed, rounds=rounds, out=where / "game")
        text_s = time.process_time() - t0
    finally:
        shutil.rmtree(where, ignore_errors=True)
    alike = (engine.winner, engine.round, engine.steps) == (text.winner, text.round, text.steps)
    problems = engine.problems + text.problems + ([] if alike else [f"engine-only {engine.final_line()}, text {text.final_line()}"])
    return {"steps": text.steps, "engine_s": engine_s, "text_s": text_s, "problems": problems,
            "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}  # fmt: skip


def _files(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under ``root`` but the log: its (inode, modification time, size)."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            out[path] = (st.st_ino, st.st_mtime_ns, st.st_size)
    out.pop(os.path.join(root, "log"), None)
    return out


def counted_play(players: int, seed: int, rounds: int | None) -> dict[str, Any]:
    """In this process: the text path into ``/dev/shm``, counting the files each run wrote, and the reports' bytes."""
    from adjudicator.folder import batch
    from adjudicator.robots.simulate import simulate

    real, written = batch.adjudicate, [0]

    def counting(root: Path, *args: Any, **kwargs: Any) -> Any:
        before = _files(Path(root))
        try:
            return real(root, *args, **kwargs)
        finally:
            after = _files(Path(root))
            written[0] += sum(1 for path, seen in after.items() if before.get(path) != seen)

    where = Path(tempfile.mkdtemp(prefix="maester-bench-folder-", dir=PLACES["tmpfs"]))
    batch.adjudicate = counting  # type: ignore[assignment]  # simulate calls it through the module
    try:
        game = where / "game"
        result = simulate(players, seed, rounds=rounds, out=game)
        reports = sum(p.stat().st_size for p in (game / "reports").rglob("*") if p.is_file())
    finally:
        batch.adjudicate = real  # type: ignore[assignment]
        shutil.rmtree(where, ignore_errors=True)
    return {"steps": result.steps, "files": written[0], "report_bytes": reports, "problems": result.problems}


def child(argv: list[str]) -> dict[str, Any]:
    """Run one play in a new process (this script with ``--child``) and read back its figures."""
    run = subprocess.run([sys.executable, __file__, "--child", json.dumps(argv)], capture_output=True, text=True,
                         check=False)  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"bench_folder: a play failed:\n{run.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return figures


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, help="rounds of the 6-player game (default: the whole game)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        kind, players, seed, rounds, *place = json.loads(args.child)
        figures = timed_play(players, seed, rounds, *place) if kind == "timed" else counted_play(players, seed, rounds)
        print(json.dumps(figures))
        return 0
    games = dict(GAMES)
    if args.rounds is not None:
        games["6 players"] = (6, 2, args.rounds)
    print(f"game folder's cost, CPU time per step; package {ROOT}; Python {sys.version.split()[0]}; load before: {load()}")
    problems: list[str] = []
    for game, (players, seed, rounds) in games.items():
        length = "the whole game" if rounds is None else f"{rounds} rounds"
        print(f"\n{game}, seed {seed}, {length}:")
        for place_name, place in PLACES.items():
            f = child(["timed", players, seed, rounds, place])
            problems += f["problems"]
            engine_ms, text_ms = f["engine_s"] / f["steps"] * 1000, f["text_s"] / f["steps"] * 1000
            ratio, mib = text_ms / engine_ms, f["maxrss_kib"] / 1024
            print(f"  {place_name:5} ({place}): {f['steps']} steps; engine-only {engine_ms:6.2f} ms/step, text path "
                  f"{text_ms:6.2f} ms/step = {ratio:5.2f}x (goal <= {GOAL_RATIO[place_name]:.0f}x: "
                  f"{verdict(ratio <= GOAL_RATIO[place_name])}); peak memory {mib:.1f} MiB "
                  f"(goal <= {GOAL_MIB}: {verdict(mib <= GOAL_MIB)}); load {load()}")
        c = child(["counted", players, seed, rounds])
        problems += c["problems"]
        files, kb = c["files"] / c["steps"], c["report_bytes"] / c["steps"] / 1000
        print(f"  files written per step {files:.1f} (goal <= {GOAL_FILES}: {verdict(files <= GOAL_FILES)}); "
              f"report bytes per step {kb:.1f} KB (goal <= {GOAL_KB}: {verdict(kb <= GOAL_KB)}); load {load()}")
    print(f"\nload after: {load()}")
    for line in problems:
        print(f"problem: {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
