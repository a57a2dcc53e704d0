"""Whether a standing instruction could ever fit a decision of its game (ruling 356).

A standing line waits for every decision it fits, round after round (ruling 353); one that fits
now and then is skipped, with a word, by the decisions it does not fit (ruling 355). A line that
no decision of the game could ever use is refused when it is sent, with the rule, so that its
player learns at once instead of never: :func:`never_fits`. Only what no round can change is
judged here:

* a card no decision of this game can ask for: a House card of another house or of a deck the
  game does not deal, a Westeros card of a deck the game does not use, or one whose choice belongs
  to a house this one can never be;
* an area the house can never hold or use: one closed for the whole game (R235), a castle muster
  for a vassal away from its home area (M074), a ship with nowhere to go (R075);
* more than the rules or the box can ever give: a muster over its area's points or over the
  house's units of a type (R011, R079), a bid over the house's 20 power tokens;
* a house the game does not have, or a part of the rules it does not use (the Iron Bank,
  vassals).

Each reason ends with the rule, the most specific one: the expansion's own where it has one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...game.board import Board
from ...game.cards import CARDS, VASSAL
from ...game.commands import (
    Bid,
    CardChoice,
    Command,
    CommandVassal,
    DistributeBid,
    InterestLosses,
    Located,
    Muster,
    MusterAction,
    PlayCard,
    PortShips,
    Reconcile,
    RefuseSupport,
    Support,
    TieBreak,
    WesterosChoice,
    WildlingChoice,
)
from ...game.state import GameState
from ..core.context import PoolEntry

# The Westeros cards whose choice belongs to the holder of a dominance token (R044, R047, R056).
DOMINANCE_CARDS = ("a_throne_of_blades", "dark_wings_dark_words", "put_to_the_sword")
# The deck IV cards that ask a player other than Targaryen for a part of their resolution (ruling 216, §9.8).
NAMED_PLAYER_CARDS = ("the_long_plan", "playing_with_fire", "scattering_dissent", "word_spreads_quickly")
POWER_TOKENS = 20  # each house's power tokens (R011)
MUSTERED = ("footman", "knight", "siege_engine", "ship")  # what mustering brings into play (R069)


def never_fits(state: GameState, board: Board, entry: PoolEntry) -> str | None:
    """Why no decision of this game could ever use the standing instruction ``entry`` (ruling 356),
    ending with the rule; ``None`` when one may.

    >>> from adjudicator.game.setup import new_game
    >>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
    >>> never_fits(s, Board.classic(), PoolEntry("stark/1", "stark", 1, Muster(area="highgarden"), "", standing=True))
    'Highgarden is closed for the whole game (a neutral force token of the three-player game): no house ever holds it (R235)'
    """
    cmd, house = entry.command, entry.vassal or entry.house
    if entry.vassal and entry.vassal not in state.vassals:
        return f"{entry.vassal.title()} is not a vassal in this game; 'for HOUSE:' answers for a vassal (M030)"
    why = _closed_area(state, board, cmd) or _absent_house(state, house, cmd)
    if why:
        return why
    if state.is_vassal(house) and (why := vassal_never(house, cmd)):
        return why
    if isinstance(cmd, (PlayCard, CardChoice)):
        return house_card_problem(state, VASSAL if state.is_vassal(house) else house, cmd.card)
    if isinstance(cmd, WesterosChoice):
        return _westeros_card(state, house, cmd)
    if isinstance(cmd, Muster):
        return _muster(state, board, house, cmd)
    if isinstance(cmd, Reconcile):
        return _units(state, board, house, cmd.removals, "R060")
    if isinstance(cmd, InterestLosses):
        return _interest(state, board, cmd)
    if isinstance(cmd, Bid) and cmd.amount > POWER_TOKENS:
        return f"a house owns {POWER_TOKENS} power tokens, so no bid of yours can ever be {cmd.amount} (R011, R082)"
    if isinstance(cmd, DistributeBid) and house != "targaryen":
        return "only Targaryen gives away the power it bid (M100)"
    if isinstance(cmd, CommandVassal):
        return _command(state, house, cmd)
    if isinstance(cmd, PortShips) and not board.area(cmd.port).is_port:
        return f"{board.area(cmd.port).name} is not a port (R246)"
    return None


def not_own_card(house: str, card: str, rule: str = "R192") -> str | None:
    """Why a house cannot play this House card, or None when it is its own: another house's (R192,
    or ``rule``: Mother of Dragons' M007), a vassal card of a player or another card of a vassal (M058).

    >>> not_own_card("stark", "syrio_forel")
    'Syrio Forel is a vassal house card: only a vassal plays it, one of the vassal cards drawn for it (M058)'
    """
    known = CARDS.house_cards.get(card)
    if known is None:
        return f"there is no House card called {card!r} ({rule})"
    if known.house != house and house == VASSAL:
        return f"{known.name} is not a vassal house card: a vassal plays one of the vassal cards drawn for it (M058)"
    if known.house == VASSAL and house != VASSAL:
        return f"{known.name} is a vassal house card: only a vassal plays it, one of the vassal cards drawn for it (M058)"
    if known.house != house:
        return f"{known.name} is a House card of {known.house.title()}, not one of yours ({rule})"
    return None


def house_card_problem(state: GameState, house: str, card: str) -> str | None:
    """Why ``house`` never holds this House card in this game: not its own (:func:`not_own_card`; in
    Mother of Dragons each player takes its house's cards by M007), or of a deck the game does not
    deal (ruling 370)."""
    why = not_own_card(house, card, "M007" if state.box.has("vassals") else "R192")
    held = state.houses.get(house)
    if held is not None and (card in held.hand or card in held.discards):
        return why  # a card the house holds is one of its deck's, whatever the table setting says
    if why is None and CARDS.house_cards[card].set not in state.card_sets():
        return (f"{CARDS.house_cards[card].name} is a card of a house deck this game does not deal: "
                f"your hand is the game's {state.house_deck()} deck (ruling 370)")
    return why


def _areas_named(cmd: Command) -> Iterable[str]:
    """Every area a line names, its condition's included."""
    when = getattr(cmd, "when", None)
    if when is not None and when.area:
        yield when.area
    if isinstance(cmd, Muster):
        yield cmd.area
        yield from (a.to for actions in cmd.choices() for a in actions if a.to)
    if isinstance(cmd, (Reconcile, InterestLosses)):
        yield from (r.area for r in cmd.removals)
    if isinstance(cmd, WildlingChoice):
        yield from (u.area for u in cmd.units)
    if isinstance(cmd, Support) and cmd.combat_area:
        yield cmd.combat_area
    if isinstance(cmd, Support) and cmd.origin:
        yield cmd.origin
    if isinstance(cmd, PortShips):
        yield cmd.port


def _closed_area(state: GameState, board: Board, cmd: Command) -> str | None:
    """An area no house ever enters: not on this game's board, or closed by a '~' token (R235)."""
    for area in _areas_named(cmd):
        if area not in board.areas:
            named = area.replace("_", " ").title()
            if state.box.has("vassals"):  # Essos, in an expansion game without Targaryen
                return f"{named} is not on this game's board: the Essos side board is used only with Targaryen (M009)"
            return f"{named} is not an area of this game's board (R003)"
        if area in state.impassable:
            return (f"{board.area(area).name} is closed for the whole game (a neutral force token of the three-player "
                    "game): no house ever holds it (R235)")
    return None


def _absent_house(state: GameState, house: str, cmd: Command) -> str | None:
    """A house named that is not in this game, or one's own house as its opponent."""
    named: list[str | None] = []
    when = getattr(cmd, "when", None)
    if when is not None:
        named.append(when.opponent)
    if isinstance(cmd, Support) and cmd.side not in (None, "attacker", "defender"):
        named.append(cmd.side)
    if isinstance(cmd, RefuseSupport):
        named.append(cmd.supporter)
    if isinstance(cmd, TieBreak):
        named.extend(cmd.order)
    if isinstance(cmd, DistributeBid):
        named.extend(g.house for g in cmd.gifts)
    if isinstance(cmd, InterestLosses):
        named.append(cmd.debtor)
    for other in named:
        if other is not None and other not in state.houses_in_play:
            return f"{other.title()} is not in this game ({houses_rule(state, other)})"
    if when is not None and when.opponent == house:
        return "a house never fights itself: the opponent named is your own house (R169)"
    return None


def houses_rule(state: GameState, house: str) -> str:
    """The rule that leaves ``house`` out of this game: the player count's (R029-R032), or, with
    Mother of Dragons, Targaryen's absence when no player chose it (M006)."""
    if state.box.has("vassals"):
        return "M006" if house == "targaryen" else "M005"
    return {6: "R029", 5: "R030", 4: "R031", 3: "R032"}.get(len(state.houses_in_play), "R001")


def vassal_never(house: str, cmd: Command) -> str | None:
    """Why the vassal ``house`` is never asked what ``cmd`` answers (M034, M064-M066), whoever commands
    it, or ``None``: a standing line and an answer of this round alike."""
    if isinstance(cmd, Bid):
        return ("a vassal never bids against the wildlings (M066)" if cmd.track == "wildlings" else
                "a vassal always bids 0 on the influence tracks and is never asked (M064)")
    if isinstance(cmd, WildlingChoice):
        return f"{house.title()} is a vassal, which takes no part against the wildlings and gains or loses nothing (M066)"
    if isinstance(cmd, WesterosChoice) and cmd.card in DOMINANCE_CARDS:
        return f"{house.title()} is a vassal, which never holds a dominance token, so never chooses for this card (M065)"
    if isinstance(cmd, TieBreak):
        return f"{house.title()} is a vassal, which never holds the Iron Throne, so never breaks a tie (M065, R084)"
    if isinstance(cmd, CommandVassal):
        return f"{house.title()} is a vassal: only a player holding a set of vassal orders commands one (M034)"
    return None


def _westeros_card(state: GameState, house: str, cmd: WesterosChoice) -> str | None:
    card = next((c for c in CARDS.westeros if c.id == cmd.card), None)
    if card is None:
        return f"there is no Westeros card called {cmd.card!r} (R039)"
    if str(card.deck) not in state.westeros_decks:
        return f"{card.name} is a card of Westeros deck IV, which this game does not use (M006, M082)"
    if card.deck == 4 and house != "targaryen" and cmd.card not in NAMED_PLAYER_CARDS:
        return f"only Targaryen chooses for {card.name}, a card of Westeros deck IV (M083)"
    return None


def _muster(state: GameState, board: Board, house: str, cmd: Muster) -> str | None:
    from ..core.mustering import UPGRADES, cost  # the Westeros Phase's rules: loaded only for a standing muster

    area = board.area(cmd.area)
    points = _most_points(state, board, cmd.area)
    if not points:
        return f"{area.name} has no castle or stronghold: no house ever musters there (R067)"
    if state.is_vassal(house) and cmd.area != board.home_area(house):
        home = board.area(board.home_area(house)).name
        return (f"a Westeros card musters for a vassal only in its home area, {home}, never in {area.name} "
                "(M074, ruling 245)")
    spent = max(cost(actions) for actions in cmd.choices())
    if spent > points:
        return (f"mustering {'a choice of ' if cmd.otherwise else ''}this in {area.name} costs {spent} points, and "
                f"its {area.fortification} never gives more than {points} (R068, R069)")
    for actions in cmd.choices():
        for a in actions:
            if a.unit == "dragon":
                return "dragons are never mustered: Targaryen has its three from the start (M087)"
            if a.unit not in MUSTERED:
                return f"{a.unit.replace('_', ' ')!r} is not a unit that can be mustered (R069)"
            if a.upgrade and a.unit not in UPGRADES:
                return f"only a knight or a siege engine replaces a footman, never a {a.unit.replace('_', ' ')} (R071)"
            if (why := _placed(state, board, cmd.area, a)):
                return why
        if (why := _box(board, house, Counter(a.unit for a in actions), "to muster", "R079")):
            return why
    return None


def _most_points(state: GameState, board: Board, area_id: str) -> int:
    """The most mustering points an area can ever give: its printed ones, or a stronghold's where the
    Iron Bank's Master-at-Arms may still improve its castle (M119, ruling 260)."""
    from ..core.bank import bank_in_play  # the Iron Bank's rules: loaded only where an answer needs them

    area = board.area(area_id)
    if area.fortification == "castle" and (bank_in_play(state) or state.effective_area(area_id, board).muster_points > 1):
        return 2
    return area.muster_points


def _placed(state: GameState, board: Board, area_id: str, a: MusterAction) -> str | None:
    """Where a mustered unit goes: ships into the area's port or an adjacent sea (R075), the others
    into the area itself (R070, R078)."""
    area = board.area(area_id)
    if a.unit != "ship":
        if a.to not in (None, area_id):
            return f"footmen, knights and siege engines are mustered into {area.name} itself, never elsewhere (R070, R078)"
        return None
    seas = [n for n in board.neighbours[area_id] if board.area(n).is_sea]
    port = area.port if area.port and area.port not in state.impassable else None
    if a.to is None and not seas and port is None:
        return f"{area.name} has no port and no adjacent sea: no ship is ever mustered there (R075)"
    if a.to is not None and a.to != port and a.to not in seas:
        return f"a ship mustered in {area.name} goes into its own port or an adjacent sea, never {board.area(a.to).name} (R075)"
    return None


def _box(board: Board, house: str, wanted: Counter[str], what: str, rule: str) -> str | None:
    """More units of a type than the house owns (R011), ``rule`` the rule of what is done with them."""
    for unit, n in sorted(wanted.items()):
        owned = board.unit_limit(unit, house)
        if n > owned:
            words = unit.replace("_", " ")
            have = f"owns no {words}" if not owned else f"owns {owned} {words}s in all"
            return f"{house.title()} {have}, so never has {n} {what} (R011, {rule})"
    return None


def _units(state: GameState, board: Board, house: str, removals: tuple[Located, ...], rule: str) -> str | None:
    """Units named in areas where no unit of theirs can ever stand, or more than the house owns."""
    for r in removals:
        area = board.area(r.area)
        if r.unit == "ship" and area.is_land:
            return f"ships never stand on land: no ship of yours is ever in {area.name} (R075, R078)"
        if r.unit != "ship" and not area.is_land:
            return f"footmen, knights and siege engines never stand in a sea area or port, such as {area.name} (R078)"
    wanted: Counter[str] = Counter()
    for r in removals:
        wanted[r.unit] += r.count
    return _box(board, house, wanted, "to lose", rule)


def _interest(state: GameState, board: Board, cmd: InterestLosses) -> str | None:
    from ..core.bank import bank_in_play  # the Iron Bank's rules: loaded only where an answer needs them

    if not bank_in_play(state):
        return "the Iron Bank is in play only with Targaryen: no house pays interest in this game (M103, ruling 205)"
    if state.is_vassal(cmd.debtor):
        return f"{cmd.debtor.title()} is a vassal, which holds no power and pays no interest (M067, ruling 262)"
    return _units(state, board, cmd.debtor, cmd.removals, "M110")


def _command(state: GameState, house: str, cmd: CommandVassal) -> str | None:
    if not state.vassals:
        return "this game has no vassals to command (M030)"
    for v in cmd.picks():
        if v is not None and not state.is_vassal(v):
            listed = ", ".join(h.title() for h in state.vassals)
            return f"{v.title()} is not a vassal in this game (vassals: {listed}) (M034)"
    return None

