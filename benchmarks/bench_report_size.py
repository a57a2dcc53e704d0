"""How much a game's reports weigh on disk, and how many files a step writes: a whole robot game.

    python benchmarks/bench_report_size.py [--players 6] [--seed N ...] [--rounds R] [--expansion mother-of-dragons]
                                           [--timing] [--folder DIR]

Plays robot games through the real text path and measures what each step keeps of its reports in
``reports/``: its record ``NNNN-rR-STEP.json`` (issue 31: the pages are rendered from it when read),
or, in a folder an older Maester wrote, its folder of pages ``NNNN-rR-STEP/`` (public and private
text, HTML and JSON, map.svg, receipts). Prints the bytes per step (mean, median, largest) by kind,
the files written per step (every atomic write, new file and file of a folder: the archive, the
snapshot, state.toml, pending, pending.json, ledger.json, the reports; the log's appended lines
apart), and with ``--timing`` the CPU time per step of the text path over the engine alone
(``simulate(text=False)``), the pages rendered once afterwards (what mailing them costs).
``--folder`` plays into DIR (a tmpfs, say) instead of the system's temporary folder.
Goals (issue 31): every step at most 100 KB in the game folder; at most 10 files written a step.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.robots.simulate import simulate
from adjudicator.util import fileio

GOAL = 100_000
FILES_GOAL = 10


def kind(path: Path, step: Path) -> str:
    if step.is_file():
        return "record (NNNN-rR-STEP.json)"
    if path.parent != step:
        return "receipts"
    if path.stem == "public" or path.name in ("map.svg", "report.json"):
        return path.name
    return f"private .{path.suffix.lstrip('.')} (each house)"


@contextlib.contextmanager
def counted() -> Iterator[list[str]]:
    """Every file written while inside: atomic writes, new files, a folder's files."""
    written: list[str] = []
    real = fileio.atomic_write_bytes, getattr(fileio, "write_new", None), fileio.write_folder

    def write(path, data, **kw):  # type: ignore[no-untyped-def]
        written.append(str(path))
        return real[0](path, data, **kw)

    def new(path, data, **kw):  # type: ignore[no-untyped-def]
        written.append(str(path))
        return real[1](path, data, **kw)  # type: ignore[misc]

    def folder(path, files):  # type: ignore[no-untyped-def]
        written.extend(f"{path}/{n}" for n in files)
        return real[2](path, files)

    fileio.atomic_write_bytes, fileio.write_folder = write, folder  # type: ignore[assignment]
    if real[1] is not None:
        fileio.write_new = new  # type: ignore[assignment]
    try:
        yield written
    finally:
        fileio.atomic_write_bytes, fileio.write_folder = real[0], real[2]  # type: ignore[assignment]
        if real[1] is not None:
            fileio.write_new = real[1]  # type: ignore[assignment]


def step_entries(game: Path) -> list[Path]:
    """Each step's reports as kept: its record, or an older Maester's folder."""
    return sorted(p for p in (game / "reports").iterdir() if p.name[:4].isdigit() and (p.is_dir() or p.suffix == ".json"))


def measure(players: int, seed: int, rounds: int | None, expansion: str | None, where: str | None,
            timing: bool) -> dict[str, object]:  # fmt: skip
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        game = Path(tmp) / "g"
        t0 = time.process_time()
        with counted() as written:
            result = simulate(players, seed, rounds=rounds, expansion=expansion, out=game)
        text_s = time.process_time() - t0
        if result.problems:
            raise SystemExit(f"the game broke an invariant: {result.problems}")
        steps, kinds = [], Counter[str]()
        for step in step_entries(game):
            files = [step] if step.is_file() else [p for p in step.rglob("*") if p.is_file()]
            steps.append((sum(p.stat().st_size for p in files), step.name))
            for p in files:
                kinds[kind(p, step)] += p.stat().st_size
        out: dict[str, object] = {"steps": steps, "kinds": kinds, "files": len([p for p in written if p.startswith(str(game))])}
        if timing:
            t0 = time.process_time()
            engine = simulate(players, seed, rounds=rounds, expansion=expansion, text=False)
            out["engine_s"], out["text_s"] = time.process_time() - t0, text_s
            assert engine.final_line() == result.final_line(), (engine.final_line(), result.final_line())
            with contextlib.suppress(ImportError):  # the pages rendered from the records, as a mail run does
                from adjudicator.folder import stepreports

                t0 = time.process_time()
                for s in stepreports.steps(game):
                    s.pages()
                out["render_s"] = time.process_time() - t0
        return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, nargs="+", default=[2, 5])
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--expansion", default=None)
    ap.add_argument("--timing", action="store_true", help="also the CPU time per step, text path over engine only")
    ap.add_argument("--folder", default=None, help="play into this folder (default: the system's temporary one)")
    args = ap.parse_args()
    print("## bench_report_size\n")
    worst, most = 0, 0.0
    for seed in args.seed:
        m = measure(args.players, seed, args.rounds, args.expansion, args.folder, args.timing)
        steps, kinds = m["steps"], m["kinds"]
        assert isinstance(steps, list) and isinstance(kinds, Counter)
        sizes = [s for s, _ in steps]
        biggest = max(steps)
        worst = max(worst, biggest[0])
        n = len(steps)
        files = int(m["files"]) / n  # type: ignore[call-overload]
        most = max(most, files)
        print(f"{args.players}-player robot game{' (' + args.expansion + ')' if args.expansion else ''}, seed {seed}: "
              f"{n} steps, {sum(sizes):,} bytes of reports in all")  # fmt: skip
        print(f"  bytes per step: mean {statistics.mean(sizes):,.0f}, median {statistics.median(sizes):,.0f}, "
              f"largest {biggest[0]:,} ({biggest[1]}); goal <= {GOAL:,}: {'met' if biggest[0] <= GOAL else 'NOT met'}")
        for k, v in kinds.most_common():
            print(f"    {k:<28} {v / n:>9,.0f} bytes per step")
        print(f"  files written per step: {files:.1f}; goal <= {FILES_GOAL}: {'met' if files <= FILES_GOAL else 'NOT met'}")
        if "engine_s" in m:
            text_ms, engine_ms = 1000 * float(m["text_s"]) / n, 1000 * float(m["engine_s"]) / n  # type: ignore[arg-type]
            print(f"  CPU per step: text path {text_ms:.2f} ms, engine only {engine_ms:.2f} ms: "
                  f"{text_ms / engine_ms:.1f}x")
            if "render_s" in m:
                print(f"  every page of every step rendered afterwards: {1000 * float(m['render_s']) / n:.2f} ms a step")  # type: ignore[arg-type]
        print()
    return 0 if worst <= GOAL and most <= FILES_GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
