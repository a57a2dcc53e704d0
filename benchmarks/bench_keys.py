"""How long a player waits for a passphrase-protected key: ``maester keygen`` then ``maester sign``.

    python benchmarks/bench_keys.py [--rounds N] [--repeat R]

Both commands run as a player runs them, each in a new process (``python -m adjudicator``), with a
passphrase file and OpenSSH's default of 16 bcrypt rounds; the key derivation is done by the
``bcrypt`` package through ``cryptography``. Printed: the best of R runs of each command, their
sum, and the same two steps in this process (the library calls alone, without Python's start).

Goal: keygen + sign with a passphrase under 1 s. Tests never time anything.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.seals import keys, seal

TURN = "game bench · house stark · round 1 · planning · seq 1\nWinterfell: defense +1\nbid throne 3\n"


def run(*args: str | Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "adjudicator", *map(str, args)], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=keys.DEFAULT_ROUNDS)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    best_keygen = best_sign = best_lib = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "pass").write_text("the north remembers\n")
        (folder / "turn.txt").write_text(TURN)
        for i in range(args.repeat):
            key = folder / f"key{i}"
            best_keygen = min(best_keygen, run("keygen", "--out", key, "--passphrase-file", folder / "pass",
                                               "--rounds", str(args.rounds)))  # fmt: skip
            best_sign = min(best_sign, run("sign", "--key", key, "--passphrase-file", folder / "pass",
                                           "--out", folder / "turn.sealed", folder / "turn.txt"))  # fmt: skip
            start = time.perf_counter()
            text = keys.private_key_text(keys.generate(), b"the north remembers", rounds=args.rounds)
            seal.sign(TURN, keys.parse_private_key(text, b"the north remembers").private)
            best_lib = min(best_lib, time.perf_counter() - start)
    total = best_keygen + best_sign
    print(f"passphrase-protected Ed25519 key, {args.rounds} bcrypt rounds (best of {args.repeat})")
    print(f"  maester keygen          {best_keygen * 1000:7.0f} ms")
    print(f"  maester sign            {best_sign * 1000:7.0f} ms")
    print(f"  keygen + sign           {total * 1000:7.0f} ms   goal < 1000 ms: {'met' if total < 1 else 'NOT met'}")
    print(f"  in-process, no start-up {best_lib * 1000:7.0f} ms   (write the key, read it back, seal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
