"""docs/turn-files.md stays true: every example parses, the tables match the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.game.commands import AssignOrder
from adjudicator.turnfile.diagnostics import CODES, WARNING_CODES
from adjudicator.turnfile.names import ORDER_TEXT
from adjudicator.turnfile.parser import parse_turn_file

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "turn-files.md"
TEXT = GUIDE.read_text("utf-8")
BLOCKS = [(m.group(1), m.group(2), TEXT[: m.start()].count("\n") + 2)
          for m in re.finditer(r"```(turn(?:-error|-adwd|-affc)?)\n(.*?)```", TEXT, re.DOTALL)]


def test_the_guide_has_examples() -> None:
    assert len([b for b in BLOCKS if b[0] == "turn"]) >= 20
    assert any(b[0] == "turn-error" for b in BLOCKS)


@pytest.mark.parametrize(("body", "line"), [(b, n) for kind, b, n in BLOCKS if kind == "turn"])
def test_every_example_parses_without_a_problem(body: str, line: int) -> None:
    tf = parse_turn_file(body, filename=f"turn-files.md:{line}")
    assert not tf.problems, [p.render() for p in tf.problems]
    assert [w.code for w in tf.warnings if w.code != "W301"] == []
    assert len(tf.commands) == len([ln for ln in body.splitlines()
                                     if ln.strip() and not ln.lstrip().startswith(("#", "game "))])


@pytest.mark.parametrize(("body", "line"), [(b, n) for kind, b, n in BLOCKS if kind == "turn-adwd"])
def test_every_a_dance_with_dragons_example_parses_in_its_vocabulary(body: str, line: int) -> None:
    tf = parse_turn_file(body, filename=f"turn-files.md:{line}", variant="classic+adwd")
    assert not tf.problems, [p.render() for p in tf.problems]
    assert len(tf.commands) == len([ln for ln in body.splitlines() if ln.strip()])


@pytest.mark.parametrize(("body", "line"), [(b, n) for kind, b, n in BLOCKS if kind == "turn-affc"])
def test_every_a_feast_for_crows_example_parses_in_its_vocabulary(body: str, line: int) -> None:
    tf = parse_turn_file(body, filename=f"turn-files.md:{line}", variant="a-feast-for-crows")
    assert not tf.problems, [p.render() for p in tf.problems]
    assert len(tf.commands) == len([ln for ln in body.splitlines() if ln.strip()])


@pytest.mark.parametrize(("body", "line"), [(b, n) for kind, b, n in BLOCKS if kind == "turn-error"])
def test_every_error_example_is_refused_line_by_line(body: str, line: int) -> None:
    tf = parse_turn_file(body)
    lines = [i for i, ln in enumerate(body.splitlines(), 1) if ln.strip()]
    assert sorted({p.where.line for p in tf.problems}) == lines
    assert tf.commands == ()


def test_the_code_tables_list_every_code_and_no_other() -> None:
    documented = set(re.findall(r"^\| ([EW]\d{3}) ", TEXT, re.MULTILINE))
    assert documented == set(CODES) | set(WARNING_CODES)


def _order_rows() -> list[tuple[str, list[str]]]:
    rows = []
    for m in re.finditer(r"^\| [^|]+\| `([^`]+)` +\|(.*)\|$", TEXT, re.MULTILINE):
        rows.append((m.group(1), re.findall(r"`([^`]+)`", m.group(2))))
    return rows


def test_R112_the_order_table_shows_every_token_in_canonical_form() -> None:
    assert sorted(c for c, _ in _order_rows()) == sorted(ORDER_TEXT.values())


@pytest.mark.parametrize(("canonical", "spellings"), _order_rows())
def test_every_spelling_in_the_order_table_gives_its_token(canonical: str, spellings: list[str]) -> None:
    token = next(t for t, text in ORDER_TEXT.items() if text == canonical)
    for written in [canonical, *spellings]:
        tf = parse_turn_file(f"Winterfell: {written}")
        assert tf.commands == (AssignOrder(area="winterfell", token=token),), (written, [str(p) for p in tf.problems])


# --- turn texts shown in the other docs ----------------------------------------------------------

DOCS = GUIDE.parent
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def turn_texts_elsewhere() -> list[tuple[str, str]]:
    """Every fenced block of the other docs and README that starts with a header line: the turn
    text (up to a seal's BEGIN line), where it is."""
    from adjudicator.turnfile.header import is_header_line

    found = []
    for path in [*sorted(DOCS.glob("*.md")), DOCS.parent / "README.md"]:
        if path == GUIDE:
            continue
        text = path.read_text("utf-8")
        for m in FENCE.finditer(text):
            if m[1] != "turn-error" and is_header_line(m[2].split("\n", 1)[0]):
                found.append((f"{path.name}:{text[: m.start()].count(chr(10)) + 2}",
                              m[2].split("-----BEGIN SSH SIGNATURE-----")[0]))  # fmt: skip
    return found


def test_the_other_docs_show_turn_texts() -> None:
    assert [where.split(":")[0] for where, _ in turn_texts_elsewhere()].count("seals.md") >= 1


@pytest.mark.parametrize(("where", "body"), turn_texts_elsewhere())
def test_every_turn_text_of_the_other_docs_parses_without_a_problem(where: str, body: str) -> None:
    """seals.md showed 'march Winterfell -> Karhold' in a planning turn: E201 (no 'from')."""
    tf = parse_turn_file(body, filename=where)
    assert not tf.problems, [p.render() for p in tf.problems]
    assert tf.commands
