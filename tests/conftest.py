"""Shared fixtures. A logged ERROR fails the test run."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(autouse=True)
def _fail_on_logged_error(caplog: pytest.LogCaptureFixture):
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, f"logged errors: {[r.getMessage() for r in errors]}"


_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The per-user cache (parser tables, compiled templates) in a folder of this test run, not the user's own."""
    import os
    import tempfile

    _CACHE.append(tempfile.mkdtemp(prefix="maester-test-cache-"))
    os.environ["XDG_CACHE_HOME"] = _CACHE[-1]
    os.environ.pop("MAESTER_NO_CACHE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    for folder in _CACHE:
        shutil.rmtree(folder, ignore_errors=True)
