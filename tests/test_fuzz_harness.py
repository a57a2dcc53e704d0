"""The fuzzer behind ``make fuzz`` (fuzz/): it finds each kind of crash, and cuts it down to a reproducer.

``make fuzz`` is too long for the test run; these tests keep its machinery honest with stand-in
targets that crash, run slow, hang and run out of memory on purpose, and run each real target on a
few inputs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the fuzz package lives at the top of the checkout

from fuzz import run as fuzz
from fuzz.targets import TARGETS, Target


def _make(rng) -> bytes:  # type: ignore[no-untyped-def]
    roll = rng.random()
    for word, chance in (("boom", 0.05), ("slow", 0.06), ("memory", 0.07), ("hang", 0.075)):
        if roll < chance:
            return f"line one\n{word} here\nline three\n".encode()
    return b"fine\n"


def _run(data: bytes) -> None:
    if b"boom" in data:
        raise ValueError("boom")
    if b"slow" in data:
        time.sleep(0.6)
    if b"memory" in data:
        bytearray(400 * 1024 * 1024)
    if b"hang" in data:
        time.sleep(60)


ARGS = argparse.Namespace(seed=1, start=0, time_limit=0.5, hang_seconds=2.0, memory_mb=100)


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(TARGETS, "stand-in", Target("stand-in", "crashes on purpose", _make, _run, 1.0))
    return "stand-in"


def test_every_kind_of_crash_is_found_and_the_run_goes_on_past_a_hang(stand_in):
    tally = fuzz.run_target(stand_in, 300, ARGS)
    kinds = {key.split(" ")[0] for key in tally.classes}
    assert kinds == {"ValueError", "slow", "MemoryError", "hang"}, tally.classes
    assert tally.inputs == 300 and tally.restarts >= 1  # the hung worker was replaced


def test_a_crash_is_cut_down_to_the_line_that_makes_it(stand_in):
    data = b"line one\nboom here\nline three\n"
    key = fuzz.outcome(stand_in, data, ARGS)
    assert key is not None and key.startswith("ValueError at ")
    assert fuzz.minimise(stand_in, data, key, ARGS, budget=20) == b"boom"


def test_an_input_that_passes_has_no_outcome(stand_in):
    assert fuzz.outcome(stand_in, b"fine\n", ARGS) is None


@pytest.mark.parametrize("name", ["turnfile", "seal", "position", "check"])
def test_each_real_target_runs_a_few_inputs_without_a_crash(name):
    tally = fuzz.run_target(name, 30, argparse.Namespace(seed=7, start=0, time_limit=5.0, hang_seconds=60.0,
                                                         memory_mb=512))  # fmt: skip
    assert tally.inputs == 30 and tally.classes == {}


def _digests(conn) -> None:  # type: ignore[no-untyped-def]
    import hashlib

    conn.send({name: hashlib.sha256(b"".join(t.make(fuzz.rng_for(3, name, i)) for i in range(15))).hexdigest()
               for name, t in TARGETS.items()})  # fmt: skip


def test_an_input_is_made_again_from_its_index_in_another_process():
    """A finding is saved by making its input again from the index: no clock, pid or hash seed may creep in."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")  # a fresh interpreter: its own hash seed, pid and clock
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_digests, args=(child,))
    proc.start()
    theirs = parent.recv()
    proc.join()
    mine = {}
    _digests(type("Conn", (), {"send": staticmethod(mine.update)}))
    assert theirs == mine
