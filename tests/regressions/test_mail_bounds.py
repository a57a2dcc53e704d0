"""Issues 13 and 22: no mail can stop a game, and a hostile part never costs the rest of a message.

What a stranger could send, and did: a ``Date:`` in year 9999 at a negative offset (OverflowError:
every later mail run crashed, the mail never marked seen); a Subject of encoded words (memory
quadratic in their number); 100,000 tiny parts or 1,000 nested ones (RecursionError: never recorded,
every later ingest exited 1); ``charset=idna`` with a stray byte, or a charset name holding a NUL
(UnicodeError, ValueError out of the parser: the good turn in the same message was lost). Ingest
also parsed every message again at every run and rewrote ``mail-seen.json`` after each one.
"""

from __future__ import annotations

import email.message
import json
import mailbox as std_mailbox
from pathlib import Path

import pytest
from mail import shapes
from mail.shapes import turn

from adjudicator.cli import main as cli_main
from adjudicator.mail import blocks
from adjudicator.mail import ingest as mail_in
from adjudicator.mail import parse as mailparse
from adjudicator.mail.ingest import ingest_into_inbox, scan_message

HEAD = "From: Ned <stark@players.example>\nTo: moderator@maester.example\nMIME-Version: 1.0\n"


def message(*, n: int = 1, date: str = "Sun, 01 Mar 2026 18:00:00 +0000", subject: str = "my turn",
            extra_parts: bytes = b"", body: str | None = None) -> bytes:  # fmt: skip
    """Stark's turn in the first part of a multipart message, with ``extra_parts`` after it."""
    sealed = body if body is not None else turn("stark", n, f"# turn {n}")
    head = f"{HEAD}Subject: {subject}\nDate: {date}\nMessage-ID: <m{n}@players.example>\n".encode()
    return (head + b'Content-Type: multipart/mixed; boundary="b0"\n\n--b0\nContent-Type: text/plain; charset=utf-8\n\n'
            + sealed.encode() + b"\n--b0\n" + (extra_parts or b"Content-Type: text/plain\n\nbye\n") + b"\n--b0--\n")


def inbox(game: Path) -> list[str]:
    return sorted(p.name for p in (game / "inbox").iterdir() if not p.name.startswith("."))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = shapes.make_game(tmp_path / "games" / shapes.GAME)
    (root / "inbox").mkdir(exist_ok=True)
    return root


# --- 3. a date no calendar holds -------------------------------------------------------------------

DATES = ["Fri, 31 Dec 9999 23:59:59 -1200", "Fri, 31 Dec 9999 23:00:00 -0100", "Sat, 31 Feb 2026 10:00:00 +0000",
         "Sun, 01 Mar 2026 25:61:61 +0000",
         "Sun, 01 Mar 99999999999999999999 10:00:00 +0000", "yesterday"]  # fmt: skip
COMMANDS = {"ingest": lambda g, box: ["ingest", str(g), "--maildir", str(box)],
            "adjudicate --maildir": lambda g, box: ["adjudicate", str(g), "--maildir", str(box)],
            "adjudicate --all --maildir": lambda g, box: ["adjudicate", str(g.parent), "--all", "--maildir", str(box)]}


@pytest.mark.parametrize("date", DATES)
@pytest.mark.parametrize("command", COMMANDS, ids=COMMANDS.keys())
def test_issue13_3_an_absurd_date_is_no_date_and_every_run_goes_on(game: Path, tmp_path: Path, date: str,
                                                                    command: str) -> None:  # fmt: skip
    box = shapes.maildir(tmp_path / "Maildir", [message(date=date), shapes.plain("lannister", turn("lannister", 1), 2)])
    args = COMMANDS[command](game, box)
    assert cli_main(args) == 0
    names = inbox(game) if command == "ingest" else [p.name for p in (game / "archive").iterdir()]
    assert len(names) == 2, "both turns taken, the one with the absurd date too"
    if command == "ingest":
        assert any(n.startswith("undated-") for n in inbox(game))
    else:
        assert inbox(game) == [], "taken: out of the inbox, into the archive"
    assert cli_main(args) == 0, "and every later run"


# --- 4. bounded cost: read before is recognised unparsed; the record written once ---------------


def test_issue13_4_a_message_read_before_is_recognised_before_it_is_parsed(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    messages = [message(n=i) for i in range(1, 6)] + [shapes.plain("lannister", turn("lannister", 1), 9, msgid=False)]
    box, mbox = shapes.maildir(tmp_path / "Maildir", messages), shapes.mbox(tmp_path / "mbox", messages)
    assert ingest_into_inbox(game, maildir=box).exit_status == 0
    parsed, read = [], []
    monkeypatch.setattr(blocks, "parse", lambda raw: parsed.append(raw) or mailparse.parse(raw))
    real_get = std_mailbox.Maildir.get_bytes
    monkeypatch.setattr(std_mailbox.Maildir, "get_bytes", lambda self, key: read.append(key) or real_get(self, key))
    again = ingest_into_inbox(game, maildir=box)
    assert [o.status for o in again.outcomes] == ["seen"] * 6
    assert parsed == [] and read == [], "not even read: known by its Maildir name"
    from_mbox = ingest_into_inbox(game, mbox=mbox)  # the same messages in an mbox: known by their bytes
    assert [o.status for o in from_mbox.outcomes] == ["seen"] * 6 and parsed == []


def test_issue13_4_mail_seen_json_is_written_once_a_run(game: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    writes = []
    real = mail_in.fileio.atomic_write_text
    monkeypatch.setattr(mail_in.fileio, "atomic_write_text",
                        lambda path, text: writes.append(Path(path).name) or real(path, text))  # fmt: skip
    spam = [shapes.plain("spammer@example.net", "Buy now!", i) for i in range(40)]
    report = ingest_into_inbox(game, maildir=shapes.maildir(tmp_path / "Maildir", [message(), *spam]))
    assert len(report.outcomes) == 41 and writes.count(mail_in.SEEN_FILE) == 1
    seen = json.loads((game / mail_in.SEEN_FILE).read_text())
    assert len(seen["messages"]) == 41 and len(seen["raw"]) == 82  # by Maildir name and by bytes


# --- 4. and issue 22: bounds on headers, encoded words, parts and nesting --------------------------


def refused_then_seen(game: Path, tmp_path: Path, raw: bytes, why: str) -> None:
    box = shapes.maildir(tmp_path / "Maildir", [raw, message(n=2)])
    report = ingest_into_inbox(game, maildir=box)
    text = "\n".join(report.lines())
    # Sorted: a Maildir is read in the order of its names, and Python's names carry the microsecond
    # unpadded (M8096 sorts after M24872), so two mails of one second may come either way round.
    assert sorted(o.status for o in report.outcomes) == ["refused", "taken"], text
    assert why in text and "recorded: it is not read again" in text
    assert report.exit_status == 1
    again = ingest_into_inbox(game, maildir=box)
    assert [o.status for o in again.outcomes] == ["seen", "seen"] and again.exit_status == 0


@pytest.mark.parametrize("words,why", [(10_000, "its header is 260,"), (150, "its header holds 150 encoded words")])
def test_issue13_4_a_subject_of_many_encoded_words_is_refused_undecoded_and_recorded(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: int, why: str) -> None:  # fmt: skip
    decoded = []
    monkeypatch.setattr(mailparse, "decode_header", lambda v: decoded.append(v) or [])
    subject = " ".join(["=?utf-8?q?=C3=A9t=C3=A9?="] * words)
    refused_then_seen(game, tmp_path, message(subject=subject), why)
    assert not any("=C3=A9t" in v for v in decoded), "the refused Subject was never decoded"


def test_issue13_4_a_header_of_200_kb_is_refused_and_recorded(game: Path, tmp_path: Path) -> None:
    raw = message().replace(b"Subject:", b"".join(b"X-Filler-%d: %s\n" % (i, b"x" * 990) for i in range(200)) + b"Subject:")
    refused_then_seen(game, tmp_path, raw, "its header is 2")


@pytest.mark.parametrize("name", ["Content-Type", "Subject", "From"])
def test_issue13_4_one_long_header_it_reads_is_refused_and_recorded(game: Path, tmp_path: Path, name: str) -> None:
    long = b"x" * 5000 if name != "Content-Type" else b'multipart/mixed; boundary="b0"; x="' + b"y" * 5000 + b'"'
    raw = message()
    start = raw.index(name.encode() + b":")
    end = raw.index(b"\n", start)
    refused_then_seen(game, tmp_path, raw[:start] + name.encode() + b": " + long + raw[end:],
                      f"its {name} header is 5,0")


def test_issue22_100000_parts_the_first_are_read_the_rest_noted_and_the_message_recorded(
        game: Path, tmp_path: Path) -> None:  # fmt: skip
    parts = b"".join(b"Content-Type: text/plain\n\n%d\n--b0\n" % i for i in range(100_000))
    box = shapes.maildir(tmp_path / "Maildir", [message(extra_parts=parts)])
    report = ingest_into_inbox(game, maildir=box)
    text = "\n".join(report.lines())
    assert len(report.taken) == 1 and "more than 1,000 parts: the parts after part 1,000 were not read" in text
    assert [o.status for o in ingest_into_inbox(game, maildir=box).outcomes] == ["seen"]


@pytest.mark.parametrize("depth", [25, 1_000, 5_000])
def test_issue22_deep_nesting_is_cut_before_the_parser_recurses_and_the_turn_delivered(
        game: Path, tmp_path: Path, depth: int) -> None:  # fmt: skip
    nested = b"".join(b'Content-Type: multipart/mixed; boundary="n%d"\n\n--n%d\n' % (i, i) for i in range(depth))
    box = shapes.maildir(tmp_path / "Maildir", [message(extra_parts=nested + b"Content-Type: text/plain\n\nx\n")])
    report = ingest_into_inbox(game, maildir=box)
    text = "\n".join(report.lines())
    assert report.exit_status == 0 and len(report.taken) == 1, text
    assert "nested 21 levels deep (the limit is 20): not read" in text
    assert [o.status for o in ingest_into_inbox(game, maildir=box).outcomes] == ["seen"]


HOSTILE_PARTS = {
    "charset=idna with a stray byte": (b"Content-Type: text/plain; charset=idna\n\n\xff\n", "not valid idna text"),
    "a NUL in a charset's name": (b'Content-Type: text/plain; charset="utf\x00-8"\n\nhi\n', "unknown character set"),
    "a NUL in an RFC 2231 boundary's charset": (
        b"Content-Type: multipart/mixed; boundary*=utf\x00-8''c\n\n--c\nContent-Type: text/plain\n\nhi\n--c--\n",
        "boundary cannot be read"),
    "a NUL in an RFC 2231 charset's charset": (b"Content-Type: text/plain; charset*=utf\x00-8''utf-8\n\nhi\n", ""),
    "a NUL in an encoded word's charset": (
        b'Content-Type: text/plain\nContent-Disposition: attachment; filename="=?utf\x00-8?q?x?="\n\nhi\n', ""),
    "a codec that is no text encoding": (b"Content-Type: text/plain; charset=rot13\n\nhi\n", "not valid rot13 text"),
    "a part of 5,000 parameters": (b"Content-Type: text/plain" + b"; a=b" * 5000 + b"\n\nhi\n",
                                   "its Content-Type header is"),
}  # fmt: skip


@pytest.mark.parametrize("part,note", HOSTILE_PARTS.values(), ids=HOSTILE_PARTS.keys())
def test_issue22_a_hostile_part_is_skipped_with_a_note_and_the_turn_beside_it_delivered(
        game: Path, tmp_path: Path, part: bytes, note: str) -> None:  # fmt: skip
    found = scan_message(message(extra_parts=part))
    assert not found.refused and len(found.blocks) == 1
    assert note in " ".join(found.notes)
    report = ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / "mbox", [message(extra_parts=part)]))
    assert report.exit_status == 0 and len(report.taken) == 1


def test_issue22_each_content_type_is_parsed_once_a_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """The modern policy parsed a part's Content-Type about 12 times (23-35 µs a byte each)."""
    import email._header_value_parser as hvp

    calls = []
    for name in ("parse_content_type_header", "parse_content_disposition_header"):
        real = getattr(hvp, name)
        monkeypatch.setattr(hvp, name, lambda v, real=real: calls.append(v) or real(v))
    real_params = email.message._parseparam
    monkeypatch.setattr(email.message, "_parseparam", lambda s: calls.append(s) or real_params(s))
    parts = b"".join(b'Content-Type: text/plain; charset=utf-8; format=flowed\nContent-Disposition: inline\n\n%d\n--b0\n'
                     % i for i in range(200))  # fmt: skip
    found = scan_message(message(extra_parts=parts + b"Content-Type: text/plain\n\nend\n"))
    assert len(found.blocks) == 1
    assert len(calls) <= 2 * 203, f"{len(calls)} header parses for 203 parts"


def test_fuzz_a_utf7_part_decoding_to_lone_surrogates_is_noted_and_the_turn_delivered() -> None:
    """Found by `make fuzz` (mail): UTF-7 decoded to lone surrogates, which raised in the block's hash."""
    utf7 = b"Content-Type: text/html; charset=utf7\n\n<v>game +Y+cEYbz0iSTfiv\n<div>-----END SSH SIGNATURE-----<v>\n"
    alone = scan_message(b"Content-Type:text/html;charset=utf7\n<v>game +Y+cEYbz0iSTfiv\n"
                         b"<div>-----END SSH SIGNATURE-----<v>")  # fmt: skip
    assert any("not valid utf7 text" in n for n in alone.notes)
    found = scan_message(message(extra_parts=utf7))
    assert not found.refused
    assert [b.header.house for b in found.blocks if b.header and b.seal.startswith("seal good")] == ["stark"]
    assert any("not valid utf7 text" in n for n in found.notes)


def test_fuzz_a_from_header_of_a_thousand_groups_is_read_as_no_address() -> None:
    """Found by `make fuzz` (mail): the standard address parser recursed once per group."""
    found = scan_message(b"From: " + b"a: " * 1000 + b"\n\nhello\n")
    assert found.sender == "" and not found.refused
