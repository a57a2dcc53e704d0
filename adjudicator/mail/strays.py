"""A ``.sig`` a mail carried that sealed no turn: told to the house whose registered key it names (ruling 195).

``ssh-keygen -Y sign`` writes ``turn.txt.sig`` beside ``turn.txt``; a player who attaches only the
``.sig``, or a ``turn.txt`` that a mail program changed, sealed nothing, and hears so in a receipt
with its next mail. The seal names the key: no more is proved (anyone can write a seal naming any
public key), so the receipt goes only to the house that key is registered to, at its registered
address, never to the address the mail came from; a seal naming no registered key (a stranger's,
the moderator's, a damaged one, another namespace) is named in the moderator's summary only.

Since anyone can write such a seal, one house is told of them at most :data:`MAX_A_DAY` times in
24 hours and :data:`MAX_A_WEEK` times in 7 days, however many mails and runs come (ruling 327);
a house whose player left (``maester leave``) is told nothing (ruling 326).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import UTC, datetime, timedelta

from ..folder import registry
from ..folder.audit import Folder
from ..folder.gamedir import GameDir
from ..folder.ledger import Ledger
from ..folder.notices import UNMATCHED, tell_unmatched_seal
from .detached import Unmatched

__all__ = ["MAX_A_DAY", "MAX_A_WEEK", "tell_houses"]

MAX_A_DAY = 4  # receipts of seals naming one house's key, told to it in any 24 hours
MAX_A_WEEK = 6  # and in any 7 days


def tell_houses(gd: GameDir, game_id: str, key_house: Mapping[str, str], found: list[Unmatched],
                games: Collection[str | None], message: str, *, now: datetime | None = None) -> list[str]:  # fmt: skip
    """Tell each house whose key one of ``found`` names, for this game; the summary's lines.

    A seal is this game's when the file it is for names this game in its header, or else when the
    mail holds a turn text of this game or of no game at all (``games``: the games its turn texts
    name): one mailbox may serve several games (ruling 147), and a player in two of them may have
    one key in both. ``key_house`` holds the keys in force of the houses still played: a seal
    naming the key of a house whose player left is told to nobody.
    """
    now = now or datetime.now(UTC)
    out = []
    for u in found:
        house = key_house.get(u.fingerprint, "")
        mine = u.game == game_id if u.game is not None else (not games or game_id in games)
        if not mine:
            continue
        if not house or house == registry.MODERATOR:
            out.append(f"not told: the seal {u.name!r} names no house's key registered in this game "
                       "(only this summary names it)")  # fmt: skip
            continue
        ledger = Ledger.read(gd.root)
        snaps = Folder(gd).numbers()
        out.append(tell_unmatched_seal(gd.root, ledger, house=house, name=u.name, sha256=u.sha256,
                                       fingerprint=u.fingerprint, why=u.why, seals_name=u.seals_name, hint=u.hint,
                                       number=snaps[-1] if snaps else 0, message=message,
                                       time=now.isoformat(timespec="seconds"), over=_over_bound(ledger, house, now)))  # fmt: skip
    return out


def _over_bound(ledger: Ledger, house: str, now: datetime) -> str:
    """Why one more receipt of a seal naming ``house``'s key would be one too many now ("": it would not)."""
    times = []
    for e in ledger.notices.values():
        if e.get("action") == UNMATCHED and house in e.get("receipts", {}):
            try:
                when = datetime.fromisoformat(str(e.get("time", "")))
            except ValueError:
                continue
            times.append(when if when.tzinfo else when.replace(tzinfo=UTC))
    day = sum(now - timedelta(hours=24) < t <= now for t in times)
    week = sum(now - timedelta(days=7) < t <= now for t in times)
    if day >= MAX_A_DAY:
        return f"{day} receipts of seals naming its key were told to it in the last 24 hours (at most {MAX_A_DAY} a day)"
    if week >= MAX_A_WEEK:
        return f"{week} receipts of seals naming its key were told to it in the last 7 days (at most {MAX_A_WEEK} a week)"
    return ""
