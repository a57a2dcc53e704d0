"""What ``make demo`` runs: create a game in a temporary folder and show it.

>>> import tempfile, shutil, pathlib
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> gd = create_demo(tmp / "demo")
>>> gd.info().houses
['stark', 'lannister', 'greyjoy', 'baratheon']
>>> shutil.rmtree(tmp)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Sequence

from . import show
from .gamedir import GameDir, create_game

DEMO_HOUSES = ["stark", "lannister", "greyjoy", "baratheon"]
DEMO_SEED = "maester-demo"


def create_demo(root: Path) -> GameDir:
    """A four-player game with a fixed seed in ``root``."""
    return create_game(root, houses=DEMO_HOUSES, seed=DEMO_SEED)


def main(argv: Sequence[str] | None = None) -> int:
    """Create the demo game in a new temporary folder, print its summary and where it is."""
    gd = create_demo(Path(tempfile.mkdtemp(prefix="maester-demo-")) / "demo")
    print(show.summary(gd.load_state()), end="")
    print(f"\nThe demo game is in {gd.root}")
    print(f"Try: maester show {gd.root} --json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
