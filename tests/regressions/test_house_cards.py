"""Review of the 42 House cards against their printed texts (``data/cards.toml``) and R191-R198.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats are fought through the real step machine by the harness of
``tests/rules/test_combat_harness.py``: unless told otherwise a house that does not fight heads every
track, then the attacker, then the defender. ``BLOCKED`` puts a third house in The Boneway and The
Reach, so a defeated Kingswood army retreats to Storm's End unasked.
"""

from __future__ import annotations

from rules.test_combat_harness import battle, duel, everyone, play, say  # noqa: F401

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    AttackRepelled,
    CardAbility,
    CasualtiesDue,
    CombatResolved,
    HandReturned,
    Retreated,
    TrackMoved,
)
from adjudicator.game.commands import CardChoice, RefuseSupport, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


# --- Baratheon --------------------------------------------------------------------------------------


def test_renly_baratheon_an_attacker_names_the_embattled_area_for_its_attacking_footman(battle):
    """Wrong before: an attacker's footmen were offered only under the area they marched from, so
    ``renly baratheon: upgrade footman in Kingswood`` (the turn-file guide's own example, written
    by a house that attacked the Kingswood) was refused. The area of the combat now names them too.
    """
    state = duel("baratheon", "lannister", attack=("2 footmen", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("lannister", "cersei_lannister"),
          say("baratheon", CardChoice(card="renly_baratheon", area="kingswood")))
    assert b.done, b.unusable()
    assert b.units("kingswood", "baratheon") == ["footman", "knight", "knight"]
    assert b.units("kings_landing") == []


# --- Greyjoy ----------------------------------------------------------------------------------------


def test_aeron_damphair_reports_the_power_paid_under_the_cards_name(battle):
    """Wrong before: the 2 power Aeron costs were reported as paid for "aeron damphair"."""
    from adjudicator.engine.core.common import PowerChanged

    state = duel("greyjoy", "lannister", attack=("2 footmen", "knight"), defend=("footman",), power={"greyjoy": 5},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("lannister", "cersei_lannister"),
          say("greyjoy", CardChoice(card="aeron_damphair", house_card="balon_greyjoy")))
    assert b.done
    paid = b.of(PowerChanged)
    assert [(p.house, p.amount, p.cause) for p in paid] == [("greyjoy", -2, "Aeron Damphair")]
    assert b.state.houses["greyjoy"].power == 3


def test_renly_baratheon_a_refused_choice_lists_the_choices_by_their_names(battle):
    """Wrong before: a refused card choice listed the legal ones by their ids ("kings_landing"),
    which is not how a player writes an area; now they read as the board names them."""
    state = duel("baratheon", "lannister", attack=("2 footmen", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("lannister", "cersei_lannister"),
          say("baratheon", CardChoice(card="renly_baratheon", area="the_reach")))
    assert b.unusable("baratheon") == [
        "'The Reach' is not a choice Renly Baratheon allows here; the choices are: "
        "Kingswood; King's Landing; no (R193)"]


def test_aeron_damphair_declined_costs_nothing_and_fights_as_aeron(battle):
    """Checked: "you may" - a refusal leaves Aeron in play (strength 0) and the power untouched."""
    state = duel("greyjoy", "lannister", attack=("2 knights",), defend=("footman",), power={"greyjoy": 5},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("lannister", "cersei_lannister"),
          say("greyjoy", CardChoice(card="aeron_damphair", option="no")))
    assert b.done and b.state.houses["greyjoy"].power == 5
    assert b.of(CombatResolved)[0].attacker_card == "aeron_damphair"


def test_victarion_greyjoy_another_houses_supporting_ships_count_one(battle):
    """Checked: only Greyjoy ships count 2; a Lannister ship supporting Greyjoy counts 1 (ruling 53)."""
    state = duel("greyjoy", "stark", attack=("ship",), defend=("ship",), area="the_golden_sound", origin="ironmans_bay",
                 areas='sunset_sea = { units = ["lannister ship"], order = "support+0" }')
    b = battle(state, everyone(state, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run(say("lannister", Support(side="greyjoy")), play("greyjoy", "victarion_greyjoy"),
          play("stark", "catelyn_stark"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:ship": 1, "support:lannister:sunset_sea": 1,
                                             "card:victarion_greyjoy": 3, "ability:victarion_greyjoy": 1}


def test_balon_greyjoy_leaves_the_opponents_swords(battle):
    """Checked: Balon zeroes only the printed number; Eddard Stark's two swords still kill two."""
    state = duel("stark", "greyjoy", attack=("3 knights",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("greyjoy", "balon_greyjoy"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("card:eddard_stark", 0) in final.attacker_strength and final.winner == "stark"
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(2, 2)]


def test_ruling_59_balon_greyjoy_leaves_stannis_the_strength_his_text_adds(battle):
    """Checked: Balon zeroes the printed 4 of Stannis Baratheon; Stannis's own +1 still counts."""
    order = ["greyjoy", "baratheon", "stark", "lannister", "tyrell", "martell"]
    state = duel("greyjoy", "baratheon", attack=("knight",), defend=("footman",), iron_throne=order)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "balon_greyjoy"), play("baratheon", "stannis_baratheon"))
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"units:footman": 1, "card:stannis_baratheon": 0,
                                             "ability:stannis_baratheon": 1}


def test_theon_greyjoy_attacking_a_castle_gains_nothing(battle):
    """Checked: the +1 and the sword are for a defender of a castle or stronghold only."""
    state = duel("greyjoy", "lannister", attack=("knight",), defend=("footman",), area="the_reach", origin="kingswood")
    b = battle(state, everyone(state, "greyjoy", area="the_reach", origin="kingswood"))
    b.run(play("greyjoy", "theon_greyjoy"), play("lannister", "cersei_lannister"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:knight": 2, "card:theon_greyjoy": 2}


def test_asha_greyjoy_support_turned_down_leaves_her_unsupported(battle):
    """Checked: support refused is no support (R180), so Asha keeps her swords and fortification."""
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = { units = ["lannister footman"], order = "support+0" }')
    b = battle(state, everyone(state, "greyjoy"))
    b.run(say("lannister", Support(side="greyjoy")), say("greyjoy", RefuseSupport(supporter="lannister")),
          play("greyjoy", "asha_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(2, 2)]


# --- Stark ------------------------------------------------------------------------------------------


def test_catelyn_stark_never_doubles_the_opponents_defense_order(battle):
    """Checked: "your" Defense Order: attacking Catelyn adds nothing for the defender's order."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), defense="defense+2")
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:knight": 4, "card:catelyn_stark": 0}
    assert dict(final.defender_strength) == {"units:footman": 1, "defense": 2, "card:cersei_lannister": 0}


def test_robb_stark_and_arianne_martell_both_apply(battle):
    """Checked: Robb's owner picks the loser's retreat while Arianne keeps Robb's army out."""
    state = duel("stark", "martell", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("martell", "arianne_martell"),
          say("stark", CardChoice(card="robb_stark", area="the_boneway")))
    assert b.done and b.results()[0].attacker_won
    assert b.of(Retreated)[0].to_area == "the_boneway"
    assert b.units("kingswood") == [] and b.units("kings_landing", "stark", routed=False) == ["knight", "knight"]


def test_roose_bolton_lost_as_the_last_card_takes_back_all_seven(battle):
    """Checked: Roose played as the last card and lost: all seven come back, none stays discarded."""
    six = ["eddard_stark", "robb_stark", "greatjon_umber", "ser_rodrick_cassel", "the_blackfish", "catelyn_stark"]
    state = duel("stark", "lannister", attack=("footman",), defend=("2 footmen",), hands={"stark": ["roose_bolton"]},
                 discards={"stark": six})
    b = battle(state, everyone(state, "stark"))
    b.run(play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister"
    assert sorted(b.state.houses["stark"].hand) == sorted([*six, "roose_bolton"])
    assert b.state.houses["stark"].discards == []
    assert len(b.of(HandReturned)) == 1


def test_the_blackfish_stops_a_tides_of_battle_skull(battle):
    """Checked: The Blackfish spares Stark a skull's casualty too, even when Stark wins."""
    state = duel("lannister", "stark", attack=("knight",), defend=("2 footmen",),
                 options='[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n'
                         '[decks]\ntides = ["skull", "blank"]\n')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("stark", "the_blackfish"), play("lannister", "cersei_lannister"))
    assert b.done and b.results()[0].winner == "stark"
    skull = [d for d in b.of(CasualtiesDue) if d.skulls]
    assert [(d.house, d.count, d.prevented_by) for d in skull] == [("stark", 0, "the_blackfish")]
    assert b.units("kingswood", "stark") == ["footman", "footman"]


# --- Lannister --------------------------------------------------------------------------------------


def test_tywin_lannister_gains_only_what_is_left_of_its_twenty_tokens(battle):
    """Checked: a house has 20 Power tokens in all (Q11): with 19 available Tywin brings one."""
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), power={"lannister": 19},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "tywin_lannister"), play("stark", "catelyn_stark"))
    assert b.done and b.state.houses["lannister"].power == 20


def test_tyrion_lannister_a_cancelled_cards_text_never_resolves(battle):
    """Checked: Mace Tyrell sent back by Tyrion destroys no footman; its replacement fights instead."""
    state = duel("tyrell", "lannister", attack=("2 footmen", "knight"), defend=("2 footmen",))
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    b.run(play("tyrell", "margaery_tyrell"))
    assert not b.of(UnitsDestroyed)
    assert b.of(CombatResolved)[0].defender_total == 2 + 1
    assert "mace_tyrell" in b.state.houses["tyrell"].hand


def test_cersei_lannister_losing_asks_nothing(battle):
    """Checked: "if you win": a defeated Cersei is not asked for an order to remove."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), areas=BLOCKED + '\n'
                 'winterfell = { units = ["stark footman"], order = "consolidate" }')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.done and b.state.area("winterfell").order is not None
    assert not [e for e in b.of(CardAbility) if e.card == "cersei_lannister"]


def test_ser_kevan_lannister_routed_supporting_footmen_still_count_nothing(battle):
    """Checked: Kevan doubles standing footmen only; routed ones count 0 (R186, R219)."""
    state = duel("lannister", "stark", attack=("footman",), defend=("footman",),
                 areas='the_reach = { units = ["lannister footman routed", "lannister footman"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("lannister", Support(side="lannister")), play("lannister", "ser_kevan_lannister"),
          play("stark", "catelyn_stark"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:footman": 1, "support:lannister:the_reach": 1,
                                             "card:ser_kevan_lannister": 1, "ability:ser_kevan_lannister": 2}


# --- Tyrell -----------------------------------------------------------------------------------------


def test_ser_loras_tyrell_defending_and_winning_moves_no_order(battle):
    """Checked: "if you are attacking": Loras on defence leaves the attacker's March Order removed."""
    state = duel("stark", "tyrell", attack=("footman",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("tyrell", "ser_loras_tyrell"))
    assert b.done and b.results()[0].winner == "tyrell"
    assert b.state.area("kingswood").order is None and b.state.area("kings_landing").order is None


def test_queen_of_thorns_never_removes_the_order_in_the_embattled_area(battle):
    """Checked: only orders next to the embattled area: the defender's Defense Order there stays,
    and a single order next door is removed unasked."""
    state = duel("tyrell", "stark", attack=("knight",), defend=("footman",), defense="defense+1",
                 areas='storms_end = { units = ["stark footman"], order = "raid" }')
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "queen_of_thorns"), play("stark", "catelyn_stark"))
    assert b.state.area("storms_end").order is None
    final = b.of(CombatResolved)[0]
    assert ("defense", 1) in final.defender_strength


def test_mace_tyrell_an_attacking_footman_destroyed_never_advances(battle):
    """Checked: the attacker's footman Mace destroys is gone from the march: the rest move in."""
    state = duel("stark", "tyrell", attack=("footman", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("tyrell", "mace_tyrell"))
    assert b.done and b.results()[0].attacker_won
    assert b.units("kingswood", "stark") == ["knight"] and b.units("kings_landing") == []


# --- Baratheon --------------------------------------------------------------------------------------


def test_stannis_baratheon_gains_one_once_doran_drops_him_below_his_opponent(battle):
    """Checked: Stannis compares the Iron Throne track as it stands when strength is counted."""
    order = ["baratheon", "martell", "stark", "lannister", "tyrell", "greyjoy"]
    state = duel("baratheon", "martell", attack=("knight",), defend=("footman",), iron_throne=order)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "stannis_baratheon"), play("martell", "doran_martell"),
          say("martell", CardChoice(card="doran_martell", track="iron_throne")))
    assert b.of(TrackMoved)[0].order[-1] == "baratheon"
    assert ("ability:stannis_baratheon", 1) in b.of(CombatResolved)[0].attacker_strength


def test_renly_baratheon_losing_upgrades_nothing(battle):
    """Checked: "if you win": a defeated Renly is not asked."""
    state = duel("baratheon", "stark", attack=("footman",), defend=("knight", "2 footmen"))
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("stark", "the_blackfish"))
    assert b.done and not b.results()[0].attacker_won
    assert b.units("kings_landing", "baratheon") == ["footman"]


def test_salladhor_saan_baratheon_ships_keep_their_strength(battle):
    """Checked: Salladhor zeroes every ship but Baratheon's own."""
    state = duel("baratheon", "lannister", attack=("2 ships",), defend=("ship",), area="shipbreaker_bay",
                 origin="blackwater_bay",
                 areas='port_of_dragonstone = { units = ["baratheon ship"], order = "support+0" }')
    b = battle(state, everyone(state, "baratheon", area="shipbreaker_bay", origin="blackwater_bay"))
    b.run(say("baratheon", Support(side="baratheon")), play("baratheon", "salladhor_saan"),
          play("lannister", "cersei_lannister"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:ship": 2, "support:baratheon:port_of_dragonstone": 1,
                                             "card:salladhor_saan": 1}
    assert dict(final.defender_strength) == {"units:ship": 1, "card:cersei_lannister": 0,
                                             "ability:salladhor_saan": -1}


def test_patchface_acts_after_a_lost_combat(battle):
    """Checked: Patchface's text holds win or lose."""
    state = duel("baratheon", "stark", attack=("footman",), defend=("2 footmen",))
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="patchface", house_card="eddard_stark")))
    assert b.done and not b.results()[0].attacker_won
    assert "eddard_stark" in b.state.houses["stark"].discards


# --- Martell ----------------------------------------------------------------------------------------


def test_arianne_martell_attacking_and_losing_changes_nothing(battle):
    """Checked: "if you are defending": a defeated attacking Arianne goes home routed as usual."""
    state = duel("martell", "stark", attack=("footman",), defend=("3 footmen",))
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "arianne_martell"), play("stark", "catelyn_stark"))
    assert b.done and b.of(AttackRepelled)[0].routed
    assert b.units("kings_landing", "martell", routed=True) == ["footman"]


def test_arianne_martell_defending_and_winning_changes_nothing(battle):
    """Checked: Arianne holds nothing back when Martell wins: the attacker is routed."""
    state = duel("stark", "martell", attack=("footman",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("martell", "arianne_martell"))
    assert b.done and not b.results()[0].attacker_won
    assert b.units("kings_landing", "stark", routed=True) == ["footman"]
