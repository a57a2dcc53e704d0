"""House Stark's seven cards, one test (or more) each."""

from __future__ import annotations

from rules.test_combat_harness import (  # noqa: F401
    Assault,
    battle,
    check_icons,
    duel,
    everyone,
    play,
    say,
)

from adjudicator.engine.cards.registry import ChooseRetreat, Me
from adjudicator.engine.events.combat import (
    CasualtiesDue,
    CombatResolved,
    HandReturned,
    Retreated,
)
from adjudicator.game.commands import CardChoice, Retreat


def test_eddard_stark_has_strength_4_and_two_swords(battle):
    check_icons(battle, "stark", "eddard_stark", strength=4, swords=2, forts=0)


def test_greatjon_umber_has_strength_2_and_one_sword(battle):
    check_icons(battle, "stark", "greatjon_umber", strength=2, swords=1, forts=0)


def test_ser_rodrick_cassel_has_strength_1_and_two_fortifications(battle):
    check_icons(battle, "stark", "ser_rodrick_cassel", strength=1, swords=0, forts=2)


def test_catelyn_stark_doubles_defense_order(battle):
    state = duel("lannister", "stark", attack=("footman",), defend=("2 footmen",), defense="defense+1")
    b = battle(state, everyone(state, "lannister"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"units:footman": 2, "defense": 1, "card:catelyn_stark": 0,
                                             "ability:catelyn_stark": 1}
    assert final.defender_total == 4 and final.winner == "stark"


def test_catelyn_stark_doubles_special_defense(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=("footman",), defense="defense+2")
    b = battle(state, everyone(state, "lannister"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.of(CombatResolved)[0].defender_total == 1 + 2 + 2  # +2 becomes +4


def test_catelyn_stark_does_nothing_without_a_defense_order(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.of(CombatResolved)[0].attacker_total == 2


def test_robb_stark_chooses_where_the_defeated_army_retreats(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"),
          say("lannister", Retreat(areas=("the_reach",))),
          say("stark", CardChoice(card="robb_stark", area="the_boneway")))
    assert b.done
    assert b.of(Retreated)[0].to_area == "the_boneway"
    assert b.unusable("lannister") == [  # the defender's own choice does not stand
        'the only legal answer, "retreat to The Boneway", was taken without asking; '
        "Robb Stark's owner chose The Boneway for this retreat, as the card's text allows (R193)"]


class _Stub:
    """Just enough of a combat view to ask Robb Stark's question."""

    area = "kingswood"

    def __init__(self, losses):
        self.losses, self.offered = losses, None

    def winner(self):
        return "attacker"

    def retreat_losses(self):
        return self.losses

    def choose(self, me, prompt, options, *, default, house=None, secret=False):
        self.offered = [o.area or o.option for o in options]
        return options[0]


def test_robb_stark_may_pick_only_an_area_where_the_loser_loses_fewest():
    from adjudicator.engine.cards.stark import robb_stark

    view = _Stub({"storms_end": 1, "the_boneway": 2, "the_reach": 1})
    effects = list(robb_stark(view, Me("attacker", "stark", "robb_stark")))
    assert view.offered == ["storms_end", "the_reach", "no"]
    assert effects == [ChooseRetreat("storms_end")]


def test_robb_stark_declined_leaves_the_choice_to_the_loser(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"),
          say("stark", CardChoice(card="robb_stark", option="no")), say("lannister", Retreat(areas=("the_reach",))))
    assert b.of(Retreated)[0].to_area == "the_reach"


def test_robb_stark_has_nothing_to_choose_when_the_attacker_loses():
    from adjudicator.engine.cards.stark import robb_stark

    view = _Stub({"storms_end": 0, "the_reach": 0})
    assert list(robb_stark(view, Me("defender", "stark", "robb_stark"))) == [] and view.offered is None


def test_roose_bolton_takes_back_the_discards_when_losing(battle):
    state = duel("stark", "lannister", attack=("footman",), defend=("2 footmen",),
                 hands={"stark": ["roose_bolton", "the_blackfish"]},
                 discards={"stark": ["eddard_stark", "robb_stark", "greatjon_umber", "ser_rodrick_cassel", "catelyn_stark"]})
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "roose_bolton"), play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister"
    stark = b.state.houses["stark"]
    assert sorted(stark.hand) == sorted(["roose_bolton", "the_blackfish", "eddard_stark", "robb_stark", "greatjon_umber",
                                         "ser_rodrick_cassel", "catelyn_stark"])
    assert stark.discards == []
    assert b.of(HandReturned)[0].house == "stark"


def test_roose_bolton_goes_to_the_discards_when_winning(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=(), discards={"stark": ["eddard_stark"]},
                 areas='kingswood = ["lannister footman"]\nthe_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "roose_bolton"), play("lannister", "cersei_lannister"))
    assert b.done and b.state.houses["stark"].discards == ["eddard_stark", "roose_bolton"]


def test_the_blackfish_takes_no_casualties(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("2 footmen",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("stark", "the_blackfish"), play("lannister", "ser_gregor_clegane"))
    assert b.done and b.results()[0].winner == "lannister"
    due = b.of(CasualtiesDue)[0]
    assert (due.house, due.area, due.count, due.swords, due.fortifications, due.prevented_by) == (
        "stark", "kingswood", 0, 3, 0, "the_blackfish")
    assert b.units("storms_end", "stark", routed=True) == ["footman", "footman"]


def test_the_blackfish_does_not_save_units_that_cannot_retreat(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]\nstorms_end = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("stark", "the_blackfish"), play("lannister", "ser_gregor_clegane"))
    assert b.done and b.units("kingswood") == ["knight", "knight"]  # no legal retreat: destroyed (ruling 37)



def test_robb_stark_asks_where_the_loser_retreats_and_no_is_told_declined(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"))
    asked = next(r for r in b.requests() if r.house == "stark")
    assert asked.prompt == "Robb Stark: choose the area the defeated army retreats to, or 'no'"
    assert asked.default.option == "no"
    b.run(say("stark", CardChoice(card="robb_stark", option="no")), say("lannister", Retreat(areas=("the_reach",))))
    assert b.told("robb_stark") == ["Stark's Robb Stark has no effect: declined."]
