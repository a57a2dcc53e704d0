"""What comes up for a house later in the step, and may be answered now (ruling 124).

A decision the engine has not asked yet can often be answered already: a house mustering after
another, the Messenger Raven's look with the card's placement as a conditional, raids, marches and
consolidations in later cycles, support, house cards and retreats for the combats that may come.
The private report lists them under COMING UP FOR YOU with skeleton lines, and robots that answer
ahead (:mod:`adjudicator.robots.players`) answer them: each answer is used when its decision comes,
like any standing instruction, and one mail round is saved.

Each :class:`Upcoming` holds a :class:`~adjudicator.engine.core.context.Request` shaped as the
engine will ask it, as far as the house can tell now. Only what the house may know is read: the
public position, the Westeros cards drawn this phase (revealed at its start), and the house's own
orders and answers; never another house's answers, the wildling deck or a card not drawn yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..game.board import Board, HouseId
from ..game.cards import CARDS
from ..game.commands import (
    AssignOrder,
    Bid,
    CardChoice,
    CombatFilter,
    Command,
    Consolidate,
    DistributeBid,
    InterestLosses,
    IronBank,
    LeaveUnordered,
    Muster,
    PlayCard,
    Raid,
    Raven,
    RavenKeep,
    Retreat,
    Support,
    TieBreak,
    UseBlade,
    WesterosChoice,
    cancels_moves,
    from_dict,
    order_kind,
)
from ..game.hooks import hooked
from ..game.state import GameState
from .core.context import Request
from .rules.marches import destinations, hostile
from .rules.planning import (
    areas_needing_orders,
    default_orders,
    eligible_count,
    in_board_order,
    is_banned,
    is_short,
)
from .rules.raids import reach_problem, targets

TRACK_WORDS = {"iron_throne": "the Iron Throne", "fiefdoms": "the Fiefdoms", "kings_court": "the King's Court"}


@dataclass(frozen=True)
class Upcoming:
    """One decision not asked yet that the house may answer now.

    ``request`` is the decision as it will be asked (its key starts with ``ahead.``); ``why`` says
    when it comes, in a player's words; ``lines`` are template lines where the request's default
    and options would not show the form to write (the raven's conditional, several lines at once).
    """

    request: Request
    why: str
    lines: tuple[str, ...] = field(default=())


def upcoming(state: GameState, house: HouseId, requests: Iterable[Request | dict[str, Any]], *,
             board: Board | None = None, orders: dict[str, str] | None = None,
             vassal_orders: dict[str, dict[str, str]] | None = None) -> list[Upcoming]:
    """The decisions coming up for ``house`` in the open step that it has not answered yet.

    ``requests`` are the open requests of every house (who is asked now is public); ``orders``
    the house's own orders by area when the caller knows them better than the game does (a robot
    writing its orders and its answers for the action phase in one file); otherwise the orders on
    the board, or the house's own order lines waiting in the game; ``vassal_orders`` the same for
    the vassals it commands, by vassal (Mother of Dragons).
    """
    board = board or state.board()
    if house not in state.houses_in_play or state.phase not in ("westeros", "planning", "action"):
        return []
    asked = [r if isinstance(r, Request) else Request.from_dict(r) for r in requests]
    if state.phase == "westeros":
        found = _westeros(state, board, house, asked)
        found += _after_others(state, board, house, asked, found)
    elif state.phase == "planning":
        found = [*_orders(state, board, house, asked), *_raven(state, board, house, asked),
                 *_action(state, board, house, asked, own_orders(state, house, orders))]
    else:
        found = _action(state, board, house, asked, own_orders(state, house, orders))
    for decide in hooked("decisions_ahead", state.box):  # a box's own (Mother of Dragons': ahead_mod.py)
        found += decide(state, board, house, asked, orders, vassal_orders)
    return [u for u in found if not _answered(state, house, u.request)]


def _key(state: GameState, house: str, kind: str, detail: str = "") -> str:
    return f"ahead.r{state.round}.{state.phase}.{kind}.{house}" + (f".{detail}" if detail else "")


def _name(board: Board, area: str) -> str:
    return board.area(area).name


# --- the Westeros phase -------------------------------------------------------------------------


def cards_to_come(state: GameState) -> tuple[str | None, list[str]]:
    """The Westeros card resolving now and the cards drawn this phase still to resolve after it.

    The three cards are drawn and revealed at the start of the phase (R038, ``westeros_revealed``)
    and resolve in deck order, each a step of the phase (``card_1`` ...). A card drawn for Winter
    is Coming is revealed as it is drawn: while it resolves it is what the deck lacks since its step
    began. A Winter is Coming not resolved yet stands for the card it will draw, which nobody
    knows: it stays in the list as ``winter_is_coming``.
    """
    if state.phase != "westeros" or not state.westeros_revealed:
        return None, []
    k = int(state.step.removeprefix("card_")) if state.step.startswith("card_") else 1
    cards = list(state.westeros_revealed[k - 1:])
    if cards and cards[0] == "winter_is_coming" and state.segment is not None:
        start = state.segment.start.get("decks", {})
        deck = str(k)
        before = Counter([*start.get("westeros", {}).get(deck, []), *start.get("westeros_discards", {}).get(deck, [])])
        out = before - Counter([*state.westeros_decks.get(deck, []), *state.westeros_discards.get(deck, [])])
        drawn = [c for c in out.elements() if c != "winter_is_coming"]
        if drawn:
            cards[0] = drawn[0]
    return (cards[0] if cards else None), cards[1:]


def westeros_decisions(state: GameState, board: Board, house: str, asked: list[Request]) -> list[Upcoming]:
    """What comes up for ``house`` in the Westeros phase, worked out from the cards revealed."""
    return _westeros(state, board, house, asked)


# The Westeros cards whose resolution has every house muster (a card's ``musters`` in its data): each
# box's deck, not a list of ids here
_MUSTERS = {c.id: c.musters for c in CARDS.westeros if c.musters}


def _westeros_name(card: str | None) -> str:
    return next(c.name for c in CARDS.westeros if c.id == card)


def _westeros(state: GameState, board: Board, house: str, asked: list[Request]) -> list[Upcoming]:
    from .rules.westeros import DECIDER  # each phase's rules are loaded where its lines are worked out

    now, later = cards_to_come(state)
    mine = {r.kind for r in asked if r.house == house}
    out: list[Upcoming] = []
    mustering = next((r for r in asked if r.kind == "muster"), None)
    castles = _MUSTERS.get(now or "") == "castles"
    if mustering is not None and mustering.house != house and "muster" not in mine:
        order = state.turn_order()
        if house in order and mustering.house in order and order.index(house) > order.index(mustering.house):
            out += _musters(state, board, house, f"you muster after {mustering.house.title()} (turn order): you may "
                                                  "send it now", castles_only=castles)
    if mustering is not None and mustering.house == house:
        then = tuple(str(a) for a in mustering.context.get("then", ()))
        out += [u for u in _musters(state, board, house, "your next area to muster: you may send it now",
                                    castles_only=castles)
                if u.request.context.get("area") in then]
    pending_bid = next((r for r in asked if r.house == house and r.kind == "bid"), None)
    bidding = any(r.kind == "bid" and r.context.get("track") != "wildlings" for r in asked)
    if pending_bid is not None and pending_bid.context.get("track") in _TRACKS[:-1]:
        later_tracks = _TRACKS[_TRACKS.index(str(pending_bid.context["track"])) + 1:]
        out += _bids(state, house, "the next tracks are bid for after this one: your bids may go now", later_tracks)
    if now in ("clash_of_kings", "dark_wings_dark_words") and "tie_break" not in mine:
        out += _tie_break(state, house, settled=pending_bid is not None and pending_bid.context.get("track") != "iron_throne")
    if any(r.kind == "bid" and r.context.get("track") == "wildlings" for r in asked) and "tie_break" not in mine:
        out += _tie_break(state, house, settled=True)  # ties of the wildling bids (R107)
    musters = _MUSTERS.get(now or "")
    if musters in ("always", "castles") and mustering is None:
        out += _musters(state, board, house, f"{_westeros_name(now)} resolves after what is asked now: you may send "
                                             "yours now")
    if now and musters not in (None, "always", "castles") and mustering is None and _decided(state, now) in (None, musters):
        out += _musters(state, board, house, f"if the holder of the Iron Throne chooses mustering for "
                                             f"{_westeros_name(now)}: you may send yours now")
    if now in ("clash_of_kings", "dark_wings_dark_words") and not bidding and _decided(state, now) in (None, "bid"):
        out += _bids(state, house, "the bidding of this card comes after what is asked now: your three bids may go now"
                     if now == "clash_of_kings" else "if the holder of the Messenger Raven chooses the bidding for "
                     "Dark Wings, Dark Words: your three bids may go now")
    choosing = any(r.kind == "westeros_choice" for r in asked)
    bidding_first = False  # a track may change hands before a later card's choice (R044, R047, R056)
    for i, card in enumerate([now, *later] if now else []):
        name = next(c.name for c in CARDS.westeros if c.id == card)
        if card in DECIDER and not (i == 0 and (choosing or _decided(state, card) is not None)):
            out += _choice(state, house, card, name, anyone=bidding_first)
        # a bidding, or a card nobody knows yet (Winter is Coming's), may move a token before a later choice
        bidding_first = bidding_first or card in ("clash_of_kings", "dark_wings_dark_words", "winter_is_coming")
        if i == 0:
            continue  # what the card resolving now asks is said above
        if card in _MUSTERS:
            out += _musters(state, board, house, f"{name} resolves later in this phase: you may send your mustering now",
                            castles_only=_MUSTERS[card] == "castles")
        elif card in ("clash_of_kings", "dark_wings_dark_words"):
            out += _bids(state, house, f"{name} resolves later in this phase: your three bids may go now")
            out += _tie_break(state, house, settled=False)
        elif card == "wildlings_attack":
            out += _tie_break(state, house, settled=True)
            out.append(Upcoming(Request(key=_key(state, house, "bid", "wildlings"), kind="bid", house=house,
                                        prompt="bid for the Night's Watch against the wildlings",
                                        context={"track": "wildlings", "available_power": state.houses[house].power},
                                        default=Bid(track="wildlings", amount=0), secret=True),
                                f"{name} resolves later in this phase: your bid may go now"))
    return _unique(out)


def _decided(state: GameState, card: str) -> str | None:
    """The option chosen for a Westeros card in this phase so far (a public choice), or ``None``."""
    for record in (state.segment.decisions.values() if state.segment else ()):
        value = record.get("value") if isinstance(record, dict) else None
        if isinstance(value, dict) and value.get("type") == "WesterosChoice" and value.get("card") == card:
            return str(value.get("option", ""))
    return None


def _choice(state: GameState, house: str, card: str, name: str, *, anyone: bool) -> list[Upcoming]:
    """The choice of a Westeros card for the holder of its token; with ``anyone``, a bidding comes
    first and any house may hold the token by then."""
    from .rules.westeros import CHOICES, DECIDER, TOKEN_NAMES

    token = TOKEN_NAMES[DECIDER[card]]
    if state.holder(DECIDER[card]) == house:
        why = f"{name} resolves later in this phase and you hold {token}: you may choose now"
    elif anyone:
        why = f"{name} resolves after a bidding: if you hold {token} by then, you may choose now"
    else:
        return []
    return [Upcoming(Request(key=_key(state, house, "westeros_choice", card), kind="westeros_choice", house=house,
                             prompt=f"choose how {name} resolves", context={"card": card},
                             options=tuple(WesterosChoice(card=card, option=o) for o in CHOICES[card]),
                             default=WesterosChoice(card=card, option="nothing")), why)]


def _unique(items: list[Upcoming]) -> list[Upcoming]:
    """Each decision once (a card resolving now and a later one may both foretell it)."""
    seen: set[str] = set()
    out = []
    for u in items:
        if u.request.key not in seen:
            seen.add(u.request.key)
            out.append(u)
    return out


def _musters(state: GameState, board: Board, house: str, why: str, *, castles_only: bool = False) -> list[Upcoming]:
    """The musters ``house`` may send now; ``castles_only``: a card that musters one point in each castle and
    none in a stronghold (a card's ``musters = "castles"``: A Feast for Crows' Rally the Men, ruling 405)."""
    from .core.mustering import legal_single_actions, muster_request, westeros_mustering_areas

    areas = westeros_mustering_areas(state, board, house)
    if castles_only:
        areas = [a for a in areas if state.effective_area(a, board).fortification == "castle"]
    out = []
    for i, area in enumerate(areas):
        points = 1 if castles_only else board.area(area).muster_points
        singles = legal_single_actions(state, board, house, area, points)
        if not singles:
            continue  # nothing can be mustered there: it passes unasked
        req = muster_request(board, _key(state, house, "muster", area), house, area, points, singles, tuple(areas[i + 1:]))
        out.append(Upcoming(req, why))
    return out


_TRACKS = ("iron_throne", "fiefdoms", "kings_court")  # the Clash of Kings bids, one track after another (R081)


def _bids(state: GameState, house: str, why: str, tracks: tuple[str, ...] = _TRACKS) -> list[Upcoming]:
    power = state.houses[house].power
    return [Upcoming(Request(key=_key(state, house, "bid", t), kind="bid", house=house, prompt=f"bid for {TRACK_WORDS[t]}",
                             context={"track": t, "available_power": power}, default=Bid(track=t, amount=0),  # type: ignore[arg-type]
                             secret=True), why)
            for t in tracks]


def _tie_break(state: GameState, house: str, *, settled: bool) -> list[Upcoming]:
    """The holder of the Iron Throne breaks the ties (R084, R085); until the Iron Throne has been
    bid for (``settled``), any house may come to hold it for the later tracks."""
    holder = state.holder("iron_throne") == house
    if not holder and settled:
        return []
    order = tuple(state.turn_order())
    why = ("you hold the Iron Throne: if bids tie, you break the ties" if holder else
           "if you win the Iron Throne, you break the ties of the later tracks") + "; one line may order them all now"
    return [Upcoming(Request(key=_key(state, house, "tie_break"), kind="tie_break", house=house,
                             prompt="break the ties of this phase's bidding: name the houses from best to worst",
                             context={"tie": None, "tied": list(order)}, default=TieBreak(order=order)), why)]


def _hidden(state: GameState) -> tuple[object, ...]:
    """What a dry run must not reach: a card drawn from a hidden deck, a shuffle."""
    return (state.rng_counter, tuple(state.wildling_deck[:1]), len(state.wildling_deck), len(state.tides_deck),
            tuple(len(d) for _, d in sorted(state.westeros_decks.items())))


_DRY_RUN_KINDS = frozenset({"wildling_choice"})  # asked in turn order, with nothing to tell the choices from


def _after_others(state: GameState, board: Board, house: str, asked: list[Request], found: list[Upcoming]) -> list[Upcoming]:
    """What the house is asked next in this step once the houses asked before it have answered.

    A dry run on a copy of the game that holds only the house's own answers: the requests of the
    others take their documented defaults (public rules on public facts), and the run goes on until
    the house is asked something. It is given up when it would draw a card or shuffle a deck, or
    leave the step: what comes then may depend on what nobody knows yet (a wildling lesser penalty
    asked in turn order after another house is the case it is for).
    """
    from .machine import advance  # the step machine sits beside this module, above the rules

    if any(r.house == house for r in asked) or not any(r.kind in _DRY_RUN_KINDS for r in asked):
        return []  # what else comes in turn order is worked out above, without replaying the phase
    trial = _copy_with_answers(state, house)
    before = _hidden(state)
    waiting = list(asked)
    for _ in range(len(state.houses_in_play)):  # each house before it in turn order, at most
        step = advance(trial, (), deadline=frozenset(r.key for r in waiting), board=board)
        if (step.state.round, step.state.phase) != (state.round, state.phase) or _hidden(step.state) != before:
            return []
        mine = [r for r in step.requests if r.house == house]
        if mine:
            names = ", ".join(sorted({r.house.title() for r in asked}))
            known = {(u.request.kind, _subject(u.request)) for u in found}
            return [Upcoming(_renamed(r), f"asked after {names} answer: you may answer now")
                    for r in mine if (r.kind, _subject(r)) not in known]
        trial, waiting = step.state, step.requests
        if not waiting:
            return []
    return []


def _copy_with_answers(state: GameState, house: str) -> GameState:
    import copy

    trial = copy.copy(state)
    trial.answers = [a for a in state.answers if a.get("house") == house]
    return trial


def _subject(r: Request) -> object:
    return r.context.get("area") or r.context.get("origin") or r.context.get("track") or r.context.get("card")


def _renamed(r: Request) -> Request:
    import dataclasses

    return dataclasses.replace(r, key="ahead." + r.key)


# --- orders, in turn order ---------------------------------------------------------------------


def _orders(state: GameState, board: Board, house: str, asked: list[Request]) -> list[Upcoming]:
    """A house short of tokens makes every house assign in turn order (R122): the later ones may
    send their orders while the earlier ones are asked."""
    first = next((r for r in asked if r.kind == "orders"), None)
    areas = areas_needing_orders(state, board, house)
    if first is None or first.house == house or not areas or any(r.house == house for r in asked):
        return []
    short = is_short(state, board, house, areas)
    allowed = {t: n for t, n in state.order_tokens(house).items() if not is_banned(t, state.restrictions)}
    req = Request(key=_key(state, house, "orders"), kind="orders", house=house,
                  prompt="assign one order to every area with your units", secret=True,
                  context={"areas": list(areas), "tokens": allowed, "special_orders_allowed": state.stars(house, board),
                           "banned": list(state.restrictions), "short": short,
                           "orders_to_place": min(len(areas), eligible_count(state, board, house))},
                  default=default_orders(state, board, house, areas))
    return [Upcoming(req, f"the houses assign their orders in turn order, as a house is short of tokens (R122): "
                          f"you assign after {first.house.title()}; your orders may go now")]


# --- the Messenger Raven ------------------------------------------------------------------------


def _raven(state: GameState, board: Board, house: str, asked: list[Request]) -> list[Upcoming]:
    if state.raven_used or state.holder("kings_court") != house or any(r.house == house and r.kind == "raven" for r in asked):
        return []
    options: tuple[Command, ...] = (Raven(action="pass"),) + ((Raven(action="look"),) if state.wildling_deck else ())
    why = ("you hold the Messenger Raven: it is used after the orders are revealed; send your choice now "
           "(with 'raven: look', say now where the card you see goes)")
    out = [Upcoming(Request(key=_key(state, house, "raven"), kind="raven", house=house,
                            prompt="use the Messenger Raven: swap one of your orders, look at the top wildling card, "
                                   "or pass", options=options, default=Raven(action="pass")),
                    why, ("raven: pass", "raven: look", "raven: swap AREA to ORDER"))]
    if state.wildling_deck:
        cards = tuple(sorted(CARDS.wildling_cards))
        out.append(Upcoming(Request(key=_key(state, house, "raven_wildling"), kind="raven_wildling", house=house,
                                    prompt="after 'raven: look': where the wildling card you see goes",
                                    context={"cards": list(cards)},
                                    options=(RavenKeep(choice="top"), RavenKeep(choice="bottom")),
                                    default=RavenKeep(choice="top")),
                            "with 'raven: look': the card you see goes to the bottom if it is one you name, else it "
                            "stays on top (or the reverse, with 'top if')",
                            ("wildling card: bottom if CARD, CARD", "wildling card: top if CARD, CARD")))
    return out


# --- the action phase ---------------------------------------------------------------------------


def own_orders(state: GameState, house: str, given: dict[str, str] | None, vassal: str = "") -> dict[str, str]:
    """The house's orders by area: as given, on the board, or its own order lines waiting (newest wins);
    with ``vassal``, the orders of that vassal, whose lines its commander ``house`` sent."""
    if given is not None:
        return dict(given)
    placed = {a: st.order.token for a, st in state.areas.items() if st.order and st.order.house == (vassal or house)}
    if placed or state.phase == "action":
        return placed
    used = set(state.segment.used) if state.segment else set()
    out: dict[str, str] = {}
    for a in state.answers:
        if a.get("house") == house and a.get("vassal", "") == vassal and a.get("id") not in used \
                and a.get("command", {}).get("type") == "AssignOrder":
            cmd = from_dict(a["command"])
            assert isinstance(cmd, AssignOrder)
            out[cmd.area] = cmd.token
    return out


def _action(state: GameState, board: Board, house: str, asked: list[Request], orders: dict[str, str]) -> list[Upcoming]:
    return [*own_order_decisions(state, board, house, orders), *_combats(state, board, house, asked, orders)]


def own_order_decisions(state: GameState, board: Board, house: str, orders: dict[str, str],
                        kinds: tuple[str, ...] = ("raid", "march", "consolidate", "support")) -> list[Upcoming]:
    """The decisions the house's own orders of ``kinds`` bring in the Action phase."""
    mine = [o for o in in_board_order(board, orders) if o in board.areas]
    revealed = state.phase == "action"
    later = "in a later cycle, in turn order" if revealed else "in the action phase, in turn order"
    out: list[Upcoming] = []
    for area in mine:
        kind = order_kind(orders[area])
        here = _name(board, area)
        if kind not in kinds:
            continue
        if kind == "raid":
            reach = targets(state, board, house, area) if revealed else \
                [t for t in in_board_order(board, board.neighbours[area]) if reach_problem(state, board, house, area, t) is None]
            raids: tuple[Command, ...] = tuple(Raid(origin=area, targets=(t, None)) for t in reach)
            options = (*raids, Raid(origin=area, targets=(None,)))
            out.append(Upcoming(Request(key=_key(state, house, "raid", area), kind="raid", house=house,
                                        prompt=f"resolve your raid order in {here}",
                                        context={"origin": area, "raid_orders": {area: orders[area]}, "targets": {area: reach}},
                                        options=options, default=options[-1]),
                                f"your raid in {here} resolves {later}: name its targets now (else none)"))
        elif kind == "march":
            movable = [u.type for u in state.area(area).units if u.house == house and not u.routed]
            if not movable:
                continue
            out.append(Upcoming(Request(key=_key(state, house, "march", area), kind="march", house=house,
                                        prompt=f"resolve your march order in {here}",
                                        context={"origin": area, "march_orders": {area: orders[area]},
                                                 "units": {area: movable},
                                                 "destinations": {area: destinations(state, board, house, area)}}),
                                f"your march from {here} resolves {later}: say now where its units go"))
        elif kind == "consolidate":
            out.append(Upcoming(Request(key=_key(state, house, "consolidate", area), kind="consolidate", house=house,
                                        prompt=f"resolve your consolidate power order in {here}",
                                        context={"origin": area}, options=(Consolidate(area=area),),
                                        default=Consolidate(area=area)),
                                f"your consolidate power order in {here} resolves {later}: you may send it now"))
        elif kind == "support":
            sides = (house, *(h for h in state.turn_order() if h != house))
            options = (*(Support(side=s, origin=area) for s in sides), Support(side="none", origin=area))
            out.append(Upcoming(Request(key=_key(state, house, "support", area), kind="support", house=house,
                                        prompt=f"whom your support order in {here} supports",
                                        context={"origin": area}, options=options, default=options[-1]),
                                f"a combat next to {here} calls on your support order: name a side now; it stands "
                                "for every combat it fits",
                                (f"support from {here}: none", f"support from {here}: {house}")))
    return out


def _threatened(state: GameState, board: Board, house: str) -> list[str]:
    """The house's areas another house may attack this round, as far as it can tell."""
    mine = [a for a, st in state.areas.items() if any(u.house == house for u in st.units)]
    if state.phase == "action":
        reach: set[str] = set()
        for area, st in state.areas.items():
            if st.order and st.order.house != house and order_kind(st.order.token) == "march":
                reach |= set(destinations(state, board, st.order.house, area))
        return in_board_order(board, [a for a in mine if a in reach])
    return in_board_order(board, [a for a in mine if any(
        any(u.house != house for u in state.area(n).units) for n in board.neighbours[a])])


def _retreat_areas(state: GameState, board: Board, house: str, area: str) -> list[str]:
    """Where the house's army in ``area`` could retreat, its own areas first (R210-R217, as it stands)."""
    at_sea = board.area(area).is_sea
    found = []
    for n in in_board_order(board, board.neighbours[area]):
        a, st = board.area(n), state.area(n)
        fits = (a.is_sea or (a.is_port and state.controller(n, board) == house)) if at_sea else a.is_land
        if not fits:  # ships retreat to a sea or their own port, armies to land (R215, Q5)
            continue
        if n in state.impassable or st.neutral_force or any(u.house != house for u in st.units):
            continue
        owner = state.controller(n, board)
        if (st.power_token and st.power_token != house) or (a.home_of and owner and owner != house):
            continue
        found.append(n)
    return sorted(found, key=lambda n: state.controller(n, board) != house)[:3]


def retreat_decisions(state: GameState, board: Board, house: str) -> list[Upcoming]:
    """Where the house retreats from each of its areas another house may attack, if it loses there."""
    out: list[Upcoming] = []
    for area in _threatened(state, board, house):
        if not any(u.house == house and u.type != "siege_engine" for u in state.area(area).units):
            continue
        where = _retreat_areas(state, board, house, area)
        if not where:
            continue
        when = CombatFilter(role="defender", area=area)
        here = _name(board, area)
        out.append(Upcoming(Request(key=_key(state, house, "retreat", area), kind="retreat", house=house,
                                    prompt=f"retreat from {here}, if you are attacked there and lose",
                                    context={"combat_area": area, "legal_areas": where},
                                    options=(Retreat(areas=tuple(where), when=when),),
                                    default=Retreat(areas=tuple(where), when=when)),
                            f"you may be attacked in {here}: if you lose there, where your army retreats"))
    return out


def may_fight(state: GameState, board: Board, house: str, orders: dict[str, str]) -> bool:
    """Whether the house may fight a combat this round, as far as it can tell: attacked where another
    house's march may reach, or attacking a house from one of its ``orders``."""
    return bool(_threatened(state, board, house)) or any(
        order_kind(t) == "march" and a in board.areas
        and any(hostile(state, board, house, d) not in (None, "neutral force") for d in destinations(state, board, house, a))
        for a, t in orders.items())


def _combats(state: GameState, board: Board, house: str, asked: list[Request], orders: dict[str, str]) -> list[Upcoming]:
    out = retreat_decisions(state, board, house)
    fights = may_fight(state, board, house, orders)
    hand = list(state.houses[house].hand)
    if fights and len(hand) > 1 and not any(r.house == house and r.kind == "house_card" for r in asked):
        out.append(Upcoming(Request(key=_key(state, house, "house_card"), kind="house_card", house=house,
                                    prompt="your house card, if you fight a combat", context={"hand": hand},
                                    options=tuple(PlayCard(card=c) for c in hand)),
                            "if you fight a combat, your house card: each line is used once, the last one first; "
                            "a condition ties one to a combat",
                            ("play CARD", "if attacked in AREA: play CARD", "if attacking AREA: play CARD")))
    if fights:
        for card in hand:
            if card in CARD_CHOICES and not any(r.house == house and r.kind == "card_choice" for r in asked):
                options = tuple(CardChoice(card=card, option=kw.get("option"), track=kw.get("track"))
                                for kw in CARD_CHOICES[card])
                out.append(Upcoming(Request(key=_key(state, house, "card_choice", card), kind="card_choice", house=house,
                                            prompt=f"the choice of {_card_name(card)}, if you play it",
                                            context={"card": card}, options=options, default=options[-1]),
                                    f"if you play {_card_name(card)}, its choice: you may make it now"))
    if fights and state.holder("fiefdoms") == house and not state.blade_used \
            and not any(r.house == house and r.kind == "blade" for r in asked):
        out.append(Upcoming(Request(key=_key(state, house, "blade"), kind="blade", house=house,
                                    prompt="use the Valyrian Steel Blade in your next combat, or keep it",
                                    options=(UseBlade(use=True), UseBlade(use=False)), default=UseBlade(use=False)),
                            "you hold the Valyrian Steel Blade: if you fight, use it or keep it ('keep blade' holds "
                            "for one combat: the Blade is asked again in the next)"))
    return out


# The house cards whose choice can be made before the combat is known: the options, the default last
# (each card's ``choice.ahead`` in its cards.toml).
CARD_CHOICES: dict[str, tuple[dict[str, str], ...]] = {
    key.partition(":")[2]: c.ahead for key, c in CARDS.choices.items() if key.startswith("house_card:") and c.ahead
}


def _card_name(card: str) -> str:
    found = CARDS.house_cards.get(card)
    return found.name if found else card


# --- what the house has answered already ---------------------------------------------------------


def _answered(state: GameState, house: str, req: Request) -> bool:
    """Whether one of the house's own answers waiting in the game already answers this decision. A
    standing instruction does not count: it may not fit when the decision comes (ruling 355), and a
    line sent now, knowing more, is used before it."""
    used = set(state.segment.used) if state.segment else set()
    for a in state.answers:
        if a.get("house") != house or a.get("vassal", "") != req.vassal or a.get("id") in used or a.get("standing"):
            continue
        cmd = from_dict(a["command"])
        if cmd.kind == req.kind and _fits(cmd, req):
            return True
    return False


def _fits(cmd: Command, req: Request) -> bool:
    ctx = req.context
    if isinstance(cmd, Muster):
        return cmd.area == ctx.get("area")
    if isinstance(cmd, IronBank):
        return cmd.area == ctx.get("origin")
    if isinstance(cmd, InterestLosses):
        return cmd.debtor == ctx.get("debtor")
    if isinstance(cmd, DistributeBid):
        return cmd.track == ctx.get("track")
    if isinstance(cmd, (Raid, Consolidate)):
        return (cmd.origin if isinstance(cmd, Raid) else cmd.area) == ctx.get("origin")
    if isinstance(cmd, Support):
        return cmd.origin in (None, ctx.get("origin"))
    if isinstance(cmd, Bid):
        return cmd.track == ctx.get("track")
    if isinstance(cmd, WesterosChoice) and "part" in ctx:  # a deck IV move, or Targaryen's cancels (ruling 295)
        standing = cancels_moves(cmd)
        return cmd.card == ctx["card"] and (standing if ctx["part"] == "cancel" else "+" in cmd.option and not standing)
    if isinstance(cmd, (WesterosChoice, CardChoice)):
        return cmd.card == ctx.get("card")
    if isinstance(cmd, TieBreak):
        return cmd.context is None  # one for a single track leaves the others' ties open
    if isinstance(cmd, (AssignOrder, LeaveUnordered)):
        return True  # orders sent: the set is the engine's to judge
    if isinstance(cmd, Retreat):
        return cmd.when is None or cmd.when.area in (None, ctx.get("combat_area"))
    if hasattr(cmd, "origin"):  # a march
        return getattr(cmd, "origin", None) == ctx.get("origin")
    return True  # raven, the card's placement, tie-breaks, house cards, the blade: one line answers
