"""What a robot answering ahead states as standing instructions (ruling 353), sent with its orders.

Most of a Westeros Phase is decided before any mail of its round can answer it: the choices of the
dominance tokens' holders, the musters and bids the cards call for, Targaryen's deck IV cards, the
loyalty-token moves. A player who plans says once how such decisions go; a robot does the same:

* once, the choices it always makes: each dominance card's choice, a tie-break order, the wildlings'
  rewards it declines and A King Beyond the Wall's track, the vassals it would command, for
  Targaryen "nothing" for each deck IV card and whose loyalty moves it cancels, and for the other
  players their part when Targaryen names them (The Long Plan's areas, Playing With Fire's unit);
* each round, as the board stands when it gives its orders: a muster with fall-backs for every
  castle and stronghold it holds (and its vassals' home areas) and one it marches on, the units it
  would lose to each wildling penalty (a line per number of units, ruling 360) and to each cut of
  its supply (ruling 362), the units of the debtors whose
  interest it would choose, its bids (Targaryen's given away), the track Preemptive Raid drops it
  on, and its loyalty-token moves with fall-backs.

In the Action Phase the lines that name units are sent again as the units move and die (``refreshed``).
A line that no longer fits when its decision comes is skipped and the decision asked (ruling 355).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Literal, Protocol

from ..engine.ahead import own_orders
from ..engine.core.bidding import best_tracks
from ..engine.core.common import supply_count
from ..engine.core.context import Request
from ..engine.core.mustering import legal_single_actions, muster_request, westeros_mustering_areas
from ..engine.core.supply import CHEAP_FIRST, default_removals, need_to_remove
from ..engine.rules.iron_bank import chooser, default_losses
from ..game.board import Board
from ..game.cards import CARDS
from ..game.commands import (
    MOVE_ELSE,
    AssignOrder,
    Bid,
    Command,
    CommandVassal,
    DistributeBid,
    ForVassal,
    Gift,
    Located,
    March,
    Muster,
    MusterAction,
    MusterPlan,
    Reconcile,
    TieBreak,
    WesterosChoice,
    WildlingChoice,
    from_dict,
)
from ..game.state import GameState


class Robot(Protocol):
    """What these lines read of the robot sending them (robots/players.py's Robot, which calls this
    module: a protocol rather than an import, so that the two modules make no circle)."""

    house: str
    rng: random.Random

    def answer(self, state: GameState, req: Request, board: Board) -> list[Command]: ...

# The choices of the dominance tokens' holders (R044, R047, R056).
DOMINANCE_CHOICES = {
    "a_throne_of_blades": ("muster", "supply", "nothing"),
    "dark_wings_dark_words": ("bid", "collect", "nothing"),
    "put_to_the_sword": ("no march+1", "no defense", "nothing"),
}
# Deck IV cards Targaryen chooses for (M083); "nothing" is open to it whatever the board.
TARGARYEN_CARDS = ("empty_promises", "southron_ambitions", "strongholds_of_resistance", "fire_made_flesh",
                   "domestic_disputes", "watering_the_seed", "the_long_plan", "playing_with_fire")
LOYALTY_CARDS = ("scattering_dissent", "word_spreads_quickly")
TRACKS: tuple[Literal["wildlings", "iron_throne", "fiefdoms", "kings_court"], ...] = (
    "wildlings", "iron_throne", "fiefdoms", "kings_court")
MOVES = 14  # fall-backs in a loyalty-token move: 14 of the longest names stay within a line (E002)
RINGS = 3  # how far from a token the fall-backs reach: the moves before its turn carry tokens that far


def once(robot: Robot, state: GameState, board: Board) -> list[Command]:
    out: list[Command] = [WesterosChoice(card=card, option=robot.rng.choice(options))
                          for card, options in DOMINANCE_CHOICES.items()]
    order = list(state.houses_in_play)
    robot.rng.shuffle(order)
    out.append(TieBreak(order=tuple(order)))
    # The wildlings' rewards it declines, and where A King Beyond the Wall moves it (R109).
    out += [WildlingChoice(card=card) for card in ("crow_killers", "mammoth_riders", "the_horde_descends")]
    out.append(WildlingChoice(card="a_king_beyond_the_wall", track=robot.rng.choice(("fiefdoms", "kings_court"))))
    if state.vassals and robot.house in state.players():
        picks = sorted(state.vassals)
        robot.rng.shuffle(picks)
        out.append(CommandVassal(vassal=picks[0], otherwise=tuple(picks[1:]) or None))
    if "4" in state.westeros_decks and robot.house == "targaryen":
        out += [WesterosChoice(card=card, option="nothing") for card in TARGARYEN_CARDS]
        others = [h for h in state.players() if h != robot.house]
        cancel = sorted(robot.rng.sample(others, k=robot.rng.randrange(len(others) + 1)))
        out += [WesterosChoice(card=card, option="cancel:" + "+".join(cancel)) for card in LOYALTY_CARDS]
    elif "4" in state.westeros_decks and robot.house in state.players():
        # The deck IV cards on which Targaryen names another player, who then chooses (ruling 215).
        land = sorted(a.id for a in board.land_areas())
        out.append(WesterosChoice(card="the_long_plan", option="+".join(robot.rng.sample(land, 2))))
        out.append(WesterosChoice(card="playing_with_fire", option="footman"))
    return out


def every_round(robot: Robot, state: GameState, board: Board, sent: list[Command]) -> list[Command]:
    """The lines of this round, as the board stands when it sends ``sent`` (its orders, marches...)."""
    orders = {c.area: c.token for c in sent if isinstance(c, AssignOrder)}
    out = _taken_musters(state, board, robot.house, sent)
    out += _musters(robot, state, board, robot.house)
    out += _penalties(robot, state, board, orders)
    out += _supply_cuts(state, board, robot.house)
    out += _interest(state, board, robot.house)
    for vassal in sorted(v for v, c in state.commanders.items() if c == robot.house):
        out += [ForVassal(vassal=vassal, command=c) for c in _musters(robot, state, board, vassal)]
    bids = _bids(robot, state)
    out += bids
    if robot.house == "targaryen" and "4" in state.westeros_decks:  # it gives away what it bids (M100)
        out += _distributions(robot, state, bids)
    if (tracks := best_tracks(state, robot.house)) and robot.house != "targaryen":  # Preemptive Raid's drop (R109)
        out.append(WildlingChoice(card="preemptive_raid", option="track", track=tracks[0]))
    if "4" in state.westeros_decks:  # Westeros deck IV: the loyalty-token moves (M083)
        out += _moves(robot, state, board)
    return out


def refreshed(robot: Robot, state: GameState, board: Board) -> list[Command]:
    """In the Action Phase, as the board changes: the lines that depend on where the units stand (its
    losses to the wildlings' penalties, the debtors' units it would destroy, a muster in each castle it
    holds now), those it does not hold already as they read now."""
    house = robot.house
    held = [from_dict(a["command"]) for a in state.answers
            if a.get("standing") and a["house"] == house and not a.get("vassal")]
    orders = own_orders(state, house, None)
    lines = _penalties(robot, state, board, orders) + _supply_cuts(state, board, house) + _interest(state, board, house)
    mustered = {c.area for c in held if isinstance(c, Muster)}
    lines += [fall_back(Muster(area=a, actions=(MusterAction(unit="footman"),)))
              for a in westeros_mustering_areas(state, board, house) if a not in mustered]
    return [c for c in lines if c not in held]


def fall_back(cmd: Muster) -> Muster:
    """A muster, else a footman, else nothing (ruling 357): the board may change before its turn."""
    if not cmd.actions:
        return cmd
    footman = (MusterAction(unit="footman"),)
    plans = [MusterPlan(footman)] if cmd.actions != footman else []
    return Muster(area=cmd.area, actions=cmd.actions, otherwise=(*plans, MusterPlan()))


def _taken_musters(state: GameState, board: Board, house: str, sent: list[Command]) -> list[Command]:
    """A footman, else nothing, in each castle area its marches go to and it does not hold yet: the
    castle it takes in the Action Phase has a muster line before the Westeros Phase that may follow."""
    held = set(westeros_mustering_areas(state, board, house))
    goals = {m.destination for c in sent if isinstance(c, March) for m in c.moves}
    return [fall_back(Muster(area=a, actions=(MusterAction(unit="footman"),)))
            for a in sorted(goals - held) if board.area(a).has_castle]


def _musters(robot: Robot, state: GameState, board: Board, house: str) -> list[Command]:
    """What it would muster in each of its castles as the board stands, else a footman, else nothing
    (ruling 357): what it held at planning may be gone by the muster."""
    out: list[Command] = []
    for area in westeros_mustering_areas(state, board, house):
        points = state.effective_area(area, board).muster_points
        singles = legal_single_actions(state, board, house, area, points)
        req = muster_request(board, f"standing.muster.{area}", robot.house, area, points, singles)
        if house != robot.house:
            req = Request(req.key, req.kind, req.house, req.prompt, req.context, default=req.default, vassal=house)
        out += [fall_back(cmd) if isinstance(cmd, Muster) else cmd for cmd in robot.answer(state, req, board)]
    return out


def _penalties(robot: Robot, state: GameState, board: Board, orders: dict[str, str]) -> list[Command]:
    """The units it would lose to a wildling card's penalties (R109), as many as each asks: one line
    per number, so that the severe and the lesser penalty of a card each have theirs (ruling 360).
    The units are its cheapest in the areas its orders keep them in (no march), largest armies first."""
    staying = [(a, u.type) for a, u in state.units_of(robot.house) if not orders.get(a, "").startswith("march")]
    out: list[Command] = []
    for card, count in (("mammoth_riders", 3), ("mammoth_riders", 2), ("the_horde_descends", 1)):
        if (units := _cheapest(staying, count)) is not None:
            out.append(WildlingChoice(card=card, units=units))
    castles = set(westeros_mustering_areas(state, board, robot.house))  # the Horde's severe penalty: 2 in one
    held = Counter(a for a, _ in staying if a in castles)
    if held and max(held.values()) >= 2 and (units := _cheapest(
            [p for p in staying if p[0] == max(held, key=lambda a: (held[a], a))], 2)) is not None:
        out.append(WildlingChoice(card="the_horde_descends", units=units))
    knights = [p for p in staying if p[1] == "knight"]  # Crow Killers' lesser penalty: 2 knights
    if len(knights) >= 2 and (units := _cheapest(knights, 2)) is not None:
        out.append(WildlingChoice(card="crow_killers", units=units))
    hand = state.houses[robot.house].hand  # Massing on the Milkwater's lesser penalty: its weakest card
    if len(hand) >= 2:
        out.append(WildlingChoice(card="massing_on_the_milkwater",
                                  house_card=min(hand, key=lambda c: (CARDS.house_cards[c].strength, c))))
    return out


def _cheapest(units: list[tuple[str, str]], n: int) -> tuple[Located, ...] | None:
    """``n`` of ``units`` (area, type), cheapest first, from the largest armies; ``None`` if fewer."""
    if len(units) < n:
        return None
    size = Counter(a for a, _ in units)
    picked = sorted(units, key=lambda p: (CHEAP_FIRST.index(p[1]), -size[p[0]], p[0]))[:n]
    return tuple(Located(area=a, unit=t, count=k) for (a, t), k in sorted(Counter(picked).items()))


def _supply_cuts(state: GameState, board: Board, house: str) -> list[Command]:
    """The units it would destroy (the deadline default's) should its supply be cut: to what its
    barrels give as the board stands (a Supply card), or one or two places (Rattleshirt's Raiders);
    a line per number of units (ruling 362)."""
    now = state.houses[house].supply
    out: list[Command] = []
    for level in sorted({supply_count(state, board, house), now - 1, now - 2}, reverse=True):
        if level < 0 or level >= now:
            continue
        trial = state.trial_copy()
        trial.houses[house].supply = level
        if (need := need_to_remove(trial, board, house)) and need not in {
                sum(r.count for r in c.removals) for c in out if isinstance(c, Reconcile)}:
            out.append(Reconcile(removals=default_removals(trial, board, house)))
    return out


def _interest(state: GameState, board: Board, house: str) -> list[Command]:
    """For each debtor whose units it would choose (M110): a line for each shortfall, its cheapest units."""
    if not state.loan_slots:
        return []
    out: list[Command] = []
    for debtor in state.players():
        loans = len(state.houses[debtor].loans)
        if debtor != house and loans and chooser(state, debtor) == house:
            out += [losses for short in range(1, loans + 1)
                    if len((losses := default_losses(state, board, debtor, short)).removals) == short]
    return out


def _bids(robot: Robot, state: GameState) -> list[Command]:
    """A wildling bid and three influence bids that leave a token of power in hand: a raid may take one."""
    left = max(0, state.houses[robot.house].power - 1)
    out: list[Command] = []
    for track in TRACKS:
        amount = min(left, int(robot.rng.random() ** 2 * (left + 1)))
        left -= amount
        out.append(Bid(track=track, amount=amount))
    return out


def _distributions(robot: Robot, state: GameState, bids: list[Command]) -> list[Command]:
    """Each influence bid of Targaryen's given to one or two other houses, exactly (M100, ruling 252)."""
    others = [h for h in state.houses_in_play if h != robot.house]
    out: list[Command] = []
    for bid in bids:
        if isinstance(bid, Bid) and bid.track != "wildlings" and bid.amount:
            first = robot.rng.randrange(bid.amount + 1)
            pair = robot.rng.sample(others, k=2)
            gifts = tuple(Gift(h, n) for h, n in zip(pair, (first, bid.amount - first)) if n)
            out.append(DistributeBid(track=bid.track, gifts=gifts))
    return out


def _moves(robot: Robot, state: GameState, board: Board) -> list[Command]:
    """Moves from the areas holding a loyalty token, then from the land around them, where the moves
    made before its turn may have carried a token: the first still legal is made (ruling 295)."""
    ring = sorted(a for a, s in state.areas.items() if s.loyalty)
    seen, origins = set(ring), []
    for _ in range(RINGS):
        robot.rng.shuffle(ring)
        origins += ring
        ring = sorted({n for a in ring for n in board.neighbours[a] if board.area(n).is_land} - seen)
        seen |= set(ring)
    moves = []
    for origin in origins[:MOVES]:
        lands = sorted(n for n in board.neighbours[origin] if board.area(n).is_land)
        if lands:
            moves.append(f"{origin}+{robot.rng.choice(lands)}")
    if not moves:
        return []
    return [WesterosChoice(card=card, option=MOVE_ELSE.join(moves)) for card in LOYALTY_CARDS]
