"""Run every benchmark in turn (``make bench``) and print their figures with the machine's description.

    python benchmarks/run_all.py [NAME ...]

Each ``benchmarks/bench_*.py`` runs in its own process with this interpreter, one after the other
(never two at once: they would time each other). NAME picks some of them (``engine`` for
``bench_engine.py``). The output is Markdown: the machine first, then each benchmark's own report
in a block, ready to paste into ``benchmarks/RESULTS.md``. The exit status is 1 when a benchmark
failed (its figures are then missing), else 0.
"""

from __future__ import annotations

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


def main(argv: list[str] | None = None) -> int:
    wanted = set(sys.argv[1:] if argv is None else argv)
    scripts = [p for p in sorted(HERE.glob("bench_*.py")) if not wanted or p.stem.removeprefix("bench_") in wanted]
    if wanted and len(scripts) != len(wanted):
        known = ", ".join(p.stem.removeprefix("bench_") for p in sorted(HERE.glob("bench_*.py")))
        print(f"unknown benchmark in {sorted(wanted)}; known: {known}", file=sys.stderr)
        return 2
    print("## Machine\n")
    print("\n".join(machine()) + "\n")
    failed = []
    for script in scripts:
        print(f"## {script.name}\n", flush=True)
        t0 = time.perf_counter()
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=HERE.parent)
        took = time.perf_counter() - t0
        print("```")
        print(run.stdout.rstrip())
        if run.returncode != 0:
            failed.append(script.name)
            print(f"FAILED (exit {run.returncode}):\n{run.stderr.rstrip()[-2000:]}")
        print("```")
        print(f"({took:.0f} s including set-up)\n", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
