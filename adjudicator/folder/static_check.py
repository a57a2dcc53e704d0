"""The static checks of ``maester check``: each command of a turn file against the state and the board only.

Orders only where the house has units and one per area, special orders within the King's Court
stars, order tokens within the copies a house owns, this round's bans, bids within available
power, cards in hand, the orders that raids, marches and consolidations name, a vassal's lines for
its commander. Each problem is put on its line; what the rules engine then says of the file is
``check.py``'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import commands as C
from ..game.board import Board
from ..game.cards import CARDS, VASSAL
from ..game.commands import ALL_ORDER_TOKENS, ORDER_TOKENS, SEA_ORDER_TOKENS, SPECIAL_TOKENS, Command, order_kind
from ..game.state import GameState
from ..turnfile.diagnostics import IllegalOrder, Notice, TurnFileError
from ..turnfile.names import INFLUENCE_TRACKS, ORDER_TEXT, display_name
from ..turnfile.parser import TurnFile

__all__ = ["StaticCheck", "used_ids"]

TRACK_TITLES = {"iron_throne": "the Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
DECIDERS = {"a_throne_of_blades": ("iron_throne", "the Iron Throne", "R044"),
            "dark_wings_dark_words": ("kings_court", "the Messenger Raven", "R047"),
            "put_to_the_sword": ("fiefdoms", "the Valyrian Steel Blade", "R056")}


def used_ids(state: GameState) -> set[str]:
    """The ids of the answers the open step has used already."""
    return set(state.segment.used) if state.segment else set()


@dataclass
class StaticCheck:
    """Checks each command against the position; collects problems with their lines."""

    tf: TurnFile
    state: GameState
    board: Board
    house: str
    early: bool = False  # the file is for a step not open yet (ruling 90)

    def __post_init__(self) -> None:
        self.problems: list[TurnFileError] = []
        self.notices: list[Notice] = []
        # Ruling 9: the last line for an area is the one that counts; earlier ones are replaced.
        self.final = {c.area: c for c in self.tf.commands if isinstance(c, (C.AssignOrder, C.LeaveUnordered))}
        self.areas = sorted({a for a, s in self.state.areas.items() if any(u.house == self.house for u in s.units)})
        self.placed: dict[str, int] = {}  # area -> line of its order in this file
        self.tokens: Counter[str] = Counter()
        self.bids: dict[str, C.Bid] = {}  # track -> the bid that counts
        self.specials: list[str] = []  # 'Winterfell: march +1 (line 3)' for each special order accepted
        self.orders = self._orders()

    def _orders(self) -> dict[str, str]:
        """The house's orders to check raids, marches, consolidations and the raven against.

        Those on the board (after the reveal), else those this file places, else those the house
        has sent and the game holds until the reveal (for a file sealed ahead, ruling 90).
        """
        placed = {a: s.order.token for a, s in self.state.areas.items() if s.order and s.order.house == self.house}
        if placed or self.state.phase not in ("planning", "action"):
            return placed
        mine = {a: c.token for a, c in self.final.items() if isinstance(c, C.AssignOrder)}
        if mine or self.state.phase == "planning":
            return mine
        used = used_ids(self.state)
        held = [C.from_dict(a["command"]) for a in self.state.answers
                if a["house"] == self.house and a["id"] not in used and a["command"].get("type") == "AssignOrder"]
        return {c.area: c.token for c in held if isinstance(c, C.AssignOrder)}

    def fail(self, cmd: Command, code: str, reason: str, suggestion: str = "") -> None:
        where = cmd.where or C.Where(self.tf.filename, 0)
        self.problems.append(IllegalOrder(code, reason, where=where, line_text=self.tf.texts.get(where.line, ""),
                                          end_column=len(self.tf.texts.get(where.line, "")) + 1, suggestion=suggestion))

    def check(self, cmd: Command) -> None:
        check = _CHECKS.get(type(cmd))
        if check is not None:
            check(self, cmd)
        when = getattr(cmd, "when", None)
        if when is not None and when.opponent is not None:
            self.player(cmd, when.opponent, "the opponent named")

    def name(self, area: str | None) -> str:
        return display_name("area", area) if area else "none"

    def player(self, cmd: Command, house: str | None, what: str) -> None:
        if house is not None and house not in self.state.houses_in_play:
            self.fail(cmd, "E412", f"{what}, {house}, is not playing in this game")
        elif house == self.house and what != "a house in the tie-break":
            self.fail(cmd, "E412", f"{what} cannot be your own house")

    def missing(self) -> list[str]:
        if self.state.phase != "planning" or not self.areas or self.state.orders_placed(self.house) or self._decided():
            return []
        refused = {p.where.line for p in self.problems}
        return [f"orders: no order yet for {self.name(a)}" if a not in self.placed else
                f"orders: no order for {self.name(a)} until the one on line {self.placed[a]} is mended"
                for a in self.areas if a not in self.placed or self.placed[a] in refused]  # fmt: skip

    def _decided(self) -> bool:
        seg = self.state.segment
        return bool(seg and any(k.endswith(f".orders.{self.house}") for k in seg.decisions))

    def holder(self, track: str) -> str:  # the highest player where vassals stand above it (M065)
        return self.state.holder(track) if self.state.tracks.get(track) else ""

    def check_bids(self) -> None:
        """Every bid is paid, won or lost (R086): a track's bid must fit what the bids before it leave."""
        asked = [r.get("context", {}).get("track") for r in self.state.pending if r.get("kind") == "bid"]
        first = min((INFLUENCE_TRACKS.index(t) for t in asked if t in INFLUENCE_TRACKS), default=0)
        left, paid = self.state.houses[self.house].power, list[str]()
        for track in INFLUENCE_TRACKS[first:]:
            bid = self.bids.get(track)
            if bid is None:
                continue
            if bid.amount > left:
                self.fail(bid, "E407", f"after your {' and '.join(paid)} you have {left} power left for "
                          f"{TRACK_TITLES[track]}: every bid is paid, won or lost (R082, R086)",
                          f"bid at most {left} here")  # fmt: skip
                continue
            left -= bid.amount
            paid.append(f"bid of {bid.amount} for {TRACK_TITLES[track]}")


def _assign(s: StaticCheck, cmd: C.AssignOrder | C.LeaveUnordered) -> None:
    if s.state.phase != "planning":
        return s.fail(cmd, "E410", f"orders are placed in the Planning Phase; the game is in the {s.state.phase} phase (R114)")
    if cmd.area not in s.areas:
        st = s.state.area(cmd.area)
        if st.units:
            return s.fail(cmd, "E409", f"the units in {s.name(cmd.area)} are not yours; orders go only on your own units (R115)")
        return s.fail(cmd, "E401", f"you have no units in {s.name(cmd.area)}; orders go only on areas with your units (R115)")
    line = cmd.where.line if cmd.where else 0
    later = s.final.get(cmd.area)
    if later is not None and later is not cmd:
        s.notices.append(Notice("W205", f"replaced by the order for {s.name(cmd.area)} on line "
                                f"{later.where.line if later.where else '?'} (ruling 9)",
                                cmd.where or C.Where(s.tf.filename, 0), s.tf.texts.get(line, "")))
        return None
    s.placed[cmd.area] = line
    if isinstance(cmd, C.LeaveUnordered):
        if not _short(s):
            s.fail(cmd, "E412", "only a house short of order tokens may leave an area without an order (R121, R122)")
        return None
    if any(r == cmd.token or r == order_kind(cmd.token) for r in s.state.restrictions):
        return s.fail(cmd, "E406", f"no {cmd.token} order may be placed this round: a Westeros card forbids it (R120)")
    s.tokens[cmd.token] += 1
    if s.tokens[cmd.token] > ALL_ORDER_TOKENS[cmd.token]:  # a Mother of Dragons sea order too (M114)
        rule = "M114" if cmd.token in SEA_ORDER_TOKENS else "R112"
        return s.fail(cmd, "E405", f"you own {ALL_ORDER_TOKENS[cmd.token]} '{cmd.token}' order(s) and this is one more ({rule})")
    if cmd.token in SPECIAL_TOKENS:
        stars = s.state.stars(s.house, s.board)
        if len(s.specials) >= stars:
            regular = ORDER_TEXT[_REGULAR[order_kind(cmd.token)]]
            if not stars:
                why = "your place on the King's Court track allows no special orders (R119)"
            else:
                why = (f"your place on the King's Court track allows {stars} special order{'s' if stars > 1 else ''}, "
                       f"and {', '.join(s.specials)} already {'use them' if stars > 1 else 'uses it'} (R119)")
            return s.fail(cmd, "E404", why, f"use the regular order here ({s.name(cmd.area)}: {regular})")
        s.specials.append(f"{s.name(cmd.area)}: {ORDER_TEXT[cmd.token]} (line {line})")
    return None


_REGULAR = {"march": "march+0", "defense": "defense+1", "support": "support+0", "raid": "raid", "consolidate": "consolidate"}


def _short(s: StaticCheck) -> bool:
    bans = s.state.restrictions
    ok = [t for t in ORDER_TOKENS if not any(r == t or r == order_kind(t) for r in bans)]
    regular = sum(ORDER_TOKENS[t] for t in ok if t not in SPECIAL_TOKENS)
    special = sum(ORDER_TOKENS[t] for t in ok if t in SPECIAL_TOKENS)
    return regular + min(special, s.state.stars(s.house, s.board)) < len(s.areas)


def _raven(s: StaticCheck, cmd: C.Raven | C.RavenKeep) -> None:
    if s.holder("kings_court") != s.house:
        return s.fail(cmd, "E409", "only the Messenger Raven's holder uses it: " + s.state.holder_words("King's Court", "R125"))
    if s.state.raven_used:
        return s.fail(cmd, "E412", "the Messenger Raven has been used this round (R125)")
    if isinstance(cmd, C.Raven) and cmd.action == "swap" and cmd.token:
        if cmd.area not in s.orders:
            return s.fail(cmd, "E411", f"you have no order in {s.name(cmd.area)} to swap (R125)")
        if any(r == cmd.token or r == order_kind(cmd.token) for r in s.state.restrictions):
            s.fail(cmd, "E406", f"no {cmd.token} order may be placed this round, by the raven either (R126)")
    return None


def _needs_order(s: StaticCheck, cmd: Command, area: str | None, kind: str, rule: str) -> bool:
    if not s.orders and s.early:
        return True  # sealed ahead with no orders known yet: they are judged when the step opens
    token = s.orders.get(area or "")
    if token is None or order_kind(token) != kind:
        s.fail(cmd, "E411", f"you have no {kind} order in {s.name(area)} ({rule})")
        return False
    return True


def _raid(s: StaticCheck, cmd: C.Raid) -> None:
    if not _needs_order(s, cmd, cmd.origin, "raid", "R129"):
        return
    origin = s.board.area(cmd.origin)
    for t in cmd.targets:
        if t is None:
            continue
        if not s.board.adjacent(cmd.origin, t):
            s.fail(cmd, "E412", f"{s.name(t)} is not next to {s.name(cmd.origin)}; a raid hits an adjacent area (R130)")
        elif origin.is_land and not s.board.area(t).is_land:
            s.fail(cmd, "E412", f"a raid from land cannot target the sea area {s.name(t)} (R132)")


def _march(s: StaticCheck, cmd: C.March) -> None:
    if not _needs_order(s, cmd, cmd.origin, "march", "R141"):
        return
    have = Counter(u.type for u in s.state.area(cmd.origin).units if u.house == s.house)
    sent: Counter[str] = Counter()
    for mv in cmd.moves:
        dest = s.board.area(mv.destination)
        for spec in mv.units:
            sent[spec.unit] += spec.count
            if spec.unit == "ship" and (dest.is_land or not s.board.adjacent(cmd.origin, mv.destination)):
                s.fail(cmd, "E412", f"ships move only to an adjacent sea area or port, not {dest.name} (R144, R145)")
            elif spec.unit != "ship" and not dest.is_land:
                s.fail(cmd, "E412", f"a {spec.unit.replace('_', ' ')} never enters a sea area or port like {dest.name} (R145)")
    for mv in cmd.moves:
        if any(u.unit != "ship" for u in mv.units) and s.board.area(mv.destination).is_land \
                and not s.board.adjacent(cmd.origin, mv.destination) and not _transport(s, cmd.origin, mv.destination):
            s.notices.append(Notice("W401", f"{s.name(mv.destination)} is not next to {s.name(cmd.origin)} and no chain "
                                    "of your ships links them now: the march is refused when it resolves unless your "
                                    "ships make that chain first (R144, R157)", cmd.where or C.Where(s.tf.filename, 0),
                                    s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip
    for mv in cmd.moves:
        _against_neutral(s, cmd, mv)
    _family_entries(s, cmd, s.house)
    _leave_power(s, cmd, have, sent)
    if cmd.leave_power and s.state.houses[s.house].power == 0:
        s.notices.append(Notice("W401", "you have no available power now to leave a token: the march is refused "
                                "when it resolves unless you gain power first (R244)", cmd.where or C.Where(s.tf.filename, 0),
                                s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip
    for unit, n in sent.items():
        if n > have[unit]:
            s.fail(cmd, "E413", f"{s.name(cmd.origin)} holds {have[unit]} of your {unit.replace('_', ' ')}s, not {n} (R142)")


def _leave_power(s: StaticCheck, cmd: C.March, have: Counter[str], sent: Counter[str]) -> None:
    """R241: a power token is left only on a land area all the house's units leave (ruling 314: as the
    run refuses it; the units there only grow before the march, but for a defence won, which is mailed)."""
    if not cmd.leave_power:
        return
    origin = s.board.area(cmd.origin)
    if not origin.is_land:
        s.fail(cmd, "E412", f"power tokens are left only on land areas, not {origin.name} (R241)")
    elif sum(sent.values()) < sum(have.values()):
        staying = ", ".join(f"{n - sent[u]} {u.replace('_', ' ')}" for u, n in sorted(have.items()) if n > sent[u])
        s.fail(cmd, "E412", f"your units do not all leave {origin.name} ({staying} would stay), so no power "
               "token is placed there: name every unit, or leave out 'leave power' (R241)")


def _family_entries(s: StaticCheck, cmd: C.March, house: str, at: Command | None = None) -> None:
    """Mother of Dragons: a march into an area of the marcher's own family this round (M044, M045, M069)."""
    from ..engine.rules.marches import family_entry_problem

    for mv in cmd.moves:
        if mv.destination not in s.board.areas or (house in s.state.vassals and s.board.area(mv.destination).is_port):
            continue  # a vassal's march into a port is refused at once, by the rules engine (M044)
        why = family_entry_problem(s.state, s.board, house, mv.destination)
        if why:
            where = (at or cmd).where
            s.notices.append(Notice("W401", f"{why}: the march is refused when it resolves unless control of "
                                    f"{s.name(mv.destination)} changes first", where or C.Where(s.tf.filename, 0),
                                    s.tf.texts.get(where.line if where else 0, "")))  # fmt: skip


def _for_vassal(s: StaticCheck, cmd: C.ForVassal) -> None:
    """A commander's line for its vassal: the vassal's own limits that can be seen now (M044, M045)."""
    if isinstance(cmd.command, C.March) and cmd.vassal in s.state.vassals:
        _family_entries(s, cmd.command, cmd.vassal, at=cmd)


def _against_neutral(s: StaticCheck, cmd: C.March, mv: C.Move) -> None:
    """Ruling 5: a march into a neutral force needs the strength the marcher can count on."""
    force = s.state.area(mv.destination).neutral_force
    token = s.orders.get(cmd.origin)
    if not force or token is None or mv.destination in s.state.impassable:
        return
    import copy

    from ..engine.rules.marches import sure_strength
    from ..game.state import Order, Unit

    trial = copy.copy(s.state)  # the orders as the march will find them: this file's, if it places them
    trial.areas = dict(s.state.areas)
    for area, tok in s.orders.items():
        trial.areas[area] = copy.copy(s.state.area(area))
        trial.areas[area].order = Order(s.house, tok)
    units = [Unit(s.house, spec.unit) for spec in mv.units for _ in range(spec.count)]
    strength = sure_strength(trial, s.board, s.house, mv.destination, units, token)
    if strength < force:
        s.notices.append(Notice("W401", f"your strength against the neutral force in {s.name(mv.destination)} would "
                                f"be {strength}, less than its {force}: counting your marching units, the march order "
                                "and your own support orders next to it; the march is refused when it resolves "
                                "unless these grow first (R231, ruling 5)", cmd.where or C.Where(s.tf.filename, 0),
                                s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip


def _transport(s: StaticCheck, origin: str, destination: str) -> bool:
    from ..engine.core.common import transport_reach

    return destination in transport_reach(s.state, s.board, s.house, origin)


def _consolidate(s: StaticCheck, cmd: C.Consolidate) -> None:
    if _needs_order(s, cmd, cmd.area, "consolidate", "R161") and cmd.muster is not None:
        if s.orders.get(cmd.area) != "consolidate*":
            s.fail(cmd, "E411", "only a special consolidate power order can muster (R165)")
        elif not s.board.area(cmd.area).has_castle:
            s.fail(cmd, "E412", f"{s.name(cmd.area)} has no castle or stronghold to muster in (R165)")


def _support(s: StaticCheck, cmd: C.Support) -> None:
    if cmd.origin is not None:
        _needs_order(s, cmd, cmd.origin, "support", "R172")
    if cmd.side not in (None, "attacker", "defender") and cmd.side not in s.state.houses_in_play:
        s.fail(cmd, "E412", f"the house supported, {cmd.side}, is not playing in this game")


def _play(s: StaticCheck, cmd: C.PlayCard) -> None:
    card = CARDS.house_cards[cmd.card]
    if card.house == VASSAL:
        return s.fail(cmd, "E409", f"{card.name} is a vassal house card: only a vassal plays it, its commander "
                                   f"writing 'for VASSAL: play {card.name}' (M058)")
    if card.house != s.house:
        return s.fail(cmd, "E409", f"{card.name} is a {card.house.title()} card, not one of yours (R192)")
    if cmd.card not in s.state.houses[s.house].hand:
        return s.fail(cmd, "E408", f"{card.name} is not in your hand: it is in your discard pile (R195)")
    return None


def _card_choice(s: StaticCheck, cmd: C.CardChoice) -> None:
    card = CARDS.house_cards[cmd.card]
    if card.house == VASSAL and cmd.card != "bronn":  # Bronn asks the vassal's opponent, a player
        s.fail(cmd, "E409", f"{card.name} is a vassal house card: its commander answers for the vassal with "
                            f"'for VASSAL: {card.name}: ...' (M058)")
    elif card.house != s.house and card.house != VASSAL:
        s.fail(cmd, "E409", f"{card.name} is a {card.house.title()} card: only its player chooses for it (R193)")
    elif cmd.card == "aeron_damphair" and cmd.house_card and cmd.house_card not in s.state.houses[s.house].hand:
        s.fail(cmd, "E408", f"{display_name('house_card', cmd.house_card)} is not in your hand (R193)")
    elif cmd.amount and cmd.amount > (power := s.state.houses[s.house].power):
        s.fail(cmd, "E407", f"{card.name} discards {cmd.amount} power tokens but you have {power} available (R193)")


def _bid(s: StaticCheck, cmd: C.Bid) -> None:
    power = s.state.houses[s.house].power
    if cmd.amount > power:
        rule = "R101" if cmd.track == "wildlings" else "R082"
        s.fail(cmd, "E407", f"you bid {cmd.amount} but have {power} power available ({rule})")
    elif cmd.track != "wildlings":
        s.bids[cmd.track] = cmd  # the last bid for a track is the one that counts


def _distribute(s: StaticCheck, cmd: C.DistributeBid) -> None:
    if s.house != "targaryen":
        s.fail(cmd, "E409", "only Targaryen gives away the power it bid (M100)")
    if cmd.track not in ("iron_throne", "fiefdoms", "kings_court"):
        s.fail(cmd, "E412", "Targaryen gives away its bid for an influence track only (M100)")
    for g in cmd.gifts:
        s.player(cmd, g.house, "a house receiving Targaryen's bid (M100)")


def _tie_break(s: StaticCheck, cmd: C.TieBreak) -> None:
    if s.holder("iron_throne") != s.house:
        s.fail(cmd, "E409", f"only the Iron Throne's holder breaks ties: {s.state.holder_words('Iron Throne', 'R084, R091')}")
    for h, n in Counter(cmd.order).items():
        s.player(cmd, h, "a house in the tie-break")
        if n > 1:
            s.fail(cmd, "E412", f"{h} is named {n} times in the tie-break")


def _westeros(s: StaticCheck, cmd: C.WesterosChoice) -> None:
    if cmd.card not in DECIDERS:  # Westeros deck IV: Targaryen's own choices (M083), and a named player's part
        if s.house != "targaryen" and cmd.card not in ("the_long_plan", "playing_with_fire", "scattering_dissent",
                                                        "word_spreads_quickly"):
            s.fail(cmd, "E409", f"only Targaryen chooses for {display_name('westeros_card', cmd.card)} (M083)")
        return
    track, token, rule = DECIDERS[cmd.card]
    if s.holder(track) != s.house:
        s.fail(cmd, "E409", f"only the holder of {token} chooses for {display_name('westeros_card', cmd.card)} ({rule})")


def _muster(s: StaticCheck, cmd: C.Muster) -> None:
    area = s.board.area(cmd.area)
    if not area.has_castle or s.state.controller(cmd.area, s.board) != s.house:
        s.fail(cmd, "E412", f"you muster only in castle or stronghold areas you control; {area.name} is not one (R067)")
    for a in (action for actions in cmd.choices() for action in actions):  # each fall-back too (ruling 357)
        if a.to is not None and a.unit != "ship":
            s.fail(cmd, "E412", "only ships are placed elsewhere; other units stay in the mustering area (R078)")
        elif a.to is not None and a.to != area.port and not (s.board.area(a.to).is_sea and s.board.adjacent(cmd.area, a.to)):
            s.fail(cmd, "E412", f"a ship mustered in {area.name} goes into its port or an adjacent sea, not "
                   f"{s.name(a.to)} (R075)")


def _reconcile(s: StaticCheck, cmd: C.Reconcile) -> None:
    wanted: Counter[tuple[str, str]] = Counter()
    for r in cmd.removals:
        wanted[(r.area, r.unit)] += r.count
    for (area, unit), n in wanted.items():
        have = sum(1 for u in s.state.area(area).units if u.house == s.house and u.type == unit)
        if n > have:
            s.fail(cmd, "E413", f"{s.name(area)} holds {have} of your {unit.replace('_', ' ')}s, not {n} (R060)")


def _blade(s: StaticCheck, cmd: C.UseBlade) -> None:
    if cmd.use and s.state.phase in ("planning", "action") and s.holder("fiefdoms") != s.house:
        s.fail(cmd, "E409", f"only the Valyrian Steel Blade's holder uses it: {s.state.holder_words('Fiefdoms', 'R199')}")


def _retreat(s: StaticCheck, cmd: C.Retreat) -> None:
    if cmd.when is not None and cmd.when.role == "attacker":
        s.fail(cmd, "E412", "a defeated attacker always retreats to the area it marched from (R208); only a defender "
               "chooses where to retreat (R209)")


def _port(s: StaticCheck, cmd: C.PortShips) -> None:
    if not s.board.area(cmd.port).is_port:
        s.fail(cmd, "E412", f"{s.name(cmd.port)} is not a port (R246)")


def _for_line(s: StaticCheck, cmd: C.ForVassal) -> None:
    """``for tyrell: ...``: only for a vassal of this game, commanded by this house if anyone commands
    it now (M030, M031), and never a bid: a vassal bids 0 unasked (M064, M066); then the vassal's
    own limits (:func:`_for_vassal`)."""
    v, who = cmd.vassal.title(), s.state.commander(cmd.vassal)
    if not s.state.is_vassal(cmd.vassal):
        listed = ", ".join(h.title() for h in s.state.vassals) or "none in this game"
        return s.fail(cmd, "E409", f"{v} is not a vassal; 'for VASSAL:' answers a vassal's decision (vassals: {listed}) (M030)")
    if who is not None and who != s.house:
        return s.fail(cmd, "E409", f"{v} is commanded by {who.title()}, who decides for it until the next Planning "
                      "Phase begins (M030, M031)")  # fmt: skip
    if isinstance(cmd.command, C.Bid):
        return s.fail(cmd, "E409", f"a vassal never bids: {v} bids 0 on the influence tracks unasked, and takes no "
                      "part against the wildlings; only power Targaryen gives it raises its bid (M064, M066)")
    _for_vassal(s, cmd)


_CHECKS: dict[type, Callable[[StaticCheck, Any], None]] = {
    C.AssignOrder: _assign, C.LeaveUnordered: _assign, C.Raven: _raven, C.RavenKeep: _raven, C.Raid: _raid,
    C.March: _march, C.Consolidate: _consolidate, C.Support: _support, C.PlayCard: _play, C.CardChoice: _card_choice,
    C.Bid: _bid, C.TieBreak: _tie_break, C.DistributeBid: _distribute, C.WesterosChoice: _westeros, C.Muster: _muster, C.Reconcile: _reconcile,
    C.UseBlade: _blade, C.PortShips: _port, C.Retreat: _retreat, C.ForVassal: _for_line,
    C.RefuseSupport: lambda s, c: s.player(c, c.supporter, "the house whose support you refuse"),
}
