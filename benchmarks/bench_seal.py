"""Verify 10,000 sealed turn files and compare with bare Ed25519 verification of the same bytes.

    python benchmarks/bench_seal.py [--files N]

Three timings over the same files, each the best of three runs:

* bare      ``Ed25519PublicKey.verify`` on the exact bytes each seal signs (keys, signatures and
            signed data prepared beforehand): the floor set by the cryptography itself;
* seal      what :mod:`adjudicator.seals.seal` does per file: find the block, normalise, parse the
            armour and the SSHSIG structure, hash, verify, read the header;
* checked   the same plus the game checks (registered key, house, game, step, sequence) through
            :class:`adjudicator.folder.registry.Checker`, reading each file from disk.

The goal is seal / bare <= 1.5: parsed public keys are cached, so the overhead is text handling.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.folder import registry
from adjudicator.seals import seal
from adjudicator.seals.keys import PublicKey

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
ORDERS = [
    "march Winterfell -> Karhold, White Harbor",
    "support The Twins",
    "raid Bay of Ice",
    "defend Moat Cailin",
    "consolidate power Castle Black",
    "bid throne 3",
    "# the north remembers",
]


def make_files(folder: Path, n: int) -> tuple[list[Path], dict[str, Ed25519PrivateKey]]:
    keys = {h: Ed25519PrivateKey.generate() for h in HOUSES}
    paths = []
    for i in range(n):
        house = HOUSES[i % len(HOUSES)]
        lines = [f"game bench · house {house} · round 1 · planning · seq {i + 1}"]
        lines += [ORDERS[(i + k) % len(ORDERS)] + f"  # {i}" for k in range(12)]
        path = folder / f"{i:05d}.sealed"
        path.write_text(seal.sign("\n".join(lines) + "\n", keys[house]), encoding="utf-8")
        paths.append(path)
    return paths, keys


def best_of(runs: int, fn) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=10_000)
    n = ap.parse_args(argv).files
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"sealing {n} files ...", file=sys.stderr)
        paths, keys = make_files(folder, n)
        texts = [p.read_text(encoding="utf-8") for p in paths]

        prepared = []
        for text in texts:
            block = seal.split_sealed(text)[0]
            sig = seal.read_armour(block.armour)
            message = seal.normalise(block.text).encode("utf-8")
            from cryptography.hazmat.primitives.asymmetric.ed25519 import (
                Ed25519PublicKey,
            )

            prepared.append((Ed25519PublicKey.from_public_bytes(sig.key.raw), sig.signature, sig.signed_data(message)))

        def bare() -> None:
            for key, signature, data in prepared:
                key.verify(signature, data)

        def sealed() -> None:
            for text in texts:
                for block in seal.split_sealed(text):
                    block.open()

        game = folder / "game"
        game.mkdir()
        (game / "game.toml").write_text(f'[game]\nid = "bench"\nhouses = {list(HOUSES)!r}\n'.replace("'", '"'))
        for house, key in keys.items():
            registry.register_key(game, house, PublicKey.from_key(key))
        checker = registry.Checker.load(game)

        def checked() -> None:
            for path in paths:
                report = checker.check(seal.decode(path.read_bytes()))
                if not report.ok:
                    raise SystemExit(f"{path}: {report.lines()}")

        t_bare, t_seal, t_checked = best_of(3, bare), best_of(3, sealed), best_of(3, checked)
    print(f"{n} sealed files, {sum(map(len, texts)) // n} bytes each on average")
    print(f"  bare Ed25519 verify   {n / t_bare:10.0f} files/s")
    print(f"  seal (split + verify) {n / t_seal:10.0f} files/s   ratio to bare {t_seal / t_bare:.2f}x (goal <= 1.5x)")
    print(f"  checked, from disk    {n / t_checked:10.0f} files/s   ratio to bare {t_checked / t_bare:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
