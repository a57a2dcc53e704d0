"""A ``.sig`` a mail carried that sealed no turn: told to the house whose registered key it names (ruling 195).

``ssh-keygen -Y sign`` writes ``turn.txt.sig`` beside ``turn.txt``; a player who attaches only the
``.sig``, or a ``turn.txt`` that a mail program changed, sealed nothing, and hears so in a receipt
with its next mail. The seal names the key: no more is proved (anyone can write a seal naming any
public key), so the receipt goes only to the house that key is registered to, at its registered
address, never to the address the mail came from; a seal naming no registered key (a stranger's,
the moderator's, a damaged one, another namespace) is named in the moderator's summary only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..folder import registry
from ..folder.audit import Folder
from ..folder.gamedir import GameDir
from ..folder.ledger import Ledger
from ..folder.notices import tell_unmatched_seal
from .detached import Unmatched

__all__ = ["tell_houses"]


def tell_houses(gd: GameDir, game_id: str, key_house: Mapping[str, str], found: list[Unmatched],
                games: Collection[str | None], message: str) -> list[str]:  # fmt: skip
    """Tell each house whose key one of ``found`` names, for this game; the summary's lines.

    A seal is this game's when the file it is for names this game in its header, or else when the
    mail holds a turn text of this game or of no game at all (``games``: the games its turn texts
    name): one mailbox may serve several games (ruling 147), and a player in two of them may have
    one key in both.
    """
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
        snaps = Folder(gd).numbers()
        out.append(tell_unmatched_seal(gd.root, Ledger.read(gd.root), house=house, name=u.name, sha256=u.sha256,
                                       fingerprint=u.fingerprint, why=u.why, seals_name=u.seals_name, hint=u.hint,
                                       number=snaps[-1] if snaps else 0, message=message))  # fmt: skip
    return out
