"""Whether a run costs the same late in a long game as early: per-step cost over 40+ rounds.

    python benchmarks/bench_length.py [--players N] [--seed S] [--rounds R] [--warm] [--profile] [--instructions] [--mail]

Plays one robot game through the text path (``simulate``: turn files, seals, inbox,
``batch.adjudicate``, reports) for ``--rounds`` rounds and times each ``batch.adjudicate`` by CPU
time (``time.process_time``). The base game ends after round 10 and no setting plays on, so **this
benchmark raises its own box's round limit** to ``--rounds`` + 1 for its process (the engine's rules
are otherwise unchanged; a castle victory still ends the game: the default seed has none).

Before each run the process forgets what earlier runs of it read (the ledger, the snapshots, the
inbox digests), as a new ``maester adjudicate`` command would know nothing: that is the cost a
moderator's run, ``replay`` or a host with many games pays. ``--warm`` keeps them (``simulate``'s
own case: one process for the whole game).

It prints the mean CPU milliseconds per step of the first and the last five rounds and their ratio
(late over early: 1.0 is flat; the goal is flat, within the noise of a shared machine, about 1.2x),
and the log lines each run read, which is bounded by what was appended since the last run when no
run reads the whole log. ``--profile`` adds the functions whose time grew most from early to late.

``--mail`` mails the game as a moderator's cron job would: after every run, ``maester outbox --key``
writes each reader's mail due (sealed by a moderator's key) and ``maester outbox --mark-sent`` records
them as sent, each as a new command; it prints those commands' CPU time per run early and late, and
the size of ``ledger.json`` (the kept reading's head, which every command reads whole) at the end of
the early rounds and at the end of the game.

``--instructions`` also counts, with valgrind's callgrind (which the machine's load does not move),
the instructions of a few runs of round 3 and of round R-2, each run again as a new command on a
copy of the folder as it was just before the run (its kept reading of the log rewritten for the
copy's log file, as the run before left it), less the same command stopped before the run; both
import first every module the runs import, so that the difference is the run's own work.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import dataclasses
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.cli import main as maester
from adjudicator.folder import batch, intake, ledger, ledger_index, registry
from adjudicator.game import boxes
from adjudicator.robots import simulate as sim
from adjudicator.seals import sshsig

GOAL_RATIO = 1.2  # late over early, CPU time per step (flat within a shared machine's noise)
EDGE = 5  # rounds at each end compared


def raise_round_limit(rounds: int) -> None:
    """Every box of this process ends after ``rounds`` (the modules that imported ``box_named`` too)."""
    real = boxes.box_named

    @cache
    def longer(name: str) -> boxes.Box:
        return dataclasses.replace(real(name), rounds=rounds)

    for module in list(sys.modules.values()):
        if getattr(module, "box_named", None) is real:
            module.box_named = longer  # type: ignore[attr-defined]


def forget_everything() -> None:
    """What a new command knows of the folder: nothing an earlier run of this process read.

    (A tree from before ``forget_reads`` and its kin, measured with ``run_all.py --baseline``, has
    the same caches under the names they replace.)"""
    for module, public, kept in ((ledger, "forget_reads", "_LEDGERS"), (batch, "forget_snapshots", "_KNOWN"),
                                  (intake, "forget_digests", "_DIGESTS")):  # fmt: skip
        forget = getattr(module, public, None)
        if forget is not None:
            forget()
        else:
            getattr(module, kept).clear()
    getattr(sshsig, "forget_verified", lambda: None)()  # the seals found to hold (a tree before them keeps none)


def lines_read() -> int:
    """Log lines this process read (-1 in a tree that does not count them)."""
    count = getattr(ledger, "lines_read", None)
    return count() if count is not None else -1


def kept_read() -> dict[str, int]:
    """What this process read of the log's kept reading: rows, head bytes, whole loads (empty in a tree
    that does not count them)."""
    count = getattr(ledger_index, "read_counts", None)
    return count() if count is not None else {}


MODERATOR = "gm@example.org"


class Mailer:
    """A moderator's cron job after every run: the mails written and recorded as sent, each a new command;
    for each run its (round, CPU seconds of both commands, bytes of ``ledger.json`` before them)."""

    def __init__(self, root: Path, tmp: Path) -> None:
        import tomllib

        import tomli_w
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair

        self.root, self.key, self.tomllib, self.tomli_w = root, tmp / "moderator", tomllib, tomli_w
        secret = Ed25519PrivateKey.from_private_bytes(bytes([77] * 32))
        self.pair = KeyPair(secret, PublicKey.from_key(secret))
        write_key_pair(self.key, self.pair)
        self.runs: list[tuple[int, float, int]] = []

    def __call__(self, state: Any) -> None:
        import contextlib
        import io

        if not self.runs:  # the moderator's and the players' addresses, once
            registry.register_key(self.root, "moderator", self.pair.public, email=MODERATOR)
            game = self.tomllib.loads((self.root / "game.toml").read_text(encoding="utf-8"))
            for house in game["game"]["houses"]:
                game.setdefault("players", {}).setdefault(house, {})["email"] = f"{house}@players.example"
            (self.root / "game.toml").write_text(self.tomli_w.dumps(game), encoding="utf-8")
        head = self.root / ledger_index.INDEX_FILE
        size = head.stat().st_size if head.exists() else 0
        spent = 0.0
        with contextlib.redirect_stdout(io.StringIO()):
            for args in (["--key", str(self.key), "--from", MODERATOR], ["--mark-sent"]):
                forget_everything()
                t0 = time.process_time()
                if maester(["outbox", str(self.root), *args]) not in (0, 1):
                    raise SystemExit(f"maester outbox {' '.join(args)} failed at round {state.round}")
                spent += time.process_time() - t0
        self.runs.append((state.round, spent, size))


def play(players: int, seed: int, rounds: int, warm: bool, profile: bool, keep: dict[str, list[Path]] | None = None,
         kept: list[dict[str, int]] | None = None, mailer: Mailer | None = None
         ) -> tuple[list[tuple[int, float, int]], str, Any]:  # fmt: skip
    """The game: for each run its (round, CPU seconds, log lines read), the result line, the profiles;
    with ``kept``, each run's reading of the kept ledger (:func:`kept_read`) goes into it; with
    ``mailer``, the game is mailed after every run (into its folder).
    With ``keep`` (a folder by side, "early" and "late"), a copy of the game folder just before each of
    the first runs of round 3 and of round ``rounds - 2`` goes into it."""
    runs: list[tuple[int, float, int]] = []
    profiles: dict[str, cProfile.Profile] = {"early": cProfile.Profile(), "late": cProfile.Profile()}
    real = batch.adjudicate

    def timed(root: Path, **kwargs: Any) -> batch.RunResult:
        if not warm:
            forget_everything()
        rnd = runs[-1][0] if runs else 1
        if keep is not None:
            for side, at in (("early", 3), ("late", rounds - 2)):
                if rnd == at and len(keep[side]) < KEPT_RUNS and not kwargs.get("deadline"):
                    copy = Path(tempfile.mkdtemp(prefix=f"{side}-", dir=keep["where"][0])) / "g"
                    shutil.copytree(root, copy, symlinks=True)
                    keep[side].append(copy)
        prof = profiles["early" if rnd <= EDGE else "late"] if profile and (rnd <= EDGE or rnd > rounds - EDGE) else None
        before, kept_before = lines_read(), kept_read()
        t0 = time.process_time()
        if prof is not None:
            prof.enable()
        out = real(root, **kwargs)
        if prof is not None:
            prof.disable()
        spent = time.process_time() - t0
        state = out.latest
        runs.append((state.round if state is not None else rnd, spent, lines_read() - before))
        if kept is not None:
            kept.append({k: v - kept_before[k] for k, v in kept_read().items()})
        return out

    batch.adjudicate = timed  # type: ignore[assignment]
    try:
        if mailer is not None:
            result = sim.simulate(players, seed, rounds=rounds, out=mailer.root, on_step=mailer)
        else:
            result = sim.simulate(players, seed, rounds=rounds)
    finally:
        batch.adjudicate = real  # type: ignore[assignment]
    if result.problems:
        raise SystemExit(f"the game broke an invariant: {result.problems}")
    return runs, result.final_line(), profiles if profile else None


KEPT_RUNS = 2  # runs counted by callgrind at each end (a minute or two each under valgrind)
RUN_ONE = """
import importlib, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from bench_length import raise_round_limit
from adjudicator.folder import batch
from adjudicator.util import fileio
for name in {modules!r}:  # what the run imports, imported first: the count is of the run, not the imports
    importlib.import_module(name)
raise_round_limit({limit})
if {folder!r}:
    with fileio.relaxed():
        batch.adjudicate({folder!r})
print("MODULES", sorted(m for m in sys.modules if m.startswith("adjudicator")))
"""


def command(folder: Path | None, limit: int, modules: list[str]) -> str:
    return RUN_ONE.format(root=str(ROOT), bench=str(Path(__file__).resolve().parent), limit=limit,
                          folder=str(folder or ""), modules=modules)  # fmt: skip


def instructions(folder: Path | None, limit: int, modules: list[str], env: dict[str, str]) -> int:
    """Instructions of a new command that imports ``modules``, then adjudicates ``folder`` (when given)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                          command(folder, limit, modules)],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)  # fmt: skip
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise SystemExit(f"valgrind gave no count: {out.stderr[-500:]}")


def count_runs(keep: dict[str, list[Path]], limit: int) -> dict[str, list[int]]:
    """Instructions of each kept run, by side, as a new command less its interpreter and imports (the
    modules the runs import, found by a run on a copy, imported first in both counts)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(Path(keep["where"][0]) / "cache"))
    modules: set[str] = set()
    for side in ("early", "late"):  # each run once on a copy, which fills the user's cache too
        for folder in keep[side]:
            copy = folder.with_name("first-run")
            shutil.copytree(folder, copy, symlinks=True)
            out = subprocess.run([sys.executable, "-c", command(copy, limit, [])], env=env, check=True,
                                 capture_output=True, text=True)  # fmt: skip
            modules |= set(ast.literal_eval(out.stdout.split("MODULES", 1)[1].strip()))  # the names it printed
            shutil.rmtree(copy)
    names = sorted(modules)
    base = instructions(None, limit, names, env)
    counted: dict[str, list[int]] = {}
    for side in ("early", "late"):
        counted[side] = []
        for folder in keep[side]:
            forget_everything()
            keep_reading = getattr(ledger, "keep_reading", None)
            if keep_reading is not None:  # as the run before left it, for this copy's log
                keep_reading(folder)
            counted[side].append(instructions(folder, limit, names, env) - base)
    return counted


def grown(profiles: dict[str, cProfile.Profile], early_steps: int, late_steps: int, top: int = 12) -> list[str]:
    """The functions whose own time per step grew most from the early rounds to the late."""
    per: dict[str, dict[Any, float]] = {}
    for side, prof in profiles.items():
        steps = early_steps if side == "early" else late_steps
        st = pstats.Stats(prof)
        per[side] = {f: v[2] / max(1, steps) for f, v in st.stats.items()}  # type: ignore[attr-defined]  # own time
    rows = []
    for f in set(per["early"]) | set(per["late"]):
        e, la = per["early"].get(f, 0.0), per["late"].get(f, 0.0)
        rows.append((la - e, f, e, la))
    rows.sort(reverse=True, key=lambda r: r[0])
    return [f"  {d * 1000:+7.2f} ms  {e * 1000:6.2f} -> {la * 1000:6.2f} ms  {f[2]} ({Path(f[0]).name}:{f[1]})"
            for d, f, e, la in rows[:top]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--warm", action="store_true", help="keep what earlier runs of the process read (simulate's case)")
    ap.add_argument("--profile", action="store_true", help="name the functions whose time grew")
    ap.add_argument("--instructions", action="store_true", help="count runs of round 3 and R-2 with callgrind (slow)")
    ap.add_argument("--mail", action="store_true", help="write and mark sent every reader's mail after every run")
    args = ap.parse_args(argv)
    if args.rounds < 2 * EDGE:
        raise SystemExit(f"--rounds must be at least {2 * EDGE}")
    raise_round_limit(args.rounds + 1)
    tmp = tempfile.mkdtemp(prefix="maester-bench-length-")
    keep: dict[str, list[Path]] | None = {"where": [Path(tmp)], "early": [], "late": []} if args.instructions else None
    try:
        kept: list[dict[str, int]] = []
        mailer = Mailer(Path(tmp) / "g", Path(tmp)) if args.mail else None
        runs, line, profiles = play(args.players, args.seed, args.rounds, args.warm, args.profile, keep, kept, mailer)
        counted = count_runs(keep, args.rounds + 1) if keep is not None else None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    early = [t for r, t, _ in runs if r <= EDGE]
    late = [t for r, t, _ in runs if r > args.rounds - EDGE]
    e_ms, l_ms = 1000 * statistics.mean(early), 1000 * statistics.mean(late)
    ratio = l_ms / e_ms
    lines_early = max(n for r, _, n in runs if r <= EDGE)
    lines_late = max(n for r, _, n in runs if r > args.rounds - EDGE)
    print(f"length: a {args.players}-player robot game (seed {args.seed}, round limit raised to {args.rounds + 1}; "
          f"{line}), {len(runs)} runs, {'one warm process' if args.warm else 'each run as a new command'}")
    print(f"  rounds 1-{EDGE}: {len(early)} runs, {e_ms:.1f} ms CPU a run (median {1000 * statistics.median(early):.1f})")
    print(f"  rounds {args.rounds - EDGE + 1}-{args.rounds}: {len(late)} runs, {l_ms:.1f} ms CPU a run "
          f"(median {1000 * statistics.median(late):.1f})")
    verdict = "met" if ratio <= GOAL_RATIO else "not met"
    print(f"  late over early: {ratio:.2f}x (goal: flat, at most {GOAL_RATIO}x: {verdict})")
    if lines_read() >= 0:
        print(f"  log lines read by one run, at most: {lines_early} early, {lines_late} late")
    if kept and kept[0]:
        for side, part in (("early", [k for (r, _, _), k in zip(runs, kept, strict=True) if r <= EDGE]),
                           ("late", [k for (r, _, _), k in zip(runs, kept, strict=True) if r > args.rounds - EDGE])):  # fmt: skip
            print(f"  the kept ledger read by one run, {side}: at most {max(k['rows'] for k in part)} rows and "
                  f"{max(k['head_bytes'] for k in part):,} head bytes; every row read by {sum(k['whole'] > 0 for k in part)} runs")
    if counted is not None:
        e_i, l_i = statistics.mean(counted["early"]), statistics.mean(counted["late"])
        print(f"  instructions a run (callgrind, {len(counted['early'])} + {len(counted['late'])} runs, each as a new command "
              f"less its imports): round 3 {e_i / 1e6:.1f} M, round {args.rounds - 2} {l_i / 1e6:.1f} M, "
              f"late over early {l_i / e_i:.2f}x")
    if mailer is not None:
        m_early = [t for r, t, _ in mailer.runs if r <= EDGE]
        m_late = [t for r, t, _ in mailer.runs if r > args.rounds - EDGE]
        me, ml = 1000 * statistics.mean(m_early), 1000 * statistics.mean(m_late)
        head_early = max(b for r, _, b in mailer.runs if r <= EDGE)
        print(f"  mailed after every run (outbox --key, then --mark-sent, each a new command): {me:.1f} ms CPU a run "
              f"in rounds 1-{EDGE}, {ml:.1f} ms in rounds {args.rounds - EDGE + 1}-{args.rounds}: {ml / me:.2f}x")
        print(f"  ledger.json, read whole by every command: {head_early:,} bytes at the end of round {EDGE}, "
              f"{mailer.runs[-1][2]:,} bytes at the end")
    if profiles is not None:
        print("  grown most, own time per run:")
        print("\n".join(grown(profiles, len(early), len(late))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
