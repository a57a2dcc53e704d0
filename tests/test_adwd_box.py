"""A Dance with Dragons as a box of its own: its setup as data, six players, six rounds
(docs/rules-a-dance-with-dragons.md section 2, rulings 388 and 389)."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.cli import main
from adjudicator.folder import audit
from adjudicator.folder.gamedir import GameDir
from adjudicator.game.boxes import box_named
from adjudicator.game.cards import CARDS
from adjudicator.game.setup import SetupError
from adjudicator.game.variants import variant
from adjudicator.reports.report import render_report
from adjudicator.robots.simulate import simulate

ADWD = "a-dance-with-dragons"
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


@pytest.fixture(scope="module")
def game():
    return variant(ADWD).setup(SIX, seed="dance")


def units(state, house: str) -> Counter[tuple[str, str]]:
    return Counter((a, u.type) for a, u in state.units_of(house))


def test_DD08_the_box_seats_the_six_base_houses_for_six_rounds_with_its_own_cards():
    box = box_named(ADWD)
    assert box.houses == tuple(SIX) and box.rounds == 6 and box.card_sets == {"adwd"} and box.westeros_decks == (1, 2, 3)
    assert not box.features  # the base game's rules apply


def test_DD08_only_six_players_play_it():
    with pytest.raises(SetupError, match="played by 6 players, not 5"):
        variant(ADWD).setup(SIX[:5], seed="dance")


def test_DD09_the_tracks_supply_and_hands(game):
    assert game.tracks["iron_throne"] == ["lannister", "tyrell", "greyjoy", "stark", "baratheon", "martell"]
    assert game.tracks["fiefdoms"] == ["greyjoy", "martell", "baratheon", "tyrell", "lannister", "stark"]
    assert game.tracks["kings_court"] == ["tyrell", "martell", "stark", "lannister", "baratheon", "greyjoy"]
    assert {h: game.houses[h].supply for h in SIX} == {"lannister": 5, "stark": 2, "baratheon": 1, "greyjoy": 3,
                                                        "martell": 4, "tyrell": 4}
    for h in SIX:
        assert sorted(game.houses[h].hand) == sorted(c.id for c in CARDS.house_cards.values()
                                                     if c.house == h and c.set == "adwd")
    assert game.check() == []


def test_DD09_each_houses_units(game):
    assert units(game, "stark") == Counter({("winterfell", "footman"): 1, ("winterfell", "knight"): 1,
                                            ("white_harbor", "knight"): 1, ("moat_cailin", "footman"): 1,
                                            ("moat_cailin", "knight"): 1, ("the_twins", "footman"): 2})
    assert units(game, "greyjoy") == Counter({("pyke", "knight"): 1, ("bay_of_ice", "ship"): 1, ("sunset_sea", "ship"): 1,
                                              ("ironmans_bay", "ship"): 1, ("west_summer_sea", "ship"): 3,
                                              ("the_stony_shore", "footman"): 1, ("searoad_marches", "footman"): 2})
    assert units(game, "lannister") == Counter({("lannisport", "footman"): 1, ("the_golden_sound", "ship"): 1,
                                                ("riverrun", "footman"): 2, ("harrenhal", "footman"): 1,
                                                ("kings_landing", "footman"): 2})
    assert units(game, "baratheon") == Counter({("dragonstone", "knight"): 1, ("the_shivering_sea", "ship"): 2,
                                                ("castle_black", "knight"): 1, ("castle_black", "footman"): 2,
                                                ("karhold", "footman"): 1, ("storms_end", "footman"): 1})
    assert units(game, "tyrell") == Counter({("highgarden", "footman"): 1, ("oldtown", "footman"): 1,
                                             ("kingswood", "knight"): 1, ("the_reach", "footman"): 1,
                                             ("crackclaw_point", "footman"): 2, ("shipbreaker_bay", "ship"): 3})
    assert units(game, "martell") == Counter({("sunspear", "footman"): 1, ("sunspear", "knight"): 1,
                                              ("port_of_sunspear", "ship"): 1, ("salt_shore", "footman"): 1,
                                              ("yronwood", "knight"): 1, ("the_boneway", "footman"): 1})


def test_DD09_the_power_tokens_on_the_board(game):
    tokens = {a: s.power_token for a, s in game.areas.items() if s.power_token}
    assert tokens == {"moat_cailin": "stark", "widows_watch": "stark", "searoad_marches": "greyjoy",
                      "stoney_sept": "lannister", "blackwater": "lannister", "storms_end": "baratheon",
                      "oldtown": "tyrell", "the_reach": "tyrell", "dornish_marches": "tyrell", "three_towers": "tyrell",
                      "the_arbor": "tyrell", "princes_pass": "martell", "starfall": "martell"}


def test_ruling_389_storms_end_and_oldtown_hold_their_houses_garrisons(game):
    assert (game.area("storms_end").garrison, game.area("storms_end").garrison_house) == (4, "baratheon")
    assert (game.area("oldtown").garrison, game.area("oldtown").garrison_house) == (3, "tyrell")
    for h in SIX:  # the home areas keep their own
        home = game.board().home_area(h)
        assert game.area(home).garrison == 2 and game.area(home).garrison_house is None
    assert game.area("kings_landing").neutral_force is None


def test_ruling_388_what_the_data_leaves_is_the_base_games(game):
    base = variant("classic").setup(SIX, seed="dance")
    assert game.wildling_threat == 2 and all(game.houses[h].power == 5 for h in SIX)
    assert game.area("the_eyrie").neutral_force == 6 and game.round == 1 and game.phase == "planning"
    assert game.westeros_decks == base.westeros_decks and game.wildling_deck == base.wildling_deck  # the same shuffles


def test_DD10_a_robot_game_ends_after_round_6_with_every_invariant_kept():
    rounds: set[int] = set()
    r = simulate(6, 2, text=False, expansion=ADWD, on_step=lambda s: rounds.add(s.round))
    assert r.problems == [] and r.winner is not None and max(rounds) == 6


def test_DD10_a_game_through_the_text_path_ends_after_round_6_and_replays_after_reveal(tmp_path):
    rounds: set[int] = set()
    r = simulate(6, 4, text=True, out=tmp_path / "g", expansion=ADWD, on_step=lambda s: rounds.add(s.round))
    assert r.problems == [] and r.winner is not None and max(rounds) == 6
    state = GameDir(tmp_path / "g").load_state()
    assert state.variant == ADWD and state.phase == "game_over" and state.round == 6
    audit.reveal(tmp_path / "g")
    check = audit.replay(tmp_path / "g")
    assert check.ok and any("fresh shuffle" in n for n in check.notes), check.problems


def test_DD11_maester_new_creates_the_scenario_and_every_report_names_it(tmp_path, capsys):
    code = main(["new", str(tmp_path / "g"), "--houses", ",".join(SIX), "--expansion", ADWD, "--seed", "s"])
    assert code == 0, capsys.readouterr().err
    state = GameDir(tmp_path / "g").load_state()
    assert state.variant == ADWD and state.houses["stark"].hand[0] == "roose_bolton_adwd"
    for viewer in (None, "stark"):
        assert "A Dance with Dragons: six players, six rounds" in render_report(state, [], viewer=viewer)
    assert "six rounds" not in render_report(variant("classic").setup(SIX, seed="s"), [])


def test_DD12_maester_new_setup_a_dance_with_dragons_is_the_scenarios_own_game(tmp_path, capsys):
    houses = ",".join(SIX)
    assert main(["new", str(tmp_path / "a"), "--setup", ADWD, "--seed", "s", "--game-id", "g"]) == 0
    assert main(["new", str(tmp_path / "b"), "--expansion", ADWD, "--houses", houses, "--seed", "s", "--game-id", "g"]) == 0
    capsys.readouterr()
    by_setup = (tmp_path / "a" / "state.toml").read_text()
    assert 'setup = "A Dance with Dragons"\n' in by_setup
    assert by_setup.replace('setup = "A Dance with Dragons"\n', "") == (tmp_path / "b" / "state.toml").read_text()


def test_DD13_a_table_may_play_the_scenario_to_another_round_limit(tmp_path, capsys):
    code = main(["new", str(tmp_path / "g"), "--expansion", ADWD, "--houses", ",".join(SIX), "--rounds", "4", "--seed", "s"])
    assert code == 0, capsys.readouterr().err
    state = GameDir(tmp_path / "g").load_state()
    assert state.box.rounds == 6 and state.last_round() == 4
    assert "A Dance with Dragons: six players, six rounds · The game ends after round 4" in render_report(state, [])
    rounds: set[int] = set()
    r = simulate(6, 2, text=False, setup=str(_four_rounds(tmp_path)), on_step=lambda s: rounds.add(s.round))
    assert r.problems == [] and r.winner is not None and max(rounds) == 4


def _four_rounds(tmp_path):
    file = tmp_path / "dance-four.toml"
    file.write_text(f'box = "{ADWD}"\nplayers = [6]\nrounds = 4\n')
    return file
