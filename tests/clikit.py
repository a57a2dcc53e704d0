"""Running ``maester`` in a test and reading what a command wrote: shared by the tests of the commands
that create and check game folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """``maester ARGS...`` in this process: its exit status, standard output and standard error."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def files(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` by its relative path, with its bytes (to see that nothing changed)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
