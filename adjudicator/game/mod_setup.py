"""Setting up a Mother of Dragons game for 3-8 players, as the expansion's setup says (M001-M025).

Every Westerosi house is in the game: the players' houses as their screens say, every other one as
a vassal with its vassal setup card (M005, M020). Targaryen plays only when a player chooses it, and
brings Essos, the Iron Bank, loyalty tokens, dragons and Westeros deck IV with it (M006, M009).

>>> s = new_mod_game(["stark", "lannister", "baratheon"], seed="doc")
>>> s.variant, s.vassals, s.vassal_sets
('mother-of-dragons', ['greyjoy', 'tyrell', 'martell', 'arryn'], ['baratheon', 'lannister', 'stark', 'baratheon'])
>>> s.tracks["iron_throne"], s.houses["stark"].power, s.houses["tyrell"].supply
(['baratheon', 'lannister', 'stark', 'martell', 'greyjoy', 'tyrell', 'arryn'], 7, 4)
>>> t = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="doc")
>>> t.tracks["fiefdoms"][-1], t.dragon_tokens, t.loan_slots[2] != "", t.area("kings_landing").loyalty
('targaryen', [2, 4, 6, 8, 10], True, 1)
>>> new_mod_game(["stark", "targaryen", "arryn"], seed="x")
Traceback (most recent call last):
...
adjudicator.game.setup.SetupError: Targaryen plays only with 4 or more players (M004, ruling 275)
"""

from __future__ import annotations

from .board import TRACKS, Board, HouseId
from .box_setup import Garrison, HouseStart, Layout, draw_shuffle, lay_out
from .boxes import box_named
from .cards import CARDS, dealt_sets
from .mod_board import MOD, MOD_HOUSES, TARGARYEN, WESTEROSI, mod_board
from .setup import SetupError, check_house_deck, named_houses
from .state import GameState


def check_mod_houses(houses: list[str]) -> list[HouseId]:
    """The players' houses in canonical order, or why they cannot play the expansion (ruling 275).

    :raises SetupError: for an unknown or repeated house, fewer than 3 or more than 8 players, or
        Targaryen with 3 players.
    """
    wanted = named_houses(houses, MOD_HOUSES)
    if not 3 <= len(wanted) <= 8:
        raise SetupError(f"a Mother of Dragons game has 3 to 8 players, not {len(wanted)} (M002, ruling 275)")
    if TARGARYEN in wanted and len(wanted) < 4:
        raise SetupError("Targaryen plays only with 4 or more players (M004, ruling 275)")
    return [h for h in MOD_HOUSES if h in wanted]


def starting_tracks(in_play: list[HouseId], vassals: list[HouseId]) -> dict[str, list[HouseId]]:
    """The influence tracks at setup: the expansion's own order without the houses not in the game
    (M015); on a track with a vassal in positions 1-3 every vassal moves to the end, in its former
    order, above Targaryen, which keeps position 8 (M016, M097, ruling 202)."""
    tracks = {}
    for t in TRACKS:
        order = [h for h in MOD.tracks[t] if h in in_play]
        if any(h in vassals for h in order[:3]):
            rest = [h for h in order if h != TARGARYEN]
            order = [h for h in rest if h not in vassals] + [h for h in rest if h in vassals]
            order += [TARGARYEN] if TARGARYEN in in_play else []
        tracks[t] = order
    return tracks


def deal_vassal_sets(state: GameState) -> list[HouseId]:
    """Who receives the sets of vassal order tokens: one per vassal, to the highest players on the
    Iron Throne track in turn, the highest again when vassals outnumber players (3 players, 4
    vassals) (M019, M033, ruling 228). Used at setup and at the start of every Planning phase."""
    players = [h for h in state.turn_order() if h not in state.vassals]
    return [players[i % len(players)] for i in range(len(state.vassals))]


def new_mod_game(
    houses: list[str],
    *,
    seed: str,
    game_id: str = "game",
    tides_of_battle: bool = False,
    board: Board | None = None,
    alternate_cards: bool = False,
    house_cards: str = "base",
) -> GameState:
    """A fresh expansion game at round 1, planning phase, for the players' houses (M001-M025).

    ``board`` is ignored: the map follows from the houses (Essos only with Targaryen, M009).

    ``alternate_cards`` deals the alternate set (M123): the "adwd" house deck, as ``house_cards``
    may name it too (ruling 370).

    :raises SetupError: see :func:`check_mod_houses`; and for an unknown house deck.
    """
    house_deck = "adwd" if alternate_cards else house_cards
    check_house_deck(house_deck)
    players = check_mod_houses(houses)
    targaryen = TARGARYEN in players
    board = mod_board(essos=targaryen)
    in_play = [h for h in MOD_HOUSES if h in WESTEROSI or h in players]
    vassals = [h for h in WESTEROSI if h not in players]
    c = board.constants
    box = box_named("mother-of-dragons")
    dealt = dealt_sets(box.card_sets, house_deck)
    starts = {}
    for h in in_play:
        if h in vassals:  # M010, M014, M025: a vassal setup card's units and supply, no power, no cards
            card = MOD.vassal_setups[h]
            starts[h] = HouseStart(power=0, supply=card.supply_start, hand=(), units=card.starting_units)
        else:
            house = board.houses[h]
            starts[h] = HouseStart(power=c["power_tokens_start"], supply=house.supply_start,
                                   hand=tuple(CARDS.hand_of(h, dealt)), units=house.starting_units)
    layout = Layout(
        houses_in_play=tuple(in_play), tracks={t: tuple(o) for t, o in starting_tracks(in_play, vassals).items()},
        houses=starts,
        garrisons=tuple(Garrison(board.houses[h].home_area, board.houses[h].garrison_strength, h) for h in in_play),  # M021
        neutral_forces={nf.area: nf.strength for nf in MOD.neutral_forces if targaryen or not nf.with_targaryen_only},  # M022
        blocked=(), kings_court_overlay=False,  # ruling 264
        wildling_threat=c["wildling_threat_start"],
        westeros_decks=(1, 2, 3, 4) if targaryen else (1, 2, 3),  # M012
        vassals=tuple(vassals),
    )
    state = lay_out(box, layout, board, seed=seed, game_id=game_id, tides_of_battle=tides_of_battle,
                   house_cards=house_deck)  # M011
    state.vassal_sets = deal_vassal_sets(state)  # M019
    if targaryen:
        state.dragon_tokens = list(c["dragon_strength_token_rounds"])  # M013
        for token in c["loyalty_tokens_at_setup"]:  # M023
            state.area_mut(token["area"]).loyalty += token["count"]
        loans = draw_shuffle(state, CARDS.loan_deck())  # M024: the first loan into the rightmost slot
        state.loan_slots = [""] * (MOD.iron_bank["slots"] - 1) + loans[:1]
        state.loan_deck = loans[1:]
    return state
