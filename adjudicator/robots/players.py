"""Robot players: random legal answers, written as sealed turn files, through the real text path.

A robot reads the open requests addressed to it, picks uniformly among the legal options (or
composes a plausible answer for composite decisions such as orders and marches), now and then
adds an illegal answer or a standing instruction to exercise those paths, prints the answers as
turn-file text, seals the file with its own key and drops it into the game's inbox. The game is
then advanced by exactly the code the moderator runs (:func:`adjudicator.folder.batch.adjudicate`).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..engine.core.context import Request
from ..game.board import Board
from ..game.cards import CARDS
from ..game.commands import (
    SPECIAL_TOKENS,
    AssignOrder,
    Bid,
    Casualties,
    Command,
    DistributeBid,
    Gift,
    Give,
    LeaveUnordered,
    March,
    Move,
    Muster,
    MusterAction,
    PlayCard,
    Raid,
    Raven,
    Support,
    TieBreak,
    UnitSpec,
    UseBlade,
)
from ..game.maps import CLASSIC
from ..game.state import GameState
from ..seals.seal import sign
from ..turnfile.header import Header, format_header
from ..turnfile.printer import format_command


def robot_key(seed: str, house: str) -> Ed25519PrivateKey:
    """A robot's key, derived from the game's seed so that a simulated game is reproducible."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"robot:{seed}:{house}".encode()).digest())


@dataclass
class Robot:
    """One robot player: its house, key, random source and the decisions it already got wrong."""

    house: str
    key: Ed25519PrivateKey
    rng: random.Random
    chaos: float = 0.05  # how often it adds an illegal answer or a standing instruction
    seq: int = 0
    tried: dict[str, int] = field(default_factory=dict)  # request key -> attempts so far

    def commands(self, state: GameState, requests: list[Request], board: Board) -> list[Command]:
        """This robot's answers to its open requests (empty when it has none)."""
        mine = [r for r in requests if r.house == self.house]
        if not mine:
            return []
        commands: list[Command] = []
        for req in mine:
            n = self.tried.get(req.key, 0)
            self.tried[req.key] = n + 1
            # After a refused answer, fall back to the request's default, which is always legal.
            commands.extend(_default(req) if n >= 2 else self.answer(state, req, board))
        commands.extend(self.mischief(state, board))
        return commands

    def turn_file(self, state: GameState, requests: list[Request], board: Board, game_id: str) -> str | None:
        """The sealed turn file answering this robot's open requests, or None if it has none."""
        commands = self.commands(state, requests, board)
        if not commands:
            return None
        self.seq += 1
        header = Header(game_id, self.house, state.round, state.phase, self.seq)
        lines = [format_header(header)] + [format_command(c) for c in commands]
        return sign("\n".join(lines) + "\n", self.key)

    # --- choosing ------------------------------------------------------------------------

    def answer(self, state: GameState, req: Request, board: Board) -> list[Command]:
        compose = _COMPOSERS.get(req.kind)
        if compose is not None:
            return compose(self, state, req, board)
        if req.options:
            return [self.rng.choice(req.options)]
        return _default(req)

    def mischief(self, state: GameState, board: Board) -> list[Command]:
        """Now and then an illegal answer, or a standing instruction for later in the round: each
        gets a verdict (used, refused or not needed) by the end of its round (ruling 160)."""
        if self.rng.random() >= self.chaos:
            return []
        if state.variant != CLASSIC and self.rng.random() < 0.2:  # Mother of Dragons: a gift (M121)
            others = [h for h in state.players() if h != self.house]
            return [Give(power=1 + self.rng.randrange(2), to=self.rng.choice(others))]
        roll = self.rng.random()
        land = [a.id for a in board.land_areas()]
        if roll < 0.3:
            return [Support(side=self.house)]  # support myself in every combat
        if roll < 0.5:
            power = state.houses[self.house].power
            return [Bid(track="wildlings", amount=power + 1 + self.rng.randrange(3))]  # above available power
        if roll < 0.6:
            return [Raid(origin=self.rng.choice(land), targets=(None,))]  # most likely no raid order there
        if roll < 0.7:  # a tie-break order, used only when this house holds the Iron Throne at a tie
            return [TieBreak(order=tuple(self.rng.sample(state.houses_in_play, len(state.houses_in_play))))]
        if roll < 0.8:
            return [UseBlade(use=True)]  # refused unless this house holds the Blade, unused, in a combat
        if roll < 0.9:
            return [Raven(action="look")]  # refused unless this house holds the Raven
        others = sorted(c for c in CARDS.house_cards if CARDS.house_cards[c].house != self.house)
        return [PlayCard(card=self.rng.choice(others))]  # another house's card: refused (R192)


def _default(req: Request) -> list[Command]:
    """The request's documented default as answers (a composite default is several lines)."""
    if req.default is None:
        return []
    return list(req.default) if isinstance(req.default, tuple) else [req.default]


def _orders(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    ctx = req.context
    areas: list[str] = list(ctx.get("areas", []))
    bag = [t for t, n in dict(ctx.get("tokens", {})).items() for _ in range(int(n))]
    robot.rng.shuffle(bag)
    specials = int(ctx.get("special_orders_allowed", 0))
    to_place = int(ctx.get("orders_to_place", len(areas)))
    chosen: list[Command] = []
    order = list(areas)
    robot.rng.shuffle(order)
    for area in order:
        token = None
        while bag:
            t = bag.pop()
            if t in SPECIAL_TOKENS:
                if specials == 0:
                    continue
                specials -= 1
            token = t
            break
        if token is None or len(chosen) >= to_place:
            chosen.append(LeaveUnordered(area=area))
        else:
            chosen.append(AssignOrder(area=area, token=token))
    return chosen


def _march(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    ctx = req.context
    origins = sorted(dict(ctx.get("march_orders", {})))
    if not origins:
        return _default(req)
    origin = robot.rng.choice(origins)
    units: list[str] = list(dict(ctx.get("units", {})).get(origin, []))
    dests: list[str] = list(dict(ctx.get("destinations", {})).get(origin, []))
    if not units or not dests or robot.rng.random() < 0.25:
        return [March(origin=origin)]
    attacked: str | None = None
    moves: dict[str, list[str]] = {}
    for unit in units:
        fits = [d for d in dests if board.area(d).is_land == (unit != "ship")]
        if not fits or robot.rng.random() < 0.35:
            continue
        dest = robot.rng.choice(fits)
        hostile = bool(state.area(dest).neutral_force) or any(u.house != robot.house for u in state.area(dest).units)
        if hostile:
            if attacked not in (None, dest):
                continue  # one attack per march (R146)
            attacked = dest
        moves.setdefault(dest, []).append(unit)
    built = tuple(
        Move(units=tuple(UnitSpec(u, n) for u, n in sorted(_count(us).items())), destination=d)
        for d, us in sorted(moves.items())
    )
    leave = bool(built) and robot.rng.random() < 0.3 and board.area(origin).is_land
    return [March(origin=origin, moves=built, leave_power=leave)]


def _count(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return out


def _muster(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    ctx = req.context
    area = str(ctx.get("area", ""))
    points = int(ctx.get("points", 0))
    choices: list[tuple[int, MusterAction]] = []
    for unit in ctx.get("units", []):
        choices.append((1 if unit == "footman" else 2, MusterAction(unit=unit)))
    for unit in ctx.get("upgrades", []):
        choices.append((1, MusterAction(unit=unit, upgrade=True)))
    for to in ctx.get("ship_to", []):
        choices.append((1, MusterAction(unit="ship", to=to)))
    actions: list[MusterAction] = []
    robot.rng.shuffle(choices)
    for cost, action in choices:
        if cost <= points and robot.rng.random() < 0.7:
            actions.append(action)
            points -= cost
    return [Muster(area=area, actions=tuple(actions))]


def _bid(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    power = int(req.context.get("available_power", state.houses[robot.house].power))
    track = req.default.track if isinstance(req.default, Bid) else "wildlings"
    amount = min(power, int(robot.rng.random() ** 2 * (power + 1)))  # mostly small bids
    return [Bid(track=track, amount=amount)]


def _distribute(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    """Targaryen's bid, split at random among a few other houses (M100)."""
    houses = list(req.context.get("houses", []))
    bid = int(req.context.get("bid", 0))
    if not houses or bid < 1:
        return _default(req)
    shares: dict[str, int] = {}
    for _ in range(bid):
        h = robot.rng.choice(houses[:3])
        shares[h] = shares.get(h, 0) + 1
    return [DistributeBid(track=str(req.context.get("track")), gifts=tuple(Gift(h, n) for h, n in shares.items()))]


def _tie_break(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    tied = list(req.context.get("tied", []))
    robot.rng.shuffle(tied)
    context = req.context.get("tie")
    return [TieBreak(order=tuple(tied), context=context if isinstance(context, str) else None)]


def _casualties(robot: Robot, state: GameState, req: Request, board: Board) -> list[Command]:
    have: dict[str, Any] = dict(req.context.get("units", {}))
    pool = [u for u, n in sorted(have.items()) for _ in range(int(n))]
    robot.rng.shuffle(pool)
    count = int(req.context.get("count", 0))
    picked = pool[:count]
    return [Casualties(units=tuple(UnitSpec(u, n) for u, n in sorted(_count(picked).items())))]


_COMPOSERS = {
    "orders": _orders,
    "march": _march,
    "muster": _muster,
    "bid": _bid,
    "tie_break": _tie_break,
    "distribute": _distribute,
    "casualties": _casualties,
}
