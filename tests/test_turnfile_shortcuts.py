"""The turn-file reader's shortcuts (issue 17) give exactly what the general path gives.

Reading a short turn file once cost about half as much again as Lark's own parse of its lines;
cleaning the source, counting control characters, finding mail quoting, printing names and the
E002 length check now skip work where it provably changes nothing. Each shortcut is compared here
with the general path it stands in for (kept below as it was written before), on hostile text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.game import command_check
from adjudicator.game import commands as C
from adjudicator.turnfile import diagnostics as D
from adjudicator.turnfile import printer
from adjudicator.turnfile.names import (
    NAME_KINDS,
    ORDER_TEXT,
    SEA_ORDER_TEXT,
    TRACK_NAMES,
    VASSAL_ORDER_TEXT,
    current_vocabulary,
    display_name,
    lookup,
    namespace,
    vocabulary,
)
from adjudicator.turnfile.printer import format_command
from adjudicator.util.lines import split_lines

CLASSIC, MOTHER_OF_DRAGONS = "classic", "mother-of-dragons"

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# What the shortcuts test for, and what they must not be fooled by: quoting, look-alikes, the
# header's middle dot, combining marks NFKC composes, full-width forms, controls, surrogates.
PIECES = list(" \t\r\n\x00\x07\x0b\x0c\x1f\x7f\x85\x9f\xa0\xad·|>#\"'`=:\\-*,;") + [
    "=>", "->", "> ", " > ", ">>", "--", "\u2192", "\u2013", "\u2019", "\u201c", "\u2217", "\u2022", "\u200b",
    "\ufeff", "\ufffd", "\uff1e", "\uff02", "\u0301", "e\u0301", "\u00b7\u0301", "\u2028", "\ud800", "\U0001f600",
    "ﬁ", "Ⅳ", "march", "Winterfell: march +1", "game x · house stark · round 1 · planning · seq 1",
]
texts = st.text(max_size=200) | st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)


# --- the general path, as it was ----------------------------------------------------------------


def general_clean_line(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(D._LOOKALIKES)
    elif "\t" in text or "`" in text:
        text = text.translate(D._LOOKALIKES)
    return text.replace("=>", "->").replace('"', "").rstrip()


def general_unquote(lines: list[str], src: D.Source) -> list[str | None]:
    filled = [ln for ln in lines if ln.strip()]
    depth = 0
    while filled and all(D._QUOTED.match(ln) for ln in filled):
        lines = [D._QUOTED.sub("", ln, count=1) for ln in lines]
        filled = [ln for ln in lines if ln.strip()]
        depth += 1
    if depth:
        src.notices.append(D.Notice("W201", "the whole turn was quoted ('> '); the quoting was removed", D.Where(src.filename, 0)))
        return list(lines)
    out: list[str | None] = []
    for number, ln in enumerate(lines, 1):
        if D._QUOTED.match(ln):
            if not out or out[-1] is not None:
                src.notices.append(D.Notice("W203", "quoted text ('> ...') was ignored", D.Where(src.filename, number), ln))
            out.append(None)
        else:
            out.append(ln)
    return out


# --- each shortcut against it -------------------------------------------------------------------


@SETTINGS
@given(texts)
def test_cleaning_a_text_line_by_line_is_the_general_cleaning(text: str) -> None:
    assert D._clean_lines(text) == [general_clean_line(t) for t in split_lines(text)]
    assert D.clean_line(text) == general_clean_line(text)


@pytest.mark.parametrize("line", ["game g · house stark · round 1 · planning · seq 1", "a·\u0301b", "·e\u0301 ", "x\t·`\"=>"])
def test_the_header_s_middle_dot_is_cleaned_as_before(line: str) -> None:
    assert D.clean_line(line) == general_clean_line(line)


@SETTINGS
@given(texts)
def test_control_characters_are_counted_as_the_pattern_counts_them(text: str) -> None:
    assert D._control_characters(text) == len(D._CONTROL.findall(text))


@SETTINGS
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=5), max_size=12))
def test_mail_quoting_is_found_as_before(parts: list[str]) -> None:
    lines = [general_clean_line(t) for t in split_lines("".join(parts))]
    fast, general = D.Source("q.txt"), D.Source("q.txt")
    assert D._unquote(list(lines), fast) == general_unquote(list(lines), general)
    assert fast.notices == general.notices


def general_read_source(data: str | bytes) -> D.Source:
    """read_source with each shortcut replaced by the general path it stands in for."""
    with (patch.object(D, "_clean_lines", lambda text: [general_clean_line(t) for t in split_lines(text)]),
          patch.object(D, "_control_characters", lambda text: len(D._CONTROL.findall(text))),
          patch.object(D, "_unquote", general_unquote)):  # fmt: skip
        return D.read_source(data, "t.txt")


@SETTINGS
@given(texts | st.binary(max_size=200))
def test_a_whole_source_is_read_as_the_general_path_reads_it(data: str | bytes) -> None:
    fast, general = D.read_source(data, "t.txt"), general_read_source(data)
    assert (fast.lines, fast.headers, fast.notices) == (general.lines, general.headers, general.notices)
    assert [p.render() for p in fast.problems] == [p.render() for p in general.problems]


def test_the_sample_turn_files_are_read_as_the_general_path_reads_them() -> None:
    samples = sorted((Path(__file__).resolve().parent.parent / "samples").rglob("*.txt"))
    assert len(samples) > 20
    for path in samples:
        data = path.read_bytes()
        fast, general = D.read_source(data, "t.txt"), general_read_source(data)
        assert (fast.lines, fast.headers, fast.notices) == (general.lines, general.headers, general.notices), path
        assert [p.render() for p in fast.problems] == [p.render() for p in general.problems], path


# --- names -------------------------------------------------------------------------------------


def general_display_name(kind: str, ident: str) -> str:
    for variant in dict.fromkeys((current_vocabulary(), CLASSIC, MOTHER_OF_DRAGONS)):
        shown = namespace(kind, variant).display.get(ident)
        if shown is not None:
            return shown
    return ident


@pytest.mark.parametrize("variant", [CLASSIC, MOTHER_OF_DRAGONS])
def test_a_printed_name_is_the_namespace_s_in_either_vocabulary(variant: str) -> None:
    kinds = [k for k in NAME_KINDS if k not in ("unit", "track")]  # those two print from their own tables
    with vocabulary(variant):
        for kind in kinds:
            for other in (CLASSIC, MOTHER_OF_DRAGONS):
                for ident in namespace(kind, other).display:
                    assert display_name(kind, ident) == general_display_name(kind, ident), (kind, ident)
        assert display_name("area", "no-such-area") == "no-such-area"


def test_the_vocabulary_is_restored_after_an_error_and_when_nested() -> None:
    assert current_vocabulary() == CLASSIC
    with pytest.raises(RuntimeError), vocabulary(MOTHER_OF_DRAGONS):
        assert lookup("house", "Arryn").id == "arryn"
        with vocabulary(CLASSIC):
            assert lookup("house", "Arryn").id is None
        assert current_vocabulary() == MOTHER_OF_DRAGONS
        raise RuntimeError("a parse that failed")
    assert current_vocabulary() == CLASSIC
    with pytest.raises(Exception, match="unknown variant"):
        vocabulary("no-such-variant")
    assert re.fullmatch(r"\w[\w-]*", current_vocabulary())


# --- E002: the commands that are not printed to be measured ---------------------------------------


def _longest(kind: str, printed: Callable[[str], str]) -> str:
    ids = {i for variant in (CLASSIC, MOTHER_OF_DRAGONS) for i in namespace(kind, variant).display}
    return max(sorted(ids), key=lambda i: len(printed(i)))


def test_the_commands_e002_does_not_print_hold_one_name_per_field() -> None:
    """No list and no nested command in them, so their printed length is that of their longest names."""
    for cls in printer._SHORT_TYPES:
        assert {kind.shape for _, kind in command_check._field_kinds(cls)} <= {"text", "int", "bool", "table"}, cls
        assert {kind.nested for _, kind in command_check._field_kinds(cls) if kind.shape == "table"} <= {"CombatFilter"}, cls


def test_the_commands_e002_does_not_print_are_short_with_the_longest_names() -> None:
    area = _longest("area", lambda i: display_name("area", i))
    house = max(sorted({h for v in (CLASSIC, MOTHER_OF_DRAGONS) for h in namespace("house", v).display}), key=len)
    card = _longest("card", lambda i: display_name("house_card", i.split(":", 1)[1]))
    card = card.split(":", 1)[1]
    token = max(sorted({*C.ORDER_TOKENS, *C.VASSAL_ORDER_TOKENS, *SEA_ORDER_TEXT}),
                key=lambda t: len(ORDER_TEXT.get(t) or SEA_ORDER_TEXT.get(t) or VASSAL_ORDER_TEXT.get(t, t)))
    track = max(sorted(TRACK_NAMES), key=lambda t: len(TRACK_NAMES[t]))
    when = C.CombatFilter(role="defender", area=area, opponent=house)
    worst = [
        C.AssignOrder(area=area, token=token), C.LeaveUnordered(area=area), C.Raven(action="swap", area=area, token=token),
        C.PlayCard(card=card, when=when), C.RefuseSupport(supporter=house, when=when), C.UseBlade(use=False, when=when),
        C.PortShips(port=area, count=3), C.Support(side=house, combat_area=area, origin=area), C.Bid(track=track, amount=99),
        C.Give(power=20, to=house),
        *(C.CardChoice(card=card, when=when, **kw) for kw in (  # type: ignore[arg-type]
            {"option": "cancel"}, {"track": track}, {"house_card": card}, {"area": area}, {"option": "remove"})),
    ]
    assert {type(c) for c in worst} == printer._SHORT_TYPES
    for cmd in worst:
        assert printer.prints_short(cmd)
        assert len(format_command(cmd)) <= D.MAX_LINE_CHARS // 4, format_command(cmd)


def test_a_conditional_answer_too_long_inside_is_told_by_its_own_length() -> None:
    """E002 for a line under a condition reports the answer's own printed length when the answer
    alone is too long, else the whole line's (the check runs inside, then around the condition)."""
    from adjudicator.turnfile.parser import parse_turn_file

    long_units = ", ".join(["f"] * 150)  # written in 448 characters, printed in 1,348 ("footman, ...")
    inner = parse_turn_file(f"if attacked in kl: casualties: {long_units}\n").problems
    alone = parse_turn_file(f"casualties: {long_units}\n").problems
    assert [p.message for p in inner] == [p.message for p in alone]
    assert [p.code for p in inner] == ["E002"] and "1,360 characters" in inner[0].message
