"""A standing instruction that can never fit is refused when it is sent, with the rule (ruling 356).

Each case is sent twice: to the engine as a batch run sends a turn file's lines (refused, told to its
house alone, not kept), and to ``maester check`` (E420 on its line, with the same reason). And the
lines that only look impossible (a castle the Iron Bank may still make a stronghold) are kept.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from adjudicator.engine.core.context import pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.machine import advance
from adjudicator.folder.check import check_turn_file
from adjudicator.game.commands import PlayCard, Standing
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.game.variants import variant
from adjudicator.robots.simulate import sim_houses
from adjudicator.turnfile.names import vocabulary_of
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

MOD = "mother-of-dragons"
_ids = itertools.count(1)


@cache
def _games() -> dict[str, GameState]:
    return {
        "three": new_game(["stark", "lannister", "baratheon"], seed="fit", game_id="g"),
        "six": new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"], seed="fit", game_id="g"),
        "mod": variant(MOD).setup(sim_houses(7, MOD), seed="fit", game_id="g"),  # Arryn a vassal, Targaryen in
        "mod_no_targaryen": variant(MOD).setup(sim_houses(6, MOD, targaryen=False), seed="fit", game_id="g"),
    }


def _game(name: str) -> GameState:
    import copy

    return copy.deepcopy(_games()[name])


def _file(state: GameState, house: str, body: str):  # type: ignore[no-untyped-def]
    head = f"game g · house {house} · round {state.round} · {state.phase} · seq 1\n"
    return parse_turn_file(head + body + "\n", variant=vocabulary_of(state))


def _sent(state: GameState, house: str, body: str) -> tuple[dict, list[AnswerUnusable], GameState]:
    tf = _file(state, house, body)
    assert not tf.problems, [p.render() for p in tf.problems]
    cmd = tf.commands[0]
    entry = pool_entry(id=f"{house}/1.planning/seq{next(_ids)}/L2", house=house, round=state.round, command=cmd,
                       text=format_command(cmd))
    step = advance(state, [entry])
    return entry, [e for e in step.events if isinstance(e, AnswerUnusable) and entry["id"] in e.ids], step.state


# (game, house, line, the rule its refusal cites, a word of the reason)
NEVER = {
    # a card of another house, another deck, or a choice that is never this house's
    "another_houses_card": ("six", "stark", "standing: play tywin lannister", "R192", "Lannister"),
    "deck_iv_without_targaryen": ("mod_no_targaryen", "stark", "standing: southron ambitions: nothing", "M006, M082", "deck IV"),
    "deck_iv_choice_of_targaryen": ("mod", "stark", "standing: southron ambitions: nothing", "M083", "only Targaryen"),
    "vassal_dominance_card": ("mod", "stark", "standing: for arryn: a throne of blades: muster", "M065", "vassal"),
    # an area the house can never hold or use
    "muster_closed_area": ("three", "baratheon", "standing: muster in Highgarden: footman", "R235", "closed"),
    "muster_no_castle": ("six", "stark", "standing: muster in Karhold: footman", "R067", "no castle"),
    "vassal_muster_away_from_home": ("mod", "stark", "standing: for arryn: muster in Winterfell: footman", "M074",
                                     "The Eyrie"),
    "ship_nowhere": ("six", "lannister", "standing: muster in Harrenhal: ship", "R075", "no port"),
    "ship_not_adjacent": ("six", "stark", "standing: muster in Winterfell: ship to Sunset Sea", "R075", "Sunset Sea"),
    "footman_elsewhere": ("six", "stark", "standing: muster in Winterfell: footman to Castle Black", "R070", "itself"),
    "supply_closed_area": ("three", "baratheon", "standing: supply: destroy footman in Highgarden", "R235", "closed"),
    "combat_closed_area": ("three", "baratheon", "standing: if attacked in Highgarden: play stannis baratheon", "R235",
                           "closed"),
    "essos_without_targaryen": ("mod_no_targaryen", "stark", "standing: muster in Braavos: footman", "M009", "Essos"),
    "footman_at_sea": ("six", "stark", "standing: supply: destroy footman in Bay of Ice", "R078", "sea area"),
    "ship_on_land": ("six", "stark", "standing: supply: destroy ship in Winterfell", "R075", "on land"),
    # more than the rules or the box can ever give: a muster over the supply of units
    "muster_over_points": ("six", "stark", "standing: muster in Winterfell: knight, knight", "R068", "4 points"),
    "muster_over_the_box": ("mod", "targaryen", "standing: muster in Braavos: siege engine", "R079", "no siege engine"),
    "fall_back_over_the_box": ("mod", "targaryen", "standing: muster in Pentos: footman else siege engine", "R079",
                               "no siege engine"),
    "muster_a_dragon": ("mod", "targaryen", "standing: muster in Pentos: dragon", "M087", "never mustered"),
    "losses_over_the_box": ("mod", "targaryen", "standing: supply: destroy siege engine in Pentos", "R011",
                            "no siege engine"),
    "bid_over_the_power_tokens": ("six", "stark", "standing: bid iron throne 21", "R011", "20 power tokens"),
    # a house or a part of the rules this game does not have
    "tie_break_absent_house": ("three", "stark", "standing: tie-break: stark, tyrell, lannister", "R032", "Tyrell"),
    "support_absent_house": ("three", "stark", "standing: support tyrell in every combat", "R032", "Tyrell"),
    "absent_targaryen": ("mod_no_targaryen", "stark", "standing: support targaryen in every combat", "M006",
                         "Targaryen"),
    "interest_without_the_bank": ("mod_no_targaryen", "stark", "standing: interest for Lannister: destroy footman "
                                  "in Lannisport", "M103", "Iron Bank"),
    "interest_of_a_vassal": ("mod", "stark", "standing: interest for Arryn: destroy footman in The Eyrie", "M067",
                             "vassal"),
    "distribute_not_targaryen": ("mod", "stark", "standing: distribute fiefdoms: 1 to lannister", "M100", "Targaryen"),
    "command_not_a_vassal": ("mod", "stark", "standing: command lannister", "M034", "not a vassal"),
    "vassal_bid": ("mod", "stark", "standing: for arryn: bid iron throne 1", "M064", "bids 0"),
    "vassal_wildling_card": ("mod", "stark", "standing: for arryn: a king beyond the wall: fiefdoms", "M066",
                             "wildlings"),
}


@pytest.mark.parametrize("case", sorted(NEVER))
def test_ruling_356_a_standing_line_that_can_never_fit_is_refused_when_sent_with_the_rule(case: str) -> None:
    game, house, body, rule, word = NEVER[case]
    state = _game(game)
    entry, refused, after = _sent(state, house, body)
    assert len(refused) == 1, (case, refused)
    cited = refused[0].reason.rsplit("(", 1)[1]  # the rules a reason ends with, in parentheses
    assert cited.endswith(")") and rule in cited, refused[0].reason
    assert word in refused[0].reason and refused[0].visible_to == house
    assert entry["id"] not in {a["id"] for a in after.answers}  # not kept
    checked = check_turn_file(_file(state, house, body), state)
    assert [(p.where.line, p.code) for p in checked.problems] == [(2, "E420")], case  # type: ignore[attr-defined]
    assert checked.problems[0].message == refused[0].reason  # type: ignore[attr-defined]


MAY_FIT = {
    # Master-at-Arms may still make Braavos's castle a stronghold (M119, ruling 260)
    "castle_the_bank_may_improve": ("mod", "targaryen", "standing: muster in Braavos: knight"),
    "stronghold_two_knights_upgraded": ("six", "stark", "standing: muster in Winterfell: upgrade footman to knight, "
                                        "upgrade footman to knight"),
    "ship_into_an_adjacent_sea": ("six", "stark", "standing: muster in Winterfell: ship to Bay of Ice"),
    "a_castle_lost_today": ("six", "stark", "standing: muster in Lannisport: footman"),  # Stark may take it
    "the_other_players_card": ("mod", "stark", "standing: for arryn: if attacked in The Eyrie: play syrio forel"),
}


@pytest.mark.parametrize("case", sorted(MAY_FIT))
def test_ruling_355_a_standing_line_that_may_fit_some_day_is_kept(case: str) -> None:
    game, house, body = MAY_FIT[case]
    state = _game(game)
    entry, refused, after = _sent(state, house, body)
    assert refused == [] and entry["id"] in {a["id"] for a in after.answers}, (case, refused)


def test_ruling_356_a_house_card_of_a_deck_the_game_does_not_deal_is_refused() -> None:
    """The turn-file reader knows only the cards of the game's own decks (ruling 371): a base game's
    file cannot name Ramsay Bolton, nor a card of Westeros deck IV, at all. A line built otherwise (a robot, a tool) is refused by the
    engine with ruling 370, as the house never holds the card."""
    state = _game("six")
    assert _file(state, "stark", "standing: play ramsay bolton").problems  # unknown in this game's vocabulary
    assert _file(state, "stark", "standing: southron ambitions: nothing").problems  # so is a deck IV card
    entry = pool_entry(id="stark/1.planning/seq1/L2", house="stark", round=1,
                       command=Standing(command=PlayCard(card="ramsay_bolton")), text="standing: play Ramsay Bolton")
    step = advance(state, [entry])
    refused = [e.reason for e in step.events if isinstance(e, AnswerUnusable) and entry["id"] in e.ids]
    assert len(refused) == 1 and "ruling 370" in refused[0] and "does not deal" in refused[0]
    assert entry["id"] not in {a["id"] for a in step.state.answers}
