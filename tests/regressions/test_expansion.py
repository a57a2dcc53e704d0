"""Review of whole Mother of Dragons games: what the robots' games and the invariants found.

Each test names the rule it checks. A docstring starting "Was wrong:" says what a whole game (or an
invariant written for it) found and how it was fixed at the root.
"""

from __future__ import annotations

import pytest
from mother_of_dragons.bank_helpers import bank_game
from mother_of_dragons.vassal_battles import battle  # noqa: F401 (a fixture)
from rules.helpers import answers, at_action, march, phases, put, run  # noqa: F401

from adjudicator.engine.invariants import check_invariants
from adjudicator.game.state import Unit

pytestmark = pytest.mark.usefixtures("phases")


def test_M113_the_braavos_token_is_set_aside_when_its_holder_leaves_braavos_to_no_one():
    """Was wrong: the holder kept the token after marching its last unit out of Braavos without a
    power token, though "if ever no player has control of Braavos, the token is simply placed aside"
    (004:1318). Now the token follows control after every change of control, as Targaryen's loyalty
    tokens do."""
    s = at_action(bank_game())
    s.area_mut("braavos").neutral_force = None
    s.braavos_token = "stark"
    s.step = "marches"
    put(s, "braavos", "stark", "footman", order="march+0")
    put(s, "winterfell", "lannister", "footman", order="defense+1")
    step = run(s, *answers("stark", march("braavos", ("norvos", "footman"))))
    assert step.state.area("norvos").units and step.state.controller("braavos", s.board()) is None
    assert step.state.braavos_token is None
    assert not [p for p in check_invariants(step.state) if "Braavos" in p]


def test_R196_a_last_card_removed_from_the_game_does_not_come_back_as_the_discard():
    """Was wrong (six robots with Mother of Dragons, seed 3, round 8): Targaryen played Viserys
    Targaryen, its last card, and lost; Viserys was removed from the game and then, as the last card
    played (R196), kept as the only discard too: the card was in two places. A removed card is no
    discard to keep; the hand takes back every discard."""
    from mother_of_dragons.test_targaryen_combat import T, fight, flight
    from rules.helpers import entry

    from adjudicator.game.cards import CARDS
    from adjudicator.game.commands import PlayCard

    s = flight()
    hs = s.houses[T]
    hs.hand, hs.discards = ["viserys_targaryen"], [c for c in CARDS.hand_of(T) if c != "viserys_targaryen"]
    step = fight(s, entry("stark", PlayCard(card="eddard_stark")), entry(T, PlayCard(card="viserys_targaryen")))
    hs = step.state.houses[T]
    assert hs.removed == ["viserys_targaryen"] and hs.discards == []
    assert sorted(hs.hand) == sorted(c for c in CARDS.hand_of(T) if c != "viserys_targaryen")
    assert not [p for p in check_invariants(step.state) if "house cards" in p]


def test_M078_ruling_216_a_loyalty_token_moved_into_targaryens_area_is_gained_without_asking_to_cancel():
    """Was wrong (five robots with Targaryen, seed 5, round 7): Scattering Dissent moved a token into
    Blackwater, held by a Targaryen dragon, and the step stopped to ask Targaryen whether to pay to put
    the move back, the token lying ungained in its area meanwhile, though a token moved there "is
    gained at once" (ruling 216, M078). Targaryen is no longer asked to cancel such a move: the token
    is gained as it arrives, and a mail round is saved."""
    from mother_of_dragons.test_westeros_iv import T, resolve, tgame

    from adjudicator.engine.events.targaryen import LoyaltyGained, LoyaltyMoved
    from adjudicator.game.commands import WesterosChoice

    s = tgame()
    s.area_mut("kings_landing").loyalty = 0
    s.area_mut("harrenhal").loyalty = 1
    s.area_mut("blackwater").units = [Unit(T, "dragon")]
    s.houses[T].power, gained = 5, s.loyalty_gained
    mover = [h for h in s.turn_order() if h in s.players()][0]
    # Every other decision by its default; a question to Targaryen about Blackwater would stop the card.
    ctx = resolve(s, "word_spreads_quickly", deadline=lambda r: r.house != T or "Blackwater" not in r.prompt,
                  answers_of={mover: [WesterosChoice(card="word_spreads_quickly", option="harrenhal+blackwater")]})
    moved = [e for e in ctx.events if isinstance(e, LoyaltyMoved)]
    assert (moved[0].house, moved[0].destination, moved[0].cancelled) == (mover, "blackwater", False)
    assert [e.area for e in ctx.events if isinstance(e, LoyaltyGained)][0] == "blackwater"
    assert s.loyalty_gained > gained and not s.area("blackwater").loyalty


def test_jon_connington_ruling_281_never_places_a_knight_at_sea(battle, monkeypatch):
    """Was wrong (four robots without Targaryen, seed 3, round 1): the vassal Arryn lost a sea battle
    with Jon Connington and its commander placed a knight in The Bite, where its ships had come from.
    A knight is a land unit (R014): only the vassal's home area remains to choose, while it controls it."""
    from mother_of_dragons.vassal_battles import fight, rig, vassal_plays
    from rules.test_combat_harness import Assault, play

    rig(monkeypatch, ("jon_connington", "janos_slynt", "varys"))
    state = fight("tyrell", "stark", area="west_summer_sea", origin="redwyne_straights", token="vassal_march",
                  attack=("ship",), defend=("2 ships",))
    b = battle(state, Assault("west_summer_sea", "tyrell", "redwyne_straights", ("ship",)))
    b.run(play("stark", "robb_stark"), vassal_plays("tyrell", "jon_connington"))
    assert b.requests()[0].context["choices"] == ["highgarden", "no"]


def test_M100_targaryen_s_bid_distribution_names_arryn_and_targaryen_as_houses():
    """Was wrong (five robots, seed 11, round 2): the decision's details read "bids: arryn: 0;
    Baratheon: 0; ...; targaryen: 1" and "houses: ..., arryn, Baratheon": the report wrote only the
    base game's six house ids as names."""
    from adjudicator.engine.core.context import Request
    from adjudicator.game.commands import DistributeBid, Gift
    from adjudicator.reports.report import render_report

    s = bank_game()
    req = Request(key="r2.westeros.1.distribute.targaryen", kind="distribute", house="targaryen",
                  prompt="give away the 1 power you bid", context={"bids": {"arryn": 0, "targaryen": 1},
                                                                  "houses": ["arryn", "stark"]},
                  default=DistributeBid(track="fiefdoms", gifts=(Gift(house="stark", amount=1),)))
    text = " ".join(render_report(s, [], viewer="targaryen", fmt="text", requests=[req]).split())
    assert "bids: Arryn: 0; Targaryen: 1" in text and "houses: Arryn, Stark" in text
