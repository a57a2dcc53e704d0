"""The turn-file language: every decision's lines, forgiving spellings, diagnostics, bad input, printer."""

from __future__ import annotations

import codecs

import pytest

from adjudicator.game import commands as C
from adjudicator.turnfile.diagnostics import (
    CODES,
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    AmbiguousName,
    IllegalOrder,
    InvalidLine,
    TurnFileError,
)
from adjudicator.turnfile.header import Header
from adjudicator.turnfile.parser import TurnFile, parse_turn_file
from adjudicator.turnfile.printer import format_command, format_turn_file

HEADER = "game demo · house stark · round 1 · planning · seq 1\n"


def one(line: str) -> C.Command:
    """The single command a line gives; fails with the problems if there is not exactly one."""
    tf = parse_turn_file(line)
    assert not tf.problems, [p.render() for p in tf.problems]
    assert len(tf.commands) == 1, tf.commands
    return tf.commands[0]


def problem(line: str) -> TurnFileError:
    """The single problem a line gives."""
    tf = parse_turn_file(line)
    assert len(tf.problems) == 1, [str(p) for p in tf.problems]
    assert tf.commands == ()
    return tf.problems[0]


# --- every decision (rules-checklist §18) -----------------------------------------------------


def test_D3_D4_D5_westeros_choices() -> None:
    assert one("a throne of blades: muster") == C.WesterosChoice(card="a_throne_of_blades", option="muster")
    assert one("A Throne of Blades: supply") == C.WesterosChoice(card="a_throne_of_blades", option="supply")
    assert one("dark wings, dark words: bid") == C.WesterosChoice(card="dark_wings_dark_words", option="bid")
    assert one("dark wings dark words: collect") == C.WesterosChoice(card="dark_wings_dark_words", option="collect")
    assert one("put to the sword: no march +1") == C.WesterosChoice(card="put_to_the_sword", option="no march+1")
    assert one("put to the sword: no defense") == C.WesterosChoice(card="put_to_the_sword", option="no defense")
    assert one("put to the sword: nothing") == C.WesterosChoice(card="put_to_the_sword", option="nothing")


def test_D6_reconcile_armies() -> None:
    assert one("supply: destroy footman in The Twins, 2 footmen in Harrenhal") == C.Reconcile(removals=(
        C.Located(area="the_twins", unit="footman"), C.Located(area="harrenhal", unit="footman", count=2)))
    assert one("supply: none") == C.Reconcile(removals=())


def test_D7_mustering() -> None:
    assert one("muster in Lannisport: footman, ship to The Golden Sound") == C.Muster(area="lannisport", actions=(
        C.MusterAction(unit="footman"), C.MusterAction(unit="ship", to="the_golden_sound")))
    assert one("muster in Harrenhal: upgrade footman to knight") == C.Muster(
        area="harrenhal", actions=(C.MusterAction(unit="knight", upgrade=True),))
    assert one("muster in Highgarden: 2 footmen") == C.Muster(
        area="highgarden", actions=(C.MusterAction(unit="footman"), C.MusterAction(unit="footman")))
    assert one("muster in Riverrun: none") == C.Muster(area="riverrun", actions=())


def test_D8_D10_bids() -> None:
    assert one("bid iron throne 3") == C.Bid(track="iron_throne", amount=3)
    assert one("bid fiefdoms 0") == C.Bid(track="fiefdoms", amount=0)
    assert one("bid king's court 1") == C.Bid(track="kings_court", amount=1)
    assert one("bid kings court: 1") == C.Bid(track="kings_court", amount=1)
    assert one("bid wildlings 2") == C.Bid(track="wildlings", amount=2)


def test_D9_D11_D31_tie_breaks() -> None:
    assert one("tie-break fiefdoms: stark, lannister, baratheon") == C.TieBreak(
        order=("stark", "lannister", "baratheon"), context="fiefdoms")
    assert one("tie break: stark and greyjoy") == C.TieBreak(order=("stark", "greyjoy"))
    assert one("tiebreak wildlings: martell, tyrell") == C.TieBreak(order=("martell", "tyrell"), context="wildlings")


def test_D12_wildling_choices() -> None:
    assert one("crow killers: upgrade footman in Winterfell, footman in Karhold") == C.WildlingChoice(
        card="crow_killers", units=(C.Located("winterfell", "footman"), C.Located("karhold", "footman")))
    assert one("a king beyond the wall: fiefdoms") == C.WildlingChoice(card="a_king_beyond_the_wall", track="fiefdoms")
    assert one("massing on the milkwater: discard eddard stark") == C.WildlingChoice(
        card="massing_on_the_milkwater", house_card="eddard_stark")
    assert one("mammoth riders: destroy footman in Karhold") == C.WildlingChoice(
        card="mammoth_riders", units=(C.Located("karhold", "footman"),))
    assert one("mammoth riders: take back eddard stark") == C.WildlingChoice(
        card="mammoth_riders", house_card="eddard_stark")
    assert one("preemptive raid: king's court") == C.WildlingChoice(card="preemptive_raid", track="kings_court")
    assert one("the horde descends: muster in Winterfell: footman, knight") == C.WildlingChoice(
        card="the_horde_descends", area="winterfell",
        muster=(C.MusterAction(unit="footman"), C.MusterAction(unit="knight")))
    assert one("the horde descends: nothing") == C.WildlingChoice(card="the_horde_descends")


def test_D13_assign_orders() -> None:
    assert one("Winterfell: march +1") == C.AssignOrder(area="winterfell", token="march+1")
    assert one("The Narrow Sea: support +1") == C.AssignOrder(area="the_narrow_sea", token="support+1")
    assert one("Karhold: raid*") == C.AssignOrder(area="karhold", token="raid*")


@pytest.mark.parametrize(("written", "token"), [
    ("march+1", "march+1"), ("march +1", "march+1"), ("march + 1", "march+1"), ("special march", "march+1"),
    ("march*", "march+1"), ("march -1", "march-1"), ("march-1", "march-1"), ("March +0", "march+0"),
    ("defense", "defense+1"), ("defence +1", "defense+1"), ("defence +2", "defense+2"), ("special defense", "defense+2"),
    ("support", "support+0"), ("support +1", "support+1"), ("special support", "support+1"),
    ("raid", "raid"), ("raid*", "raid*"), ("special raid", "raid*"),
    ("consolidate", "consolidate"), ("cp", "consolidate"), ("consolidate power", "consolidate"),
    ("consolidate power*", "consolidate*"), ("cp*", "consolidate*"), ("SPECIAL CONSOLIDATE", "consolidate*"),
])
def test_D13_forgiving_order_spellings(written: str, token: str) -> None:
    assert one(f"Winterfell: {written}") == C.AssignOrder(area="winterfell", token=token)


def test_D14_no_order() -> None:
    assert one("Winterfell: no order") == C.LeaveUnordered(area="winterfell")


def test_D15_messenger_raven() -> None:
    assert one("raven: swap Winterfell to defense +1") == C.Raven(action="swap", area="winterfell", token="defense+1")
    assert one("raven swap Winterfell defense+1") == C.Raven(action="swap", area="winterfell", token="defense+1")
    assert one("raven: look") == C.Raven(action="look")
    assert one("raven: pass") == C.Raven(action="pass")
    assert one("wildling card: top") == C.RavenKeep(choice="top")
    assert one("Wildling Card: BOTTOM") == C.RavenKeep(choice="bottom")


def test_D16_D17_raids() -> None:
    assert one("raid from Bay of Ice onto Castle Black else none") == C.Raid(
        origin="bay_of_ice", targets=("castle_black", None))
    assert one("raid from Bay of Ice onto Castle Black else Karhold") == C.Raid(
        origin="bay_of_ice", targets=("castle_black", "karhold"))
    assert one("raid from Karhold: none") == C.Raid(origin="karhold", targets=())
    assert one("raid from Karhold onto none") == C.Raid(origin="karhold", targets=(None,))


def test_D18_D19_marches() -> None:
    assert one("march from Winterfell: footman, knight -> Moat Cailin; 2 footmen -> Castle Black; leave power") == C.March(
        origin="winterfell",
        moves=(C.Move(units=(C.UnitSpec("footman"), C.UnitSpec("knight")), destination="moat_cailin"),
               C.Move(units=(C.UnitSpec("footman", 2),), destination="castle_black")),
        leave_power=True)
    assert one("march from Winterfell: stay") == C.March(origin="winterfell")
    assert one("march from Winterfell: k -> Karhold, leave a power token") == C.March(
        origin="winterfell", moves=(C.Move(units=(C.UnitSpec("knight"),), destination="karhold"),), leave_power=True)
    assert one("march from Lannisport: 2 knights to Riverrun") == C.March(
        origin="lannisport", moves=(C.Move(units=(C.UnitSpec("knight", 2),), destination="riverrun"),))


def test_D20_support() -> None:
    assert one("support stark") == C.Support(side="stark")
    assert one("support stark in every combat") == C.Support(side="stark")
    assert one("support stark in Winterfell") == C.Support(side="stark", combat_area="winterfell")
    assert one("support none") == C.Support(side=None)
    assert one("support nobody") == C.Support(side=None)
    assert one("support attacker") == C.Support(side="attacker")
    assert one("support defender in The Reach") == C.Support(side="defender", combat_area="the_reach")
    assert one("support from The Narrow Sea: stark") == C.Support(side="stark", origin="the_narrow_sea")


def test_D21_refuse_support() -> None:
    assert one("refuse support from greyjoy") == C.RefuseSupport(supporter="greyjoy")


def test_D22_house_card() -> None:
    assert one("play eddard stark") == C.PlayCard(card="eddard_stark")
    assert one("play Ned") == C.PlayCard(card="eddard_stark")


def test_D23_house_card_choices() -> None:
    assert one("tyrion lannister: cancel") == C.CardChoice(card="tyrion_lannister", option="cancel")
    assert one("tyrion: no") == C.CardChoice(card="tyrion_lannister", option="no")
    assert one("doran martell: fiefdoms") == C.CardChoice(card="doran_martell", track="fiefdoms")
    assert one("patchface: discard ser jaime lannister") == C.CardChoice(card="patchface", house_card="ser_jaime_lannister")
    assert one("aeron damphair: swap to balon greyjoy") == C.CardChoice(card="aeron_damphair", house_card="balon_greyjoy")
    assert one("aeron damphair: keep") == C.CardChoice(card="aeron_damphair", option="no")
    assert one("cersei lannister: remove order in Winterfell") == C.CardChoice(card="cersei_lannister", area="winterfell")
    assert one("queen of thorns: remove order in The Reach") == C.CardChoice(card="queen_of_thorns", area="the_reach")
    assert one("renly baratheon: upgrade footman in Kingswood") == C.CardChoice(card="renly_baratheon", area="kingswood")
    assert one("robb stark: retreat to The Twins") == C.CardChoice(card="robb_stark", area="the_twins")


def test_D24_D25_blade() -> None:
    assert one("use blade") == C.UseBlade(use=True)
    assert one("use the valyrian steel blade") == C.UseBlade(use=True)
    assert one("keep blade") == C.UseBlade(use=False)


def test_D26_D27_casualties() -> None:
    assert one("casualties: footman, knight") == C.Casualties(units=(C.UnitSpec("footman"), C.UnitSpec("knight")))
    assert one("casualties 2 ships") == C.Casualties(units=(C.UnitSpec("ship", 2),))


def test_D28_retreat() -> None:
    assert one("retreat to Karhold else Castle Black; destroy footman") == C.Retreat(
        areas=("karhold", "castle_black"), destroy=(C.UnitSpec("footman"),))
    assert one("retreat to none") == C.Retreat(areas=())


def test_D29_port_take_over() -> None:
    assert one("port of lannisport: take over 2 ships") == C.PortShips(port="port_of_lannisport", count=2)
    assert one("Lannisport port: take over 1 ship") == C.PortShips(port="port_of_lannisport", count=1)


def test_D30_consolidate_power() -> None:
    assert one("consolidate in Lannisport") == C.Consolidate(area="lannisport")
    assert one("consolidate power in Lannisport: power") == C.Consolidate(area="lannisport")
    assert one("consolidate in Lannisport: muster knight") == C.Consolidate(
        area="lannisport", muster=(C.MusterAction(unit="knight"),))
    assert one("consolidate in Lannisport: muster none") == C.Consolidate(area="lannisport", muster=())


# --- standing instructions --------------------------------------------------------------------


@pytest.mark.parametrize(("line", "when"), [
    ("if attacked in Winterfell: play eddard stark", C.CombatFilter(role="defender", area="winterfell")),
    ("if defending Winterfell: play eddard stark", C.CombatFilter(role="defender", area="winterfell")),
    ("if attacking Moat Cailin: play eddard stark", C.CombatFilter(role="attacker", area="moat_cailin")),
    ("if attacking in Moat Cailin: play eddard stark", C.CombatFilter(role="attacker", area="moat_cailin")),
    ("against lannister: play eddard stark", C.CombatFilter(opponent="lannister")),
    ("if attacked in Winterfell against greyjoy: play eddard stark",
     C.CombatFilter(role="defender", area="winterfell", opponent="greyjoy")),
    ("if fighting in The Narrow Sea: play eddard stark", C.CombatFilter(area="the_narrow_sea")),
    ("if attacked: play eddard stark", C.CombatFilter(role="defender")),
])
def test_conditions_become_combat_filters(line: str, when: C.CombatFilter) -> None:
    assert one(line) == C.PlayCard(card="eddard_stark", when=when)


def test_every_combat_answer_takes_a_condition() -> None:
    when = C.CombatFilter(role="defender", area="winterfell")
    prefix = "if attacked in Winterfell: "
    assert one(prefix + "use blade") == C.UseBlade(use=True, when=when)
    assert one(prefix + "retreat to Karhold") == C.Retreat(areas=("karhold",), when=when)
    assert one(prefix + "casualties: footman") == C.Casualties(units=(C.UnitSpec("footman"),), when=when)
    assert one(prefix + "refuse support from greyjoy") == C.RefuseSupport(supporter="greyjoy", when=when)
    assert one(prefix + "tyrion lannister: cancel") == C.CardChoice(card="tyrion_lannister", option="cancel", when=when)


def test_ruling_152_a_condition_before_a_line_that_is_not_a_combat_answer_is_refused() -> None:
    p = problem("if attacked in Winterfell: Winterfell: march +1")
    assert p.code == "E208" and isinstance(p, InvalidLine)


# --- the file: header, comments, lines ----------------------------------------------------------


def test_header_is_read_with_the_shared_header_module() -> None:
    tf = parse_turn_file(HEADER + "play eddard stark\n")
    assert tf.header == Header("demo", "stark", 1, "planning", 1)
    assert tf.header_line is not None and tf.header_line.number == 1
    assert not tf.warnings


def test_a_file_without_header_is_read_with_a_warning() -> None:
    tf = parse_turn_file("play eddard stark\n")
    assert tf.header is None and [w.code for w in tf.warnings] == ["W301"]
    assert len(tf.commands) == 1


def test_ruling_154_two_headers_the_second_is_refused() -> None:
    tf = parse_turn_file(HEADER + "play eddard stark\n" + HEADER.replace("seq 1", "seq 2"))
    assert tf.header is not None and tf.header.seq == 1
    assert [(p.code, p.where.line) for p in tf.problems] == [("E302", 3)]


def test_ruling_154_a_header_after_other_lines_is_a_problem() -> None:
    tf = parse_turn_file("play eddard stark\n" + HEADER)
    assert [(p.code, p.where.line) for p in tf.problems] == [("E303", 2)]
    assert tf.header is not None and len(tf.commands) == 1


def test_a_malformed_header_is_refused() -> None:
    tf = parse_turn_file("game demo · house stark · round x · planning\nplay eddard stark\n")
    assert [p.code for p in tf.problems] == ["E301"]
    assert tf.header is None and len(tf.commands) == 1


def test_comments_blank_lines_and_case() -> None:
    tf = parse_turn_file(HEADER + "\n# a comment\n\nWINTERFELL: MARCH +1   # go north\n   \nPLAY Eddard STARK\n")
    assert tf.commands == (C.AssignOrder(area="winterfell", token="march+1"), C.PlayCard(card="eddard_stark"))
    assert [c.where.line for c in tf.commands if c.where] == [5, 7]


def test_where_names_file_line_and_first_column() -> None:
    tf = parse_turn_file("\n   play eddard stark\n", filename="stark.txt")
    assert tf.commands[0].where == C.Where("stark.txt", 2, 4)


def test_a_line_ending_in_a_backslash_or_an_indented_continuation_joins_the_next() -> None:
    tf = parse_turn_file("march from Winterfell: footman -> Karhold; \\\nknight -> Castle Black\n"
                         "march from White Harbor: footman ->\n    Widow's Watch\nplay eddard stark\n")
    assert [c.where.line for c in tf.commands if c.where] == [1, 3, 5]
    assert tf.commands[0].moves[1].destination == "castle_black"  # type: ignore[attr-defined]
    assert not tf.problems


def test_one_bad_line_never_hides_the_others() -> None:
    tf = parse_turn_file("Winterfell: march +1\nthis is nonsense\nplay eddard stark\nbid ?? 3\nuse blade\n")
    assert len(tf.commands) == 3
    assert [p.where.line for p in tf.problems] == [2, 4]


def test_errors_is_the_problems() -> None:
    tf = parse_turn_file("nonsense here\n")
    assert tf.errors == tf.problems and len(tf.errors) == 1


# --- diagnostics -------------------------------------------------------------------------------


def test_unknown_area_suggests_the_closest() -> None:
    p = problem("Wintertown: march +1")
    assert (p.code, p.where.column) == ("E101", 1) and "Winterfell" in p.message and "Winterfell" in p.suggestion


def test_ambiguous_name_is_its_own_class_and_lists_candidates() -> None:
    p = problem("Kings: march +1")
    assert isinstance(p, AmbiguousName) and p.code == "E110"
    assert "King's Landing" in p.message and "Kingswood" in p.message


def test_close_misspelling_is_accepted_with_a_warning_in_the_receipt() -> None:
    tf = parse_turn_file("Winterfall: march +1\n")
    assert tf.commands == (C.AssignOrder(area="winterfell", token="march+1"),)
    assert [w.code for w in tf.warnings if w.code != "W301"] == ["W101"]
    assert "read as 'Winterfell'" in tf.receipt()


def test_ruling_150_plain_march_is_ambiguous_other_plain_words_are_the_regular_token() -> None:
    p = problem("Winterfell: march")
    assert isinstance(p, AmbiguousName) and p.code == "E111"
    assert "march -1" in p.message and "march +0" in p.message
    assert [one(f"Winterfell: {w}").token for w in ("defense", "support", "raid", "consolidate")] == [  # type: ignore[attr-defined]
        "defense+1", "support+0", "raid", "consolidate"]


def test_ruling_151_which_misspelt_names_are_read() -> None:
    tf = parse_turn_file("Winterfel: march +1\nHarenhal: march +0\nKings: raid\nWintertown: raid\n")
    assert [c.area for c in tf.commands] == ["winterfell", "harrenhal"]  # type: ignore[attr-defined]
    assert [(w.where.line, w.code) for w in tf.warnings if w.code != "W301"] == [(2, "W101")]  # a prefix: no warning
    assert [(p.where.line, p.code) for p in tf.problems] == [(3, "E110"), (4, "E101")]


def test_unknown_order_suggests_orders() -> None:
    p = problem("Winterfell: defend")
    assert p.code == "E108" and "defense" in p.suggestion


@pytest.mark.parametrize(("line", "code", "column"), [
    ("march from Winterfell footman -> Karhold", "E201", 31),
    ("Winterfell: march +1.", "E202", 21),
    ("raid from Bay of Ice onto", "E203", 26),
    ("marhc from Winterfell: footman -> Karhold", "E204", 1),
    ("casualties: 0 footmen", "E205", 13),
    ("bid iron throne 500", "E205", 17),
    ("tyrion lannister: fiefdoms", "E206", 19),
    ("eddard stark: cancel", "E207", 1),
    ("support Winterfell", "E209", 9),
    ("play stark", "E209", 6),
    ("muster in Harrenhal: upgrade knight to ship", "E209", 30),
    ("Winterfell: march +3", "E108", 13),
    ("play sir jaimy", "E103", 6),
    ("casualties: dragons", "E106", 13),
    ("bid iron crown 3", "E107", 5),
    ("support the lions", "E102", 9),
])
def test_problem_codes_and_columns(line: str, code: str, column: int) -> None:
    p = next(iter(parse_turn_file(line).problems))
    assert (p.code, p.where.column) == (code, column), p.render()
    assert code in CODES


def test_syntax_errors_say_what_was_expected_in_words() -> None:
    p = problem("march from Winterfell footman -> Karhold")
    assert p.message == "unexpected '->'; expected ':'"
    p = problem("raid from Bay of Ice onto")
    assert p.expected == ("'nobody'", "'none'", "'nothing'", "a name")
    assert p.suggestion == "the line reads: raid from AREA onto AREA else none | raid from AREA: none"


def test_no_message_ever_shows_a_grammar_internal_name() -> None:
    lines = ["march from", "march from X:", "support stark in", ": : :", "-> ->", "if attacked in X",
             "raven swap", "tie-break", "muster in X: upgrade", "Winterfell: march +1 *", "bid", "123", "*",
             "raid from A onto B else", "casualties:", "play", "retreat to X; destroy", "Winterfell:", "consolidate",
             "supply: destroy", "wildling card:", "a throne of blades:", "port of lannisport: take over ships"]
    for line in lines:
        for p in parse_turn_file(line).problems:
            text = p.render() + " ".join(p.expected)
            assert "__" not in text and "ANON" not in text and "_COLON" not in text, text


def test_render_shows_the_line_and_a_caret_under_the_place() -> None:
    p = problem("play eddard stak stark")
    lines = p.render().splitlines()
    assert lines[0] == ("<turn>:1:6: error E103: unknown house card 'eddard stak stark'; "
                        "did you mean 'Eddard Stark' or 'Darkstar'?")
    assert lines[1] == "    play eddard stak stark"
    assert lines[2] == "         ^~~~~~~~~~~~~~~~~"


def test_every_terminal_of_the_grammar_is_named() -> None:
    from adjudicator.turnfile.parser import _parser

    names = [t.name for t in _parser().terminals]
    assert names and not [n for n in names if n.startswith("__") or "ANON" in n]


def test_the_printer_never_fails_on_an_id_it_does_not_know() -> None:
    text = format_command(C.Casualties(units=(C.UnitSpec("dragon", 2),)))
    assert text == "casualties: 2 dragons"


def test_error_classes_share_one_base_and_are_value_errors() -> None:
    for cls in (InvalidLine, IllegalOrder, AmbiguousName):
        assert issubclass(cls, TurnFileError) and issubclass(cls, ValueError)


# --- bad input -------------------------------------------------------------------------------------


def test_empty_and_blank_files_give_nothing_and_no_problem() -> None:
    for text in ("", "\n\n", "   \n\t\n", "# only a comment\n", b""):
        tf = parse_turn_file(text)
        assert (tf.commands, tf.problems) == ((), ())


def test_a_file_over_the_size_limit_is_refused_whole() -> None:
    big = ("play eddard stark\n" * (MAX_FILE_BYTES // 18 + 10)).encode()
    assert len(big) > MAX_FILE_BYTES
    tf = parse_turn_file(big)
    assert [p.code for p in tf.problems] == ["E001"] and tf.commands == ()
    assert "1,000,000" in tf.problems[0].message


def test_a_ten_megabyte_file_is_refused_quickly() -> None:
    tf = parse_turn_file("x" * 10_000_000)
    assert [p.code for p in tf.problems] == ["E001"]


def test_a_line_over_the_limit_is_refused_and_the_others_stand() -> None:
    tf = parse_turn_file("play eddard stark\n" + "a" * 100_000 + "\nuse blade\n")
    assert [(p.code, p.where.line) for p in tf.problems] == [("E002", 2)]
    assert len(tf.commands) == 2
    assert len(tf.problems[0].line_text) < MAX_LINE_CHARS


def test_binary_junk_and_nul_bytes_are_refused_whole() -> None:
    junk = bytes(range(256)) * 8
    assert [p.code for p in parse_turn_file(junk).problems] == ["E003"]
    assert [p.code for p in parse_turn_file(b"play eddard stark\x00\n").problems] == ["E003"]
    assert [p.code for p in parse_turn_file("play\x00 eddard").problems] == ["E003"]


def test_a_control_character_refuses_its_line_only() -> None:
    tf = parse_turn_file("play eddard\x07 stark\nuse blade\n")
    assert [(p.code, p.where.line, p.where.column) for p in tf.problems] == [("E004", 1, 12)]
    assert tf.commands == (C.UseBlade(use=True),)


def test_byte_order_marks_and_utf16() -> None:
    assert one(codecs.BOM_UTF8 + b"play eddard stark\n") == C.PlayCard(card="eddard_stark")  # type: ignore[arg-type]
    assert one("\ufeffplay eddard stark\n") == C.PlayCard(card="eddard_stark")
    assert one("play eddard stark\n".encode("utf-16")) == C.PlayCard(card="eddard_stark")  # type: ignore[arg-type]


def test_windows_1252_and_latin1_bytes_are_read_with_a_warning() -> None:
    tf = parse_turn_file("bid king\u2019s court 1 # café\n".encode("cp1252"))  # a curly quote is byte 0x92
    assert tf.commands == (C.Bid(track="kings_court", amount=1),)
    assert [w.message for w in tf.warnings if w.code == "W206"] == ["the file is not UTF-8; it was read as Windows-1252"]
    tf = parse_turn_file(b"# \x81\xe9\nplay eddard stark\n")  # 0x81 is not Windows-1252
    assert tf.commands == (C.PlayCard(card="eddard_stark"),)
    assert [w.message for w in tf.warnings if w.code == "W206"] == ["the file is not UTF-8; it was read as Latin-1"]


def test_crlf_lone_cr_and_tabs() -> None:
    tf = parse_turn_file("play eddard stark\r\nuse blade\rkeep blade\n\tWinterfell:\tmarch\t+1\n")
    assert len(tf.commands) == 4 and not tf.problems
    assert [c.where.line for c in tf.commands if c.where] == [1, 2, 3, 4]


def test_non_breaking_spaces_and_look_alike_characters() -> None:
    assert one("Winterfell:\u00a0march\u2009+1") == C.AssignOrder(area="winterfell", token="march+1")
    assert one("Winterfell: march \u20131") == C.AssignOrder(area="winterfell", token="march-1")  # en dash
    assert one("Winterfell: march \u22121") == C.AssignOrder(area="winterfell", token="march-1")  # minus sign
    assert one("march from Winterfell: knight \u2192 Karhold").moves[0].destination == "karhold"  # type: ignore[attr-defined]
    assert one("march from Winterfell: knight => Karhold").moves[0].destination == "karhold"  # type: ignore[attr-defined]
    assert one("bid king\u2019s court 1") == C.Bid(track="kings_court", amount=1)
    assert one("Karhold: raid\u2217") == C.AssignOrder(area="karhold", token="raid*")
    assert one("\uff30\uff4c\uff41\uff59 eddard stark") == C.PlayCard(card="eddard_stark")  # full-width "Play"
    assert one("play ed\u200bdard stark") == C.PlayCard(card="eddard_stark")  # a zero-width space


def test_quoted_printable_leftovers_are_decoded() -> None:
    tf = parse_turn_file("game demo =C2=B7 house stark =C2=B7 round 1 =C2=B7 planning =C2=B7 seq 1\n"
                         "march from Winterfell: knight -> Kar=\nhold\nplay eddard=20stark=20\n")
    assert tf.header == Header("demo", "stark", 1, "planning", 1)
    assert [type(c).__name__ for c in tf.commands] == ["March", "PlayCard"]
    assert "W202" in [w.code for w in tf.warnings]


def test_ruling_153_a_wholly_quoted_mail_is_read_and_nested_quoting_too() -> None:
    tf = parse_turn_file("> " + HEADER + "> play eddard stark\n>\n> use blade\n")
    assert tf.header is not None and len(tf.commands) == 2 and not tf.problems
    assert "W201" in [w.code for w in tf.warnings]
    assert len(parse_turn_file("> > play eddard stark\n>> use blade\n").commands) == 2


def test_ruling_153_quoted_lines_in_a_partly_quoted_mail_are_ignored_with_a_warning() -> None:
    tf = parse_turn_file("play eddard stark\n> On Monday you wrote:\n> raid from nowhere\nuse blade\n")
    assert len(tf.commands) == 2 and not tf.problems
    assert [w.code for w in tf.warnings if w.code != "W301"] == ["W203"]


def test_a_seal_and_a_mail_signature_are_not_read() -> None:
    sealed = (HEADER + "play eddard stark\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n"
              "-----END SSH SIGNATURE-----\n")
    tf = parse_turn_file(sealed)
    assert len(tf.commands) == 1 and not tf.problems and not tf.warnings
    tf = parse_turn_file(HEADER + "use blade\n-- \nAlice, sent from a phone\n")
    assert len(tf.commands) == 1 and not tf.problems
    assert [w.code for w in tf.warnings] == ["W204"]


def test_too_many_problems_stop_the_reading_once() -> None:
    tf = parse_turn_file("nonsense here\n" * 500)
    assert len(tf.problems) == 101 and tf.problems[-1].code == "E005"


# --- the receipt and the printer --------------------------------------------------------------------


def test_receipt_restates_accepted_lines_canonically_and_lists_problems() -> None:
    tf = parse_turn_file(HEADER + "winterfell: MARCH+1\nnonsense line\n", filename="stark.txt")
    text = tf.receipt()
    assert "Turn file stark.txt (game demo · house stark · round 1 · planning · seq 1)" in text
    assert "  line 2: Winterfell: march +1" in text
    assert "stark.txt:3:" in text and "error E203" in text
    assert text.rstrip().endswith("1 problem(s), 0 missing")
    assert not tf.ok


def test_receipt_of_a_clean_file_says_complete() -> None:
    tf = parse_turn_file(HEADER + "play eddard stark\n")
    assert tf.ok and tf.receipt().rstrip().endswith("complete: every line accepted, nothing missing")


@pytest.mark.parametrize(("command", "text"), [
    (C.AssignOrder(area="kings_landing", token="march+0"), "King's Landing: march +0"),
    (C.LeaveUnordered(area="winterfell"), "Winterfell: no order"),
    (C.Support(side="stark"), "support stark in every combat"),
    (C.Support(side=None, combat_area="winterfell", origin="the_narrow_sea"),
     "support from The Narrow Sea: none in Winterfell"),
    (C.Raid(origin="bay_of_ice", targets=()), "raid from Bay of Ice: none"),
    (C.Consolidate(area="lannisport", muster=()), "consolidate in Lannisport: muster none"),
    (C.PlayCard(card="euron_crows_eye", when=C.CombatFilter(role="attacker")), "if attacking: play Euron Crow's Eye"),
    (C.WesterosChoice(card="put_to_the_sword", option="no march+1"), "Put to the Sword: no march +1"),
    (C.CardChoice(card="aeron_damphair", option="no"), "Aeron Damphair: no"),
    (C.WildlingChoice(card="crow_killers", units=(C.Located("winterfell", "knight", 2),)),
     "Crow Killers: downgrade 2 knights in Winterfell"),
    (C.TieBreak(order=("stark", "tyrell"), context="kings_court"), "tie-break king's court: stark, tyrell"),
])
def test_canonical_printer(command: C.Command, text: str) -> None:
    assert format_command(command) == text
    assert one(text) == command


def test_format_turn_file_writes_the_header_and_one_line_per_command() -> None:
    cmds = (C.PlayCard(card="eddard_stark"), C.UseBlade(use=False))
    text = format_turn_file(cmds, Header("demo", "stark", 2, "action", 3))
    assert text == "game demo · house stark · round 2 · action · seq 3\nplay Eddard Stark\nkeep blade\n"
    tf = parse_turn_file(text)
    assert tf.commands == cmds and tf.header == Header("demo", "stark", 2, "action", 3)


def test_a_turn_file_value_is_frozen() -> None:
    tf = parse_turn_file("use blade\n")
    assert isinstance(tf, TurnFile)
    with pytest.raises(AttributeError):
        tf.commands = ()  # type: ignore[misc]
