"""Rebuild the A Feast for Crows sample game: seal the plain turn files, replay them, approve the reports.

    python samples/affc-game/make_sample.py              # seal turns/ into sealed/ with the demo keys
    python samples/affc-game/make_sample.py --play DIR   # also replay the sample into DIR, to look at it
    python samples/affc-game/make_sample.py --approve    # also replace expected/ with the replayed reports

The base sample's ``samples/game/make_sample.py`` does the work, given this folder. Read the
differences (``git diff samples/affc-game``) before committing them: ``expected/`` is what
``tests/test_sample_affc_game.py`` compares with. The keys in ``keys/`` are for this sample only.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("base_make_sample", HERE.parent / "game" / "make_sample.py")
assert _spec is not None and _spec.loader is not None
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

if __name__ == "__main__":
    sys.exit(base.main(HERE, __doc__))
