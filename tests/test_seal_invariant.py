"""Issue 13's invariant, for any file or mail of sealed blocks: what is archived means what the log says.

Hypothesis builds files of sealed blocks, forged blocks (one house's key, another house's header),
unsealed texts and garbage, each maybe quoted, with any characters between and around them: every
character ``str.splitlines`` breaks at, CR, CRLF, quoting, header and armour fragments. For each
block intake accepts, the archived bytes hold exactly one sealed block that verifies on its own,
sealed by a key of the house its ``accept`` log line names, with the header that line names; and
nothing is accepted that its house did not seal. When the text between blocks is on lines of its
own, every block its house sealed is accepted.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.folder import registry
from adjudicator.folder.audit import Folder
from adjudicator.folder.gamedir import GameDir, create_game
from adjudicator.folder.intake import Intake
from adjudicator.folder.ledger import Ledger, sha256
from adjudicator.mail.ingest import scan_message
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

GAME = "inv"
HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 51] * 32)) for i, h in enumerate(HOUSES)}
FINGERPRINTS = {PublicKey.from_key(k).fingerprint: h for h, k in KEYS.items()}
SPLITLINES_ONLY = list("\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # where str.splitlines, and no reader of ours, ends a line
FRAGMENTS = ["game", f"game {GAME} · house stark · round 1 · planning · seq 9", "> ", ">", "-----",
             seal.BEGIN, seal.END, "U1NIU0lH", "·", " ", "\t", "\r", "\n", "\r\n", "x", "é", "e\u0301"]  # fmt: skip
ANY_GAP = st.lists(st.sampled_from(SPLITLINES_ONLY + FRAGMENTS), max_size=12).map("".join)
CLEAN_GAP = st.lists(st.sampled_from(SPLITLINES_ONLY + ["x", " ", "é", "\t"]), max_size=8).map(
    lambda parts: "\n" + "".join(parts) + "\n")


@dataclass(frozen=True)
class Item:
    kind: str  # "sealed", "forged", "unsealed", "garbage"
    house: str
    signer: str
    quote: int
    body: str


def header(house: str, seq: int) -> str:
    return f"game {GAME} · house {house} · round 1 · planning · seq {seq}\n"


def render(item: Item, seq: int) -> str:
    if item.kind == "garbage":
        text = item.body
    elif item.kind == "unsealed":
        text = header(item.house, seq) + item.body
    else:
        text = seal.sign(header(item.house, seq) + item.body, KEYS[item.house if item.kind == "sealed" else item.signer])
    if item.quote:
        text = "\n".join(("> " * item.quote + line).rstrip(" ") for line in text.split("\n"))
    return text


ITEMS = st.builds(
    Item,
    kind=st.sampled_from(["sealed", "sealed", "forged", "unsealed", "garbage"]),
    house=st.sampled_from(HOUSES),
    signer=st.sampled_from(HOUSES),
    quote=st.sampled_from([0, 0, 1, 2]),
    body=st.lists(st.sampled_from(["bid throne 1", "# a comment", "", "x\f", "y\u2028z", "Winterfell: raid"]),
                  max_size=4).map(lambda lines: "".join(f"{x}\n" for x in lines)),
)


def build(items: list[Item], gaps: list[str], line_end: str) -> tuple[str, set[tuple[str, int]]]:
    """The file's text, and the (house, seq) of the blocks each house sealed itself."""
    text, genuine = gaps[0], set()
    for seq, (item, gap) in enumerate(zip(items, gaps[1:], strict=False), 1):
        text += render(item, seq) + gap
        if item.kind == "sealed" or (item.kind == "forged" and item.signer == item.house):
            genuine.add((item.house, seq))
    return text.replace("\n", line_end) if line_end != "\n" else text, genuine


def new_game(root: Path) -> Path:
    create_game(root, houses=HOUSES, game_id=GAME, seed="invariant")
    for h, k in KEYS.items():
        registry.register_key(root, h, PublicKey.from_key(k))
    return root


def take(root: Path, files: list[bytes]) -> list[dict]:
    """Run intake on the files (as the batch run does) and return the log's accept lines."""
    paths = []
    for i, data in enumerate(files):
        path = root / "inbox" / f"{i:03d}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
    gd = GameDir.open(root)
    Intake(Folder(gd), Ledger.read(root), gd.load_state()).run(paths)
    return [e for e in map(json.loads, (root / "log").read_text(encoding="utf-8").split("\n")[:-1])
            if e.get("action") == "accept"]  # fmt: skip


def assert_invariant(root: Path, accepts: list[dict], genuine: set[tuple[str, int]]) -> None:
    for e in accepts:
        data = (root / e["file"]).read_bytes()
        assert sha256(data) == e["sha256"]
        blocks = seal.split_sealed(data.decode("utf-8"))
        assert len(blocks) == 1, f"{e['file']} holds {len(blocks)} blocks"
        opened = blocks[0].open()  # verifies on its own
        h = opened.header
        assert (h.game, h.house, h.round, h.step, h.seq) == (GAME, e["house"], e["round"], e["step"], e["seq"])
        assert FINGERPRINTS[opened.key.fingerprint] == e["house"], "sealed by the house the log names"
        assert (e["house"], e["seq"]) in genuine, "nothing accepted that its house did not seal"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(ITEMS, min_size=1, max_size=4), data=st.data(),
       line_end=st.sampled_from(["\n", "\r\n", "\r"]), clean=st.booleans())  # fmt: skip
def test_issue13_every_archived_block_verifies_alone_and_names_what_its_accept_line_names(
        items: list[Item], data: st.DataObject, line_end: str, clean: bool) -> None:  # fmt: skip
    gaps = data.draw(st.lists(CLEAN_GAP if clean else ANY_GAP, min_size=len(items) + 1, max_size=len(items) + 1))
    text, genuine = build(items, gaps, line_end)
    with tempfile.TemporaryDirectory() as tmp:
        root = new_game(Path(tmp) / "g")
        accepts = take(root, [text.encode("utf-8")])
        assert_invariant(root, accepts, genuine)
        if clean:  # blocks on lines of their own: every block its house sealed is taken
            assert {(e["house"], e["seq"]) for e in accepts} == genuine


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(ITEMS, min_size=1, max_size=4), gaps=st.lists(ANY_GAP, min_size=5, max_size=5),
       attach=st.booleans())  # fmt: skip
def test_issue13_every_block_a_mail_delivers_verifies_alone_and_names_what_its_accept_line_names(
        items: list[Item], gaps: list[str], attach: bool) -> None:  # fmt: skip
    text, genuine = build(items, gaps[: len(items) + 1], "\n")
    head = b"From: a@example.org\nSubject: turns\nMessage-ID: <m@example.org>\nMIME-Version: 1.0\n"
    if attach:
        raw = head + (b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nhello\n--b\n'
                      b'Content-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename="t.txt"\n'
                      b"Content-Transfer-Encoding: 8bit\n\n" + text.encode() + b"\n--b--\n")  # fmt: skip
    else:
        raw = head + b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + text.encode()
    found = scan_message(raw)
    with tempfile.TemporaryDirectory() as tmp:
        root = new_game(Path(tmp) / "g")
        accepts = take(root, [b.data for b in found.blocks])
        assert_invariant(root, accepts, genuine)
