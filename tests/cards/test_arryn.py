"""House Arryn's fourteen cards (Mother of Dragons: its own set, M122, and the *A Feast for Crows*
set of the alternate game, M123), one test (or more) each.

The cards fight real combats of an expansion game on the expansion's map. The alternate set is
refused at game creation (ruling 222), so a position cannot deal it: its tests give Arryn the
alternate hand after the position is read, as the day the set is offered will.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
from rules.test_combat_harness import Assault, Battle, duel, play, say, wired

from adjudicator.engine.cards.registry import (
    Bonus,
    Fighter,
    GainPower,
    LosePower,
    Me,
    RemoveFromGame,
    Role,
    Skip,
    ability,
)
from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.combat import CardAbility, CasualtiesDue, CombatResolved, HandReturned
from adjudicator.game.commands import CardChoice, Support
from adjudicator.game.state import GameState, Order

MOD = 'expansion = "mother-of-dragons"'
PLAYERS = ["stark", "lannister", "arryn", "baratheon"]  # Greyjoy, Tyrell and Martell are vassals (M005)


class ModBattle(Battle):
    """The harness's battle, advanced on the game's own map (the expansion's)."""

    board = None


@pytest.fixture
def battle(monkeypatch: pytest.MonkeyPatch):
    return wired(monkeypatch, ModBattle)


def fight(attacker: str, defender: str, *, area: str, origin: str, attack=("knight",), defend=("footman",),
          areas: str = "", **kw) -> GameState:
    """An expansion game's combat: Baratheon, a player taking no part, heads the tracks (it holds the Blade)."""
    order = ["baratheon", attacker, defender]
    order += [h for h in ["stark", "lannister", "arryn", "greyjoy", "tyrell", "martell"] if h not in order]
    return duel(attacker, defender, area=area, origin=origin, attack=attack, defend=defend, areas=areas,
                houses=PLAYERS, options=MOD, iron_throne=order, fiefdoms=order, **kw)


def eyrie_attacked(**kw) -> GameState:
    """Stark marches from the Mountains of the Moon on Arryn's Eyrie."""
    kw.setdefault("attack", ("knight",))
    kw.setdefault("defend", ("footman",))
    return fight("stark", "arryn", area="the_eyrie", origin="the_mountains_of_the_moon", **kw)


def attack_on_eyrie(state: GameState) -> Assault:
    types = tuple(u.type for u in state.area("the_mountains_of_the_moon").units if u.house == "stark")
    return Assault("the_eyrie", "stark", "the_mountains_of_the_moon", types)


def arryn_holds(state: GameState, *cards: str) -> GameState:
    """Arryn's hand set after the position is read: the alternate set, which no position deals (ruling 222)."""
    state.houses["arryn"].hand = list(cards)
    return state


def check_icons(battle, card: str, *, strength: int, swords: int, forts: int, alternate: bool = False) -> None:
    """A card without text: its strength and swords when Arryn attacks, its fortifications when it defends."""
    hand = {} if alternate else {"hands": {"arryn": [card]}}
    # attacking the Mountains of the Moon from the Eyrie; Stark's survivors can only retreat to the Twins
    blocked = "\n".join(f'{a} = ["lannister footman"]' for a in ("crackclaw_point", "the_fingers", "the_vale_of_arryn"))
    state = fight("arryn", "stark", area="the_mountains_of_the_moon", origin="the_eyrie", attack=("3 knights",),
                  defend=("3 footmen",), areas=blocked, **hand)
    if alternate:
        arryn_holds(state, card)
    b = battle(state, Assault("the_mountains_of_the_moon", "arryn", "the_eyrie", ("knight",) * 3))
    b.run(play("arryn", card), play("stark", "catelyn_stark"))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == "arryn" and (f"card:{card}", strength) in final.attacker_strength
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == ([(swords, swords)] if swords else [])
    # defending the Eyrie against Eddard Stark's two swords; the survivors retreat to the Vale
    state = eyrie_attacked(attack=("3 knights",), defend=("3 footmen",), **hand)
    if alternate:
        arryn_holds(state, card)
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", card), play("stark", "eddard_stark"))
    assert b.done, b.asked()
    final = b.of(CombatResolved)[0]
    assert final.winner == "stark" and (f"card:{card}", strength) in final.defender_strength
    due = b.of(CasualtiesDue)[0]
    assert (due.swords, due.fortifications, due.count) == (2, forts, max(0, 2 - forts))
    assert b.units("the_vale_of_arryn", "arryn", routed=True) == ["footman"] * (3 - due.count)


def power_changes(b: Battle, house: str) -> list[int]:
    return [e.amount for e in b.of(PowerChanged) if e.house == house]


@dataclass
class Stub:
    """Just enough of a combat view for the texts that read whether the opponent is a vassal."""

    houses: dict[str, str | None] = field(default_factory=lambda: {"attacker": "tyrell", "defender": "arryn"})
    vassals: tuple[str, ...] = ("tyrell",)
    powers: dict[str, int] = field(default_factory=lambda: {"arryn": 1, "tyrell": 0})
    won: Role | None = "defender"
    helpers: tuple[str, ...] = ()
    played: dict[str, str] = field(default_factory=dict)
    area: str = "the_eyrie"
    asked: list[Sequence[CardChoice]] = field(default_factory=list)

    def house(self, role: Role) -> str | None: return self.houses[role]
    def card(self, role: Role) -> str | None: return self.played.get(role)
    def is_vassal(self, house: str) -> bool: return house in self.vassals
    def power(self, house: str) -> int: return self.powers.get(house, 0)
    def winner(self) -> Role | None: return self.won
    def supporters(self, role: Role) -> Sequence[str]: return self.helpers
    def discards(self, house: str) -> Sequence[str]: return ()
    def controls(self, house: str, area: str) -> bool: return house == "arryn"
    def fighters(self) -> Sequence[Fighter]: return ()

    def choose(self, me: Me, prompt: str, options: Sequence[CardChoice], *, default: CardChoice,
               house: str | None = None, secret: bool = False) -> CardChoice:
        self.asked.append(options)
        return options[0]


def effects(card: str, view: Stub, role: Role = "defender") -> list:
    found = ability(card)
    assert found is not None
    return list(found.fn(view, Me(role, "arryn", card)))  # type: ignore[arg-type]


# --- the Mother of Dragons set (M122) -------------------------------------------------------------


def test_M122_lysa_arryn_mod_returns_to_the_hand_after_a_won_defense_with_a_defense_order(battle):
    state = eyrie_attacked(defense="defense+1", hands={"arryn": ["lysa_arryn_mod", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "lysa_arryn_mod"), play("stark", "ser_rodrick_cassel"))
    assert b.asked() == [("card_choice", "arryn")]
    b.run(say("arryn", CardChoice(card="lysa_arryn_mod", option="return")))
    assert b.done and b.results()[0].winner == "arryn"
    arryn = b.state.houses["arryn"]
    assert arryn.hand == ["lysa_arryn_mod", "harry_hardyng"] and arryn.discards == []
    assert b.of(HandReturned)[0].cards == ("lysa_arryn_mod",)


def test_M122_lysa_arryn_mod_declined_or_unanswered_is_discarded(battle):
    for answers in ([say("arryn", CardChoice(card="lysa_arryn_mod", option="no"))], []):
        state = eyrie_attacked(defense="defense+1", hands={"arryn": ["lysa_arryn_mod", "harry_hardyng"]})
        b = battle(state, attack_on_eyrie(state))
        b.run(play("arryn", "lysa_arryn_mod"), play("stark", "ser_rodrick_cassel"), *answers, deadline=not answers)
        assert b.done and b.state.houses["arryn"].discards == ["lysa_arryn_mod"]


def test_M122_lysa_arryn_mod_asks_nothing_without_a_defense_order_or_when_attacking(battle):
    state = eyrie_attacked(hands={"arryn": ["lysa_arryn_mod", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "lysa_arryn_mod"), play("stark", "ser_rodrick_cassel"))
    assert b.done and b.results()[0].winner == "arryn" and b.state.houses["arryn"].discards == ["lysa_arryn_mod"]
    state = fight("arryn", "stark", area="the_mountains_of_the_moon", origin="the_eyrie", attack=("2 knights",),
                  hands={"arryn": ["lysa_arryn_mod", "harry_hardyng"]})
    b = battle(state, Assault("the_mountains_of_the_moon", "arryn", "the_eyrie", ("knight", "knight")))
    b.run(play("arryn", "lysa_arryn_mod"), play("stark", "ser_rodrick_cassel"))
    assert ("card_choice", "arryn") not in b.asked()


def test_M122_bronze_yohn_royce_mod_has_strength_3_a_sword_and_two_fortifications(battle):
    check_icons(battle, "bronze_yohn_royce_mod", strength=3, swords=1, forts=2)


def test_M122_harry_hardyng_has_strength_2_and_a_sword(battle):
    check_icons(battle, "harry_hardyng", strength=2, swords=1, forts=0)


def test_M122_ser_vardis_egen_gains_1_and_two_fortifications_against_a_weak_card(battle):
    state = eyrie_attacked(attack=("3 knights",), hands={"arryn": ["ser_vardis_egen", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "ser_vardis_egen"), play("stark", "greatjon_umber"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"units:footman": 1, "card:ser_vardis_egen": 2, "ability:ser_vardis_egen": 1}
    due = b.of(CasualtiesDue)[0]
    assert (due.swords, due.fortifications, due.count) == (1, 2, 0)  # Greatjon's sword is cancelled


def test_M122_ser_vardis_egen_does_nothing_against_a_card_of_strength_3_or_more(battle):
    state = eyrie_attacked(attack=("3 knights",), hands={"arryn": ["ser_vardis_egen", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "ser_vardis_egen"), play("stark", "robb_stark"))
    final = b.of(CombatResolved)[0]
    assert "ability:ser_vardis_egen" not in dict(final.defender_strength)


def naval(defender_card: str, *, attacking: bool = False) -> tuple[GameState, Assault]:
    """Stark's ship from the Bite on Arryn's ship in the Narrow Sea (or the other way round). Arryn
    controls The Eyrie (its home) and the Vale (a footman) next to the Narrow Sea, Lannister Crackclaw Point."""
    around = 'the_vale_of_arryn = ["arryn footman"]\ncrackclaw_point = ["lannister footman"]'
    if attacking:
        state = fight("arryn", "stark", area="the_bite", origin="the_narrow_sea", attack=("ship",), defend=("ship",),
                      areas=around, hands={"arryn": [defender_card, "harry_hardyng"]})
        return state, Assault("the_bite", "arryn", "the_narrow_sea", ("ship",))
    state = fight("stark", "arryn", area="the_narrow_sea", origin="the_bite", attack=("ship",), defend=("ship",),
                  areas=around, hands={"arryn": [defender_card, "harry_hardyng"]})
    return state, Assault("the_narrow_sea", "stark", "the_bite", ("ship",))


def test_M122_godric_borrell_defending_a_sea_counts_the_land_areas_around_it_arryn_controls(battle):
    state, attack = naval("godric_borrell")
    b = battle(state, attack)
    b.run(play("arryn", "godric_borrell"), play("stark", "ser_rodrick_cassel"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("ability:godric_borrell", 2) in final.defender_strength  # The Eyrie and the Vale, not Crackclaw Point
    assert final.winner == "arryn" and final.defender_total == 1 + 1 + 2


def test_M122_godric_borrell_gains_nothing_attacking_or_on_land(battle):
    state, attack = naval("godric_borrell", attacking=True)
    b = battle(state, attack)
    b.run(play("arryn", "godric_borrell"), play("stark", "ser_rodrick_cassel"))
    assert "ability:godric_borrell" not in dict(b.of(CombatResolved)[0].attacker_strength)
    state = eyrie_attacked(hands={"arryn": ["godric_borrell", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "godric_borrell"), play("stark", "ser_rodrick_cassel"))
    assert "ability:godric_borrell" not in dict(b.of(CombatResolved)[0].defender_strength)


def test_M122_anya_waynwood_gives_3_power_to_arryn_and_each_supporting_player(battle):
    state = eyrie_attacked(defend=("2 footmen",), hands={"arryn": ["anya_waynwood", "harry_hardyng"]},
                           power={"arryn": 2, "lannister": 1, "stark": 1, "baratheon": 1},
                           areas='the_vale_of_arryn = { units = ["lannister footman"], order = "support+0" }')
    b = battle(state, attack_on_eyrie(state))
    b.run(say("lannister", Support(side="arryn")), play("arryn", "anya_waynwood"), play("stark", "ser_rodrick_cassel"))
    assert b.done and b.results()[0].winner == "arryn"
    assert power_changes(b, "arryn") == [3] and power_changes(b, "lannister") == [3]
    assert power_changes(b, "stark") == [] and b.state.houses["lannister"].power == 4


def test_M122_anya_waynwood_gives_nothing_when_arryn_loses(battle):
    state = eyrie_attacked(attack=("2 knights",), hands={"arryn": ["anya_waynwood", "harry_hardyng"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "anya_waynwood"), play("stark", "eddard_stark"))
    assert b.results()[0].winner == "stark" and power_changes(b, "arryn") == []


def test_M122_M067_anya_waynwood_gives_a_supporting_vassal_nothing():
    view = Stub(houses={"attacker": "stark", "defender": "arryn"}, helpers=("tyrell", "lannister", "arryn"))
    assert effects("anya_waynwood", view) == [GainPower(3), GainPower(3, house="lannister")]


def robert_state(**kw) -> GameState:
    return eyrie_attacked(hands={"arryn": ["robert_arryn", "harry_hardyng"]},
                          discards={"stark": ["eddard_stark", "the_blackfish"]}, **kw)


def test_M122_robert_arryn_removes_himself_and_the_opponents_weakest_discard(battle):
    state = robert_state()
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "robert_arryn"), play("stark", "ser_rodrick_cassel"))
    assert b.of(CombatResolved)[0].winner == "stark"  # win or lose
    offered = [r for r in b.requests() if r.kind == "card_choice"][0]
    assert offered.context["choices"] == ["ser_rodrick_cassel", "the_blackfish", "no"]  # the tie at strength 1
    b.run(say("arryn", CardChoice(card="robert_arryn", house_card="eddard_stark")))
    assert any("not a choice Robert Arryn allows" in r for r in b.unusable("arryn"))
    b.run(say("arryn", CardChoice(card="robert_arryn", house_card="the_blackfish")))
    assert b.done
    arryn, stark = b.state.houses["arryn"], b.state.houses["stark"]
    assert arryn.removed == ["robert_arryn"] and "robert_arryn" not in arryn.discards + arryn.hand
    assert stark.removed == ["the_blackfish"] and stark.discards == ["eddard_stark", "ser_rodrick_cassel"]
    said = [e.describe() for e in b.of(CardAbility)]
    assert said[-2:] == ["Arryn's Robert Arryn: Robert Arryn is removed from the game.",
                         "Arryn's Robert Arryn: Stark's The Blackfish is removed from the game."]
    assert b.state.check() == []
    assert GameState.from_toml(b.state.to_toml()) == b.state


def test_M122_robert_arryn_declined_unanswered_or_attacking_stays_in_the_discards(battle):
    state = robert_state()
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "robert_arryn"), play("stark", "ser_rodrick_cassel"), deadline=True)
    assert b.state.houses["arryn"].discards == ["robert_arryn"] and b.state.houses["stark"].removed == []
    state = fight("arryn", "stark", area="the_mountains_of_the_moon", origin="the_eyrie",
                  hands={"arryn": ["robert_arryn", "harry_hardyng"]}, discards={"stark": ["the_blackfish"]})
    b = battle(state, Assault("the_mountains_of_the_moon", "arryn", "the_eyrie", ("knight",)))
    b.run(play("arryn", "robert_arryn"), play("stark", "catelyn_stark"))
    assert ("card_choice", "arryn") not in b.asked() and b.state.houses["arryn"].removed == []


def test_M122_robert_arryn_counts_the_card_the_opponent_just_discarded(battle):
    state = eyrie_attacked(attack=("2 knights",), hands={"arryn": ["robert_arryn", "harry_hardyng"],
                                                           "stark": ["catelyn_stark", "eddard_stark"]})
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", "robert_arryn"), play("stark", "catelyn_stark"))
    offered = [r for r in b.requests() if r.kind == "card_choice"][0]
    assert offered.context["choices"] == ["catelyn_stark", "no"]  # Stark's pile was empty before the combat


def test_M122_ruling_238_robert_arryn_against_a_vassal_removes_only_himself():
    view = Stub()
    assert effects("robert_arryn", view) == [RemoveFromGame()]
    assert [o.option for o in view.asked[0]] == ["remove", "no"]


# --- the A Feast for Crows set (alternate game, M123) ---------------------------------------------


def test_M123_nestor_royce_has_strength_2_and_two_fortifications(battle):
    check_icons(battle, "nestor_royce", strength=2, swords=0, forts=2, alternate=True)


def test_M123_lyn_corbray_has_strength_2_and_a_sword(battle):
    check_icons(battle, "lyn_corbray", strength=2, swords=1, forts=0, alternate=True)


def test_M123_lothor_brune_has_strength_1_a_sword_and_a_fortification(battle):
    check_icons(battle, "lothor_brune", strength=1, swords=1, forts=1, alternate=True)


def affc_defense(card: str, *, arryn: int, stark: int, attack=("knight",), stark_card: str = "ser_rodrick_cassel",
                 battle) -> Battle:
    state = arryn_holds(eyrie_attacked(attack=attack, defend=("3 footmen",), power={"arryn": arryn, "stark": stark}), card, "lothor_brune")
    b = battle(state, attack_on_eyrie(state))
    b.run(play("arryn", card), play("stark", stark_card))
    return b


def test_M123_bronze_yohn_royce_affc_gains_1_with_more_power_than_the_opponent(battle):
    b = affc_defense("bronze_yohn_royce_affc", arryn=4, stark=3, battle=battle)
    assert ("ability:bronze_yohn_royce_affc", 1) in b.of(CombatResolved)[0].defender_strength
    for equal_or_less in (3, 2):
        b = affc_defense("bronze_yohn_royce_affc", arryn=equal_or_less, stark=3, battle=battle)
        assert "ability:bronze_yohn_royce_affc" not in dict(b.of(CombatResolved)[0].defender_strength)


def test_M123_ruling_212_bronze_yohn_royce_affc_never_gains_against_a_vassal():
    assert effects("bronze_yohn_royce_affc", Stub(powers={"arryn": 5})) == []


def test_M123_littlefinger_takes_twice_the_opponents_printed_strength_holding_the_eyrie(battle):
    b = affc_defense("littlefinger", arryn=1, stark=1, stark_card="greatjon_umber", battle=battle)
    assert b.done and b.results()[0].winner == "arryn" and power_changes(b, "arryn") == [4]


def test_M123_littlefinger_counts_the_eyrie_just_taken_in_the_combat(battle):
    state = arryn_holds(fight("arryn", "stark", area="the_eyrie", origin="the_vale_of_arryn", attack=("2 knights",),
                              power={"arryn": 0, "stark": 0}), "littlefinger", "lothor_brune")
    b = battle(state, Assault("the_eyrie", "arryn", "the_vale_of_arryn", ("knight", "knight")))
    b.run(play("arryn", "littlefinger"), play("stark", "roose_bolton"))
    assert b.done and b.state.controller("the_eyrie", b.state.board()) == "arryn"
    assert power_changes(b, "arryn") == [4]


def test_M123_littlefinger_takes_nothing_when_the_eyrie_is_lost(battle):
    b = affc_defense("littlefinger", arryn=1, stark=1, attack=("3 knights",), stark_card="greatjon_umber",
                     battle=battle)
    assert b.done and b.results()[0].winner == "stark" and power_changes(b, "arryn") == []
    assert any("do not control The Eyrie" in e.effect for e in b.of(CardAbility))


def test_M123_alayne_stone_makes_the_opponent_discard_all_its_power(battle):
    b = affc_defense("alayne_stone", arryn=5, stark=6, battle=battle)
    assert b.asked() == [("card_choice", "arryn")]
    b.run(say("arryn", CardChoice(card="alayne_stone", option="pay")))
    assert b.done and b.state.houses["arryn"].power == 3 and b.state.houses["stark"].power == 0


def test_M123_alayne_stone_having_just_won_the_eyrie(battle):
    state = arryn_holds(fight("arryn", "stark", area="the_eyrie", origin="the_vale_of_arryn", attack=("2 knights",),
                              power={"arryn": 2, "stark": 4}), "alayne_stone", "lothor_brune")
    b = battle(state, Assault("the_eyrie", "arryn", "the_vale_of_arryn", ("knight", "knight")))
    b.run(play("arryn", "alayne_stone"), play("stark", "catelyn_stark"),
          say("arryn", CardChoice(card="alayne_stone", option="pay")))
    assert b.done and b.state.houses["arryn"].power == 0 and b.state.houses["stark"].power == 0


def test_M123_alayne_stone_asks_nothing_without_2_power_or_when_losing(battle):
    b = affc_defense("alayne_stone", arryn=1, stark=6, battle=battle)
    assert b.done and b.state.houses["stark"].power == 6
    b = affc_defense("alayne_stone", arryn=5, stark=6, attack=("3 knights",), stark_card="eddard_stark", battle=battle)
    assert b.done and b.results()[0].winner == "stark" and b.state.houses["stark"].power == 6


def test_M123_ruling_212_alayne_stone_never_acts_against_a_vassal():
    view = Stub(powers={"arryn": 5})
    assert effects("alayne_stone", view) == [] and view.asked == []


def test_M123_lysa_arryn_affc_takes_3_power_when_the_opponent_has_more(battle):
    b = affc_defense("lysa_arryn_affc", arryn=1, stark=2, battle=battle)
    assert b.done and power_changes(b, "arryn") == [3]
    b = affc_defense("lysa_arryn_affc", arryn=2, stark=2, battle=battle)
    assert b.done and power_changes(b, "arryn") == []


def test_M123_ruling_212_lysa_arryn_affc_never_acts_against_a_vassal():
    assert effects("lysa_arryn_affc", Stub(powers={"arryn": 0, "tyrell": 3})) == []


def test_M122_M123_every_arryn_card_with_a_text_has_its_ability_and_the_others_none():
    from adjudicator.engine.cards.registry import ABILITIES, load
    from adjudicator.game.cards import CARDS

    load()
    for card in CARDS.of_set("arryn_mod") + CARDS.of_set("arryn_affc"):
        data = CARDS.house_cards[card]
        assert (card in ABILITIES) == data.has_ability and (not data.has_ability or ABILITIES[card].when == data.when)


def test_every_arryn_card_of_both_sets_is_tested_here():
    import inspect
    import sys

    from adjudicator.game.cards import CARDS

    source = inspect.getsource(sys.modules[__name__])
    for card in CARDS.of_set("arryn_mod") + CARDS.of_set("arryn_affc"):
        assert f"_{card}_" in source, card


# --- the turn-file lines of their choices -----------------------------------------------------------


@pytest.mark.parametrize("line, choice", [
    ("lysa arryn: return", CardChoice(card="lysa_arryn_mod", option="return")),
    ("Lysa Arryn: no", CardChoice(card="lysa_arryn_mod", option="no")),
    ("robert arryn: remove the blackfish", CardChoice(card="robert_arryn", house_card="the_blackfish")),
    ("robert arryn: remove", CardChoice(card="robert_arryn", option="remove")),
    ("robert arryn: nothing", CardChoice(card="robert_arryn", option="no")),
])
def test_M122_lysa_arryn_mod_and_robert_arryn_choices_read_and_print_back(line, choice):
    from adjudicator.turnfile.parser import parse_turn_file
    from adjudicator.turnfile.printer import format_command

    tf = parse_turn_file(line, variant="mother-of-dragons")
    assert not tf.problems and tf.commands == (choice,)
    again = parse_turn_file(format_command(choice), variant="mother-of-dragons")
    assert again.commands == (choice,)


@pytest.mark.parametrize("line, says", [
    ("lysa arryn: keep", "'keep' is unclear for Lysa Arryn"),  # "keep" declines every other card
    ("lysa arryn: remove", "'remove' is not a choice of Lysa Arryn"),
    ("robert arryn: return", "'return' is not a choice of Robert Arryn"),
    ("robert arryn: remove lady olenna", "lady olenna"),
])
def test_M122_lysa_arryn_mod_and_robert_arryn_refuse_other_answers(line, says):
    from adjudicator.turnfile.parser import parse_turn_file

    tf = parse_turn_file(line, variant="mother-of-dragons")
    assert tf.commands == () and len(tf.problems) == 1 and says in tf.problems[0].render()


def test_M122_the_guides_arryn_examples_parse_in_the_expansions_vocabulary():
    import re
    from pathlib import Path

    from adjudicator.turnfile.parser import parse_turn_file

    guide = (Path(__file__).resolve().parents[2] / "docs" / "turn-files.md").read_text("utf-8")
    blocks = [b for b in re.findall(r"```turn-mod\n(.*?)```", guide, re.DOTALL) if "arryn" in b]
    assert blocks
    for body in blocks:
        tf = parse_turn_file(body, variant="mother-of-dragons")
        assert not tf.problems and len(tf.commands) == body.count("\n")


# --- each text's questions and reasons, in its words ---------------------------------------------


@dataclass
class Asked(Stub):
    """A stand-in view against Stark, a player, that answers ``pick`` and keeps the prompts."""

    houses: dict[str, str | None] = field(default_factory=lambda: {"attacker": "stark", "defender": "arryn"})
    vassals: tuple[str, ...] = ()
    powers: dict[str, int] = field(default_factory=lambda: {"arryn": 5, "stark": 4})
    eyrie: bool = True
    pick: str = ""
    prompts: list[str] = field(default_factory=list)

    here: Order | None = None
    piles: dict[str, list[str]] = field(default_factory=dict)
    sea: bool = False
    next_to: list[str] = field(default_factory=list)

    def controls(self, house: str, area: str) -> bool: return self.eyrie and house == "arryn"
    def order(self, area: str) -> Order | None: return self.here
    def discards(self, house: str) -> Sequence[str]: return self.piles.get(house, [])
    def is_sea(self, area: str) -> bool: return self.sea and area == self.area
    def is_land(self, area: str) -> bool: return not self.is_sea(area)
    def adjacent(self, area: str) -> Sequence[str]: return self.next_to

    def choose(self, me: Me, prompt: str, options: Sequence[CardChoice], *, default: CardChoice,
               house: str | None = None, secret: bool = False) -> CardChoice:
        self.asked.append(options)
        self.prompts.append(prompt)
        return next((o for o in options if self.pick in (o.option, o.house_card)), default)


def test_M123_littlefinger_takes_nothing_for_a_card_of_printed_strength_0_or_without_the_eyrie():
    assert effects("littlefinger", Asked(played={"attacker": "catelyn_stark"})) == [
        Skip("the opponent's card has no printed strength")]
    assert effects("littlefinger", Asked(played={"attacker": "roose_bolton"})) == [GainPower(4)]
    assert effects("littlefinger", Asked(played={"attacker": "roose_bolton"}, eyrie=False)) == [
        Skip("you do not control The Eyrie")]


def test_M123_alayne_stone_says_why_she_does_nothing_and_asks_in_her_words():
    assert effects("alayne_stone", Asked(powers={"arryn": 1, "stark": 4})) == [Skip("needs 2 available power")]
    assert effects("alayne_stone", Asked(powers={"arryn": 2, "stark": 0})) == [
        Skip("Stark has no available power to discard")]
    assert effects("alayne_stone", Asked(eyrie=False)) == [Skip("you do not control The Eyrie")]
    declined = Asked(pick="no")
    assert effects("alayne_stone", declined) == [Skip("declined")]
    assert declined.prompts == ["pay 2 power to make Stark discard all of its own? ('pay' or 'no')"]
    assert [o.option for o in declined.asked[0]] == ["pay", "no"]
    assert effects("alayne_stone", Asked()) == [Skip("declined")]  # unanswered: nothing paid
    paid = Asked(pick="pay", powers={"arryn": 2, "stark": 4})
    assert effects("alayne_stone", paid) == [LosePower("arryn", 2), LosePower("stark", 4)]


def test_M122_robert_arryn_asks_in_his_words_and_may_be_declined():
    empty = Asked(pick="no")
    assert effects("robert_arryn", empty) == [Skip("declined")]
    assert empty.prompts == ["remove Robert Arryn from the game? ('remove', or 'no')"]
    assert [o.option for o in empty.asked[0]] == ["remove", "no"]


def test_M122_lysa_arryn_mod_asks_in_her_words_and_may_be_declined():
    view = Asked(won="defender", pick="no", here=Order("arryn", "defense+1"))
    assert effects("lysa_arryn_mod", view) == [Skip("declined")]
    assert view.prompts == ["take Lysa Arryn back into your hand? ('return' or 'no')"]
    assert [o.option for o in view.asked[0]] == ["return", "no"]
    assert effects("lysa_arryn_mod", Asked(won="defender", here=Order("arryn", "support+0"))) == []


def test_M122_robert_arryn_offers_the_opponents_weakest_discards_in_his_words():
    view = Asked(pick="the_blackfish", piles={"stark": ["eddard_stark", "the_blackfish", "ser_rodrick_cassel"]})
    assert effects("robert_arryn", view) == [RemoveFromGame(), RemoveFromGame("stark", "the_blackfish")]
    assert view.prompts == ["remove Robert Arryn from the game? (name the opponent's card to remove with him, or 'no')"]
    assert [o.house_card or o.option for o in view.asked[0]] == ["ser_rodrick_cassel", "the_blackfish", "no"]


def test_M122_godric_borrell_counts_the_land_around_only_a_sea_arryn_defends():
    lands = ["the_eyrie", "the_vale_of_arryn"]
    assert effects("godric_borrell", Asked(area="the_narrow_sea", sea=True, next_to=lands)) == [Bonus("defender", 2)]
    assert effects("godric_borrell", Asked(area="the_narrow_sea", sea=True, next_to=lands), "attacker") == []
    assert effects("godric_borrell", Asked(area="the_mountains_of_the_moon", next_to=lands)) == []
