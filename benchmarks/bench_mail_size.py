"""How big a game's mails are, and how fast its folder grows, outbox included (issue 27).

    python benchmarks/bench_mail_size.py [--seed N ...] [--rounds N]

Plays whole 6-player robot games through the real text path; after every run, as a cron job would,
``maester outbox --key`` writes the mails due (sealed by a moderator's key) and ``--mark-sent``
records them as sent. Prints, per game: how many mails and how big (median, 90th percentile,
largest, and the parts of the largest), and the game folder's growth per step, by folder
(``reports/``, ``outbox/``, ``states/``...), the outbox included.
Goal: every mail at most 100 KB (100,000 bytes) in all.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import tempfile
import tomllib
from collections import Counter
from email import policy
from email.parser import BytesParser
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

import tomli_w
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.cli import main as maester
from adjudicator.folder import registry
from adjudicator.folder.ledger import Ledger
from adjudicator.game.state import GameState
from adjudicator.robots.simulate import simulate
from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair

GOAL = 100_000
MODERATOR = "moderator@bench.example"


def folder_bytes(root: Path) -> Counter[str]:
    """Bytes of the game folder by its first-level entry (``outbox/``; a file at the top as itself)."""
    out: Counter[str] = Counter()
    for p in root.rglob("*"):
        if p.is_file():
            top = p.relative_to(root).parts[0]
            out[top + "/" if (root / top).is_dir() else top] += p.stat().st_size
    return out


def parts_of(data: bytes) -> str:
    msg = BytesParser(policy=policy.default).parsebytes(data)
    sizes: Counter[str] = Counter()
    for part in msg.walk():
        if not part.is_multipart():
            sizes[part.get_content_type()] += len(part.as_bytes())
    return ", ".join(f"{kind} {n:,}" for kind, n in sizes.most_common())


def steps_in(data: bytes) -> int:
    """How many steps a mail carries (its ``X-Maester-Steps`` header)."""
    head = BytesParser(policy=policy.default).parsebytes(data, headersonly=True)
    return len(str(head.get("X-Maester-Steps", "none")).replace("none", "").split())


def map_scales(root: Path) -> Counter[str]:
    """How many mails held the map at each scale (ruling 317), and how many none, from the log."""
    out: Counter[str] = Counter()
    for e in registry.read_log(root):
        for m in e.get("mails", []) if e.get("action") == "outbox" else []:
            out[f"{m['map_scale']:.0%}" if "map_scale" in m else "no map"] += 1
    return out


def play(seed: int, rounds: int | None, tmp: Path) -> tuple[list[tuple[int, str, int]], int, Counter[str], bytes]:
    """One game mailed after every run: (size, name, steps) of every mail, the steps, the folder by entry,
    the largest mail."""
    root = tmp / f"g{seed}"
    key = Ed25519PrivateKey.from_private_bytes(bytes([77] * 32))
    pair = KeyPair(key, PublicKey.from_key(key))
    write_key_pair(tmp / "moderator", pair)
    seen = {"first": True}
    mails: list[tuple[int, str, int]] = []
    largest: dict[str, bytes] = {}

    def mail_after_the_run(state: GameState) -> None:
        if seen.pop("first", False):  # the players' and the moderator's addresses, once
            registry.register_key(root, "moderator", pair.public, email=MODERATOR)
            game = tomllib.loads((root / "game.toml").read_text(encoding="utf-8"))
            for house in game["game"]["houses"]:
                game.setdefault("players", {}).setdefault(house, {})["email"] = f"{house}@players.example"
            (root / "game.toml").write_text(tomli_w.dumps(game), encoding="utf-8")
        with contextlib.redirect_stdout(io.StringIO()):
            assert maester(["outbox", str(root), "--key", str(tmp / "moderator"), "--from", MODERATOR]) in (0, 1)
            for rec in Ledger.read(root).mail.queue():  # measured while whole: once sent, a recipe (ruling 318)
                data = (root / rec["path"]).read_bytes()
                mails.append((len(data), rec["path"], steps_in(data)))
                if len(data) > len(largest.get("data", b"")):
                    largest["data"] = data
            assert maester(["outbox", str(root), "--mark-sent"]) == 0

    result = simulate(6, seed, rounds=rounds, out=root, on_step=mail_after_the_run)
    return mails, result.steps, folder_bytes(root), largest["data"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, nargs="+", default=[2, 5])
    ap.add_argument("--rounds", type=int, default=None, help="stop after this round (default: the whole game)")
    ap.add_argument("--keep", type=Path, default=None, help="write each game's largest mail into this folder")
    args = ap.parse_args()
    print("## bench_mail_size\n")
    worst = 0
    for seed in args.seed:
        with tempfile.TemporaryDirectory() as tmp:
            mails, steps, folder, data = play(seed, args.rounds, Path(tmp))
            sizes = sorted(m[0] for m in mails)
            biggest = max(mails)
            worst = max(worst, biggest[0])
            largest_parts = parts_of(data)
            if args.keep is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"seed{seed}-largest.eml").write_bytes(data)
            scales = map_scales(Path(tmp) / f"g{seed}")
        print(f"6-player robot game, seed {seed}: {steps} steps, {len(mails)} mails "
              f"({len(mails) / steps:.2f} a step)")
        print(f"  mail size: median {statistics.median(sizes):,.0f} bytes, 90th percentile "
              f"{sizes[int(len(sizes) * 0.9)]:,}, largest {biggest[0]:,} ({biggest[1]}); goal <= {GOAL:,}: "
              f"{'met' if biggest[0] <= GOAL else 'NOT met'}")
        print(f"  the largest: {largest_parts}")
        print("  the five largest: " + "; ".join(f"{n:,} ({Path(name).parent.name} {Path(name).stem}, {k} steps)"
                                                 for n, name, k in sorted(mails, reverse=True)[:5]))
        houses = [m for m in mails if Path(m[1]).stem != "moderator"]
        print(f"  the largest to a house: {max(houses)[0]:,}; over 88,000 bytes: "
              f"{sum(n > 88_000 for n in sizes)} mails, over 90,000: {sum(n > 90_000 for n in sizes)}")
        print(f"  the map in the mails: {', '.join(f'{k} {n}' for k, n in sorted(scales.items(), reverse=True))}")
        total = sum(folder.values())
        print(f"  game folder: {total:,} bytes, {total / steps:,.0f} a step")
        for name, n in folder.most_common(6):
            print(f"    {name:<16} {n / steps:>9,.0f} bytes a step")
        print()
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
