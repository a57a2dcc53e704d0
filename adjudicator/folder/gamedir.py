"""The game folder: where a game's files live, and how they are read and written safely.

::

    GAME_DIR/
      game.toml      [game] id, houses, created, options, seed_commitment, expansion (this module);
                     [keys], [players] (the seal registry) and any other table are kept as they are
      state.toml     the game state (:class:`adjudicator.game.state.GameState`), written atomically
      secret/seed    the secret seed (mode 0600); game.toml publishes only its SHA-256
      inbox/ archive/ reports/ states/
      .lock          held by a run that changes the folder

See ``docs/game-folder.md``.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp()) / "doc-game"
>>> gd = create_game(root, houses=["stark", "lannister", "baratheon"], seed="doc")
>>> gd.info().id, gd.info().houses
('doc-game', ['stark', 'lannister', 'baratheon'])
>>> gd.load_state().round
1
>>> import shutil; shutil.rmtree(root.parent)
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import tomli_w

from .. import __version__
from ..game import rng
from ..game.board import Board
from ..game.boxes import DEFAULT_BOX, box_named, box_names
from ..game.state import GameState, StateError, validate_engine
from ..game.table_settings import TableSettings, apply_settings, setting_difference
from ..util import fileio, tomltext

GAME_FILE = "game.toml"
STATE_FILE = "state.toml"
SEED_FILE = "secret/seed"
LOCK_FILE = ".lock"
FOLDERS = ("inbox", "archive", "reports", "states")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def expansions() -> tuple[str, ...]:
    """The boxes played with ``--expansion NAME``: all but the base game."""
    return tuple(b for b in box_names() if box_named(b).expansion)


class GameDirError(ValueError):
    """A game folder that cannot be created, read or written as asked (exit status 2)."""


class GameLocked(GameDirError):
    """Another run holds the folder's lock."""


@dataclass(slots=True)
class GameInfo:
    """The ``[game]`` table of ``game.toml``: what a game is, fixed at ``maester new``."""

    id: str
    houses: list[str]
    created: str
    seed_commitment: str
    options: dict[str, Any] = field(default_factory=dict)
    maester_version: str = __version__
    expansion: str = ""  # "" for the base game; "mother-of-dragons" (then ``houses`` are the players')

    def to_table(self) -> dict[str, Any]:
        table = {
            "id": self.id,
            "houses": list(self.houses),
            "created": self.created,
            "seed_commitment": self.seed_commitment,
            "maester_version": self.maester_version,
            "options": dict(self.options),
        }
        return table | {"expansion": self.expansion} if self.expansion else table

    @classmethod
    def from_table(cls, t: dict[str, Any], *, where: str) -> GameInfo:
        """:raises GameDirError: for a missing or mistyped key."""
        try:
            info = cls(
                id=t["id"], houses=list(t["houses"]), created=t["created"], seed_commitment=t["seed_commitment"],
                options=dict(t.get("options", {})), maester_version=t.get("maester_version", ""),
                expansion=t.get("expansion", ""),
            )
        except (KeyError, TypeError) as e:
            raise GameDirError(f"{where}: the [game] table lacks {e}") from None
        if not isinstance(info.id, str) or not isinstance(t["houses"], list) or not all(
            isinstance(h, str) for h in info.houses
        ):
            raise GameDirError(f"{where}: [game] id and houses must be text")
        if info.expansion and info.expansion not in expansions():
            raise GameDirError(f"{where}: [game] expansion is {info.expansion!r}, not an expansion "
                               f"({', '.join(expansions())})")
        known = box_named(info.expansion or DEFAULT_BOX).houses
        unknown = [h for h in info.houses if h not in known]
        if unknown:
            raise GameDirError(f"{where}: [game] houses names {unknown[0]!r}, not a house ({', '.join(known)})")
        return info

    @property
    def variant(self) -> str:
        """The game's box: its expansion, or the base game's (``classic``)."""
        return self.expansion or DEFAULT_BOX


def check_game_id(game_id: str) -> str:
    """The id, when made of lower-case letters, digits and ``-_.`` (it goes into every sealed header).

    Capitals are refused, not folded (ruling 190): the id must match every header letter for
    letter, and by default it is the folder's name, which is case-sensitive on most systems.

    >>> check_game_id("winter-2026")
    'winter-2026'
    >>> check_game_id("Winter")
    Traceback (most recent call last):
    ...
    adjudicator.folder.gamedir.GameDirError: invalid game id 'Winter': it has capital letters; use 'winter' instead (with --game-id, or as the folder's name): every sealed header repeats the id letter for letter, and folder names are case-sensitive on most systems (ruling 190)

    :raises GameDirError: for any other id.
    """
    if not GAME_ID_RE.match(game_id):
        raise GameDirError(
            f"invalid game id {game_id!r}: use lower-case letters, digits, '-', '_' and '.', "
            "starting with a letter or digit"
        )
    if game_id != game_id.lower():
        raise GameDirError(
            f"invalid game id {game_id!r}: it has capital letters; use {game_id.lower()!r} instead (with --game-id, "
            "or as the folder's name): every sealed header repeats the id letter for letter, and folder names are "
            "case-sensitive on most systems (ruling 190)"
        )
    return game_id


@dataclass(frozen=True)
class GameDir:
    """One game folder and the paths inside it."""

    root: Path

    @property
    def game_file(self) -> Path:
        return self.root / GAME_FILE

    @property
    def state_file(self) -> Path:
        return self.root / STATE_FILE

    @property
    def seed_file(self) -> Path:
        return self.root / SEED_FILE

    @property
    def lock_file(self) -> Path:
        return self.root / LOCK_FILE

    def folder(self, name: str) -> Path:
        """One of the working folders: ``inbox``, ``archive``, ``reports``, ``states``."""
        if name not in FOLDERS:
            raise ValueError(f"unknown game folder {name!r}")
        return self.root / name

    @classmethod
    def open(cls, root: str | Path) -> GameDir:
        """An existing game folder.

        :raises GameDirError: when ``root`` has no ``game.toml``, or one of its working folders is a file.
        """
        gd = cls(Path(root))
        if not gd.game_file.is_file():
            if gd.root.exists() and not gd.root.is_dir():
                raise GameDirError(f"{root} is not a game folder: it is a file")
            if gd.game_file.exists():
                raise GameDirError(f"{root} is not a game folder: its {GAME_FILE} is not a file")
            raise GameDirError(f"{root} is not a game folder: it has no {GAME_FILE} (create one with 'maester new')")
        for name in FOLDERS:
            if (path := gd.root / name).exists() and not path.is_dir():
                raise GameDirError(f"{path} is not a folder: move it away; the game keeps its {name} there")
        return gd

    # --- game.toml ----------------------------------------------------------------------------

    def read_game(self) -> dict[str, Any]:
        """The whole of ``game.toml``, every table.

        :raises GameDirError: when the file is missing or is not TOML.
        """
        try:
            return tomltext.loads(self.game_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise GameDirError(f"{self.root} is not a game folder: it has no {GAME_FILE}") from None
        except UnicodeDecodeError:
            raise GameDirError(f"{self.game_file} is not valid TOML: it is not UTF-8 text (damaged?)") from None
        except tomllib.TOMLDecodeError as e:
            raise GameDirError(f"{self.game_file} is not valid TOML: {e}") from None
        except OSError as e:
            raise GameDirError(f"cannot read {self.game_file}: {e.strerror}") from None

    def write_table(self, name: str, table: dict[str, Any]) -> None:
        """Replace one top-level table of ``game.toml``, keeping every other table as it is."""
        data = self.read_game() if self.game_file.exists() else {}
        data[name] = table
        fileio.atomic_write_text(self.game_file, tomli_w.dumps(data))

    def info(self, game: dict[str, Any] | None = None) -> GameInfo:
        """The ``[game]`` table (of ``game``, the whole of ``game.toml`` as :meth:`read_game` gave it
        a moment ago; read when ``None``).

        :raises GameDirError: when it is missing or incomplete.
        """
        table = (self.read_game() if game is None else game).get("game")
        if not isinstance(table, dict):
            raise GameDirError(f"{self.game_file} has no [game] table")
        return GameInfo.from_table(table, where=str(self.game_file))

    # --- state.toml and the seed --------------------------------------------------------------

    def load_state(self) -> GameState:
        """The current state.

        :raises GameDirError: when ``state.toml`` is missing or unreadable.
        """
        try:
            state = GameState.from_toml(self.state_file.read_text(encoding="utf-8"))
            validate_engine(state.to_dict())  # the engine's parts too: the file may have been edited by hand
            return state
        except FileNotFoundError:
            raise GameDirError(f"{self.root} has no {STATE_FILE}") from None
        except OSError as e:
            raise GameDirError(f"cannot read {self.state_file}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise GameDirError(f"{self.state_file} cannot be read: it is not UTF-8 text (damaged?)") from None
        except tomllib.TOMLDecodeError as e:
            raise GameDirError(f"{self.state_file} cannot be read: it is not valid TOML ({e})") from None
        except StateError as e:
            raise GameDirError(f"{self.state_file} cannot be read: {e}") from None
        except (KeyError, TypeError, ValueError) as e:
            raise GameDirError(f"{self.state_file} cannot be read: {type(e).__name__}: {e}") from None

    def save_state(self, state: GameState) -> None:
        """Write ``state.toml`` atomically: a crash leaves the old state or the new one."""
        fileio.atomic_write_text(self.state_file, state.to_toml())

    def seed(self) -> str:
        """The secret seed (moderator only).

        :raises GameDirError: when ``secret/seed`` is missing.
        """
        try:
            return self.seed_file.read_text(encoding="utf-8").strip()
        except OSError as e:
            raise GameDirError(f"cannot read {self.seed_file}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise GameDirError(f"{self.seed_file} is not UTF-8 text: it is damaged") from None

    # --- the lock -----------------------------------------------------------------------------

    @contextmanager
    def lock(self, *, timeout: float = 0.0) -> Iterator[None]:
        """Hold the folder's lock for a run that changes it; released on exit, even on a crash.

        The lock is an advisory ``flock`` on ``GAME_DIR/.lock``: the kernel drops it when the
        process dies, so a killed run never leaves the folder locked.

        :raises GameLocked: when another run still holds it after ``timeout`` seconds.
        """
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        holder = self.lock_file.read_text(encoding="utf-8", errors="replace").strip()
                        raise GameLocked(f"{self.root} is busy: another maester run holds its lock ({holder or 'pid unknown'})") from None
                    time.sleep(0.05)
            said = f"pid {os.getpid()}\n".encode()
            if os.pread(fd, len(said) + 1, 0) != said:  # not said already by an earlier run of this process
                os.ftruncate(fd, 0)  # (freeing the old text costs a few ms on some disks: done only when it differs)
                os.write(fd, said)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the flock


RUN_WAIT = 60.0  # seconds a moderator's run or a delivery waits in all for another run holding a folder's lock
T = TypeVar("T")


def when_free(step: Callable[[], T], wait: float = RUN_WAIT) -> T:
    """Run ``step`` (which takes a folder's lock), again while another run holds that lock, for up to
    ``wait`` seconds in all: a ``maester deliver`` holds it for a few seconds at a time.

    :raises GameLocked: when the lock is still held after ``wait`` seconds.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            return step()
        except GameLocked:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.1)


def is_empty_folder(path: Path) -> bool:
    return path.is_dir() and not any(path.iterdir())


def create_game(
    root: str | Path,
    *,
    houses: list[str] | None = None,
    game_id: str | None = None,
    seed: str | None = None,
    tides_of_battle: bool = False,
    position: str | Path | None = None,
    force: bool = False,
    now: datetime | None = None,
    board: Board | None = None,
    expansion: str | None = None,
    house_cards: str | None = None,
    setup: str | Path | None = None,
    settings: TableSettings | None = None,
) -> GameDir:
    """Create a game folder: ``game.toml``, ``state.toml``, ``secret/seed`` and the empty folders.

    ``expansion`` names an expansion to play (``mother-of-dragons``); a position file may name its own.
    ``house_cards`` names the house deck dealt (``base`` or ``adwd``, ruling 370), recorded in the options.
    ``setup`` names a shipped setup or a setup file's path (``docs/setups.md``), recorded in the options.
    ``settings`` are the table's round limit, victory target and random houses (:mod:`~adjudicator.game.table_settings`).

    Everything is checked before anything is written: on any error the disk is unchanged. A new
    folder is built under a temporary name and renamed into place. With ``force``, an existing
    folder is reused: ``[game]``, the state and the seed are replaced, every other file and every
    other table of ``game.toml`` (keys, players) is kept.

    :raises GameDirError: for an existing non-empty folder without ``force``, a bad game id, an unknown
        expansion, or a houses list or expansion that disagrees with the position.
    :raises adjudicator.game.setup.SetupError: for houses that cannot play together.
    :raises adjudicator.game.position.PositionError: for a malformed position file.
    """
    root = Path(root)
    if expansion is not None:
        expansion = check_expansion(expansion)
    if game_id is None and not GAME_ID_RE.match(root.resolve().name):
        raise GameDirError(f"the folder name {root.resolve().name!r} cannot be a game id: choose one with --game-id "
                           "(letters, digits, '-', '_' and '.')")
    gid = check_game_id(game_id if game_id is not None else root.resolve().name)
    if root.exists() and not root.is_dir():
        raise GameDirError(f"{root} exists and is not a folder")
    if (parent := next(p for p in root.absolute().parents if p.exists())) and not parent.is_dir():
        raise GameDirError(f"cannot create {root}: {parent} is a file, not a folder")
    if root.exists() and not is_empty_folder(root) and not force:
        raise GameDirError(f"{root} exists and is not empty (use --force to reuse it)")
    before: dict[str, Any] | None = None
    if root.exists() and GameDir(root).game_file.exists():
        before = GameDir(root).read_game()  # its other tables are kept: it must be readable before we write
    settings = settings or TableSettings()
    if setup is not None:
        state = _setup_state(setup, houses, gid, seed, tides_of_battle, position, expansion, house_cards, settings)
    else:
        if houses is None and position is None and settings.random_houses is not None:
            houses = _printed_houses(len(settings.random_houses), expansion)
        state = _initial_state(houses, gid, seed, tides_of_battle, position, board, expansion, house_cards)
        if position is not None:
            _position_keeps_its_settings(position, state, settings)
    apply_settings(state, settings)
    if before is not None:
        _keep_settings_under_way(GameDir(root), before, state)
    info = GameInfo(
        id=gid,
        houses=state.players(),
        created=(now or datetime.now(UTC)).isoformat(timespec="seconds"),
        seed_commitment=rng.commitment(state.rng_seed),
        options=dict(state.options),
        expansion=state.variant if state.box.expansion else "",
    )
    if root.exists():
        _write_game(GameDir(root), info, state)
        return GameDir(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{root.name}.", suffix=".new", dir=root.parent))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)  # as a plain mkdir would have made it
        _write_game(GameDir(tmp), info, state)
        os.rename(tmp, root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return GameDir(root)


def check_expansion(name: str) -> str:
    """The expansion's name as Maester knows it (case and ``_`` forgiven).

    :raises GameDirError: for a name that is not an expansion, with the known ones.
    """
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    if wanted not in expansions():
        raise GameDirError(f"unknown expansion {name!r}; the expansions are {', '.join(expansions())}")
    return wanted


def _initial_state(
    houses: list[str] | None, gid: str, seed: str | None, tides: bool, position: str | Path | None,
    board: Board | None, expansion: str | None, house_cards: str | None = None,
) -> GameState:  # fmt: skip
    # Here, not above: the setups and the position reader are a new game's, not every command's (start-up).
    from ..game.position import read_position
    from ..game.variants import variant

    box = variant(expansion or DEFAULT_BOX)
    if position is None:
        if not houses:
            raise GameDirError("name the houses with --houses (e.g. --houses stark,lannister,baratheon)")
        return box.setup(houses, seed=seed or rng.new_seed(), game_id=gid, tides_of_battle=tides, board=board,
                         house_cards=house_cards or "base")
    state = read_position(position, board=board, seed=seed or rng.new_seed())
    if expansion is not None and state.variant != expansion:
        raise GameDirError(f"--expansion {expansion} disagrees with {position}, which plays "
                           f"{state.variant if state.box.expansion else 'the base game'}; "
                           f"set expansion = \"{expansion}\" there or leave out --expansion")
    if seed is not None and state.rng_seed != seed:
        raise GameDirError(f"{position} fixes its own seed ([rng] seed); leave out --seed")
    if houses and _players(houses, state.variant) != state.players():
        raise GameDirError(f"--houses disagrees with the houses of {position}: {', '.join(state.players())}")
    if tides and not state.options.get("tides_of_battle"):
        raise GameDirError(f"{position} plays without Tides of Battle; set [options] tides_of_battle = true there")
    if house_cards is not None and state.house_deck() != house_cards:
        raise GameDirError(f"--house-cards {house_cards} disagrees with {position}, which deals the "
                           f"{state.house_deck()} house cards; set [options] house_cards = \"{house_cards}\" there")
    state.game_id = gid
    return state


def _setup_state(
    setup: str | Path, houses: list[str] | None, gid: str, seed: str | None, tides: bool,
    position: str | Path | None, expansion: str | None, house_cards: str | None, settings: TableSettings,
) -> GameState:  # fmt: skip
    """A new game laid out from a setup file (:mod:`~adjudicator.game.setup_file`)."""
    if position is not None:
        raise GameDirError("a game starts from a setup or from a position file, not both: give --setup or --position")
    from ..game.setup_file import setup_or_file  # here: a new game's, not every command's (start-up)

    chosen = setup_or_file(str(setup))
    if expansion is not None and chosen.box.name != expansion:
        raise GameDirError(f"--expansion {expansion} disagrees with the setup {chosen.name}, which plays "
                           f"{chosen.box.title}; leave out --expansion")
    for flag, own, asked in (("--rounds", chosen.rounds, settings.rounds),
                             ("--victory-target", chosen.victory_target, settings.victory_target)):
        if own is not None and asked is not None and own != asked:  # the setup's own number is its rule (ruling 446)
            raise GameDirError(f"{flag} {asked} disagrees with the setup {chosen.name}, which plays to {own}; "
                               f"leave out {flag}, or write a setup file of your own (docs/setups.md)")
    if houses is None and settings.random_houses is not None:  # the setup's own houses, else the count's (ruling 451)
        n = len(settings.random_houses)
        if n not in chosen.players:
            raise GameDirError(f"--random-houses names {n} seats, but {chosen.title} is played by "
                               f"{' or '.join(map(str, chosen.players))} players: name one seat a player")
        houses = chosen.fixed_houses(n) or _printed_houses(n, chosen.box.name)
    return chosen.new_game(houses, seed=seed or rng.new_seed(), game_id=gid, tides_of_battle=tides,
                           house_cards=house_cards)


def _write_game(gd: GameDir, info: GameInfo, state: GameState) -> None:
    """Write the files of a new game; ``game.toml`` last, as it marks the folder as a game."""
    gd.root.mkdir(parents=True, exist_ok=True)
    for name in FOLDERS:
        gd.folder(name).mkdir(exist_ok=True)
    gd.seed_file.parent.mkdir(mode=0o700, exist_ok=True)
    os.chmod(gd.seed_file.parent, 0o700)
    fileio.atomic_write_text(gd.seed_file, state.rng_seed + "\n", mode=0o600)
    gd.save_state(state)
    gd.write_table("game", info.to_table())


def _position_keeps_its_settings(position: str | Path, state: GameState, settings: TableSettings) -> None:
    """A flag may add a setting to a position file, never change one it names (as ``--house-cards``).

    :raises GameDirError: naming the position's own value.
    """
    for key, flag, asked in (("rounds", "--rounds", settings.rounds), ("victory_target", "--victory-target",
                             settings.victory_target), ("random_houses", "--random-houses", settings.random_houses)):
        own = state.options.get(key)
        if own is not None and asked is not None and (key == "random_houses" or own != asked):
            raise GameDirError(f"{flag} disagrees with {position}, which sets [options] {key} already; "
                               f"leave out {flag}, or change it there")


def _keep_settings_under_way(gd: GameDir, before: dict[str, Any], state: GameState) -> None:
    """A game under way keeps its table settings (ruling 449): ``--force`` may not start it again with others.

    :raises GameDirError: when the folder has a resolved step and a setting would change.
    """
    steps = sorted(gd.folder("states").glob("[0-9][0-9][0-9][0-9].toml")) if gd.folder("states").is_dir() else []
    table = before.get("game")
    if not steps or not isinstance(table, dict) or not isinstance(table.get("options", {}), dict):
        return
    differ = setting_difference(table.get("options", {}), state.options)
    if differ is not None:
        key, was, now = differ
        raise GameDirError(f"{gd.root} holds a game under way ({len(steps)} step(s) in states/), set up with {key} = "
                           f"{was}: a table setting cannot change during a game (ruling 449), so --force will not "
                           f"make it {now}; start the new game in a new folder")


def _printed_houses(count: int, box_name: str | None) -> list[str]:
    """The houses the rulebook seats for ``count`` players: random houses deal them to the seats (ruling 450).

    :raises GameDirError: for a box whose houses the players choose, or a count it has no setup for.
    """
    box = box_named(box_name or DEFAULT_BOX)
    setups = Board.classic().setups
    if count not in setups and not box.has("vassals"):
        raise GameDirError(f"--random-houses names {count} seats, but {box.title[:1].upper()}{box.title[1:]} is played "
                           f"by {min(setups)} to {max(setups)} players: name one seat a player")
    if box.has("vassals"):
        raise GameDirError(f"name the houses in play with --houses: {box.title} with {count} players does not "
                           "say which houses play, and --random-houses deals the houses in play to the seats")
    return list(setups[count].houses)


def _players(houses: list[str], name: str) -> list[str]:
    """The players' houses as the box's setup reads them (canonical order)."""
    from ..game.mod_setup import check_mod_houses  # here: a new game's setups, not every command's (start-up)
    from ..game.setup import check_houses

    return check_mod_houses(houses) if box_named(name).has("vassals") else check_houses(houses, Board.classic())
