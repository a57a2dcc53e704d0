"""Who may seal for whom in one game, and which sealed files a game can accept now.

Three files of a game folder are read here:

``game.toml``
    ``[game] id`` and ``houses`` (written by others), and the table this module owns::

        [[keys.stark]]
        fingerprint = "SHA256:..."
        public_key = "ssh-ed25519 AAAA... comment"
        added = "2026-11-22T10:00:00+00:00"
        revoked = false
        revoked_reason = ""
        revoked_on = ""

    with ``keys.moderator`` of the same shape, and ``players.<house>.email``. Every other table
    is kept as it is when the file is rewritten (comments are not: TOML is re-emitted).
``state.toml``
    only its top-level ``round`` and ``phase``: the step now open (round 1 planning without it).
``log``
    one JSON object a line, appended: ``accept`` lines (by the batch run, through
    :func:`record_acceptance`), and the moderator's ``register-key``, ``revoke-key`` and
    ``moderator-accept`` lines, each with its time and, where there is one, its reason.

The moderator's commands (:func:`register_key`, :func:`revoke_key`, :func:`moderator_accept`) hold
the game folder's lock while they read and rewrite; :func:`record_acceptance` does not, since its
caller, the batch run, holds it already.

A file is acceptable now when each sealed block in it is sealed by a key in force for the house
its header names, for this game, for the open round and step, with a sequence number higher than
any accepted from that house for that step. :class:`Checker` decides this for many files at once.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tomli_w

from ..game.board import ALL_HOUSES, HOUSES
from ..game.validation import box_keys
from ..seals.keys import PublicKey, parse_public_key
from ..seals.seal import (
    BEGIN,
    END,
    BadHeader,
    BadSignature,
    Ignored,
    NoSeal,
    Replayed,
    RevokedKey,
    SealedBlock,
    SealError,
    UnknownKey,
    WrongGame,
    WrongHouse,
    WrongStep,
    decode,
    normalise,
    read_armour,
    scan,
    unnormalised_hint,
)
from ..turnfile.header import Header, HeaderError, find_header
from ..util import fileio, tomltext
from ..util.lines import split_lines
from .gamedir import GameDir, GameDirError

MODERATOR = "moderator"
GAME_FILE = "game.toml"
STATE_FILE = "state.toml"
LOG_FILE = "log"


class RegistryError(ValueError):
    """A mistake in a request to the registry or in the game folder (exit status 2)."""


@contextmanager
def _locked(game_dir: Path) -> Iterator[None]:
    """Hold the game folder's lock (waiting up to 10 s for a run that holds it)."""
    try:
        with GameDir.open(game_dir).lock(timeout=10):
            yield
    except GameDirError as e:
        raise RegistryError(str(e)) from None


def _now(now: datetime | None) -> str:
    return (now or datetime.now(UTC)).isoformat(timespec="seconds")


def house_name(house: str) -> str:
    """``"stark"`` gives ``"House Stark"``; the moderator is ``"the moderator"``."""
    return "the moderator" if house == MODERATOR else f"House {house.title()}"


# --- game.toml ------------------------------------------------------------------------------------


def read_game(game_dir: Path) -> dict[str, Any]:
    """The whole of ``GAME_DIR/game.toml``.

    :raises RegistryError: when the file is missing or is not TOML.
    """
    path = Path(game_dir) / GAME_FILE
    try:
        return tomltext.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise RegistryError(f"{game_dir} is not a game folder: it has no {GAME_FILE}") from None
    except UnicodeDecodeError:
        raise RegistryError(f"{path} is not valid TOML: it is not UTF-8 text (damaged?)") from None
    except tomllib.TOMLDecodeError as e:
        raise RegistryError(f"{path} is not valid TOML: {e}") from None
    except OSError as e:
        raise RegistryError(f"cannot read {path}: {e.strerror}") from None


def _game_table(game: dict[str, Any]) -> dict[str, Any]:
    table = game.get("game", {})
    if not isinstance(table, dict):
        raise RegistryError(f"{GAME_FILE}: 'game' must be the [game] table, not {type(table).__name__}")
    return table


def game_id(game: dict[str, Any]) -> str:
    """:raises RegistryError: when ``[game] id`` is missing."""
    gid = _game_table(game).get("id")
    if not isinstance(gid, str) or not gid:
        raise RegistryError(f"{GAME_FILE} has no [game] id (text)")
    return gid


def houses(game: dict[str, Any]) -> list[str]:
    """The houses playing, lower case. :raises RegistryError: when ``[game] houses`` is missing."""
    hs = _game_table(game).get("houses")
    if not isinstance(hs, list) or not hs or not all(isinstance(h, str) for h in hs):
        raise RegistryError(f"{GAME_FILE} lists no houses ([game] houses, a list of names)")
    known = HOUSES if not _game_table(game).get("expansion") else ALL_HOUSES
    for h in hs:
        if h.lower() not in known:
            raise RegistryError(f"{GAME_FILE}: [game] houses names {h!r}, not a house ({', '.join(known)})")
    return [h.lower() for h in hs]


def players(game: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``[players.<house>]`` tables (``email``), by house; entries that are not tables are left out.

    :raises RegistryError: when ``players`` is not a table.
    """
    table = game.get("players", {})
    if not isinstance(table, dict):
        raise RegistryError(f"{GAME_FILE}: 'players' must be a table ([players.<house>] email = \"...\")")
    return {h: p for h, p in table.items() if isinstance(p, dict)}


@dataclass(frozen=True, slots=True)
class KeyEntry:
    """One registered key: whose, which, since when, and whether it was revoked."""

    house: str
    fingerprint: str
    public_key: str
    added: str
    revoked: bool = False
    revoked_reason: str = ""
    revoked_on: str = ""

    def to_toml(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "public_key": self.public_key,
            "added": self.added,
            "revoked": self.revoked,
            "revoked_reason": self.revoked_reason,
            "revoked_on": self.revoked_on,
        }


def key_entries(game: dict[str, Any]) -> list[KeyEntry]:
    """Every registered key, revoked or not, in file order.

    The fingerprint is computed from ``public_key`` when that reads as a key, so a hand-edited
    ``fingerprint`` cannot point a house at another key.
    """
    out: list[KeyEntry] = []
    table = game.get("keys", {})
    for house, entries in table.items() if isinstance(table, dict) else []:
        for e in entries if isinstance(entries, list) else []:
            if not isinstance(e, dict):
                continue
            try:
                fp = parse_public_key(str(e.get("public_key", ""))).fingerprint
            except SealError:
                fp = str(e.get("fingerprint", ""))
            out.append(
                KeyEntry(
                    house=house,
                    fingerprint=fp,
                    public_key=str(e.get("public_key", "")),
                    added=str(e.get("added", "")),
                    revoked=bool(e.get("revoked", False)),
                    revoked_reason=str(e.get("revoked_reason", "")),
                    revoked_on=str(e.get("revoked_on", "")),
                )
            )
    return out


def _write_keys(game_dir: Path, game: dict[str, Any], entries: list[KeyEntry]) -> None:
    table: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        table.setdefault(e.house, []).append(e.to_toml())
    game["keys"] = table
    fileio.atomic_write_text(Path(game_dir) / GAME_FILE, tomli_w.dumps(game))


def _log(game_dir: Path, entry: dict[str, Any]) -> None:
    fileio.append_line(Path(game_dir) / LOG_FILE, json.dumps(entry, ensure_ascii=False))


def register_key(
    game_dir: Path,
    house: str,
    key: PublicKey,
    *,
    email: str | None = None,
    replaces: str | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> KeyEntry:
    """Register ``key`` for ``house`` (or the moderator); with ``replaces``, revoke that key too.

    :raises RegistryError: for an unknown house, a key registered already, a missing reason.
    """
    with _locked(game_dir):
        return _register(game_dir, house, key, email, replaces, reason, now)


def _register(game_dir: Path, house: str, key: PublicKey, email: str | None, replaces: str | None,
              reason: str, now: datetime | None) -> KeyEntry:  # fmt: skip
    game = read_game(game_dir)
    house = house.lower()
    if house != MODERATOR and house not in houses(game):
        raise RegistryError(f"{house!r} is not a house of this game ({', '.join(houses(game))}) nor 'moderator'")
    entries = key_entries(game)
    for e in entries:
        if e.fingerprint == key.fingerprint:
            state = "was revoked and cannot return" if e.revoked else "is registered already"
            raise RegistryError(f"key {e.fingerprint} {state} ({house_name(e.house)})")
    if replaces is not None:
        entries = _revoked(entries, replaces, reason, _now(now), house=house)
    entry = KeyEntry(house, key.fingerprint, key.line(), _now(now))
    entries.append(entry)
    if email is not None:
        email = one_address(email, f"--email {email!r}")
        mail = players(game)
        game["players"] = game.get("players", {}) | {house: mail.get(house, {}) | {"email": email}}
    _write_keys(game_dir, game, entries)
    line: dict[str, Any] = {"action": "register-key", "house": house, "fingerprint": key.fingerprint}
    if replaces is not None:
        line |= {"replaces": replaces, "reason": reason}
    _log(game_dir, line | {"time": entry.added})
    return entry


_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_DOMAIN = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
_ADDRESS = re.compile(f"{_LOCAL}@{_DOMAIN}")


def one_address(text: str, what: str) -> str:
    """``text`` when it is exactly one plain mail address (``local@domain``), as ``outbox --send`` will use it.

    A list (``a@x, b@y``), a display name or angle brackets (``Ned <a@x>``), a comment, quotes,
    white space or line breaks are refused: each could make a private report go to a second address.

    >>> one_address("ned.stark+agot@example.org", "--email")
    'ned.stark+agot@example.org'

    :raises RegistryError: naming ``what`` and saying what is valid.
    """
    from email.headerregistry import Address  # here: every run reads the registry, few check an address
    from email.utils import parseaddr

    ok = _ADDRESS.fullmatch(text) is not None and len(text) <= 254 and parseaddr(text) == ("", text)
    if ok:
        try:
            ok = Address(addr_spec=text).addr_spec == text
        except (ValueError, TypeError, IndexError):  # the header parser's errors on a bad address
            ok = False
    if not ok:
        raise RegistryError(f"{what} is not one mail address: give exactly one plain address such as "
                            "ned@example.org (no list, no name, no <...>)")
    return text


def _revoked(entries: list[KeyEntry], fingerprint: str, reason: str, when: str, *, house: str | None = None) -> list[KeyEntry]:
    if not reason.strip():
        raise RegistryError("give the reason for revoking the key (--reason)")
    matches = [e for e in entries if e.fingerprint == fingerprint]
    if not matches:
        raise RegistryError(f"no key {fingerprint} is registered in this game")
    old = matches[0]
    if old.revoked:
        raise RegistryError(f"key {fingerprint} was revoked already, on {old.revoked_on[:10]}")
    if house is not None and old.house != house:
        raise RegistryError(f"key {fingerprint} belongs to {house_name(old.house)}, not {house_name(house)}")
    new = KeyEntry(old.house, old.fingerprint, old.public_key, old.added, True, reason.strip(), when)
    return [new if e is old else e for e in entries]


def revoke_key(game_dir: Path, fingerprint: str, reason: str, *, now: datetime | None = None) -> KeyEntry:
    """Revoke a registered key, with the moderator's reason; logged.

    :raises RegistryError: when the key is unknown or revoked already, or no reason is given.
    """
    with _locked(game_dir):
        game = read_game(game_dir)
        entries = _revoked(key_entries(game), fingerprint, reason, _now(now))
        _write_keys(game_dir, game, entries)
        entry = next(e for e in entries if e.fingerprint == fingerprint)
        _log(game_dir, {"action": "revoke-key", "house": entry.house, "fingerprint": fingerprint,
                        "reason": entry.revoked_reason, "time": entry.revoked_on})  # fmt: skip
    return entry


def fingerprints_in_force(game_dir: Path) -> dict[str, list[str]]:
    """For each house (and the moderator) with a key, the fingerprints not revoked.

    :raises RegistryError: when the folder has no readable game.toml.
    """
    return in_force(key_entries(read_game(game_dir)))


def in_force(entries: list[KeyEntry]) -> dict[str, list[str]]:
    """:func:`fingerprints_in_force` of the entries :func:`key_entries` read from ``game.toml``."""
    out: dict[str, list[str]] = {}
    for e in entries:
        if not e.revoked:
            out.setdefault(e.house, []).append(e.fingerprint)
    return out


def departed(game_dir: Path, game: dict[str, Any]) -> set[str]:
    """The houses whose player left the game (``maester leave``, M124): a player's house that is a
    vassal in ``state.toml`` now. Its keys act for nothing, and its address gets no more mail (ruling 326).

    :raises RegistryError: when ``[game] houses`` is missing.
    """
    if not _game_table(game).get("expansion"):
        return set()
    try:
        state = tomltext.loads((Path(game_dir) / STATE_FILE).read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set()  # said by the command that needs the state
    vassals = box_keys(state).get("vassals", [])
    return {h for h in houses(game) if isinstance(vassals, list) and h in vassals}


# --- state.toml and the log -----------------------------------------------------------------------


def current_step(game_dir: Path) -> tuple[int, str]:
    """The open ``(round, step)``: ``round`` and ``phase`` of ``state.toml``, else ``(1, "planning")``.

    :raises RegistryError: when state.toml exists but lacks them.
    """
    path = Path(game_dir) / STATE_FILE
    try:
        state = tomltext.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return 1, "planning"
    except OSError as e:
        raise RegistryError(f"cannot read {path}: {e.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise RegistryError(f"cannot read {path}: it is not valid TOML ({e})") from None
    rnd, phase = state.get("round"), state.get("phase")
    if not isinstance(rnd, int) or not isinstance(phase, str):
        raise RegistryError(f"{path} lacks a top-level round (integer) and phase (text)")
    return rnd, phase.lower()


def read_log(game_dir: Path) -> list[dict[str, Any]]:
    """Every entry of the game's log; a line that is not a JSON object (a cut write) is skipped."""
    try:
        text = (Path(game_dir) / LOG_FILE).read_text(encoding="utf-8", errors="replace")  # a damaged line fails as JSON
    except FileNotFoundError:
        return []
    out = []
    for line in split_lines(text):  # as the ledger reads it: a U+2028 in a logged text does not end a line
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            out.append(entry)
    return out


def _highest(log: list[dict[str, Any]]) -> dict[tuple[str, int, str], int]:
    best: dict[tuple[str, int, str], int] = {}
    for e in log:
        if e.get("action") != "accept":
            continue
        try:
            k, seq = (str(e["house"]), int(e["round"]), str(e["step"])), int(e["seq"])
        except (KeyError, TypeError, ValueError):
            continue  # not an acceptance this module wrote
        best[k] = max(best.get(k, 0), seq)
    return best


def highest_accepted_seq(game_dir: Path, house: str, round: int, step: str) -> int:
    """The highest sequence number accepted from ``house`` for that round and step; 0 if none."""
    return _highest(read_log(game_dir)).get((house, round, step), 0)


def record_acceptance(game_dir: Path, header: Header, sha256: str, archived_path: str | Path, *,
                      now: datetime | None = None, index: int | None = None) -> None:  # fmt: skip
    """Log that a sealed submission was accepted; later ones must carry a higher ``seq``.

    ``index``: the place in the order of acceptances of a file taken again from the archive after a
    rollback, whose name keeps the number it was first given.
    """
    entry = {"action": "accept", "house": header.house, "round": header.round, "step": header.step,
             "seq": header.seq, "sha256": sha256, "file": str(archived_path), "time": _now(now)}  # fmt: skip
    _log(game_dir, entry if index is None else entry | {"index": index})


def moderator_acceptance(game_dir: Path, sha256: str) -> dict[str, Any] | None:
    """The ``moderator-accept`` log entry for a text with this SHA-256, if any."""
    for e in read_log(game_dir):
        if e.get("action") == "moderator-accept" and e.get("sha256") == sha256:
            return e
    return None


# --- checking sealed files ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What was found for one sealed block."""

    first_line: int
    last_line: int
    header: Header | None = None
    fingerprint: str = ""
    signer: str = ""  # the house whose key sealed it, when the key is registered
    sha256: str = ""  # of the normalised, sealed text
    error: SealError | None = None
    own_text: str = ""  # the block alone (SealedBlock.own_text), when its seal is good: what intake archives

    @property
    def ok(self) -> bool:
        return self.error is None

    def describe(self) -> str:
        """One line: ``lines 1-9: valid: sealed by House Stark (SHA256:...) for round 3 planning, seq 2``."""
        where = f"lines {self.first_line}-{self.last_line}"
        if self.error is not None:
            said = f"{where}: invalid [{self.error.code}]: {self.error}"
            if self.signer and not isinstance(self.error, (WrongHouse, UnknownKey)):
                said += f" (sealed by {house_name(self.signer)}, {self.fingerprint})"
            return said
        h = self.header
        assert h is not None
        return (f"{where}: valid: sealed by {house_name(self.signer)} ({self.fingerprint}) "
                f"for game {h.game}, round {h.round} {h.step}, seq {h.seq}")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Report:
    """Every block of one file, the lines left out, and a fault of the whole file."""

    verdicts: list[Verdict] = field(default_factory=list)
    ignored: list[Ignored] = field(default_factory=list)
    error: SealError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(v.ok for v in self.verdicts)

    def lines(self) -> list[str]:
        """The report as one line per block, per ignored run and for a fault of the whole file."""
        out = [f"block {i}, {v.describe()}" for i, v in enumerate(self.verdicts, 1)]
        out += [f"lines {g.first_line}-{g.last_line}: ignored ({g.reason})" for g in self.ignored]
        if self.error is not None:
            out.append(f"invalid [{self.error.code}]: {self.error}")
        return out


class Checker:
    """Decides whether sealed files are acceptable now, for one game, reading its files once."""

    def __init__(self, game_id: str, houses: list[str], keys: list[KeyEntry], step: tuple[int, str],
                 highest: dict[tuple[str, int, str], int], departed: Collection[str] = ()) -> None:  # fmt: skip
        self.game_id, self.houses, self.step, self.highest = game_id, houses, step, highest
        self.keys = {e.fingerprint: e for e in keys}
        self.departed = frozenset(departed)  # houses whose player left: their keys act for nothing

    @classmethod
    def load(cls, game_dir: Path) -> Checker:
        """:raises RegistryError: when the folder's game.toml or state.toml cannot be read."""
        game = read_game(game_dir)
        return cls(game_id(game), houses(game), key_entries(game), current_step(game_dir), _highest(read_log(game_dir)),
                   departed(game_dir, game))  # fmt: skip

    def check(self, text: str) -> Report:
        """Check every sealed block in ``text`` (a turn file or a whole mail)."""
        found = scan(text)
        verdicts = [self.check_block(b) for b in found.blocks]
        error = None if verdicts else NoSeal("no sealed block found (a sealed turn starts with its header line)")
        return Report(verdicts, found.ignored, error)

    def check_block(self, block: SealedBlock) -> Verdict:
        where = (block.first_line, block.last_line)
        try:
            sealed = block.open()
        except BadSignature as e:  # a registered player's raw ssh-keygen seal over CRLF text: say so
            hint = unnormalised_hint(block.text, block.armour) if self._registered(block) else ""
            return Verdict(*where, error=BadSignature(f"{e}{hint}") if hint else e)
        except SealError as e:
            return Verdict(*where, error=e)
        fp, h = sealed.key.fingerprint, sealed.header
        digest = hashlib.sha256(sealed.text.encode("utf-8")).hexdigest()
        entry = self.keys.get(fp)
        signer = entry.house if entry and entry.house not in self.departed else ""  # a departed house hears nothing
        return Verdict(*where, h, fp, signer, digest, self._fault(h, fp, entry), block.own_text())

    def _registered(self, block: SealedBlock) -> bool:
        try:
            return read_armour(block.armour).key.fingerprint in self.keys
        except SealError:
            return False

    def _fault(self, h: Header, fp: str, entry: KeyEntry | None) -> SealError | None:
        if entry is None:
            return UnknownKey(f"key {fp} is not registered for any house")
        if entry.revoked:
            return RevokedKey(f"key {fp} was revoked on {entry.revoked_on[:10]} ({entry.revoked_reason})")
        if entry.house in self.departed:
            return RevokedKey(f"key {fp} was {house_name(entry.house)}'s, whose player left the game (maester "
                              "leave): it acts for nothing now")  # fmt: skip
        if entry.house != h.house:
            who = "the moderator's" if entry.house == MODERATOR else f"{entry.house.title()}'s"
            return WrongHouse(f"signed by {who} key but claims {house_name(h.house)}")
        return self.check_header(h)

    def check_header(self, h: Header) -> SealError | None:
        """What is wrong with a trusted header for this game now, if anything."""
        if h.game != self.game_id:
            return WrongGame(f"sealed for game {h.game!r}; this is game {self.game_id!r}")
        if h.house not in self.houses:
            return WrongHouse(f"{house_name(h.house)} is not playing in game {self.game_id!r}")
        if (h.round, h.step) != self.step:
            rnd, step = self.step
            return WrongStep(f"sealed for round {h.round} {h.step}; the game is at round {rnd} {step}")
        best = self.highest.get((h.house, h.round, h.step), 0)
        if h.seq <= best:
            return Replayed(f"sequence {h.seq} is not higher than {best}, already accepted (replay)")
        return None


def check_file(game_dir: Path, data: bytes) -> Report:
    """Check a file's bytes against the game in ``game_dir`` as it is now.

    :raises RegistryError: when the game folder cannot be read.
    """
    checker = Checker.load(game_dir)
    try:
        text = decode(data)
    except SealError as e:
        return Report(error=e)
    return checker.check(text)


def moderator_accept(game_dir: Path, text: str, *, house: str, reason: str, file: str = "",
                     now: datetime | None = None) -> Header:  # fmt: skip
    """Accept an unsealed turn for ``house`` on the moderator's word; logged with the reason.

    The header is checked as for a sealed file (game, house, open step, sequence number).

    :raises RegistryError: when no reason is given or the file carries a seal.
    :raises SealError: (``BadHeader``, ``WrongHouse``, ``WrongGame``, ``WrongStep``, ``Replayed``).
    """
    if not reason.strip():
        raise RegistryError("give the reason for accepting an unsealed file (--reason)")
    body = normalise(text)
    if any(line.strip() in (BEGIN, END) for line in body.split("\n")):
        raise RegistryError("this file carries a seal; check it without --unsigned")
    try:
        header = find_header(body)
    except HeaderError as e:
        raise BadHeader(str(e)) from None
    if header is None:
        raise BadHeader("the file has no header line ('game ID · house H · round N · STEP · seq N')")
    if header.house != house.lower():
        raise WrongHouse(f"the file claims {house_name(header.house)}, not {house_name(house.lower())}")
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    with _locked(game_dir):
        if (fault := Checker.load(game_dir).check_header(header)) is not None:
            raise fault
        if moderator_acceptance(game_dir, digest) is not None:
            return header  # accepted already: said once in the log
        _log(game_dir, {"action": "moderator-accept", "house": header.house, "round": header.round,
                        "step": header.step, "seq": header.seq, "sha256": digest, "file": file,
                        "reason": reason.strip(), "time": _now(now)})  # fmt: skip
    return header
