"""Property tests: printed commands parse back to themselves; no input ever breaks the parser.

Every command the printer can write (one strategy per command type) must survive
``parse(print(cmd)) == cmd``. Random text, random bytes and mutated sample files must give a
:class:`TurnFile` whose problems are all our own error type, never an internal error, and whose
commands round-trip too; ``maester check`` on them raises nothing and changes no game.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.folder.check import CheckError, check_turn_file
from adjudicator.game import commands as C
from adjudicator.game.board import HOUSES, UNIT_TYPES, Board
from adjudicator.game.cards import CARDS
from adjudicator.game.setup import new_game
from adjudicator.turnfile.diagnostics import Notice, TurnFileError
from adjudicator.turnfile.header import Header
from adjudicator.turnfile.names import CARD_CHOICES, INFLUENCE_TRACKS, TRACK_NAMES
from adjudicator.turnfile.parser import TurnFile, parse_turn_file
from adjudicator.turnfile.printer import format_command, format_turn_file

BOARD = Board.classic()
SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples" / "turnfiles").glob("*.txt"))
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

areas = st.sampled_from(sorted(BOARD.areas))
ports = st.sampled_from(sorted(a.id for a in BOARD.ports()))
houses = st.sampled_from(HOUSES)
house_cards = st.sampled_from(CARDS.of_set("base"))  # the classic vocabulary (a game reads its own)
units = st.sampled_from([u for u in UNIT_TYPES if u != "dragon"])  # the classic vocabulary has no dragon
counts = st.integers(1, 10)
tokens = st.sampled_from(sorted(C.ORDER_TOKENS))
influence = st.sampled_from(INFLUENCE_TRACKS)

unit_specs = st.builds(C.UnitSpec, unit=units, count=counts)
located = st.builds(C.Located, area=areas, unit=units, count=counts)
filters = st.builds(C.CombatFilter, role=st.sampled_from([None, "attacker", "defender"]),
                    area=st.none() | areas, opponent=st.none() | houses)
when = st.none() | filters
muster_actions = st.one_of(
    st.builds(C.MusterAction, unit=st.sampled_from(["footman", "knight", "siege_engine"])),
    st.builds(C.MusterAction, unit=st.just("ship"), to=st.none() | areas),
    st.builds(C.MusterAction, unit=st.sampled_from(["knight", "siege_engine"]), upgrade=st.just(True)),
)


def _tuple(s: st.SearchStrategy, low: int = 0, high: int = 4) -> st.SearchStrategy:
    return st.lists(s, min_size=low, max_size=high).map(tuple)


def card_choices() -> st.SearchStrategy[C.CardChoice]:
    def make(card: str, **kw: object) -> st.SearchStrategy[C.CardChoice]:
        return st.builds(C.CardChoice, card=st.just(card), when=when, **kw)  # type: ignore[arg-type]

    no = st.just("no")
    return st.one_of(
        make("tyrion_lannister", option=st.sampled_from(["cancel", "no"])),
        make("doran_martell", track=influence),
        make("patchface", house_card=house_cards), make("patchface", option=no),
        make("aeron_damphair", house_card=house_cards), make("aeron_damphair", option=no),
        make("cersei_lannister", area=areas), make("cersei_lannister", option=no),
        make("queen_of_thorns", area=areas),
        make("renly_baratheon", area=areas), make("renly_baratheon", option=no),
        make("robb_stark", area=areas), make("robb_stark", option=no),
    )


def wildling_choices() -> st.SearchStrategy[C.WildlingChoice]:
    def make(card: str, **kw: object) -> st.SearchStrategy[C.WildlingChoice]:
        return st.builds(C.WildlingChoice, card=st.just(card), **kw)  # type: ignore[arg-type]

    some = _tuple(located, 1)

    def of_type(unit: str) -> st.SearchStrategy[tuple[C.Located, ...]]:
        return _tuple(st.builds(C.Located, area=areas, unit=st.just(unit), count=counts), 1)

    return st.one_of(
        make("preemptive_raid", units=some), make("preemptive_raid", track=influence),
        make("crow_killers", units=of_type("footman")), make("crow_killers", units=of_type("knight")),
        make("crow_killers"), make("a_king_beyond_the_wall", track=influence), make("a_king_beyond_the_wall"),
        make("massing_on_the_milkwater", house_card=house_cards),
        make("mammoth_riders", units=some), make("mammoth_riders", house_card=house_cards), make("mammoth_riders"),
        make("the_horde_descends", area=areas, muster=_tuple(muster_actions)),
        make("the_horde_descends", units=some), make("the_horde_descends"),
    )


CLASSIC_WESTEROS = {c.id for c in CARDS.westeros if c.deck < 4 and c.set == "base"}  # deck IV's choices: tests/mother_of_dragons/
# (A Feast for Crows' deck I and its objective lines: tests/a_feast_for_crows/test_turnfile_fuzz_affc.py)
westeros_choices = st.sampled_from(sorted(
    (key.split(":")[1], option) for key, forms in CARD_CHOICES.items() if key.startswith("westeros_card")
    and key.split(":")[1] in CLASSIC_WESTEROS for option in forms)).map(lambda p: C.WesterosChoice(card=p[0], option=p[1]))

commands = st.one_of(
    st.builds(C.AssignOrder, area=areas, token=tokens),
    st.builds(C.LeaveUnordered, area=areas),
    st.builds(C.Raven, action=st.just("swap"), area=areas, token=tokens),
    st.builds(C.Raven, action=st.sampled_from(["look", "pass"])),
    st.builds(C.RavenKeep, choice=st.sampled_from(["top", "bottom"])),
    st.builds(C.Raid, origin=areas, targets=_tuple(st.none() | areas)),
    st.builds(C.March, origin=areas, moves=_tuple(st.builds(C.Move, units=_tuple(unit_specs, 1), destination=areas)),
              leave_power=st.booleans()),
    st.builds(C.Support, side=st.sampled_from([None, "attacker", "defender", *HOUSES]),
              combat_area=st.none() | areas, origin=st.none() | areas),
    st.builds(C.RefuseSupport, supporter=houses, when=when),
    st.builds(C.PlayCard, card=house_cards, when=when),
    st.builds(C.UseBlade, use=st.booleans(), when=when),
    st.builds(C.Casualties, units=_tuple(unit_specs, 1), when=when),
    st.builds(C.Retreat, areas=_tuple(areas), destroy=_tuple(unit_specs), when=when),
    card_choices(),
    st.builds(C.PortShips, port=ports, count=st.integers(0, 3)),
    st.builds(C.Muster, area=areas, actions=_tuple(muster_actions)),
    st.builds(C.Muster, area=areas, actions=_tuple(muster_actions),  # with fall-backs (ruling 357)
              otherwise=_tuple(st.builds(C.MusterPlan, _tuple(muster_actions)), 1, 3)),
    st.builds(C.Consolidate, area=areas, muster=st.none() | _tuple(muster_actions)),
    st.builds(C.Bid, track=st.sampled_from(sorted(TRACK_NAMES)), amount=st.integers(0, 99)),
    st.builds(C.TieBreak, order=_tuple(houses, 1, 6), context=st.none() | st.sampled_from(sorted(TRACK_NAMES))),
    st.builds(C.Reconcile, removals=_tuple(located)),
    westeros_choices,
    wildling_choices(),
)
# Mother of Dragons: choosing a vassal, and a commander's answers for it (its orders with its own tokens)
vassal_answers = st.one_of(
    st.builds(C.AssignOrder, area=areas, token=st.sampled_from(sorted(C.VASSAL_ORDER_TOKENS))),
    st.builds(C.Raid, origin=areas, targets=_tuple(st.none() | areas)),
    st.builds(C.PlayCard, card=house_cards, when=when),
    st.builds(C.Casualties, units=_tuple(unit_specs, 1), when=when),
)
commands = st.one_of(
    commands,
    st.builds(C.CommandVassal, vassal=st.none() | houses),
    st.builds(C.ForVassal, vassal=houses, command=vassal_answers),
)
# Standing instructions (ruling 353): a line of a kind that may stand, and its withdrawal
standable = commands.filter(lambda c: (c.command if isinstance(c, C.ForVassal) else c).kind in C.STANDING_ANSWER_KINDS)
commands = st.one_of(
    commands,
    st.builds(C.Standing, command=standable),
    st.builds(C.Withdraw, command=st.none() | standable),
)


def test_every_command_type_has_a_strategy() -> None:
    covered = {C.AssignOrder, C.LeaveUnordered, C.Raven, C.RavenKeep, C.Raid, C.March, C.Support, C.RefuseSupport,
               C.PlayCard, C.UseBlade, C.Casualties, C.Retreat, C.CardChoice, C.PortShips, C.Muster, C.Consolidate,
               C.Bid, C.TieBreak, C.Reconcile, C.WesterosChoice, C.WildlingChoice, C.CommandVassal, C.ForVassal,
               C.Standing, C.Withdraw}
    covered |= {C.IronBank, C.InterestLosses, C.Give, C.SpymasterChoice,
                C.DistributeBid}  # Mother of Dragons: tests/mother_of_dragons/
    covered |= {C.KeepObjectives, C.ScoreObjective, C.ReturnObjective,
                C.TakeObjective}  # A Feast for Crows: tests/a_feast_for_crows/test_turnfile_fuzz_affc.py
    assert covered == set(C.COMMAND_TYPES)


@FAST
@given(commands)
def test_a_printed_command_parses_back_to_itself(cmd: C.Command) -> None:
    text = format_command(cmd)
    tf = parse_turn_file(text)
    assert not tf.problems, (text, [p.render() for p in tf.problems])
    assert tf.commands == (cmd,), text


@settings(max_examples=40, deadline=None)
@given(st.lists(commands, max_size=12))
def test_a_printed_turn_file_parses_back_to_its_commands(cmds: list[C.Command]) -> None:
    tf = parse_turn_file(format_turn_file(cmds))
    assert tf.commands == tuple(cmds) and not tf.problems


# --- nothing breaks the parser ------------------------------------------------------------------------


def assert_sound(tf: TurnFile) -> None:
    """The properties every parse result has, whatever the input."""
    assert isinstance(tf, TurnFile)
    assert all(isinstance(p, TurnFileError) for p in tf.problems)
    assert all(isinstance(w, Notice) for w in tf.warnings)
    assert not [p for p in tf.problems if p.code == "E900"], [p.render() for p in tf.problems]
    for p in tf.problems:
        assert p.where.line >= 0 and p.where.column >= 1
        assert "__ANON" not in p.render()
    for c in tf.commands:
        assert c.where is not None and c.where.line >= 1
    assert tf.receipt()
    again = parse_turn_file(format_turn_file(tf.commands))
    assert again.commands == tf.commands and not again.problems


INTERESTING = list(":;,*+-#>=\t\r\n\x00\x07\ufeff\u00a0\u2192\u2013\u2019·|'\"\\") + [
    "march", "raid", " from ", " onto ", " else ", "none", " in ", " to ", "->", "if attacked in ", "support ",
    "Winterfell", "King's Landing", "2 footmen", "=20", "=\n", "> ", "game x · house stark · round 1 · planning · seq 1\n",
    "-----BEGIN SSH SIGNATURE-----\n", "a" * 1200, "\U0001f600", "\ud800",
]


@st.composite
def mutated_samples(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SAMPLES)).read_text("utf-8")
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        piece = draw(st.sampled_from(INTERESTING) | st.text(max_size=4))
        text = text[:at] + piece + text[at + cut:]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400) | st.binary(max_size=400) | mutated_samples())
def test_any_input_gives_a_turn_file_and_only_our_own_problems(data: str | bytes) -> None:
    assert_sound(parse_turn_file(data, filename="fuzz.txt"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(INTERESTING), max_size=30).map("".join))
def test_runs_of_the_language_s_own_pieces_never_break_it(text: str) -> None:
    assert_sound(parse_turn_file(text))


STATE = new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="fuzz", game_id="x")
STATE_TEXT = STATE.to_toml()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_samples(), st.booleans())
def test_check_on_any_input_raises_nothing_of_its_own_and_changes_no_game(text: str, engine: bool) -> None:
    tf = parse_turn_file(text)
    try:
        result = check_turn_file(tf, STATE, game_id="x", house="stark", engine=engine)
    except CheckError:  # pragma: no cover - a house is always given here
        raise AssertionError("check refused a file although the house was given") from None
    assert all(isinstance(p, TurnFileError) for p in result.problems)
    assert STATE.to_toml() == STATE_TEXT


HEADERS = st.builds("game {} · house {} · round {} · {} · seq {}\n".format, st.sampled_from(["x", "y"]),
                    st.sampled_from(["stark", "greyjoy", "dothraki", "Tyrell"]), st.integers(0, 12),
                    st.sampled_from(["planning", "action", "westeros"]), st.integers(0, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HEADERS, mutated_samples(), st.none() | st.sampled_from(["stark", "martell", "dothraki"]))
def test_check_with_any_header_or_house_raises_only_its_usage_error(head: str, text: str, house: str | None) -> None:
    try:
        result = check_turn_file(parse_turn_file(head + text), STATE, game_id="x", house=house, engine=False)
    except CheckError:
        return
    assert all(isinstance(p, TurnFileError) for p in result.problems)
    assert STATE.to_toml() == STATE_TEXT


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, max_size=8), houses, st.booleans())
def test_check_on_any_well_formed_commands_changes_no_game(cmds: list[C.Command], house: str, engine: bool) -> None:
    text = format_turn_file(cmds, Header("x", house, STATE.round, STATE.phase, 1))
    result = check_turn_file(parse_turn_file(text), STATE, house=house, engine=engine)
    assert all(isinstance(p, TurnFileError) for p in result.problems)
    assert STATE.to_toml() == STATE_TEXT
