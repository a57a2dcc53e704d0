"""Running ``maester`` in a test and reading what a command wrote: shared by the tests of the commands
that create and check game folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.folder import stepreports


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """``maester ARGS...`` in this process: its exit status, standard output and standard error."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def files(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` by its relative path, with its bytes (to see that nothing changed)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def reports_of(root: Path) -> Path:
    """The game's reports as files, in the layout of an older Maester's ``reports/`` (``maester reports
    --out``): every complete step's pages rendered through :mod:`adjudicator.folder.stepreports`, fresh,
    into a folder beside the game (``.NAME-reports``), whose path is returned."""
    out = root.parent / f".{root.name}-reports"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    stepreports.clear_cache()
    for step in stepreports.steps(root):
        stepreports.write_out(step, out)
    return out


def report_text(root: Path, step: int | str, name: str) -> str:
    """One page of a step's reports (``public.txt``, ``stark.json``, ``receipts/NAME``), by the step's
    number or label, through :mod:`adjudicator.folder.stepreports`."""
    number = step if isinstance(step, int) else int(step[:4])
    found = stepreports.step(root, number)
    assert found is not None, f"step {number:04d} has no complete reports"
    return found.text(name)
