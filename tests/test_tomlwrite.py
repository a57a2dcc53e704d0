"""The snapshot's TOML with remembered tables is ``tomli_w.dumps``'s text, byte for byte, whatever came before."""

from __future__ import annotations

import datetime
import subprocess
import sys

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.util import tomlwrite


@pytest.fixture(autouse=True)
def _fresh_memo():
    tomlwrite.forget()
    yield
    tomlwrite.forget()


def _states(players: int, rounds: int, **options) -> list[dict]:
    from adjudicator.robots.simulate import simulate

    seen: list[dict] = []
    result = simulate(players, 3, rounds=rounds, text=False, on_step=lambda s: seen.append(s.to_dict()), **options)
    assert result.problems == [] and len(seen) > 10
    return seen


@pytest.mark.parametrize("players, rounds, options", [
    (6, 3, {}), (4, 2, {"tides_of_battle": True}), (7, 1, {"expansion": "mother-of-dragons"}),
])  # fmt: skip
def test_every_state_of_a_robot_game_in_turn_is_written_as_tomli_w_writes_it(players, rounds, options):
    for number, data in enumerate(_states(players, rounds, **options)):
        doc = {**data, "snapshot": {"number": number, "applied": [f"{number:06d}-stark.txt"], "since": {}}}
        assert tomlwrite.dumps(doc) == tomli_w.dumps(doc), f"step {number}"
        assert tomlwrite.dumps(doc) == tomli_w.dumps(doc), f"step {number}, written again"


@pytest.mark.parametrize("value", [1, True, 1.0, "1", -0.0, 0.0, [1], [1.0], ["1"], datetime.date(2026, 1, 1), {"y": 1}])
def test_a_value_that_differs_only_in_type_is_never_given_the_text_of_another(value):
    for earlier in (1, True, 1.0, "1", 0.0, [1], {"y": 1}):
        tomlwrite.dumps({"a": {"b": {"x": earlier}}})
    doc = {"a": {"b": {"x": value}}}
    assert tomlwrite.dumps(doc) == tomli_w.dumps(doc)


def test_the_same_table_at_another_place_or_in_another_order_gets_its_own_text():
    unit = {"house": "stark", "type": "footman"}
    for doc in ({"areas": {"winterfell": unit}}, {"areas": {"the_eyrie": unit}},
                {"segment": {"start": {"areas": {"winterfell": unit}}}},
                {"areas": {"winterfell": {"type": "footman", "house": "stark"}}}):  # fmt: skip
        assert tomlwrite.dumps(doc) == tomli_w.dumps(doc)


def test_lists_of_tables_inline_as_tables_and_mixed_are_written_as_tomli_w_writes_them():
    small, big = {"k": 1}, {"key": "x" * 120, "context": {"area": "winterfell"}}
    for value in ([small, small], [big, big], [small, big], [big, small], [big], [small]):
        doc = {"pending": value, "round": 1, "answers": value, "t": {"deep": value}}
        assert tomlwrite.dumps(doc) == tomli_w.dumps(doc), value


def test_a_value_tomli_w_cannot_write_is_refused_as_tomli_w_refuses_it():
    for bad in ({"a": {"b": {1, 2}}}, {"a": {"b": object()}}, {"a": {3: "x"}}):
        with pytest.raises(TypeError):
            tomli_w.dumps(bad)
        with pytest.raises(TypeError):
            tomlwrite.dumps(bad)


def _held() -> int:
    return sum(len(key[1]) + len(text) for key, text in tomlwrite._MEMO.items())


def test_the_memo_stays_within_its_bound_of_characters_and_forgets_the_table_used_longest_ago():
    big = "x" * 1000
    for i in range(tomlwrite.MEMO_CHARS // 1000 + 50):
        tomlwrite.dumps({"areas": {"a": {"n": i, "s": big}}})
    assert 0 < _held() <= tomlwrite.MEMO_CHARS
    assert tomlwrite._held[0] == _held()  # its count of what it holds, the same
    assert (("areas", "a"), repr({"n": 0, "s": big})) not in tomlwrite._MEMO  # the first, forgotten
    assert tomlwrite.dumps({"areas": {"a": {"n": 3, "s": big}}}) == tomli_w.dumps({"areas": {"a": {"n": 3, "s": big}}})


def test_a_table_found_whole_keeps_its_pieces_so_that_they_are_found_when_it_changes():
    areas = {f"area{i}": {"units": [f"u{i}"] * 3} for i in range(5)}
    tomlwrite.dumps({"areas": areas})
    pieces = set(tomlwrite._MEMO)
    for i in range(tomlwrite.MEMO_CHARS // 1000 + 50):  # the same areas each time, among many other tables
        tomlwrite.dumps({"areas": areas, "other": {"n": i, "s": "y" * 1000}})
    assert pieces <= set(tomlwrite._MEMO)
    changed = {**areas, "area0": {"units": []}}
    assert tomlwrite.dumps({"areas": changed}) == tomli_w.dumps({"areas": changed})


_keys = st.one_of(st.sampled_from(["a", "b", "units", "c.d", "with space", "", "ü", '"q"']), st.text(max_size=4))
_scalars = st.one_of(st.integers(-5, 5), st.booleans(), st.floats(allow_nan=False, width=16), st.text(max_size=8),
                     st.sampled_from(["x" * 90, "line\nbreak", 'quo"te', "tab\t"]), st.dates())  # fmt: skip


def _nested(inner: st.SearchStrategy) -> st.SearchStrategy:
    tables = st.lists(st.dictionaries(_keys, inner, max_size=3), min_size=1, max_size=3)
    return st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=4), tables)


_values = st.recursive(_scalars, _nested, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(_keys, _values, max_size=5), min_size=1, max_size=4))
def test_generated_tables_written_one_after_another_are_written_as_tomli_w_writes_them(docs):
    for doc in docs:
        assert tomlwrite.dumps(doc) == tomli_w.dumps(doc)


def test_the_first_document_of_a_process_is_tomli_w_s_alone_and_the_next_ones_are_remembered():
    program = """
import tomli_w
from adjudicator.util import tomlwrite
doc = {"round": 2, "areas": {"winterfell": {"units": ["footman"]}, "the_eyrie": {}}, "pending": [{"k": 1}]}
first = tomlwrite.dumps(doc)
assert not tomlwrite._MEMO, tomlwrite._MEMO
assert first == tomlwrite.dumps(doc) == tomlwrite.dumps(doc) == tomli_w.dumps(doc)
assert tomlwrite._MEMO
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")
