"""The mail tests' shared pieces: an SMTP server on loopback (aiosmtpd, started and stopped by the
tests), the messages it received, and a reported game to mail from.

A test module takes the fixtures by importing them (``from mail.loopback import game, smtp``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from . import shapes


class Recorder:
    """An aiosmtpd handler keeping every message it accepts; it refuses the addresses in ``refuse``."""

    def __init__(self) -> None:
        self.received: list[tuple[str, list[str], bytes]] = []
        self.refuse: set[str] = set()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


class LoopbackController(Controller):
    """aiosmtpd's controller on an ephemeral port chosen by the system (port 0)."""

    def _trigger_server(self) -> None:
        assert self.server is not None
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


def run_server(recorder: Recorder, **kwargs: Any) -> Iterator[LoopbackController]:
    controller = LoopbackController(recorder, hostname="127.0.0.1", port=0, **kwargs)
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


def mails_to(recorder: Recorder, address: str) -> list[EmailMessage]:
    """The messages the server accepted for ``address``, in the order they came."""
    out = []
    for _, rcpt, data in recorder.received:
        if address in rcpt:
            msg = BytesParser(policy=policy.default).parsebytes(data)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
    return out


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game with reports written, made once a module (copied by ``game``)."""
    return shapes.make_reported_game(tmp_path_factory.mktemp("template") / shapes.GAME)


@pytest.fixture
def game(reported: Path, tmp_path: Path) -> Path:
    """A fresh copy of the reported game for one test."""
    return Path(shutil.copytree(reported, tmp_path / shapes.GAME))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def smtp(recorder: Recorder) -> Iterator[LoopbackController]:
    yield from run_server(recorder)
