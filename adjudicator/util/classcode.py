"""The methods ``dataclasses`` writes for each of Maester's record classes, compiled once and kept in the cache.

Why: creating a dataclass compiles every method it generates (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, and ``__setattr__``/``__delattr__`` for a frozen one) from source
text, one ``compile`` each on Python 3.11: about 1,400 for the ~250 record classes (events,
commands, cards, the state) that ``maester adjudicate`` imports, a third of the command's
instructions (benchmarks/RESULTS.md). That text is the same at every start, so the code compiled
from it is too. :func:`install` routes the one ``exec`` of the ``dataclasses`` module through
:func:`_exec`, which looks the exact text up among the code objects kept for that class's module
in the cache folder (``util/cache.py`` and its trust rules: a cached code object is code, as a
compiled template is) and compiles only a text it does not find; :func:`save` writes back the
modules whose texts were not all found.

Faithful by construction: a text is only ever looked up whole, and a missing one is compiled as
``exec`` compiles it (file name ``<string>``, no ``__future__`` flags of ours). A cache entry that
is missing, stale, damaged or not this user's own is ignored: the classes are then made exactly
as without the cache. Only the classes of Maester's own modules are kept (one cache entry per
module, holding what that module's classes generated in this run); everything else is compiled
as ``dataclasses`` always does.
"""

from __future__ import annotations

import builtins
import marshal
from types import CodeType
from typing import Any

_PACKAGE = __name__.split(".")[0] + "."

_found: dict[str, dict[str, CodeType]] = {}  # module -> text -> code, as read from the cache
_used: dict[str, dict[str, CodeType]] = {}  # module -> text -> code, what this process's classes used
_missed: set[str] = set()  # modules with a text that had to be compiled


def install() -> None:
    """From now on, dataclasses of Maester's modules take their methods' code from the cache (idempotent)."""
    import dataclasses

    # dataclasses calls exec() by its bare name: a module global of that name is found before the builtin.
    vars(dataclasses)["exec"] = _exec


def _exec(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> None:
    """``exec``, with the code of a text from one of our modules taken from the cache when it is there."""
    module = globals.get("__name__") if isinstance(globals, dict) else None
    if isinstance(source, str) and isinstance(module, str) and module.startswith(_PACKAGE):
        source = code_for(module, source)
    builtins.exec(source, globals, locals, **kwargs)


def code_for(module: str, text: str) -> CodeType:
    """The code of ``text`` (a generated method of a class of ``module``): the cached one, else compiled now."""
    if module not in _found:
        _found[module] = _read(module)
    code = _found[module].get(text)
    if code is None:
        code = compile(text, "<string>", "exec", dont_inherit=True)  # as exec(text) in dataclasses compiles it
        _missed.add(module)
    _used.setdefault(module, {})[text] = code
    return code


def _entry(module: str) -> tuple[str, str]:
    """The cache entry's file name and key for ``module``'s classes (Python's version is in the key)."""
    from . import cache

    key = cache.entry_key("dataclass methods", module, str(marshal.version))
    return f"dataclasses-{module}-{key[:16]}.bin", key


def _read(module: str) -> dict[str, CodeType]:
    """The texts and code kept for ``module``; empty when there is no trustworthy, whole entry."""
    from . import cache

    body = cache.load(*_entry(module))
    if body is None:
        return {}
    try:
        table = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict) or not all(isinstance(t, str) and type(c) is CodeType for t, c in table.items()):
        return {}
    return table


def save() -> None:
    """Keep the code of every module whose classes compiled something in this process."""
    if not _missed:
        return
    from . import cache

    for module in sorted(_missed):
        cache.store(*_entry(module), marshal.dumps(_used[module]))
        _found[module] = dict(_used[module])
    _missed.clear()
