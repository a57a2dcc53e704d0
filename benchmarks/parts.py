"""Where a benchmark's time went: functions timed wherever they are bound, each part apart from the others.

A module that did ``from ..turnfile.parser import parse_turn_file`` holds the function under its
own name; patching ``parser.parse_turn_file`` alone misses every call made through that name (a
whole game's parsing once showed as 0.00 s, counted in the seal checks around it). So
:meth:`Parts.timing` puts its stand-in wherever the function is held, in any module, class or
table (found with :func:`gc.get_referrers`), and puts the function back in each place afterwards.

Each part's time leaves out the time of the other timed functions called inside it (parsing
inside the intake counts as parse, not verify), so the parts and the rest add up to the total.

>>> import json
>>> parts = Parts()
>>> with parts.timing({"dump": [json.dumps]}):
...     _ = json.dumps([1])
>>> parts.calls["dump"], json.dumps is parts.real["dump"][0]
(1, True)
"""

from __future__ import annotations

import gc
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Parts", "holders"]


def holders(fn: Any) -> list[tuple[Any, str]]:
    """Every place that holds ``fn`` under a name: ``(class, name)`` for a class's attribute, else
    ``(dict, key)`` (a module's globals, a table of functions)."""
    out: list[tuple[Any, str]] = []
    for ref in gc.get_referrers(fn):
        if not isinstance(ref, dict):
            continue
        owner: Any = ref
        for cls in gc.get_referrers(ref):  # a class's attributes are set through the class (its method cache)
            if isinstance(cls, type) and cls.__dict__ == ref and any(v is fn for v in vars(cls).values()):
                owner = cls
                break
        out += [(owner, key) for key, value in list(ref.items()) if value is fn and isinstance(key, str)]
    return out


def _put(owner: Any, key: str, value: Any) -> None:
    if isinstance(owner, type):
        setattr(owner, key, value)
    else:
        owner[key] = value


class Parts:
    """Seconds and calls per part, each part's seconds without those of timed calls inside it."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.spent: dict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self.real: dict[str, list[Any]] = {}
        self._inner: list[float] = []  # per timed call running now: seconds of the timed calls inside it

    def _timed(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        inner, spent, calls, clock = self._inner, self.spent, self.calls, self.clock

        def timed(*args: Any, **kwargs: Any) -> Any:
            inner.append(0.0)
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                took = clock() - start
                spent[part] += took - inner.pop()
                calls[part] += 1
                if inner:
                    inner[-1] += took

        return timed

    @contextmanager
    def timing(self, parts: dict[str, list[Any]]) -> Iterator[None]:
        """Time each function of each part wherever it is held, for the duration."""
        placed: list[tuple[Any, str, Any]] = []
        try:
            for part, functions in parts.items():
                self.real[part] = list(functions)
                for fn in functions:
                    stand_in = self._timed(part, fn)
                    for owner, key in holders(fn):
                        _put(owner, key, stand_in)
                        placed.append((owner, key, fn))
            yield
        finally:
            for owner, key, fn in reversed(placed):
                _put(owner, key, fn)
