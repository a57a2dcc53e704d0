"""The benchmarks' attribution of time to parts (benchmarks/parts.py) misses no call and leaves nothing behind.

``bench_simulate.py`` once patched ``parser.parse_turn_file`` while the intake called the name its
module imported: a whole game's parsing showed as 0.00 s. These tests time nothing; they count
calls and check where the functions are held, during the timing and after it.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_simulate  # noqa: E402
from parts import Parts, holders  # noqa: E402


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(source, module.__dict__)
    sys.modules[name] = module
    return module


@pytest.fixture
def toy() -> types.SimpleNamespace:
    """A function bound by name in a second module, in a class and in a table, and one calling another."""
    low = _module("toy_low", "def parse(x):\n    return x + 1\n")
    high = _module("toy_high", "from toy_low import parse\nTABLE = {'p': parse}\n"
                   "class Reader:\n    run = staticmethod(lambda x: x)\n    def read(self, x):\n        return parse(x) * 2\n"
                   "def intake(x):\n    return Reader().read(x) + TABLE['p'](x)\n")  # fmt: skip
    yield types.SimpleNamespace(low=low, high=high)
    del sys.modules["toy_low"], sys.modules["toy_high"]


def test_a_function_imported_by_name_is_timed_wherever_it_is_held(toy: types.SimpleNamespace) -> None:
    parse, read = toy.low.parse, toy.high.Reader.read
    assert len(holders(parse)) == 3  # its module, the importing module, the table
    parts = Parts()
    with parts.timing({"parse": [parse], "verify": [toy.high.intake], "read": [read]}):
        assert holders(parse) == [] and holders(read) == []
        assert toy.high.intake(1) == 6
    assert parts.calls == {"parse": 2, "verify": 1, "read": 1}
    assert all(seconds >= 0 for seconds in parts.spent.values())
    assert toy.low.parse is parse and toy.high.parse is parse and toy.high.TABLE["p"] is parse
    assert toy.high.Reader.read is read and len(holders(parse)) == 3


def test_a_part_leaves_out_the_parts_called_inside_it(toy: types.SimpleNamespace) -> None:
    """With a clock that ticks once per reading: the intake's own ticks, the two parses' apart."""
    ticks = iter(range(100))
    parts = Parts(clock=lambda: float(next(ticks)))
    with parts.timing({"parse": [toy.low.parse], "verify": [toy.high.intake]}):
        toy.high.intake(1)
    # intake reads 0 and 5, the parses 1-2 and 3-4: 5 ticks in all, 2 of them parsing
    assert dict(parts.spent) == {"parse": 2.0, "verify": 3.0}


def test_every_part_of_the_text_path_is_seen_in_a_short_game() -> None:
    """Each part's functions are called (robots, seals, intake, parse, engine, reports, disk, the
    runs) and none is still held anywhere unpatched while timing; all is put back after."""
    from adjudicator.robots import simulate as sim

    functions = bench_simulate.part_functions()
    parts = Parts()
    with parts.timing(functions):
        for real in (fn for fns in functions.values() for fn in fns):
            assert holders(real) == [], real
        result = sim.simulate(3, 1, rounds=1)
    assert not result.problems
    assert set(parts.calls) == set(bench_simulate.PARTS) - {"loop"}, parts.calls
    assert all(parts.calls[p] > 0 for p in parts.calls), parts.calls
    for real in (fn for fns in functions.values() for fn in fns):
        assert holders(real), real
    assert all(seconds >= 0 for seconds in parts.spent.values())
