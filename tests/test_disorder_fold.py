"""Civil disorder folded once (issue 31): the same count of missed deadlines as reading every snapshot line.

``deadlines.disorder_now`` used to walk every snapshot line of the log, and every key change at each,
at every call: a run cost more the longer the game had lasted. The ledger now folds the lines once
and a read of the log carries the fold on (:meth:`Ledger.missed_since`). Whatever the log holds, and
however it was read (whole, or read on line by line in one process), the result must be what the
rule of ruling 113 says, computed here the plain way: a miss counts one, a file of the house applied
or a key registered for it sets the count back to nought.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.folder import deadlines, ledger
from adjudicator.folder.ledger import Ledger

HOUSES = ["stark", "lannister", "greyjoy"]


def _ruling_113(led: Ledger, limit: int) -> tuple[frozenset[str], dict[str, int]]:
    """Who is in civil disorder and each house's misses in a row, by reading every snapshot line in order."""
    misses: dict[str, int] = {}
    numbers = sorted(led.snapshots)
    for n in numbers:
        for name in led.snapshots[n]["applied"]:
            a = led.find(name)
            if a is not None:
                misses[a.house] = 0
        for h in led.snapshots[n].get("missed", []):
            misses[h] = misses.get(h, 0) + 1
        for h, at in led.book.key_changes.items():
            if at >= n:
                misses[h] = 0
    was = set(led.snapshots[numbers[-1]].get("disorder", [])) if numbers else set()
    rekeyed = {h for h, at in led.book.key_changes.items() if numbers and at >= numbers[-1]}
    houses = (was - rekeyed) | {h for h, k in misses.items() if k >= limit} if limit else set()
    return frozenset(houses), misses


def _game(steps: list[tuple[str, Any]]) -> list[str]:
    """Log lines for a list of (kind, what): a snapshot (files applied, houses that missed), a key, a rollback."""
    lines, n, index = [], 0, 0
    for kind, what in steps:
        if kind == "step":
            applied, missed = what
            names = []
            for h in applied:
                index += 1
                names.append(f"{index:06d}-{h}-r1-planning-seq{index}.txt")
                lines.append({"action": "accept", "house": h, "round": 1, "step": "planning", "seq": index,
                              "sha256": f"s{index}", "file": f"archive/{names[-1]}"})  # fmt: skip
            disorder = [h for h in HOUSES if missed.count(h) > 1]
            lines.append({"action": "snapshot", "number": n, "sha256": f"n{n}", "applied": names, "deadline": bool(missed),
                          "missed": sorted(set(missed)), "disorder": disorder})  # fmt: skip
            n += 1
        elif kind == "key":
            lines.append({"action": "register-key", "house": what, "fingerprint": "f"})
        elif n > 1:  # a rollback to an earlier step
            to = what % (n - 1)
            lines.append({"action": "rollback", "to": to, "folder": "rolled-back-1", "set_aside_files": [],
                          "returning": [], "dropped": []})  # fmt: skip
            lines.append({"action": "rollback-done"})
            n = to + 1
    return [json.dumps(e, sort_keys=True) + "\n" for e in lines]


house = st.sampled_from(HOUSES)
step = st.tuples(st.just("step"), st.tuples(st.lists(house, max_size=2), st.lists(house, max_size=3)))
game = st.lists(st.one_of(step, step, step, st.tuples(st.just("key"), house),
                          st.tuples(st.just("rollback"), st.integers(0, 50))), min_size=1, max_size=30)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=game, limit=st.integers(0, 3))
def test_issue_31_civil_disorder_folded_once_counts_as_ruling_113_reads_every_line(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, Any]], limit: int
) -> None:
    root: Path = tmp_path_factory.mktemp("fold")
    ledger.forget_reads()
    schedule = SimpleNamespace(civil_disorder_after=limit)
    with open(root / "log", "w", encoding="utf-8") as log:
        for line in _game(steps):
            log.write(line)
            log.flush()
            read_on = Ledger.read(root)  # in this process: read on, the fold carried on
            got = deadlines.disorder_now(read_on, schedule)  # type: ignore[arg-type]
            again = deadlines.disorder_now(read_on, schedule)  # type: ignore[arg-type]
            assert (got.houses, got.misses) == _ruling_113(read_on, limit) == (again.houses, again.misses)
    ledger.forget_reads()
    whole = Ledger.read(root)
    got = deadlines.disorder_now(whole, schedule)  # type: ignore[arg-type]
    assert (got.houses, got.misses) == _ruling_113(whole, limit)


def test_issue_31_a_gap_in_the_snapshot_lines_is_read_whole(tmp_path: Path):
    """A damaged log (snapshot 1 missing): no fold to read on from, the plain reading counts."""
    ledger.forget_reads()
    lines = _game([("step", ([], ["stark"])), ("step", ([], ["stark"])), ("step", ([], ["stark"]))])
    (tmp_path / "log").write_text(lines[0] + lines[2], encoding="utf-8")
    led = Ledger.read(tmp_path)
    assert led.missed_since() is None
    got = deadlines.disorder_now(led, SimpleNamespace(civil_disorder_after=2))  # type: ignore[arg-type]
    assert got.misses == {"stark": 2} and got.houses == {"stark"}
