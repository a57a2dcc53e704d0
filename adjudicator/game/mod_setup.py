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
from .cards import CARDS
from .mod_board import MOD, MOD_HOUSES, TARGARYEN, WESTEROSI, mod_board
from .setup import SetupError, check_house_deck, draw_shuffle, named_houses, table_options
from .state import GameState, HouseState, Unit


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
    state = GameState(
        game_id=game_id, round=1, phase="planning", houses_in_play=in_play,
        tracks=starting_tracks(in_play, vassals), kings_court_overlay=False, impassable=[],  # ruling 264
        wildling_threat=c["wildling_threat_start"],
        options=table_options(tides_of_battle, house_deck),
        rng_seed=seed, variant="mother-of-dragons", vassals=vassals,
    )
    for h in in_play:
        if h in vassals:
            card = MOD.vassal_setups[h]
            state.houses[h] = HouseState(power=0, supply=card.supply_start)  # M010, M014, M025
            units = card.starting_units
        else:
            house = board.houses[h]
            state.houses[h] = HouseState(power=c["power_tokens_start"], supply=house.supply_start,
                                         hand=CARDS.hand_of(h, state.card_sets()))  # fmt: skip
            units = house.starting_units
        for su in units:
            state.area_mut(su.area).units.extend(Unit(h, su.unit) for _ in range(su.count))
        state.area_mut(board.houses[h].home_area).garrison = board.houses[h].garrison_strength  # M021
    for nf in MOD.neutral_forces:  # M022
        if targaryen or not nf.with_targaryen_only:
            state.area_mut(nf.area).neutral_force = nf.strength
    state.vassal_sets = deal_vassal_sets(state)  # M019
    for deck in (1, 2, 3, 4) if targaryen else (1, 2, 3):  # M012
        state.westeros_decks[str(deck)] = draw_shuffle(state, CARDS.westeros_deck(deck))
        state.westeros_discards[str(deck)] = []
    state.wildling_deck = draw_shuffle(state, sorted(CARDS.wildling_cards))  # M011
    if tides_of_battle:
        state.tides_deck = draw_shuffle(state, CARDS.tides_deck())
    if targaryen:
        state.dragon_tokens = list(c["dragon_strength_token_rounds"])  # M013
        for token in c["loyalty_tokens_at_setup"]:  # M023
            state.area_mut(token["area"]).loyalty += token["count"]
        loans = draw_shuffle(state, CARDS.loan_deck())  # M024: the first loan into the rightmost slot
        state.loan_slots = [""] * (MOD.iron_bank["slots"] - 1) + loans[:1]
        state.loan_deck = loans[1:]
    return state
