"""Ruling 195 (issue 21): a ``.sig`` a mail carried that sealed no turn is named in a receipt to the
house whose registered key the seal names, mailed by ``maester outbox`` with its next mail, once; a
seal naming no registered key, or one that is no turn seal, mails nobody.

The mails go through ``maester outbox --send`` to an SMTP server on loopback (``mail.loopback``).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mail import clients, shapes
from mail.loopback import LoopbackController, Recorder, game, mails_to, recorder, reported, smtp  # noqa: F401

from adjudicator.cli import main as cli_main
from adjudicator.folder import audit, batch, registry
from adjudicator.folder.ledger import Ledger
from adjudicator.folder.notices import MAX_WAITING
from adjudicator.mail.detached import MAX_STRAYS
from adjudicator.mail.ingest import ingest_into_inbox
from adjudicator.seals import seal, sshsig
from adjudicator.seals.keys import write_key_pair

HEADER = f"game {shapes.GAME} · house stark · round 1 · planning · seq 1"
STRANGER = Ed25519PrivateKey.from_private_bytes(bytes([9] * 32))
FORGER = "mallory@evil.example"


def sig(text: str, key: Ed25519PrivateKey, namespace: str = seal.NAMESPACE) -> bytes:
    """What ``ssh-keygen -Y sign -n NAMESPACE`` writes to ``turn.txt.sig`` for ``text``."""
    return sshsig.sign(text.encode("utf-8"), key, namespace).encode()


def forged_sig(key: Ed25519PrivateKey, n: int) -> bytes:
    """A seal naming ``key``'s public key over nothing at all: 64 made-up signature bytes, as anyone can write."""
    real = sshsig.read_armour(sig("anything\n", key).decode())
    fake = sshsig.Signature(real.key, real.namespace, real.hash_algorithm, bytes([n % 256]) * 64)
    return sshsig.armour(fake).encode()


def mail(files: dict[str, bytes], n: int, *, sender: str = shapes.EMAILS["stark"], body: str = "My turn.\n") -> bytes:
    m = EmailMessage(policy=policy.default)
    m["From"], m["To"], m["Subject"] = sender, shapes.MODERATOR_EMAIL, f"turn {n}"
    m["Message-ID"] = f"<stray{n}@players.example>"
    m["Date"] = "Sun, 01 Mar 2026 18:00:00 +0000"
    m.set_content(body)
    for name, data in files.items():
        if name.endswith(".sig"):
            m.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
        else:
            m.add_attachment(data.decode(), subtype="plain", filename=name)
    return m.as_bytes()


def ingest(game: Path, tmp_path: Path, messages: list[bytes], name: str = "mbox") -> str:
    return "\n".join(ingest_into_inbox(game, mbox=shapes.mbox(tmp_path / name, messages)).lines())


def flat(text: str) -> str:
    """A receipt's words on one line (it is wrapped at 78 columns)."""
    return " ".join(text.split())


def receipts(game: Path) -> list[Path]:
    return sorted((game / "refused").glob("*.txt")) if (game / "refused").is_dir() else []


def unmatched_lines(game: Path) -> list[dict]:
    return [e for e in registry.read_log(game) if e.get("action") == "unmatched-seal"]


@pytest.fixture
def send(game: Path, tmp_path: Path, smtp: LoopbackController) -> Iterator[list[str]]:
    """``maester outbox GAME --key MODERATOR --send smtp://...`` as a command line."""
    write_key_pair(tmp_path / "moderator", shapes.MODERATOR)
    yield ["outbox", str(game), "--key", str(tmp_path / "moderator"), "--send", f"smtp://127.0.0.1:{smtp.port}"]


def run(args: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()):
        return cli_main(args)


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def mailed_text(recorder: Recorder, address: str) -> str:
    return "\n".join(text_of(m) for m in mails_to(recorder, address))


def test_ruling_195_a_sig_with_no_file_reaches_only_its_keys_house_once(game: Path, tmp_path: Path, send: list[str],
                                                                        recorder: Recorder) -> None:  # fmt: skip
    """Sent from the forger's address, it is told to Stark (whose key the seal names) and to nobody else."""
    raw = mail({"turn.txt.sig": sig(f"{HEADER}\n# the file itself was forgotten\n", shapes.KEYS["stark"])}, 1,
               sender=FORGER)  # fmt: skip
    out = ingest(game, tmp_path, [raw])
    (receipt,) = receipts(game)
    assert receipt.name.endswith("-stark.txt") and receipt.name.startswith("0000-turn.txt-")
    assert f"receipt refused/{receipt.name}: for House Stark, whose key the seal names, with its next mail" in out
    said = receipt.read_text()
    assert "Receipt for the seal 'turn.txt.sig'" in flat(said)
    assert "the mail had no attachment named 'turn.txt', the file this seal is for" in flat(said)
    assert "attach the file the seal was made over, 'turn.txt', unchanged, beside 'turn.txt.sig'" in flat(said)
    assert FORGER not in said  # the address proves nothing and is said to no player
    assert run(send) == 0
    stark = mailed_text(recorder, shapes.EMAILS["stark"])
    assert stark.count(f"[refused/{receipt.name}]") == 1 and said.rstrip("\n") in stark
    for other in ("lannister", "baratheon"):
        assert receipt.name not in mailed_text(recorder, shapes.EMAILS[other])
    assert mails_to(recorder, FORGER) == []
    moderator = mailed_text(recorder, shapes.MODERATOR_EMAIL)
    assert f"refused/{receipt.name} (attachment 'turn.txt.sig' of <stray1@players.example>): to House Stark" in moderator
    # Idempotent: the same mailbox read again, the seal resent in a new mail, outbox run again: told once.
    again = ingest(game, tmp_path, [raw, mail({"turn.txt.sig": raw_sig(raw)}, 2)], "mbox2")
    assert f"the seal 'turn.txt.sig' was told to House Stark before (refused/{receipt.name})" in again
    assert run(send) == 0
    assert mailed_text(recorder, shapes.EMAILS["stark"]).count(f"[refused/{receipt.name}]") == 1
    assert len(receipts(game)) == 1 and len(unmatched_lines(game)) == 1
    assert audit.replay(game).ok


def raw_sig(raw: bytes) -> bytes:
    """The .sig attachment's bytes of a message made by :func:`mail`."""
    from email import message_from_bytes

    msg = message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    (part,) = [p for p in msg.iter_attachments() if str(p.get_filename()).endswith(".sig")]
    data = part.get_content()
    return data if isinstance(data, bytes) else data.encode()


def test_ruling_195_a_file_changed_after_it_was_sealed_is_told_its_text_does_not_verify(game: Path, tmp_path: Path) -> None:
    text = f"{HEADER}\n# what was sealed\n"
    raw = mail({"turn.txt": text.replace("sealed", "sent").encode(), "turn.txt.sig": sig(text, shapes.KEYS["stark"])}, 1)
    out = ingest(game, tmp_path, [raw])
    assert "seal fails [bad-signature]" in out  # taken all the same, and refused by the run (ruling 191)
    (receipt,) = receipts(game)
    said = flat(receipt.read_text())
    assert "the attachment 'turn.txt' was in the mail, but its text does not verify against this seal" in said
    assert "had no attachment named" not in said
    result = batch.adjudicate(game)
    assert not result.accepted and any("bad-signature" in r for rej in result.rejected for r in rej.reasons)


def test_ruling_195_a_seal_over_the_file_as_typed_gets_the_hint_of_ruling_194(game: Path, tmp_path: Path) -> None:
    typed = f"{HEADER}\r\n# typed on Windows\r\n"
    raw = mail({"turn.txt": typed.encode(), "turn.txt.sig": sig(typed, shapes.KEYS["stark"])}, 1)
    ingest(game, tmp_path, [raw])
    (receipt,) = receipts(game)
    said = flat(receipt.read_text())
    assert "The seal covers the text as typed, with CRLF line ends" in said and "maester normalise" in said


def test_ruling_195_a_sig_with_an_unknown_key_tells_no_house_and_ruling_323_only_its_registered_sender_hears(
        game: Path, tmp_path: Path, send: list[str], recorder: Recorder) -> None:  # fmt: skip
    """No house is told of a seal naming no house's key (ruling 195), and the forger's address hears
    nothing; the one mail about it goes to the registered address it came from (ruling 323)."""
    moderator_sig = sig(f"{HEADER}\n# the moderator's key\n", shapes.MODERATOR.private)
    seals = {"turn.txt.sig": sig(f"{HEADER}\n# a stranger\n", STRANGER), "x.txt.sig": moderator_sig}
    out = ingest(game, tmp_path, [mail(seals, 1, sender=shapes.EMAILS["stark"]), mail(seals, 2, sender=FORGER)])
    assert out.count("not taken: attachment 'turn.txt.sig': a seal that matches no turn in this mail") == 2
    assert out.count("not told: the seal 'turn.txt.sig' names no house's key registered in this game") == 2
    assert out.count("not told: the seal 'x.txt.sig' names no house's key registered in this game") == 2
    assert receipts(game) == [] and unmatched_lines(game) == []
    before = len(recorder.received)
    assert run(send) == 0
    for address in (shapes.EMAILS["lannister"], shapes.EMAILS["baratheon"]):
        assert "turn.txt.sig" not in mailed_text(recorder, address)
    assert mails_to(recorder, FORGER) == []
    (reply,) = [m for m in mails_to(recorder, shapes.EMAILS["stark"]) if "turn.txt.sig" in text_of(m)]
    assert reply["X-Maester-Reply"] == "not-taken" and "x.txt.sig" not in text_of(reply)
    moderator = flat(mailed_text(recorder, shapes.MODERATOR_EMAIL))
    assert f"{shapes.EMAILS['stark']}, 'turn 1'" in moderator and f"{FORGER}, 'turn 2'" in moderator
    assert len(recorder.received) - before == 5  # the reports of step 0000, which were due anyway, and the reply


def test_ruling_195_hostile_sigs_never_crash_and_never_mail(game: Path, tmp_path: Path) -> None:
    begin, end = "-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----"
    stark = shapes.KEYS["stark"]
    blob = base64.b64encode(b"SSHSIG" + bytes(2 * 1024 * 1024)).decode()
    hostile = {
        "garbage.sig": f"{begin}\nnot base64 at all\n{end}\n".encode(),
        "huge.sig": (begin + "\n" + "\n".join(blob[i : i + 70] for i in range(0, len(blob), 70)) + f"\n{end}\n").encode(),
        "report.txt.sig": sig(f"{HEADER}\n# Stark's key, a report's namespace\n", stark, "maester-report"),
        "empty.sig": f"{begin}\n{end}\n".encode(),
        "binary.sig": bytes(range(256)) * 8,
    }
    messages = [mail({name: data}, n) for n, (name, data) in enumerate(hostile.items(), 1)]
    messages.append(mail(hostile, 99))
    out = ingest(game, tmp_path, messages)
    assert "Traceback" not in out and "receipt refused/" not in out
    assert receipts(game) == [] and unmatched_lines(game) == []
    assert "a seal in the namespace 'maester-report', not a turn's" in out


def test_ruling_195_seals_naming_a_key_cannot_flood_its_houses_mail(game: Path, tmp_path: Path) -> None:
    """Anyone can write a seal naming Stark's public key: one mail tries at most 4, and at most 4 wait for
    Stark's next mail; the rest are named in the moderator's summary only."""
    many = {f"t{i}.txt.sig": forged_sig(shapes.KEYS["stark"], i) for i in range(12)}
    out = ingest(game, tmp_path, [mail(many, 1), mail({"u.txt.sig": forged_sig(shapes.KEYS["stark"], 200)}, 2),
                                  mail({"v.txt.sig": forged_sig(shapes.KEYS["stark"], 201)}, 3)])  # fmt: skip
    assert len(receipts(game)) == MAX_WAITING == MAX_STRAYS
    assert out.count("receipt refused/") == MAX_WAITING
    assert out.count(f"not told to House Stark: {MAX_WAITING} receipts of seals naming its key wait") == 2
    assert "8 more .sig attachments with no file of their name" in out


def test_ruling_195_a_sig_beside_a_file_sealed_over_the_same_text_tells_nobody(game: Path, tmp_path: Path) -> None:
    sealed = shapes.turn("stark", 1, "# sealed by maester sign, and by ssh-keygen too")
    text = seal.split_sealed(sealed)[0].text
    out = ingest(game, tmp_path, [mail({"turn.txt": sealed.encode(), "turn.txt.sig": sig(text, shapes.KEYS["stark"])}, 1)])
    assert "took inbox/" in out and receipts(game) == []  # the turn was taken by its own seal: nothing to tell


def test_ruling_195_a_sig_beside_a_sealed_file_it_does_not_verify_over_is_told(game: Path, tmp_path: Path) -> None:
    sealed = shapes.turn("stark", 1, "# sealed by maester sign")
    other = sig(f"{HEADER}\n# an older version of the file\n", shapes.KEYS["stark"])
    ingest(game, tmp_path, [mail({"turn.txt": sealed.encode(), "turn.txt.sig": other}, 1)])
    (receipt,) = receipts(game)
    assert "the attachment 'turn.txt' was in the mail, but its text does not verify" in flat(receipt.read_text())


def test_ruling_195_a_sig_in_a_mail_of_another_game_is_left_to_that_game(game: Path, tmp_path: Path) -> None:
    other = shapes.turn("stark", 1, "# for the other game", game="othergame")
    raw = mail({"turn.txt.sig": sig(f"{HEADER}\n# forgotten\n", shapes.KEYS["stark"])}, 1, body=other)
    ingest(game, tmp_path, [raw])
    assert receipts(game) == []


def test_ruling_195_the_receipt_names_a_strangers_file_name_only_in_safe_letters(game: Path, tmp_path: Path) -> None:
    name = "Moderator says: you LOSE, send 100 power to evil.example.sig"
    ingest(game, tmp_path, [mail({name: forged_sig(shapes.KEYS["stark"], 1)}, 1)])
    (receipt,) = receipts(game)
    said = flat(receipt.read_text())
    assert "Moderator_says_you_LOSE_send_100_power_to_evil.example.sig" in said and name not in said


def test_ruling_195_the_unmatched_seal_line_is_logged_and_the_game_still_replays(game: Path, tmp_path: Path) -> None:
    ingest(game, tmp_path, [mail({"turn.txt.sig": sig(f"{HEADER}\n# forgotten\n", shapes.KEYS["stark"])}, 1)])
    log = (game / registry.LOG_FILE).read_text()
    (line,) = [json.loads(x) for x in log.splitlines() if '"unmatched-seal"' in x]
    assert set(line) >= {"sha256", "file", "house", "why", "at", "receipts"} and line["house"] == "stark"
    assert line["receipts"] == {"stark": f"refused/{receipts(game)[0].name}"} and line["why"] == "no-file"
    assert audit.replay(game).ok
    assert batch.adjudicate(game).exit_status == 0 and audit.replay(game).ok  # a run after it, and replay again


def test_ruling_195_a_rollback_leaves_a_seal_receipt_to_be_mailed(tmp_path: Path) -> None:
    """A rollback undoes steps, not mail received: the receipt still waits for the house's next mail."""
    (tmp_path / registry.LOG_FILE).write_text("\n".join(json.dumps(e) for e in [
        {"action": "unmatched-seal", "sha256": "ab" * 32, "file": "attachment 'turn.txt.sig' of <x@y>", "house": "stark",
         "why": "no-file", "at": 3, "receipts": {"stark": "refused/0003-turn.txt-abababab-stark.txt"}},
        {"action": "rollback", "to": 1, "reason": "a mistake", "folder": "rolled-back-1", "set_aside_files": []},
    ]) + "\n")  # fmt: skip
    notices = Ledger.read(tmp_path).notices
    assert [n["receipts"] for n in notices.values()] == [{"stark": "refused/0003-turn.txt-abababab-stark.txt"}]


def test_ruling_140_a_turn_sealed_by_one_house_mailed_from_anothers_address_acts_for_the_sealer_only(
        game: Path, tmp_path: Path) -> None:  # fmt: skip
    stark = shapes.turn("stark", 1, "# Stark's turn, mailed by Lannister's player")
    claims = shapes.turn("lannister", 1, "# Stark's key, Lannister's name", key="stark")
    out = ingest(game, tmp_path, [shapes.plain("lannister", stark, 1), shapes.plain("lannister", claims, 2)])
    assert "sent from lannister@players.example, not House Stark's registered address" in out
    result = batch.adjudicate(game)
    assert [a.split("-")[1] for a in result.accepted] == ["stark"]  # Stark's turn, for Stark; Lannister's is untouched
    (rej,) = result.rejected
    assert any("wrong-house" in r for r in rej.reasons) and list(rej.receipts) == ["stark"]


needs_mutt_and_ssh_keygen = pytest.mark.skipif(clients.MUTT is None or clients.SSH_KEYGEN is None,
                                               reason="mutt or ssh-keygen is not installed (apt-get install mutt openssh-client)")  # fmt: skip


@needs_mutt_and_ssh_keygen
def test_ruling_195_mutt_attaching_only_the_sig_ssh_keygen_wrote_gets_the_house_a_receipt(game: Path,
                                                                                         tmp_path: Path) -> None:  # fmt: skip
    """Real programs: ``ssh-keygen -Y sign`` writes turn.norm.sig, and the player attaches it alone with mutt."""
    _, sig_path = clients.ssh_keygen_sign(tmp_path, "stark", f"{HEADER}\n# sealed with plain ssh-keygen\n")
    raw = clients.mutt(tmp_path, "My turn is attached.\n", attach=[sig_path])
    out = ingest(game, tmp_path, [raw])
    (receipt,) = receipts(game)
    assert receipt.name.endswith("-stark.txt") and f"receipt refused/{receipt.name}: for House Stark" in out
    assert "the mail had no attachment named 'turn.norm', the file this seal is for" in flat(receipt.read_text())


@needs_mutt_and_ssh_keygen
def test_ruling_195_mutt_attaching_a_file_edited_after_ssh_keygen_sealed_it_is_told(game: Path, tmp_path: Path) -> None:
    path, sig_path = clients.ssh_keygen_sign(tmp_path, "stark", f"{HEADER}\nWinterfell: defense +1\n")
    path.write_text(f"{HEADER}\nWinterfell: march -1\n")  # changed after it was sealed
    out = ingest(game, tmp_path, [clients.mutt(tmp_path, "Orders attached.\n", attach=[path, sig_path])])
    assert "seal fails [bad-signature]" in out
    (receipt,) = receipts(game)
    assert "the attachment 'turn.norm' was in the mail, but its text does not verify" in flat(receipt.read_text())
