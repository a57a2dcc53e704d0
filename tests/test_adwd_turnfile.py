"""A Dance with Dragons' cards in the turn-file language: names (ruling 371), answers (ruling 380)."""

from __future__ import annotations

import pytest

from adjudicator.folder.check import check_turn_file
from adjudicator.game.commands import CardChoice, to_dict
from adjudicator.game.setup import new_game
from adjudicator.turnfile.names import lookup, vocabulary_of
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

ADWD = "classic+adwd"
SIX = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]


def parsed(text: str, vocabulary: str = ADWD):
    return parse_turn_file(text + "\n", variant=vocabulary)


def test_ruling_371_a_name_is_read_in_the_games_own_deck():
    assert lookup("house_card", "Roose Bolton", ADWD).id == "roose_bolton_adwd"
    assert lookup("house_card", "Roose Bolton").id == "roose_bolton"
    assert lookup("house_card", "Reek").id is None  # a base game knows no A Dance with Dragons card
    assert lookup("house_card", "Eddard Stark", ADWD).id is None
    assert lookup("house_card", "Queen of Thorns", "mother-of-dragons+adwd").id == "queen_of_thorns_adwd"
    assert lookup("house_card", "Daario Naharis", "mother-of-dragons+adwd").id == "daario_naharis"  # set B
    assert lookup("house_card", "Littlefinger", "mother-of-dragons+adwd").id == "littlefinger"  # A Feast for Crows
    assert vocabulary_of(new_game(SIX, seed="x", house_cards="adwd")) == ADWD
    assert vocabulary_of(new_game(SIX, seed="x")) == "classic"


def test_ruling_371_play_names_the_deck_card():
    (cmd,) = parsed("play Stannis Baratheon").commands
    assert cmd.card == "stannis_baratheon_adwd"
    (cmd,) = parsed("play Stannis Baratheon", "classic").commands
    assert cmd.card == "stannis_baratheon"


ANSWERS = [
    ("Reek: return", CardChoice(card="reek", option="return")),
    ("Reek: no", CardChoice(card="reek", option="no")),
    ("Ser Ilyn Payne: destroy footman in Winterfell", CardChoice(card="ser_ilyn_payne", area="winterfell")),
    ("Qyburn: Roose Bolton", CardChoice(card="qyburn", house_card="roose_bolton_adwd")),
    ("Jon Snow: up", CardChoice(card="jon_snow", option="up")),
    ("Jon Snow: down", CardChoice(card="jon_snow", option="down")),
    ("Melisandre: take back Jon Snow", CardChoice(card="melisandre_adwd", house_card="jon_snow")),
    ("Rodrik the Reader: Web of Lies", CardChoice(card="rodrik_the_reader", westeros_card="web_of_lies")),
    ("Rodrik the Reader: Winter is Coming, deck II",
     CardChoice(card="rodrik_the_reader", westeros_card="winter_is_coming", deck=2)),
    ("Aeron Damphair: 3", CardChoice(card="aeron_damphair_adwd", amount=3)),
    ("Ser Gerris Drinkwater: king's court", CardChoice(card="ser_gerris_drinkwater", track="kings_court")),
]


@pytest.mark.parametrize(("text", "command"), ANSWERS, ids=[t for t, _ in ANSWERS])
def test_ruling_380_each_answer_reads_and_prints_back(text: str, command: CardChoice):
    tf = parsed(text)
    assert not tf.problems and len(tf.commands) == 1
    (cmd,) = tf.commands
    assert to_dict(cmd) == to_dict(command)
    again = parsed(format_command(cmd)).commands
    assert len(again) == 1 and format_command(again[0]) == format_command(cmd)


@pytest.mark.parametrize("text", ["Aeron Damphair: 3 power", "Melisandre: Jon Snow"])
def test_ruling_380_other_spellings_read_the_same(text: str):
    assert not parsed(text).problems and len(parsed(text).commands) == 1


WRONG = [
    ("Reek: keep", "'keep' is unclear for Reek"),
    ("Qyburn: 3", "'3' is not a choice of Qyburn"),
    ("Ser Ilyn Payne: destroy 2 footmen in Winterfell", "destroys one footman"),
    ("Ser Ilyn Payne: destroy knight in Winterfell", "destroys one footman"),
    ("Rodrik the Reader: Winter is Coming, deck VII", "is not a Westeros deck"),
    ("Jon Snow: sideways", "is not a choice of Jon Snow"),
    ("Aeron Damphair: 99", "a number of power tokens"),
    ("Black Walder: up", "asks no choice of its player"),
]


@pytest.mark.parametrize(("text", "why"), WRONG, ids=[t for t, _ in WRONG])
def test_ruling_380_a_wrong_answer_is_refused_with_the_reason(text: str, why: str):
    tf = parsed(text)
    assert not tf.commands and any(why in str(p) for p in tf.problems), [str(p) for p in tf.problems]


def test_ruling_384_check_refuses_more_power_than_aeron_has():
    state = new_game(SIX, seed="x", house_cards="adwd")
    state.phase = "action"
    header = f"game {state.game_id} · house greyjoy · round 1 · action · seq 1\n"
    tf = check_turn_file(parse_turn_file(header + "Aeron Damphair: 7\n", variant=vocabulary_of(state)), state,
                         engine=False)
    assert any("discards 7 power tokens but you have 5 available" in str(p) for p in tf.problems)
    tf = check_turn_file(parse_turn_file(header + "Aeron Damphair: 5\n", variant=vocabulary_of(state)), state,
                         engine=False)
    assert not tf.problems


ALTERNATE = [("Alayne Stone: pay", CardChoice(card="alayne_stone", option="pay")),
             ("Missandei: take back Daario Naharis", CardChoice(card="missandei", house_card="daario_naharis")),
             ("Missandei: no", CardChoice(card="missandei", option="no"))]


@pytest.mark.parametrize(("text", "command"), ALTERNATE, ids=[t for t, _ in ALTERNATE])
def test_ruling_380_the_alternate_sets_cards_dealt_with_the_decks_answer_too(text: str, command: CardChoice):
    tf = parsed(text, "mother-of-dragons+adwd")
    assert not tf.problems and [to_dict(c) for c in tf.commands] == [to_dict(command)]
    assert format_command(tf.commands[0]) == text
