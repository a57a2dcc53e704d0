"""Where the package's files are at run time: its data (``adjudicator/game/data``) and its top-level
resource folders (``templates/``, ``grammar/``).

In an installed wheel the resource folders live inside the package (``adjudicator/templates``:
pyproject's force-include puts them there); in a checkout they sit next to the package. One module
finds either, so no module guesses paths of its own.

A package installed as a folder (a wheel, an editable install, a checkout) is read through its
folder's path: ``importlib.resources`` would give the same files, but importing it (and the zip
reader it brings) costs 22 M instructions of every command's start-up (issue 31). It is the way in
only for a package that is no folder (imported from a zip file).

>>> (resource_dir("templates") / "report.txt.j2").is_file()
True
>>> package_files("adjudicator.game").joinpath("data/board.toml").is_file()
True
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

_CHECKOUT_ROOT = Path(__file__).resolve().parents[2]  # adjudicator/util/resources.py -> the checkout


class ResourceMissing(FileNotFoundError):
    """A resource folder is neither inside the installed package nor next to it."""


def package_files(package: str) -> Traversable:
    """The files of the package ``package`` (``"adjudicator.game"``): its folder, when it is one."""
    init = getattr(importlib.import_module(package), "__file__", None)
    if init is not None and (folder := Path(init).parent).is_dir():
        return folder
    from importlib import resources  # a package in a zip file: only its loader can read it

    return resources.files(package)


def resource_dir(name: str) -> Path:
    """The folder ``name`` (e.g. ``"templates"``): inside the package first, else the checkout.

    :raises ResourceMissing: when neither place has it.
    """
    packaged = package_files("adjudicator").joinpath(name)
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = _CHECKOUT_ROOT / name
    if checkout.is_dir():
        return checkout
    raise ResourceMissing(f"resource folder {name!r} not found in the package nor at {checkout}")
