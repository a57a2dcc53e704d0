"""A game's state as published in every report mail, for a player's ``maester check`` offline.

Each step's ``report.json`` holds the public state; a mail carries it compressed, as
``GAME-NNNN.json.gz`` (ruling 316). A file of a game folder's ``reports/`` with later steps beside
it is old, and is said to be (W903).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..game.commands import Where
from ..game.state import GameState
from ..turnfile.diagnostics import Notice
from ..util.packing import PackingError, unpacked
from . import stepreports

PUBLISHED_LIMIT = 16 * 1024 * 1024  # a published state uncompressed (a late 8-player game's: some 40 KB)


class PublishedStateError(ValueError):
    """A file that is not a published state Maester can read."""


def published_state(path: str | Path) -> GameState:
    """The game state in a published ``report.json`` (its public twin).

    :raises PublishedStateError: for a file that is not a Maester report.
    """
    try:
        raw = Path(path).read_bytes()
        data = json.loads(unpacked(raw, limit=PUBLISHED_LIMIT).decode("utf-8"))  # a mail's GAME-NNNN.json.gz
        return GameState.from_dict(data["state"])
    except PackingError as e:
        raise PublishedStateError(f"{path}: {e}; save the GAME-NNNN.json.gz of your last report mail again") from None
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as e:  # JSON nested deep
        why = f" (it is not a Maester report: {type(e).__name__}: {e})" if ".json" in Path(path).name else ""
        raise PublishedStateError(f"{path} is neither a game folder nor a published report.json{why}; give the "
                                  "game folder, or the report.json attached to your last report mail (GAME-NNNN.json.gz)") from None


def old_state(path: str | Path, filename: str) -> list[Notice]:
    """W903 for a published state that a later step of its own game folder replaced (a report.json of
    ``reports/NNNN-*/`` with later steps beside it): the file is old, not the game."""
    step = Path(path).resolve().parent
    if step.parent.name != "reports" or not step.name[:4].isdigit():
        return []
    later = [s.label for s in stepreports.listed(step.parent) if s.label > step.name]
    if not later:
        return []
    return [Notice("W903", f"{Path(path).name} is old: it is the state of step {step.name}, and the game has "
                   f"moved on to step {later[-1]}; check against reports/{later[-1]}/report.json",
                   Where(filename, 0))]  # fmt: skip
