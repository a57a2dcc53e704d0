"""The key registry in game.toml, the acceptance log and the check of sealed files against a game."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.folder import registry
from adjudicator.folder.registry import Checker, RegistryError
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile.header import Header, find_header

STARK = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
LANNISTER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
STRANGER = Ed25519PrivateKey.from_private_bytes(bytes(range(2, 34)))
MODERATOR = Ed25519PrivateKey.from_private_bytes(bytes(range(3, 35)))
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

GAME_TOML = """\
# the moderator's notes
[game]
id = "winter"
houses = ["stark", "lannister", "greyjoy"]
deadline = "friday"

[players.stark]
name = "Ned"

[rules]
tides = true
"""


def pub(key: Ed25519PrivateKey, comment: str = "") -> PublicKey:
    return PublicKey.from_key(key, comment)


def turn(house: str = "stark", rnd: int = 1, step: str = "planning", seq: int = 1, game: str = "winter") -> str:
    return f"game {game} · house {house} · round {rnd} · {step} · seq {seq}\nbid throne 3\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "game.toml").write_text(GAME_TOML)
    registry.register_key(tmp_path, "stark", pub(STARK, "ned"), now=T0)
    registry.register_key(tmp_path, "lannister", pub(LANNISTER), now=T0)
    registry.register_key(tmp_path, "moderator", pub(MODERATOR), now=T0)
    return tmp_path


def header(**kw: object) -> Header:
    h = find_header(turn(**kw))  # type: ignore[arg-type]
    assert h is not None
    return h


def check(game_dir: Path, text: str) -> registry.Report:
    return Checker.load(game_dir).check(text)


def only_error(game_dir: Path, text: str) -> seal.SealError:
    report = check(game_dir, text)
    (verdict,) = report.verdicts
    assert verdict.error is not None
    return verdict.error


# --- game.toml --------------------------------------------------------------------------------


def test_register_keeps_every_table_it_does_not_own(game: Path) -> None:
    data = tomllib.loads((game / "game.toml").read_text())
    assert data["game"] == {"id": "winter", "houses": ["stark", "lannister", "greyjoy"], "deadline": "friday"}
    assert data["rules"] == {"tides": True}
    assert data["players"]["stark"] == {"name": "Ned"}
    (entry,) = data["keys"]["stark"]
    assert entry == {
        "fingerprint": pub(STARK).fingerprint,
        "public_key": pub(STARK, "ned").line(),
        "added": "2026-11-01T12:00:00+00:00",
        "revoked": False,
        "revoked_reason": "",
        "revoked_on": "",
    }


def test_register_email_goes_to_players_table(game: Path) -> None:
    registry.register_key(game, "greyjoy", pub(STRANGER), email="balon@pyke.example")
    data = tomllib.loads((game / "game.toml").read_text())
    assert data["players"]["greyjoy"] == {"email": "balon@pyke.example"}
    assert data["players"]["stark"] == {"name": "Ned"}


def test_register_refuses_unknown_house_and_known_key(game: Path) -> None:
    with pytest.raises(RegistryError, match="'martell' is not a house of this game"):
        registry.register_key(game, "martell", pub(STRANGER))
    with pytest.raises(RegistryError, match="registered already"):
        registry.register_key(game, "greyjoy", pub(STARK))


def test_register_needs_a_game_folder(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="has no game.toml"):
        registry.register_key(tmp_path, "stark", pub(STARK))


def test_revoke_records_reason_date_and_log_line(game: Path) -> None:
    fp = pub(STARK).fingerprint
    entry = registry.revoke_key(game, fp, "laptop stolen", now=datetime(2026, 11, 5, tzinfo=UTC))
    assert (entry.revoked, entry.revoked_reason, entry.revoked_on[:10]) == (True, "laptop stolen", "2026-11-05")
    assert registry.fingerprints_in_force(game) == {"lannister": [pub(LANNISTER).fingerprint],
                                                    "moderator": [pub(MODERATOR).fingerprint]}  # fmt: skip
    last = registry.read_log(game)[-1]
    assert (last["action"], last["fingerprint"], last["reason"]) == ("revoke-key", fp, "laptop stolen")
    with pytest.raises(RegistryError, match="revoked already"):
        registry.revoke_key(game, fp, "again")
    with pytest.raises(RegistryError, match="revoked and cannot return"):
        registry.register_key(game, "stark", pub(STARK))


def test_revoke_needs_a_reason_and_a_known_key(game: Path) -> None:
    with pytest.raises(RegistryError, match="give the reason"):
        registry.revoke_key(game, pub(STARK).fingerprint, "  ")
    with pytest.raises(RegistryError, match="no key SHA256:nope is registered"):
        registry.revoke_key(game, "SHA256:nope", "because")


def test_replacement_key_revokes_the_old_one_with_the_reason(game: Path) -> None:
    old = pub(STARK).fingerprint
    registry.register_key(game, "stark", pub(STRANGER), replaces=old, reason="lost the old key")
    assert registry.fingerprints_in_force(game)["stark"] == [pub(STRANGER).fingerprint]
    log = registry.read_log(game)[-1]
    assert (log["action"], log["replaces"], log["reason"]) == ("register-key", old, "lost the old key")
    assert only_error(game, seal.sign(turn(), STARK)).code == "revoked-key"
    assert check(game, seal.sign(turn(), STRANGER)).ok


def test_replacement_must_be_of_the_same_house(game: Path) -> None:
    with pytest.raises(RegistryError, match="belongs to House Lannister"):
        registry.register_key(game, "stark", pub(STRANGER), replaces=pub(LANNISTER).fingerprint, reason="x")


# --- state and log --------------------------------------------------------------------------------


def test_current_step_defaults_to_round_one_planning(game: Path) -> None:
    assert registry.current_step(game) == (1, "planning")
    (game / "state.toml").write_text('version = 1\nround = 4\nphase = "action"\n[houses]\n')
    assert registry.current_step(game) == (4, "action")


def test_record_acceptance_and_highest_seq(game: Path) -> None:
    assert registry.highest_accepted_seq(game, "stark", 1, "planning") == 0
    registry.record_acceptance(game, header(seq=3), "ab" * 32, "archive/r1/stark-3.txt")
    registry.record_acceptance(game, header(seq=2), "cd" * 32, "archive/r1/stark-2.txt")
    registry.record_acceptance(game, header(house="lannister", seq=7), "ef" * 32, "a")
    assert registry.highest_accepted_seq(game, "stark", 1, "planning") == 3
    assert registry.highest_accepted_seq(game, "stark", 1, "action") == 0
    line = json.loads((game / "log").read_text().splitlines()[-3])
    assert {k: line[k] for k in ("action", "house", "round", "step", "seq", "file")} == {
        "action": "accept", "house": "stark", "round": 1, "step": "planning", "seq": 3,
        "file": "archive/r1/stark-3.txt"}  # fmt: skip


def test_a_cut_log_line_is_skipped(game: Path) -> None:
    registry.record_acceptance(game, header(seq=2), "ab" * 32, "a")
    with open(game / "log", "a") as f:
        f.write('{"action": "accept", "house": "stark", "rou')
    assert registry.highest_accepted_seq(game, "stark", 1, "planning") == 2


# --- verdicts, one test per reason -------------------------------------------------------------


def test_valid_block_names_the_sealing_house(game: Path) -> None:
    report = check(game, seal.sign(turn(), STARK))
    (v,) = report.verdicts
    assert report.ok and v.signer == "stark" and v.fingerprint == pub(STARK).fingerprint
    assert v.describe().startswith("lines 1-8: valid: sealed by House Stark (SHA256:")


def test_unregistered_key(game: Path) -> None:
    e = only_error(game, seal.sign(turn(), STRANGER))
    assert e.code == "unknown-key"
    assert str(e) == f"key {pub(STRANGER).fingerprint} is not registered for any house"


def test_revoked_key(game: Path) -> None:
    registry.revoke_key(game, pub(STARK).fingerprint, "lost", now=datetime(2026, 11, 3, tzinfo=UTC))
    e = only_error(game, seal.sign(turn(), STARK))
    assert e.code == "revoked-key"
    assert str(e) == f"key {pub(STARK).fingerprint} was revoked on 2026-11-03 (lost)"


def test_other_house_key(game: Path) -> None:
    e = only_error(game, seal.sign(turn("stark"), LANNISTER))
    assert (e.code, str(e)) == ("wrong-house", "signed by Lannister's key but claims House Stark")
    e = only_error(game, seal.sign(turn("stark"), MODERATOR))
    assert str(e) == "signed by the moderator's key but claims House Stark"


def test_wrong_game(game: Path) -> None:
    e = only_error(game, seal.sign(turn(game="summer"), STARK))
    assert (e.code, str(e)) == ("wrong-game", "sealed for game 'summer'; this is game 'winter'")


def test_wrong_step(game: Path) -> None:
    (game / "state.toml").write_text('round = 4\nphase = "planning"\n')
    e = only_error(game, seal.sign(turn(rnd=3), STARK))
    assert (e.code, str(e)) == ("wrong-step", "sealed for round 3 planning; the game is at round 4 planning")
    e = only_error(game, seal.sign(turn(rnd=4, step="action"), STARK))
    assert str(e) == "sealed for round 4 action; the game is at round 4 planning"
    (verdict,) = check(game, seal.sign(turn(rnd=3), STARK)).verdicts
    assert verdict.describe() == ("lines 1-8: invalid [wrong-step]: sealed for round 3 planning; the game is at "
                                  f"round 4 planning (sealed by House Stark, {pub(STARK).fingerprint})")  # fmt: skip


@pytest.mark.parametrize("seq", [2, 3])
def test_replay_with_equal_or_lower_seq(game: Path, seq: int) -> None:
    registry.record_acceptance(game, header(seq=3), "ab" * 32, "archive/x")
    e = only_error(game, seal.sign(turn(seq=seq), STARK))
    assert (e.code, str(e)) == ("replayed", f"sequence {seq} is not higher than 3, already accepted (replay)")
    assert check(game, seal.sign(turn(seq=4), STARK)).ok


def test_tampered_text_is_a_bad_signature_before_any_registry_check(game: Path) -> None:
    sealed = seal.sign(turn(), STARK).replace("bid throne 3", "bid throne 4")
    assert only_error(game, sealed).code == "bad-signature"


def test_no_block_at_all_is_an_error_of_the_file(game: Path) -> None:
    report = check(game, "just a letter\n")
    assert not report.ok and report.error is not None and report.error.code == "no-seal"
    assert report.lines()[-1].startswith("invalid [no-seal]")


def test_a_good_and_a_bad_block_in_one_mail(game: Path) -> None:
    mail = "Orders:\n" + seal.sign(turn(seq=1), STARK) + "\n" + seal.sign(turn("lannister"), STARK) + "bye\n"
    report = check(game, mail)
    assert [v.ok for v in report.verdicts] == [True, False]
    assert report.verdicts[1].error is not None and report.verdicts[1].error.code == "wrong-house"
    assert [g.reason for g in report.ignored] == ["text before the first sealed block", "text after the last sealed block"]
    assert not report.ok


def test_check_file_reports_bad_utf8(game: Path) -> None:
    report = registry.check_file(game, b"game \xff\n")
    assert report.error is not None and report.error.code == "bad-encoding"


# --- the moderator accepts an unsealed file -----------------------------------------------------


def test_moderator_accepts_unsealed_file_and_logs_reason(game: Path) -> None:
    header = registry.moderator_accept(game, turn(seq=2), house="stark", reason="lost his key", file="in/stark.txt")
    assert header.seq == 2
    entry = registry.read_log(game)[-1]
    assert {k: entry[k] for k in ("action", "house", "round", "step", "seq", "reason", "file")} == {
        "action": "moderator-accept", "house": "stark", "round": 1, "step": "planning", "seq": 2,
        "reason": "lost his key", "file": "in/stark.txt"}  # fmt: skip
    assert registry.moderator_acceptance(game, entry["sha256"]) == entry


def test_moderator_accept_still_checks_the_header(game: Path) -> None:
    with pytest.raises(seal.WrongHouse, match="claims House Lannister, not House Stark"):
        registry.moderator_accept(game, turn("lannister"), house="stark", reason="r")
    with pytest.raises(seal.WrongGame):
        registry.moderator_accept(game, turn(game="other"), house="stark", reason="r")
    registry.record_acceptance(game, header(seq=5), "ab" * 32, "a")
    with pytest.raises(seal.Replayed):
        registry.moderator_accept(game, turn(seq=5), house="stark", reason="r")
    with pytest.raises(RegistryError, match="give the reason"):
        registry.moderator_accept(game, turn(seq=6), house="stark", reason="")
    with pytest.raises(RegistryError, match="carries a seal"):
        registry.moderator_accept(game, seal.sign(turn(seq=6), STARK), house="stark", reason="r")
    assert [e["action"] for e in registry.read_log(game)].count("moderator-accept") == 0


def test_a_hand_edited_fingerprint_cannot_point_a_house_at_another_key(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(GAME_TOML + f"""
[[keys.stark]]
fingerprint = "{pub(LANNISTER).fingerprint}"
public_key = "{pub(STARK).line()}"
added = "2026-11-01T12:00:00+00:00"
revoked = false
revoked_reason = ""
""")
    assert registry.fingerprints_in_force(tmp_path) == {"stark": [pub(STARK).fingerprint]}
    assert check(tmp_path, seal.sign(turn(), STARK)).ok
    assert only_error(tmp_path, seal.sign(turn(), LANNISTER)).code == "unknown-key"
