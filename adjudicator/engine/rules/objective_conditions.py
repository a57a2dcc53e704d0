"""When A Feast for Crows' objectives are met: one small registered function per condition (F031, F032).

An objective card names its condition and the facts it reads (game/objective_cards.py); a condition
asks the position only, as it stands when the house would score (F042). "More than each other
house" is strictly more (ruling 406); a port counts for the house that controls its land area, as
every port does (ruling 407).

>>> from adjudicator.game.variants import variant
>>> s = variant("a-feast-for-crows").setup(["stark", "lannister", "baratheon", "arryn"], seed="doc")
>>> met(s, s.board(), "lannister", OBJECTIVES["hold_court"]), met(s, s.board(), "stark", OBJECTIVES["hold_court"])
(True, False)
>>> met(s, s.board(), "lannister", SPECIAL_OBJECTIVES["lannister"])
True
"""

from __future__ import annotations

from collections.abc import Callable

from ...game.board import Board, HouseId
from ...game.objective_cards import OBJECTIVES, SPECIAL_OBJECTIVES, Objective
from ...game.state import GameState

__all__ = ["CONDITIONS", "OBJECTIVES", "SPECIAL_OBJECTIVES", "met", "objectives_met"]

Condition = Callable[[GameState, Board, HouseId, Objective], bool]
CONDITIONS: dict[str, Condition] = {}


def condition(name: str, fn: Condition) -> None:
    """Register a condition (called after the function, which stays plain so that it can be mutated)."""
    assert name not in CONDITIONS, name
    CONDITIONS[name] = fn


def met(state: GameState, board: Board, house: HouseId, objective: Objective) -> bool:
    """True when ``house`` meets ``objective`` now."""
    return CONDITIONS[objective.condition](state, board, house, objective)


def objectives_met(state: GameState, board: Board, house: HouseId) -> list[str]:
    """The objectives of the house's hand it could score now, in its hand's order."""
    return [o for o in state.objectives.get(house, []) if met(state, board, house, OBJECTIVES[o])]


# --- counting -------------------------------------------------------------------------------------


def _others(state: GameState, house: HouseId) -> list[HouseId]:
    return [h for h in state.houses_in_play if h != house]


def _more_than_each(state: GameState, house: HouseId, count: Callable[[HouseId], int]) -> bool:
    """Strictly more than every other house (ruling 406)."""
    mine = count(house)
    return all(mine > count(h) for h in _others(state, house))


def _controls(state: GameState, board: Board, house: HouseId, area: str) -> bool:
    return state.controller(area, board) == house


def land_areas_controlled(state: GameState, board: Board, house: HouseId) -> int:
    """Land areas a house controls: the first tie-break of a win at 7 (F045)."""
    return sum(1 for a in state.land_areas(board) if state.controller(a.id, board) == house)


def _units(state: GameState, house: HouseId, area: str) -> int:
    return sum(1 for u in state.area(area).units if u.house == house)


# --- the conditions -------------------------------------------------------------------------------


def control_all(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Stop the Storm, Arbor Gold, Take the Black, Hold Court, Pull the Weeds, A Firm Grip, Protect
    the Neck, A Mountainous Task, A Riper Fruit; the Baratheon and Lannister special objectives."""
    return all(_controls(state, board, house, a) for a in o.areas)


condition("control_all", control_all)


def all_knights_on_board(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Cavalry Charge: every Knight the house owns is on the board."""
    knights = sum(1 for _, u in state.units_of(house) if u.type == "knight")
    return knights == board.unit_limit("knight", house) > 0


condition("all_knights_on_board", all_knights_on_board)


def last_on_victory_track(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Backdoor Politics: every other house has more victory points."""
    points = state.victory_points
    return all(points.get(h, 0) > points.get(house, 0) for h in _others(state, house))


condition("last_on_victory_track", last_on_victory_track)


def another_home(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Home Invasion: the house controls another house's home area."""
    return any(_controls(state, board, house, board.home_area(h)) for h in _others(state, house))


condition("another_home", another_home)


def most_land_areas(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Land Grab."""
    return _more_than_each(state, house, lambda h: land_areas_controlled(state, board, h))


condition("most_land_areas", most_land_areas)


def most_sea_areas(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Extend Your Reach."""
    return _more_than_each(state, house, lambda h: sum(1 for a in board.sea_areas()
                                                       if state.controller(a.id, board) == h))


condition("most_sea_areas", most_sea_areas)


def holds_token(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """The Throne, The Blade, The Raven: the house holds the track's dominance token."""
    return state.holder(o.track) == house


condition("holds_token", holds_token)


def three_in_crackclaw_none_in_kings_landing(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Support the Crown: three units of the house's in Crackclaw Point and none in King's Landing."""
    return _units(state, house, "crackclaw_point") >= 3 and _units(state, house, "kings_landing") == 0


condition("three_in_crackclaw_none_in_kings_landing", three_in_crackclaw_none_in_kings_landing)


def both_ends_of_a_bridge(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Crossing Guard."""
    return any(_controls(state, board, house, a) and _controls(state, board, house, b) for a, b in o.bridges)


condition("both_ends_of_a_bridge", both_ends_of_a_bridge)


def most_ships(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Naval Superiority."""
    return _more_than_each(state, house, lambda h: sum(1 for _, u in state.units_of(h) if u.type == "ship"))


condition("most_ships", most_ships)


def supply_at_least(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Ample Harvest: position 5 or 6 of the Supply track."""
    return state.houses[house].supply >= o.count


condition("supply_at_least", supply_at_least)


def most_ports(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Mercantile Ventures (ruling 407)."""
    return _more_than_each(state, house, lambda h: sum(1 for p in board.ports() if p.id not in state.impassable
                                                       and state.controller(p.id, board) == h))


condition("most_ports", most_ports)


def most_strongholds(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """A Stalwart Position."""
    return _more_than_each(state, house, lambda h: sum(1 for a in state.land_areas(board) if a.fortification == "stronghold"
                                                       and state.controller(a.id, board) == h))


condition("most_strongholds", most_strongholds)


def most_castles(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Friendly Confines: castles only, not strongholds (ruling 408)."""
    return _more_than_each(state, house, lambda h: sum(1 for a in state.land_areas(board) if a.fortification == "castle"
                                                       and state.controller(a.id, board) == h))


condition("most_castles", most_castles)


def most_power_on_board(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Spreading the Wealth."""
    return _more_than_each(state, house, state.power_on_board)


condition("most_power_on_board", most_power_on_board)


def alone_in_harrenhal(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Nothing but Ghosts: exactly one of the house's units in Harrenhal, none in an area next to it."""
    return _units(state, house, "harrenhal") == 1 and not any(_units(state, house, a) for a in board.neighbours["harrenhal"])


condition("alone_in_harrenhal", alone_in_harrenhal)


def one_house_card(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """The Final Hour."""
    return len(state.houses[house].hand) == 1


condition("one_house_card", one_house_card)


def crown_areas(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """The People's Chosen: four or more controlled land areas with a crown."""
    return sum(1 for a in state.land_areas(board) if a.power and state.controller(a.id, board) == house) >= o.count


condition("crown_areas", crown_areas)


def more_available_power_and_the_eyrie(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Arryn's special objective: more available Power than every other house, and the Eyrie."""
    return _controls(state, board, house, "the_eyrie") and _more_than_each(state, house, lambda h: state.houses[h].power)


condition("more_available_power_and_the_eyrie", more_available_power_and_the_eyrie)


def winterfell_and_five_castles(state: GameState, board: Board, house: HouseId, o: Objective) -> bool:
    """Stark's special objective: Winterfell, and five areas with a castle or stronghold in all."""
    return _controls(state, board, house, "winterfell") and state.castles(house, board) >= 5


condition("winterfell_and_five_castles", winterfell_and_five_castles)
