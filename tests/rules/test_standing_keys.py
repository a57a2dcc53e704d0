"""A standing instruction never outlives its key (ruling 358): the house's first file sealed with a new
key ends the standing lines the old key sealed, with a word to the house; a game folder, end to end."""

from __future__ import annotations

from pathlib import Path

from clikit import reports_of
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.engine.rules.standing import standing_of_other_keys
from adjudicator.folder import batch, registry
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 7] * 32)) for i, h in enumerate(HOUSES)}
NEW = Ed25519PrivateKey.from_private_bytes(bytes([99] * 32))


def _file(root: Path, name: str, body: str, key: Ed25519PrivateKey, seq: int, add: bool = False) -> None:
    header = f"game keys · house stark · round 1 · planning · seq {seq}" + (" · add" if add else "")
    (root / "inbox" / name).write_text(seal.sign(f"{header}\n{body}", key), encoding="utf-8")


def _standing(root: Path) -> list[dict]:
    return [a for a in GameDir.open(root).load_state().answers if a.get("standing")]


def test_ruling_358_a_new_key_ends_the_standing_lines_the_old_one_sealed(tmp_path: Path) -> None:
    root = tmp_path / "keys"
    create_game(root, houses=HOUSES, game_id="keys", seed="keys-seed")
    for h, k in KEYS.items():
        registry.register_key(root, h, PublicKey.from_key(k, h))
    batch.adjudicate(root)
    _file(root, "stark-1.txt", "standing: a throne of blades: muster\n", KEYS["stark"], 1)
    batch.adjudicate(root)
    kept = _standing(root)
    assert [a["text"] for a in kept] == ["standing: A Throne of Blades: muster"]
    old = PublicKey.from_key(KEYS["stark"], "stark").fingerprint
    assert kept[0]["key"] == old
    registry.register_key(root, "stark", PublicKey.from_key(NEW, "stark"), replaces=old, reason="a new player")
    _file(root, "stark-2.txt", "standing: bid wildlings 0\n", NEW, 2, add=True)
    batch.adjudicate(root)
    assert [a["text"] for a in _standing(root)] == ["standing: bid wildlings 0"]
    reports = sorted(reports_of(root).iterdir())
    private = " ".join((reports[-1] / "stark.txt").read_text("utf-8").split())  # unwrapped
    assert "no longer stands" in private and "ruling 358" in private
    assert "no longer stands" not in (reports[-1] / "public.txt").read_text("utf-8")


def test_ruling_358_lines_of_the_same_key_and_unsealed_ones_stay() -> None:
    pool = [{"id": "a", "house": "stark", "standing": True, "key": "K1", "text": "x"},
            {"id": "b", "house": "stark", "standing": True, "text": "y"},  # accepted unsealed by the moderator
            {"id": "c", "house": "lannister", "standing": True, "key": "K9", "text": "z"},
            {"id": "d", "house": "stark", "key": "K9", "text": "one round"}]
    assert standing_of_other_keys(pool, "stark", "K1") == (pool, [])
    kept, told = standing_of_other_keys(pool, "stark", "K2")
    assert [a["id"] for a in kept] == ["b", "c", "d"] and told[0].ids == ("a",) and told[0].visible_to == "stark"
