"""``maester check`` on a turn file of 1 MB (the most a turn file may hold), in process and as a command.

    python benchmarks/bench_check.py

A file of one short line repeated up to just under 1,000,000 bytes (about 47,000 lines): orders
that hide nothing, answers that each hide the one before, and condition lines that never hide each
other. ``maester check`` compared every line with every later one (issue 13: 20,000 lines took
minutes); now each line is looked up under a few keys (``turnfile/shadowing.py``). Printed:
seconds in process (``check_file``) and for the whole command (a new process: imports and grammar
included).
Goal: under 3 s.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

from adjudicator.folder import registry
from adjudicator.folder.check import check_file
from adjudicator.folder.gamedir import create_game
from adjudicator.seals.keys import PublicKey
from adjudicator.turnfile.parser import _parser

HEADER = "game bench · house stark · round 1 · planning · seq 1\n"
LINES = {
    "orders (none hides another)": "Winterfell: march +1",
    "one-shot answers (each hides the one before)": "raven: look",
    "combat answers in turn for two areas": "if attacked in White Harbor: play ser rodrick cassel\n"
                                            "if attacked in Winterfell: play eddard stark",
}


def main() -> None:
    _parser()  # the grammar is built once a process: not part of a check
    print("| file | lines | bytes | check_file | `maester check` (new process) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "g"
        create_game(root, houses=["stark", "lannister", "baratheon"], game_id="bench", seed="bench")
        registry.register_key(root, "stark", PublicKey.from_key(Ed25519PrivateKey.from_private_bytes(bytes(32))))
        for name, line in LINES.items():
            body = (line + "\n") * (999_000 // (len(line.encode()) + 1))
            text = HEADER + body
            text = text[: text.rfind("\n", 0, 999_000) + 1]
            path = Path(tmp) / "turn.txt"
            path.write_text(text, encoding="utf-8")
            t0 = time.perf_counter()
            check_file(root, path)
            inproc = time.perf_counter() - t0
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "adjudicator", "check", str(root), str(path)],
                           capture_output=True, timeout=600, check=False)  # fmt: skip
            command = time.perf_counter() - t0
            n = text.count("\n")
            print(f"| {name} | {n:,} | {len(text.encode()):,} | {inproc:.2f} s | {command:.2f} s |")


if __name__ == "__main__":
    main()
