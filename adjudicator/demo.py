"""What ``make demo`` runs: create a game in a temporary folder and show it.

>>> main(["--quiet"])
0
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Sequence

from . import show
from .gamedir import create_game

DEMO_HOUSES = ["stark", "lannister", "greyjoy", "baratheon"]


def main(argv: Sequence[str] | None = None) -> int:
    """Create a four-player demo game with a fixed seed, print its summary and where it is."""
    quiet = "--quiet" in (argv if argv is not None else sys.argv[1:])
    root = Path(tempfile.mkdtemp(prefix="maester-demo-")) / "demo"
    gd = create_game(root, houses=DEMO_HOUSES, seed="maester-demo")
    if not quiet:
        print(show.summary(gd.load_state()), end="")
        print(f"\nThe demo game is in {gd.root}")
        print(f"Try: maester show {gd.root} --json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
