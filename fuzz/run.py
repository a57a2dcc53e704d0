"""``make fuzz``: a set number of inputs through every input path, each within a time and memory limit.

One worker process per target runs the inputs in a row (the fast path: one input costs what
Maester costs, no process per input). The worker runs under a memory limit (``RLIMIT_AS``: its
size after start-up plus ``--memory-mb``), times every input, and tells the parent which input it
is on; the parent kills a worker that sits on one input past ``--hang-seconds`` and starts a new
one after it. What counts as a crash: any exception but the target's documented refusals, an input
slower than ``--time-limit``, a ``MemoryError``, a hang, or a worker that dies.

Crashes are grouped into classes (exception type and the innermost frame of Maester's own code).
The first input of each class is made again from its index, cut down to a small reproducer
(lines, then bytes, each cut kept only when it still crashes the same way, each try in a fresh
process under the same limits) and saved under ``fuzz-findings/TARGET/`` with its traceback.
The run prints inputs per second and crashes per target, and exits 1 when any class was found.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import multiprocessing as mp
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .targets import TARGETS, Target

FINDINGS = Path("fuzz-findings")


def rng_for(seed: int, target: str, index: int) -> random.Random:
    return random.Random(f"{seed}:{target}:{index}")


def crash_class(e: BaseException) -> str:
    """``ValueError at adjudicator/game/position.py:_Reader.units``: the type and Maester's innermost frame."""
    frames = traceback.extract_tb(e.__traceback__)
    ours = [f for f in frames if "/adjudicator/" in f.filename] or frames[-1:]
    if not ours:
        return type(e).__name__
    where = ours[-1].filename.split("/adjudicator/")[-1]
    return f"{type(e).__name__} at {where}:{ours[-1].name}"


# --- the worker ----------------------------------------------------------------------------------


def _limit_memory(extra_mb: int) -> None:
    """Allow this process its present size plus ``extra_mb`` of address space."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    size = pages * os.sysconf("SC_PAGE_SIZE") + extra_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def _warm_up(target: Target) -> None:
    """Load the corpora and the modules before the memory limit is taken: they are not the input's."""
    target.run(target.make(rng_for(0, target.name, 0)))


def _worker(name: str, seed: int, start: int, stop: int, time_limit: float, memory_mb: int,
            current: Any, conn: Any) -> None:  # fmt: skip
    os.nice(5)
    target = TARGETS[name]
    with contextlib.suppress(Exception):  # a crash of the warm-up input is found again in the loop
        _warm_up(target)
    _limit_memory(memory_mb)
    seen: set[str] = set()  # classes whose traceback was sent: later ones are only counted
    for i in range(start, stop):
        current.value = i
        data = target.make(rng_for(seed, name, i))
        began = time.perf_counter()
        try:
            target.run(data)
        except Exception as e:
            key = crash_class(e)
            conn.send(("crash", i, key, "" if key in seen else _tb(e)))
            seen.add(key)
        spent = time.perf_counter() - began
        if spent > time_limit:
            conn.send(("crash", i, f"slow input (over {time_limit:g} s)", f"took {spent:.2f} s"))
    conn.send(("done", stop))


def _tb(e: BaseException) -> str:
    return "".join(traceback.format_exception(e))[-4000:]


# --- one target's run: workers, the watchdog, the findings -----------------------------------------


@dataclass
class Finding:
    index: int
    count: int = 1
    detail: str = ""


@dataclass
class Tally:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    restarts: int = 0
    classes: dict[str, Finding] = field(default_factory=dict)

    def add(self, index: int, key: str, detail: str) -> None:
        if key in self.classes:
            self.classes[key].count += 1
        else:
            self.classes[key] = Finding(index, 1, detail)


def run_target(name: str, count: int, args: argparse.Namespace) -> Tally:
    tally, start, stop = Tally(name), args.start, args.start + count
    ctx = mp.get_context("fork")
    began = time.perf_counter()
    while start < stop:
        current = ctx.Value("q", start)
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(name, args.seed, start, stop, args.time_limit, args.memory_mb,
                                                 current, child))  # fmt: skip
        proc.start()
        child.close()
        last_index, last_change, finished, killed = -1, time.monotonic(), False, False
        while True:
            if parent.poll(0.2):
                try:
                    msg = parent.recv()
                except EOFError:
                    msg = None
                if msg is None:
                    pass
                elif msg[0] == "crash":
                    tally.add(msg[1], msg[2], msg[3])
                elif msg[0] == "done":
                    finished = True
                    break
            index = current.value
            if index != last_index:
                last_index, last_change = index, time.monotonic()
            if not proc.is_alive() and not parent.poll():
                break
            if time.monotonic() - last_change > args.hang_seconds:
                proc.kill()
                tally.add(index, f"hang (no answer in {args.hang_seconds:g} s)", "killed by the watchdog")
                killed = True
                break
        proc.join()
        if finished:
            start = stop
        else:
            index = current.value
            if not killed:
                tally.add(index, f"worker died ({_signal_name(proc.exitcode)})", "the process ended on this input")
            tally.restarts += 1
            start = index + 1
        parent.close()
    tally.inputs = count
    tally.seconds = time.perf_counter() - began
    return tally


def _signal_name(code: int | None) -> str:
    if code is not None and code < 0:
        return signal.Signals(-code).name
    return f"exit status {code}"


# --- cutting a crash down to a reproducer ------------------------------------------------------------


def _probe(name: str, data: bytes, time_limit: float, memory_mb: int, conn: Any) -> None:
    target = TARGETS[name]
    _limit_memory(memory_mb)
    began = time.perf_counter()
    try:
        target.run(data)
    except Exception as e:
        conn.send(crash_class(e))
        return
    spent = time.perf_counter() - began
    conn.send(f"slow input (over {time_limit:g} s)" if spent > time_limit else None)


def outcome(name: str, data: bytes, args: argparse.Namespace) -> str | None:
    """The crash class of one input, run alone in a fresh process under the run's limits."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_probe, args=(name, data, args.time_limit, args.memory_mb, child))
    proc.start()
    child.close()
    got: str | None = "hang"
    if parent.poll(args.hang_seconds):
        try:
            got = parent.recv()
        except EOFError:
            got = f"worker died ({_signal_name(proc.exitcode)})"
    else:
        proc.kill()
        got = f"hang (no answer in {args.hang_seconds:g} s)"
    proc.join()
    parent.close()
    return got


def minimise(name: str, data: bytes, key: str, args: argparse.Namespace, budget: float = 60.0) -> bytes:
    """The smallest input found (by cutting lines, then bytes) that still crashes as ``key``."""
    deadline = time.monotonic() + budget

    def same(candidate: bytes) -> bool:
        got = outcome(name, candidate, args)
        return got == key or (key.startswith("hang") and (got or "").startswith("hang"))

    for splitter in (b"\n", None):
        chunk = None
        while time.monotonic() < deadline:
            parts = data.split(b"\n") if splitter else [bytes([b]) for b in data]
            joiner = b"\n" if splitter else b""
            chunk = chunk or max(1, len(parts) // 2)
            cut = False
            for at in range(0, len(parts), chunk):
                if time.monotonic() >= deadline:
                    break
                candidate = joiner.join(parts[:at] + parts[at + chunk:])
                if candidate != data and same(candidate):
                    data, cut = candidate, True
                    break
            if not cut:
                if chunk == 1:
                    break
                chunk = max(1, chunk // 2)
    return data


def save(name: str, key: str, data: bytes, finding: Finding) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-")[:80]
    folder = FINDINGS / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{slug}.input"
    path.write_bytes(data)
    (folder / f"{slug}.txt").write_text(
        f"target: {name}\nclass: {key}\nfirst input: {finding.index} ({finding.count} inputs in this class)\n"
        f"reproducer: {path.name}, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}\n\n"
        f"{finding.detail}\n", encoding="utf-8")  # fmt: skip
    return path


# --- the command ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="inputs in all, shared among the targets")
    parser.add_argument("--targets", default=",".join(TARGETS), help=f"comma-separated, of {', '.join(TARGETS)}")
    parser.add_argument("--seed", type=int, default=22, help="the run's seed: input i of a target is made from it")
    parser.add_argument("--start", type=int, default=0, help="the index of the first input (to run in chunks)")
    parser.add_argument("--time-limit", type=float, default=5.0,
                        help="seconds one input may take (the largest turn file accepted, 1 MB, takes up to 4)")
    parser.add_argument("--hang-seconds", type=float, default=20.0, help="seconds before a stuck worker is killed")
    parser.add_argument("--memory-mb", type=int, default=512, help="memory one worker may add while it runs")
    parser.add_argument("--no-minimise", action="store_true", help="save the crashing inputs as found")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.targets.split(",") if n.strip()]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r}; the targets are {', '.join(TARGETS)}")
    share = sum(TARGETS[n].share for n in names)
    print(f"fuzz: {args.inputs:,} inputs, seed {args.seed}, from input {args.start:,}; limits {args.time_limit:g} s "
          f"and {args.memory_mb} MB an input; findings in {FINDINGS}/", flush=True)  # fmt: skip
    tallies = []
    for n in names:
        count = max(1, round(args.inputs * TARGETS[n].share / share))
        print(f"  {n:<9} {count:>9,} inputs: {TARGETS[n].what}", flush=True)
        tally = run_target(n, count, args)
        tallies.append(tally)
        for key, finding in tally.classes.items():
            data = TARGETS[n].make(rng_for(args.seed, n, finding.index))
            if not args.no_minimise and not key.startswith("slow"):  # timings too noisy on a shared machine to cut by
                data = minimise(n, data, key, args)
            path = save(n, key, data, finding)
            print(f"      crash class: {key} ({finding.count} inputs; first {finding.index}) -> {path}", flush=True)
        print(f"  {n:<9} {tally.inputs:>9,} inputs in {tally.seconds:7.1f} s = {tally.inputs / tally.seconds:7,.0f}/s, "
              f"{len(tally.classes)} crash class(es)", flush=True)  # fmt: skip
    total = sum(t.inputs for t in tallies)
    classes = sum(len(t.classes) for t in tallies)
    seconds = sum(t.seconds for t in tallies)
    print(f"fuzz: {total:,} inputs in {seconds:,.0f} s, {classes} crash class(es)", flush=True)
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())
