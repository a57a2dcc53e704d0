"""The game's seeded randomness: every shuffle derived from the secret seed and a counter.

The moderator commits to the seed (its SHA-256 is published at ``maester new``) and reveals it
at the end, so anyone can re-run every shuffle. No global random state is touched.

>>> shuffled("abc", list("abcdef"), 0) == shuffled("abc", list("abcdef"), 0)
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed (hex)."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The public commitment to a seed: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(seed.encode("utf-8")).hexdigest()


def shuffled(seed: str, items: list[T], counter: int) -> list[T]:
    """A shuffled copy of ``items``: the ``counter``-th random draw of the game."""
    digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
    out = list(items)
    random.Random(int.from_bytes(digest, "big")).shuffle(out)
    return out
