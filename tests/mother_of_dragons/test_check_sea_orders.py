"""``maester check`` on a Mother of Dragons player's sea orders (M114).

Was wrong: a sea order in a file stopped ``maester check`` with an internal error (it counted the
tokens against the base game's 15 only).
"""

from __future__ import annotations

from adjudicator.folder.check import check_turn_file
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.turnfile.parser import parse_turn_file

MOD = "mother-of-dragons"
HOUSES = ["stark", "lannister", "greyjoy", "baratheon", "arryn", "targaryen"]


def _check(body: str, house: str = "greyjoy"):  # type: ignore[no-untyped-def]
    state = new_mod_game(HOUSES, seed="check-sea-orders", game_id="mod")
    text = f"game mod · house {house} · round 1 · planning · seq 1\n{body}"
    return check_turn_file(parse_turn_file(text, variant=MOD), state)


def test_M114_check_accepts_a_players_three_sea_orders():
    tf = _check("Ironman's Bay: sea march\nPort of Pyke: sea support\nPyke: consolidate\n"
                "Greywater Watch: march +0\n")
    assert not tf.problems, [str(p) for p in tf.problems]


def test_M114_check_refuses_a_second_sea_order_of_one_kind_with_the_rule():
    tf = _check("Ironman's Bay: sea march\nPort of Pyke: sea march\n")
    assert [(p.where.line, p.code) for p in tf.problems] == [(3, "E405")]
    assert "you own 1 'sea_march' order(s) and this is one more (M114)" in str(tf.problems[0])
