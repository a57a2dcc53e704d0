"""Gifts of power (M121, ruling 261): ``give N power to HOUSE``."""

from __future__ import annotations

import copy

import pytest
from rules.helpers import entry, game, of, phases, reasons, run  # noqa: F401
from rules.test_combat_harness import duel
from rules.test_combat_harness import say as entries

from adjudicator.engine.events.bank import PowerGiven
from adjudicator.engine.machine import advance
from adjudicator.game.commands import Give, March, Move, Support, UnitSpec
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, StateError, validate_engine
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

pytestmark = pytest.mark.usefixtures("phases")


def mod_game():
    return new_mod_game(["stark", "lannister", "baratheon", "targaryen"], seed="gifts")


def test_M121_a_player_gives_available_power_to_another_player_at_once():
    s = mod_game()
    s.houses["stark"].power, s.houses["targaryen"].power = 7, 7
    step = run(s, entry("stark", Give(power=3, to="targaryen")))
    assert step.requests  # the planning phase waits for orders; the gift did not
    assert (step.state.houses["stark"].power, step.state.houses["targaryen"].power) == (4, 10)
    given = of(step.events, PowerGiven)
    assert given and given[0].visible_to == "public" and given[0].power == 3
    assert (s.houses["stark"].power, s.houses["targaryen"].power) == (7, 7)  # advance left its input alone
    again = run(step.state)  # the waiting step replays from its changed start
    assert again.state.houses["targaryen"].power == 10 and not of(again.events, PowerGiven)


def test_M121_ruling_261_no_gift_to_a_vassal_to_oneself_or_beyond_ones_power():
    s = mod_game()
    vassal = s.vassals[0]
    s.houses["stark"].power = 2
    step = run(s, entry("stark", Give(power=1, to=vassal)), entry("stark", Give(power=1, to="stark")),
               entry("stark", Give(power=5, to="lannister")))
    why = reasons(step, "stark")
    assert any("vassal" in r and "ruling 261" in r for r in why)
    assert any("another player" in r for r in why)
    assert any("not 5" in r and "M121" in r for r in why)
    assert step.state.houses["stark"].power == 2


def test_M121_ruling_261_only_what_the_receiver_can_take_leaves_the_giver():
    s = mod_game()
    s.houses["stark"].power, s.houses["lannister"].power = 5, 19
    step = run(s, entry("stark", Give(power=3, to="lannister")))
    assert (step.state.houses["stark"].power, step.state.houses["lannister"].power) == (4, 20)
    assert of(step.events, PowerGiven)[0].asked == 3


def test_M121_ruling_261_each_refused_gift_is_told_to_the_giver_alone_word_for_word():
    s = mod_game()
    vassal = s.vassals[0]
    lines = entry("stark", Give(power=1, to=vassal)), entry("stark", Give(power=1, to="stark"))
    step = run(s, *lines)
    refused = [e for e in step.events if type(e).__name__ == "AnswerUnusable" and e.house == "stark"]
    assert [(e.ids, e.visible_to) for e in refused] == [((lines[0]["id"],), "stark"), ((lines[1]["id"],), "stark")]
    assert [e.reason for e in refused] == [
        f"{vassal.title()} is a vassal, which holds no power; gifts go to players (M067, ruling 261)",
        "a gift goes to another player (ruling 261)"]
    s = mod_game()
    step = run(s, entry(vassal, Give(power=1, to="stark")))
    assert reasons(step, vassal) == ["a vassal gives no power: vassals never collect or spend power tokens (M067, ruling 261)"]


def test_M121_a_player_may_give_all_of_its_available_power_and_the_giver_alone_sees_its_line_used():
    s = mod_game()
    s.houses["stark"].power, s.houses["lannister"].power = 3, 5
    line = entry("stark", Give(power=3, to="lannister"))
    step = run(s, line)
    assert (step.state.houses["stark"].power, step.state.houses["lannister"].power) == (0, 8)
    used = [e for e in step.events if type(e).__name__ == "AnswerUsed" and e.house == "stark"]
    assert [(e.decision, e.ids, e.visible_to) for e in used] == [("give power", (line["id"],), "stark")]


def test_M121_ruling_261_a_receiver_with_no_room_takes_nothing_and_tokens_on_the_board_count():
    s = mod_game()
    s.houses["stark"].power, s.houses["lannister"].power = 5, 20
    step = run(s, entry("stark", Give(power=2, to="lannister")))
    assert (step.state.houses["stark"].power, step.state.houses["lannister"].power) == (5, 20)
    assert [(g.power, g.asked) for g in of(step.events, PowerGiven)] == [(0, 2)]
    s = mod_game()
    s.houses["stark"].power, s.houses["lannister"].power = 5, 16
    for area in ("lannisport", "stoney_sept"):
        s.area_mut(area).power_token = "lannister"  # 16 + 2 on the board: room for 2 of its 20 tokens
    step = run(s, entry("stark", Give(power=3, to="lannister")))
    assert (step.state.houses["stark"].power, step.state.houses["lannister"].power) == (3, 18)


def test_M121_the_base_game_refuses_gifts():
    s = game()
    step = run(s, entry("stark", Give(power=1, to="lannister")))
    assert reasons(step, "stark") == [
        "houses never give each other anything in the base game (R266); gifts of power are Mother of Dragons' (M121)"]


def test_M121_give_lines_read_and_print_back():
    tf = parse_turn_file("give 2 power to Targaryen\ngive 1 to stark\n", variant="mother-of-dragons")
    assert list(tf.commands) == [Give(power=2, to="targaryen"), Give(power=1, to="stark")]
    for c in tf.commands:
        assert list(parse_turn_file(format_command(c) + "\n", variant="mother-of-dragons").commands) == [c]


# --- ruling 261: during a combat, only while it calls for support ----------------------------------


class Game:
    """A game advanced answer batch after answer batch, its events kept."""

    def __init__(self, state: GameState) -> None:
        self.state, self.events, self.requests = state, [], []

    def run(self, *batches: list[dict], deadline: bool = False) -> None:
        step = advance(self.state, [e for b in batches for e in b], board=self.state.board(), deadline=deadline)
        self.state, self.requests = step.state, step.requests
        self.events.extend(step.events)

    def asked(self) -> set[tuple[str, str]]:
        return {(r.kind, r.house) for r in self.requests}

    def given(self) -> list[int]:
        return [e.power for e in of(self.events, PowerGiven)]

    def powers(self) -> tuple[int, int]:
        return self.state.houses["baratheon"].power, self.state.houses["stark"].power


def eyrie_attacked() -> Game:
    """Stark marches on Arryn's Eyrie; a Lannister ship in the Narrow Sea holds a support order;
    Baratheon, taking no part, heads the tracks."""
    order = ["baratheon", "stark", "arryn", "lannister", "greyjoy", "tyrell", "martell"]
    s = duel("stark", "arryn", area="the_eyrie", origin="the_mountains_of_the_moon",
             areas='the_narrow_sea = { units = ["lannister ship"], order = "support+0" }',
             houses=["stark", "lannister", "arryn", "baratheon"], options='expansion = "mother-of-dragons"',
             iron_throne=order, fiefdoms=order, power={"baratheon": 5, "stark": 1, "lannister": 3})
    s.step = "marches"
    g = Game(s)
    march = March(origin="the_mountains_of_the_moon", moves=(Move(destination="the_eyrie", units=(UnitSpec("knight", 1),)),))
    g.run(entries("stark", march))
    assert g.asked() == {("support", "lannister")}
    return g


def test_M121_ruling_261_a_gift_is_made_while_the_combat_waits_for_a_support_declaration():
    g = eyrie_attacked()
    g.run(entries("baratheon", Give(power=2, to="stark")))
    assert g.powers() == (3, 3) and g.given() == [2]
    assert g.asked() == {("support", "lannister")}  # the combat still waits for it
    saved = GameState.from_toml(g.state.to_toml())  # the gift is recorded in the half-resolved step
    assert saved.segment is not None and saved.segment.decisions == g.state.segment.decisions
    broken = copy.deepcopy(g.state.to_dict())
    key = next(k for k in broken["segment"]["decisions"] if k.endswith(".gifts"))
    broken["segment"]["decisions"][key]["moves"] = [["baratheon", "the iron bank", 2]]
    with pytest.raises(StateError, match="moves.1: expected"):
        validate_engine(broken)  # a state file edited by hand is refused when read (gamedir, positions)
    g.run(entries("lannister", Support(side="none")))  # the combat replays: the gift is made once
    assert g.powers() == (3, 3) and g.given() == [2]
    assert {k for k, _ in g.asked()} == {"house_card"}


def test_M121_ruling_261_a_gift_sent_while_the_combat_waits_for_cards_waits_for_its_end():
    g = eyrie_attacked()
    g.run(entries("lannister", Support(side="none")))
    assert {k for k, _ in g.asked()} == {"house_card"}
    g.run(entries("baratheon", Give(power=2, to="stark")))
    assert g.powers() == (5, 1) and not g.given()
    g.run(deadline=True)  # the cards, and the rest of the round, take their defaults
    over = [i for i, e in enumerate(g.events) if type(e).__name__ == "CombatResolved"]
    gift = [i for i, e in enumerate(g.events) if isinstance(e, PowerGiven)]
    assert g.given() == [2] and over and gift[0] > over[0]  # made once the combat is over


def test_M121_ruling_261_the_base_game_makes_no_gift_in_a_combat():
    s = duel("stark", "lannister", houses=["stark", "lannister", "baratheon"], power={"baratheon": 5},
             areas='blackwater_bay = { units = ["baratheon ship"], order = "support+0" }')
    s.step = "marches"
    g = Game(s)
    march = March(origin="kings_landing", moves=(Move(destination="kingswood", units=(UnitSpec("knight", 1),)),))
    g.run(entries("stark", march), entries("stark", Give(power=1, to="lannister")))
    assert g.asked() == {("support", "baratheon")} and not g.given()


def test_M121_ruling_261_the_combat_replayed_past_a_gift_reports_what_follows_it():
    """The gift's events are recorded with it: the replay of the combat makes them again in their
    place, so the step after it reports the support declared, and only that is new."""
    g = eyrie_attacked()
    g.run(entries("baratheon", Give(power=2, to="stark")))
    before = len(g.events)
    g.run(entries("lannister", Support(side="none")))
    new = [type(e).__name__ for e in g.events[before:]]
    assert "PowerGiven" not in new and "SupportDeclared" in new
    assert [e.house for e in g.events[before:] if type(e).__name__ == "AnswerUsed"][:1] == ["lannister"]
