"""The Jinja2 environment of the reports and the map: strict, escaping, deterministic.

Templates are looked up first in a moderator's own folder (``--templates DIR``), then in the
package's ``templates/`` (see :func:`adjudicator.util.resources.resource_dir`), so a moderator may
override one template and keep the rest. HTML and SVG templates escape every value (player
text is untrusted); a misspelt variable is an error, never a blank (``StrictUndefined``).

>>> environment().from_string("{{ x | wrap(10, '  ') }}").render(x="one two three four")
'one two\\n  three\\n  four'
"""

from __future__ import annotations

import json
import textwrap
from functools import cache, lru_cache
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from ..util import cache as user_cache
from ..util.resources import resource_dir
from .cardtext import card_text

_ESCAPED = ("html", "svg", "xml")


def _autoescape(name: str | None) -> bool:
    """Escape in ``*.html.j2`` / ``*.svg.j2`` templates; text templates are left as written."""
    if name is None:
        return False
    stem = name[:-3] if name.endswith(".j2") else name
    return stem.rsplit(".", 1)[-1] in _ESCAPED


def wrap(text: str, width: int = 78, indent: str = "", first: str = "") -> str:
    """Wrap a paragraph to ``width`` columns; ``first`` starts line 1, ``indent`` the others.

    The same paragraphs come back in every report of a step and from step to step (the board, the
    houses' cards), so each wrapping is remembered: a pure function of its four arguments.
    """
    try:
        return _wrapped(text, width, indent, first)
    except TypeError:  # an argument that cannot be a key (a list...): wrapped as it comes
        return _wrap(str(text), width, indent, first)


@lru_cache(maxsize=16384, typed=True)
def _wrapped(text: str, width: int, indent: str, first: str) -> str:
    return _wrap(str(text), width, indent, first)


def clear_caches() -> None:
    """Forget the paragraphs wrapped so far."""
    _wrapped.cache_clear()


def _wrap(text: str, width: int, indent: str, first: str) -> str:
    lines = textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=indent,
        break_long_words=True, break_on_hyphens=False,
    )
    return "\n".join(lines) if lines else first.rstrip()


# Everything besides a template's own text that its compiled code depends on (the cache's key).
_OPTIONS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}
_COMPILED_WITH = json.dumps({**_OPTIONS, "escaped": _ESCAPED, "undefined": "strict", "jinja2": jinja2.__version__})


class _CompiledTemplates(jinja2.BytecodeCache):
    """Each template compiled once per user, kept in the cache folder (:mod:`adjudicator.util.cache`).

    Compiling the report templates took a new process longer than rendering a step. The entry's
    key covers the template file's name and path, its text, these options and the versions of
    Jinja2 and Python; a moderator's own template (``--templates``) is an entry of its own.
    """

    @staticmethod
    def _entry(bucket: Bucket) -> tuple[str, str]:
        key = user_cache.entry_key("template", bucket.key, bucket.checksum, _COMPILED_WITH)
        return f"template-{key[:24]}.bin", key

    def load_bytecode(self, bucket: Bucket) -> None:
        name, key = self._entry(bucket)
        if (body := user_cache.load(name, key)) is not None:
            bucket.bytecode_from_string(body)  # checks Jinja2's own magic and the source's checksum again

    def dump_bytecode(self, bucket: Bucket) -> None:
        name, key = self._entry(bucket)
        user_cache.store(name, key, bucket.bytecode_to_string())


@cache
def _environment(folder: str | None) -> jinja2.Environment:
    paths = [folder] if folder else []
    paths.append(str(resource_dir("templates")))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(paths),
        autoescape=_autoescape,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_CompiledTemplates(),
        **_OPTIONS,  # type: ignore[arg-type]
    )
    env.filters["wrap"] = wrap
    env.filters["card_text"] = card_text  # the whole text of a card: every template prints cards with it
    return env


def environment(templates_dir: str | Path | None = None) -> jinja2.Environment:
    """The environment for a templates folder override (``None``: the package's own).

    :raises adjudicator.util.resources.ResourceMissing: when the package's templates are missing.
    """
    return _environment(str(Path(templates_dir).resolve()) if templates_dir else None)
