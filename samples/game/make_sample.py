"""Rebuild the sample game: seal the plain turn files, replay them, approve the reports.

    python samples/game/make_sample.py              # seal turns/ into sealed/ with the demo keys
    python samples/game/make_sample.py --play DIR   # also replay the sample into DIR, to look at it
    python samples/game/make_sample.py --approve    # also replace expected/ with the replayed reports

Run it after a change to the turn-file language or to the reports; read the differences
(``git diff samples/game``) before committing them: ``expected/`` is what
``tests/test_sample_game.py`` compares with. The keys in ``keys/`` are for this sample only.
The boxes' sample games are rebuilt by the same script, given their folder:

    python samples/game/make_sample.py --sample samples/mod-game --approve
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from adjudicator.folder import stepreports  # noqa: E402
from adjudicator.robots.demo import play_sample, sample_plan  # noqa: E402
from adjudicator.seals import seal  # noqa: E402
from adjudicator.seals.keys import read_private_key  # noqa: E402

# What expected/ keeps of each step's reports: the text reports and the receipts (receipts/NAME.txt).
KEPT = ".txt"


def seal_all(sample: Path = HERE) -> int:
    """Seal every ``turns/RUN/HOUSE.txt`` with that house's demo key into ``sealed/RUN/HOUSE.txt``."""
    game, runs = sample_plan(sample)
    keys = {h: read_private_key(sample / "keys" / f"DEMO-ONLY-{h}").private for h in game["houses"]}
    shutil.rmtree(sample / "sealed", ignore_errors=True)
    count = 0
    for run in runs:
        for plain in sorted((sample / "turns" / run.files).glob("*.txt")):
            house = plain.stem.split("-")[0]
            out = sample / "sealed" / run.files / plain.name
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(seal.sign(plain.read_text(encoding="utf-8"), keys[house]), encoding="utf-8")
            count += 1
    return count


def approve(game_dir: Path, sample: Path = HERE) -> int:
    """Replace ``expected/`` with the text reports, receipts and ``pending`` of a replayed sample."""
    expected = sample / "expected"
    shutil.rmtree(expected, ignore_errors=True)
    count = 0
    for step in stepreports.steps(game_dir):  # each step's pages, rendered from its record
        for name, page in step.pages().items():
            if name.endswith(KEPT):
                out = expected / step.label / name
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(page)
                count += 1
    shutil.copyfile(game_dir / "pending", expected / "pending")
    return count + 1


def main(sample: Path = HERE, doc: str | None = __doc__) -> int:
    """Seal ``sample``'s turns, and replay or approve it as the command line asks."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--play", type=Path, metavar="DIR", help="replay the sample into DIR (a new folder)")
    parser.add_argument("--approve", action="store_true", help="replace expected/ with the replayed reports")
    parser.add_argument("--sample", type=Path, metavar="FOLDER", default=sample,
                        help="the sample folder (default: this one, samples/game; e.g. samples/mod-game)")
    args = parser.parse_args()
    sample = args.sample.resolve()
    print(f"sealed {seal_all(sample)} turn files into {sample / 'sealed'}")
    if args.play or args.approve:
        root = args.play or Path(tempfile.mkdtemp(prefix="maester-sample-")) / "sample"
        for r in play_sample(root, sample):
            print("\n".join(r.lines()))
        print(f"replayed into {root}")
        if args.approve:
            print(f"approved {approve(root, sample)} files into {sample / 'expected'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
