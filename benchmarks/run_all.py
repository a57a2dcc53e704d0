"""Run every benchmark in turn (``make bench``) and print their figures with the machine's description.

    python benchmarks/run_all.py [NAME ...] [--baseline DIR [--rounds N]]

Each ``benchmarks/bench_*.py`` runs in its own process with this interpreter, one after the other
(never two at once: they would time each other). NAME picks some of them (``engine`` for
``bench_engine.py``). The output is Markdown: the machine first, then each benchmark's own report
in a block, ready to paste into ``benchmarks/RESULTS.md``. The exit status is 1 when a benchmark
failed (its figures are then missing), else 0.

``--baseline DIR`` compares with another checkout of the package: an unpacked ``git archive``
(``git archive main | tar -x -C /tmp/old``) or a worktree. Each benchmark runs with DIR's package,
then with this checkout's, ``--rounds`` times in turn, so that both see the same moments of a
shared machine; both sides run THIS checkout's benchmark scripts (``MAESTER_BENCH_PACKAGE=DIR``
points a script at DIR's package and DIR's samples), so that the two are measured the same way.
Where this checkout's script cannot run with DIR's package (a function DIR does not have yet),
DIR's own script is run instead, and the report says so.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine() -> list[str]:
    """The facts that make figures comparable: cores, CPU, memory, Python, date, load."""
    cpu = "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    return [
        f"- cores (nproc): {os.cpu_count()}",
        f"- CPU: {cpu}",
        f"- memory: {memory}",
        f"- Python: {platform.python_version()} ({platform.python_implementation()}), {platform.system()} {platform.release()}",
        f"- date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- load average before the run (1, 5, 15 min): {load}",
    ]


def run_one(script: Path, checkout: Path, label: str, failed: list[str]) -> None:
    """Run one benchmark script with ``checkout``'s package and print its report in a block."""
    env = dict(os.environ, MAESTER_BENCH_PACKAGE=str(checkout))
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=checkout, env=env)
    own = checkout / "benchmarks" / script.name
    if run.returncode != 0 and checkout != HERE.parent and own.is_file():  # this script needs what DIR lacks
        label += f"(this checkout's {script.name} failed with that package: {_last_line(run.stderr)}; its own script:)\n"
        run = subprocess.run([sys.executable, str(own)], capture_output=True, text=True, cwd=checkout, env=env)
    took = time.perf_counter() - t0
    print(f"{label}```")
    print(run.stdout.rstrip())
    if run.returncode != 0:
        failed.append(f"{script.name}{' (' + label.strip() + ')' if label else ''}")
        print(f"FAILED (exit {run.returncode}):\n{run.stderr.rstrip()[-2000:]}")
    print("```")
    print(f"({took:.0f} s including set-up)\n", flush=True)


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else "no message"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all)")
    ap.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout to compare with, in turn")
    ap.add_argument("--rounds", type=int, default=1, help="with --baseline: runs of each side, alternating")
    args = ap.parse_args(argv)
    wanted = set(args.names)
    scripts = [p for p in sorted(HERE.glob("bench_*.py")) if not wanted or p.stem.removeprefix("bench_") in wanted]
    if wanted and len(scripts) != len(wanted):
        known = ", ".join(p.stem.removeprefix("bench_") for p in sorted(HERE.glob("bench_*.py")))
        print(f"unknown benchmark in {sorted(wanted)}; known: {known}", file=sys.stderr)
        return 2
    if args.baseline is not None and not (args.baseline / "adjudicator").is_dir():
        print(f"--baseline {args.baseline}: not a checkout of Maester (no adjudicator/ in it)", file=sys.stderr)
        return 2
    print("## Machine\n")
    print("\n".join(machine()) + "\n")
    failed: list[str] = []
    for script in scripts:
        print(f"## {script.name}\n", flush=True)
        if args.baseline is None:
            run_one(script, HERE.parent, "", failed)
            continue
        for i in range(max(1, args.rounds)):
            run_one(script, args.baseline.resolve(), f"before ({args.baseline}), round {i + 1}:\n", failed)
            run_one(script, HERE.parent, f"after (this checkout), round {i + 1}:\n", failed)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
