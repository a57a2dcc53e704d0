"""Where the package's top-level resource folders (``templates/``, ``grammar/``) are at run time.

In an installed wheel they live inside the package (``adjudicator/templates``: pyproject's
force-include puts them there); in a checkout they sit next to the package. One function finds
either, so no module guesses paths of its own.

>>> (resource_dir("templates") / "report.txt.j2").is_file()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT_ROOT = Path(__file__).resolve().parents[2]  # adjudicator/util/resources.py -> the checkout


class ResourceMissing(FileNotFoundError):
    """A resource folder is neither inside the installed package nor next to it."""


def resource_dir(name: str) -> Path:
    """The folder ``name`` (e.g. ``"templates"``): inside the package first, else the checkout.

    :raises ResourceMissing: when neither place has it.
    """
    packaged = resources.files("adjudicator").joinpath(name)
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = _CHECKOUT_ROOT / name
    if checkout.is_dir():
        return checkout
    raise ResourceMissing(f"resource folder {name!r} not found in the package nor at {checkout}")
