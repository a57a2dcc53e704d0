"""``maester simulate``: a whole game played by robots through every layer of the real product.

Each step the robots read their open requests, write and seal turn files into the inbox, and the
game folder is adjudicated by :func:`adjudicator.folder.batch.adjudicate`, exactly as a moderator would.
The invariants (:mod:`adjudicator.engine.invariants`) are checked after every step. A simulated game
folder is disposable, so its writes skip fsync (:func:`adjudicator.util.fileio.relaxed`); they stay atomic.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.core.context import Request, pool_entry
from ..engine.invariants import check_change, check_invariants, judged_ids, unjudged, unruled
from ..engine.machine import advance
from ..folder import batch, registry
from ..folder.gamedir import create_game
from ..game.board import Board
from ..game.boxes import DEFAULT_BOX, box_named
from ..game.mod_board import WESTEROSI
from ..game.setup_file import setup_or_file
from ..game.state import GameState
from ..game.variants import variant
from ..seals.keys import PublicKey
from ..util import fileio
from .players import Robot, robot_key

MAX_STEPS = 4000  # a ten-round game takes a few hundred; more means the game is stuck
STALL_LIMIT = 3  # adjudications without progress before the moderator calls a deadline


@dataclass
class SimResult:
    players: int
    seed: int
    winner: str | None
    round: int
    steps: int
    deadlines: int
    problems: list[str] = field(default_factory=list)
    folder: Path | None = None
    # One entry per mail round in which a house had to answer: (round, step, kinds asked), in order.
    mail_rounds: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)

    def final_line(self) -> str:
        if self.winner:
            return f"winner: {self.winner} in round {self.round} ({self.steps} steps, {self.deadlines} deadlines)"
        return f"no winner: stopped in round {self.round} after {self.steps} steps"


def simulate(
    players: int,
    seed: int,
    *,
    rounds: int | None = None,
    out: Path | None = None,
    tides_of_battle: bool = False,
    chaos: float = 0.05,
    text: bool = True,
    on_step: Callable[[GameState], None] | None = None,
    ahead: bool = False,
    expansion: str | None = None,
    targaryen: bool = True,
    standing: bool = False,
    house_cards: str = "base",
    setup: str | None = None,
) -> SimResult:
    """Play one game with robots; stop at the winner or after ``rounds`` rounds.

    ``expansion`` plays Mother of Dragons (7 and 8 players always do); ``targaryen`` says whether a
    player takes Targaryen there (with 4 players or more; 8 players always do). A vassal's decisions
    go to the robot of the player commanding it, which answers them as ``for VASSAL:`` lines (M030).

    With ``text`` (the default) every answer goes through the whole product: turn-file text,
    seal, inbox, :func:`adjudicator.folder.batch.adjudicate`, reports. Without it the robots' answers go
    straight to the engine (:func:`adjudicator.engine.machine.advance`): the fast path for soaks.
    ``out`` keeps the game folder (it must not exist yet); otherwise a temporary one is removed.
    The text path writes without fsync (:func:`adjudicator.util.fileio.relaxed`): the folder is a
    simulation's, not a real game's. Every broken invariant is collected in ``problems`` (the game
    stops at the first). With ``ahead`` the robots also answer every decision coming up for them
    (:mod:`adjudicator.engine.ahead`) as early as the turn-file language allows; ``mail_rounds``
    records each mail round in which a house had to answer. With ``standing`` (and ``ahead``) they
    also send standing instructions with their orders each round (ruling 353,
    :mod:`adjudicator.robots.standing_robot`), for the decisions of the rounds to come.
    ``house_cards`` is the house deck dealt (``adwd``: A Dance with Dragons' cards, ruling 370).
    ``setup`` starts from a shipped setup or a setup file (``docs/setups.md``): its houses for
    ``players`` where it names them, and its box.
    """
    if setup is not None:
        chosen = setup_or_file(setup)
        expansion = chosen.box.name if chosen.box.expansion else None
        fixed = chosen.fixed_houses(players) if players in chosen.players else None
        houses = fixed or sim_houses(players, expansion, targaryen)
    else:
        houses = sim_houses(players, expansion, targaryen)
    if expansion is None and players > 6:
        expansion = "mother-of-dragons"  # the box that seats 7 or 8 players
    if not text:
        return _play_engine(houses, seed, rounds, tides_of_battle, chaos, expansion, on_step, ahead, house_cards,
                            standing, setup)
    tmp = None
    if out is None:
        tmp = Path(tempfile.mkdtemp(prefix="maester-sim-"))
        root = tmp / f"sim-{players}p-{seed}"
    else:
        root = Path(out)
    try:
        with fileio.relaxed():
            return _play(root, houses, seed, rounds, tides_of_battle, chaos, expansion, on_step, ahead, house_cards,
                         standing, setup)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


class _Table:
    """Where the robots' answers go: a game folder through the whole product, or the engine alone."""

    def start(self) -> GameState:
        raise NotImplementedError

    def play(self, state: GameState, requests: list[Request], deadline: frozenset[str]) -> GameState:
        """Hand in the robots' answers (or, with ``deadline``, the defaults of those requests)."""
        raise NotImplementedError

    def problems(self, state: GameState) -> list[str]:
        """What went wrong at the table itself (beyond the state's invariants)."""
        return []


class _Folder(_Table):
    """Turn files as text, sealed, dropped in the inbox and adjudicated as a moderator would."""

    def __init__(self, root: Path, houses: list[str], seed: int, tides: bool, robots: dict[str, Robot],
                 expansion: str | None, house_cards: str = "base", setup: str | None = None):  # fmt: skip
        self.gd = create_game(root, houses=houses, game_id=root.name, seed=f"sim-{seed}", tides_of_battle=tides,
                              expansion=expansion, house_cards=None if setup and house_cards == "base" else house_cards,
                              setup=setup)  # fmt: skip
        for h, robot in robots.items():
            registry.register_key(self.gd.root, h, PublicKey.from_key(robot.key, f"robot {h}"))
        self.robots, self.board, self.game_id = robots, self.gd.load_state().board(), self.gd.info().id

    def start(self) -> GameState:
        return _written(batch.adjudicate(self.gd.root))  # the engine asks for round 1's orders

    def play(self, state: GameState, requests: list[Request], deadline: frozenset[str]) -> GameState:
        if deadline:
            return _written(batch.adjudicate(self.gd.root, deadline=True))
        for house, robot in self.robots.items():
            text = robot.turn_file(state, requests, self.board, self.game_id)
            if text is not None:
                fileio.atomic_write_text(self.gd.folder("inbox") / f"{house}-{robot.seq:04d}.txt", text)
        return _written(batch.adjudicate(self.gd.root))


class _Engine(_Table):
    """The robots' commands straight into :func:`advance`: no text, seals or reports."""

    def __init__(self, state: GameState, robots: dict[str, Robot]):
        self.state, self.robots, self.board, self.n = state, robots, state.board(), 0
        self.sent: dict[str, int] = {}  # every answer handed in, by pool id: its round
        self.judged: set[str] = set()  # the answers a step's events gave a verdict on
        self.unruled: list[str] = []  # the last step's refusals that name no rule (ruling 162)

    def start(self) -> GameState:
        return advance(self.state, board=self.board).state

    def play(self, state: GameState, requests: list[Request], deadline: frozenset[str]) -> GameState:
        answers = []
        for house, robot in ([] if deadline else self.robots.items()):
            for cmd in robot.commands(state, requests, self.board):
                self.n += 1
                answers.append(pool_entry(id=f"{house}/{state.round}.{state.phase}/a{self.n}", house=house,
                                          round=state.round, command=cmd))
                self.sent[answers[-1]["id"]] = state.round
        step = advance(state, answers, deadline=deadline or False, board=self.board)
        self.judged |= judged_ids(step.events)
        self.unruled = unruled(step.events)
        return step.state

    def problems(self, state: GameState) -> list[str]:
        """Every answer whose round ended without a verdict (ruling 160); refusals naming no rule (162)."""
        late = unjudged(self.sent, self.judged, state)
        for line in late:  # each told once
            self.judged.add(line.split()[1])
        return late + self.unruled


def _robots(houses: list[str], seed: int, chaos: float, ahead: bool = False, standing: bool = False) -> dict[str, Robot]:
    rng = random.Random(seed)
    # Robots answering ahead also check their answers first, as a player does with 'maester check'.
    return {h: Robot(h, robot_key(str(seed), h), random.Random(rng.random()), chaos=chaos, ahead=ahead, careful=ahead,
                     standing=ahead and standing)
            for h in houses}


def _play(root: Path, houses: list[str], seed: int, rounds: int | None, tides: bool, chaos: float,
          expansion: str | None, on_step: Callable[[GameState], None] | None, ahead: bool = False,
          house_cards: str = "base", standing: bool = False, setup: str | None = None) -> SimResult:  # fmt: skip
    robots = _robots(houses, seed, chaos, ahead, standing)
    result = SimResult(players=len(houses), seed=seed, winner=None, round=1, steps=0, deadlines=0,
                       folder=None if root.parent.name.startswith("maester-sim-") else root)
    table = _Folder(root, houses, seed, tides, robots, expansion, house_cards, setup)
    return _loop(table, result, rounds, table.board, on_step)


def _play_engine(houses: list[str], seed: int, rounds: int | None, tides: bool, chaos: float,
                 expansion: str | None, on_step: Callable[[GameState], None] | None, ahead: bool = False,
                 house_cards: str = "base", standing: bool = False, setup: str | None = None) -> SimResult:  # fmt: skip
    """The same game with no text, seals or reports: robots answer the engine directly."""
    if setup is not None:
        state = setup_or_file(setup).new_game(houses, seed=f"sim-{seed}", game_id=f"sim-{seed}", tides_of_battle=tides,
                                              house_cards=None if house_cards == "base" else house_cards)
    else:
        state = variant(expansion or DEFAULT_BOX).setup(houses, seed=f"sim-{seed}", game_id=f"sim-{seed}",
                                                    tides_of_battle=tides, house_cards=house_cards)  # fmt: skip
    # The players' robots first, in the order the text path seeds them (the same random streams, so
    # the same game), then a vassal's, which stand in for its commander.
    robots = _robots([*houses, *(h for h in state.houses_in_play if h not in houses)], seed, chaos, ahead, standing)
    result = SimResult(players=len(houses), seed=seed, winner=None, round=1, steps=0, deadlines=0)
    table = _Engine(state, robots)
    return _loop(table, result, rounds, table.board, on_step)


def sim_houses(players: int, expansion: str | None = None, targaryen: bool = True) -> list[str]:
    """The houses of a simulated game: the rulebook's for a classic count (in any box without
    vassals); with Mother of Dragons (always for 7 or 8) the first Westerosi houses, and Targaryen
    when it may and ``targaryen``.

    >>> sim_houses(3), sim_houses(4, "mother-of-dragons")
    (['stark', 'lannister', 'baratheon'], ['stark', 'lannister', 'greyjoy', 'targaryen'])
    >>> sim_houses(4, "mother-of-dragons", targaryen=False)
    ['stark', 'lannister', 'greyjoy', 'tyrell']
    """
    box = box_named(expansion or DEFAULT_BOX)
    if not box.has("vassals") and players <= 6:  # the count's houses on the box's map (A Feast for Crows: Arryn)
        return list(box.board(box.houses).setups[players].houses)
    with_targaryen = players == 8 or (targaryen and players >= 4)
    return [*WESTEROSI[: players - 1], "targaryen"] if with_targaryen else list(WESTEROSI[:players])


def _loop(table: _Table, result: SimResult, rounds: int | None, board: Board,
          on_step: Callable[[GameState], None] | None) -> SimResult:
    """Step until the game is won, ``rounds`` are played, or an invariant breaks.

    A moderator calls a deadline for the requests open when the robots made no progress for
    :data:`STALL_LIMIT` steps (each robot falls back to the default after two refused answers).
    """
    state = table.start()
    stalled, last_keys = 0, None
    while state.phase != "game_over" and result.steps < MAX_STEPS:
        if rounds is not None and state.round > rounds:
            break
        requests = [Request.from_dict(p) for p in state.pending]
        keys = sorted(r.key for r in requests)
        stalled = stalled + 1 if keys == last_keys else 0
        last_keys = keys
        deadline = frozenset(keys) if stalled >= STALL_LIMIT else frozenset()
        if deadline:
            result.deadlines += 1
            stalled = 0
        if requests:
            result.mail_rounds.append((state.round, state.phase, tuple(sorted({r.kind for r in requests}))))
        before, state = state, table.play(state, requests, deadline)
        result.steps += 1
        if on_step:
            on_step(state)
        problems = check_invariants(state, board) + check_change(before, state) + table.problems(state)
        if problems:
            result.problems = [f"step {result.steps}, round {state.round} {state.phase}: {p}" for p in problems]
            break
    if result.steps >= MAX_STEPS:
        result.problems.append(f"no end after {MAX_STEPS} steps")
    result.winner = state.winner
    result.round = state.round
    return result


def _written(run: batch.RunResult) -> GameState:
    """The state a run wrote to ``state.toml``, as the run holds it (not read back from the file, nor
    copied: the robots and the checks only read it, as they read the engine's states)."""
    assert run.latest is not None, "a run that returns has written a state"
    return run.latest
