"""What a loan's buyer is told (section 9.7, rulings 219 and 225), word for word as the report shows
it: each wrong answer's refusal, what Spymaster asks, and the choices the Iron Bank request offers."""

from __future__ import annotations

import pytest
from rules.helpers import answers, of, phases, put, reasons, run, units  # noqa: F401

from adjudicator.engine.cards.loans import first_choice
from adjudicator.engine.events.bank import ImprovementPlaced, SpymasterLooked
from adjudicator.game.commands import Located, SpymasterChoice
from mother_of_dragons.test_loans import buy, buying

pytestmark = pytest.mark.usefixtures("phases")


def at(area: str, unit: str, count: int = 1) -> Located:
    return Located(area=area, unit=unit, count=count)


REFUSED = [
    ("customs_officer", dict(areas=("winterfell",)), "Customs Officer names no area after its name (M104)"),
    ("expert_artificer", {}, "Expert Artificer needs 1 area after its name: 'take expert artificer in AREA' (M104)"),
    ("loyal_maester", dict(areas=("winterfell",)),
     "Loyal Maester needs 2 areas after its name: 'take loyal maester in AREA, AREA' (M104)"),
    ("customs_officer", dict(units=(at("winterfell", "footman"),)), "Customs Officer places or destroys no units; name none (M104)"),
    ("pyromancer", dict(areas=("harrenhal",)), "Pyromancer needs its choice after a colon: crown or barrel (M104)"),
    ("customs_officer", dict(option="crown"), "Customs Officer takes no choice after a colon (M104)"),
    ("master_at_arms", dict(areas=("winterfell", "harrenhal")),
     "Winterfell has no castle to improve (a stronghold is not a castle) (ruling 219)"),
    ("pyromancer", dict(areas=("karhold",), option="crown"), "Karhold has no castle to degrade (ruling 219)"),
    ("loyal_maester", dict(areas=("winterfell", "bay_of_ice")), "Bay of Ice is not a land area (M119)"),
    ("full_host", dict(units=(at("winterfell", "siege_engine", 2),)),
     "Full Host places 1 footman, 1 knight, 1 siege engine, 1 ship; not another siege engine (M104)"),
    ("siege_engineers", dict(units=(at("winterfell", "footman"), at("winterfell", "siege_engine"))),
     "Siege Engineers still has 1 siege engine to place, and it fits somewhere: name where (ruling 219)"),
    ("the_faceless_men", dict(units=(at("the_reach", "knight"), at("dornish_marches", "knight"))),
     "The Faceless Men destroy one knight and one footman: 'knight in AREA, footman in AREA' (M104)"),
    ("the_faceless_men", dict(units=(at("the_reach", "knight", 2),)),
     "The Faceless Men destroy one knight and one footman: 'knight in AREA, footman in AREA' (M104)"),
    ("the_faceless_men", dict(units=(at("the_reach", "knight"), at("the_reach", "footman"))),
     "The Faceless Men take the knight and the footman from two different areas (M104)"),
    ("the_faceless_men", dict(units=(at("karhold", "knight"), at("dornish_marches", "footman"))),
     "there is no knight in Karhold (M104)"),
    ("the_faceless_men", dict(units=(at("the_reach", "knight"),)),
     "The Faceless Men must destroy a footman too while one stands in another area: name it (M104)"),
    ("the_faceless_men", dict(units=(at("dornish_marches", "footman"),)),
     "The Faceless Men must destroy a knight too while one stands in another area: name it (M104)"),
]


@pytest.mark.parametrize(("loan", "answer", "told"), REFUSED, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(REFUSED)])
def test_M104_ruling_219_a_loans_wrong_answer_is_refused_word_for_word(loan, answer, told):
    s = buying(loan)
    put(s, "the_reach", "lannister", "knight", "footman")
    put(s, "dornish_marches", "baratheon", "footman")
    step = buy(s, **answer)
    assert reasons(step, "stark") == [told]
    assert step.state.houses["stark"].loans == [] and step.state.loan_slots[0] == loan


def test_the_faceless_men_need_no_footman_when_the_only_one_stands_beside_the_knight():
    """A footman in the knight's own area cannot be the second unit (two different areas): naming the
    knight alone is the whole of the card."""
    s = buying("the_faceless_men")
    for st in s.areas.values():
        st.units[:] = [u for u in st.units if u.type != "footman"]
    put(s, "the_reach", "lannister", "knight", "footman")
    t = buy(s, units=(at("the_reach", "knight"),)).state
    assert units(t, "the_reach") == ["footman"] and t.houses["stark"].loans == ["the_faceless_men"]


def test_pyromancer_the_crown_is_a_power_improvement():
    step = buy(buying("pyromancer"), areas=("harrenhal",), option="crown")
    assert step.state.area("harrenhal").improvements == ["-castle", "+power"]
    assert [e.describe() for e in of(step.events, ImprovementPlaced)] == [
        "Harrenhal receives a castle degradation (the loan Pyromancer).",
        "Harrenhal receives a power improvement (the loan Pyromancer).",
    ]


def test_spymaster_ruling_225_asks_where_each_card_seen_goes_and_counts_one_card_right():
    s = buying("spymaster")
    deck = list(s.westeros_decks["2"])
    step = buy(s, option="2")
    (req,) = [r for r in step.requests if r.house == "stark"]
    assert (req.key.rsplit(".", 2)[1:], req.prompt) == (["spymaster", "stark"],
                                                       "Spymaster: put the 2 cards you saw on top or at the bottom")
    assert req.context == {"deck": 2, "cards": deck[:2]} and req.default == SpymasterChoice(top=(1, 2))
    assert [(e.deck, e.visible_to) for e in of(step.events, SpymasterLooked)] == [(2, "stark")]
    bad = run(step.state, *answers("stark", SpymasterChoice(top=(1,))))
    assert reasons(bad, "stark") == ["place the first and the second card you saw, each once, on top or at the bottom "
                                     "(ruling 225)"]
    s.westeros_decks["2"] = deck[:1]
    step = buy(s, option="2")
    (req,) = [r for r in step.requests if r.house == "stark"]
    assert req.prompt == "Spymaster: put the 1 card you saw on top or at the bottom"
    bad = run(step.state, *answers("stark", SpymasterChoice(top=(1, 2))))
    assert reasons(bad, "stark") == ["place the first card you saw, each once, on top or at the bottom (ruling 225)"]
    done = run(step.state, *answers("stark", SpymasterChoice(bottom=(1,))))
    assert done.state.westeros_decks["2"] == deck[:1]  # the only card, at the bottom of a deck of one
    assert [e.describe() for e in done.events if type(e).__name__ == "SpymasterDone"] == [
        "Stark puts 1 card of Westeros deck 2 at the bottom and the rest back on top (Spymaster)."]


FIRST_CHOICES = {  # MD14: the loan's choices the Iron Bank request offers (and a robot takes)
    "customs_officer": ((), (), None),
    "expert_artificer": (("karhold",), (), None),  # the first land area of the buyer's, in area order
    "savvy_steward": (("karhold",), (), None),
    "loyal_maester": (("karhold", "white_harbor"), (), None),
    "master_at_arms": (("white_harbor", "crackclaw_point"), (), None),  # its own castle first, then another's
    "pyromancer": (("crackclaw_point",), (), "crown"),  # another house's castle
    "spymaster": ((), (), "1"),
    "full_host": ((), (("karhold", "footman"), ("karhold", "knight"), ("karhold", "siege_engine"), ("bay_of_ice", "ship")), None),
    "sea_raiders": ((), (("karhold", "footman"), ("bay_of_ice", "ship"), ("bay_of_ice", "ship"), ("bay_of_ice", "ship")), None),
    "siege_engineers": ((), (("karhold", "footman"), ("karhold", "siege_engine"), ("karhold", "siege_engine")), None),
    "vanguard_cavalry": ((), (("karhold", "knight"),) * 3, None),
    "the_faceless_men": ((), (("the_reach", "knight"), ("dornish_marches", "footman")), None),  # other houses' first
}


def test_MD14_each_loan_offers_its_first_legal_choice_in_area_order():
    for loan, (areas, placed, option) in FIRST_CHOICES.items():
        s = buying(loan)
        put(s, "the_reach", "lannister", "knight", "footman")
        put(s, "dornish_marches", "baratheon", "footman")
        put(s, "karhold", "stark", "knight")
        put(s, "winterfell", "stark", "knight")  # a knight of Stark's beside a footman: the Faceless Men pass it by
        got = first_choice(s, s.board(), "stark", "bay_of_ice", loan)
        assert got is not None, loan
        assert (got.areas, tuple((u.area, u.unit) for u in got.units), got.option) == (areas, placed, option), loan


def test_ruling_260_with_one_improvement_token_left_no_loan_needing_two_is_offered():
    s = buying("expert_artificer")
    lands = [a for a, x in s.board().areas.items() if x.kind == "land"]
    for area in lands[:14]:
        s.area_mut(area).improvements.append("+supply")
    offered = {c: first_choice(s, s.board(), "stark", "bay_of_ice", c) is not None for c in FIRST_CHOICES}
    assert [c for c, ok in offered.items() if not ok] == ["loyal_maester", "master_at_arms", "pyromancer"]
