"""What comes up for a house in a Mother of Dragons game, and may be answered now (rulings 124, 295-298).

The expansion's own decisions, found as :mod:`.ahead` finds the base game's: the loyalty-token moves
of Scattering Dissent and Word Spreads Quickly and Targaryen's cancels of them (ruling 295), the
choice of a vassal with a set of vassal orders (ruling 296), the orders a commander gives for its
vassals: their raids, marches and Defense/Muster orders (ruling 297), Targaryen's deck IV choices
and distributions of its bids, and the Iron Bank's loans (ruling 298). Only what the house may know
is read: the Westeros cards revealed this phase, the public board, who commands which vassal
(public), and the house's own answers.
"""

from __future__ import annotations

import dataclasses

from ..game.board import Board, HouseId
from ..game.cards import CARDS
from ..game.commands import (
    CANCEL_MOVES,
    VASSAL_KEPT_TOKENS,
    CommandVassal,
    Consolidate,
    PlayCard,
    UseBlade,
    WesterosChoice,
    order_kinds,
)
from ..game.hooks import register
from ..game.state import GameState
from .ahead import (
    TRACK_WORDS,
    Upcoming,
    cards_to_come,
    may_fight,
    own_order_decisions,
    own_orders,
    retreat_decisions,
)
from .cards.westeros_iv import NOTHING, TARGARYEN_OPTIONS
from .core.context import Request
from .core.mustering import legal_single_actions
from .core.targaryen import TARGARYEN

SPREAD_CARDS = ("scattering_dissent", "word_spreads_quickly")  # each player moves a loyalty token (ruling 216)


def _key(state: GameState, house: str, kind: str, detail: str) -> str:
    return f"ahead.r{state.round}.{state.phase}.{kind}.{house}.{detail}"


def decisions(state: GameState, board: Board, house: HouseId, asked: list[Request], orders: dict[str, str] | None,
              commanded: dict[str, dict[str, str]] | None) -> list[Upcoming]:
    """The expansion's decisions coming up for ``house`` (the ``decisions_ahead`` hook of
    :func:`.ahead.upcoming`, which passes its own arguments on: ``commanded`` is its ``vassal_orders``)."""
    found: list[Upcoming] = []
    if state.phase == "westeros":
        found += westeros(state, board, house, asked)
    elif state.phase == "planning":
        found += vassal_choice(state, house, asked)
    if state.phase in ("planning", "action"):
        found += iron_bank(state, board, house, own_orders(state, house, orders))
        found += vassal_orders(state, board, house, asked, commanded)
    return found


register("decisions_ahead", "vassals", decisions)


# --- Westeros deck IV: the loyalty-token moves ---------------------------------------------------


def westeros(state: GameState, board: Board, house: HouseId, asked: list[Request]) -> list[Upcoming]:
    """The moves of the deck IV cards revealed this phase, Targaryen's cancels, and the vassal choice
    that opens the Planning phase."""
    now, later = cards_to_come(state)
    out: list[Upcoming] = []
    for card in [c for c in ([now] if now else []) + later if c in TARGARYEN_OPTIONS and house == TARGARYEN]:
        if not (card == now and _chosen(state, asked, card)):
            out += _deck_iv_choice(state, board, card)
    for card in [c for c in ([now] if now else []) + later if c in SPREAD_CARDS]:
        name = CARDS.westeros_card(4, card).name
        if house in state.players() and not (card == now and _moved(state, house, card, asked)):
            out.append(_move(state, board, house, card, name))
        if house == TARGARYEN:
            out.append(_cancels(state, card, name))
    if house == TARGARYEN:
        out += _distributions(state, asked, now, later)
    return out + interest(state, board, house, asked) + vassal_musters(state, board, house, asked) \
        + vassal_choice(state, house, asked)


def interest(state: GameState, board: Board, house: HouseId, asked: list[Request]) -> list[Upcoming]:
    """While one debtor's unpaid interest is asked, the later debtors' (in turn order) whose units the
    house destroys: what each owes and holds is public (M109, M110, ruling 298)."""
    from .rules.iron_bank import chooser, default_losses  # a rule module, read only while interest is asked

    now = next((r for r in asked if r.kind == "interest"), None)
    if now is None:
        return []
    order = [h for h in state.turn_order() if not state.is_vassal(h)]
    out = []
    for debtor in order[order.index(str(now.context["debtor"])) + 1:]:
        owed = len(state.houses[debtor].loans)
        short = min(owed - min(owed, state.houses[debtor].power), len(state.units_of(debtor)))
        if not short or chooser(state, debtor) != house:
            continue
        req = Request(key=_key(state, house, "interest", debtor), kind="interest", house=house,
                      prompt=f"destroy {short} of {debtor.title()}'s units for the interest it could not pay",
                      context={"debtor": debtor, "short": short}, default=default_losses(state, board, debtor, short))
        out.append(Upcoming(req, f"{debtor.title()} cannot pay all its interest either and you choose its losses "
                                 "after the debt asked now: name them now (ruling 298)"))
    return out


def vassal_musters(state: GameState, board: Board, house: HouseId, asked: list[Request]) -> list[Upcoming]:
    """The musters of the vassals the house commands (in their home areas, M073, M074), found as its
    own are, answered with ``for VASSAL:`` lines (ruling 297)."""
    from .ahead import westeros_decisions  # the base game's, for the vassal in the commander's place

    out: list[Upcoming] = []
    for vassal in [v for v in state.turn_order() if state.commanders.get(v) == house]:
        if any(r.vassal == vassal and r.kind == "muster" for r in asked):
            continue  # asked now, of its commander
        seen = [r for r in asked if not r.vassal]  # what the vassal itself is not asked
        found = [u for u in westeros_decisions(state, board, vassal, seen) if u.request.kind == "muster"]
        out += [_for_commander(u, house, vassal) for u in found]
    return out


def _chosen(state: GameState, asked: list[Request], card: str) -> bool:
    """Whether Targaryen has made, or is asked now, its choice of the deck IV card resolving now."""
    if any(r.house == TARGARYEN and r.kind == "westeros_choice" for r in asked):
        return True
    return any(key.endswith(f".westeros_choice.{TARGARYEN}") for key in (state.segment.decisions if state.segment else {}))


def _deck_iv_choice(state: GameState, board: Board, card: str) -> list[Upcoming]:
    """Targaryen's choice of a deck IV card, among the choices the position allows now (ruling 298)."""
    options = TARGARYEN_OPTIONS[card](state, board)
    if options == [NOTHING]:
        return []  # nothing to choose now (no power): most likely not asked
    name = CARDS.westeros_card(4, card).name
    req = Request(key=_key(state, TARGARYEN, "westeros_choice", card), kind="westeros_choice", house=TARGARYEN,
                  prompt=f"choose how {name} resolves", context={"card": card},
                  options=tuple(WesterosChoice(card=card, option=o) for o in options),
                  default=WesterosChoice(card=card, option=NOTHING))
    return [Upcoming(req, f"{name} resolves later in this phase: you may choose now; a choice the position no "
                          "longer allows then is refused and asked (ruling 298)")]


INFLUENCE = ("iron_throne", "fiefdoms", "kings_court")


def _distributions(state: GameState, asked: list[Request], now: str | None, later: list[str]) -> list[Upcoming]:
    """Targaryen's bid given away on each influence track still to be bid for (M100, ruling 298)."""
    bidding = next((r for r in asked if r.kind == "bid" and r.context.get("track") in INFLUENCE), None)
    if bidding is not None:
        tracks = INFLUENCE[INFLUENCE.index(str(bidding.context["track"])):]
    elif any(c in ("clash_of_kings", "dark_wings_dark_words") for c in ([now] if now else []) + later):
        tracks = INFLUENCE
    else:
        return []
    waiting = _own_bids(state)
    out = []
    for track in tracks:
        others = [h for h in state.tracks.get(track, state.turn_order()) if h != TARGARYEN]
        bid = waiting.get(track, state.houses[TARGARYEN].power)
        req = Request(key=_key(state, TARGARYEN, "distribute", track), kind="distribute", house=TARGARYEN,
                      prompt=f"give away the power you bid for {TRACK_WORDS[track]}: all of it",
                      context={"track": track, "bid": bid, "houses": others}, secret=True)
        out.append(Upcoming(req, "after the bids are revealed you give away all the power you bid: it may go "
                                 "now, with your bid; it is used only if it gives exactly your bid (ruling 298)",
                            (f"distribute {TRACK_WORDS[track].removeprefix('the ')}: N to HOUSE, N to HOUSE",)))
    return out


def _own_bids(state: GameState) -> dict[str, int]:
    """Targaryen's bids waiting in the game, by track (the newest wins)."""
    used = set(state.segment.used) if state.segment else set()
    out: dict[str, int] = {}
    for a in state.answers:
        cmd = a.get("command", {})
        if a.get("house") == TARGARYEN and a.get("id") not in used and cmd.get("type") == "Bid":
            out[str(cmd.get("track"))] = int(cmd.get("amount", 0))
    return out


def _moved(state: GameState, house: str, card: str, asked: list[Request]) -> bool:
    """Whether the house has moved its token for the card resolving now, or is asked to now."""
    if any(r.house == house and r.kind == "westeros_choice" and r.context.get("card") == card
           and "mover" not in r.context for r in asked):
        return True
    for key, record in (state.segment.decisions.items() if state.segment else ()):
        value = record.get("value") if isinstance(record, dict) else None
        if (key.endswith(f".westeros_choice.{house}") and isinstance(value, dict) and value.get("card") == card
                and "+" in str(value.get("option", "")) and not str(value.get("option", "")).startswith(CANCEL_MOVES)):
            return True
    return False


def _move(state: GameState, board: Board, house: str, card: str, name: str) -> Upcoming:
    """The house's move, among the moves the board allows now (the banner's tokens counted)."""
    banner = {a for a in CARDS.westeros_card(4, card).banner if state.controller(a, board) != TARGARYEN}  # else gained
    loyal = {a for a, s in state.areas.items() if s.loyalty} | banner
    moves = [f"{a}+{n}" for a in sorted(loyal) for n in sorted(board.neighbours[a]) if board.area(n).is_land]
    options = tuple(WesterosChoice(card=card, option=m) for m in moves)
    req = Request(key=_key(state, house, "westeros_choice", f"{card}.move"), kind="westeros_choice", house=house,
                  prompt=f"{name}: move one loyalty token to an adjacent land area ('FROM, TO')",
                  context={"card": card, "part": "move"}, options=options, default=options[0] if options else None)
    return Upcoming(req, f"{name} resolves in this phase: your move of a loyalty token may go now; if the token "
                         "is gone by your turn, the move is refused and asked (ruling 295)")


def _cancels(state: GameState, card: str, name: str) -> Upcoming:
    """Targaryen's standing answer: whose moves it cancels, each at the card's price while it can pay."""
    others = [h for h in state.players() if h != TARGARYEN]
    picks = [[], others, *([h] for h in others)]
    options = tuple(WesterosChoice(card=card, option=CANCEL_MOVES + "+".join(p)) for p in picks)
    req = Request(key=_key(state, TARGARYEN, "westeros_choice", f"{card}.cancel"), kind="westeros_choice",
                  house=TARGARYEN, prompt=f"{name}: whose loyalty-token moves you cancel, paying for each",
                  context={"card": card, "part": "cancel"}, options=options, default=options[0])
    return Upcoming(req, f"{name} resolves in this phase: name now the houses whose moves you cancel; it "
                         "stands for every move of the card, and the others' moves stand (ruling 295)",
                    (f"{name}: cancel HOUSE, HOUSE", f"{name}: cancel none"))


# --- the choice of vassals (M034-M037) -------------------------------------------------------------


def vassal_choice(state: GameState, house: HouseId, asked: list[Request]) -> list[Upcoming]:
    """The choice of a vassal, for a player that may still be handed a set of vassal orders this round."""
    if not state.vassals or house not in state.players() or state.phase not in ("westeros", "planning"):
        return []
    players = [h for h in state.turn_order() if h in state.players()]
    if house == players[-1] or any(r.house == house and r.kind == "vassal_choice" for r in asked):
        return []  # the last player takes the rest unasked (M037)
    if state.phase == "planning":
        choosing = any(r.kind == "vassal_choice" for r in asked)
        holders = state.vassal_sets
        below = holders and players.index(house) > players.index(holders[0])
        if not choosing or not (house in holders[1:] or below):
            return []
        free = [v for v in state.turn_order() if v in state.vassals and v not in state.commanders]
        why = "the sets of vassal orders go down the Iron Throne track: if one comes to you"
    else:
        free = [v for v in state.turn_order() if v in state.vassals]
        why = "the Planning phase opens with the choice of vassals: if a set of vassal orders comes to you"
    options = (*(CommandVassal(vassal=v) for v in free), CommandVassal(vassal=None))
    req = Request(key=_key(state, house, "vassal_choice", "next"), kind="vassal_choice", house=house,
                  prompt="with a set of vassal orders, command a vassal nobody commands yet, or pass it on",
                  context={"vassals": list(free)}, options=options, default=CommandVassal(vassal=None))
    return [Upcoming(req, f"{why}, the first vassal you name that is still free (ruling 296)",
                     ("command VASSAL else VASSAL else none",))]


# --- the vassals' orders in the Action phase (ruling 297) ------------------------------------------


def vassal_orders(state: GameState, board: Board, house: HouseId, asked: list[Request],
                  given: dict[str, dict[str, str]] | None = None) -> list[Upcoming]:
    """The raids, marches and Defense/Muster orders of the vassals the house commands, answered with
    ``for VASSAL:`` lines; their orders as ``given`` by vassal, on the board, or in its lines waiting."""
    out: list[Upcoming] = []
    for vassal in [v for v in state.turn_order() if state.commanders.get(v) == house]:
        orders = own_orders(state, house, (given or {}).get(vassal), vassal)
        found = own_order_decisions(state, board, vassal, orders, kinds=("raid", "march"))
        # A Raid/Support token that does not raid stays as a support order (M047, M048): whom it supports.
        supports = {a: VASSAL_KEPT_TOKENS.get(t, t) for a, t in orders.items() if "support" in order_kinds(t)}
        found += own_order_decisions(state, board, vassal, supports, kinds=("support",))
        found += _defense_musters(state, board, vassal, orders)
        found += retreat_decisions(state, board, vassal)
        found += iron_bank(state, board, vassal, orders)
        out += [_for_commander(u, house, vassal) for u in found
                if not any(r.house == house and r.vassal == vassal and r.kind == u.request.kind for r in asked)]
    return out


def vassal_combat(state: GameState, board: Board, commander: str, vassal: str, orders: dict[str, str]) -> list[Upcoming]:
    """If the vassal may fight: the card its commander plays for it, of the 3 it draws from the vassal
    deck (M058), as a preference over the whole deck, and the commander's Blade for it (M060); the
    requests are the vassal's, as the engine asks them (ruling 361). Robots answer them; they are not
    in the commander's coming-up list yet (the sample games' reports would change)."""
    if not may_fight(state, board, vassal, orders):
        return []
    deck = list(CARDS.vassal_deck())
    out = [Upcoming(Request(key=_key(state, vassal, "house_card", "vassal"), kind="house_card", house=vassal,
                            prompt="the vassal card it plays, if it fights a combat: of the 3 it draws",
                            context={"hand": deck}, options=tuple(PlayCard(card=c) for c in deck)),
                    "if it fights, a card of the 3 it draws from the vassal deck: one line per card, the last "
                    "one drawn first; each line is used once", ("play CARD",))]
    if state.holder("fiefdoms") == commander and not state.blade_used:
        out.append(Upcoming(Request(key=_key(state, vassal, "blade", "vassal"), kind="blade", house=vassal,
                                    prompt="use the Valyrian Steel Blade in its next combat, or keep it",
                                    options=(UseBlade(use=True), UseBlade(use=False)), default=UseBlade(use=False)),
                            "you hold the Valyrian Steel Blade: if it fights, use it for it or keep it (M060)"))
    return out


def iron_bank(state: GameState, board: Board, house: str, orders: dict[str, str]) -> list[Upcoming]:
    """An Iron Bank order: the loan it takes, or none (M104, M117, ruling 298)."""
    from .rules.iron_bank import loan_options  # a rule module, read only for an Iron Bank order

    out = []
    for area in [a for a, t in orders.items() if t == "iron_bank" and a in board.areas]:
        options = tuple(loan_options(state, board, house, area))
        here = board.area(area).name
        req = Request(key=_key(state, house, "consolidate", area), kind="consolidate", house=house,
                      prompt=f"resolve your Iron Bank order in {here}: take one face-up loan, or none",
                      context={"origin": area, "iron_bank_orders": [area], "loan_slots": list(state.loan_slots)},
                      options=options, default=options[0])
        out.append(Upcoming(req, f"your Iron Bank order in {here} resolves with the consolidations: name the loan "
                                 "now; if it is gone or too dear by then, it is refused and asked (ruling 298)"))
    return out


def _defense_musters(state: GameState, board: Board, vassal: str, orders: dict[str, str]) -> list[Upcoming]:
    """A Defense 1/Muster order: muster with it, or keep it as a defense order (M051)."""
    from .rules.consolidate import defense_muster_problem  # a rule module, read only for a vassal's order

    out = []
    for area in [a for a, t in orders.items() if t == "vassal_defense_muster"]:
        if defense_muster_problem(state, board, area) is not None:
            continue
        points = state.effective_area(area, board).muster_points
        keep = Consolidate(area=area)
        singles = legal_single_actions(state, board, vassal, area, points)
        here = board.area(area).name
        req = Request(key=_key(state, vassal, "consolidate", area), kind="consolidate", house=vassal,
                      prompt=f"muster with the Defense 1/Muster order in {here}, or keep it as a defense order",
                      context={"defense_muster": area, "points": points, "origin": area},
                      options=(*(Consolidate(area=area, muster=(a,)) for a in singles), keep), default=keep)
        out.append(Upcoming(req, f"the Defense 1/Muster order in {here} resolves in the consolidation cycle: "
                                 "you may send it now"))
    return out


def _for_commander(u: Upcoming, commander: str, vassal: str) -> Upcoming:
    """A vassal's decision as its commander answers it (M030)."""
    prompt = u.request.prompt.replace("if you are attacked there and lose", "if it is attacked there and loses")
    req = dataclasses.replace(u.request, house=commander, vassal=vassal, prompt=f"for {vassal.title()}: {prompt}")
    name = vassal.title()
    why = u.why.replace("you may be attacked", f"{name} may be attacked").replace("if you lose", "if it loses")
    why = why.replace("your ", f"{name}'s ")
    return dataclasses.replace(u, request=req, why=why, lines=tuple(f"for {vassal}: {line}" for line in u.lines))
