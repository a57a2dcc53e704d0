"""Robot players: random legal answers, written as sealed turn files, through the real text path.

A robot reads the open requests addressed to it, picks uniformly among the legal options (or
composes a plausible answer for composite decisions such as orders and marches), now and then
adds an illegal answer or a standing instruction to exercise those paths, prints the answers as
turn-file text, seals the file with its own key and drops it into the game's inbox. The game is
then advanced by exactly the code the moderator runs (:func:`adjudicator.folder.batch.adjudicate`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..engine.ahead import own_orders, upcoming
from ..engine.core.context import Request
from ..engine.core.mustering import check_muster, mustered
from ..engine.rules.marches import plan_march
from ..game.board import Board
from ..game.cards import CARDS
from ..game.commands import (
    MOVE_ELSE,
    SPECIAL_TOKENS,
    AssignOrder,
    Bid,
    Casualties,
    Command,
    CommandVassal,
    DistributeBid,
    ForVassal,
    Gift,
    IronBank,
    LeaveUnordered,
    March,
    Move,
    Muster,
    MusterAction,
    PlayCard,
    Raid,
    Raven,
    RavenKeep,
    SpymasterChoice,
    Standing,
    Support,
    TieBreak,
    UnitSpec,
    UseBlade,
    WesterosChoice,
)
from ..game.hooks import hooked
from ..game.state import AreaState, GameState, Order
from ..seals.seal import sign
from ..turnfile.header import Header, format_header
from ..turnfile.printer import format_command

# The card sets a robot's "wrong card" comes from: those of the base game's and Mother of Dragons' boxes,
# not the whole catalogue, so that a new box's cards leave the seeded games of the older boxes as they were.
WRONG_CARD_SETS = frozenset({"base", "arryn_mod", "targaryen_a", "targaryen_b", "arryn_affc", "vassal"})
WRONG_CARD_POOL: tuple[str, ...] = tuple(sorted(c.id for c in CARDS.house_cards.values() if c.set in WRONG_CARD_SETS))


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
    ahead: bool = False  # also answer what comes up later in the step (engine/ahead.py), as early as it can
    careful: bool = False  # check its mustering, marches and bids as 'maester check' would before sending
    ahead_done: set[str] = field(default_factory=set)  # keys of the decisions it answered ahead
    last_step: tuple[int, str] | None = None  # the step of its last file: a next one for it adds (ruling 120)
    mustered: dict[tuple[int, str, int], GameState] = field(default_factory=dict)  # the board after its musters of the step
    standing: bool = False  # also send standing instructions for the decisions of rounds to come (ruling 353)
    standing_round: int = 0  # the round it last sent them in
    tried_standing: bool = False  # it sent the lines it sends once

    def commands(self, state: GameState, requests: list[Request], board: Board) -> list[Command]:
        """This robot's answers to its open requests (empty when it has none), and, answering
        ahead, to the decisions coming up for it that it has not answered yet."""
        mine = [r for r in requests if r.house == self.house]
        if not mine and not self.ahead:
            return []
        commands: list[Command] = []
        for req in mine:
            n = self.tried.get(req.key, 0)
            self.tried[req.key] = n + 1
            # After a refused answer, fall back to the request's default, which is always legal.
            answers = _default(req) if n >= 2 else self.answer(state, req, board)
            if req.vassal:  # a vassal's decision, answered by its commander (M030)
                answers = [ForVassal(vassal=req.vassal, command=c) for c in answers]
            commands.extend(answers)
        if self.ahead:
            commands.extend(self.answer_ahead(state, requests, board, commands))
            commands.extend(self.later_sets(state, mine))
        if self.standing and self.standing_round != state.round and any(r.kind == "orders" and not r.vassal for r in mine):
            self.standing_round = state.round
            commands.extend(Standing(command=c) for c in standing_lines(self, state, board, commands))
        elif self.standing and self.standing_round == state.round and state.phase == "action":
            from .standing_robot import refreshed

            commands.extend(Standing(command=c) for c in refreshed(self, state, board))
        if self.careful:
            commands = _within_power(state, self.house, commands)
        commands = self.distributing(commands)
        if self.ahead and any(isinstance(c, IronBank) and c.loan == "spymaster" for c in commands) \
                and not any(isinstance(c, SpymasterChoice) for c in commands):
            commands.append(self.spymaster_ahead())
        if commands:
            commands.extend(self.mischief(state, board))
        return commands

    def answer_ahead(self, state: GameState, requests: list[Request], board: Board, sent: list[Command]) -> list[Command]:
        """Answers to every decision coming up for this robot, each once (ruling 124)."""
        orders = {c.area: c.token for c in sent if isinstance(c, AssignOrder)} or None
        vassal_orders: dict[str, dict[str, str]] = {}
        for c in sent:  # the orders it gives its vassals in this file (Mother of Dragons)
            if isinstance(c, ForVassal) and isinstance(c.command, AssignOrder):
                vassal_orders.setdefault(c.vassal, {})[c.command.area] = c.command.token
        # An order answered for the request asked now is not answered again (raids, marches, consolidations).
        done = {(c.kind, getattr(c, "origin", None) or getattr(c, "area", None)) for c in sent}
        done |= {(c.command.kind, getattr(c.command, "origin", None) or getattr(c.command, "area", None))
                 for c in sent if isinstance(c, ForVassal)}
        out: list[Command] = []
        for up in upcoming(state, self.house, requests, board=board, orders=orders,
                           vassal_orders=vassal_orders or None):
            req = up.request
            subject = req.context.get("origin") or req.context.get("area")
            if req.key in self.ahead_done or (subject is not None and (req.kind, subject) in done):
                continue
            self.ahead_done.add(req.key)
            if req.kind == "distribute":  # what it bids in this file is what it gives away (M100)
                req = _with_bid(req, [*sent, *out])
            composer = _AHEAD.get(req.kind)
            answers = composer(self, req) if composer else self.answer(state, req, board)
            out.extend(ForVassal(vassal=req.vassal, command=c) if req.vassal else c for c in answers)
        return out + self.vassal_combats(state, requests, board, vassal_orders)

    def vassal_combats(self, state: GameState, requests: list[Request], board: Board,
                       given: dict[str, dict[str, str]]) -> list[Command]:
        """For each vassal it commands that may fight this round: a preference over the vassal deck
        (a line per card, ruling 361) and its Blade, once a round."""
        out: list[Command] = []
        for vassal in sorted(v for v, c in state.commanders.items() if c == self.house):
            from ..engine.ahead_mod import vassal_combat  # the expansion's, read only where vassals play

            orders = own_orders(state, self.house, given.get(vassal), vassal)
            for up in vassal_combat(state, board, self.house, vassal, orders):
                key = f"vassal.r{state.round}.{up.request.kind}.{vassal}"
                if key in self.ahead_done or any(r.vassal == vassal and r.kind == up.request.kind for r in requests):
                    continue
                self.ahead_done.add(key)
                composer = _AHEAD[up.request.kind]
                out += [ForVassal(vassal=vassal, command=c) for c in composer(self, up.request)]
        return out

    def spymaster_ahead(self) -> Command:
        """Where the two cards Spymaster shows go, sent with the Iron Bank answer taking it: they are
        unknown, so an order of places only (ruling 225); a deck of one card refuses it and asks."""
        return self.rng.choice((SpymasterChoice(top=(1, 2)), SpymasterChoice(top=(2, 1)),
                                SpymasterChoice(bottom=(1, 2)), SpymasterChoice(top=(1,), bottom=(2,))))

    def later_sets(self, state: GameState, mine: list[Request]) -> list[Command]:
        """Asked to choose a vassal with one set: its choice for each set passed on to it later in
        this Planning Phase (M035, M036), sent now."""
        asked = next((r for r in mine if r.kind == "vassal_choice" and not r.vassal), None)
        if asked is None:
            return []
        free = [v for v in state.turn_order() if v in state.vassals and v not in state.commanders]
        return _vassal_choice_ahead(self, dataclasses.replace(asked, context={"vassals": free}))[1:]

    def distributing(self, commands: list[Command]) -> list[Command]:
        """Targaryen's distributions sent with its bids, each giving exactly the bid of its track in the
        same file (M100, ruling 298): dropped for a bid of 0, split anew for another amount."""
        bids = {c.track: c.amount for c in commands if isinstance(c, Bid)}
        out: list[Command] = []
        for c in commands:
            if isinstance(c, DistributeBid) and c.track in bids and bids[c.track] != sum(g.amount for g in c.gifts):
                if bids[c.track] == 0:
                    continue
                houses = [g.house for g in c.gifts]
                shares = dict.fromkeys(houses, 0)
                for _ in range(bids[c.track]):
                    shares[self.rng.choice(houses)] += 1
                c = DistributeBid(track=c.track, gifts=tuple(Gift(h, n) for h, n in shares.items() if n))
            out.append(c)
        return out

    def turn_file(self, state: GameState, requests: list[Request], board: Board, game_id: str) -> str | None:
        """The sealed turn file answering this robot's open requests, or None if it has none."""
        commands = self.commands(state, requests, board)
        if not commands:
            return None
        self.seq += 1
        step = (state.round, state.phase)
        # Answering ahead, a second file for a step adds to the first: its answers wait for later decisions.
        header = Header(game_id, self.house, state.round, state.phase, self.seq, add=self.ahead and step == self.last_step)
        self.last_step = step
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
        for box_mischief in hooked("robot_mischief", state.box):  # a box's own (Mother of Dragons: a gift, M121)
            found: list[Command] = box_mischief(self.rng, self.house, state)
            if found:
                return found
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
        others = [c for c in WRONG_CARD_POOL if CARDS.house_cards[c].house != self.house]
        return [PlayCard(card=self.rng.choice(others))]  # another house's card: refused (R192)


def _within_power(state: GameState, house: str, commands: list[Command]) -> list[Command]:
    """The bids of one file, in the order they resolve, cut to what the house can pay in all (every
    bid is paid, R086, R101), its bids sent earlier and still waiting counted first."""
    used = set(state.segment.used) if state.segment else set()
    waiting = sum(int(a["command"].get("amount", 0)) for a in state.answers  # standing bids are for rounds to come
                  if a["house"] == house and a["id"] not in used and a["command"].get("type") == "Bid"
                  and not a.get("standing"))
    left = max(0, state.houses[house].power - waiting)
    out: list[Command] = []
    for c in commands:
        if isinstance(c, Bid):
            c = Bid(track=c.track, amount=min(c.amount, left))
            left -= c.amount
        out.append(c)
    return out


def _march_ok(state: GameState, board: Board, house: str, cmd: March, token: str) -> bool:
    """Whether a march would be legal on the board as it stands, with its order in place."""
    trial = copy.copy(state)
    trial.areas = dict(state.areas)
    here = state.area(cmd.origin)
    trial.areas[cmd.origin] = AreaState(list(here.units), here.order or Order(house, token), here.power_token,
                                        here.garrison, here.neutral_force)
    return plan_march(trial, board, house, cmd)[0] is None


def _with_bid(req: Request, sent: list[Command]) -> Request:
    """A distribution coming up, for the bid of its track the file sends (the newest line is used),
    else as the game holds it: a bid sent now replaces the one waiting."""
    bids = [c.amount for c in sent if isinstance(c, Bid) and c.track == req.context.get("track")]
    return dataclasses.replace(req, context={**req.context, "bid": bids[-1]}) if bids else req


def _support_ahead(robot: Robot, req: Request) -> list[Command]:
    """A side for every combat the support order may join: "none" first, then the side it prefers
    (the newest fitting line is used; a house not in the combat does not fit, and "none" does)."""
    sides = [o for o in req.options if isinstance(o, Support) and o.side != "none"]
    return [req.options[-1], robot.rng.choice(sides)] if sides else list(req.options[-1:])


def _cards_ahead(robot: Robot, req: Request) -> list[Command]:
    """Every card in hand, in an order of its own: each line is used once, the last first."""
    cards = list(req.options)
    robot.rng.shuffle(cards)
    return cards


def _raven_card_ahead(robot: Robot, req: Request) -> list[Command]:
    """Where the card seen goes, as a conditional on the card (ruling 123)."""
    cards = list(req.context.get("cards", []))
    picked = tuple(sorted(robot.rng.sample(cards, k=min(len(cards), robot.rng.randrange(1, 4))))) if cards else ()
    return [RavenKeep(choice="bottom", cards=picked)] if picked else [RavenKeep(choice="top")]


def _vassal_choice_ahead(robot: Robot, req: Request) -> list[Command]:
    """Every vassal named, in an order of its own: the first still free is taken (ruling 296); now and
    then it would rather pass the set on than take the last ones."""
    picks: list[str | None] = list(req.context.get("vassals", []))
    robot.rng.shuffle(picks)
    if picks and robot.rng.random() < 0.3:
        picks.insert(robot.rng.randrange(1, len(picks) + 1), None)
        picks = picks[:picks.index(None) + 1]
    line = CommandVassal(vassal=picks[0], otherwise=tuple(picks[1:]) or None) if picks else CommandVassal(vassal=None)
    # A line for each set that may come to it: its own and those passed on to it (M035, M036); each is used once.
    return [line] * max(1, len(req.context.get("vassals", [])))


def _choice_ahead(robot: Robot, req: Request) -> list[Command]:
    """A Westeros card's choice; a loyalty-token move with two fall-backs, as the token named first may
    be gone by its turn (ruling 295)."""
    if not req.options:
        return _default(req)
    if req.context.get("part") != "move" or len(req.options) < 2:
        return [robot.rng.choice(req.options)]
    by_origin: dict[str, list[str]] = {}
    for o in req.options:  # fall-backs from other areas: an earlier move empties one area, not all
        if isinstance(o, WesterosChoice):
            by_origin.setdefault(o.option.split("+")[0], []).append(o.option)
    origins = robot.rng.sample(sorted(by_origin), k=min(3, len(by_origin)))
    moves = [robot.rng.choice(by_origin[a]) for a in origins]
    return [WesterosChoice(card=str(req.context["card"]), option=MOVE_ELSE.join(moves))]


def _consolidate_ahead(robot: Robot, req: Request) -> list[Command]:
    """A consolidation; for an Iron Bank order, the loan it would take, and no loan should that one be
    gone or too dear by its turn (the newest line that fits is used: "none" is sent first)."""
    if not req.options:
        return _default(req)
    choice = robot.rng.choice(req.options)
    if "iron_bank_orders" in req.context and choice != req.options[0]:
        return [req.options[0], choice]
    return [choice]


def _blade_ahead(robot: Robot, req: Request) -> list[Command]:
    """The Blade used in the first combat it fits: 'keep blade' would hold for one combat only."""
    return [UseBlade(use=True)]


_AHEAD: dict[str, Callable[[Robot, Request], list[Command]]] = {
    "support": _support_ahead, "house_card": _cards_ahead, "raven_wildling": _raven_card_ahead, "blade": _blade_ahead,
    "vassal_choice": _vassal_choice_ahead, "westeros_choice": _choice_ahead, "consolidate": _consolidate_ahead,
}


def standing_lines(robot: Robot, state: GameState, board: Board, sent: list[Command]) -> list[Command]:
    """The standing instructions a robot sends with its orders each round (ruling 353): the choices it
    always makes (the dominance tokens' cards, tie-breaks, a vassal, Targaryen's deck IV cards and
    cancels), sent once, and what it would muster, bid and move as the board stands, sent anew each
    round (each replaces the line of the round before, ruling 354)."""
    from .standing_robot import every_round, once  # robots answering only what is asked never load it

    out = [] if robot.tried_standing else once(robot, state, board)
    robot.tried_standing = True
    return out + every_round(robot, state, board, sent)


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
    to_place = int(ctx.get("orders_to_place", ctx.get("max_orders", len(areas))))
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
    ahead = req.key.startswith("ahead.")
    if ahead and robot.careful:  # sent before its turn: no ship transport, which earlier marches may break
        dests = [d for d in dests if board.adjacent(origin, d)]
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
    leave = bool(built) and robot.rng.random() < 0.3 and board.area(origin).is_land and not (ahead and robot.careful)
    march = March(origin=origin, moves=built, leave_power=leave)
    if robot.careful and not _march_ok(state, board, robot.house, march, str(dict(ctx.get("march_orders", {}))[origin])):
        for fallback in (March(origin=origin, moves=built), March(origin=origin)):
            if _march_ok(state, board, robot.house, fallback, str(dict(ctx.get("march_orders", {}))[origin])):
                return [fallback]
    return [march]


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
    if robot.careful:  # drop the last actions until the rest fits (supply, the box), as maester check would say
        who = req.vassal or robot.house  # a commander musters its vassal's units (M030, M073)
        trial = robot.mustered.get((state.round, state.phase, id(state)), state)  # after its other areas of this file
        while actions and check_muster(trial, board, who, area, tuple(actions), int(ctx.get("points", 0))):
            actions.pop()
        robot.mustered = {(state.round, state.phase, id(state)): mustered(trial, board, who, area, tuple(actions))}
    if robot.standing and req.key.startswith("ahead."):  # sent before its turn: the board may change by then
        from .standing_robot import fall_back

        return [fall_back(Muster(area=area, actions=tuple(actions)))]
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
