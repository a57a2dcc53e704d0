"""Shared fixtures. A logged ERROR fails the test run."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(autouse=True)
def _fail_on_logged_error(caplog: pytest.LogCaptureFixture):
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, f"logged errors: {[r.getMessage() for r in errors]}"
