"""The input paths under fuzz: each makes one input from a random source and runs Maester on it.

A target's ``run`` returns when Maester answered as documented (a result, or one of the refusal
types its docs name) and raises anything else: that is a crash. Some targets also check a promise
the docs make about the result (a round trip), raising ``AssertionError`` when it breaks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import corpus


@dataclass(frozen=True)
class Target:
    name: str
    what: str  # for the report: the entry point and its promise
    make: Callable[[random.Random], bytes]
    run: Callable[[bytes], None]
    share: float  # of the inputs of a run: about 25 minutes on one core for a million (docs/testing.md)


# --- turn files: the parser ------------------------------------------------------------------------


def _make_turn(rng: random.Random) -> bytes:
    if rng.random() < 0.4:
        text = corpus.turn_lines(rng, rng.choice((1, 1, 2, 5, 20))).encode()
        if rng.random() < 0.5:
            text = b"game g \xc2\xb7 house stark \xc2\xb7 round 1 \xc2\xb7 planning \xc2\xb7 seq 1\n" + text
        return corpus.mutate(text, rng, corpus.turn_files(), steps=rng.choice((0, 0, 1, 2)))
    return corpus.mutate(rng.choice(corpus.turn_files()), rng, corpus.turn_files())


def _run_turn(data: bytes) -> None:
    """parse_turn_file never raises; every accepted command prints to a line that parses back to it."""
    from dataclasses import replace

    from adjudicator.turnfile.parser import parse_turn_file
    from adjudicator.turnfile.printer import format_command

    tf = parse_turn_file(data, filename="fuzz.txt")
    tf.receipt()
    for cmd in tf.commands:
        line = format_command(cmd)
        back = parse_turn_file(line + "\n").commands
        assert len(back) == 1 and replace(back[0], where=None) == replace(cmd, where=None), \
            f"round trip: {line!r} parses to {back!r}, not {cmd!r}"  # fmt: skip


# --- seals: the seal reader and verifier -----------------------------------------------------------


@cache
def _seal_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def _make_seal(rng: random.Random) -> bytes:
    from adjudicator.seals import seal

    pool = corpus.sealed_files()
    if rng.random() < 0.25:  # a good seal over a mutated body: the reader gets past the signature
        body = corpus.mutate(rng.choice(corpus.turn_files()), rng, pool).decode("utf-8", "replace")
        first = "game g · house stark · round 1 · planning · seq 1\n"
        try:
            sealed = seal.sign(first + body, _seal_key()).encode()
        except seal.SealError:
            sealed = (first + body).encode()
        return corpus.mutate(sealed, rng, pool, steps=rng.choice((0, 0, 1)))
    return corpus.mutate(rng.choice(pool), rng, pool)


def _run_seal(data: bytes) -> None:
    """decode -> scan -> open each block: a result or a SealError; a block's own text scans back to itself."""
    from adjudicator.seals import seal

    try:
        text = seal.decode(data)
    except seal.SealError:
        return
    found = seal.scan(text)
    for block in found.blocks:
        try:
            opened = block.open()
        except seal.SealError:
            continue
        again = seal.scan(block.own_text()).blocks
        assert len(again) == 1 and again[0].open() == opened, "own_text does not scan back to the same block"


# --- positions -------------------------------------------------------------------------------------


def _make_position(rng: random.Random) -> bytes:
    return corpus.mutate(rng.choice(corpus.positions()), rng, corpus.positions(), steps=rng.choice((1, 1, 1, 2, 3)))


def _run_position(data: bytes) -> None:
    """load_position: a state or a PositionError; a state dumps to a text that loads to an equal state."""
    from adjudicator.game.position import PositionError, load_position
    from adjudicator.game.position_dump import dump_position

    try:
        text = data.decode("utf-8")  # read_position refuses other bytes with a PositionError
        state = load_position(text, filename="fuzz.toml")
    except (UnicodeDecodeError, PositionError):
        return
    dumped = dump_position(state)
    again = load_position(dumped, filename="dumped.toml")
    assert again == state, "load(dump(x)) != x"
    assert dump_position(again) == dumped, "dump(load(dump(x))) != dump(x)"


# --- mail: the mail scanner of ingest -------------------------------------------------------------


_MIME = [
    b"Content-Type: text/plain; charset=idna\n\n\xff\n", b"Subject: =?utf-8\x00?q?x?=\n",
    b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: multipart/mixed; boundary=b\n\n",
    b"Content-Type: text/plain; " + b"a=b; " * 2000 + b"\n", b"Content-Transfer-Encoding: base64\n\n====\n",
    b"Content-Type: message/rfc822\n\n", b"Content-Disposition: attachment; filename*=utf-8''%ff%fe\n",
    b"Content-Type: text/html; charset=utf-7\n\n+AGEAYg-<p>x</p>\n", b"Content-Type: text/plain; format=flowed; delsp=yes\n",
]


def _make_mail(rng: random.Random) -> bytes:
    pool = corpus.mail_messages()
    data = rng.choice(pool)
    if rng.random() < 0.3:  # hostile MIME headers or parts
        at = data.find(b"\n\n")
        data = data[:at + 1] + rng.choice(_MIME) + data[at + 1:] if at >= 0 else rng.choice(_MIME) + data
    return corpus.mutate(data, rng, pool)


def _run_mail(data: bytes) -> None:
    """scan_message never raises, for any bytes."""
    from adjudicator.mail.ingest import scan_message

    scan_message(data)


# --- maester check: the engine's dry run -------------------------------------------------------------


@cache
def _check_cases() -> list[tuple[Any, str, str]]:
    """(state, house, the robot's answer as a turn file) for each open request of the sample states."""
    from adjudicator.engine.core.context import Request
    from adjudicator.game.board import Board
    from adjudicator.robots.players import Robot
    from adjudicator.turnfile.header import Header, format_header
    from adjudicator.turnfile.printer import format_command

    board, cases = Board.classic(), []
    for i, state in enumerate(corpus.sample_states()):
        requests = [Request.from_dict(p) for p in state.pending]
        for house in sorted({r.house for r in requests}):
            robot = Robot(house, _seal_key(), random.Random(i), chaos=0.3)
            lines = [format_command(c) for c in robot.commands(state, requests, board)]
            header = format_header(Header(state.game_id, house, state.round, state.phase, 1))
            cases.append((state, house, "\n".join([header, *lines]) + "\n"))
    return cases


def _make_check(rng: random.Random) -> bytes:
    index = rng.randrange(len(_check_cases()))
    _, _, text = _check_cases()[index]
    body = text.encode()
    if rng.random() < 0.3:
        body += corpus.turn_lines(rng, rng.choice((1, 2, 4))).encode()
    steps = rng.choice((0, 1, 1, 2, 3))
    if rng.random() < 0.8:  # the header kept whole, so that the engine runs on the body
        header, _, rest = body.partition(b"\n")
        mutated = header + b"\n" + corpus.mutate(rest, rng, corpus.turn_files(), steps=steps)
    else:
        mutated = corpus.mutate(body, rng, corpus.turn_files(), steps=steps)
    return index.to_bytes(2, "big") + mutated  # the case travels with the input, so it can be replayed


def _run_check(data: bytes) -> None:
    """check_turn_file with the engine: problems and warnings, never an exception or a W901 (the engine failed)."""
    from adjudicator.folder.check import CheckError, check_turn_file
    from adjudicator.turnfile.parser import parse_turn_file

    cases = _check_cases()
    state, house, _ = cases[int.from_bytes(data[:2], "big") % len(cases)]
    try:
        tf = check_turn_file(parse_turn_file(data[2:], filename="fuzz.txt"), state, house=house)
    except CheckError:
        return
    failed = [w.message for w in tf.warnings if w.code == "W901"]
    if failed:
        raise EngineFailed(failed[0])


class EngineFailed(Exception):
    """The engine's dry run raised: check_turn_file hid it in a W901 warning."""


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("turnfile", "parse_turn_file(bytes); receipt(); every command round-trips through its printed line",
           _make_turn, _run_turn, 0.25),
    Target("seal", "decode, scan, open every block (SealError refuses); a block's own text scans back to it",
           _make_seal, _run_seal, 0.55),
    Target("position", "load_position (PositionError refuses); load(dump(x)) == x and dump is stable",
           _make_position, _run_position, 0.08),
    Target("mail", "scan_message(bytes) never raises", _make_mail, _run_mail, 0.06),
    Target("check", "check_turn_file with the engine's dry run: no exception, no W901 (engine failed)",
           _make_check, _run_check, 0.06),
)}  # fmt: skip
